"""Li2026's ``ridgecv`` at its real shape (1,000 stimuli, 47,503 neuroids) against Brain-Score's own call.

Li2026.{region}-ridgecv is Brain-Score's ``CrossRegressedCorrelation(dual_ridge_cv_regression(),
pearsonr_correlation(), crossvalidation_kwargs=dict(stratification_coord=None))``: 10 shuffle splits, RidgeCV over 99
alphas in the dual form. Ours is ``CrossRegressedCorrelation('ridgecv', crossvalidation_kwargs=dict(
stratification_coord=None))``, which takes the dual form and correlates block by block over the neuroids
(``_ridgecv_columns.py``). Both run on the same synthetic input (``make_data``: float32 source of ``--features``
columns and float32 target of ``--neuroids`` columns, numpy ``default_rng(0)``), each in its own process; Brain-Score's
in the reference venv (``--reference-python``, default ``/work/venvs/bsref/bin/python``).

Memory: ``tracemalloc`` peak from the start of the call (the inputs are not in it; numpy's allocations are traced,
BLAS scratch is not), reported as (inputs + peak) / inputs, the issue's "within 2x of the source and target arrays".
Time: median of ``--repeats`` calls for ours; Brain-Score's call on ``--reference-splits`` splits (default 1: one of its
splits takes minutes here) scaled to 10, which the output says. The load average is printed: the machine is shared.

Run: ``python benchmarks/bench_li2026_ridgecv.py [--neuroids 47503 --features 4096 --stimuli 1000]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import tracemalloc

import numpy as np


def make_data(n_stimuli: int, n_features: int, n_neuroids: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    latent = rng.standard_normal((n_stimuli, 30), dtype=np.float32)
    X = latent @ rng.standard_normal((30, n_features), dtype=np.float32)
    X += rng.standard_normal((n_stimuli, n_features), dtype=np.float32)
    Y = latent @ (0.3 * rng.standard_normal((30, n_neuroids), dtype=np.float32))
    Y += rng.standard_normal((n_stimuli, n_neuroids), dtype=np.float32)
    ids = np.array([f"nsd_{i:05d}" for i in range(n_stimuli)])
    return X, Y, ids


def _assemblies(cls, X, Y, ids):
    source = cls(X, coords={"stimulus_id": ("presentation", ids), "image": ("presentation", np.arange(len(ids))),
                            "neuroid_id": ("neuroid", np.arange(X.shape[1])), "layer": ("neuroid", ["l"] * X.shape[1])},
                 dims=["presentation", "neuroid"])
    target = cls(Y, coords={"stimulus_id": ("presentation", ids), "image": ("presentation", np.arange(len(ids))),
                            "neuroid_id": ("neuroid", np.arange(Y.shape[1])), "region": ("neuroid", ["IT"] * Y.shape[1])},
                 dims=["presentation", "neuroid"])
    return source, target


def _measure(call, source, target):
    tracemalloc.start()
    start = time.perf_counter()
    score = call(source, target)
    elapsed = time.perf_counter() - start
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return float(np.asarray(score).ravel()[0]), elapsed, peak


def run_ours(args) -> dict:
    from brainio.assemblies import NeuroidAssembly
    from brainscore_metrics.regression_correlation import CrossRegressedCorrelation

    X, Y, ids = make_data(args.stimuli, args.features, args.neuroids)
    source, target = _assemblies(NeuroidAssembly, X, Y, ids)
    metric = CrossRegressedCorrelation("ridgecv", crossvalidation_kwargs={"stratification_coord": None,
                                                                         "splits": args.splits})
    runs = [_measure(metric, source, target) for _ in range(args.repeats)]
    return {"score": runs[0][0], "seconds": float(np.median([r[1] for r in runs])), "peak": max(r[2] for r in runs),
            "inputs": X.nbytes + Y.nbytes}


def run_brainscore(args) -> dict:
    os.environ["BS_INSTALL_DEPENDENCIES"] = "no"
    from brainscore_core.supported_data_standards.brainio.assemblies import NeuroidAssembly
    from brainscore_vision.metrics.regression_correlation.metric import (
        CrossRegressedCorrelation,
        dual_ridge_cv_regression,
        pearsonr_correlation,
    )

    X, Y, ids = make_data(args.stimuli, args.features, args.neuroids)
    source, target = _assemblies(NeuroidAssembly, X, Y, ids)
    metric = CrossRegressedCorrelation(regression=dual_ridge_cv_regression(), correlation=pearsonr_correlation(),
                                       crossvalidation_kwargs={"stratification_coord": None,
                                                               "splits": args.reference_splits})
    score, seconds, peak = _measure(metric, source, target)
    return {"score": score, "seconds": seconds, "peak": peak, "inputs": X.nbytes + Y.nbytes}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stimuli", type=int, default=1000)
    parser.add_argument("--features", type=int, default=4096)
    parser.add_argument("--neuroids", type=int, default=47503)
    parser.add_argument("--splits", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--reference-splits", type=int, default=1)
    parser.add_argument("--reference-python", default="/work/venvs/bsref/bin/python")
    parser.add_argument("--side", choices=["ours", "brainscore", "both"], default="both")
    args = parser.parse_args()
    if args.side == "ours":
        print(json.dumps(run_ours(args)))
        return
    if args.side == "brainscore":
        print(json.dumps(run_brainscore(args)))
        return
    common = [f"--stimuli={args.stimuli}", f"--features={args.features}", f"--neuroids={args.neuroids}",
              f"--splits={args.splits}", f"--repeats={args.repeats}", f"--reference-splits={args.reference_splits}"]
    load = os.getloadavg()
    ours = json.loads(subprocess.run([sys.executable, __file__, "--side=ours", *common], check=True,
                                     capture_output=True, text=True).stdout.splitlines()[-1])
    print(f"ours (first, as measured): {json.dumps(ours)}", flush=True)
    reference = json.loads(subprocess.run([args.reference_python, __file__, "--side=brainscore", *common], check=True,
                                          capture_output=True, text=True,
                                          env={**os.environ, "RESULTCACHING_DISABLE": "1"}).stdout.splitlines()[-1])
    scale = args.splits / args.reference_splits
    gib = 2 ** 30
    print(f"Li2026 ridgecv: {args.stimuli} stimuli x {args.features} features (float32) -> {args.neuroids} neuroids "
          f"(float32), {args.splits} splits; inputs {ours['inputs'] / gib:.2f} GiB; load average {load[0]:.1f} at start")
    print(f"ours       : {ours['seconds']:8.1f} s, peak {ours['peak'] / gib:.2f} GiB, (inputs + peak) / inputs "
          f"{(ours['inputs'] + ours['peak']) / ours['inputs']:.2f}, score {ours['score']:.6f}")
    print(f"Brain-Score: {reference['seconds'] * scale:8.1f} s ({args.reference_splits} split(s) timed, x{scale:g}), "
          f"peak {reference['peak'] / gib:.2f} GiB, (inputs + peak) / inputs "
          f"{(reference['inputs'] + reference['peak']) / reference['inputs']:.2f}, score {reference['score']:.6f} "
          f"({args.reference_splits} split(s))")
    print(f"ratios: time Brain-Score / ours {reference['seconds'] * scale / ours['seconds']:.1f}x, peak memory "
          f"Brain-Score / ours {reference['peak'] / ours['peak']:.1f}x")


if __name__ == "__main__":
    main()
