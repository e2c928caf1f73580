"""Seeded stand-ins of the three Brain-Score plugins of issue 42, written in their style (small, so tests stay fast):

* ``standin_compact`` (compact_vgg19_V4): ``torch.set_default_dtype(torch.float64)`` when its ``model.py`` is
  imported, so its network is float64; it calls ``.eval()`` itself;
* ``standin_grcnn`` (grcnn): many candidate layers (24), BatchNorm, left in training mode, a region-layer JSON;
* ``standin_nasnet`` (nasnet_mobile): BatchNorm left in training mode, Inception preprocessing.

Each plugin's weights come from a seed (the real ones load a checkpoint), so its content is the same in every process.
:func:`write_distribution` writes one as an installed distribution (a package and its ``.dist-info`` with an entry
point) into a folder for ``PYTHONPATH``; :func:`write_folder` as a Brain-Score plugin folder. Each module appends its
name to ``imported.txt`` beside it when imported, so a test can tell which plugins a process imported.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

__all__ = ["IDENTIFIERS", "write_distribution", "write_folder"]

IDENTIFIERS = {"standin_compact": "standin-compact", "standin_grcnn": "standin-grcnn",
               "standin_nasnet": "standin-nasnet"}

_LOG = "open(__file__.rsplit('/', 2)[0] + '/imported.txt', 'a').write(__name__ + '\\n')\n"

_INIT = """
    from brainscore_vision import model_registry
    from brainscore_vision.model_helpers.brain_transformation import ModelCommitment
    from .model import get_layers, get_model

    model_registry['{identifier}'] = lambda: ModelCommitment(identifier='{identifier}',
                                                            activations_model=get_model('{identifier}'),
                                                            layers=get_layers('{identifier}'))
"""

_MODELS = {
    "standin_compact": """
        import functools

        import torch
        from torch import nn

        from brainscore_vision.model_helpers.activations.pytorch import PytorchWrapper, load_preprocess_images

        torch.set_default_dtype(torch.float64)  # what compact_vgg19_V4's model.py does when it is imported


        def get_model(name):
            torch.manual_seed(11)
            network = nn.Sequential(nn.Conv2d(3, 8, 5, stride=2), nn.BatchNorm2d(8), nn.ReLU(),
                                    nn.Conv2d(8, 16, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(3), nn.Flatten())
            network.eval()
            preprocessing = functools.partial(load_preprocess_images, image_size=48)
            wrapper = PytorchWrapper(identifier=name, model=network, preprocessing=preprocessing)
            wrapper.image_size = 48
            return wrapper


        def get_layers(name):
            return ['2', '4', '6']
    """,
    "standin_grcnn": """
        import functools

        import torch
        from torch import nn

        from brainscore_vision.model_helpers.activations.pytorch import PytorchWrapper, load_preprocess_images


        def get_model(name):
            torch.manual_seed(12)
            blocks = [nn.Conv2d(3, 6, 3, padding=1)]
            for _ in range(7):
                blocks += [nn.BatchNorm2d(6), nn.ReLU(), nn.Conv2d(6, 6, 3, padding=1)]
            network = nn.Sequential(*blocks, nn.AdaptiveAvgPool2d(4), nn.Flatten())  # left in training mode
            preprocessing = functools.partial(load_preprocess_images, image_size=32)
            wrapper = PytorchWrapper(identifier=name, model=network, preprocessing=preprocessing)
            wrapper.image_size = 32
            return wrapper


        def get_layers(name):
            return [str(index) for index in range(23)] + ['23']
    """,
    "standin_nasnet": """
        import functools

        import torch
        from torch import nn

        from brainscore_vision.model_helpers.activations.pytorch import PytorchWrapper, load_preprocess_images


        def get_model(name):
            torch.manual_seed(13)
            network = nn.Sequential(nn.Conv2d(3, 12, 5, stride=2), nn.BatchNorm2d(12), nn.ReLU(),
                                    nn.Conv2d(12, 12, 3, groups=12), nn.BatchNorm2d(12), nn.ReLU(),
                                    nn.AdaptiveAvgPool2d(4), nn.Flatten())  # left in training mode, as nasnet is
            preprocessing = functools.partial(load_preprocess_images, image_size=40, preprocess_type='inception')
            wrapper = PytorchWrapper(identifier=name, model=network, preprocessing=preprocessing)
            wrapper.image_size = 40
            return wrapper


        def get_layers(name):
            return ['2', '5', '7']
    """,
}

_MAPS = {"standin_compact": '{"V1": "2", "V2": "2", "V4": "4", "IT": "6"}',
         "standin_grcnn": '{"V1": "5", "V2": "11", "V4": "17", "IT": "23"}',
         "standin_nasnet": '{"V1": "2", "V2": "2", "V4": "5", "IT": "7"}'}


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _plugin(folder: Path, name: str) -> None:
    identifier = IDENTIFIERS[name]
    _write(folder / "__init__.py", _LOG + textwrap.dedent(_INIT.format(identifier=identifier)))
    _write(folder / "model.py", textwrap.dedent(_MODELS[name]))
    _write(folder / "region_layer_map" / f"{identifier}.json", _MAPS[name])


def write_distribution(site: Path, name: str) -> None:
    """``name`` as an installed distribution ``<name>-plugin`` in ``site``: the package ``<name>/`` and its
    ``.dist-info`` (METADATA, an entry point of group ``brainscore_vision``, RECORD)."""
    _plugin(site / name, name)
    info = site / f"{name}_plugin-0.1.0.dist-info"
    _write(info / "METADATA", f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}-plugin\nVersion: 0.1.0\n")
    _write(info / "entry_points.txt", f"[brainscore_vision]\n{name} = {name}\n")
    _write(info / "RECORD", "".join(f"{path.relative_to(site).as_posix()},,\n" for path in sorted((site / name).rglob(
        "*")) if path.is_file()))


def write_folder(root: Path, name: str) -> None:
    """``name`` as a Brain-Score plugin folder ``<root>/models/<name>`` (``root`` is a user plugin folder)."""
    _plugin(root / "models" / name, name)
