from corefkit.converters.mmax2.reader import loss_actions, partial_losses, replaceable_output, write_path  # noqa: F401  (split pending)
