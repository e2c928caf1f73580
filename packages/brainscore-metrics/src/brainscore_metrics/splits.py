"""Seeded cross-validation splitters over stimuli (reference section 4).

The splitter reads the split coordinate (``stimulus_id`` by default) of the *target* assembly in its
current presentation order and hands it to scikit-learn's ``StratifiedShuffleSplit`` (labels from the
stratification coordinate, when the assembly has it) or ``ShuffleSplit`` otherwise, so that train/test
membership is identical to the reference for the same input order.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from sklearn.model_selection import KFold, ShuffleSplit, StratifiedKFold, StratifiedShuffleSplit

from brainscore_metrics.errors import MissingCoordinateError, SplitValueMismatchError

__all__ = [
    "DEFAULT_TRAIN_SIZE",
    "MissingCoordinateError",
    "SplitIndices",
    "StimulusSplitter",
    "aggregate_splits",
    "cross_validation_indices",
    "indices_of_values",
]

DEFAULT_TRAIN_SIZE = 0.9






def _coord_values(assembly, coord: str, what: str = "assembly") -> np.ndarray:
    try:
        return np.asarray(assembly[coord].values)
    except KeyError:
        raise MissingCoordinateError(coord, what) from None


def _has_coord(assembly, coord: str) -> bool:
    try:
        assembly[coord]
    except KeyError:
        return False
    return True


class StimulusSplitter:
    """Shuffle-split (or k-fold) cross-validation over the stimuli of an assembly.

    Parameters
    ----------
    n_splits : int, default=10
        Number of splits.
    train_size, test_size : float or int or None, default=None
        As in scikit-learn; when both are None, ``train_size=0.9`` (test = the rest).
    split_coord : str, default='stimulus_id'
        Presentation coordinate whose values are split.
    stratification_coord : str or None, default='object_name'
        Presentation coordinate used as stratification labels. Stratification is used only when the
        assembly has this coordinate; None disables it.
    unique_split_values : bool, default=False
        Split the sorted unique values of ``split_coord`` instead of one value per presentation.
    random_state : int, default=1
        Seed handed to the scikit-learn splitter.
    kfold : bool, default=False
        Use (Stratified)KFold with shuffling instead of shuffle-split.
    preprocess_indices : callable or None, default=None
        Brain-Score's cross-validation hook: ``preprocess_indices(train, test, source) -> (train, test)`` changes
        each split's index arrays (into the split values) before they are used; ``source`` is the source assembly
        as the metric received it (e.g. Igustibagus2024 drops training images sharing a background with a test
        image). Applied by :meth:`preprocess`.
    """

    def __init__(self, n_splits: int = 10, *, train_size=None, test_size=None, split_coord: str = "stimulus_id",
                 stratification_coord: str | None = "object_name", unique_split_values: bool = False,
                 random_state: int = 1, kfold: bool = False, preprocess_indices=None):
        self.n_splits = n_splits
        self.train_size = train_size
        self.test_size = test_size
        self.split_coord = split_coord
        self.stratification_coord = stratification_coord
        self.unique_split_values = unique_split_values
        self.random_state = random_state
        self.kfold = kfold
        self.preprocess_indices = preprocess_indices

    def preprocess(self, pairs, source) -> list[tuple[np.ndarray, np.ndarray]]:
        """``pairs`` (train, test index arrays of :meth:`split_values`) through ``preprocess_indices`` (unchanged
        without it)."""
        if self.preprocess_indices is None:
            return pairs
        return [tuple(np.asarray(indices) for indices in self.preprocess_indices(train, test, source))
                for train, test in pairs]

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({params})"

    def get_n_splits(self) -> int:
        return self.n_splits

    def stratifies(self, assembly) -> bool:
        """Whether splits of ``assembly`` are stratified (the coordinate is set and present)."""
        return bool(self.stratification_coord) and _has_coord(assembly, self.stratification_coord)

    def _sklearn_splitter(self, stratify: bool):
        if self.kfold:
            if self.train_size not in (None, DEFAULT_TRAIN_SIZE) or self.test_size is not None:
                raise ValueError("kfold=True takes neither train_size nor test_size "
                                 f"(got train_size={self.train_size!r}, test_size={self.test_size!r})")
            cls = StratifiedKFold if stratify else KFold
            return cls(n_splits=self.n_splits, shuffle=True, random_state=self.random_state)
        train_size, test_size = self.train_size, self.test_size
        if train_size is None and test_size is None:
            train_size = DEFAULT_TRAIN_SIZE
        cls = StratifiedShuffleSplit if stratify else ShuffleSplit
        return cls(n_splits=self.n_splits, train_size=train_size, test_size=test_size,
                   random_state=self.random_state)

    def split_values(self, assembly) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
        """Values of ``split_coord`` and the scikit-learn index pairs into them.

        Returns
        -------
        values : ndarray of shape (n_values,)
            Split-coordinate values of ``assembly`` in presentation order (sorted unique values when
            ``unique_split_values``).
        splits : list of (train, test) index arrays into ``values``, exactly as scikit-learn yields them.
        """
        values = _coord_values(assembly, self.split_coord)
        if self.unique_split_values:
            values, first = np.unique(values, return_index=True)
        else:
            first = np.arange(len(values))
        stratify = self.stratifies(assembly)
        splitter = self._sklearn_splitter(stratify)
        placeholder = np.zeros(len(values))
        if stratify:
            labels = _coord_values(assembly, self.stratification_coord)[first]
            pairs = splitter.split(placeholder, labels)
        else:
            pairs = splitter.split(placeholder)
        return values, [(np.asarray(train), np.asarray(test)) for train, test in pairs]

    def split(self, assembly) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Yield (train, test) index arrays into the presentation dim of ``assembly``.

        Every presentation whose split value falls in the train (test) value set is in train (test);
        indices are ascending. With unique split values this is scikit-learn's membership exactly.
        """
        values, pairs = self.split_values(assembly)
        own = _coord_values(assembly, self.split_coord)
        for train, test in pairs:
            yield indices_of_values(own, values[train]), indices_of_values(own, values[test])


def indices_of_values(coord_values: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """Ascending indices of the entries of ``coord_values`` that are in ``chosen``."""
    return np.flatnonzero(np.isin(coord_values, chosen))


@dataclass(frozen=True)
class SplitIndices:
    """Index arrays of one split into the presentation dims of source and target."""

    split: int
    source_train: np.ndarray
    source_test: np.ndarray
    target_train: np.ndarray
    target_test: np.ndarray


def cross_validation_indices(splitter: StimulusSplitter, source, target) -> list[SplitIndices]:
    """Split ``target`` and select the same split values in ``source`` and ``target``.

    Parameters
    ----------
    splitter : StimulusSplitter
    source, target : DataAssembly with a ``presentation`` dim carrying ``splitter.split_coord``
        Splits are drawn from ``target`` in its current presentation order (the reference rule).

    Returns
    -------
    list of SplitIndices, one per split, indices into each assembly's presentation dim in current order.

    Raises
    ------
    SplitValueMismatchError
        When source and target do not hold the same multiset of split values.
    """
    coord = splitter.split_coord
    source_values = _coord_values(source, coord, "source")
    target_values = _coord_values(target, coord, "target")
    if len(source_values) != len(target_values) or not np.array_equal(np.sort(source_values),
                                                                      np.sort(target_values)):
        only_source = np.setdiff1d(source_values, target_values)[:5]
        only_target = np.setdiff1d(target_values, source_values)[:5]
        raise SplitValueMismatchError(
            f"source and target differ in {coord!r}: only in source {only_source.tolist()}, "
            f"only in target {only_target.tolist()} (sizes {len(source_values)} vs {len(target_values)})")
    values, pairs = splitter.split_values(target)
    out = []
    for number, (train, test) in enumerate(pairs):
        train_values, test_values = values[train], values[test]
        out.append(SplitIndices(number,
                                indices_of_values(source_values, train_values),
                                indices_of_values(source_values, test_values),
                                indices_of_values(target_values, train_values),
                                indices_of_values(target_values, test_values)))
    return out


def aggregate_splits(per_split) -> tuple[float, float]:
    """Center and error over splits (reference section 4.4).

    Parameters
    ----------
    per_split : array-like of shape (n_splits,)

    Returns
    -------
    center : float
        NaN-skipping mean over splits.
    error : float
        Population standard deviation (ddof 0, NaN-skipping) over splits divided by ``sqrt(n_splits)``,
        where ``n_splits`` counts all splits.
    """
    per_split = np.asarray(per_split, dtype=float)
    if per_split.size == 0 or np.all(np.isnan(per_split)):
        return float("nan"), float("nan")
    center = float(np.nanmean(per_split))
    error = float(np.nanstd(per_split) / np.sqrt(per_split.size))
    return center, error
