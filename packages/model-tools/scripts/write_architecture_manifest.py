"""Write the state_dict manifest (key -> shape) of the reference architectures, for the CI test of our definitions.

Run in an environment with torchvision (the opt-in ``nox -s torchvision`` session, or any CUDA torch pair):

    python packages/model-tools/scripts/write_architecture_manifest.py [--cornet-source DIR]

* AlexNet, VGG-16, ResNet-18, ResNet-50: from ``torchvision.models`` (``weights=None``).
* CORnet-Z, CORnet-S: from dicarlolab/CORnet's own architecture code when ``--cornet-source`` points at a checkout
  of it (the published checkpoints are that model wrapped in ``DataParallel``; the manifest drops the
  ``module.`` prefix); otherwise the CORnet entries already in the file are kept.

The output, ``src/model_tools/zoo/architecture_manifest.json``, is committed; our plain-torch definitions must
match it exactly (``tests/test_classic_nets.py``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

MANIFEST = Path(__file__).resolve().parents[1] / "src" / "model_tools" / "zoo" / "architecture_manifest.json"


def _shapes(module) -> dict[str, list[int]]:
    return {key: list(value.shape) for key, value in module.state_dict().items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cornet-source", type=Path, help="a checkout of dicarlolab/CORnet")
    args = parser.parse_args(argv)
    import torch
    import torchvision

    manifest = json.loads(MANIFEST.read_text()) if MANIFEST.is_file() else {"architectures": {}}
    architectures = manifest["architectures"]
    for name in ("alexnet", "vgg16", "resnet18", "resnet50"):
        architectures[name] = {"source": f"torchvision {torchvision.__version__} models.{name}(weights=None)",
                               "state_dict": _shapes(getattr(torchvision.models, name)(weights=None))}
    if args.cornet_source is not None:
        sys.path.insert(0, str(args.cornet_source))
        import cornet  # dicarlolab/CORnet

        for letter in ("z", "s"):
            module = getattr(cornet, f"CORnet_{letter.upper()}")()
            architectures[f"cornet_{letter}"] = {
                "source": f"dicarlolab/CORnet cornet.CORnet_{letter.upper()}() (checkpoint keys without 'module.')",
                "state_dict": _shapes(module)}
    manifest["torch"] = torch.__version__
    MANIFEST.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    print(f"wrote {MANIFEST} ({sorted(architectures)})")


if __name__ == "__main__":
    main()
