"""Building blocks for benchmarks: the screen, neural / RSA / properties / behavioural bases, test helpers.

Brain-Score's names at this import path: ``PrecomputedFeatures`` (a model that returns stored features),
``bound_score`` (clamp a score to [0, 1] in place) and ``check_standard_format`` (the checks a packaged neural
assembly passes). Importing them loads only what they need.
"""

from __future__ import annotations

from typing import Any

__all__ = ["PrecomputedFeatures", "bound_score", "check_standard_format"]


def __getattr__(name: str) -> Any:
    if name == "PrecomputedFeatures":
        from brainscore_vision.benchmark_helpers.test_helper import PrecomputedFeatures

        return PrecomputedFeatures
    if name == "bound_score":
        from brainscore_core.normalization import bound_score

        return bound_score
    raise AttributeError(f"module 'brainscore_vision.benchmark_helpers' has no attribute {name!r}")


def check_standard_format(assembly: Any, nans_expected: bool = False) -> None:
    """Raise ``ValueError`` naming the problem unless ``assembly`` is a ``NeuroidAssembly`` with dims
    ``presentation`` and ``neuroid``, ``stimulus_id`` and ``neuroid_id`` coordinates, no NaN (unless
    ``nans_expected``) and a ``stimulus_set_identifier`` attribute."""
    import numpy as np

    from brainio.assemblies import NeuroidAssembly
    from brainscore_vision.utils import resolve

    assembly = resolve(assembly)  # a LazyLoad is checked as what it loads
    problems = []
    if not isinstance(assembly, NeuroidAssembly):
        problems.append(f"is a {type(assembly).__name__}, not a NeuroidAssembly")
    if not {"presentation", "neuroid"} <= set(assembly.dims):
        problems.append(f"has dims {list(assembly.dims)}, needs presentation and neuroid")
    problems += [f"has no {coord!r} coordinate" for coord in ("stimulus_id", "neuroid_id")
                 if coord not in assembly.coords]
    if not nans_expected and np.isnan(np.asarray(assembly.values, dtype=float)).any():
        problems.append("holds NaN values")
    if "stimulus_set_identifier" not in assembly.attrs:
        problems.append("has no 'stimulus_set_identifier' attribute")
    if problems:
        raise ValueError("assembly " + "; ".join(problems))
