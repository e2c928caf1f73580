"""Layer selection streamed per layer, with Brain-Score's PCA (issue 40): one candidate layer's activations at a
time, each reduced to its principal components before the benchmark scores it, the PCA computed block by block from
the layer as the activation cache holds it (never resident as a whole).

Expected values: scikit-learn's ``PCA(svd_solver='full').fit_transform`` (the independent computation of the
scores, signs included), and the benchmark's metric applied by hand to the reduced layer.
"""

from __future__ import annotations

import numpy as np
import pytest

from model_tools.activations import ActivationsExtractor, ImagePreprocessing, PCAReduction, RandomProjection
from model_tools.activations.reduction import pca_scores
from model_tools.brain_transformation import LayerSelection, ModelCommitment


def _spiked(n: int, width: int, seed: int = 0) -> np.ndarray:
    """Data with a well separated spectrum (no two components of nearly equal variance)."""
    rng = np.random.default_rng(seed)
    rank = min(n, width)
    basis = np.linalg.qr(rng.standard_normal((width, rank)))[0]
    return (rng.standard_normal((n, rank)) * np.geomspace(50, 0.5, rank)) @ basis.T + rng.standard_normal(width)


@pytest.mark.parametrize(("n", "width", "components"), [(30, 700, 10), (30, 700, 1000), (12, 5, 3)])
def test_the_scores_are_scikit_learns_full_solver_signs_included(n, width, components):
    from sklearn.decomposition import PCA

    features = _spiked(n, width)
    kept = min(components, n, width)
    expected = PCA(kept, svd_solver="full").fit_transform(features)
    ours = pca_scores(features, components, block_bytes=8 * n * 37)  # blocks of 37 columns
    assert ours.shape == (n, kept) and ours.dtype == np.float32
    meaningful = min(kept, n - 1)  # centred data has rank n - 1: the last component of n is noise
    np.testing.assert_allclose(ours[:, :meaningful], expected[:, :meaningful], rtol=1e-4,
                               atol=1e-4 * np.abs(expected).max())


def _peak_growth(compute) -> tuple[int, object]:
    """Bytes the resident set's peak (VmHWM) grew by while ``compute()`` ran (Linux: the peak is reset first)."""
    def status(field: str) -> int:
        return next(int(line.split()[1]) * 1024 for line in open("/proc/self/status") if line.startswith(field))

    with open("/proc/self/clear_refs", "w") as file:
        file.write("5")  # the peak starts again from the current resident set
    before = status("VmRSS:")
    result = compute()
    return status("VmHWM:") - before, result


def test_a_layer_on_disk_is_reduced_without_becoming_resident(tmp_path):
    """A 153 MB float32 layer in a file (as the activation cache holds it): its PCA raises the peak resident set by
    far less than the layer (blocks of 4 MB float64; the file is read, not mapped), and equals the PCA of the layer
    held in memory."""
    n, width = 200, 200_000
    path = tmp_path / "layer.f32"
    rng = np.random.default_rng(1)
    with open(path, "wb") as file:
        for _ in range(n):
            file.write(rng.standard_normal(width, dtype=np.float32).tobytes())
    layer = np.memmap(path, dtype=np.float32, mode="c", shape=(n, width))
    np.ones((n, 6000)) @ np.ones((6000, n))  # BLAS allocates its buffers on first use: before the measurement
    growth, streamed = _peak_growth(lambda: pca_scores(layer, 1000, block_bytes=4 * 2**20))
    layer_bytes = n * width * 4
    assert growth < layer_bytes / 3, (growth, layer_bytes)
    held = pca_scores(np.array(np.memmap(path, dtype=np.float32, mode="r", shape=(n, width))), 1000)
    np.testing.assert_allclose(streamed, held, rtol=1e-5, atol=1e-5 * np.abs(held).max())


class CallLog(ActivationsExtractor):
    """The extractor, recording the layers of every call."""

    def __call__(self, stimuli, layers, **kwargs):
        self.calls = [*getattr(self, "calls", []), list(layers)]
        return super().__call__(stimuli, layers, **kwargs)


class WidthBenchmark:
    """Records from IT and scores a candidate by a fixed function of its (reduced) activations; keeps what it saw."""

    identifier, version, region = "widths.IT-test", 1, "IT"

    def __init__(self, stimuli):
        self.stimuli, self.seen = stimuli, []

    def __call__(self, candidate):
        candidate.start_recording("IT", [(70, 170)])
        values = candidate.look_at(self.stimuli).transpose("presentation", "neuroid").values
        self.seen.append(values)
        return float(values[:, 0].std())  # first component's spread: its singular value / sqrt(n)


def test_selection_on_a_benchmark_scores_each_layer_reduced_one_at_a_time(tiny_net, small_stimulus_set):
    from sklearn.decomposition import PCA

    extractor = CallLog(tiny_net, "tiny", ImagePreprocessing(8))
    model = ModelCommitment("tiny", extractor, ["0", "2", "4"])
    benchmark = WidthBenchmark(small_stimulus_set)
    selection = LayerSelection("tiny", extractor, ["0", "2", "4"], cache=False, reduction=PCAReduction(3),
                               candidate_factory=model.single_layer_candidate)
    best = selection.select("IT", benchmark)
    assert extractor.calls == [["0"], ["2"], ["4"]]  # one layer per extraction: never every layer at once
    raw = {layer: ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), cache=False)(
        small_stimulus_set, [layer]).values for layer in ("0", "2", "4")}
    for layer, seen in zip(("0", "2", "4"), benchmark.seen, strict=True):
        expected = PCA(3, svd_solver="full").fit_transform(raw[layer])  # 256, 32 and 5 features -> 3 components
        np.testing.assert_allclose(seen, expected, rtol=1e-4, atol=1e-4 * np.abs(expected).max())
    scores = {layer: float(PCA(3, svd_solver="full").fit_transform(raw[layer])[:, 0].std()) for layer in raw}
    assert selection.layer_scores_["IT"] == pytest.approx(scores, rel=1e-4)
    assert best == max(scores, key=scores.get)
    model.layer_map["IT"] = best  # the committed layer itself records unreduced, as in Brain-Score
    model.start_recording("IT", [(70, 170)])
    assert model.look_at(small_stimulus_set).sizes["neuroid"] == raw[best].shape[1]


def test_brainscores_pca_to_1000_unless_the_extractor_reduces_and_the_choice_is_cached_apart(tiny_net):
    extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8))
    default = LayerSelection("tiny", extractor, ["0", "2"])._candidate_reduction()
    assert isinstance(default, PCAReduction) and default.n_components == 1000
    reducing = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), reduction=RandomProjection(10))
    assert LayerSelection("tiny", reducing, ["0", "2"])._candidate_reduction() is None
    assert LayerSelection("tiny", extractor, ["0", "2"], reduction=None)._candidate_reduction() is None

    class Bench:
        identifier, version = "b.IT-x", 1

    keys = {LayerSelection("tiny", extractor, ["0", "2"], reduction=reduction)._key("IT", Bench(), None, None)
            for reduction in ("brainscore", None, PCAReduction(3))}
    assert len(keys) == 3  # a choice made without PCA is never reused for one with it


def test_selection_on_an_assembly_extracts_one_layer_at_a_time(tiny_net, small_stimulus_set):
    extractor = CallLog(tiny_net, "tiny", ImagePreprocessing(8))
    target = extractor(small_stimulus_set, ["2"])
    extractor.calls = []

    def metric(source, assembly):
        return float(np.corrcoef(source.values[:, 0], assembly.values[:, 0])[0, 1])

    best = LayerSelection("tiny", extractor, ["0", "2", "4"], cache=False).select(
        "IT", assembly=target, metric=metric, stimuli=small_stimulus_set)
    assert extractor.calls == [["0"], ["2"], ["4"]] and best == "2"


def test_pca_of_a_column_slice_of_a_memory_map_reads_that_slice(tmp_path):
    """A layer read from a multi-layer cache entry is a column slice of the entry's memory map (itself a np.memmap
    carrying the file offset of the whole map): its scores are those of the slice, as scikit-learn's PCA gives them."""
    from sklearn.decomposition import PCA

    rng = np.random.default_rng(5)
    whole = rng.standard_normal((12, 40)).astype(np.float32)
    path = tmp_path / "entry.bin"
    header = 128  # the entry's data start after a header, as in a file with other content first
    with open(path, "wb") as file:
        file.write(b"\0" * header)
        file.write(whole.tobytes())
    mapped = np.memmap(path, dtype=np.float32, mode="r", offset=header, shape=whole.shape)
    for start, stop in ((0, 16), (16, 33), (33, 40)):
        layer = mapped[:, start:stop]
        assert isinstance(layer, np.memmap)  # numpy keeps the subclass (and the whole map's offset) on a slice
        expected = PCA(3, svd_solver="full").fit_transform(whole[:, start:stop].astype(np.float64))
        np.testing.assert_allclose(pca_scores(layer, 3, block_bytes=8 * 12 * 5), expected, rtol=1e-4, atol=1e-5)
