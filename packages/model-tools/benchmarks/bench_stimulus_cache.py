"""Warm stimulus-set load + activations cache key, before and after stimulus caching got one room (issue 32).

One call = load the real Geirhos 2021 cue-conflict set (1,280 PNGs, packaged from ``$BRAINSCORE_RAW_DATA`` through
brainscore_vision's data plugin, its archive already extracted and its stamps settled), place it on an 8-degree
screen from 10 degrees, and build the content digest (the activations cache key's stimulus part) of the set and of
the placed set. Baseline, timed the same way in the same run: the same call on the code of commit
:data:`BASELINE_COMMIT` (``git archive`` into a scratch folder, first on ``PYTHONPATH`` of a child process), where a
warm load re-read the archive's members and the key asked for each image's path, placement and digest one by one.
Each code runs in its own child process with its own ``$BRAINIO_HOME`` (their manifests differ in format); the
packaged store is shared. Both children check that they build the same keys. Median of ``--repeats`` calls each.

Run: ``python benchmarks/bench_stimulus_cache.py [--repeats 9]`` (skips without the raw data or without git).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
BASELINE_COMMIT = "15ebd6796d58452ba01fdfe5f2306afa5fb8f7e8"
SET = "Geirhos2021_cue-conflict"


def child(repeats: int) -> None:
    """In the child: settle the extracted files, then time the warm call; print one JSON line."""
    from brainscore_vision import load_stimulus_set
    from brainscore_vision.benchmark_helpers.screen import place_on_screen
    from model_tools.activations.inputs import as_stimuli

    def call():
        stimulus_set = load_stimulus_set(SET)
        placed = place_on_screen(stimulus_set, target_visual_degrees=8, source_visual_degrees=10)
        return as_stimuli(stimulus_set).digest(), as_stimuli(placed).digest()

    first = load_stimulus_set(SET)
    old = time.time() - 3600
    for path in first.stimulus_paths.values():  # out of the racy window: a warm load trusts the recorded stamps
        os.utime(path, (old, old))
    keys = call()  # records the settled stamps
    loads, calls = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        load_stimulus_set(SET)
        loads.append(time.perf_counter() - start)
        start = time.perf_counter()
        call()
        calls.append(time.perf_counter() - start)
    print(json.dumps({"keys": keys, "images": len(first), "load": statistics.median(loads),
                      "call": statistics.median(calls)}))


def run_child(repeats: int, brainio_home: Path, sources: list[Path] | None) -> dict:
    env = dict(os.environ, BRAINIO_HOME=str(brainio_home))
    if sources is not None:
        env["PYTHONPATH"] = os.pathsep.join([*map(str, sources), env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, __file__, "--child", "--repeats", str(repeats)], env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"bench_stimulus_cache: child failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def baseline_sources(scratch: Path) -> list[Path] | None:
    """The ``src`` folders of the five packages at :data:`BASELINE_COMMIT`, or None without git / the commit."""
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", BASELINE_COMMIT, "packages"],
                                 capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(scratch, filter="data")
    return sorted((scratch / "packages").glob("*/src"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.repeats)
    raw = Path(os.environ.get("BRAINSCORE_RAW_DATA", ROOT / ".." / "shared" / "data"))
    if not (raw / "geirhos2021").is_dir():
        print(f"bench_stimulus_cache: skipped, no geirhos2021 under {raw} (set BRAINSCORE_RAW_DATA)")
        return
    os.environ["BRAINSCORE_RAW_DATA"] = str(raw.resolve())
    scratch = Path(tempfile.mkdtemp(prefix="bench-stimulus-cache-"))
    try:
        os.environ["BRAINSCORE_HOME"] = str(scratch / "home")  # one packaged store for both
        sources = baseline_sources(scratch / "baseline")
        if sources is None:
            print(f"bench_stimulus_cache: skipped, commit {BASELINE_COMMIT[:10]} not readable with git")
            return
        before = run_child(args.repeats, scratch / "brainio-before", sources)
        after = run_child(args.repeats, scratch / "brainio-after", None)
        if before["keys"] != after["keys"]:
            raise SystemExit(f"bench_stimulus_cache: the keys differ: {before['keys']} vs {after['keys']}")
        print(f"bench_stimulus_cache ({SET}, {after['images']:,} images; median of {args.repeats} calls each, "
              f"baseline commit {BASELINE_COMMIT[:10]} in the same run):")
        print(f"  warm load: {after['load'] * 1000:.1f} ms vs {before['load'] * 1000:.1f} ms before "
              f"({before['load'] / after['load']:.1f}x faster)")
        print(f"  warm load + placement + both keys: {after['call'] * 1000:.1f} ms vs {before['call'] * 1000:.1f} ms "
              f"before ({before['call'] / after['call']:.1f}x faster); same keys")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
