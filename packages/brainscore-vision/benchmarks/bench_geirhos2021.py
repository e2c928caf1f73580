"""Speed of the Geirhos2021 cue-conflict family: the error-consistency ceiling and a full randomnet score.

Measured in one run on the same data (12,800 trials, 10 subjects, 1,280 images):

* **ceiling**: ours (one ``subjects x stimuli`` correctness table per condition, the kappas of all 45 subject
  pairs from four matrix products) against a straightforward pandas baseline (per subject pair: select both
  subjects' trials, sort by stimulus, compare; Brain-Score's own algorithm, written plainly);
* **score**: ``Geirhos2021cueconflict-error_consistency`` on randomnet, split into the model's labels (placing
  on screen + extraction + 16-class readout, cold activations cache) and the metric, with the metric's baseline
  being the same straightforward pandas loop over subjects.

Run: ``python packages/brainscore-vision/benchmarks/bench_geirhos2021.py`` (needs model-tools for randomnet and
``$BRAINSCORE_RAW_DATA``).
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import tempfile
import time

import numpy as np
import pandas as pd


def _best(function, repeats: int = 3) -> tuple[float, object]:
    best, value = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        value = function()
        best = min(best, time.perf_counter() - start)
    return best, value


def _kappa(first: np.ndarray, second: np.ndarray) -> float:
    a, b = first.mean(), second.mean()
    expected = a * b + (1 - a) * (1 - b)
    return ((first == second).mean() - expected) / (1 - expected)


def baseline_ceiling(table: pd.DataFrame) -> float:
    """Brain-Score's algorithm written plainly with pandas: loop over subject pairs and conditions."""
    values = []
    for left, right in itertools.combinations(sorted(table["subject"].unique()), 2):
        per_condition = []
        for condition in sorted(table["condition"].unique()):
            x = table[(table.subject == left) & (table.condition == condition)].sort_values("stimulus_id")
            y = table[(table.subject == right) & (table.condition == condition)].sort_values("stimulus_id")
            per_condition.append(_kappa(x.correct.to_numpy(), y.correct.to_numpy()))
        values.append(np.mean(per_condition))
    return abs(float(np.mean(values)))


def baseline_metric(model_correct: dict, table: pd.DataFrame) -> float:
    values = []
    for subject in sorted(table["subject"].unique()):
        rows = table[table.subject == subject].sort_values("stimulus_id")
        source = np.array([model_correct[s] for s in rows.stimulus_id])
        values.append(_kappa(source, rows.correct.to_numpy()))
    return abs(float(np.mean(values)))


def main() -> None:
    if "BRAINSCORE_HOME" not in os.environ:
        scratch = tempfile.mkdtemp(prefix="bench-geirhos-")
        atexit.register(shutil.rmtree, scratch, ignore_errors=True)  # scratch runs to GBs
        os.environ["BRAINSCORE_HOME"] = scratch
    os.environ["RESULTCACHING_DISABLE"] = "1"
    import brainscore_vision
    from brainscore_metrics.behavior.error_consistency import ErrorConsistency
    from brainscore_vision.benchmark_helpers.screen import place_on_screen
    from brainscore_vision.benchmarks.geirhos2021.benchmark import human_trials, labelled_trials

    humans = human_trials("cue-conflict")
    table = pd.DataFrame({"subject": humans["subject"].values, "condition": humans["condition"].values,
                          "stimulus_id": humans["stimulus_id"].values,
                          "correct": (humans.values == humans["truth"].values).astype(float)})
    ours_time, ours = _best(lambda: float(ErrorConsistency().ceiling(humans)))
    base_time, base = _best(lambda: baseline_ceiling(table), repeats=1)
    assert abs(ours - base) < 1e-12, (ours, base)
    print(f"cue-conflict ceiling ({len(table)} trials, 10 subjects): ours {ours_time * 1e3:.1f} ms, "
          f"pandas baseline {base_time * 1e3:.0f} ms -> {base_time / ours_time:.0f}x (value {ours:.5f})")

    model = brainscore_vision.load_model("randomnet")
    benchmark = brainscore_vision.load_benchmark("Geirhos2021cueconflict-error_consistency")
    start = time.perf_counter()
    stimuli = benchmark.stimulus_set()
    placed = place_on_screen(stimuli, target_visual_degrees=model.visual_degrees(), source_visual_degrees=3)
    model.start_task("label", sorted(set(stimuli["truth"])))
    source = labelled_trials(model.look_at(placed, number_of_trials=1), placed)
    labels_time = time.perf_counter() - start
    metric = brainscore_vision.load_metric("error_consistency")
    metric_time, raw = _best(lambda: float(metric(source, humans)))
    correct = dict(zip(source["stimulus_id"].values, (source.values == source["truth"].values).astype(float)))
    base_metric_time, base_raw = _best(lambda: baseline_metric(correct, table), repeats=1)
    assert abs(raw - base_raw) < 1e-12, (raw, base_raw)
    print(f"randomnet on cue-conflict: labels (placing + extraction + readout, cold) {labels_time:.1f} s; metric "
          f"ours {metric_time * 1e3:.1f} ms vs pandas baseline {base_metric_time * 1e3:.0f} ms -> "
          f"{base_metric_time / metric_time:.0f}x; whole score ours {labels_time + metric_time + ours_time:.1f} s vs "
          f"{labels_time + base_metric_time + base_time:.1f} s with the baselines (raw {raw:.4f})")


if __name__ == "__main__":
    main()
