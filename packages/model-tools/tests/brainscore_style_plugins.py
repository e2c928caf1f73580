"""Five model plugins written the way Brain-Score's model plugins are written (our own code, in their style), as files
of a plugin folder and of a pip-installable package.

Each imports only Brain-Score's paths (``brainscore_vision.model_helpers...``,
``brainscore_core.supported_data_standards.brainio.s3``) and registers with ``model_registry[...] = ...``:

* ``bs-inception``: a plain-torch CNN through ``PytorchWrapper`` with ``load_preprocess_images(...,
  preprocess_type='inception')``;
* ``bs-helper``: a model on ``ActivationsExtractorHelper`` (``preprocessing=None``: it loads the images itself);
* ``bs-float64``: a float64 CNN, ImageNet-style preprocessing with its own ``normalize_mean`` / ``normalize_std``;
  its modules import each other by absolute path (``brainscore_vision.models.bs_float64.model``);
* ``bs-mapped``: no region-layer map in the code: ``region_layer_map/bs-mapped.json`` beside it;
* ``bs-s3``: its checkpoint fetched with ``load_weight_file`` from an S3 bucket (a moto server in the tests).

:func:`network` is the one architecture (tiny, 1000 logits so that the label task runs), shared with the tests'
independent computations.
"""

from __future__ import annotations

import textwrap

IMAGE_SIZE = 32
LAYERS = ["1", "3", "6"]  # conv1-relu, conv2-relu, logits
REGION_LAYER_MAP = {"V1": "1", "V2": "1", "V4": "3", "IT": "3"}
FLOAT64_MEAN, FLOAT64_STD = (0.5, 0.4, 0.3), (0.25, 0.2, 0.3)
NETWORK = '''
def network(seed):
    """conv(3->6, 5x5, /2) - ReLU - conv(6->8, 3x3, /2) - ReLU - avg pool 2x2 - flatten - linear(32 -> 1000)."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    return nn.Sequential(nn.Conv2d(3, 6, 5, stride=2), nn.ReLU(), nn.Conv2d(6, 8, 3, stride=2), nn.ReLU(),
                         nn.AdaptiveAvgPool2d(2), nn.Flatten(), nn.Linear(32, 1000))
'''
exec(NETWORK)  # defines network(seed) here too, for the tests' own computations


def _dedent(text: str) -> str:
    return textwrap.dedent(text).lstrip()


def _init(identifier: str, commitment: str, imports: str = "from .model import get_model, get_layers") -> str:
    return _dedent(f'''
        from brainscore_vision import model_registry
        from brainscore_vision.model_helpers.brain_transformation import ModelCommitment
        {imports}

        model_registry['{identifier}'] = lambda: ModelCommitment({commitment})
        ''')


_CHECK = '''

def get_bibtex(model_identifier):
    return ""


if __name__ == '__main__':
    check_models.check_base_models(__name__)
'''


def _model_module(name: str, body: str, imports: str) -> str:
    return _dedent(imports) + NETWORK + "\n" + _dedent(body) + _CHECK


PYTORCH_IMPORTS = '''
    import functools

    from brainscore_vision.model_helpers.activations.pytorch import PytorchWrapper, load_preprocess_images
    from brainscore_vision.model_helpers.check_submission import check_models
    '''


def plugin_files(s3: dict | None = None) -> dict[str, dict[str, str]]:
    """``{folder name: {relative path: text}}`` of the five plugins; ``s3`` = ``{'bucket', 'version_id', 'sha1'}`` of
    the uploaded checkpoint of ``bs-s3`` (placeholders without)."""
    s3 = s3 or {"bucket": "no-bucket", "version_id": None, "sha1": "0" * 40}
    def commit(identifier: str) -> str:
        return f"identifier={identifier!r}, activations_model=get_model({identifier!r}), layers=get_layers({identifier!r})"

    def mapped(identifier: str) -> str:
        return commit(identifier) + f", region_layer_map={REGION_LAYER_MAP!r}"

    plugins = {
        "bs_inception": {
            "__init__.py": _init("bs-inception", mapped("bs-inception")),
            "model.py": _model_module("bs-inception", f'''
                def get_model_list():
                    return ['bs-inception']


                def get_model(name):
                    assert name == 'bs-inception'
                    preprocessing = functools.partial(load_preprocess_images, image_size={IMAGE_SIZE},
                                                      preprocess_type='inception')
                    wrapper = PytorchWrapper(identifier=name, model=network(1), preprocessing=preprocessing)
                    wrapper.image_size = {IMAGE_SIZE}
                    return wrapper


                def get_layers(name):
                    return {LAYERS!r}
                ''', PYTORCH_IMPORTS),
        },
        "bs_helper": {
            "__init__.py": _init("bs-helper", mapped("bs-helper")),
            "model.py": _model_module("bs-helper", f'''
                class HelperModel:
                    """Computes its layers itself, on images it loads itself (preprocessing=None: it gets paths)."""

                    def __init__(self):
                        self._network = network(2).eval()
                        self._extractor = ActivationsExtractorHelper(identifier='bs-helper', preprocessing=None,
                                                                     get_activations=self._activations_of_paths)
                        self._extractor.insert_attrs(self)

                    @property
                    def identifier(self):
                        return self._extractor.identifier

                    @identifier.setter
                    def identifier(self, value):
                        self._extractor.identifier = value

                    def __call__(self, *args, **kwargs):
                        return self._extractor(*args, **kwargs)

                    def _activations_of_paths(self, paths, layer_names):
                        pixels = np.stack([np.asarray(Image.open(path).convert('RGB').resize(({IMAGE_SIZE}, {IMAGE_SIZE})),
                                                      dtype=np.float32) / 255 for path in paths])
                        outputs, values = OrderedDict(), torch.from_numpy(pixels.transpose(0, 3, 1, 2).copy())
                        with torch.no_grad():
                            for index, module in enumerate(self._network):
                                values = module(values)
                                if str(index) in layer_names:
                                    outputs[str(index)] = values.numpy()
                        if 'logits' in layer_names:
                            outputs['logits'] = values.numpy()
                        return outputs


                def get_model_list():
                    return ['bs-helper']


                def get_model(name):
                    assert name == 'bs-helper'
                    return HelperModel()


                def get_layers(name):
                    return {LAYERS!r}
                ''', '''
                from collections import OrderedDict

                import numpy as np
                import torch
                from PIL import Image

                from brainscore_vision.model_helpers.activations.core import ActivationsExtractorHelper
                from brainscore_vision.model_helpers.check_submission import check_models
                '''),
        },
        "bs_float64": {
            "__init__.py": _init("bs-float64", mapped("bs-float64"),
                                 imports="from brainscore_vision.models.bs_float64.model import get_model, get_layers"),
            "model.py": _model_module("bs-float64", f'''
                def get_model_list():
                    return ['bs-float64']


                def get_model(name):
                    assert name == 'bs-float64'
                    preprocessing = functools.partial(load_preprocess_images, image_size={IMAGE_SIZE},
                                                      normalize_mean={FLOAT64_MEAN!r}, normalize_std={FLOAT64_STD!r})
                    wrapper = PytorchWrapper(identifier=name, model=network(3).double(), preprocessing=preprocessing)
                    wrapper.image_size = {IMAGE_SIZE}
                    return wrapper


                def get_layers(name):
                    return {LAYERS!r}
                ''', PYTORCH_IMPORTS),
        },
        "bs_mapped": {
            "__init__.py": _init("bs-mapped", commit("bs-mapped")),
            "region_layer_map/bs-mapped.json": '{"IT": "3", "V4": "3", "V2": "1", "V1": "1"}',
            "model.py": _model_module("bs-mapped", f'''
                def get_model_list():
                    return ['bs-mapped']


                def get_model(name):
                    assert name == 'bs-mapped'
                    preprocessing = functools.partial(load_preprocess_images, image_size={IMAGE_SIZE})
                    wrapper = PytorchWrapper(identifier=name, model=network(4), preprocessing=preprocessing)
                    wrapper.image_size = {IMAGE_SIZE}
                    return wrapper


                def get_layers(name):
                    return {LAYERS!r}
                ''', PYTORCH_IMPORTS),
        },
        "bs_s3": {
            "__init__.py": _init("bs-s3", mapped("bs-s3")),
            "model.py": _model_module("bs-s3", f'''
                def get_model_list():
                    return ['bs-s3']


                def get_model(name):
                    assert name == 'bs-s3'
                    weights_path = load_weight_file(bucket={s3["bucket"]!r}, folder_name="brainscore-vision/models",
                                                    relative_path="bs_s3/checkpoint.pth",
                                                    version_id={s3["version_id"]!r}, sha1={s3["sha1"]!r})
                    model = network(0)
                    model.load_state_dict(torch.load(weights_path, map_location='cpu', weights_only=True))
                    preprocessing = functools.partial(load_preprocess_images, image_size={IMAGE_SIZE})
                    wrapper = PytorchWrapper(identifier=name, model=model, preprocessing=preprocessing)
                    wrapper.image_size = {IMAGE_SIZE}
                    return wrapper


                def get_layers(name):
                    return {LAYERS!r}
                ''', PYTORCH_IMPORTS + '''
    import torch

    from brainscore_core.supported_data_standards.brainio.s3 import load_weight_file
    '''),
        },
    }
    return plugins


IDENTIFIERS = {"bs_inception": "bs-inception", "bs_helper": "bs-helper", "bs_float64": "bs-float64",
               "bs_mapped": "bs-mapped", "bs_s3": "bs-s3"}
S3_SEED = 5  # the checkpoint of bs-s3 holds network(S3_SEED)'s weights; the plugin builds network(0) and loads them


def pyproject(folder: str) -> str:
    """A pip package of one plugin: the folder as a top-level package (relative imports), or, for ``bs_float64``
    whose modules import each other absolutely, as ``brainscore_vision/models/bs_float64`` unchanged."""
    package = f"brainscore_vision/models/{folder}" if folder == "bs_float64" else folder
    module = package.replace("/", ".")
    return _dedent(f'''
        [build-system]
        requires = ["hatchling"]
        build-backend = "hatchling.build"

        [project]
        name = "{folder.replace("_", "-")}-plugin"
        version = "0.1.0"

        [project.entry-points.brainscore_vision]
        {folder} = "{module}"

        [tool.hatch.build.targets.wheel]
        only-include = ["{package}"]
        ''')
