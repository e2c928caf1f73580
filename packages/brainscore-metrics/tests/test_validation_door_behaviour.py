"""ks_similarity, value_delta and threshold validate through brainscore_metrics.validation and raise the package's
typed errors (each a MetricError, a BrainScoreError and the builtin it stands for), naming the input at fault
(issue 32, item 5). Before, they raised bare ValueError / KeyError / TypeError."""

import numpy as np
import pytest

from brainio.assemblies import BehavioralAssembly, PropertyAssembly
from brainscore_core.errors import BrainScoreError
from brainscore_metrics.behavior.threshold import Threshold, ThresholdElevation
from brainscore_metrics.behavior.value_delta import ValueDelta
from brainscore_metrics.errors import (
    BehaviorInputError,
    DimensionError,
    InputTypeError,
    InvalidParameterError,
    MetricError,
    MissingCoordinateError,
    UnknownPropertyError,
)
from brainscore_metrics.properties.ks_similarity import KSSimilarity

BINS = np.linspace(0, 1, 6)


def properties(values, name="circular_variance", bins=True):
    assembly = PropertyAssembly(np.asarray(values, dtype=float)[:, None], coords={
        "neuroid_id": ("neuroid", [f"n{i}" for i in range(len(values))]),
        "neuronal_property": ("neuronal_property", [name])}, dims=["neuroid", "neuronal_property"])
    if bins:
        assembly.attrs[f"{name}_bins"] = BINS
    return assembly


def typed(error, builtin):
    """The raised error is the package's, rooted in BrainScoreError, and still the builtin it stands for."""
    assert isinstance(error, MetricError) and isinstance(error, BrainScoreError) and isinstance(error, builtin)


# -- ks_similarity ---------------------------------------------------------------------------------------------
def test_ks_similarity_names_a_missing_property_and_the_ones_held():
    data = properties([0.1, 0.5, 0.9])
    with pytest.raises(UnknownPropertyError, match=r"model_property.*'circular_variance'.*\['orientation'\]") as info:
        KSSimilarity("circular_variance")(properties([0.2, 0.4], name="orientation"), data)
    typed(info.value, ValueError)


def test_ks_similarity_names_missing_bins():
    with pytest.raises(UnknownPropertyError, match=r"data_property has no attribute 'circular_variance_bins'"):
        KSSimilarity("circular_variance")(properties([0.2]), properties([0.1, 0.5], bins=False))


def test_ks_similarity_refuses_bins_that_do_not_increase_and_three_dims():
    data = properties([0.1, 0.5])
    data.attrs["circular_variance_bins"] = np.array([0.0, 0.5, 0.5, 1.0])
    with pytest.raises(DimensionError, match=r"attrs\['circular_variance_bins'\].*increasing") as info:
        KSSimilarity("circular_variance")(properties([0.2]), data)
    typed(info.value, ValueError)
    cube = PropertyAssembly(np.zeros((2, 1, 1)), dims=["neuroid", "neuronal_property", "extra"])
    with pytest.raises(DimensionError, match=r"model_property: expected neuroid"):
        KSSimilarity("circular_variance")(cube, properties([0.1, 0.5]))


# -- value_delta ------------------------------------------------------------------------------------------------
def test_value_delta_refuses_a_bootstrap_naming_the_parameter():
    with pytest.raises(InvalidParameterError, match=r"value_delta: parameter bootstrap must be one of \[None\], "
                                                    r"got 10") as info:
        ValueDelta(bootstrap=10)(0.0, 1.0)
    typed(info.value, ValueError)


def test_value_delta_names_a_value_that_is_not_one_number():
    with pytest.raises(DimensionError, match=r"target_value must be a single number, got shape \(2,\)") as info:
        ValueDelta()(0.5, [0.1, 0.2])
    typed(info.value, ValueError)
    with pytest.raises(DimensionError, match="source_value values are not numeric"):
        ValueDelta()("high", 0.2)
    # a 0-d assembly is one number (exp(-|0.25 - 0.75|) = exp(-0.5), by hand)
    assert float(ValueDelta()(PropertyAssembly(np.array(0.25)), 0.75)) == pytest.approx(np.exp(-0.5))


# -- threshold --------------------------------------------------------------------------------------------------
def responses(variable="vernier_offset", label=True):
    coords = {"stimulus_id": ("presentation", ["a", "b"]), variable: ("presentation", [1.0, 2.0]),
              "choice": ("choice", ["left", "right"])}
    if label:
        coords["image_label"] = ("presentation", ["left", "right"])
    return BehavioralAssembly(np.array([[0.9, 0.1], [0.2, 0.8]]), coords=coords, dims=["presentation", "choice"])


def test_threshold_names_the_missing_independent_variable():
    with pytest.raises(MissingCoordinateError, match=r"responses \(the independent variable\) has no coordinate "
                                                     r"'vernier_offset'") as info:
        Threshold("vernier_offset")(responses(variable="offset"), [1.0])
    typed(info.value, KeyError)


def test_threshold_names_a_missing_image_label():
    with pytest.raises(MissingCoordinateError, match="responses has no coordinate 'image_label'"):
        Threshold("vernier_offset").correct(responses(label=False))


def test_threshold_refuses_a_source_of_another_type():
    with pytest.raises(InputTypeError, match=r"threshold: source must be a BehavioralAssembly .*, got list") as info:
        Threshold("vernier_offset")([1.0, 2.0], [1.0])
    typed(info.value, TypeError)
    with pytest.raises(InputTypeError, match="threshold_elevation: source must be a dict"):
        ThresholdElevation("vernier_offset", "short-2", "equal-16")(responses(), [1.0])


def test_threshold_elevation_names_a_missing_condition():
    metric = ThresholdElevation("vernier_offset", "short-2", "equal-16")
    with pytest.raises(BehaviorInputError, match=r"source has no entry 'equal-16' \(it has \['short-2'\]\)") as info:
        metric({"short-2": responses()}, [1.0])
    typed(info.value, ValueError)
    with pytest.raises(BehaviorInputError, match="target has no entry 'condition_assembly'"):
        metric(2.0, {"baseline_assembly": np.array([1.0])})


def test_threshold_names_human_thresholds_that_are_not_numbers():
    with pytest.raises(DimensionError, match=r"target \(human thresholds\) values are not numeric"):
        Threshold("vernier_offset")(2.0, ["low", "high"])
