"""Image-level behavioural consistency I1n / I2n (Rajalingham, Issa et al. 2018; reference section 5.6).

Response matrices are images x objects:

* model: from choice probabilities, the 2-AFC probability of choosing distractor ``o`` over the true
  object ``t`` of image ``i``: ``p(i, o) = P(o) / (P(o) + P(t))``;
* humans: ``p(i, o) = #trials on image i where o was chosen / #trials on image i where o was offered``
  (as sample or distractor); NaN where never offered;

``p(i, truth(i))`` is NaN. Hit rate = ``1 - p(i, o)``; false-alarm rate of ``(i, o)`` = NaN-mean over
the images ``j`` of object ``o`` of ``p(j, truth(i))``; ``d' = Phi^-1(hit) - Phi^-1(FA)`` clipped to
+-5. I2n subtracts the NaN-mean of d' over the images of each (truth, choice); I1n does the same and
then averages over choices (NaN-skipping). Score per repetition = Pearson r between the model matrix
and the matrix of a random half of the human trials, over the entries where the human matrix is not
NaN (and the model's not NaN if ``skipna``). Repetitions share one ``numpy.random.RandomState(seed)``
created per evaluation; halves = shuffled trial indices split at ``floor(n / 2)``. The ceiling
correlates the two halves of each repetition; score and ceiling use the same halves.
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.stats

from brainscore_core.metrics import Metric, Score
from brainscore_metrics.behavior._common import add_confidence_interval, trial_values
from brainscore_metrics.errors import BehaviorInputError

__all__ = ["I1", "I1n", "I2n", "ceil_per_repetition", "dprime_matrix"]


def _group_nanmean(values: np.ndarray, groups: np.ndarray, n_groups: int) -> np.ndarray:
    """NaN-mean of the rows of ``values`` per group: shape (n_groups, n_columns)."""
    onehot = np.zeros((n_groups, len(groups)))
    onehot[groups, np.arange(len(groups))] = 1
    valid = ~np.isnan(values)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (onehot @ np.where(valid, values, 0)) / (onehot @ valid)


def dprime_matrix(p: np.ndarray, truth: np.ndarray, *, cap: float = 5.0, normalize: bool = True) -> np.ndarray:
    """Per-image, per-distractor d' from a choice matrix.

    Parameters
    ----------
    p : ndarray of shape (n_images, n_objects)
        Probability of choosing object (column) over the true object; NaN at the truth column.
    truth : ndarray of shape (n_images,)
        Column index of each image's true object.
    cap : float, default=5.0
        d' is clipped to [-cap, cap].
    normalize : bool, default=True
        Subtract the NaN-mean over images of the same (truth, column).

    Returns
    -------
    ndarray of shape (n_images, n_objects)
    """
    n_objects = p.shape[1]
    object_rates = _group_nanmean(p, truth, n_objects)  # [o, c]: mean over images of object o of p(., c)
    false_alarms = object_rates[:, truth].T  # [i, o] = object_rates[o, truth(i)]
    with np.errstate(invalid="ignore"):
        dprime = scipy.stats.norm.ppf(1 - p) - scipy.stats.norm.ppf(false_alarms)
    dprime = np.clip(dprime, -cap, cap)
    if normalize:
        dprime = dprime - _group_nanmean(dprime, truth, n_objects)[truth]
    return dprime


def _refuse_nan_where_compared(pairs, what: str) -> None:
    """Brain-Score's correlation asserts that, without ``skipna``, the compared side holds no NaN where the human side
    has a value (a small trial set leaves (image, choice) cells empty in one half); stop there too, in one line."""
    for first, second in pairs:
        compared = ~np.isnan(second)
        missing = int(np.count_nonzero(np.isnan(first) & compared))
        if missing:
            raise BehaviorInputError(
                f"I2n: {what} has no d' for {missing} of the {int(compared.sum())} (image, choice) cells it is "
                "compared on (the trials do not offer every image with every distractor in both halves); Brain-Score's "
                "code stops here too (an assertion in its correlate); pass skipna=True to compare the cells both have")


def _pearson_masked(model: np.ndarray, human: np.ndarray, skipna: bool) -> float:
    mask = ~np.isnan(human)
    if skipna:
        mask &= ~np.isnan(model)
    if mask.sum() < 2:
        return float("nan")
    x, y = model[mask], human[mask]
    if np.isnan(x).any():
        return float("nan")  # model NaN where the human value exists and skipna=False
    x, y = x - x.mean(), y - y.mean()
    return float(x @ y / np.sqrt((x @ x) * (y @ y)))


class I2n(Metric):
    """I2n: normalised image-by-distractor d' consistency between model and humans.

    Parameters
    ----------
    repetitions : int, default=2
        Random human split-halves.
    cap : float, default=5.0
    skipna : bool, default=False
        Also leave out entries where the model is NaN.
    random_state : int, default=0
        Seed of the ``numpy.random.RandomState`` that draws the halves (and of the bootstrap).
    bootstrap : int or None, default=None
        Bootstrap resamples of images (rows of the fixed per-repetition matrices) for
        ``attrs['ci_low']``/``attrs['ci_high']``.
    sample_coord, distractor_coord, truth_coord, comparison_coord, choice_coord : str
        Human trial coordinates (default 'sample_obj', 'dist_obj', 'truth', 'stimulus_id') and the
        model's label coordinate on its choice dim (default 'choice').

    Inputs (``__call__(source, target)``)
    -------------------------------------
    source : DataAssembly of dims (presentation, choice), choice probabilities; ``choice`` = labels.
    target : BehavioralAssembly of dim (presentation,): one human trial each, value = chosen label.

    Returns
    -------
    Score (0-d): mean over repetitions, ``attrs['error']`` = population std, ``attrs['raw']`` of dim
    ``split``.
    """

    collapse_distractors = False
    normalize = True

    def __init__(self, *, repetitions: int = 2, cap: float = 5.0, skipna: bool = False, random_state: int = 0,
                 bootstrap: int | None = None, sample_coord: str = "sample_obj", distractor_coord: str = "dist_obj",
                 truth_coord: str = "truth", comparison_coord: str = "stimulus_id", choice_coord: str = "choice"):
        self.repetitions = repetitions
        self.cap = cap
        self.skipna = skipna
        self.random_state = random_state
        self.bootstrap = bootstrap
        self.sample_coord = sample_coord
        self.distractor_coord = distractor_coord
        self.truth_coord = truth_coord
        self.comparison_coord = comparison_coord
        self.choice_coord = choice_coord

    # ----------------------------------------------------------------------------------- matrices
    def _finish(self, p: np.ndarray, truth: np.ndarray) -> np.ndarray:
        dprime = dprime_matrix(p, truth, cap=self.cap, normalize=self.normalize)
        if self.collapse_distractors:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN rows stay NaN
                dprime = np.nanmean(dprime, axis=1)
        return dprime

    def _human(self, target) -> dict:
        trials = trial_values(target, (self.comparison_coord, self.truth_coord, self.sample_coord,
                                       self.distractor_coord), what="target")
        images, first, image_index = np.unique(trials[self.comparison_coord], return_index=True, return_inverse=True)
        labels = np.unique(np.concatenate([trials[name] for name in ("values", self.truth_coord, self.sample_coord,
                                                                      self.distractor_coord)]))
        index = {name: np.searchsorted(labels, trials[name]) for name in ("values", self.truth_coord,
                                                                          self.sample_coord, self.distractor_coord)}
        return {"images": images, "image_index": image_index, "labels": labels, "index": index,
                "truth": index[self.truth_coord][first], "columns": np.unique(index["values"])}

    def _human_matrix(self, human: dict, trials: np.ndarray) -> np.ndarray:
        """d' matrix (images x chosen labels, or images) of the human trials at positions ``trials``."""
        shape = (len(human["images"]), len(human["labels"]))
        rows = human["image_index"][trials]
        chosen, offered = np.zeros(shape), np.zeros(shape)
        np.add.at(chosen, (rows, human["index"]["values"][trials]), 1)
        np.add.at(offered, (rows, human["index"][self.sample_coord][trials]), 1)
        np.add.at(offered, (rows, human["index"][self.distractor_coord][trials]), 1)
        with np.errstate(invalid="ignore", divide="ignore"):
            p = np.where(offered > 0, chosen / offered, np.nan)
        p[np.arange(shape[0]), human["truth"]] = np.nan
        dprime = self._finish(p, human["truth"])
        return dprime if self.collapse_distractors else dprime[:, human["columns"]]

    def _model_matrix(self, source, human: dict) -> np.ndarray:
        """d' matrix of the model, rows/columns aligned with the human matrix."""
        if self.choice_coord not in source.coords or source.ndim != 2:
            raise BehaviorInputError(f"source: expected (presentation x choice) probabilities with a "
                                     f"{self.choice_coord!r} coordinate, got dims {source.dims}")
        choice_dim = source[self.choice_coord].dims[0]
        presentation_dim = next(dim for dim in source.dims if dim != choice_dim)
        probabilities = np.asarray(source.transpose(presentation_dim, choice_dim).values, dtype=float)
        labels = np.asarray(source[self.choice_coord].values)
        ids = np.asarray(source[self.comparison_coord].values)
        position = {image: row for row, image in enumerate(human["images"])}
        missing = [image for image in ids if image not in position]
        if missing:
            raise BehaviorInputError(f"source {self.comparison_coord} {missing[:5]} ({len(missing)} in total) have "
                                     f"no human trials, so their truth is unknown")
        truth_labels = human["labels"][human["truth"][[position[image] for image in ids]]]
        label_position = {label: column for column, label in enumerate(labels)}
        unknown = sorted(set(truth_labels.tolist()) - set(label_position))
        if unknown:
            raise BehaviorInputError(f"source {self.choice_coord!r} lacks the true objects {unknown[:5]}")
        truth = np.array([label_position[label] for label in truth_labels])
        target_probability = probabilities[np.arange(len(ids)), truth][:, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            p = probabilities / (probabilities + target_probability)
        p[np.arange(len(ids)), truth] = np.nan
        dprime = self._finish(p, truth)
        source_row = {image: row for row, image in enumerate(ids)}
        rows = np.array([source_row.get(image, -1) for image in human["images"]])
        out = np.full((len(human["images"]),) + dprime.shape[1:], np.nan)
        out[rows >= 0] = dprime[rows[rows >= 0]]
        if self.collapse_distractors:
            return out
        columns = human["labels"][human["columns"]]
        absent = [label for label in columns if label not in label_position]
        if absent:
            raise BehaviorInputError(f"source {self.choice_coord!r} lacks human choices {absent[:5]}")
        return out[:, [label_position[label] for label in columns]]

    def _halves(self, n_trials: int):
        state = np.random.RandomState(self.random_state)  # one state per evaluation, advanced across repetitions
        for _ in range(self.repetitions):
            indices = list(range(n_trials))
            state.shuffle(indices)
            indices = np.asarray(indices)
            yield indices[: n_trials // 2], indices[n_trials // 2:]

    # -------------------------------------------------------------------------------------- calls
    def _score(self, pairs: list[tuple[np.ndarray, np.ndarray]], skipna: bool, what: str) -> Score:
        if not skipna:
            _refuse_nan_where_compared(pairs, what)
        values = np.array([_pearson_masked(first.ravel(), second.ravel(), skipna) for first, second in pairs])
        score = Score(float(np.mean(values)))
        score.attrs["error"] = float(np.std(values))
        score.attrs["raw"] = Score(values, coords={"split": np.arange(len(values))}, dims=["split"])
        n_images = pairs[0][0].shape[0]

        def compute(indices):
            return float(np.mean([_pearson_masked(first[indices].ravel(), second[indices].ravel(), skipna)
                                  for first, second in pairs]))

        add_confidence_interval(score, compute, n_images, self.bootstrap, self.random_state)
        return score

    def __call__(self, source, target) -> Score:
        human = self._human(target)
        model = self._model_matrix(source, human)
        halves = self._halves(len(human["image_index"]))
        return self._score([(model, self._human_matrix(human, first)) for first, _ in halves], self.skipna,
                           "the model's d' (source)")

    def ceiling(self, assembly, skipna: bool = False) -> Score:
        """Split-half consistency of the human trials (same halves as ``__call__``)."""
        human = self._human(assembly)
        halves = self._halves(len(human["image_index"]))
        return self._score([(self._human_matrix(human, first), self._human_matrix(human, second))
                            for first, second in halves], skipna, "the ceiling's first half of the human trials")


class I1n(I2n):
    """I1n: as :class:`I2n`, with d' averaged over distractors per image (after normalisation)."""

    collapse_distractors = True


class I1(I2n):
    """I1 (Brain-Score's ``i1``): d' per image averaged over distractors, without the normalisation of I1n."""

    collapse_distractors = True
    normalize = False


def ceil_per_repetition(score: Score, ceiling: Score) -> Score:
    """Per-repetition ``raw / sqrt(ceiling)``, then mean (error = population std) over repetitions.

    Parameters
    ----------
    score, ceiling : Score
        Outputs of :class:`I2n` / :meth:`I2n.ceiling` (``attrs['raw']`` of dim ``split``).

    Returns
    -------
    Score (0-d) with ``attrs['raw']`` = ``score`` and ``attrs['ceiling']`` = ``ceiling``.
    """
    raw, ceilings = score.attrs["raw"], ceiling.attrs["raw"]
    if not np.array_equal(raw["split"].values, ceilings["split"].values):
        raise BehaviorInputError(f"score and ceiling have different splits: {raw['split'].values} vs "
                                 f"{ceilings['split'].values}")
    ceiled = np.asarray(raw.values) / np.sqrt(np.asarray(ceilings.values))
    out = Score(float(np.mean(ceiled)))
    out.attrs["error"] = float(np.std(ceiled))
    out.attrs["raw"] = score
    out.attrs["ceiling"] = ceiling
    return out
