"""Turn per-layer arrays into a NeuroidAssembly (presentation x neuroid)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from model_tools.activations.inputs import Stimuli


def numbered_strings(prefix: str, count: int) -> np.ndarray:
    """``[prefix + '0', prefix + '1', ...]`` as a fixed-width unicode array of shape (count,).

    Equal to ``np.char.add(prefix, np.arange(count).astype(str))``, built from digit arithmetic on code points
    (the indices with the same number of digits form one contiguous block): a few times faster at 10^5 ids.
    """
    width = len(str(max(count - 1, 0)))
    head = np.frombuffer(prefix.encode("utf-32-le"), dtype="<u4")
    codes = np.zeros((count, head.size + width), dtype="<u4")  # trailing zeros end shorter numbers
    codes[:, :head.size] = head
    index = np.arange(count, dtype=np.int64)
    start = 0
    for digits in range(1, width + 1):
        stop = min(count, 10 ** digits)
        powers = 10 ** np.arange(digits - 1, -1, -1, dtype=np.int64)
        codes[start:stop, head.size:head.size + digits] = index[start:stop, None] // powers % 10 + ord("0")
        start = stop
    return codes.view(f"<U{head.size + width}").reshape(count)


def neuroid_coords(model_identifier: str, layer_sizes: Mapping[str, int]) -> dict[str, np.ndarray]:
    """``neuroid_id`` (``<model>.<layer>.<index>``), ``layer`` and ``neuroid_num`` (index within the layer)."""
    # fixed-width unicode, not object arrays: xarray copies coordinates, and copying 10^5 Python strings is slow
    ids, layers, nums = [], [], []
    for layer, size in layer_sizes.items():
        ids.append(numbered_strings(f"{model_identifier}.{layer}.", size))
        layers.append(np.full(size, layer))
        nums.append(np.arange(size))
    return {"neuroid_id": np.concatenate(ids), "layer": np.concatenate(layers), "neuroid_num": np.concatenate(nums)}


def build_assembly(values: np.ndarray, presentation: Mapping[str, np.ndarray], neuroid: Mapping[str, np.ndarray],
                   *, extra_dims: Mapping[str, Mapping[str, np.ndarray]] | None = None,
                   attrs: Mapping[str, Any] | None = None):
    """A ``brainio.assemblies.NeuroidAssembly`` with dims (presentation, neuroid[, *extra_dims]).

    Parameters
    ----------
    values : numpy.ndarray of shape (presentation, neuroid[, ...])
    presentation, neuroid : dict of str -> array
        Coordinates along each dimension.
    extra_dims : dict of dim -> dict of coordinates, default=None
        Further dimensions in order (e.g. ``{'time_bin': {'time_bin_start': ..., 'time_bin_end': ...}}``).
    """
    from brainio.assemblies import NeuroidAssembly

    coords: dict[str, tuple[str, np.ndarray]] = {}
    dims = ["presentation", "neuroid"]
    for name, coord in presentation.items():
        coords[name] = ("presentation", np.asarray(coord))
    for name, coord in neuroid.items():
        coords[name] = ("neuroid", np.asarray(coord))
    for dim, dim_coords in (extra_dims or {}).items():
        dims.append(dim)
        for name, coord in dim_coords.items():
            coords[name] = (dim, np.asarray(coord))
    assembly = NeuroidAssembly(values, coords=coords, dims=dims)
    assembly.attrs.update(attrs or {})
    return assembly


def package_activations(values: np.ndarray, widths: Mapping[str, int], stimuli: Stimuli, model_identifier: str,
                        *, attrs: Mapping[str, Any] | None = None):
    """Label layers laid side by side along neuroid: a NeuroidAssembly of shape (presentation, neuroid).

    Parameters
    ----------
    values : numpy.ndarray of shape (presentation, neuroid)
        Used as is (no copy): a copy-on-write cache map stays one.
    widths : mapping of str -> int
        Features of each layer, in column order.
    """
    return build_assembly(np.asarray(values), stimuli.presentation, neuroid_coords(model_identifier, widths),
                          attrs=attrs)


def dim_coords(assembly: Any, dim: str) -> dict[str, np.ndarray]:
    """Every non-index coordinate of ``assembly`` that lies along ``dim`` only (MultiIndex or plain)."""
    result = {}
    for name, coord in assembly.coords.items():
        if name == dim or coord.dims != (dim,):
            continue
        result[name] = np.asarray(assembly[name].values)
    return result
