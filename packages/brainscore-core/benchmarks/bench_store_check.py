"""What the results store's self-check costs (issue 41): ``PRAGMA quick_check`` on opening a SQLite store.

A store of ``--rows`` rows (default 20,000, each with a 300-character provenance and a layer map, as grids write) is
opened for one insert, with the check (as every store opens now) and without it (the check replaced by a no-op, the
way the store opened before), and read whole (what ``brainscore report`` does), with and without it. Median of
``--repeats`` calls each, every figure timed the same way in the same run; the load average is printed (the
development machine is shared).

Run: ``python benchmarks/bench_store_check.py [--rows 20000] [--repeats 11]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import brainscore_core._store_integrity as integrity
import brainscore_core.results as results
from brainscore_core.results import ResultStore


def median_seconds(call, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def fill(url: str, count: int) -> None:
    provenance = json.dumps({"data": "d" * 40, "weights": "w" * 40, "code": "c" * 200})
    with ResultStore(url) as store, store.engine.begin() as connection:
        connection.execute(results.scores_table.insert(), [
            {"model_identifier": f"model-{i % 500}", "benchmark_identifier": f"Bench{i % 40}.IT-pls",
             "benchmark_version": 1, "score_ceiled": 0.5, "score_raw": 0.4, "provenance": provenance,
             "layer_map": json.dumps({"IT": "layer4.1"}), "status": "ok",
             "timestamp": datetime(2026, 1, 1, tzinfo=UTC)} for i in range(count)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=11)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "results.sqlite"
        url = f"sqlite:///{path}"
        fill(url, args.rows)
        row = {"model_identifier": "m", "benchmark_identifier": "B", "benchmark_version": 1,
               "timestamp": datetime(2026, 1, 1, tzinfo=UTC)}

        def insert() -> None:
            with ResultStore(url) as store:
                store.insert(row)

        def report() -> None:
            with ResultStore(url, read_only=True) as store:
                store.rows()

        print(f"bench_store_check: {args.rows:,} rows, {path.stat().st_size / 1e6:.1f} MB; median of {args.repeats} "
              f"calls each; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        check = median_seconds(lambda: integrity.damage_of(path), args.repeats)
        checked = {"insert": median_seconds(insert, args.repeats), "read": median_seconds(report, args.repeats)}
        original = results.refuse_if_damaged
        results.refuse_if_damaged = lambda url, *, salvage=False: None  # the store as it opened before
        try:
            unchecked = {"insert": median_seconds(insert, args.repeats), "read": median_seconds(report, args.repeats)}
        finally:
            results.refuse_if_damaged = original
        print(f"quick_check alone: {check * 1000:.0f} ms")
        for what in ("insert", "read"):
            print(f"open + {what}: {checked[what] * 1000:.0f} ms checked, {unchecked[what] * 1000:.0f} ms unchecked, "
                  f"ratio {checked[what] / unchecked[what]:.2f}")


if __name__ == "__main__":
    main()
