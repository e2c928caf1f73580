"""Brain-Score's module paths of metrics and benchmark families (``brainscore_vision.metrics.<folder>``,
``brainscore_vision.benchmarks.<family>.benchmark(s)``, ``brainscore_vision.data.<family>``): each re-exports the one
implementation, registers nothing, and gives what the implementation gives.

The folder list is brain-score/vision's ``brainscore_vision/metrics/`` at commit c642dbe4; expected numbers come
from scikit-learn / numpy on the same arrays, or from our own implementation reached by its own path (identity).
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import numpy as np
import pytest

import brainscore_vision

#: brain-score/vision c642dbe4, ``brainscore_vision/metrics/*/`` -> the module inside it (metric.py / ceiling.py)
BRAINSCORE_METRIC_FOLDERS = {
    "accuracy": "metric", "accuracy_distance": "metric", "baker_accuracy_delta": "metric", "cka": "metric",
    "dimensionality": "metric", "distribution_similarity": "metric", "error_consistency": "metric", "i1i2": "metric",
    "internal_consistency": "ceiling", "maniquet2024_metrics": "metric", "mask_regression": "metric", "ost": "metric",
    "rdm": "metric", "regression_correlation": "metric", "rsa_ceiling": "ceiling", "threshold": "metric",
    "value_delta": "metric", "predictor_consistency": "ceiling",
}
PACKAGE = Path(brainscore_vision.__file__).parent


def test_every_metric_folder_of_brainscore_has_its_module_path():
    ours = {info.name for info in pkgutil.iter_modules([str(PACKAGE / "metrics")]) if info.ispkg}
    assert ours == set(BRAINSCORE_METRIC_FOLDERS)
    for folder, inner in BRAINSCORE_METRIC_FOLDERS.items():
        package = importlib.import_module(f"brainscore_vision.metrics.{folder}")
        module = importlib.import_module(f"brainscore_vision.metrics.{folder}.{inner}")
        assert package.__all__ and set(package.__all__) <= set(module.__all__)
        for name in module.__all__:
            assert getattr(module, name) is getattr(package, name, getattr(module, name)), (folder, name)


@pytest.mark.parametrize(("path", "name", "implementation"), [
    ("metrics.distribution_similarity", "NeuronalPropertyCeiling", "brainscore_metrics.properties.ks_similarity.PropertyCeiling"),
    ("metrics.distribution_similarity", "BootstrapDistributionSimilarity", "brainscore_metrics.properties.ks_similarity.KSSimilarity"),
    ("metrics.regression_correlation.metric", "CrossRegressedCorrelation", "brainscore_metrics.regression_correlation.CrossRegressedCorrelation"),
    ("metrics.regression_correlation.metric", "TrainTestSplitCorrelation", "brainscore_metrics.regression_correlation.SplitRegressedCorrelation"),
    ("metrics.regression_correlation.metric", "ALPHA_LIST", "brainscore_metrics.regression.ALPHA_LIST"),
    ("metrics.internal_consistency.ceiling", "InternalConsistency", "brainscore_metrics.internal_consistency.InternalConsistency"),
    ("metrics.internal_consistency", "InternalConsistency", "brainscore_metrics.internal_consistency.InternalConsistency"),
    ("metrics.rdm.metric", "RDM", "brainscore_metrics.rdm.RDM"),
    ("metrics.value_delta", "ValueDelta", "brainscore_metrics.behavior.value_delta.ValueDelta"),
    ("metrics.dimensionality", "Dimensionality", "brainscore_metrics.dimensionality.Dimensionality"),
    ("metrics.ost.metric", "OSTCorrelation", "brainscore_metrics.behavior.ost.OSTCorrelation"),
    ("metrics.cka", "CKA", "brainscore_metrics.cka.CKAMetric"),
    ("metrics.i1i2", "I1", "brainscore_metrics.behavior.i2n.I1"),
    ("metrics", "Score", "brainscore_core.metrics.Score"),
])
def test_brainscore_names_are_our_implementation(path, name, implementation):
    module_name, attribute = implementation.rsplit(".", 1)
    ours = getattr(importlib.import_module(module_name), attribute)
    assert getattr(importlib.import_module(f"brainscore_vision.{path}"), name) is ours


def test_the_registry_holds_a_metric_for_every_brainscore_identifier_we_port():
    for identifier in ("ost", "mask_regression", "baker_accuracy_delta", "factor_dimensionality",
                       "confusion_similarity", "tasks_consistency", "i1", "property_ceiling", "ks_similarity"):
        assert identifier in brainscore_vision.metric_registry


def _compat_files():
    roots = [PACKAGE / "metrics", PACKAGE / "benchmarks" / "marques2020" / "benchmarks"]
    roots += [PACKAGE / "benchmarks" / family for family in ("majajhong2015", "freemanziemba2013", "rajalingham2018")]
    roots += [PACKAGE / "data" / family for family in ("majajhong2015", "freemanziemba2013", "rajalingham2018")]
    return sorted(path for root in roots for path in root.rglob("*.py"))


def test_compat_modules_register_nothing():
    """They are found by their import path only; registration stays with the entry points (a module that assigned
    into a registry would register twice, or be taken for a plugin folder)."""
    files = _compat_files()
    assert len(files) > 40
    offending = [str(path) for path in files if "_registry[" in path.read_text() or "hookimpl" in path.read_text()]
    assert offending == []


def test_marques2020_factories_build_the_registered_benchmarks(raw_data_dir):
    from brainscore_vision.benchmarks.marques2020 import BENCHMARKS
    from brainscore_vision.benchmarks.marques2020.benchmarks import (
        cavanaugh2002a_benchmark,
        ringach2002_benchmark,
    )
    from brainscore_vision.benchmarks.marques2020.factories import FACTORY_NAMES
    from brainscore_vision.benchmarks.marques2020.properties import cavanaugh2002_properties

    assert set(FACTORY_NAMES.values()) == set(BENCHMARKS)
    benchmark = cavanaugh2002a_benchmark.MarquesCavanaugh2002V1SurroundSuppressionIndex()
    assert benchmark.identifier == "Marques2020_Cavanaugh2002-surround_suppression_index"
    assert cavanaugh2002a_benchmark.cavanaugh2002_properties is cavanaugh2002_properties
    assert ringach2002_benchmark.ASSEMBLY_NAME == "Ringach2002" and ringach2002_benchmark.TIMEBINS == [(70, 170)]


def test_public_family_factories_have_brainscores_identifiers():
    from brainscore_vision.benchmarks.freemanziemba2013.benchmarks.public_benchmarks import (
        FreemanZiembaV1PublicBenchmark,
    )
    from brainscore_vision.benchmarks.majajhong2015.benchmark import MajajHongITPublicBenchmark
    from brainscore_vision.benchmarks.rajalingham2018.benchmarks.public_benchmark import (
        RajalinghamMatchtosamplePublicBenchmark,
    )
    from brainscore_vision.data.freemanziemba2013 import BIBTEX

    # nothing is loaded by construction (the data is fetched by reference when scored)
    assert MajajHongITPublicBenchmark().identifier == "MajajHong2015.IT.public-pls"
    assert FreemanZiembaV1PublicBenchmark().identifier == "FreemanZiemba2013.V1.public-pls"
    assert RajalinghamMatchtosamplePublicBenchmark().identifier == "Rajalingham2018-i2n"
    assert "Freeman" in BIBTEX


def test_coggan2024_helpers_under_brainscores_names(raw_data_dir):
    """``RSA``, ``get_score``, ``get_ceiling``, ``ceiler`` as Brain-Score's Coggan2024 module has them, on the real
    data: the IT ceiling is the leave-one-subject-out correlation computed here with numpy, and ``get_score`` of an
    ``RSA`` is the mean Pearson r of the off-diagonal cells, recomputed here with numpy."""
    from brainio.assemblies import NeuroidAssembly
    from brainscore_vision.benchmarks.coggan2024_fMRI.benchmark import RSA, ceiler, get_ceiling, get_score

    assembly = brainscore_vision.load_dataset("Coggan2024_fMRI").sel(region="IT")
    matrices = np.moveaxis(np.asarray(assembly.values, dtype=float), -1, 0)  # (subjects, 24, 24)
    off = ~np.eye(24, dtype=bool)
    expected_ceiling = np.mean([np.corrcoef(matrices[s][off], np.delete(matrices, s, 0).mean(0)[off])[0, 1]
                                for s in range(len(matrices))])
    ceiling = get_ceiling(assembly)
    assert float(ceiling) == pytest.approx(expected_ceiling, abs=1e-12)
    assert float(ceiling) == pytest.approx(0.2397, abs=1e-4)  # the value our benchmark reports (README)

    rng = np.random.default_rng(0)
    ids = [str(s) for s in assembly["stimulus_id_row"].values]
    responses = NeuroidAssembly(rng.normal(loc=1.0, size=(24, 500)), dims=["presentation", "neuroid"], coords={
        "stimulus_id": ("presentation", ids), "neuroid_id": ("neuroid", np.arange(500)),
        "layer": ("neuroid", ["block4"] * 500)})
    rsm = RSA(responses)
    assert rsm.dims == ("presentation", "presentation") and "neuroid_id" not in rsm.coords
    values = responses.values[:, np.abs(responses.values.mean(0)) > 3.1 * responses.values.mean(0).std()]
    values = (values - values.mean(0)) / values.std(0)
    np.testing.assert_allclose(rsm.values, np.corrcoef(values), atol=1e-12)
    raw = get_score(rsm, assembly)
    expected = np.mean([np.corrcoef(np.corrcoef(values)[off], matrices[s][off])[0, 1] for s in range(9)])
    assert float(raw) == pytest.approx(expected, abs=1e-12)
    assert float(ceiler(raw, ceiling)) == pytest.approx((expected / expected_ceiling) ** 2, abs=1e-12)


def test_regression_factories_fit_labelled_assemblies_like_scikit_learn():
    """``pls_regression()`` fits assemblies directly (Brain-Score's ``XarrayRegression`` use) with scikit-learn's
    ``PLSRegression(25, scale=False)`` numbers, and passed to ``CrossRegressedCorrelation`` it gives ``load_metric('pls')``."""
    from sklearn.cross_decomposition import PLSRegression

    from brainio.assemblies import NeuroidAssembly
    from brainscore_vision.metrics.regression_correlation.metric import (
        CrossRegressedCorrelation,
        pearsonr_correlation,
        pls_regression,
    )

    rng = np.random.default_rng(3)
    X, Y = rng.normal(size=(60, 40)), rng.normal(size=(60, 5))
    ids = [f"s{i:02d}" for i in range(60)]
    source = NeuroidAssembly(X, dims=["presentation", "neuroid"], coords={
        "stimulus_id": ("presentation", ids), "neuroid_id": ("neuroid", np.arange(40))})
    target = NeuroidAssembly(X[:, :5] @ rng.normal(size=(5, 5)) + Y, dims=["presentation", "neuroid"], coords={
        "stimulus_id": ("presentation", ids), "neuroid_id": ("neuroid", np.arange(5))})
    regression = pls_regression()
    regression.fit(source.isel(presentation=slice(0, 50)), target.isel(presentation=slice(0, 50)))
    ours = regression.predict(source.isel(presentation=slice(50, None)))
    reference = PLSRegression(25, scale=False).fit(X[:50], target.values[:50]).predict(X[50:])
    np.testing.assert_allclose(ours.values, reference, atol=1e-6)
    labelled = CrossRegressedCorrelation(pls_regression(), pearsonr_correlation())(source, target)
    assert float(labelled) == pytest.approx(float(brainscore_vision.load_metric("pls")(source, target)), abs=1e-12)


def test_dual_ridge_factories_give_scikit_learn_ridge_and_the_registered_split_metrics():
    """Brain-Score's ``TrainTestSplitCorrelation(regression=dual_ridge_regression(), correlation=...)`` (and the CV
    form) on wide features (p > n, the dual form's case): predictions equal scikit-learn's ``Ridge`` / ``RidgeCV``
    (Brain-Score's dual classes say they are identical to those), and the metric equals ``load_metric('dual_ridge_split')``
    / ``'dual_ridgecv_split'``. ``ReverseTrainTestSplitCorrelation`` is the registered ``reverse_pls_split``."""
    from sklearn.linear_model import Ridge, RidgeCV

    from brainio.assemblies import NeuroidAssembly
    from brainscore_vision.metrics.regression_correlation import (
        ALPHA_LIST,
        ReverseTrainTestSplitCorrelation,
        TrainTestSplitCorrelation,
        dual_ridge_cv_regression,
        dual_ridge_regression,
        pearsonr_correlation,
    )

    rng = np.random.default_rng(7)
    X = rng.normal(size=(50, 300)).astype(np.float32)
    Y = X[:, :4].astype(np.float64) @ rng.normal(size=(4, 6)) + rng.normal(size=(50, 6))

    def assembly(values, ids):
        return NeuroidAssembly(values, dims=["presentation", "neuroid"], coords={
            "stimulus_id": ("presentation", ids), "neuroid_id": ("neuroid", np.arange(values.shape[1]))})

    ids = [f"s{i:02d}" for i in range(50)]
    train, test = slice(0, 40), slice(40, None)
    parts = {"source_train": assembly(X[train], ids[train]), "source_test": assembly(X[test], ids[test]),
             "target_train": assembly(Y[train], ids[train]), "target_test": assembly(Y[test], ids[test])}
    for factory, reference, identifier in (
            (dual_ridge_regression, Ridge(alpha=1.0), "dual_ridge_split"),
            (dual_ridge_cv_regression, RidgeCV(alphas=ALPHA_LIST), "dual_ridgecv_split")):
        regression = factory()
        regression.fit(parts["source_train"], parts["target_train"])
        expected = reference.fit(X[train].astype(np.float64), Y[train]).predict(X[test].astype(np.float64))
        # fit/predict keep a float32 source in mixed precision (float32 Gram blocks summed in float64, issue 43), as
        # cross_predict does: float32 rounding of the 300-feature products against the float64 fit (measured 6e-7
        # absolute at most on values of order 1)
        np.testing.assert_allclose(regression.predict(parts["source_test"]).values, expected, atol=2e-6)
        labelled = TrainTestSplitCorrelation(regression=factory(), correlation=pearsonr_correlation())(**parts)
        registered = brainscore_vision.load_metric(identifier)(**parts)
        # the registered split metric forms its Gram of the float32 source in float32 blocks summed in float64
        # (precision='mixed'); the labelled ridge solves in float64: measured difference 2e-8
        assert float(labelled) == pytest.approx(float(registered), abs=1e-6), identifier
    few = {"regression_kwargs": {"n_components": 4}}  # reverse PLS predicts the model from 6 neuroids
    reverse = ReverseTrainTestSplitCorrelation(**few)(**parts)
    assert float(reverse) == pytest.approx(float(brainscore_vision.load_metric("reverse_pls_split", **few)(**parts)),
                                           abs=1e-12)
