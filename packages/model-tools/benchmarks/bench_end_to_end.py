"""End to end: one model on every benchmark that runs from the shipped data, cold and warm, against the bare forward pass.

Three measurements, each in a fresh process, all in this run (the ratios compare like with like on one machine at one
time; the load average is recorded before and after each):

1. **cold**: an empty ``$BRAINSCORE_HOME`` (data packaged, grating stimuli generated, stimuli placed on screen,
   activations extracted, ceilings computed, every metric run, rows stored); the grid runs in the process, as
   ``brainscore score`` runs it. Every stimulus the model is shown is recorded by its content digest (a file, or an
   image placed on the screen in memory), and the time spent inside the model's forward passes is summed (a pass
   that records only early layers ends there).
2. **warm**: the same grid again with ``rescore=True`` in a new process (nothing is recomputed but the metrics).
3. **floor**: a bare forward pass of the same network over the *distinct* images (by content) the cold run showed
   the model, in batches of 64, decoded and preprocessed before each batch's clock starts (only ``model(batch)`` is
   timed). The cold/floor ratio is the issue's target (<= 1.3); warm has an absolute target (<= 20 s).

The cold run also reports where its time went: per pair, the stimulus generation of the Marques2020 gratings, the
model's forward passes (all extraction runs) and the rest.

Run: ``python packages/model-tools/benchmarks/bench_end_to_end.py [--model alexnet-random] [--only PREFIX ...]
[--skip-floor] [--out results.json]`` (needs ``$BRAINSCORE_RAW_DATA``; about 20 minutes on 2 cores for
alexnet-random on all 32 benchmarks). ``--only`` keeps the benchmarks whose identifier starts with a prefix (for
iterating on a subset).
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCHMARKS = (
    ["Cowley2023.V4-pls", "Cowley2023.V4-ridge", "Kriegeskorte2008.hIT-rdm", "Kiani2007.mIT-rdm"]
    + [f"tong.Coggan2024_fMRI.{region}-rdm" for region in ("V1", "V2", "V4", "IT")]
    + [f"Geirhos2021{name}-{kind}" for name in ("cueconflict", "edge", "silhouette", "sketch")
       for kind in ("error_consistency", "top1")] + ["Geirhos2021cueconflict-shape_bias"]
    + [f"Marques2020_Ringach2002-{name}" for name in ("circular_variance", "or_bandwidth", "orth_pref_ratio",
                                                       "or_selective", "cv_bandwidth_ratio", "opr_cv_diff",
                                                       "modulation_ratio", "max_dc")]
    + [f"Marques2020_Cavanaugh2002-{name}" for name in ("grating_summation_field", "surround_diameter",
                                                         "surround_suppression_index")]
    + ["Marques2020_DeValois1982-pref_or", "Marques2020_DeValois1982-peak_sf", "Marques2020_Schiller1976-sf_bandwidth",
       "Marques2020_Schiller1976-sf_selective"])


def _loadavg() -> list[float]:
    return [float(value) for value in Path("/proc/loadavg").read_text().split()[:3]]


def _instrument(record: dict) -> None:
    """Record every stimulus shown to a model (by content), the time inside forward passes (whole or ended once the
    recorded layers have their outputs) and the grating generation time."""
    from model_tools.activations import extractor as extractor_module
    from model_tools.activations import hooks
    from model_tools.activations.inputs import item_digest

    original_forward = hooks.LayerRecorder.forward

    def forward(self, model, inputs):
        start = time.perf_counter()
        try:
            return original_forward(self, model, inputs)
        finally:
            record["forward_s"] += time.perf_counter() - start
            record["forward_images"] += int(inputs.shape[0])

    hooks.LayerRecorder.forward = forward
    original_extract = extractor_module.ActivationsExtractor.extract_values

    def extract_values(self, stimuli, layers):
        normalised = extractor_module.as_stimuli(stimuli)
        if not normalised.is_tensor:
            for item in normalised.items:
                placed = hasattr(item, "open_image")
                shown = [item.source, item.ratio] if placed else str(item)
                record["shown"].setdefault(item_digest(item), shown)
        return original_extract(self, normalised, layers)

    extractor_module.ActivationsExtractor.extract_values = extract_values

    from brainscore_vision.data.marques2020.data_packaging import stimuli as grating_stimuli

    original_package = grating_stimuli.package_set

    def package(*args, **kwargs):
        start = time.perf_counter()
        try:
            return original_package(*args, **kwargs)
        finally:
            record["generation_s"] += time.perf_counter() - start

    grating_stimuli.package_set = package


def child(model: str, benchmarks: list[str], rescore: bool, out: Path) -> None:
    """One grid in this process (``brainscore score``'s in-process path), written to ``out`` as JSON."""
    start = time.perf_counter()
    record = {"forward_s": 0.0, "forward_images": 0, "generation_s": 0.0, "shown": {}}
    import brainscore_vision

    imported = time.perf_counter() - start
    _instrument(record)
    home = Path(os.environ["BRAINSCORE_HOME"])
    frame = brainscore_vision.score_many([model], benchmarks, None, store=f"sqlite:///{home / 'results.sqlite'}",
                                         rescore=rescore, progress=False)
    total = time.perf_counter() - start
    record.pop("_start", None)
    result = {"total_s": total, "import_s": imported, **record,
              "pairs": [{key: (None if value != value else value) for key, value in row.items()}
                        for row in frame[["benchmark", "status", "score", "elapsed_s", "error_message"]]
                        .to_dict("records")]}
    out.write_text(json.dumps(result, default=str))


def floor(model: str, shown: list, batch_size: int = 64) -> dict:
    """Seconds of ``model(batch)``, the whole network, over the ``shown`` images (a path, or ``[source, ratio]``
    of an image placed on the screen), decoded and preprocessed before each batch's clock starts."""
    import numpy as np
    import torch

    import brainscore_vision
    from brainscore_vision.benchmark_helpers.screen import PlacedImage

    paths = [PlacedImage.of(item[0], item[1]) if isinstance(item, list) else item for item in shown]

    commitment = brainscore_vision.load_model(model)
    extractor = commitment.activations_model
    network, preprocessing = extractor.model, extractor.preprocessing
    network.eval()
    seconds = 0.0
    with torch.no_grad():
        for start in range(0, len(paths), batch_size):
            images = [preprocessing.decode(path) for path in paths[start:start + batch_size]]
            batch = preprocessing.to_tensor(np.stack(images))
            begin = time.perf_counter()
            network(batch)
            seconds += time.perf_counter() - begin
    return {"floor_s": seconds, "images": len(paths), "batch_size": batch_size}


def _spawn(arguments: list[str], environment: dict) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, __file__, *arguments], env=environment, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="alexnet-random")
    parser.add_argument("--only", nargs="*", default=None, help="benchmark identifier prefixes to keep")
    parser.add_argument("--skip-floor", action="store_true")
    parser.add_argument("--skip-warm", action="store_true")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--child", choices=["grid", "floor"], default=None, help=argparse.SUPPRESS)
    parser.add_argument("--rescore", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--record", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    benchmarks = [b for b in BENCHMARKS if args.only is None or any(b.startswith(p) for p in args.only)]
    if args.child == "grid":
        child(args.model, benchmarks, args.rescore, args.record)
        return
    if args.child == "floor":
        paths = json.loads(args.record.read_text())
        args.record.write_text(json.dumps(floor(args.model, paths)))
        return

    root = Path(tempfile.mkdtemp(prefix="bench-e2e-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)  # scratch runs to GBs
    environment = {**os.environ, "BRAINSCORE_HOME": str(root / "home"), "BRAINSCORE_PROGRESS": "0"}
    environment.setdefault("BRAINSCORE_RAW_DATA", str(Path(__file__).resolve().parents[3].parent / "shared" / "data"))
    report: dict = {"model": args.model, "benchmarks": benchmarks, "date": time.strftime("%Y-%m-%d %H:%M %Z"),
                    "cpus": os.cpu_count()}
    selection = ["--only", *args.only] if args.only else []
    for phase, extra in (("cold", []), ("warm", ["--rescore"])):
        if phase == "warm" and args.skip_warm:
            continue
        record = root / f"{phase}.json"
        load_before = _loadavg()
        wall = _spawn(["--child", "grid", "--model", args.model, *selection, *extra, "--record", str(record)],
                      environment)
        result = json.loads(record.read_text())
        result.update(wall_s=wall, loadavg_before=load_before, loadavg_after=_loadavg())
        report[phase] = result
        pairs = sum(pair["elapsed_s"] or 0 for pair in result["pairs"])
        failed = [pair["benchmark"] for pair in result["pairs"] if pair["status"] != "ok"]
        print(f"{phase}: {wall:.1f} s wall ({result['total_s']:.1f} s in the process, imports {result['import_s']:.1f} "
              f"s), pairs {pairs:.1f} s, forward passes {result['forward_s']:.1f} s over {result['forward_images']} "
              f"images, grating generation {result['generation_s']:.1f} s, failed {failed}, load "
              f"{load_before} -> {result['loadavg_after']}", flush=True)
    cold = report["cold"]
    distinct = cold["shown"]  # content digest -> path or [source, ratio]
    report["distinct_images"] = len(distinct)
    if not args.skip_floor:
        record = root / "floor.json"
        record.write_text(json.dumps([distinct[digest] for digest in sorted(distinct)]))
        load_before = _loadavg()
        _spawn(["--child", "floor", "--model", args.model, "--record", str(record)], environment)
        report["floor"] = {**json.loads(record.read_text()), "loadavg_before": load_before,
                           "loadavg_after": _loadavg()}
        ratio = cold["wall_s"] / report["floor"]["floor_s"]
        print(f"floor: {report['floor']['floor_s']:.1f} s bare forward over {len(distinct)} distinct images; "
              f"cold / floor = {ratio:.2f}", flush=True)
    for phase in ("cold", "warm"):
        report.get(phase, {}).pop("shown", None)
    if args.out is not None:
        args.out.write_text(json.dumps(report, indent=1, default=str))
    print(json.dumps({phase: [(p["benchmark"], round(p["elapsed_s"] or 0, 2), p["status"])
                              for p in report[phase]["pairs"]] for phase in ("cold", "warm") if phase in report}))


if __name__ == "__main__":
    main()
