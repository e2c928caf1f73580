"""Every registered metric and ceiling stores its constructor parameters as given (scikit-learn style), so
``get_params()`` names a configuration exactly; cache keys (layer selection) are built from it."""

import importlib
import inspect
import warnings

import numpy as np
import pytest

from brainscore_metrics.plugin import CEILINGS, METRICS

#: values for the parameters without a default
_REQUIRED = {"independent_variable": "vernier_offset", "baseline_condition": "a", "test_condition": "b",
             "property_name": "orientation_selective", "similarity_metric": "ks", "image_types": ["w", "f"],
             "factor": "color"}
_CLASSES = sorted({(module, name) for module, name, _ in [*METRICS.values(), *CEILINGS.values()]})


def _constructor_parameters(cls):
    signature = inspect.signature(cls.__init__)
    return signature, [name for name, parameter in signature.parameters.items()
                       if name != "self" and parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD)]


@pytest.mark.parametrize(("module", "class_name"), _CLASSES, ids=[name for _, name in _CLASSES])
def test_every_constructor_parameter_is_stored_as_given(module, class_name):
    cls = getattr(importlib.import_module(module), class_name)
    signature, names = _constructor_parameters(cls)
    required = {name: _REQUIRED[name] for name in names if signature.parameters[name].default is inspect.Parameter.empty}
    assert set(cls(**required).get_params()) == set(names)
    for name in names:
        marker = object()  # a constructor that checks or converts its arguments would fail here
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            metric = cls(**{**required, name: marker})
        assert metric.get_params()[name] is marker, f"{class_name}({name}=...) is not stored under its name"


def test_a_call_leaves_the_parameters_unchanged():
    # Threshold used to overwrite threshold_accuracy='inflection' with the fitted accuracy; it now keeps that in
    # threshold_accuracy_ (and still reuses it on later calls, as Brain-Score does)
    from test_threshold import responses

    from brainscore_metrics.behavior.threshold import Threshold, psychometric_cum_gauss

    metric = Threshold("vernier_offset")
    before = metric.get_params()
    model = responses(lambda x: psychometric_cum_gauss(x, 2.0, 3.0, 0.05), np.arange(1.0, 5.01, 0.5))
    first = metric.compute_threshold(model)
    assert metric.get_params() == before and metric.threshold_accuracy == "inflection"
    assert isinstance(metric.threshold_accuracy_, float)
    assert metric.compute_threshold(model) == first
