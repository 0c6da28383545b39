#!/usr/bin/env python3
"""Coreference scores inside a training loop, with corefkit's in-memory API.

The two functions below are the body of an evaluation callback: ``on_batch`` receives the
predicted and the gold clusters of a batch of documents (a list of documents, each a list of
clusters, each a list of ``(start, end)`` mentions), ``on_epoch_end`` reports and starts over.
The numbers are the reference scorer's (singletons kept, repeated mentions as scorer.pl
v8.01 treats them), summed exactly over the epoch's documents; ``as_dict()`` gives them under
the key names of Hugging Face evaluate's ``coval`` (``muc/f1`` … in [0, 1], ``conll_score``
in [0, 100]).

Where the two functions go:

* PyTorch Lightning: create the scorer in the LightningModule's ``__init__``; call
  ``on_batch(predicted, gold)`` at the end of ``validation_step`` (or in a ``Callback``'s
  ``on_validation_batch_end``, from its ``outputs``), and
  ``self.log_dict(on_epoch_end(), prog_bar=True)`` in ``on_validation_epoch_end``.
* Hugging Face Trainer: in the ``compute_metrics(eval_prediction)`` function given to the
  Trainer, decode the clusters of each document, call ``on_batch`` once on them all and return
  ``on_epoch_end()`` (the Trainer prefixes the keys with ``eval_``); or, when your own
  evaluation code decodes the clusters, call ``on_batch`` there and, in a
  ``TrainerCallback``'s ``on_evaluate(args, state, control, metrics, **kwargs)``, do
  ``metrics.update(on_epoch_end())`` (that dict is what ``Trainer.evaluate`` returns).

Runs as is, without either library: ``python examples/training_loop.py``.
"""

from __future__ import annotations

import corefkit

Span = tuple[int, int]
Document = list[list[Span]]

scorer = corefkit.Scorer()  # once; metrics="all" by default (MUC, B³, CEAF, BLANC, LEA)


def on_batch(predicted: list[Document], gold: list[Document]) -> None:
    """Add a batch of documents. Model outputs are often tensors: give plain numbers,
    e.g. ``[[tuple(span) for span in cluster.tolist()] for cluster in clusters]``."""
    for gold_clusters, predicted_clusters in zip(gold, predicted):
        scorer.update(key=gold_clusters, response=predicted_clusters)


def on_epoch_end() -> dict[str, float]:
    """The epoch's scores, flat, then a clean slate for the next epoch."""
    report = scorer.compute()
    scorer.reset()
    return report.as_dict()  # or as_dict(coval=True): exactly coval's keys


if __name__ == "__main__":
    gold_batches = [
        [[[(0, 1), (5, 5), (9, 10)], [(3, 3)]], [[(2, 4), (8, 8)]]],
        [[[(0, 0), (6, 7)], [(11, 12), (15, 15), (20, 21)]]],
    ]
    predicted_batches = [
        [[[(0, 1), (5, 5)], [(9, 10), (3, 3)]], [[(2, 4), (8, 8)], [(12, 12)]]],
        [[[(0, 0), (6, 7), (15, 15)], [(11, 12), (20, 21)]]],
    ]
    for epoch in range(2):
        for predicted, gold in zip(predicted_batches, gold_batches):
            on_batch(predicted, gold)
        scores = on_epoch_end()
        print(f"epoch {epoch}: " + ", ".join(f"{k} {v:.4f}" for k, v in scores.items()
                                             if k.endswith("/f1") or k == "conll_score"))
