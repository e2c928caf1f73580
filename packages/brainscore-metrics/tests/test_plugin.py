"""The plugin module: identifiers, lazy factories, pass-through arguments, entry point discovery."""

import subprocess
import sys

import pytest

from brainscore_metrics import plugin

REGRESSION_IDS = ["pls", "pls_cv", "pls_split", "ridge", "ridge_cv", "ridge_split", "ridgecv", "ridgecv_split",
                  "linear_predictivity", "linear_predictivity_split", "neuron_to_neuron", "neuron_to_neuron_split",
                  "reverse_pls", "reverse_pls_cv", "reverse_pls_split", "dual_ridge_split", "dual_ridgecv_split",
                  "spantime_pls", "spantime_ridge"]
OTHER_IDS = ["rdm", "rdm_cv", "cka", "cka_biased", "cka_cv", "accuracy", "i1n", "i2n", "error_consistency",
             "accuracy_distance", "value_delta", "ks_similarity", "predictor_consistency"]


def test_all_contract_identifiers_are_registered():
    metrics = plugin.brainscore_metrics()
    assert set(REGRESSION_IDS + OTHER_IDS) <= set(metrics)
    assert set(plugin.brainscore_ceilings()) == {"internal_consistency", "internal_consistency_temporal",
                                                  "rsa_ceiling", "property_ceiling", "predictor_consistency"}


def test_metrics_b_targets():
    assert plugin.METRICS["cka_biased"] == ("brainscore_metrics.cka", "CKAMetric", {"unbiased": False})
    assert plugin.METRICS["i1n"][:2] == ("brainscore_metrics.behavior.i2n", "I1n")
    assert plugin.CEILINGS["property_ceiling"][:2] == ("brainscore_metrics.properties.ks_similarity",
                                                       "PropertyCeiling")


def test_importing_the_plugin_imports_no_heavy_module():
    code = ("import sys, brainscore_metrics.plugin as p; p.brainscore_metrics(); "
            "print(sorted(m for m in ('sklearn', 'torch', 'scipy', 'brainscore_metrics.regression') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("identifier", REGRESSION_IDS)
def test_regression_factories_build(identifier):
    metric = plugin.brainscore_metrics()[identifier]()
    assert callable(metric)


def test_factory_passes_arguments_through():
    metric = plugin.brainscore_metrics()["pls"](crossvalidation_kwargs={"stratification_coord": "texture_type"})
    assert metric.crossvalidation_kwargs == {"stratification_coord": "texture_type"}
    assert metric.regression == "pls"
    ridge = plugin.brainscore_metrics()["ridge"](regression_kwargs={"alpha": 10.0}, backend="numpy")
    assert ridge.regression_kwargs == {"alpha": 10.0} and ridge.backend == "numpy"
    ceiling = plugin.brainscore_ceilings()["internal_consistency"]("repetition_id")
    assert ceiling.repetition_coord == "repetition_id"


def test_entry_point_discovery_through_core():
    from brainscore_core.plugins import Domain

    domain = Domain("brainscore_vision")
    metric = domain.load_metric("pls", crossvalidation_kwargs={"stratification_coord": "texture_type"})
    assert type(metric).__name__ == "CrossRegressedCorrelation"
    assert metric.crossvalidation_kwargs["stratification_coord"] == "texture_type"
    assert type(domain.load_ceiling("internal_consistency")).__name__ == "InternalConsistency"
