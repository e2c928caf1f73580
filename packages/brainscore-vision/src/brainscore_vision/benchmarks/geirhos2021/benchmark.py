"""Geirhos et al. (2021) out-of-distribution object recognition: error consistency, top-1 accuracy, shape bias.

For each of the 17 data sets, Brain-Score's identifiers and call flow:

``Geirhos2021<dataset without dashes>-error_consistency``
    The model performs the ``label`` task over the 16 classes (sorted), looks at the images shown at **3 degrees**,
    and its trial-wise correctness is compared with each subject's by Cohen's kappa, per condition (metric
    ``error_consistency``: ``|mean over subjects of the mean over conditions|``). The ceiling is the same
    quantity over all pairs of subjects. Score = raw / ceiling, clipped to [0, 1].
``Geirhos2021<dataset without dashes>-top1``
    Top-1 accuracy of the model's 16-way labels against the ground truth (metric ``accuracy``); ceiling 1. As in
    Brain-Score, the images are shown as they are (no ``place_on_screen``) and ``number_of_trials=10``.

Conditions left out, as Brain-Score leaves them out (after model-vs-human's plotting code): control conditions
without manipulation, and conditions where mean human accuracy is below 0.2 (:data:`EXCLUDED_CONDITIONS`). For
false-colour Brain-Score names the excluded control condition ``'False-Colour'``; in the response files the two
conditions are ``true`` and ``false``, and excluding ``true`` (the true-colour control) reproduces Brain-Score's
ceiling exactly (0.44405), excluding ``false`` or nothing does not (0.43799, 0.44102).

``Geirhos2021cueconflict-shape_bias`` (an extra benchmark; none of the references registers one)
    On the 1,200 cue-conflict images whose shape and texture classes differ: the fraction of shape decisions among
    the decisions that name the shape or the texture class (Geirhos et al. 2019). The score is the model's shape
    bias (ceiling 1); ``attrs['human_shape_bias']`` is the same fraction over the human trials.

The 13 data sets without public images register their benchmarks too: their ceilings come from the human data
alone and work offline; scoring a model needs Brain-Score's stimulus set (fetched from its public store).
"""

from __future__ import annotations

import numpy as np

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_core.normalization import bound_score
from brainscore_vision import load_dataset, load_metric, load_stimulus_set
from brainscore_vision.benchmark_helpers._timebins import BenchmarkDataError
from brainscore_vision.benchmark_helpers.screen import place_on_screen
from brainscore_vision.data.geirhos2021 import BIBTEX, DATASETS
from brainscore_vision.model_interface import BrainModel
from brainscore_vision.utils import LazyLoad, resolve

__all__ = ["DATASETS", "EXCLUDED_CONDITIONS", "cast_coordinate_type", "VISUAL_DEGREES", "Geirhos2021Accuracy", "Geirhos2021ErrorConsistency",
           "Geirhos2021ShapeBias", "benchmark_identifier", "human_trials", "labelled_trials", "shape_bias"]

VISUAL_DEGREES = 3
PARENT = "behavior"
EXCLUDED_CONDITIONS: dict[str, tuple] = {
    "colour": ("cr",),
    "contrast": ("c100", "c03", "c01"),
    "high-pass": (np.inf, 0.55, 0.45, 0.4),
    "low-pass": (0, 15, 40),
    "phase-scrambling": (0, 150, 180),
    "power-equalisation": ("0",),
    "false-colour": ("true",),
    "rotation": (0,),
    "eidolonI": ("1-10-10", "64-10-10", "128-10-10"),
    "eidolonII": ("1-3-10", "32-3-10", "64-3-10", "128-3-10"),
    "eidolonIII": ("1-0-10", "16-0-10", "32-0-10", "64-0-10", "128-0-10"),
    "uniform-noise": (0.0, 0.6, 0.9),
}
"""Per data set, the conditions left out (numbers compare numerically with the response files' strings)."""


def benchmark_identifier(dataset: str, kind: str) -> str:
    """``'Geirhos2021cueconflict-error_consistency'`` for ``('cue-conflict', 'error_consistency')``."""
    return f"Geirhos2021{dataset.replace('-', '')}-{kind}"


def _matches(condition: str, excluded) -> bool:
    if isinstance(excluded, str):
        return condition == excluded
    try:
        return float(condition) == float(excluded)
    except ValueError:
        return False


def human_trials(dataset: str, assembly=None):
    """The human trials of ``dataset`` without the excluded conditions (a ``BehavioralAssembly``)."""
    assembly = resolve(assembly) if assembly is not None else load_dataset(f"Geirhos2021_{dataset}")
    conditions = np.asarray(assembly["condition"].values).astype(str)
    excluded = EXCLUDED_CONDITIONS.get(dataset, ())
    unknown = [value for value in excluded if not any(_matches(c, value) for c in np.unique(conditions))]
    if unknown:
        raise BenchmarkDataError(f"Geirhos2021_{dataset}: excluded conditions {unknown} are not in the data "
                                 f"(conditions {sorted(np.unique(conditions).tolist())})")
    drop = np.zeros(len(conditions), dtype=bool)
    for value in excluded:
        drop |= np.asarray([_matches(c, value) for c in conditions]) if not isinstance(value, str) \
            else conditions == value
    stimulus_set = assembly.attrs.get("stimulus_set")
    kept = assembly.isel(presentation=np.flatnonzero(~drop))
    if stimulus_set is not None:
        kept.attrs["stimulus_set"] = stimulus_set
    return kept


def labelled_trials(labels, stimulus_set):
    """The model's choices as trials with ``stimulus_id``, ``truth`` and ``condition`` from the stimulus set."""
    from brainio.assemblies import BehavioralAssembly

    labels = labels.squeeze("choice") if "choice" in labels.dims else labels
    ids = np.asarray(labels["stimulus_id"].values).astype(str)
    table = stimulus_set.set_index(stimulus_set["stimulus_id"].astype(str))
    missing = sorted(set(ids) - set(table.index))
    if missing:
        raise BenchmarkDataError(f"model labels for stimuli {missing[:5]} that stimulus set "
                                 f"{getattr(stimulus_set, 'identifier', None)!r} lacks")
    rows = table.loc[ids]
    conditions = rows["condition"].astype(str).to_numpy() if "condition" in rows else np.full(len(ids), "0")
    return BehavioralAssembly(np.asarray(labels.values).astype(str),
                              coords={"stimulus_id": ("presentation", ids),
                                      "truth": ("presentation", rows["truth"].astype(str).to_numpy()),
                                      "condition": ("presentation", conditions)},
                              dims=["presentation"])


class _Geirhos2021(BenchmarkBase):
    """Shared parts: the data set, its human trials (lazily) and its stimulus set (lazily)."""

    def __init__(self, dataset: str, kind: str, **kwargs):
        if dataset not in DATASETS:
            raise ValueError(f"unknown Geirhos2021 data set {dataset!r}; choose one of {DATASETS}")
        self.dataset = dataset
        self._humans = LazyLoad(lambda: human_trials(dataset))
        super().__init__(identifier=benchmark_identifier(dataset, kind), version=1, bibtex=BIBTEX, parent=PARENT,
                         **kwargs)

    region = "behavior"  # labels come from the model's behavioural readout

    def stimulus_count(self) -> int:
        """Distinct stimuli of the kept human trials (the grid's memory plan reads it; no images are loaded)."""
        return len(set(np.asarray(resolve(self._humans)["stimulus_id"].values).astype(str)))

    def stimulus_set(self):
        """The images of the data set, restricted to the stimuli of the kept human trials."""
        humans = resolve(self._humans)
        stimuli = humans.attrs.get("stimulus_set")
        if stimuli is None:
            stimuli = load_stimulus_set(f"Geirhos2021_{self.dataset}")
        kept = set(np.asarray(humans["stimulus_id"].values).astype(str))
        return stimuli[stimuli["stimulus_id"].astype(str).isin(kept)]

    def _labels(self, candidate: BrainModel, stimuli, number_of_trials: int):
        choices = sorted(set(np.asarray(resolve(self._humans)["truth"].values).astype(str)))
        candidate.start_task(BrainModel.Task.label, choices)
        return labelled_trials(candidate.look_at(stimuli, number_of_trials=number_of_trials), stimuli)


class Geirhos2021ErrorConsistency(_Geirhos2021):
    """``Geirhos2021<dataset>-error_consistency``: Cohen's kappa of trial-wise correctness against each subject.

    The Score is raw / ceiling clipped to [0, 1], with ``attrs`` ``raw`` (its own ``attrs['raw']`` holds the
    ``subject x condition`` kappas), ``ceiling`` and ``unbounded``.
    """

    def __init__(self, dataset: str):
        self._metric = load_metric("error_consistency")
        super().__init__(dataset, "error_consistency", ceiling_func=self._data_ceiling,
                         ceiling_data=lambda: resolve(self._humans))

    def _data_ceiling(self) -> Score:
        return self._metric.ceiling(resolve(self._humans))

    def __call__(self, candidate: BrainModel) -> Score:
        stimuli = self.stimulus_set()
        placed = place_on_screen(stimuli, target_visual_degrees=candidate.visual_degrees(),
                                 source_visual_degrees=VISUAL_DEGREES)
        source = self._labels(candidate, placed, number_of_trials=1)
        raw = self._metric(source, resolve(self._humans))
        ceiling = self.ceiling
        score = Score(float(raw) / float(ceiling))
        score.attrs.update(raw=raw, ceiling=ceiling, normalization="raw / ceiling", bibtex=self.bibtex,
                           error=float(raw.attrs["error"]) / float(ceiling))
        return bound_score(score)


class Geirhos2021Accuracy(_Geirhos2021):
    """``Geirhos2021<dataset>-top1``: top-1 accuracy of the model's 16-way labels; ceiling 1."""

    def __init__(self, dataset: str):
        self._metric = load_metric("accuracy")
        super().__init__(dataset, "top1", ceiling=Score(1.0))

    def __call__(self, candidate: BrainModel) -> Score:
        from brainio.assemblies import BehavioralAssembly

        stimuli = self.stimulus_set()
        source = self._labels(candidate, stimuli, number_of_trials=10)
        target = BehavioralAssembly(source["truth"].values, coords={"stimulus_id": ("presentation",
                                                                                     source["stimulus_id"].values)},
                                    dims=["presentation"])
        score = self._metric(source, target)
        score.attrs.update(raw=Score(float(score)), ceiling=self.ceiling, normalization="none (ceiling 1)",
                           bibtex=self.bibtex)
        return score


def shape_bias(choices, shape_classes, texture_classes) -> tuple[float, int, int]:
    """Fraction of shape decisions among shape-or-texture decisions: ``(bias, n_shape, n_texture)``.

    Parameters
    ----------
    choices, shape_classes, texture_classes : array-like of str, shape (n_trials,)
        Only trials whose shape and texture classes differ should be passed.
    """
    choices, shape_classes, texture_classes = (np.asarray(a).astype(str) for a in
                                               (choices, shape_classes, texture_classes))
    n_shape = int((choices == shape_classes).sum())
    n_texture = int((choices == texture_classes).sum())
    total = n_shape + n_texture
    return (n_shape / total if total else float("nan")), n_shape, n_texture


class Geirhos2021ShapeBias(_Geirhos2021):
    """``Geirhos2021cueconflict-shape_bias``: the model's shape bias on the conflicting cue-conflict images.

    Score = the model's shape bias (ceiling 1); ``attrs``: ``n_shape``, ``n_texture``, ``human_shape_bias``
    (over the human trials of the same images), ``normalization``.
    """

    def __init__(self):
        super().__init__("cue-conflict", "shape_bias", ceiling=Score(1.0))

    def conflicting_stimuli(self):
        stimuli = self.stimulus_set()
        return stimuli[stimuli["is_conflict"].astype(int) == 1]

    def human_shape_bias(self) -> float:
        stimuli = self.conflicting_stimuli().set_index("stimulus_id")
        humans = resolve(self._humans)
        ids = np.asarray(humans["stimulus_id"].values).astype(str)
        keep = np.isin(ids, stimuli.index)
        rows = stimuli.loc[ids[keep]]
        return shape_bias(np.asarray(humans.values)[keep], rows["shape_category"], rows["texture_category"])[0]

    def __call__(self, candidate: BrainModel) -> Score:
        stimuli = self.conflicting_stimuli()
        placed = place_on_screen(stimuli, target_visual_degrees=candidate.visual_degrees(),
                                 source_visual_degrees=VISUAL_DEGREES)
        source = self._labels(candidate, placed, number_of_trials=1)
        rows = stimuli.set_index("stimulus_id").loc[np.asarray(source["stimulus_id"].values).astype(str)]
        bias, n_shape, n_texture = shape_bias(source.values, rows["shape_category"], rows["texture_category"])
        score = Score(bias)
        score.attrs.update(raw=Score(bias), ceiling=self.ceiling, n_shape=n_shape, n_texture=n_texture,
                           human_shape_bias=self.human_shape_bias(), normalization="none (ceiling 1)",
                           bibtex=self.bibtex)
        return score


def cast_coordinate_type(assembly, coordinate: str, newtype):
    """``assembly`` with the values of ``coordinate`` cast to ``newtype`` (Brain-Score's helper, used on the
    ``condition`` coordinate of precomputed features: ``cast_coordinate_type(features, 'condition', newtype=str)``)."""
    values = np.asarray(assembly[coordinate].values).astype(newtype)
    return assembly.assign_coords({coordinate: (assembly[coordinate].dims, values)})


#: Brain-Score's names of the two benchmark classes (same constructor: ``(dataset)``)
_Geirhos2021ErrorConsistency = Geirhos2021ErrorConsistency
_Geirhos2021Accuracy = Geirhos2021Accuracy
