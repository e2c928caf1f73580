"""A public battery of checks for metrics and ceilings (plugin authors run it in their own repository).

:func:`check_metric` checks one metric on given inputs. :func:`check_registered_metric` takes a registered factory
(``identifier -> factory``, as the registries and the ``brainscore_metrics`` / ``brainscore_ceilings`` hooks give
them), builds the metric with the constructor arguments its class needs, feeds it example inputs of the kind it takes
(:mod:`brainscore_metrics._battery_examples`) and runs :func:`check_metric`, or the ceiling checks of
:func:`brainscore_core.testing.check_ceiling` for a ceiling. A metric class that declares ``battery_example = {'kind':
..., 'params': {...}}`` is fed that kind; one of this package is looked up in ``CLASS_EXAMPLES``; any other takes a
``'neural'`` pair (``presentation x neuroid`` source and target) and no constructor arguments. The registered
metrics let off part of the battery are listed, with the reason, in ``BATTERY_WAIVERS`` (one place).
"""

from __future__ import annotations

import functools
import importlib
import math
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from brainscore_metrics.errors import MetricCheckError

__all__ = ["MetricCheckError", "battery_example", "check_metric", "check_registered_metric"]

def _value(score) -> np.ndarray:
    return np.asarray(score.values, dtype=float)


def check_metric(metric, *inputs, expected_dims: tuple[str, ...] = (), rtol: float = 1e-9,
                 permute: tuple[str, ...] = ("source",), permutation_seed: int = 0,
                 required_attrs: tuple[str, ...] = ("error", "raw")):
    """Run the metric battery on one call's inputs and return the metric's Score.

    Checks: the result is a Score with dims ``expected_dims`` (0-d by default) whose values are finite;
    ``attrs`` has ``required_attrs`` (``error`` and ``raw``); two calls give the same value (determinism); permuting the
    presentation order of each input named in ``permute`` does not change the value. Cross-validated
    metrics draw their splits from the target's presentation order (the reference rule), so by default
    only the source is permuted.

    Parameters
    ----------
    metric : callable ``(*inputs) -> Score``
    *inputs
        ``source, target`` (assemblies with a ``presentation`` dim, or whatever the metric takes), or the four
        assemblies of a split metric.
    expected_dims : tuple of str, default=()
    rtol : float, default=1e-9
    permute : tuple of {'source', 'target'}, default=('source',)
        The inputs (first, second) whose presentations are shuffled once; ``()`` for inputs without presentations.
    permutation_seed : int, default=0
    required_attrs : tuple of str, default=('error', 'raw')
        The attrs the Score must carry.

    Raises
    ------
    MetricCheckError naming the failed check.
    """
    from brainscore_core.metrics import Score

    score = metric(*inputs)
    if not isinstance(score, Score):
        raise MetricCheckError(f"returns {type(score).__name__}, not a Score")
    if tuple(score.dims) != tuple(expected_dims):
        raise MetricCheckError(f"Score dims {tuple(score.dims)} != expected {tuple(expected_dims)}")
    values = _value(score)
    if not np.all(np.isfinite(values)):
        raise MetricCheckError(f"Score is not finite: {values}")
    for key in required_attrs:
        if key not in score.attrs:
            raise MetricCheckError(f"Score lacks attrs[{key!r}] (has {sorted(score.attrs)})")
    again = _value(metric(*inputs))
    if not np.allclose(again, values, rtol=rtol, atol=0):
        raise MetricCheckError(f"not deterministic: {values} then {again}")
    rng = np.random.default_rng(permutation_seed)
    for which in permute:
        position = {"source": 0, "target": 1}[which]
        shuffled = list(inputs)
        shuffled[position] = shuffled[position].isel(
            presentation=rng.permutation(shuffled[position].sizes["presentation"]))
        permuted = _value(metric(*shuffled))
        if not np.allclose(permuted, values, rtol=max(rtol, 1e-9), atol=1e-12):
            raise MetricCheckError(f"{which} presentation order changes the value: {values} vs {permuted}")
    if math.prod(values.shape) == 0:
        raise MetricCheckError("Score is empty")
    return score


def _factory_class(factory: Callable) -> type | None:
    """The class a factory builds, where it can be told without calling it (this package's ``make_factory``)."""
    from brainscore_metrics.plugin import _build

    if isinstance(factory, functools.partial) and factory.func is _build:
        module, class_name = factory.args[:2]
        return getattr(importlib.import_module(module), class_name)
    return factory if isinstance(factory, type) else None


def battery_example(cls: type | None) -> dict[str, Any]:
    """How the battery builds and feeds a metric class: ``{'kind', 'params', 'permute', 'dims'}``.

    ``cls.battery_example`` where the class declares it, else ``CLASS_EXAMPLES`` for a class of this package, else a
    ``'neural'`` pair (``'repetitions'`` for a :class:`~brainscore_core.metrics.Ceiling`) and no constructor
    arguments. ``permute`` and ``dims`` default to the kind's (``KIND_PERMUTE``, ``KIND_DIMS``).
    """
    from brainscore_core.metrics import Ceiling
    from brainscore_metrics._battery_examples import CLASS_EXAMPLES, KIND_DIMS, KIND_PERMUTE

    declared = getattr(cls, "battery_example", None)
    if isinstance(declared, Mapping):
        example = dict(declared)
    elif cls is not None and cls.__module__.startswith("brainscore_metrics") and cls.__name__ in CLASS_EXAMPLES:
        example = dict(CLASS_EXAMPLES[cls.__name__])
    else:
        is_ceiling = isinstance(cls, type) and issubclass(cls, Ceiling)
        example = {"kind": "repetitions" if is_ceiling else "neural"}
    kind = example["kind"]
    return {"params": {}, "permute": KIND_PERMUTE.get(kind, ()), "dims": KIND_DIMS.get(kind, ()), **example}


def check_registered_metric(identifier: str, factory: Callable, *, random_state: int = 0,
                            waived: str | None = None) -> Any:
    """Build the metric or ceiling registered as ``identifier`` and run its battery on example inputs.

    Metrics go through :func:`check_metric`; ceilings (and metrics whose class takes a ceiling's input, such as
    ``internal_consistency``) through :func:`brainscore_core.testing.check_ceiling`. Returns the first Score.

    Parameters
    ----------
    identifier : str
        The registered name (for messages and for ``BATTERY_WAIVERS``).
    factory : callable
        What the registry holds for it: ``factory(**params)`` builds the metric.
    random_state : int, default=0
        Seed of the example inputs.
    waived : {'attrs'} or None, default=None
        The check the metric is let off; None looks it up in ``BATTERY_WAIVERS``; ``''`` runs every check.

    Raises
    ------
    MetricCheckError
        Naming ``identifier``, the class, the input kind and the failed check.
    """
    from brainscore_metrics._battery_examples import (
        BATTERY_WAIVERS,
        CEILING_KINDS,
        IDENTIFIER_EXAMPLES,
        KIND_DIMS,
        KIND_PERMUTE,
        example_inputs,
    )

    if waived is None:
        waived = BATTERY_WAIVERS.get(identifier, ("", ""))[0]
    cls = _factory_class(factory)
    example = battery_example(cls)
    if identifier in IDENTIFIER_EXAMPLES and cls is not None and cls.__module__.startswith("brainscore_metrics"):
        kind = IDENTIFIER_EXAMPLES[identifier]["kind"]
        example = {"params": {}, "permute": KIND_PERMUTE.get(kind, ()), "dims": KIND_DIMS.get(kind, ()),
                   **IDENTIFIER_EXAMPLES[identifier]}
    metric = factory(**example["params"])
    if cls is None:  # a factory of another package: its class is known once it is built
        example = {**battery_example(type(metric)), "params": {}}
    kind = example["kind"]
    inputs = example_inputs(kind, random_state)
    try:
        if kind in CEILING_KINDS:
            from brainscore_core.testing import check_ceiling

            check_ceiling(metric, *inputs, expected_dims=example["dims"])
            return metric(*inputs)
        return check_metric(metric, *inputs, expected_dims=example["dims"], permute=tuple(example["permute"]),
                            required_attrs=() if waived == "attrs" else ("error", "raw"))
    except (MetricCheckError, AssertionError) as error:
        raise MetricCheckError(f"{identifier} ({type(metric).__name__}, {kind!r} inputs): {error}") from error
