"""Malania2007 (10 benchmarks) and Ferguson2024 (14) on stand-in images of the families' sizes: every distinct input
goes through the model once, and scoring a whole family costs what against a bare forward pass over those inputs.

The families share images: Malania2007's ten benchmarks look at the same 50 ``vernier_only`` images (10 microsaccade
trials each, each trial a distinct input), its vernier-acuity benchmark refits on the nine fitting sets the nine
elevation benchmarks fitted on; Ferguson2024's 14 training sets share one table (their images differ). The families'
sizes: Malania 9 x (50 test + 500 fitting) + 50 images, 10 / 2 trials; Ferguson 14 x (48 + 1,920) images.

One process, an empty ``$BRAINSCORE_HOME`` per family (cold), the real benchmark classes with their loaders pointed at
the stand-ins (``brainscore-vision/benchmarks/reference_behaviour_standins.py`` for the human data, generated PNGs for
the images) and the model ``randomnet`` at ``--image-size`` pixels (readout ``block5``, 8 degrees):

* **cold**: scoring every benchmark of the family, wall clock; the images the model's forward passes saw are counted
  and compared with the distinct inputs (image content x microsaccade shift);
  the time inside the forward passes, the readouts' logistic-regression fits and the psychometric fits is summed;
* **fits run**: the logistic-regression readouts fitted and the psychometric grid searches run (what the in-process
  memories of fitted readouts and psychometric fits, issue 38, leave to do; ``--no-memo`` turns both off: the cost
  before them, in the same run of the script's code);
* **floor**: the same network's forward passes alone (``model(batch)``, batches of 64 random inputs of the same shape)
  over as many inputs as were distinct, median of 3; **tuned floor**: the same inside model-tools' malloc tuning
  (``freed_memory_reused``, which the extractions run in), the stricter baseline: a bare loop with glibc's defaults
  faults its large layer outputs in again for every batch.

Run: ``python packages/model-tools/benchmarks/bench_behaviour_families.py [--family malania ferguson]
[--image-size 64] [--model alexnet-random] [--no-memo]`` (``--model``: a registered model instead of randomnet, at
its own input size and readout layer) (prints JSON; the load average is recorded before and after: the machine is shared).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "brainscore-vision" / "benchmarks"))
import reference_behaviour_standins as standins  # noqa: E402


def _loadavg() -> list[float]:
    return [float(value) for value in Path("/proc/loadavg").read_text().split()[:3]]


def _png(path: Path, offset: int, seed: int, size: int = 48) -> None:
    """A vernier-like image: two dark bars, the lower one moved by ``offset`` pixels, a few noise pixels (``seed``)."""
    from PIL import Image

    pixels = np.full((size, size), 128, dtype=np.uint8)
    middle = size // 2
    pixels[middle - 12:middle - 1, middle - 1:middle + 1] = 0
    pixels[middle + 1:middle + 12, middle - 1 + offset:middle + 1 + offset] = 0
    rng = np.random.default_rng(seed)
    pixels[rng.integers(size, size=6), rng.integers(size, size=6)] = 255
    Image.fromarray(np.stack([pixels] * 3, axis=-1)).save(path)


def _images(folder: Path, frame, identifier: str, offsets) -> object:
    from brainio.stimuli import StimulusSet

    paths = {}
    for index, (stimulus_id, offset) in enumerate(zip(frame["stimulus_id"], offsets, strict=True)):
        path = folder / f"{stimulus_id}.png"
        if not path.exists():
            # a seed stable across processes (hash() of a str is salted per process: the images, and so the scores,
            # differed from run to run)
            _png(path, int(offset), seed=zlib.crc32(f"{identifier}/{index}".encode()))
        paths[stimulus_id] = str(path)
    stimuli = StimulusSet(frame.copy())
    stimuli.stimulus_paths = paths
    stimuli.identifier = identifier
    return stimuli


def _instrument(record: dict) -> None:
    from model_tools.activations import hooks

    original = hooks.LayerRecorder.forward

    def forward(self, model, inputs):
        start = time.perf_counter()
        try:
            return original(self, model, inputs)
        finally:
            record["forward_s"] += time.perf_counter() - start
            record["forward_images"] += int(inputs.shape[0])

    hooks.LayerRecorder.forward = forward
    import sklearn.linear_model

    from brainscore_metrics.behavior import threshold

    for owner, name, key in ((sklearn.linear_model.LogisticRegression, "fit", "readout_fits"),
                             (threshold, "fit_psychometric", "psychometric_fits"),
                             (threshold, "_grid", "psychometric_grids")):
        _timed(owner, name, key, record)


def _timed(owner, name: str, key: str, record: dict) -> None:
    """Add the time spent in ``owner.name`` to ``record[key + '_s']`` and count its calls in ``record[key]``."""
    original = getattr(owner, name)

    def timed(*args, **kwargs):
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            record[f"{key}_s"] += time.perf_counter() - start
            record[key] += 1

    setattr(owner, name, timed)


def _model(name: str, image_size: int):
    """``randomnet`` at ``image_size`` px (readout ``block5``, 8 degrees), else the registered model ``name`` (its own
    preprocessing and readout layer)."""
    if name != "randomnet":
        import brainscore_vision

        return brainscore_vision.load_model(name)
    from model_tools.activations import ImagePreprocessing, PytorchWrapper
    from model_tools.brain_transformation import ModelCommitment
    from model_tools.zoo.randomnet import build_randomnet

    wrapper = PytorchWrapper(build_randomnet(), ImagePreprocessing(image_size=image_size), identifier="randomnet",
                             device="cpu", progress=False)
    return ModelCommitment("randomnet", wrapper, ["block5"], behavioral_readout_layer="block5", visual_degrees=8)


def malania(folder: Path) -> tuple[list, int]:
    """The ten benchmarks on stand-ins; the count of distinct inputs (images x trials)."""
    from brainio.assemblies import PropertyAssembly
    from brainscore_vision.benchmarks.malania2007 import benchmark as module

    def human(identifier):
        return PropertyAssembly(standins.malania_thresholds(identifier.split(".", 1)[1]),
                                coords={"subject": ("subject", list(standins.MALANIA_SUBJECTS))}, dims=["subject"])

    def stimuli(identifier):
        name = identifier.split(".", 1)[1]
        fit = name.endswith("_fit")
        frame = standins.malania_stimuli(name[:-4] if fit else name, fit)
        if fit:  # Brain-Score's fitting sets hold 500 images
            frame = frame.loc[np.resize(np.arange(len(frame)), 500)].reset_index(drop=True)
            frame["stimulus_id"] = [f"{name}_{index}" for index in range(len(frame))]
        return _images(folder, frame, identifier, (frame["image_label"] - 5).astype(int))

    module.load_dataset, module.load_stimulus_set = human, stimuli
    benchmarks = [module.Malania2007ThresholdElevation(condition) for condition in standins.MALANIA_CONDITIONS]
    benchmarks.append(module.Malania2007VernierAcuity())
    distinct = (50 + 9 * 50) * module.NUMBER_OF_TRIALS + 9 * 500 * module.FITTING_TRIALS
    return benchmarks, distinct


def ferguson(folder: Path, training: int) -> tuple[list, int]:
    from brainio.assemblies import BehavioralAssembly
    from brainscore_vision.benchmarks.ferguson2024 import benchmark as module

    def humans(identifier):
        experiment = identifier.split("_", 1)[1]
        trials = standins.ferguson_trials(experiment)
        assembly = BehavioralAssembly(trials["correct"].to_numpy(), coords={
            column: ("presentation", trials[column].to_numpy()) for column in trials.columns}, dims=["presentation"])
        frame = standins.ferguson_stimuli(experiment)
        frame["stimulus_id"] = f"{experiment}_" + frame["stimulus_id"]
        assembly.attrs["stimulus_set"] = _images(folder, frame, identifier, frame["image_number"] % 3)
        return assembly

    def fitting(identifier):
        experiment = identifier[len("Ferguson2024_"):-len("_training_stimuli")]
        frame = standins.ferguson_fitting_stimuli(experiment)
        frame = frame.loc[np.resize(np.arange(len(frame)), training)].reset_index(drop=True)
        frame["stimulus_id"] = [f"{experiment}_train_{index}" for index in range(len(frame))]
        return _images(folder, frame, identifier, frame["image_number"] % 3)

    module.load_dataset, module.load_stimulus_set = humans, fitting
    experiments = module.EXPERIMENTS
    return [module.Ferguson2024ValueDelta(experiment) for experiment in experiments], len(experiments) * (48 + training)


def floor(model, count: int, repeats: int = 3, *, tuned: bool = False) -> float:
    """Seconds of ``model``'s network alone (``network(batch)``) over ``count`` random inputs of its preprocessing's
    size, batches of 64; median of ``repeats``. ``tuned``: inside model-tools' malloc tuning (``freed_memory_reused``,
    which the extractions run in): freed layer outputs reused instead of faulted in again for every batch."""
    import contextlib

    import torch

    from model_tools.activations.allocator import freed_memory_reused

    extractor = model.activations_model
    network, size = extractor.model, extractor.preprocessing.image_size
    network.eval()
    batch = torch.randn(64, 3, size, size)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        with torch.no_grad(), freed_memory_reused() if tuned else contextlib.nullcontext():
            for first in range(0, count, 64):
                network(batch[:min(64, count - first)])
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", nargs="+", default=["malania", "ferguson"], choices=["malania", "ferguson"])
    parser.add_argument("--image-size", type=int, default=64, help="randomnet's input size")
    parser.add_argument("--model", default="randomnet",
                        help="randomnet (built here at --image-size), or a registered model, e.g. alexnet-random")
    parser.add_argument("--ferguson-training", type=int, default=1920)
    parser.add_argument("--no-memo", action="store_true",
                        help="remember no fitted readout and no psychometric fit (the cost without the memories)")
    args = parser.parse_args()
    if args.no_memo:
        from brainscore_vision.benchmarks.malania2007 import benchmark as malania_module
        from model_tools.brain_transformation.readout_memo import FITTED_READOUTS

        FITTED_READOUTS.max_readouts = 0
        malania_module.PSYCHOMETRIC_FITS = None
    results = {"model": args.model, "memo": not args.no_memo, "load_before": _loadavg(), "families": {}}
    for family in args.family:
        with tempfile.TemporaryDirectory(prefix=f"bench-{family}-") as home:
            os.environ.update(BRAINSCORE_HOME=f"{home}/home", BRAINIO_HOME=f"{home}/brainio")
            os.environ.pop("RESULTCACHING_DISABLE", None)
            images = Path(home) / "images"
            images.mkdir()
            benchmarks, distinct = malania(images) if family == "malania" else ferguson(images, args.ferguson_training)
            record = {"forward_s": 0.0, "forward_images": 0, "readout_fits_s": 0.0, "readout_fits": 0,
                      "psychometric_fits_s": 0.0, "psychometric_fits": 0, "psychometric_grids_s": 0.0,
                      "psychometric_grids": 0}
            _instrument(record)
            model = _model(args.model, args.image_size)
            start = time.perf_counter()
            scores = {benchmark.identifier: float(benchmark(model)) for benchmark in benchmarks}
            cold = time.perf_counter() - start
            bare = floor(model, distinct)
            tuned = floor(model, distinct, tuned=True)
            results["families"][family] = {
                "benchmarks": len(benchmarks), "input_px": model.activations_model.preprocessing.image_size,
                "distinct_inputs": distinct, "forward_images": record["forward_images"],
                "cold_s": round(cold, 2), "forward_in_cold_s": round(record["forward_s"], 2),
                "readout_fits_in_cold_s": round(record["readout_fits_s"], 2),
                "psychometric_fits_in_cold_s": round(record["psychometric_fits_s"], 2),
                "readout_fits_run": record["readout_fits"], "psychometric_fit_calls": record["psychometric_fits"],
                "psychometric_grids_run": record["psychometric_grids"],
                "floor_s": round(bare, 2), "cold_over_floor": round(cold / bare, 2),
                "floor_tuned_s": round(tuned, 2), "cold_over_tuned_floor": round(cold / tuned, 2), "scores": scores}
    results["load_after"] = _loadavg()
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
