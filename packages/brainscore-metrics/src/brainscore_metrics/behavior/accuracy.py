"""``accuracy``: fraction of trials where the source label equals the target label."""

from __future__ import annotations

import numpy as np

from brainscore_core.metrics import Metric, Score
from brainscore_metrics.behavior._common import add_confidence_interval, trial_values
from brainscore_metrics.errors import BehaviorInputError

__all__ = ["Accuracy"]


class Accuracy(Metric):
    """Mean of ``source == target``; error = population std of the 0/1 vector (reference 5.6).

    Parameters
    ----------
    comparison_coord : str, default='stimulus_id'
        When both inputs carry it, trials are paired by sorting on it (ids must be unique and equal);
        otherwise trials are paired by position.
    bootstrap : int or None, default=None
        Bootstrap resamples of trials for ``attrs['ci_low']``/``attrs['ci_high']``.
    random_state : int, default=0

    Returns (from ``__call__(source, target)``)
    -----------------------------------------
    Score (0-d) with ``attrs['error']`` and ``attrs['raw']`` (the 0/1 correctness per trial).
    """

    def __init__(self, *, comparison_coord: str = "stimulus_id", bootstrap: int | None = None,
                 random_state: int = 0):
        self.comparison_coord = comparison_coord
        self.bootstrap = bootstrap
        self.random_state = random_state

    def _pair(self, source, target) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        first = trial_values(source, optional=(self.comparison_coord,), what="source")
        second = trial_values(target, optional=(self.comparison_coord,), what="target")
        if len(first["values"]) != len(second["values"]):
            raise BehaviorInputError(f"source has {len(first['values'])} trials but target {len(second['values'])}")
        ids1, ids2 = first.get(self.comparison_coord), second.get(self.comparison_coord)
        if ids1 is None or ids2 is None:
            return first["values"], second["values"], None
        order1, order2 = np.argsort(ids1, kind="stable"), np.argsort(ids2, kind="stable")
        if not np.array_equal(ids1[order1], ids2[order2]) or len(np.unique(ids1)) != len(ids1):
            mismatch = np.setxor1d(ids1, ids2)[:5]
            raise BehaviorInputError(f"source and target must hold the same unique {self.comparison_coord!r}; "
                                     f"differing or duplicated ids include {list(mismatch) or 'duplicates'}")
        return first["values"][order1], second["values"][order2], ids1[order1]

    def __call__(self, source, target) -> Score:
        labels1, labels2, ids = self._pair(source, target)
        correct = (labels1 == labels2).astype(float)
        score = Score(float(np.mean(correct)))
        score.attrs["error"] = float(np.std(correct))
        coords = {self.comparison_coord: ("presentation", ids)} if ids is not None else {}
        score.attrs["raw"] = Score(correct, coords=coords, dims=["presentation"])
        add_confidence_interval(score, lambda indices: float(np.mean(correct[indices])), len(correct),
                                self.bootstrap, self.random_state)
        return score
