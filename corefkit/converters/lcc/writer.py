from corefkit.converters.lcc.reader import loss_actions, partial_losses, write_stream  # noqa: F401  (split pending)
