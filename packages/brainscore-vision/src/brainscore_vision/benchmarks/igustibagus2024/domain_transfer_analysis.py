"""``Igustibagus2024.IT_readout-accuracy`` (identifier ``Igustibagus2024-IT_accuracy``, parent engineering): how well
a linear read-out of the model's IT, trained on photographs, recognises the objects in other image domains, as
Brain-Score defines it.

The model records IT (70-170 ms) on the ``Igustibagus2024`` images at 8 degrees. The images form 13 domains by their
``stimulus_source`` and ``object_style`` (``hvm``: Silhouette originals; cartoon, line drawing, mosaic, painting,
sketch: Art; convex hull, outline, skeleton, silhouette: Silhouette; COCO colour, COCO grey, TDW). For each of
``n_splits`` (1,000) splits: 30 ``hvm`` images, stratified by ``object_label``, are held out and the other ``hvm``
images train a read-out (standardised features, ``RidgeClassifierCV`` over alphas 1e-4..10); the test images of a
silhouette domain are those whose ``background_id`` is one of the 30's, of every other domain 30 images stratified by
object. Per domain, the 2AFC accuracy: for each test image, the share of the other objects present among the test
images whose decision value is below that of the image's object (columns indexed as Brain-Score indexes them), mean
over images. Score: ``aggregation`` ``center`` = mean over domains of the mean over splits, ``error`` = standard
deviation over domains; ``raw`` the split x domain accuracies (domains sorted); ceiling ``[1, nan]``.

Brain-Score draws the splits from numpy's global generator unseeded, so its score changes from run to run; here the
draws come from ``numpy.random.RandomState(random_state)`` (default 0) in the same order, so that after
``numpy.random.seed(s)`` Brain-Score's code and ours with ``random_state=s`` draw the same splits and give the same
numbers (``random_state=None`` draws from the global generator, as Brain-Score).
"""

from __future__ import annotations

import numpy as np

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_vision.benchmark_helpers._timebins import squeeze_time_bin
from brainscore_vision.benchmark_helpers.screen import place_on_screen
from brainscore_vision.data.igustibagus2024 import BIBTEX
from brainscore_vision.utils import LazyLoad, resolve

__all__ = ["ALPHAS", "DOMAINS", "OOD_AnalysisBenchmark", "SILHOUETTE_DOMAINS", "domain_masks", "split_accuracies",
           "two_afc_accuracy"]

VISUAL_DEGREES = 8
HVM_TEST_IMAGES = 30
OOD_TEST_IMAGES = 30
NUM_SPLITS = 1000
ALPHAS = (0.0001, 0.001, 0.01, 0.1, 1, 10)
#: domain -> (stimulus_source, object_style or None for every style), in Brain-Score's order
DOMAINS = {"hvm": ("Silhouette", "original"), "cartoon": ("Art", "cartoon"), "line_drawing": ("Art", "line_drawing"),
           "mosaic": ("Art", "mosaic"), "painting": ("Art", "painting"), "sketch": ("Art", "sketch"),
           "convex_hull": ("Silhouette", "convex_hull"), "outline": ("Silhouette", "outline"),
           "skeleton": ("Silhouette", "skeleton"), "silhouette": ("Silhouette", "silhouette"),
           "cococolor": ("COCOColor", None), "cocogray": ("COCOGray", None), "tdw": ("TDW", None)}
SILHOUETTE_DOMAINS = ("convex_hull", "outline", "skeleton", "silhouette")


def domain_masks(sources, styles) -> dict[str, np.ndarray]:
    """Per domain of :data:`DOMAINS`, the positions of its images."""
    sources, styles = np.asarray(sources), np.asarray(styles)
    return {domain: np.flatnonzero((sources == source) & ((styles == style) if style else True))
            for domain, (source, style) in DOMAINS.items()}


def two_afc_accuracy(decisions: np.ndarray, labels: np.ndarray) -> float:
    """Mean over images of the share of the other test objects scored below the image's own object.

    ``decisions`` (images x the read-out's classes); the classes present in ``labels`` (sorted) index its columns,
    as Brain-Score indexes them (the same columns when every class is present)."""
    categories = np.unique(labels)
    own = np.searchsorted(categories, labels)
    columns = decisions[:, :len(categories)]
    own_value = columns[np.arange(len(labels)), own]
    beaten = (own_value[:, None] > columns).sum(axis=1)  # the own column never beats itself
    return float(np.mean(beaten / (len(categories) - 1)))


def _stratified_sample(rng, positions: np.ndarray, labels: np.ndarray, size: int):
    """(sample, rest) of ``positions`` as ``train_test_split(train_size=size, stratify=labels)`` draws them."""
    from sklearn.model_selection import train_test_split

    if size == len(positions):
        return positions, None
    return tuple(train_test_split(positions, train_size=size, stratify=labels, random_state=rng))


def split_accuracies(features: np.ndarray, labels: np.ndarray, backgrounds: np.ndarray,
                     masks: dict[str, np.ndarray], n_splits: int, rng) -> np.ndarray:
    """``n_splits x domains`` 2AFC accuracies (module docstring); ``rng`` a RandomState or None."""
    from sklearn.linear_model import RidgeClassifierCV
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import StandardScaler

    results = np.empty((n_splits, len(masks)))
    for split in range(n_splits):
        tests = {}
        for domain, positions in masks.items():
            if domain == "hvm":
                test, train = _stratified_sample(rng, positions, labels[positions], HVM_TEST_IMAGES)
                hvm_backgrounds = backgrounds[test]
            elif domain in SILHOUETTE_DOMAINS:
                test = positions[np.isin(backgrounds[positions], hvm_backgrounds)]
            else:
                test, _ = _stratified_sample(rng, positions, labels[positions], OOD_TEST_IMAGES)
            tests[domain] = test
        decoder = Pipeline([("scaler", StandardScaler()),
                            ("classifier", RidgeClassifierCV(alphas=list(ALPHAS), fit_intercept=True))])
        decoder.fit(features[train], labels[train])
        for column, test in enumerate(tests.values()):
            results[split, column] = two_afc_accuracy(decoder.decision_function(features[test]), labels[test])
    return results


class _OOD_AnalysisBenchmark(BenchmarkBase):
    def __init__(self, *, n_splits: int = NUM_SPLITS, random_state: int | None = 0):
        from brainscore_vision import load_stimulus_set

        self.n_splits = n_splits
        self.random_state = random_state
        self._stimuli = LazyLoad(lambda: load_stimulus_set("Igustibagus2024"))
        super().__init__(identifier="Igustibagus2024-IT_accuracy", version=1, parent="engineering", bibtex=BIBTEX,
                         ceiling_func=lambda: Score([1, np.nan], coords={"aggregation": ["center", "error"]},
                                                    dims=["aggregation"]))

    def stimulus_count(self) -> int:
        return len(resolve(self._stimuli))

    def __call__(self, candidate) -> Score:
        stimuli = place_on_screen(resolve(self._stimuli), target_visual_degrees=candidate.visual_degrees(),
                                  source_visual_degrees=VISUAL_DEGREES)
        candidate.start_recording("IT", time_bins=[(70, 170)])
        activations = squeeze_time_bin(candidate.look_at(stimuli)).transpose("presentation", "neuroid")
        labels = np.asarray(activations["object_label"].values)
        masks = domain_masks(activations["stimulus_source"].values, activations["object_style"].values)
        rng = None if self.random_state is None else np.random.RandomState(self.random_state)
        results = split_accuracies(np.asarray(activations.values), labels,
                                   np.asarray(activations["background_id"].values), masks, self.n_splits, rng)
        order = np.argsort(list(masks))  # domains sorted, as Brain-Score's merged scores hold them
        raw = Score(results[:, order], coords={"split": np.arange(self.n_splits),
                                                "domain": np.asarray(list(masks))[order]}, dims=["split", "domain"])
        per_domain = results.mean(axis=0)
        score = Score([per_domain.mean(), per_domain.std()], coords={"aggregation": ["center", "error"]},
                      dims=["aggregation"])
        score.attrs["raw"] = raw
        score.attrs["ceiling"] = self.ceiling
        score.attrs["bibtex"] = BIBTEX
        return score


def OOD_AnalysisBenchmark(**kwargs) -> _OOD_AnalysisBenchmark:
    """``Igustibagus2024.IT_readout-accuracy``; ``n_splits`` (default 1000), ``random_state`` (default 0)."""
    return _OOD_AnalysisBenchmark(**kwargs)
