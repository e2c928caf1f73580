"""Peak memory of layer selection over every layer of a large network on a shipped benchmark: streamed per layer
against holding every layer at once, as ratios to the activations' size; and the pair's peak against its memory plan.

For ``vgg16-random`` (``--model resnet50``: ``resnet50-random``) with all its candidate layers and no committed map,
V4 is selected on ``Cowley2023.V4-pls`` (640 images) and the pair is then scored (the chosen layer, unreduced):

* ``streamed``: what :class:`~model_tools.brain_transformation.LayerSelection` does: one candidate layer at a time,
  each reduced to its principal components (Brain-Score's PCA to 1000) from the activation cache on disk;
* ``streamed-nocache``: the same with the activation cache off (one layer in memory at a time);
* ``holding``: every layer of the 640 images extracted at once and held through the selection (Brain-Score's
  ``PreRunLayers``; its ``LayerPCA`` fit also extracts every layer at once, of 1000 ImageNet images), cache off.

Each runs in a fresh process (a child bound to this script); the peak is its ``VmHWM`` after the selection and after
the pair. The activations' size is 640 x (the widths of every candidate layer) x 4 bytes; the plan is
:func:`brainscore_core.memory_plan.estimate_pair` of the model before any layer is chosen (the widest candidate).

Run: ``python benchmarks/bench_selection_memory.py [--model vgg16|resnet50] [--modes streamed,holding]``.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile

CHILD = """
import json, sys
import numpy as np
import brainscore_vision
from brainscore_core.benchmarks import score_benchmark
from brainscore_core.memory_plan import estimate_pair
from model_tools.brain_transformation import ModelCommitment
from model_tools.zoo.classic_models import SPECS, classic_model

name, mode = sys.argv[1], sys.argv[2]


def hwm():
    return next(int(line.split()[1]) * 1024 for line in open("/proc/self/status") if line.startswith("VmHWM:"))


class HoldEveryLayer:
    # Brain-Score's PreRunLayers: the first request extracts every layer at once; the rest are slices of it
    def __init__(self, extractor, layers):
        self.extractor, self.layers, self.held = extractor, list(layers), None

    def __getattr__(self, attribute):
        return getattr(self.extractor, attribute)

    def __call__(self, stimuli, layers, **kwargs):
        if self.held is None:
            self.held = self.extractor(stimuli, layers=self.layers, **kwargs)
        layer_of = np.asarray(self.held["layer"].values)
        return self.held.isel(neuroid=np.flatnonzero(np.isin(layer_of, list(layers))))


spec = SPECS[name]
extractor = classic_model(name, pretrained=False, cache=mode == "streamed").activations_model
benchmark = brainscore_vision.load_benchmark("Cowley2023.V4-pls")
benchmark.ceiling
activations = HoldEveryLayer(extractor, spec.layers) if mode == "holding" else extractor
model = ModelCommitment(f"{name}-random-all-layers-{mode}", activations, list(spec.layers), region_layer_map={},
                        region_benchmarks={"V4": benchmark}, behavioral_readout_layer=spec.readout)
estimate = estimate_pair(model, benchmark)
widths = {layer: ModelCommitment("w", extractor, [layer], region_layer_map={"V4": layer}).feature_count("V4")
          for layer in spec.layers}
model.commit_region("V4")  # the selection
selection_peak = hwm()
score = float(score_benchmark(benchmark, model))
print(json.dumps({"model": f"{name}-random", "mode": mode, "layer": model.layer_map["V4"],
                  "layer_scores": model.layer_scores["V4"], "score": score, "widths": widths,
                  "activations_bytes": 640 * sum(widths.values()) * 4, "selection_peak": selection_peak,
                  "pair_peak": hwm(), "estimate": estimate.as_dict()}))
"""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="vgg16", choices=("vgg16", "resnet50"))
    parser.add_argument("--modes", default="streamed,streamed-nocache,holding")
    args = parser.parse_args(argv)
    from brainscore_core.children import run_child

    results = []
    for mode in args.modes.split(","):
        with tempfile.TemporaryDirectory(prefix="bench-selection-") as home:  # cold caches for each run
            environment = {**os.environ, "BRAINSCORE_HOME": home, "BRAINSCORE_PROGRESS": "0"}
            if "BRAINSCORE_DATA_STORE" not in environment and os.environ.get("BRAINSCORE_HOME"):
                environment["BRAINSCORE_DATA_STORE"] = os.path.join(os.environ["BRAINSCORE_HOME"], "data_store")
            done = run_child(["-c", CHILD, args.model, mode], timeout=7200, capture_output=True, text=True,
                             check=True, env=environment)
        result = json.loads(done.stdout.strip().splitlines()[-1])
        size = result["activations_bytes"]
        result.update({"selection_peak_over_activations": round(result["selection_peak"] / size, 3),
                       "pair_peak_over_activations": round(result["pair_peak"] / size, 3),
                       "plan_over_pair_peak": round(result["estimate"]["peak_bytes"] / result["pair_peak"], 3)})
        results.append(result)
        print(json.dumps(result), flush=True)
    print(json.dumps({"benchmark": "selection_memory", "load_average": os.getloadavg(),
                      "summary": [{key: result[key] for key in ("model", "mode", "layer", "selection_peak_over_activations",
                                                                  "pair_peak_over_activations", "plan_over_pair_peak")}
                                  for result in results]}, indent=1))


if __name__ == "__main__":
    main()
