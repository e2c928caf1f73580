"""Side-by-side comparison with the public reference ``brainscore-vision==2.4.2`` (values and wall time).

The same script runs in two interpreters:

* ``prepare`` (our dev venv): writes every input array as ``.npy`` (no pickle) into ``--dir``;
* ``run --side ours`` (our dev venv) and ``run --side reference`` (a throwaway venv with
  ``brainscore-vision==2.4.2``): both load the same arrays, build ``NeuroidAssembly`` objects with their
  own brainio classes (the reference's turn the coordinates into MultiIndexes), load the metric by
  identifier through ``brainscore_vision.load_metric`` / ``load_ceiling`` and time the metric call
  only. Results (value, error, per-split values, seconds, load average) go to a JSON file.
* ``table``: merges the JSON files of both sides into a Markdown table.

Run::

    python benchmarks/compare_reference.py prepare --dir /tmp/bs_compare [--big]
    python benchmarks/compare_reference.py run --side ours --dir /tmp/bs_compare --cases synth_pls ...
    /tmp/refvenv/bin/python benchmarks/compare_reference.py run --side reference --dir /tmp/bs_compare ...
    python benchmarks/compare_reference.py table --dir /tmp/bs_compare
    # both sides in one run, alternating single calls in fresh processes (median of --repeat per side):
    python benchmarks/compare_reference.py alternate --dir /tmp/bs_compare --results /tmp/bs_results \
        --reference-python /tmp/ref30venv/bin/python --repeat 3 --cases q8_linear1 q8_pls1
    python benchmarks/compare_reference.py table --results /tmp/bs_results
    # first calls in fresh processes (no warm-up; issue 43): --cold, e.g. --cases q8_ridge q8_rdm

Cases: ``synth_pls``, ``synth_ridge``, ``synth_ic`` (640 stimuli x 300 features -> 50 neuroids,
8 objects, 10 repetitions), ``cowley_ic`` (Cowley 2023 V4 session 210325 trials), ``rdm92``, ``cka92``,
``cka_biased92`` (92 stimuli), and with ``--big`` the MajajHong2015-scale ``mh_pls1`` (PLS, 1 split),
``mh_pls`` (10 splits), ``mh_ridge``, ``mh_ic``, ``mh_rdm``, ``mh_cka`` (3,200 stimuli x 10,000 features
-> 200 neuroids; ceiling on 200 neuroids x 10 repetitions).

With ``--hard`` (issue 31): ``q8_*`` and ``q8r_*`` (int8-quantised activations, 3,200 x 10,000 float32, full rank with a
centred Gram condition number of 2.2e8, and rank-deficient) and ``pxr_*`` (the 640 Cowley 2023 images as 8-bit
pixels, 37,632 features, to the session's averaged V4 responses), each for ``linear``, ``ridge``, ``pls``, ``n2n``
(10 splits) and ``linear1``, ``pls1``, ``n2n1`` (1 split, the same split on both sides, for a reference too slow to
run whole). Every side's time is the median of its ``--repeat`` calls. ``q8c_linear1`` and ``q8c_ridge``: the q8 float32
values cast to float64, to separate the reference's float32 arithmetic from the method.

Not part of ``nox -s benchmarks`` (it needs the separate reference venv). Point ``BRAINSCORE_HOME``,
``RESULTCACHING_HOME`` and ``BRAINIO_HOME`` at temporary folders for both sides; set
``OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1`` on both sides to compare at one BLAS thread (recorded in
the JSON as ``threads``). Every assembly gets a second neuroid coordinate (``region``), and the 92-stimulus
inputs a second presentation coordinate, because the reference fails on single-coordinate MultiIndexes.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np
from reference_inputs import prepare, prepare_hard

# case -> (input group, metric identifier, kind, metric kwargs)
CASES = {
    "synth_pls": ("synth", "pls", "metric", {}),
    "synth_ridge": ("synth", "ridge", "metric", {}),
    "synth_ic": ("synth", "internal_consistency", "ceiling", {}),
    "cowley_ic": ("cowley", "internal_consistency", "ceiling", {}),
    "rdm92": ("act92", "rdm", "metric", {}),
    "cka92": ("act92", "cka", "metric", {}),
    "cka_biased92": ("act92", "cka_biased", "metric", {}),
    "mh_pls1": ("mh", "pls", "metric", {"crossvalidation_kwargs": {"splits": 1}}),
    "mh_pls": ("mh", "pls", "metric", {}),
    "mh_ridge": ("mh", "ridge", "metric", {}),
    "mh_ic": ("mh", "internal_consistency", "ceiling", {}),
    "mh_rdm": ("mh", "rdm", "metric", {}),
    "mh_cka": ("mh", "cka", "metric", {}),
    # --wide: float32 sources (w32: 3,200 x 10,000; px: 640 x 37,632; px4k: 640 x 4,096) and, for the
    # reference's own float32 noise, the same values cast to float64 (w32c)
    "w32_cka": ("w32", "cka", "metric", {}),
    "w32c_cka": ("w32c", "cka", "metric", {}),
    "w32_rdm": ("w32", "rdm", "metric", {}),
    "w32c_rdm": ("w32c", "rdm", "metric", {}),
    "w32_ridge": ("w32", "ridge", "metric", {}),
    "w32c_ridge": ("w32c", "ridge", "metric", {}),
    "w32_linear1": ("w32", "linear_predictivity", "metric", {"crossvalidation_kwargs": {"splits": 1}}),
    "w32c_linear1": ("w32c", "linear_predictivity", "metric", {"crossvalidation_kwargs": {"splits": 1}}),
    "w32_linear": ("w32", "linear_predictivity", "metric", {}),
    "w32_n2n1": ("w32", "neuron_to_neuron", "metric", {"crossvalidation_kwargs": {"splits": 1}}),
    "w32c_n2n1": ("w32c", "neuron_to_neuron", "metric", {"crossvalidation_kwargs": {"splits": 1}}),
    "w32_n2n": ("w32", "neuron_to_neuron", "metric", {}),
    "w32_pls1": ("w32", "pls", "metric", {"crossvalidation_kwargs": {"splits": 1}}),
    "w32_pls": ("w32", "pls", "metric", {}),
    "px_pls": ("px", "pls", "metric", {}),
    "px4k_linear": ("px4k", "linear_predictivity", "metric", {}),
    # --hard (issue 31): int8-quantised activations, full rank but Gram condition ~2e8 (q8) and rank-deficient (q8r),
    # 3,200 x 10,000 float32; the real Cowley 2023 images as 8-bit pixels, 640 x 37,632, to their V4 responses (pxr)
    **{f"{group}_{short}": (group, metric, "metric", {})
       for group in ("q8", "q8r", "pxr")
       for short, metric in (("linear", "linear_predictivity"), ("ridge", "ridge"), ("pls", "pls"),
                             ("n2n", "neuron_to_neuron"))},
    **{f"{group}_{short}1": (group, metric, "metric", {"crossvalidation_kwargs": {"splits": 1}})
       for group in ("q8", "q8r", "pxr")
       for short, metric in (("linear", "linear_predictivity"), ("pls", "pls"), ("n2n", "neuron_to_neuron"))},
    # the q8 float32 values cast to float64: the reference's own float32 noise on the hard input
    "q8c_linear1": ("q8c", "linear_predictivity", "metric", {"crossvalidation_kwargs": {"splits": 1}}),
    "q8c_ridge": ("q8c", "ridge", "metric", {}),
    # issue 43's first calls on the 3,200 x 10,000 input with dead units (run with --cold)
    "q8_rdm": ("q8", "rdm", "metric", {}),
    "q8_cka": ("q8", "cka", "metric", {}),
}
#: groups whose float32 source is cast to float64 (the reference fits float32 sources in float32 in places)
CAST_GROUPS = {"w32c": "w32", "q8c": "q8"}


# ---------------------------------------------------------------------------------------------- prepare

def _load(directory: Path, name: str) -> np.ndarray:
    return np.load(directory / f"{name}.npy", allow_pickle=False)


def _neuroid_assembly_class(side: str):
    if side == "reference":
        from brainscore_core.supported_data_standards.brainio.assemblies import NeuroidAssembly
    else:
        from brainio.assemblies import NeuroidAssembly
    return NeuroidAssembly


def _assembly(cls, values, ids, extra=None, prefix="n"):
    coords = {"stimulus_id": ("presentation", ids)}
    coords.update({name: ("presentation", vals) for name, vals in (extra or {}).items()})
    coords["neuroid_id"] = ("neuroid", [f"{prefix}{j}" for j in range(values.shape[1])])
    # a second neuroid coordinate, as real assemblies have: with a single one, the reference's prediction
    # packaging (xarray 2022.3 MultiIndex stacking) fails with "cannot create a new dimension with the same name"
    coords["region"] = ("neuroid", ["IT" if prefix == "n" else "model"] * values.shape[1])
    return cls(values, coords=coords, dims=["presentation", "neuroid"])


def build_inputs(side: str, group: str, kind: str, directory: Path):
    cls = _neuroid_assembly_class(side)
    cast = group in CAST_GROUPS  # the float32 source cast to float64
    group = CAST_GROUPS.get(group, group)
    if group in ("synth", "mh", "w32", "px", "px4k", "q8", "q8r", "pxr"):
        ids, objects = _load(directory, f"{group}_ids"), _load(directory, f"{group}_objects")
        trials = _load(directory, f"{group}_trials")
        if kind == "ceiling":
            n_stimuli, n_neuroids, n_reps = trials.shape
            flat = np.moveaxis(trials, 2, 0).reshape(n_reps * n_stimuli, n_neuroids)
            return (_assembly(cls, flat, np.tile(ids, n_reps), {
                "object_name": np.tile(objects, n_reps),
                "repetition": np.repeat(np.arange(n_reps), n_stimuli)}),)
        source = _load(directory, f"{group}_source")
        source = source.astype(np.float64) if cast else source
        s_order, t_order = _load(directory, f"{group}_source_order"), _load(directory, f"{group}_target_order")
        target = trials.mean(axis=2)
        return (_assembly(cls, source[s_order], ids[s_order], {"object_name": objects[s_order]}, "f"),
                _assembly(cls, target[t_order], ids[t_order], {"object_name": objects[t_order]}))
    if group == "act92":
        ids, order = _load(directory, "act92_ids"), _load(directory, "act92_order")
        source, target = _load(directory, "act92_source"), _load(directory, "act92_target")
        index = np.arange(92)
        # a second presentation coordinate, as real assemblies have (the reference RDM needs a MultiIndex)
        return (_assembly(cls, source[order], ids[order], {"image_index": index[order]}, "f"),
                _assembly(cls, target, ids, {"image_index": index}))
    if group == "cowley":
        values = _load(directory, "cowley_values")
        return (_assembly(cls, values, _load(directory, "cowley_ids"),
                          {"repetition": _load(directory, "cowley_repetition")}),)
    raise KeyError(f"unknown input group {group!r}")


def _loadavg() -> list[float]:
    with open("/proc/loadavg") as handle:
        return [float(v) for v in handle.read().split()[:3]]


def _per_split(score) -> list[float] | None:
    raw = score.attrs.get("raw")
    if raw is None or not hasattr(raw, "dims") or "split" not in raw.dims:
        return None
    values = np.asarray(raw.transpose("split", ...).values, dtype=np.float64).reshape(len(raw["split"]), -1)
    return [float(v) for v in np.nanmedian(values, axis=1)]


def _warm_up(side: str, kind: str, identifier: str, kwargs: dict, directory: Path) -> None:
    """One untimed call of the same metric on the small ``synth`` inputs (640 x 300): lazy imports, BLAS thread
    start-up and first-call costs are paid before the clock starts, on both sides alike."""
    from brainscore_vision import load_ceiling, load_metric

    small = build_inputs(side, "synth", kind, directory)
    (load_ceiling if kind == "ceiling" else load_metric)(identifier, **kwargs)(*small)


def run_case(side: str, case: str, directory: Path, repeat: int = 1, cold: bool = False) -> dict:
    """Load the inputs, load the metric by identifier, warm it up on the small inputs (untimed; not with ``cold``:
    then the first call pays what a user's first call in a fresh process pays, lazy imports, the BLAS thread probe
    and first-touch page faults included), then time ``repeat`` calls; ``seconds`` is their median."""
    from brainscore_vision import load_ceiling, load_metric

    group, identifier, kind, kwargs = CASES[case]
    inputs = build_inputs(side, group, kind, directory)
    metric = (load_ceiling if kind == "ceiling" else load_metric)(identifier, **kwargs)
    if not cold:
        _warm_up(side, kind, identifier, kwargs, directory)
    load_before = _loadavg()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        score = metric(*inputs)
        times.append(time.perf_counter() - start)
    seconds = float(np.median(times))  # the same rule on both sides: median of the calls
    error = score.attrs.get("error")
    return {
        "side": side, "case": case, "metric": identifier, "kwargs": kwargs,
        "value": float(np.asarray(score).item()),
        "error": None if error is None else float(np.asarray(error).item()),
        "per_split": _per_split(score), "seconds": seconds, "all_seconds": times,
        "loadavg_before": load_before, "loadavg_after": _loadavg(),
        "threads": os.environ.get("OPENBLAS_NUM_THREADS") or os.environ.get("OMP_NUM_THREADS"),
        "cold": cold,
    }


def run(side: str, cases: list[str], directory: Path, repeat: int = 1, results: Path | None = None,
        cold: bool = False) -> None:
    import warnings

    warnings.simplefilter("ignore")
    results = results or directory
    results.mkdir(parents=True, exist_ok=True)
    for case in cases:
        result = run_case(side, case, directory, repeat, cold)
        path = results / f"result_{case}_{side}_{time.time_ns()}.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(result, indent=1))
        os.replace(tmp, path)
        print(json.dumps({k: result[k] for k in ("side", "case", "value", "error", "all_seconds",
                                                 "loadavg_before")}), flush=True)


def alternate(cases: list[str], directory: Path, repeat: int, reference_python: str, results: Path,
              cold: bool = False) -> None:
    """Both sides in one run: for each case, ``repeat`` rounds of one call on our side then one on the
    reference side, each in a fresh process (inputs built and the metric warmed up before its clock starts), so
    both sides see the same changes of the machine's load; the table reports each side's median."""
    import subprocess
    import sys

    # the reference never sees PYTHONPATH (it may point our side at a snapshot of our sources)
    reference_env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    for case in cases:
        for _ in range(repeat):
            for side, python, env in (("ours", sys.executable, None), ("reference", reference_python, reference_env)):
                subprocess.run([python, __file__, "run", "--side", side, "--dir", str(directory), "--results",
                                str(results), "--cases", case, "--repeat", "1", *(["--cold"] if cold else [])],
                               check=True, env=env)


# ----------------------------------------------------------------------------------------------- table

def table(results: Path) -> None:
    """Markdown: per case, each side's value (of its last call), the median of its calls, the number of calls and
    the load averages (1-minute) seen at their starts."""
    found: dict = {}
    for path in sorted(results.glob("result_*.json")):
        result = json.loads(path.read_text())
        threads = (result.get("threads") or "default") + (", first call" if result.get("cold") else "")
        found.setdefault((result["case"], threads), {}).setdefault(result["side"], []).append(result)
    print("| case | BLAS threads | metric | reference value +- error | our value +- error | abs diff "
          "| reference time (median of n) | our time (median of n) | load at the starts | ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for case, threads in sorted(found, key=lambda key: (list(CASES).index(key[0]), key[1])):
        sides = found[case, threads]
        if {"ours", "reference"} - set(sides):
            continue
        ref, ours = sides["reference"], sides["ours"]
        r, o = ref[-1], ours[-1]
        ref_times = [t for x in ref for t in x["all_seconds"]]
        our_times = [t for x in ours for t in x["all_seconds"]]
        ref_t, our_t = float(np.median(ref_times)), float(np.median(our_times))
        loads = [x["loadavg_before"][0] for x in ref + ours]
        print(f"| {case} | {threads} | {r['metric']} | {r['value']!r} +- {r['error']!r} | {o['value']!r} +- "
              f"{o['error']!r} | {abs(r['value'] - o['value']):.3g} | {ref_t:.3g} s ({len(ref_times)}) "
              f"| {our_t:.3g} s ({len(our_times)}) | {min(loads):.1f}-{max(loads):.1f} | {ref_t / our_t:.1f}x |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["prepare", "run", "alternate", "table"])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/bs_compare"), help="the input arrays")
    parser.add_argument("--results", type=Path, default=None, help="where result JSON files go (default: --dir)")
    parser.add_argument("--side", choices=["ours", "reference"])
    parser.add_argument("--reference-python", default=os.environ.get("BRAINSCORE_REFERENCE_PYTHON"),
                        help="alternate: the python of a venv with brainscore-vision==2.4.2")
    parser.add_argument("--cases", nargs="*", default=[])
    parser.add_argument("--big", action="store_true")
    parser.add_argument("--wide", action="store_true", help="also the float32 inputs of the w32/px cases")
    parser.add_argument("--hard", action="store_true", help="also the hard inputs of the q8/q8r/pxr cases")
    parser.add_argument("--repeat", type=int, default=1, help="calls per case (and side); the median is reported")
    parser.add_argument("--cold", action="store_true",
                        help="no warm-up call: time a fresh process's first call (use with --repeat 1 / alternate)")
    args = parser.parse_args()
    results = args.results or args.dir
    if args.command == "prepare":
        prepare(args.dir, args.big, args.wide)
        if args.hard:
            prepare_hard(args.dir)
    elif args.command == "run":
        run(args.side, args.cases, args.dir, args.repeat, results, args.cold)
    elif args.command == "alternate":
        if not args.reference_python:
            parser.error("alternate needs --reference-python (or $BRAINSCORE_REFERENCE_PYTHON)")
        alternate(args.cases, args.dir, args.repeat, args.reference_python, results, args.cold)
    else:
        table(results)


if __name__ == "__main__":
    main()
