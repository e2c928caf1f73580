"""A plugin written against Brain-Score's import paths (``reference_style_plugin``) imports and runs on ours.

Expected values are recomputed directly with scikit-learn and scipy on the same arrays.
"""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import pearsonr
from sklearn.cross_decomposition import PLSRegression
from sklearn.model_selection import ShuffleSplit

from brainio.assemblies import NeuroidAssembly
from brainio.stimuli import StimulusSet


def _pair(seed=0, n=40, p=6, q=3):
    rng = np.random.default_rng(seed)
    ids = [f"im{i:02d}" for i in range(n)]
    x = rng.normal(size=(n, p))
    y = x[:, :q] @ rng.normal(size=(q, q)) + 0.5 * rng.normal(size=(n, q))
    order = rng.permutation(n)  # the target in another order: alignment is by stimulus_id
    source = NeuroidAssembly(x, coords={"stimulus_id": ("presentation", ids),
                                        "neuroid_id": ("neuroid", [f"f{i}" for i in range(p)])},
                             dims=["presentation", "neuroid"])
    target = NeuroidAssembly(y[order], coords={"stimulus_id": ("presentation", np.asarray(ids)[order]),
                                               "neuroid_id": ("neuroid", [f"n{i}" for i in range(q)]),
                                               "region": ("neuroid", ["IT"] * q)},
                             dims=["presentation", "neuroid"], attrs={"stimulus_set_identifier": "tiny"})
    return source, target, x, y, ids


def _direct(x, y, ids):
    """Brain-Score's recipe by hand: 4 shuffle splits of the target's ids (random_state 1, 90 % train), PLS with 2
    components, Pearson per neuroid, median over neuroids, mean over splits."""
    order = np.arange(len(ids))
    values = []
    for train, test in ShuffleSplit(n_splits=4, train_size=0.9, random_state=1).split(np.zeros(len(ids))):
        model = PLSRegression(n_components=2, scale=False).fit(x[order[train]], y[order[train]])
        predicted = model.predict(x[order[test]])
        values.append(np.median([pearsonr(predicted[:, k], y[order[test], k]).statistic for k in range(y.shape[1])]))
    return float(np.mean(values)), values


def test_regression_recipe_equals_scikit_learn():
    import reference_style_plugin as plugin

    source, target, x, y, ids = _pair()
    # the target's ids in the target's own order define the splits, as in Brain-Score
    target_ids = list(target["stimulus_id"].values)
    expected, per_split = _direct(x[[ids.index(i) for i in target_ids]], y[[ids.index(i) for i in target_ids]],
                                  target_ids)
    score = plugin.PLSLikeBrainScore()(source, target)
    assert float(score) == pytest.approx(expected, abs=1e-10)
    assert score.attrs["error"] == pytest.approx(np.std(per_split) / np.sqrt(4), abs=1e-10)
    assert float(plugin.PLSLikeBrainScore()(assembly1=source, assembly2=target)) == pytest.approx(expected, abs=1e-10)


def test_single_assembly_cross_validation_and_helpers():
    import reference_style_plugin as plugin

    source, target, x, _, ids = _pair(seed=1)
    expected = np.mean([x[test, 0].mean() for _, test in
                        ShuffleSplit(n_splits=3, train_size=0.9, random_state=1).split(np.zeros(len(ids)))])
    assert float(plugin.SelfConsistency()(source)) == pytest.approx(expected, abs=1e-12)
    positions = plugin.mapped_order(source, target)
    assert list(np.asarray(ids)[positions]) == list(target["stimulus_id"].values)
    assert list(plugin.stimulus_values(source).values) == ids
    values = source.isel(neuroid=0).rename({"presentation": "split"})
    assert float(plugin.sem(values, "split")) == pytest.approx(np.std(x[:, 0]) / np.sqrt(len(ids)), abs=1e-12)


def test_benchmark_with_precomputed_features(tmp_path):
    import reference_style_plugin as plugin
    from PIL import Image

    source, target, _, _, ids = _pair(seed=2)
    for stimulus_id in ids:
        Image.new("RGB", (8, 8), (128, 128, 128)).save(tmp_path / f"{stimulus_id}.png")
    stimuli = StimulusSet(pd.DataFrame({"stimulus_id": ids}))
    stimuli.stimulus_paths = {i: str(tmp_path / f"{i}.png") for i in ids}
    stimuli.identifier = "tiny"
    benchmark = plugin.build_benchmark(lambda: target, stimuli)
    score = benchmark(plugin.precomputed(source))
    raw = float(plugin.PLSLikeBrainScore()(source, target))
    assert float(score) == pytest.approx(min(max(raw / 0.5, 0), 1), abs=1e-10)
    with pytest.raises(ValueError, match="no 'stimulus_set_identifier'"):
        from brainscore_vision.benchmark_helpers import check_standard_format

        check_standard_format(source)


def _temporal_pair(seed=3, n=30, p=5, q=2, t=3):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, p, t))
    y = np.einsum("npt,pq->nqt", x, rng.normal(size=(p, q))) + 0.1 * rng.normal(size=(n, q, t))
    def assembly(values, prefix):
        return NeuroidAssembly(values, coords={"stimulus_id": ("presentation", [f"im{i}" for i in range(n)]),
                                               "neuroid_id": ("neuroid", [f"{prefix}{i}" for i in range(values.shape[1])]),
                                               "time_bin_start": ("time_bin", [0, 50, 100][:t]),
                                               "time_bin_end": ("time_bin", [50, 100, 150][:t])},
                               dims=["presentation", "neuroid", "time_bin"])
    return assembly(x, "f"), assembly(y, "n"), x, y


def test_temporal_helpers_equal_a_direct_computation():
    import reference_style_plugin as plugin
    from sklearn.linear_model import LinearRegression

    from brainscore_vision.metric_helpers.temporal import PerTimeRegression
    from brainscore_vision.metric_helpers.xarray_utils import XarrayRegression

    source, target, x, y = _temporal_pair()
    per_time = plugin.per_time(lambda a, b: float(np.corrcoef(a.values[:, 0], b.values[:, 0])[0, 1]))(source, target)
    assert per_time.dims == ("time_bin",) and list(per_time["time_bin_start"].values) == [0, 50, 100]
    np.testing.assert_allclose(per_time.values, [np.corrcoef(x[:, 0, k], y[:, 0, k])[0, 1] for k in range(3)])
    folded = plugin.folded(source)
    # time bins become further presentations: time-major, then the 30 presentations
    assert folded.dims == ("presentation", "neuroid") and folded.shape == (90, 5)
    np.testing.assert_array_equal(folded.values, np.concatenate([x[:, :, k] for k in range(3)]))
    assert list(folded["time_bin_start"].values[28:32]) == [0, 0, 50, 50]
    shared = plugin.shared_time_regression(LinearRegression())
    shared.fit(source, target)
    one_model = LinearRegression().fit(np.concatenate([x[:, :, k] for k in range(3)]),
                                       np.concatenate([y[:, :, k] for k in range(3)]))
    predicted = shared.predict(source).transpose("presentation", "neuroid", "time_bin")
    for k in range(3):
        np.testing.assert_allclose(predicted.values[:, :, k], one_model.predict(x[:, :, k]), atol=1e-10)
    separate = PerTimeRegression(XarrayRegression(LinearRegression()))
    separate.fit(source, target)
    predicted = separate.predict(source).transpose("presentation", "neuroid", "time_bin")
    for k in range(3):
        own = LinearRegression().fit(x[:, :, k], y[:, :, k])
        np.testing.assert_allclose(predicted.values[:, :, k], own.predict(x[:, :, k]), atol=1e-10)


def test_image_converter_matches_the_screen(tmp_path):
    import reference_style_plugin as plugin
    from PIL import Image

    from brainscore_vision.benchmark_helpers.screen import convert_image

    source = tmp_path / "in" / "im.png"
    source.parent.mkdir()
    Image.fromarray(np.arange(10 * 12 * 3, dtype=np.uint8).reshape(10, 12, 3)).save(source)
    converter = plugin.converter(tmp_path / "out")
    assert converter.convert_image(str(source), 8, 8) == str(source)
    enlarged = converter.convert_image(str(source), 4, 8)  # ratio 2: a 24 x 20 gray canvas, the image centred
    with Image.open(enlarged) as converted, Image.open(source) as original:
        pixels = np.asarray(converted)
        assert converted.size == (24, 20)
        np.testing.assert_array_equal(pixels, np.asarray(convert_image(original, 2.0)))
        assert (pixels[0, 0] == 128).all()  # the gray border
        np.testing.assert_array_equal(pixels[5:15, 6:18], np.asarray(original))


def test_subset_under_both_import_paths():
    from brainio.transform import index_efficient, subset
    from brainscore_core.supported_data_standards.brainio.transform import (
        index_efficient as core_index_efficient,
    )
    from brainscore_core.supported_data_standards.brainio.transform import subset as core_subset

    assert core_subset is subset and core_index_efficient is index_efficient
