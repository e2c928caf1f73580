"""Issue 38 (part 1): scoring every benchmark of a behavioural family against a bare forward pass over its distinct
images, on stand-ins of the families' sizes.

For each family, in fresh processes and a fresh ``$BRAINSCORE_HOME`` (as ``bench_end_to_end.py`` measures the shipped
grid, whose ``floor`` and instrumentation this script reuses):

1. **grid**: ``score_many([model], <every benchmark of the family>)`` in one process, the data served from memory in
   place of Brain-Score's bucket (the stand-ins of ``brainscore-vision/benchmarks/behavioral_standins.py`` at the
   sizes of Brain-Score's files, one small PNG of 224 x 224 px per stimulus, written before the clock starts).
   Timed: the ``score_many`` call (the model built, data loaded, stimuli placed, activations extracted, readouts,
   ceilings, metrics, rows stored); apart, the model's first load in the process before it (importing torch and
   building the network, a once-per-process cost), and the process's wall time. Every image shown is recorded by content digest and
   the images that passed through the model are counted: each distinct image once is the target.
2. **floor**: a bare forward pass of the whole network over the family's distinct images, batches of 64, only
   ``model(batch)`` timed (decoding and preprocessing before each batch's clock).

The ratio grid / floor is the issue's target (<= 1.2). Run: ``python packages/model-tools/benchmarks/
bench_behavioral_families.py [--model alexnet-random] [--families Scialom2024 ...] [--together] [--out results.json]``
(``--together``: also one grid over every selected family, as a leaderboard run scores them, against the floor over
the union of their distinct images). The load
average is recorded before and after each measurement (the machine is shared: say so with the figures).
"""

from __future__ import annotations

import argparse
import atexit
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bench_end_to_end as e2e

STANDINS_FILE = Path(__file__).resolve().parents[2] / "brainscore-vision" / "benchmarks" / "behavioral_standins.py"
#: generator arguments giving Brain-Score's sizes (stimuli, subjects, trials; see each data plugin's tests)
REAL_SIZES = {
    "Scialom2024": {"images_per_set": 48, "subjects": (50, 25), "composite_subjects": 25},  # 960 distinct images
    "Baker2022": {"images_per_type": (27, 20), "subjects": (32, 12), "shown": (0.16, 1.0)},  # 729 + 360
    "BMD2024": {"images_per_category": 10, "n_subjects": 52},  # 4 x 100
    "Lonnqvist2024": {"n_train": 185, "n_test": 380, "subjects": (10, 10, 92)},
    "Hebart2023": {"n_images": 1854, "n_triplets": 453642},
    "Coggan2024_behavior": {"n_subjects": 30, "classes": 8, "occluders": 10, "colours": 3, "n_fitting": 2048,
                            "visibilities": (0.3, 0.6, 1.0)},  # 21,600 + 2,048
    "Maniquet2024": {"images_per_cell": 324, "trials_per_task": 600, "n_subjects": 20},  # 13,608 test images
}
#: the registry keys of each family start so
PREFIXES = {"Scialom2024": "Scialom2024_", "Baker2022": "Baker2022", "BMD2024": "BMD2024.",
            "Lonnqvist2024": "Lonnqvist2024_", "Hebart2023": "Hebart2023-match", "Maniquet2024": "Maniquet2024-",
            "Coggan2024_behavior": "tong.Coggan2024_behavior-"}
DEFAULT_FAMILIES = ("Scialom2024", "Baker2022", "BMD2024", "Lonnqvist2024", "Hebart2023")


def _standins():
    spec = importlib.util.spec_from_file_location("behavioral_standins", STANDINS_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _family(name: str) -> dict:
    return _standins().FAMILIES[name](**REAL_SIZES[name])


def _image_path(root: Path, family: str, stimulus_id) -> Path:
    return root / "images" / family / f"{stimulus_id}.png"


def write_images(root: Path, family: str) -> int:
    """One 224 x 224 PNG per distinct stimulus of ``family``: a background and a rectangle fixed by the id."""
    import numpy as np
    from PIL import Image

    unit = _standins().unit
    ids = {str(i) for columns in _family(family)["stimulus_sets"].values() for i in columns["stimulus_id"]}
    for stimulus_id in ids:
        path = _image_path(root, family, stimulus_id)
        path.parent.mkdir(parents=True, exist_ok=True)
        image = np.full((224, 224, 3), [int(255 * unit(stimulus_id, c)) for c in range(3)], np.uint8)
        top, left = int(150 * unit(stimulus_id, "y")), int(150 * unit(stimulus_id, "x"))
        image[top:top + 70, left:left + 70] = [int(255 * unit(stimulus_id, "fg", c)) for c in range(3)]
        Image.fromarray(image).save(path)
    return len(ids)


def serve(root: Path, *families: str) -> None:
    """Serve the stand-ins of ``families`` in place of Brain-Score's bucket (brainio.s3's loaders), with image files."""
    import numpy as np

    import brainio.s3
    from brainio import assemblies
    from brainio.linking import attach_stimulus_set

    sets, data = {}, {}
    for family in families:
        _stand_ins(root, family, sets, data)

    def load_stimulus_set_from_s3(identifier, *args, **kwargs):
        return sets[identifier].copy()

    def load_assembly_from_s3(identifier, version_id, sha1, bucket, cls, stimulus_set_loader=None,
                              merge_stimulus_set_meta=True):
        cls = getattr(assemblies, cls) if isinstance(cls, str) else cls
        made = data[identifier]
        assembly = cls(np.asarray(made["values"]), coords={name: ("presentation", np.asarray(values))
                                                           for name, values in made["coords"].items()},
                       dims=["presentation"])
        if stimulus_set_loader is not None:
            assembly = attach_stimulus_set(assembly, stimulus_set_loader(), merge=merge_stimulus_set_meta)
        return assembly

    brainio.s3.load_stimulus_set_from_s3 = load_stimulus_set_from_s3
    brainio.s3.load_assembly_from_s3 = load_assembly_from_s3


def _stand_ins(root: Path, family: str, sets: dict, data: dict) -> None:
    """Add ``family``'s stand-in stimulus sets and assemblies to ``sets`` and ``data``, by bucket identifier."""
    import pandas as pd

    from brainio.stimuli import StimulusSet
    from brainscore_vision.data_helpers.public_catalogue import catalogue, read_catalogue

    folder = {"Baker2022": "baker2022", "BMD2024": "bmd2024", "Lonnqvist2024": "lonnqvist2024",
              "Maniquet2024": "maniquet2024", "Scialom2024": "scialom2024",
              "Coggan2024_behavior": "coggan2024_behavior"}.get(family)
    import brainscore_vision

    entries = catalogue() if folder is None else read_catalogue(
        Path(brainscore_vision.__file__).parent / "data" / folder / "catalogue.json")
    made = _family(family)
    for identifier, columns in made["stimulus_sets"].items():
        stimuli = StimulusSet(pd.DataFrame(columns))
        stimuli["stimulus_id"] = stimuli["stimulus_id"].astype(str)
        stimuli.stimulus_paths = {i: str(_image_path(root, family, i)) for i in stimuli["stimulus_id"]}
        stimuli.identifier = entries[("stimulus_set", identifier)]["s3_identifier"]
        sets[stimuli.identifier] = stimuli
    for identifier, values in made["assemblies"].items():
        data[entries[("assembly", identifier)]["s3_identifier"]] = values


def child(model: str, families: list[str], root: Path, out: Path) -> None:
    """One grid over every benchmark of ``families`` in this process, written to ``out`` as JSON."""
    start = time.perf_counter()
    record = {"forward_s": 0.0, "forward_images": 0, "generation_s": 0.0, "shown": {}}
    import brainscore_vision

    serve(root, *families)  # the stand-ins are generated here, before the clock of the grid starts
    load_start = time.perf_counter()
    brainscore_vision.load_model(model)  # imports torch and builds the network once: a per-process cost, timed apart
    model_load = time.perf_counter() - load_start
    e2e._instrument(record)
    keys = sorted(key for key in brainscore_vision.benchmark_registry
                  if any(key.startswith(PREFIXES[family]) for family in families))
    home = Path(os.environ["BRAINSCORE_HOME"])
    grid_start = time.perf_counter()
    frame = brainscore_vision.score_many([model], keys, None, store=f"sqlite:///{home / 'results.sqlite'}",
                                         progress=False)
    grid = time.perf_counter() - grid_start
    out.write_text(json.dumps({
        "grid_s": grid, "model_load_s": model_load, "process_s": time.perf_counter() - start, "benchmarks": len(keys),
        **record,
        "pairs": [{key: (None if value != value else value) for key, value in row.items()}
                  for row in frame[["benchmark", "status", "score", "elapsed_s", "error_message"]].to_dict("records")]},
        default=str))


def _spawn(arguments: list[str], environment: dict) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, __file__, *arguments], env=environment, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="alexnet-random")
    parser.add_argument("--families", nargs="*", default=list(DEFAULT_FAMILIES), choices=sorted(REAL_SIZES))
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--child", choices=["grid", "floor"], default=None, help=argparse.SUPPRESS)
    parser.add_argument("--together", action="store_true",
                        help="also score every selected family in one grid (one process: what a leaderboard run pays "
                             "once is paid once), against the floor over the union of their images")
    parser.add_argument("--family", nargs="*", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--root", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--record", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child == "grid":
        child(args.model, args.family, args.root, args.record)
        return
    if args.child == "floor":
        args.record.write_text(json.dumps(e2e.floor(args.model, json.loads(args.record.read_text()))))
        return

    root = Path(tempfile.mkdtemp(prefix="bench-families-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    report = {"model": args.model, "date": time.strftime("%Y-%m-%d %H:%M %Z"), "cpus": os.cpu_count(), "families": {}}
    images = {family: write_images(root, family) for family in args.families}
    runs = [[family] for family in args.families] + ([list(args.families)] if args.together else [])
    for families in runs:
        family = "+".join(families)
        environment = {**os.environ, "BRAINSCORE_HOME": str(root / f"home-{family}"), "BRAINSCORE_PROGRESS": "0",
                       "BRAINIO_HOME": str(root / f"brainio-{family}")}
        record = root / f"{family}.json"
        load_before = e2e._loadavg()
        wall = _spawn(["--child", "grid", "--model", args.model, "--family", *families, "--root", str(root),
                       "--record", str(record)], environment)
        result = json.loads(record.read_text())
        result.update(wall_s=wall, loadavg_before=load_before, loadavg_after=e2e._loadavg(),
                      stimuli=sum(images[name] for name in families))
        shown = result.pop("shown")
        failed = [(pair["benchmark"], pair["error_message"]) for pair in result["pairs"] if pair["status"] != "ok"]
        if failed:
            raise SystemExit(f"{family}: {len(failed)} pairs failed, e.g. {failed[:3]}")
        floor_record = root / f"{family}-floor.json"
        floor_record.write_text(json.dumps([shown[digest] for digest in sorted(shown)]))
        load_before = e2e._loadavg()
        _spawn(["--child", "floor", "--model", args.model, "--record", str(floor_record)], environment)
        result["floor"] = {**json.loads(floor_record.read_text()), "loadavg_before": load_before,
                           "loadavg_after": e2e._loadavg()}
        result["distinct_images"] = len(shown)
        result["grid_over_floor"] = result["grid_s"] / result["floor"]["floor_s"]
        result["with_model_load_over_floor"] = (result["grid_s"] + result["model_load_s"]) / result["floor"]["floor_s"]
        print(f"{family}: {result['benchmarks']} benchmarks, grid {result['grid_s']:.1f} s (model load before it "
              f"{result['model_load_s']:.1f} s, process {wall:.1f} s), "
              f"forward passes {result['forward_s']:.1f} s over {result['forward_images']} images; floor "
              f"{result['floor']['floor_s']:.1f} s over {len(shown)} distinct images; grid / floor = "
              f"{result['grid_over_floor']:.2f} (with the model load {result['with_model_load_over_floor']:.2f}); load "
              f"{result['loadavg_before']} -> "
              f"{result['floor']['loadavg_after']}", flush=True)
        report["families"][family] = result
    if args.out is not None:
        args.out.write_text(json.dumps(report, indent=1, default=str))


if __name__ == "__main__":
    main()
