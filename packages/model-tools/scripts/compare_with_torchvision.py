"""Our plain-torch architectures against torchvision's (and dicarlolab/CORnet's) with the same random weights.

For each architecture: build both, copy torchvision's randomly initialised state_dict into ours
(``strict=True``), run both on the same seeded batch in eval mode, and report the max abs difference of the
logits and of the hooked activations of every layer Brain-Score records. Run where torchvision imports:

    python packages/model-tools/scripts/compare_with_torchvision.py [--cornet-source DIR]
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

ZOO = Path(__file__).resolve().parents[1] / "src" / "model_tools" / "zoo"
LAYERS = {
    "alexnet": ["features.2", "features.5", "features.7", "features.9", "features.12", "classifier.2",
                "classifier.5"],
    "vgg16": ["features.4", "features.9", "features.16", "features.23", "features.30", "classifier.0",
              "classifier.3"],
    "resnet18": ["conv1", "layer1.0", "layer2.0", "layer3.0", "layer4.0", "layer4.1", "avgpool"],
    "resnet50": ["conv1", "layer1.0", "layer2.0", "layer3.0", "layer4.0", "layer4.2", "avgpool"],
    "cornet_z": ["V1.output", "V2.output", "V4.output", "IT.output", "decoder.avgpool"],
    "cornet_s": ["V1.output", "V2.output", "V4.output", "IT.output", "decoder.avgpool"],
}


def _module(name: str):
    spec = importlib.util.spec_from_file_location(f"_ours_{name}", ZOO / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(model, layers, batch):
    import torch

    recorded, handles = {}, []
    modules = dict(model.named_modules())
    for layer in layers:
        handles.append(modules[layer].register_forward_hook(
            lambda _m, _i, output, layer=layer: recorded.__setitem__(layer, output.detach().clone())))
    with torch.no_grad():
        logits = model(batch)
    for handle in handles:
        handle.remove()
    return logits, recorded


def main(argv: list[str] | None = None) -> float:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cornet-source", type=Path, help="a checkout of dicarlolab/CORnet")
    args = parser.parse_args(argv)
    import torch
    import torchvision

    classic, ours_cornet = _module("classic_nets"), _module("cornet")
    pairs = {name: (getattr(torchvision.models, name)(weights=None), getattr(classic, name)())
             for name in ("alexnet", "vgg16", "resnet18", "resnet50")}
    if args.cornet_source is not None:
        sys.path.insert(0, str(args.cornet_source))
        import cornet

        pairs["cornet_z"] = (cornet.CORnet_Z(), ours_cornet.cornet_z())
        pairs["cornet_s"] = (cornet.CORnet_S(), ours_cornet.cornet_s())
    torch.manual_seed(0)
    batch = torch.randn(2, 3, 224, 224)
    worst = 0.0
    for name, (reference, ours) in pairs.items():
        torch.manual_seed(1)
        for tensor in reference.state_dict().values():  # non-trivial batch-norm statistics too
            if tensor.dtype.is_floating_point:
                tensor.copy_(torch.rand_like(tensor) * 0.2 + 0.9 if tensor.ndim == 1 else tensor)
        ours.load_state_dict(reference.state_dict(), strict=True)
        reference.eval()
        ours.eval()
        ref_logits, ref_layers = _run(reference, LAYERS[name], batch.clone())
        our_logits, our_layers = _run(ours, LAYERS[name], batch.clone())
        differences = {"logits": float((ref_logits - our_logits).abs().max())}
        differences.update({layer: float((ref_layers[layer] - our_layers[layer]).abs().max())
                            for layer in LAYERS[name]})
        worst = max(worst, *differences.values())
        print(f"{name:9s} max |difference|: " + ", ".join(f"{k} {v:.1e}" for k, v in differences.items()))
    print(f"largest difference over all architectures and layers: {worst:.2e}")
    return worst


if __name__ == "__main__":
    main()
