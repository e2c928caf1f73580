"""Brain-Score's layer-selection benchmarks per region, for a commitment given no region -> layer map at all.

A :class:`~model_tools.brain_transformation.ModelCommitment` built with neither a ``region_layer_map`` nor a
``region_layer_map/<identifier>.json`` beside its plugin, and without ``region_benchmarks``, selects each region's
layer on these, as Brain-Score's ``ModelCommitment`` does. They need Brain-Score's public data (a network, or a filled
cache); each is a zero-argument factory, loaded only when its region is first recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Any

__all__ = ["STANDARD_REGION_BENCHMARKS"]


def _public_benchmark(identifier: str) -> Callable[[], Any]:
    def load() -> Any:
        from brainscore_vision import load_benchmark

        return load_benchmark(identifier)

    load.__qualname__ = f"load_benchmark({identifier!r})"
    return load


STANDARD_REGION_BENCHMARKS = MappingProxyType({
    "V1": _public_benchmark("FreemanZiemba2013public.V1-pls"),
    "V2": _public_benchmark("FreemanZiemba2013public.V2-pls"),
    "V4": _public_benchmark("MajajHong2015public.V4-pls"),
    "IT": _public_benchmark("MajajHong2015public.IT-pls"),
})
"""Region -> factory of the benchmark its layer is selected on (Brain-Score's ``STANDARD_REGION_BENCHMARKS``)."""
