"""Brain-Score's test helpers for plugin test files (``StandardizedTests``, ``PrecomputedTests``,
``VisualDegreesTests``, ``NumberOfTrialsTests``) on our real benchmarks.

Expected raw scores come from ``direct_reference.cross_validated_regression`` (scikit-learn on the same arrays).
"""

import numpy as np
import pytest
from direct_reference import cross_validated_regression

import brainscore_vision
from brainscore_vision.benchmark_helpers.test_helper import (
    NumberOfTrialsTests,
    PrecomputedTests,
    StandardizedTests,
    VisualDegreesTests,
)


def _cowley_means():
    """Repeat-averaged V4 responses in the benchmark's assembly, rows sorted by stimulus_id (float64)."""
    from brainscore_vision.utils import resolve

    assembly = resolve(brainscore_vision.load_benchmark("Cowley2023.V4-pls")._assembly)
    assembly = assembly.squeeze("time_bin") if "time_bin" in assembly.dims else assembly
    assembly = assembly.transpose("presentation", "neuroid").sortby("stimulus_id")
    return assembly, np.asarray(assembly.values, dtype=np.float64)


def test_ceilings_test_checks_the_ceiling(cowley_raw):
    ceiling = float(brainscore_vision.load_benchmark("Cowley2023.V4-pls").ceiling)
    StandardizedTests().ceilings_test("Cowley2023.V4-pls", pytest.approx(ceiling, abs=1e-9))
    with pytest.raises(AssertionError, match="ceiling of 'Cowley2023.V4-pls'"):
        StandardizedTests().ceilings_test("Cowley2023.V4-pls", pytest.approx(ceiling + 0.1, abs=1e-9))


def test_self_regression_equals_scikit_learn(cowley_raw):
    _, responses = _cowley_means()
    expected, _ = cross_validated_regression(responses, responses, "pls")
    StandardizedTests().self_regression_test("Cowley2023.V4-pls", 8, pytest.approx(expected, abs=2e-3))


def test_precomputed_features_named_by_file(cowley_raw, tmp_path):
    # a feature file in Brain-Score's form: stimuli named by the file name of their image ('stimulus_path')
    from pathlib import Path

    from brainio.assemblies import NeuroidAssembly
    from brainio.netcdf import write_netcdf

    assembly, responses = _cowley_means()
    stimuli = brainscore_vision.load_stimulus_set("Cowley2023")
    rng = np.random.default_rng(0)
    features = responses @ rng.normal(size=(responses.shape[1], 40)) + rng.normal(size=(len(responses), 40))
    names = [Path(stimuli.get_stimulus(s)).name for s in assembly["stimulus_id"].values]
    path = tmp_path / "features.nc"
    write_netcdf(NeuroidAssembly(features, coords={"stimulus_path": ("presentation", names),
                                                   "neuroid_id": ("neuroid", [f"f{i}" for i in range(40)])},
                                 dims=["presentation", "neuroid"]), path)
    expected, _ = cross_validated_regression(features, responses, "pls")
    PrecomputedTests().run_test("Cowley2023.V4-pls", path, pytest.approx(expected, abs=2e-3))


def test_trials_and_visual_degrees_helpers(cowley_raw, kriegeskorte_raw):
    NumberOfTrialsTests().repetitions_test("Cowley2023.V4-pls")  # 8 trials
    with pytest.raises(AssertionError, match="asks for 1 trial"):
        NumberOfTrialsTests().repetitions_test("Kriegeskorte2008.hIT-rdm")
    # Kriegeskorte's 2.9-degree images shown to an 8-degree model: a 63-pixel image pasted on a 175-pixel gray
    # canvas, so at least (175^2 - 63^2) of the 175^2 * 3 array elements' pixels are gray
    with pytest.raises(AssertionError, match="gray fraction"):
        VisualDegreesTests().amount_gray_test("Kriegeskorte2008.hIT-rdm", 8, "k92_001", 0.0)
    lower = (175 ** 2 - 63 ** 2) / (175 ** 2 * 3)
    with pytest.raises(AssertionError) as raised:  # the message reports the measured fraction
        VisualDegreesTests().amount_gray_test("Kriegeskorte2008.hIT-rdm", 8, "k92_001", -1)
    measured = float(str(raised.value).split("gray fraction ")[1].split(",")[0])
    assert lower <= measured <= 1 / 3
    VisualDegreesTests().amount_gray_test("Kriegeskorte2008.hIT-rdm", 8, "k92_001", measured)
