"""The two 1.x metric objects whose behaviour today's classes split between them."""

from __future__ import annotations

from brainscore_metrics.behavior.i2n import I2n as _I2n
from brainscore_metrics.behavior.i2n import ceil_per_repetition
from brainscore_metrics.rdm import RDM as _RDMOfActivations
from brainscore_metrics.rdm import RDMMetric

__all__ = ["RDM", "I2n"]


class RDM:
    """1.x ``brainscore.metrics.rdm.RDM``: with two assemblies (``RDM()(assembly1=..., assembly2=...)``, the README's
    call) the RDM similarity metric (today ``load_metric('rdm')``); with one, the RDM of its activations (today
    ``brainscore_metrics.rdm.RDM``)."""

    def __init__(self, *args, **kwargs):
        self._args, self._kwargs = args, kwargs

    def __call__(self, assembly=None, assembly2=None, *, assembly1=None, **kwargs):
        first = assembly1 if assembly1 is not None else assembly
        if assembly2 is None:
            return _RDMOfActivations(*self._args, **self._kwargs)(first, **kwargs)
        return RDMMetric(*self._args, **self._kwargs)(first, assembly2, **kwargs)


class I2n(_I2n):
    """1.x ``I2n`` with its ``ceil_score(score, ceiling)``: per repetition ``raw / sqrt(ceiling)``, then the mean
    (today :func:`brainscore_metrics.behavior.i2n.ceil_per_repetition`)."""

    @staticmethod
    def ceil_score(score, ceiling):
        return ceil_per_repetition(score, ceiling)
