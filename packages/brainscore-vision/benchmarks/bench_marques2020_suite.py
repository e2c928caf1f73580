"""Time the 15 Marques2020 grating benchmarks on randomnet: stimulus generation, extraction and property computation.

Stages, each timed separately (fresh stores in a temporary home, so nothing is cached from earlier runs):

1. generation: render, encode, package and load the five grating sets (``load_stimulus_set``);
2. extraction: randomnet's V1 layer (block1, 100,352 units) on each set, placed on its 8-degree screen;
3. properties: for all 15 benchmarks from those responses (held in memory by a replaying model): receptive-field
   map of every unit, unit selection, firing-rate scaling, property functions, ``ks_similarity`` and ceilings.

Stage 3 is compared with a per-unit Python loop (``tests/marques_naive.py``: one unit at a time, scipy spline per
curve) on the same responses: the receptive-field centres of all units, and the property functions applied to all
units (the loop timed on the first ``--naive-units`` units and scaled linearly). Peak memory of stage 3 is measured
with tracemalloc and reported relative to the size of the model responses.

Usage: ``python benchmarks/bench_marques2020_suite.py [--naive-units 2000]`` (needs ``BRAINSCORE_RAW_DATA`` and
model-tools).
"""

from __future__ import annotations

import argparse
import atexit
import os
import shutil
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

SETS = ("orientation", "spatial_frequency", "size", "receptive_field", "blank")


class Replay:
    """A BrainModel that answers ``look_at`` with recorded responses (keyed by stimulus set identifier)."""

    def __init__(self, identifier, recordings):
        self.identifier, self.recordings = identifier, recordings

    def visual_degrees(self):
        return 8

    def start_recording(self, region, time_bins):
        pass

    def look_at(self, stimuli, number_of_trials=1):
        return self.recordings[stimuli.identifier.split("--")[0]]


def main(naive_units: int) -> None:
    home = Path(tempfile.mkdtemp(prefix="bench_marques_"))
    atexit.register(shutil.rmtree, home, ignore_errors=True)  # scratch runs to GBs
    for name in ("BRAINSCORE_HOME", "BRAINIO_HOME", "RESULTCACHING_HOME"):
        os.environ[name] = str(home / name.lower())
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    import marques_naive as naive

    import brainscore_vision
    from brainscore_vision.benchmark_helpers import _firing_rates as rates_module
    from brainscore_vision.benchmark_helpers._firing_rates import (
        clear_receptive_field_cache,
        record_from_model,
    )
    from brainscore_vision.benchmarks.marques2020 import BENCHMARKS
    from brainscore_vision.benchmarks.marques2020 import properties as props

    started = time.perf_counter()
    stimuli = {name: brainscore_vision.load_stimulus_set(f"Marques2020_{name}") for name in SETS}
    generation = time.perf_counter() - started

    model = brainscore_vision.load_model("randomnet")
    model.start_recording("V1", time_bins=[(70, 170)])
    recordings, extraction = {}, {}
    for name, stimulus_set in stimuli.items():
        started = time.perf_counter()
        recordings[stimulus_set.identifier] = record_from_model(model, stimulus_set, 1).load()
        extraction[name] = time.perf_counter() - started
    response_bytes = sum(r.values.nbytes for r in recordings.values())
    replay = Replay("randomnet-replay", recordings)
    benchmarks = {identifier: brainscore_vision.load_benchmark(identifier) for identifier in BENCHMARKS
                  if "FreemanZiemba" not in identifier}
    for benchmark in benchmarks.values():
        _ = benchmark.ceiling  # data-only, computed before timing (cached on disk after the first run)

    clear_receptive_field_cache()
    tracemalloc.start()
    started = time.perf_counter()
    scores = {identifier: float(benchmark(replay)) for identifier, benchmark in benchmarks.items()}
    properties_time = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    # receptive-field centres of every unit: vectorised against one unit at a time
    rf = recordings["Marques2020_receptive_field"]
    blank = recordings["Marques2020_blank"].values[0]
    grid = rates_module.grating_grid(rf)
    started = time.perf_counter()
    rates_module._map_receptive_fields(replay)
    rf_fast = time.perf_counter() - started
    started = time.perf_counter()
    naive.receptive_field_centres(rf.values, blank, grid["position_y"], grid["position_x"])
    rf_naive = time.perf_counter() - started

    # the property functions on every unit's (rectified) responses: vectorised against the per-unit loop
    def as_rates(name, units):
        values = np.maximum(recordings[f"Marques2020_{name}"].values[:, :units].T.astype(float), 0) * 50
        return values, np.maximum(blank[:units].astype(float), 0) * 50

    from brainio.assemblies import NeuroidAssembly

    def assembly(name, values):
        table = stimuli[name]
        coords = {column: ("presentation", table[column].values) for column in rates_module.GRATING_FACTORS}
        return NeuroidAssembly(values, coords={**coords, "neuroid_id": ("neuroid", np.arange(len(values)))},
                               dims=["neuroid", "presentation"])

    orientation = np.arange(0, 180, 15.0)
    frequency = np.array(sorted(set(stimuli["spatial_frequency"]["spatial_frequency"])))
    radius = np.array(sorted(set(stimuli["size"]["radius"])))
    studies = {
        "Ringach2002": ("orientation", props.ringach2002_properties,
                        lambda v, b: naive.ringach(v, b, 3, orientation, 8)),
        "DeValois1982a": ("orientation", props.devalois1982a_properties,
                          lambda v, b: naive.devalois_a(v, b, 3, orientation, 8)),
        "Cavanaugh2002a": ("size", props.cavanaugh2002_properties,
                           lambda v, b: naive.cavanaugh(v, b, radius, 3, 6, 8)),
        "DeValois1982b": ("spatial_frequency", props.devalois1982b_properties,
                          lambda v, b: naive.devalois_b(v, b, 2, frequency, 6, 8)),
        "Schiller1976c": ("spatial_frequency", props.schiller1976_properties,
                          lambda v, b: naive.schiller(v, b, 2, frequency, 6, 8)),
    }
    n_units = recordings["Marques2020_orientation"].sizes["neuroid"]
    rows = []
    for study, (name, fast, slow) in studies.items():
        values, base = as_rates(name, n_units)
        responses = assembly(name, values)
        baseline = NeuroidAssembly(base[:, None], coords={"neuroid_id": ("neuroid", np.arange(n_units))},
                                   dims=["neuroid", "presentation"])
        started = time.perf_counter()
        fast("bench", responses, baseline)
        fast_time = time.perf_counter() - started
        started = time.perf_counter()
        slow(values[:naive_units], base[:naive_units])
        slow_time = (time.perf_counter() - started) * n_units / naive_units
        rows.append((study, fast_time, slow_time))
        del values, responses

    print(f"randomnet V1 (block1): {n_units} units; model responses {response_bytes / 2 ** 20:.0f} MiB (float32)")
    print(f"generation (5 sets, {sum(len(s) for s in stimuli.values())} images): {generation:.1f} s")
    for name, seconds in extraction.items():
        print(f"extraction {name:18s} ({len(stimuli[name]):5d} images): {seconds:6.1f} s")
    print(f"extraction total: {sum(extraction.values()):.1f} s")
    print(f"properties, 15 benchmarks from the responses: {properties_time:.2f} s; tracemalloc peak "
          f"{peak / 2 ** 20:.0f} MiB = {peak / response_bytes:.2f} x the responses")
    print(f"receptive-field centres of all units: vectorised {rf_fast:.2f} s, per-unit loop {rf_naive:.1f} s "
          f"({rf_naive / rf_fast:.0f}x)")
    for study, fast_time, slow_time in rows:
        print(f"property function {study:15s} on all units: vectorised {fast_time:.2f} s, per-unit loop "
              f"{slow_time:.1f} s (from {naive_units} units; {slow_time / fast_time:.0f}x)")
    print("scores:", {identifier.split("_", 1)[1]: round(value, 3) for identifier, value in scores.items()})


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--naive-units", type=int, default=2000)
    main(parser.parse_args().naive_units)
