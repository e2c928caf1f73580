"""Brain-Score's call forms of the representational metrics and ceilings, as its plugins and tests write them.

Expected values come from scipy on the same arrays (upper triangles, Spearman / Pearson) or from the positional
call of the same object.
"""

import numpy as np
import pytest
from scipy.stats import pearsonr, spearmanr

from brainio.assemblies import DataAssembly, NeuroidAssembly
from brainscore_metrics.plugin import CEILINGS, METRICS, make_factory
from brainscore_metrics.rdm import RDMSimilarity


def metric(identifier, *args, **kwargs):
    return make_factory(*METRICS[identifier])(*args, **kwargs)


@pytest.fixture
def activations():
    rng = np.random.default_rng(7)
    return NeuroidAssembly(rng.normal(size=(12, 9)),
                           coords={"stimulus_id": ("presentation", [f"s{i}" for i in range(12)]),
                                   "neuroid_id": ("neuroid", [f"n{i}" for i in range(9)]),
                                   "subject": ("neuroid", np.repeat(["A", "B", "C"], 3))},
                           dims=["presentation", "neuroid"])


@pytest.mark.parametrize("identifier", ["rdm", "rdm_cv", "cka", "accuracy"])
def test_reference_keyword_names(identifier, activations):
    other = activations.copy(data=activations.values + np.random.default_rng(1).normal(size=activations.shape))
    if identifier == "accuracy":
        activations, other = np.array(["a", "b", "c"]), np.array(["a", "x", "c"])
    positional = metric(identifier)(activations, other)
    keywords = metric(identifier)(assembly1=activations, assembly2=other)
    assert float(keywords) == pytest.approx(float(positional), abs=1e-12)


def test_rdm_similarity_on_presentation_by_presentation_assemblies(activations):
    # RDMs built the way the reference's RDM code builds them: the other assembly's presentation coordinates,
    # on dims presentation x presentation
    def reference_rdm(assembly):
        coords = {name: coord for name, coord in assembly.coords.items() if "neuroid" not in coord.dims}
        return DataAssembly(1 - np.corrcoef(assembly.values), coords=coords, dims=["presentation", "presentation"])

    with pytest.warns(UserWarning, match="Duplicate dimension names"):
        first = reference_rdm(activations.isel(neuroid=slice(0, 5)))
        second = reference_rdm(activations.isel(neuroid=slice(4, 9)))
    rows, columns = np.triu_indices(12, k=1)
    expected = spearmanr(first.values[rows, columns], second.values[rows, columns]).statistic
    assert RDMSimilarity()(first, second) == pytest.approx(expected, abs=1e-12)
    assert RDMSimilarity()(rdm_assembly1=first, rdm_assembly2=second) == pytest.approx(expected, abs=1e-12)


def _direct_ceiling(activations, similarity):
    subjects = ["A", "B", "C"]
    rdms = [1 - np.corrcoef(activations.values[:, activations["subject"].values == s]) for s in subjects]
    rows, columns = np.triu_indices(12, k=1)
    triangles = np.array([rdm[rows, columns] for rdm in rdms])
    upper = [similarity(t, triangles.mean(0))[0] for t in triangles]
    lower = [similarity(t, np.delete(triangles, i, 0).mean(0))[0] for i, t in enumerate(triangles)]
    return np.mean(upper), np.mean(lower)


def test_rsa_ceiling_with_an_rdm_callable_and_a_similarity_function(activations):
    ceiling = make_factory(*CEILINGS["rsa_ceiling"])
    upper, lower = _direct_ceiling(activations, spearmanr)
    default = ceiling()(activations)
    with_callable = ceiling(rdm=lambda assembly: 1 - np.corrcoef(assembly.values))(activations)
    assert float(default) == pytest.approx(upper, abs=1e-12)
    assert float(with_callable) == pytest.approx(upper, abs=1e-12)
    assert with_callable.attrs["lower_bound_loo"] == pytest.approx(lower, abs=1e-12)
    upper_pearson, lower_pearson = _direct_ceiling(activations, pearsonr)
    pearson = metric("rsa_ceiling", similarity_func=pearsonr)(activations)  # also registered as a metric
    assert float(pearson) == pytest.approx(upper_pearson, abs=1e-12)
    assert pearson.attrs["lower_bound_loo"] == pytest.approx(lower_pearson, abs=1e-12)


def test_ceilings_are_metrics_too():
    for identifier in ("internal_consistency", "internal_consistency_temporal", "rsa_ceiling", "property_ceiling"):
        assert METRICS[identifier][:2] == CEILINGS[identifier][:2]


def test_regression_objects_and_the_correlation_argument():
    """Brain-Score's form ``CrossRegressedCorrelation(regression_object, correlation_object, crossvalidation_kwargs)``:
    any estimator with fit/predict is driven per split (a fresh copy each time), and equals our own regression of
    the same kind; the correlation argument may only be Pearson's r."""
    from _regression_helpers import synthetic_pair
    from scipy.stats import pearsonr as scipy_pearsonr
    from sklearn.linear_model import Ridge

    from brainscore_metrics.regression_correlation import CrossRegressedCorrelation

    source, target, *_ = synthetic_pair(n=80, p=12, q=5, seed=2)
    ours = CrossRegressedCorrelation("ridge")(source, target)
    theirs = CrossRegressedCorrelation(Ridge(alpha=1), scipy_pearsonr, {"splits": 10})(source, target)
    np.testing.assert_allclose(theirs.attrs["splits"], ours.attrs["splits"], atol=1e-8)
    with pytest.raises(ValueError, match="Pearson's r"):
        CrossRegressedCorrelation("ridge", spearmanr)(source, target)
    with pytest.raises(ValueError, match="neither a name"):
        CrossRegressedCorrelation(object())(source, target)
