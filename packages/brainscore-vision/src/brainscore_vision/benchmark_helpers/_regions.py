"""One region's recordings of a multi-region data set, as Brain-Score's region benchmarks load them
(``assembly.sel(region=...)``, a uniform ``region`` coordinate, one time bin, ``presentation x neuroid``)."""

from __future__ import annotations

import numpy as np

from brainio import average_repetition
from brainscore_vision.errors import BenchmarkDataError

__all__ = ["region_recordings"]


def region_recordings(assembly, region: str, *, average_repetitions: bool, time_bin_id: int | None = None,
                      number_of_trials: int | None = None, visual_degrees: float | None = None, what: str = ""):
    """The neuroids of ``region``, ``presentation x neuroid``, repetitions averaged when ``average_repetitions``.

    Parameters
    ----------
    assembly : NeuroidAssembly
        Dims ``presentation x neuroid x time_bin``, ``region`` on the neuroids, ``repetition`` on the presentations.
    region : str
    average_repetitions : bool
    time_bin_id : int or None, default=None
        Keep the time bin whose ``time_bin_id`` coordinate has this value (Sanghavi2020: 0 is 70-170 ms); None
        expects a single time bin.
    number_of_trials, visual_degrees : int, float or None, default=None
        When given, checked against the data (the number of distinct ``repetition`` values, ``attrs
        ['image_size_degree']``) as Brain-Score asserts them; a difference is a :class:`BenchmarkDataError`.
    what : str
        The data's name in messages.
    """
    attrs = dict(assembly.attrs)
    regions = np.asarray(assembly["region"].values).astype(str)
    assembly = assembly.isel(neuroid=np.flatnonzero(regions == region))
    if time_bin_id is not None and "time_bin" in assembly.dims:
        assembly = assembly.isel(time_bin=np.flatnonzero(np.asarray(assembly["time_bin_id"].values) == time_bin_id))
    if "time_bin" in assembly.dims:
        assembly = assembly.squeeze("time_bin")
    assembly = assembly.transpose("presentation", "neuroid")
    if number_of_trials is not None and len(np.unique(assembly["repetition"].values)) != number_of_trials:
        raise BenchmarkDataError(f"{what}: expected {number_of_trials} repetitions, the data has "
                                 f"{len(np.unique(assembly['repetition'].values))}")
    if visual_degrees is not None and attrs.get("image_size_degree", visual_degrees) != visual_degrees:
        raise BenchmarkDataError(f"{what}: images of {attrs['image_size_degree']} degrees, the benchmark assumes "
                                 f"{visual_degrees}")
    assembly.attrs = attrs
    return average_repetition(assembly) if average_repetitions else assembly
