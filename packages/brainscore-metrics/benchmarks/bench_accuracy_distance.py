"""``accuracy_distance`` on matrices against the per-pair loop it replaced (the code at commit 22ccd5f, read from git
and run in the same process), on stand-ins of Brain-Score's sizes: BMD2024 (one condition: 52 subjects x 100 images),
Scialom2024 rgb (50 x 48) and a composite (25 x 528), Lonnqvist2024 online (92 x 380).

Timed: the ceiling (all subject pairs) and a model against every subject, median of ``--repeats`` calls each, the
two implementations alternating. Run from the repository root: ``python packages/brainscore-metrics/benchmarks/
bench_accuracy_distance.py``; the load average is printed (the machine is shared).
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

BASELINE_COMMIT = "22ccd5f"
ROOT = Path(__file__).resolve().parents[3]
STANDINS = ROOT / "packages" / "brainscore-vision" / "benchmarks" / "behavioral_standins.py"


def _module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _baseline():
    source = subprocess.run(["git", "-C", str(ROOT), "show", f"{BASELINE_COMMIT}:packages/brainscore-metrics/src/"
                             "brainscore_metrics/behavior/accuracy_distance.py"], capture_output=True, text=True,
                            check=True).stdout
    path = Path(tempfile.mkdtemp()) / "accuracy_distance_baseline.py"
    path.write_text(source)
    return _module(path, "accuracy_distance_baseline")


def _cases():
    from brainio.assemblies import BehavioralAssembly

    standins = _module(STANDINS, "behavioral_standins")

    def assembly(data):
        return BehavioralAssembly(np.asarray(data["values"]), coords={k: ("presentation", np.asarray(v))
                                                                      for k, v in data["coords"].items()},
                                  dims=["presentation"])
    bmd = standins.bmd2024(images_per_category=10, n_subjects=52)["assemblies"]["BMD2024.texture_1"]
    scialom = standins.scialom2024(images_per_set=48, subjects=(50, 25), composite_subjects=25,
                                   datasets=("rgb", "phosphenes-all"))["assemblies"]
    lonnqvist = standins.lonnqvist2024(n_train=185, n_test=380, subjects=(10, 10, 92))["assemblies"]
    cases = {"BMD2024 (52 x 100)": bmd, "Scialom2024 rgb (50 x 48)": scialom["Scialom2024_rgb"],
             "Scialom2024 phosphenes-all (25 x 528)": scialom["Scialom2024_phosphenes-all"],
             "Lonnqvist2024 online (92 x 380)": lonnqvist["Lonnqvist2024_online-no-instructions"]}
    out = {}
    for name, data in cases.items():
        humans = assembly(data)
        ids, first = np.unique(np.asarray(data["coords"]["stimulus_id"]), return_index=True)
        truth = np.asarray(data["coords"]["truth"])[first]
        model = BehavioralAssembly(np.where(np.arange(len(ids)) % 3 == 0, "wrong", truth),
                                   coords={"stimulus_id": ("presentation", ids), "truth": ("presentation", truth)},
                                   dims=["presentation"])
        out[name] = (model, humans)
    return out


def _median(function, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        value = function()
        times.append(time.perf_counter() - start)
    return statistics.median(times), value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    from brainscore_metrics.behavior.accuracy_distance import AccuracyDistance

    baseline = _baseline().AccuracyDistance
    print(f"load average before: {Path('/proc/loadavg').read_text().split()[:3]}")
    for name, (model, humans) in _cases().items():
        for what, call in (("ceiling", lambda m, h, metric: metric.ceiling(h)),
                           ("model vs subjects", lambda m, h, metric: metric(m, h))):
            old, old_value = _median(functools.partial(call, model, humans, baseline()), args.repeats)
            new, new_value = _median(functools.partial(call, model, humans, AccuracyDistance()), args.repeats)
            assert abs(float(old_value) - float(new_value)) < 1e-12, (name, what)
            print(f"{name}, {what}: loop {old * 1000:.1f} ms, matrices {new * 1000:.1f} ms: {old / new:.1f}x "
                  f"(same value {float(new_value):.6f})")
    print(f"load average after: {Path('/proc/loadavg').read_text().split()[:3]}")


if __name__ == "__main__":
    sys.exit(main())
