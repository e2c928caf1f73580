"""This package against an earlier commit of itself, in one process: the same calls on the same arrays, alternating.

The earlier commit's ``brainscore_metrics`` is extracted (``git archive``) into a folder as a package named
``brainscore_metrics_before`` (every ``brainscore_metrics`` in its sources renamed), so both import side by side and a
case alternates before / after call by call; each side's time is the median of ``--repeats`` calls, with the 1-minute
load average read before every call and each call's process CPU time (all threads). Values of the two sides are
compared too (largest difference relative to the largest value).

Cases: the speed figures of the README, our side only (the peers and Brain-Score are timed by ``bench_peers.py`` and
``compare_reference.py``): the peers table's ``large`` and ``real`` inputs through the array face, the MajajHong2015-scale
metrics of ``bench_regression.py`` / ``bench_representational.py`` on assemblies (float64 ``mh``, float32 ``w32``),
issue 31's hard inputs (``q8`` fast path, ``q8r`` fallback), the newest metrics' speed inputs, small calls whose
cost is mostly per-call overhead (``synth`` 640 x 300, ``act92``), and Li2026's ridgecv column stream on 300 x 4,096 ->
47,503 float32 (``li2026``, 2 splits). Run::

    python benchmarks/compare_commits.py prepare --commit 7a3ff3f --dir /tmp/before
    BRAINSCORE_RAW_DATA=/work/shared/data python benchmarks/compare_commits.py run --dir /tmp/before \\
        --repeats 3 --out /tmp/before_after.json
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
BEFORE = "brainscore_metrics_before"
ALPHAS = np.logspace(-1, 6, 10)


def prepare(commit: str, directory: Path) -> None:
    """Extract ``commit``'s package as ``directory / brainscore_metrics_before``."""
    root = Path(subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                               check=True).stdout.strip())
    with tempfile.TemporaryDirectory() as scratch:
        archive = Path(scratch) / "before.tar"
        subprocess.run(["git", "-C", str(root), "archive", "-o", str(archive), commit,
                        "packages/brainscore-metrics/src/brainscore_metrics"], check=True)
        with tarfile.open(archive) as tar:
            tar.extractall(scratch, filter="data")
        source = Path(scratch) / "packages/brainscore-metrics/src/brainscore_metrics"
        target = directory / BEFORE
        target.mkdir(parents=True, exist_ok=False)
        for path in source.rglob("*.py"):
            out = target / path.relative_to(source)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(re.sub(r"\bbrainscore_metrics\b", BEFORE, path.read_text()))
    (directory / "COMMIT").write_text(commit + "\n")


# ---------------------------------------------------------------------------------------------------- inputs
def _large() -> dict:
    from bench_peers import large_inputs

    return large_inputs()


def _real() -> dict:
    from bench_peers import real_inputs

    return real_inputs()


def _mh(dtype) -> dict:
    from bench_regression import assemblies, make_data

    X, Y, trials, ids, objects = make_data(3200, 10000, 200, 10)
    source, target, repeated = assemblies(X.astype(dtype), Y, trials, ids, objects)
    return {"source": source, "target": target, "trials": repeated}


def _hard(sigma: float) -> dict:
    from bench_hard_paths import hard_input

    X, Y, splits = hard_input(sigma, 3200, 10000)
    return {"X": X, "Y": Y, "splits": splits}


def _newest() -> dict:
    from bench_newest import _reverse_inputs, _split_inputs

    return {"split": _split_inputs(False, n_train=500, n_test=125, p=20000, q=100, dtype=np.float32),
            "reverse": _reverse_inputs(False, n=640, q=88, p=4000, dtype=np.float32)}


def _small() -> dict:
    from bench_regression import assemblies, make_data

    X, Y, trials, ids, objects = make_data(640, 300, 50, 2, seed=1)
    source, target, _ = assemblies(X, Y, trials, ids, objects)
    rng = np.random.default_rng(3)
    latent = rng.normal(size=(92, 10))
    act_source, act_target, _ = assemblies(latent @ rng.normal(size=(10, 500)) + rng.normal(size=(92, 500)),
                                           latent @ rng.normal(size=(10, 100)) + rng.normal(size=(92, 100)),
                                           np.zeros((92, 100, 1)), ids[:92], objects[:92])
    return {"source": source, "target": target, "act_source": act_source, "act_target": act_target}


def _li2026() -> dict:
    from bench_li2026_ridgecv import _assemblies, make_data

    from brainio.assemblies import NeuroidAssembly

    X, Y, ids = make_data(300, 4096, 47503)
    source, target = _assemblies(NeuroidAssembly, X, Y, ids)
    return {"source": source, "target": target}


INPUTS = {"large": _large, "real": _real, "mh": lambda: _mh(np.float64), "w32": lambda: _mh(np.float32),
          "q8": lambda: _hard(1.7), "q8r": lambda: _hard(2.0), "newest": _newest, "small": _small,
          "li2026": _li2026}


# ----------------------------------------------------------------------------------------------------- cases
def _array_cases(pkg: str, data: dict) -> dict:
    arrays = importlib.import_module(f"{pkg}.arrays")
    X, Y, train, test = data["X"], data["Y"], data["train"], data["test"]
    X_train, X_test, Y_train = X[train], X[test], Y[train]
    return {
        "ridge": lambda: arrays.ridge_predict(X_train, Y_train, X_test),
        "ridge_fit_predict": lambda: arrays.RidgeRegression(1.0).fit(X_train, Y_train).predict(X_test),
        "ridgecv_loo": lambda: arrays.ridgecv_predict(X_train, Y_train, X_test, alphas=ALPHAS)[0],
        "ridgecv_5fold": lambda: arrays.ridgecv_predict(X_train, Y_train, X_test, alphas=ALPHAS, cv=5)[0],
        "cka": lambda: arrays.linear_cka(X, Y, unbiased=False),
        "cka_unbiased": lambda: arrays.linear_cka(X, Y),
        "rdm_euclidean": lambda: arrays.compute_rdm(X, "euclidean"),
        "rdm_spearman": lambda: float(arrays.compare_rdms(arrays.compute_rdm(X), arrays.compute_rdm(Y))[0, 0]),
    }


def _metric(pkg: str, module: str, name: str, *args, **kwargs):
    return getattr(importlib.import_module(f"{pkg}.{module}"), name)(*args, **kwargs)


def _assembly_cases(pkg: str, data: dict) -> dict:
    source, target = data["source"], data["target"]
    cases = {
        "ridge": lambda: float(_metric(pkg, "regression_correlation", "CrossRegressedCorrelation", "ridge")(
            source, target)),
        "linear_predictivity": lambda: float(_metric(pkg, "regression_correlation", "CrossRegressedCorrelation",
                                                     "linear")(source, target)),
        "pls": lambda: float(_metric(pkg, "regression_correlation", "CrossRegressedCorrelation", "pls")(
            source, target)),
        "neuron_to_neuron": lambda: float(_metric(pkg, "regression_correlation", "CrossRegressedCorrelation",
                                                  "neuron_to_neuron")(source, target)),
        "rdm": lambda: float(_metric(pkg, "rdm", "RDMMetric")(source, target)),
        "rdm_cv": lambda: float(_metric(pkg, "rdm", "RDMCrossValidated")(source, target)),
        "cka": lambda: float(_metric(pkg, "cka", "CKAMetric")(source, target)),
        "cka_biased": lambda: float(_metric(pkg, "cka", "CKAMetric", unbiased=False)(source, target)),
    }
    if "trials" in data:
        cases["internal_consistency"] = lambda: float(_metric(pkg, "internal_consistency", "InternalConsistency")(
            data["trials"]))
    return cases


def _hard_cases(pkg: str, data: dict) -> dict:
    regression = importlib.import_module(f"{pkg}.regression")
    X, Y, splits = data["X"], data["Y"], data["splits"]
    return {"linear": lambda: np.concatenate(regression.LinearRegression().cross_predict(X, Y, splits)),
            "ridge": lambda: np.concatenate(regression.RidgeRegression(1.0).cross_predict(X, Y, splits))}


def _newest_cases(pkg: str, data: dict) -> dict:
    split, (model, neural) = data["split"], data["reverse"]
    return {
        "dual_ridge_split": lambda: float(_metric(pkg, "dual_ridge", "DualRidgeSplitCorrelation")(*split)),
        "dual_ridgecv_split": lambda: float(_metric(pkg, "dual_ridge", "DualRidgeSplitCorrelation", "dual_ridgecv")(
            *split)),
        "reverse_pls": lambda: float(_metric(pkg, "reverse_predictivity", "ReversePredictivity")(model, neural)),
    }


def _small_cases(pkg: str, data: dict) -> dict:
    source, target = data["source"], data["target"]
    act_source, act_target = data["act_source"], data["act_target"]
    return {
        "synth_ridge": lambda: float(_metric(pkg, "regression_correlation", "CrossRegressedCorrelation", "ridge")(
            source, target)),
        "synth_pls": lambda: float(_metric(pkg, "regression_correlation", "CrossRegressedCorrelation", "pls")(
            source, target)),
        "act92_rdm": lambda: float(_metric(pkg, "rdm", "RDMMetric")(act_source, act_target)),
        "act92_cka": lambda: float(_metric(pkg, "cka", "CKAMetric")(act_source, act_target)),
    }


def _li2026_cases(pkg: str, data: dict) -> dict:
    kwargs = {"stratification_coord": None, "splits": 2}
    return {"ridgecv_columns": lambda: float(_metric(pkg, "regression_correlation", "CrossRegressedCorrelation",
                                                     "ridgecv", crossvalidation_kwargs=kwargs)(data["source"],
                                                                                               data["target"]))}


CASES = {"large": _array_cases, "real": _array_cases, "mh": _assembly_cases, "w32": _assembly_cases,
         "q8": _hard_cases, "q8r": _hard_cases, "newest": _newest_cases, "small": _small_cases,
         "li2026": _li2026_cases}


# ---------------------------------------------------------------------------------------------------- timing
def time_pair(before, after, repeats: int) -> dict:
    """Alternating single calls (before first in even rounds); medians, loads, CPU times, values compared."""
    times, cpu, values, loads = {"before": [], "after": []}, {"before": [], "after": []}, {}, []
    for round_index in range(repeats):
        for side in (("before", "after") if round_index % 2 == 0 else ("after", "before")):
            loads.append(os.getloadavg()[0])
            start, start_cpu = time.perf_counter(), time.process_time()
            values[side] = np.asarray((before if side == "before" else after)(), dtype=np.float64)
            times[side].append(time.perf_counter() - start)
            cpu[side].append(time.process_time() - start_cpu)
    scale = max(float(np.max(np.abs(values["before"]))), 1e-300)
    return {"before_s": statistics.median(times["before"]), "after_s": statistics.median(times["after"]),
            "before_all": times["before"], "after_all": times["after"],
            "before_cpu_s": statistics.median(cpu["before"]), "after_cpu_s": statistics.median(cpu["after"]),
            "load_min": min(loads), "load_max": max(loads),
            "max_rel_diff": float(np.max(np.abs(values["after"] - values["before"]))) / scale}


def run(directory: Path, inputs: list[str], cases: list[str] | None, repeats: int, out: Path | None) -> None:
    import warnings

    warnings.simplefilter("ignore")
    sys.path.insert(0, str(directory))
    importlib.import_module(BEFORE)
    results = []
    print(f"before: {(directory / 'COMMIT').read_text().strip()}; load average at start {os.getloadavg()}", flush=True)
    for name in inputs:
        data = INPUTS[name]()
        before, after = CASES[name](BEFORE, data), CASES[name]("brainscore_metrics", data)
        for case in after:
            if cases and case not in cases and f"{name}:{case}" not in cases:
                continue
            result = {"input": name, "case": case, **time_pair(before[case], after[case], repeats)}
            results.append(result)
            print(json.dumps(result), flush=True)
            if out:
                tmp = out.with_suffix(".tmp")
                tmp.write_text(json.dumps({"results": results}, indent=1))
                os.replace(tmp, out)
        del data, before, after
    print("\n| input | case | before s | after s | after / before (wall) | CPU s before / after | load (1 min) | "
          "max rel. diff |\n|---|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['input']} | {r['case']} | {r['before_s']:.3g} | {r['after_s']:.3g} | "
              f"{r['after_s'] / r['before_s']:.2f} | {r['before_cpu_s']:.3g} / {r['after_cpu_s']:.3g} | "
              f"{r['load_min']:.1f}-{r['load_max']:.1f} | {r['max_rel_diff']:.1e} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    prep = sub.add_parser("prepare")
    prep.add_argument("--commit", required=True)
    prep.add_argument("--dir", type=Path, required=True)
    timing = sub.add_parser("run")
    timing.add_argument("--dir", type=Path, required=True)
    timing.add_argument("--inputs", nargs="*", default=list(INPUTS), choices=list(INPUTS))
    timing.add_argument("--cases", nargs="*", default=None, help="case names, or input:case")
    timing.add_argument("--repeats", type=int, default=3)
    timing.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    if args.command == "prepare":
        prepare(args.commit, args.dir)
    else:
        run(args.dir, args.inputs, args.cases, args.repeats, args.out)


if __name__ == "__main__":
    main()
