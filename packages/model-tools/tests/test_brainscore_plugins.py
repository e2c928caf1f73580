"""Brain-Score model plugins run unchanged: five plugins in Brain-Score's style (``brainscore_style_plugins``), each as
a plugin folder (a user plugin folder) and as a pip package (installed with pip into a target folder and run in a
fresh interpreter), scored on ``Kriegeskorte2008.hIT-rdm`` and ``Geirhos2021edge-error_consistency`` and passing
``check_models``; the S3 checkpoint comes from a moto server on 127.0.0.1.

Expected numbers: the Kriegeskorte2008 scores are recomputed independently for every plugin (PIL placement and
preprocessing written out by hand, a plain torch forward pass, numpy RDMs and scipy's Spearman on the raw
``rdms.npz``); the pip packages must give the folder plugins' numbers; the Geirhos2021 scores must equal those of
the same networks wrapped through model_tools directly (our Geirhos2021 benchmark itself is checked against
Brain-Score's ceilings and an independent pandas computation in brainscore-vision's tests).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from brainscore_style_plugins import (
    FLOAT64_MEAN,
    FLOAT64_STD,
    IDENTIFIERS,
    IMAGE_SIZE,
    S3_SEED,
    network,
    plugin_files,
    pyproject,
)
from conftest import require_data

from brainio.skipping import import_or_skip

pytestmark = pytest.mark.slow

KRIEGESKORTE = "Kriegeskorte2008.hIT-rdm"
GEIRHOS = "Geirhos2021edge-error_consistency"
SEEDS = {"bs-inception": 1, "bs-helper": 2, "bs-float64": 3, "bs-mapped": 4, "bs-s3": S3_SEED}


@pytest.fixture(scope="module")
def module_homes(tmp_path_factory):
    return tmp_path_factory.mktemp("plugin_homes")


@pytest.fixture(autouse=True)
def isolated_homes(module_homes, monkeypatch):
    """One set of homes for the module (the real data is packaged once), caching on."""
    for name in ("BRAINIO_HOME", "BRAINSCORE_HOME", "RESULTCACHING_HOME"):
        monkeypatch.setenv(name, str(module_homes / name.lower()))
    for name in ("RESULTCACHING_DISABLE", "BRAINSCORE_PLUGIN_FOLDERS", "BS_INSTALL_DEPENDENCIES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("BRAINSCORE_PROGRESS", "0")
    return module_homes


@pytest.fixture(scope="module")
def raw_data():
    return require_data("kriegeskorte2008/rdms.npz", "geirhos2021/stimuli_edge.csv")


@pytest.fixture(scope="module")
def s3_checkpoint(tmp_path_factory):
    """A versioned bucket on a moto server holding ``network(S3_SEED)``'s state dict; boto3 pointed at it."""
    import_or_skip("boto3", extra="model-tools[test]")
    import_or_skip("moto.server", extra="model-tools[test]")
    import boto3
    import torch

    from brainio.testing import local_s3_server, s3_test_environment

    with local_s3_server() as endpoint, pytest.MonkeyPatch.context() as patch:
        environment = s3_test_environment(endpoint, tmp_path_factory.mktemp("aws"))
        for name, value in environment.items():
            patch.delenv(name, raising=False) if value is None else patch.setenv(name, value)
        buffer = io.BytesIO()
        torch.save(network(S3_SEED).state_dict(), buffer)
        content = buffer.getvalue()
        client = boto3.client("s3")
        client.create_bucket(Bucket="bs-plugins")
        client.put_bucket_versioning(Bucket="bs-plugins", VersioningConfiguration={"Status": "Enabled"})
        versions = {}
        for folder in ("bs_s3", "bs_s3_tampered"):
            versions[folder] = client.put_object(Bucket="bs-plugins", Key=f"brainscore-vision/models/{folder}/checkpoint.pth",
                                                 Body=content)["VersionId"]
        yield {"bucket": "bs-plugins", "version_id": versions["bs_s3"], "sha1": hashlib.sha1(content).hexdigest(),
               "endpoint": endpoint, "environment": environment, "versions": versions}


@pytest.fixture(scope="module")
def plugin_sources(tmp_path_factory, s3_checkpoint):
    """The five plugins, each as a folder under ``user/models/`` and as a package source ``packages/<folder>/``."""
    root = tmp_path_factory.mktemp("plugins")
    files = plugin_files({key: s3_checkpoint[key] for key in ("bucket", "version_id", "sha1")})
    for folder, contents in files.items():
        for relative, text in contents.items():
            for base in (root / "user" / "models" / folder,
                         root / "packages" / folder / (f"brainscore_vision/models/{folder}" if folder == "bs_float64"
                                                       else folder)):
                (base / relative).parent.mkdir(parents=True, exist_ok=True)
                (base / relative).write_text(text)
        (root / "packages" / folder / "pyproject.toml").write_text(pyproject(folder))
    return root


def _score_everything(module_for) -> dict[str, dict[str, float]]:
    from brainscore_vision import score
    from brainscore_vision.model_helpers.check_submission import check_models

    results = {}
    for folder, identifier in IDENTIFIERS.items():
        results[identifier] = {
            KRIEGESKORTE: float(score(identifier, KRIEGESKORTE, store=False)),
            GEIRHOS: float(score(identifier, GEIRHOS, store=False)),
            "check_models": float(check_models.check_base_models(module_for(folder))[identifier]),
        }
    return results


@pytest.fixture(scope="module")
def folder_scores(plugin_sources, raw_data, module_homes):
    from brainscore_core.config import set_options

    with pytest.MonkeyPatch.context() as patch, set_options(plugin_folders=[plugin_sources / "user"]):
        for name in ("BRAINIO_HOME", "BRAINSCORE_HOME", "RESULTCACHING_HOME"):
            patch.setenv(name, str(module_homes / name.lower()))
        patch.setenv("BRAINSCORE_PROGRESS", "0")
        return _score_everything(lambda folder: f"brainscore_vision.models.{folder}.model")


PIP_RUN = """
    import json, sys
    sys.path.insert(0, {tests!r})
    from test_brainscore_plugins import _score_everything
    from brainscore_vision import list_plugins, load_model
    results = _score_everything(lambda folder: ("brainscore_vision.models." if folder == "bs_float64" else "") + folder
                                + ".model")
    origins = {{p.identifier: [p.distribution, p.module] for p in list_plugins("model") if p.identifier in results}}
    print(json.dumps({{"scores": results, "origins": origins}}))
"""


@pytest.fixture(scope="module")
def pip_run(plugin_sources, folder_scores, module_homes, s3_checkpoint, tmp_path_factory):
    """The five packages pip-installed into a target folder, scored in a fresh interpreter that has it on its path."""
    target = tmp_path_factory.mktemp("site")
    sources = sorted(str(path) for path in (plugin_sources / "packages").iterdir())
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--no-build-isolation", "-q",
                    "--target", str(target), *sources], check=True, capture_output=True, text=True, timeout=600)
    environment = {**os.environ, "PYTHONPATH": str(target), "BRAINSCORE_PROGRESS": "0"}
    environment.update({name: str(module_homes / name.lower())
                        for name in ("BRAINIO_HOME", "BRAINSCORE_HOME", "RESULTCACHING_HOME")})
    environment.update({name: value for name, value in s3_checkpoint["environment"].items() if value is not None})
    environment.pop("BRAINSCORE_PLUGIN_FOLDERS", None)
    run = subprocess.run([sys.executable, "-c", textwrap.dedent(PIP_RUN.format(tests=str(Path(__file__).parent)))],
                         capture_output=True, text=True, env=environment, cwd=target, timeout=900)
    assert run.returncode == 0, run.stderr[-4000:]
    return json.loads(run.stdout.strip().splitlines()[-1]), target


def test_folder_plugins_are_scored_and_pass_check_models(folder_scores):
    from brainscore_vision import model_registry

    assert set(folder_scores) == set(IDENTIFIERS.values())
    for identifier, scores in folder_scores.items():
        assert all(np.isfinite(value) for value in scores.values()), (identifier, scores)
        folder = next(f for f, i in IDENTIFIERS.items() if i == identifier)
        origin = model_registry.source(identifier)
        assert origin.module == f"brainscore_vision.models.{folder}" and origin.distribution is None


def test_pip_packages_give_the_folder_plugins_numbers(pip_run, folder_scores):
    output, target = pip_run
    assert set(output["scores"]) == set(folder_scores)
    for identifier, scores in folder_scores.items():
        assert output["scores"][identifier] == pytest.approx(scores, abs=1e-9), identifier
    for folder, identifier in IDENTIFIERS.items():
        module = f"brainscore_vision.models.{folder}" if folder == "bs_float64" else folder
        assert output["origins"][identifier] == [f"{folder.replace('_', '-')}-plugin", module]
    # the JSON of the mapped plugin shipped inside its package
    assert (target / "bs_mapped" / "region_layer_map" / "bs-mapped.json").is_file()


# -- the independent computation of the Kriegeskorte2008 scores ---------------------------------------------------
def _placed(path: Path, source_degrees: float = 2.9, target_degrees: float = 8):
    """The image as a model of 8 degrees sees it: centred on a gray canvas round(ratio * size) wide."""
    from PIL import Image

    image = Image.open(path).convert("RGB")
    ratio = target_degrees / source_degrees
    canvas = Image.new("RGB", (round(ratio * image.width), round(ratio * image.height)), (128, 128, 128))
    canvas.paste(image, (round((canvas.width - image.width) / 2), round((canvas.height - image.height) / 2)))
    return canvas


def _by_hand(image, identifier: str) -> np.ndarray:
    """Each plugin's preprocessing, written out: (3, 32, 32) float64."""
    from PIL import Image

    if identifier == "bs-helper":  # the plugin's own loading: PIL's default resize, [0, 1]
        return np.asarray(image.resize((IMAGE_SIZE, IMAGE_SIZE)), dtype=np.float32).transpose(2, 0, 1) / 255
    if identifier == "bs-inception":  # torchvision Resize(int(32 * 256 / 224)) + CenterCrop(32), mean = std = 0.5
        short = int(IMAGE_SIZE * 256 / 224)
        resized = image.resize((short, short), Image.BILINEAR)  # the placed images are square
        offset = int(round((short - IMAGE_SIZE) / 2))
        pixels = np.asarray(resized.crop((offset, offset, offset + IMAGE_SIZE, offset + IMAGE_SIZE)), dtype=np.float32)
        mean, std = (0.5,) * 3, (0.5,) * 3
    else:  # Resize((32, 32)), ImageNet statistics (or the float64 plugin's own)
        pixels = np.asarray(image.resize((IMAGE_SIZE, IMAGE_SIZE), Image.BILINEAR), dtype=np.float32)
        mean, std = ((FLOAT64_MEAN, FLOAT64_STD) if identifier == "bs-float64"
                     else ((0.485, 0.456, 0.406), (0.229, 0.224, 0.225)))
    scaled = pixels / np.float32(255)
    return ((scaled - np.asarray(mean, np.float32)) / np.asarray(std, np.float32)).transpose(2, 0, 1)


def _it_features(identifier: str, images) -> np.ndarray:
    """Output of module 3 (the committed IT layer) of a plain torch forward pass, one row per image."""
    import torch

    net = network(SEEDS[identifier]).eval()
    batch = torch.from_numpy(np.stack([_by_hand(image, identifier) for image in images]))
    if identifier == "bs-float64":
        net, batch = net.double(), batch.double()
    with torch.no_grad():
        return net[:4](batch).reshape(len(images), -1).double().numpy()


def test_kriegeskorte_scores_equal_an_independent_computation(folder_scores, raw_data):
    from scipy.stats import spearmanr

    with np.load(raw_data / "kriegeskorte2008" / "rdms.npz") as arrays:
        ids = list(arrays["stimulus_ids"])
        subjects = arrays["human_it_rdms"].astype(np.float64).mean(axis=1)  # sessions averaged
    images = [_placed(raw_data / "kriegeskorte2008" / "images" / f"{stimulus_id}.png") for stimulus_id in ids]
    rows, columns = np.triu_indices(len(ids), k=1)

    def spearman(a, b):
        return spearmanr(a[rows, columns], b[rows, columns]).statistic

    ceiling = np.mean([spearman(subject, subjects.mean(0)) for subject in subjects])
    for identifier in IDENTIFIERS.values():
        model_rdm = 1 - np.corrcoef(_it_features(identifier, images))
        expected = np.mean([spearman(model_rdm, subject) for subject in subjects]) / ceiling
        assert folder_scores[identifier][KRIEGESKORTE] == pytest.approx(expected, abs=2e-4), identifier


def test_geirhos_scores_equal_the_networks_wrapped_through_model_tools_directly(folder_scores, raw_data):
    from brainscore_vision import load_benchmark
    from model_tools.activations import ActivationsExtractor, ImagePreprocessing
    from model_tools.brain_transformation import ModelCommitment

    preprocessing = {
        "bs-inception": ImagePreprocessing(IMAGE_SIZE, resize="inception", mean=(0.5,) * 3, std=(0.5,) * 3),
        "bs-float64": ImagePreprocessing(IMAGE_SIZE, mean=FLOAT64_MEAN, std=FLOAT64_STD),
        "bs-mapped": ImagePreprocessing(IMAGE_SIZE),
    }
    for identifier, steps in preprocessing.items():
        net = network(SEEDS[identifier])
        net = net.double() if identifier == "bs-float64" else net
        direct = ModelCommitment(f"direct-{identifier}", ActivationsExtractor(net, f"direct-{identifier}", steps),
                                 ["1", "3", "6"], region_layer_map={"IT": "3"})
        assert float(load_benchmark(GEIRHOS)(direct)) == pytest.approx(folder_scores[identifier][GEIRHOS], abs=1e-12)


def test_the_region_layer_json_is_used_and_layer_selection_skipped(folder_scores, plugin_sources, monkeypatch):
    from brainscore_vision import load_model
    from model_tools.brain_transformation.layer_selection import LayerSelection

    def no_selection(*args, **kwargs):
        raise AssertionError("layer selection ran")

    monkeypatch.setattr(LayerSelection, "select", no_selection)
    model = load_model("bs-mapped")
    assert model.layer_map == {"IT": "3", "V4": "3", "V2": "1", "V1": "1"}
    assert model.region_layer_map_file == plugin_sources / "user" / "models" / "bs_mapped" / "region_layer_map" / \
        "bs-mapped.json"
    model.start_recording("IT", [(70, 170)])
    assert model.layer_scores == {}


# -- the S3 checkpoint --------------------------------------------------------------------------------------------
def _dead_endpoint(monkeypatch) -> str:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        endpoint = f"http://127.0.0.1:{probe.getsockname()[1]}"
    monkeypatch.setenv("AWS_ENDPOINT_URL", endpoint)
    monkeypatch.setenv("AWS_MAX_ATTEMPTS", "1")
    monkeypatch.setenv("AWS_RETRY_MODE", "standard")
    return endpoint


def test_the_checkpoint_is_cached_and_reused_offline(folder_scores, module_homes, s3_checkpoint, monkeypatch):
    from brainscore_vision import load_model

    cached = module_homes / "brainscore_home" / "brainscore-vision" / "models" / "bs_s3" / "checkpoint.pth"
    assert hashlib.sha1(cached.read_bytes()).hexdigest() == s3_checkpoint["sha1"]
    _dead_endpoint(monkeypatch)
    model = load_model("bs-s3")  # no network: the verified copy is used
    net = model.activations_model.model
    expected = network(S3_SEED).state_dict()
    assert all(np.array_equal(net.state_dict()[name].numpy(), expected[name].numpy()) for name in expected)


def test_offline_without_the_checkpoint_is_one_line(folder_scores, tmp_path, monkeypatch):
    from brainio.errors import FileUnavailableError
    from brainscore_vision import load_model

    monkeypatch.setenv("BRAINSCORE_HOME", str(tmp_path / "empty_home"))
    endpoint = _dead_endpoint(monkeypatch)
    with pytest.raises(FileUnavailableError) as caught:
        load_model("bs-s3")
    folder = (tmp_path / "empty_home" / "brainscore-vision" / "models" / "bs_s3").resolve()
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"checkpoint.pth is not in {folder} and {endpoint}/bs-plugins/brainscore-vision/models/"
                              "bs_s3/checkpoint.pth?versionId=")
    assert message.endswith(f"put it in {folder}")


def test_a_checkpoint_with_another_sha1_is_refused(folder_scores, plugin_sources, s3_checkpoint, module_homes):
    from brainio.errors import Sha1MismatchError
    from brainscore_core.config import set_options
    from brainscore_vision import load_model

    tampered = plugin_sources / "tampered"
    files = plugin_files({"bucket": s3_checkpoint["bucket"], "version_id": s3_checkpoint["versions"]["bs_s3_tampered"],
                          "sha1": "f" * 40})["bs_s3"]
    for relative, text in files.items():
        path = tampered / "models" / "bs_s3_tampered" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.replace("'bs-s3'", "'bs-s3-tampered'").replace("bs_s3/checkpoint", "bs_s3_tampered/checkpoint"))
    with set_options(plugin_folders=[tampered]), pytest.raises(Sha1MismatchError, match="expected f{40}"):
        load_model("bs-s3-tampered")
    folder = module_homes / "brainscore_home" / "brainscore-vision" / "models" / "bs_s3_tampered"
    assert [path.name for path in folder.iterdir()] == [".checkpoint.pth.lock"]  # nothing downloaded was kept


# -- Brain-Score's pixels plugin against the zoo, and check_brain_models ------------------------------------------

PIXELS_PLUGIN = {
    "__init__.py": '''
        from brainscore_vision import model_registry
        from brainscore_vision.model_helpers.brain_transformation import ModelCommitment
        from .model import PixelModel

        model_registry['pixels'] = lambda: ModelCommitment(identifier='pixels', activations_model=PixelModel(),
                                                           layers=['pixels'])
    ''',
    "model.py": '''
        from collections import OrderedDict

        import numpy as np
        from PIL import Image

        from brainscore_vision.model_helpers.activations.core import ActivationsExtractorHelper


        class PixelModel:  # Brain-Score's pixels plugin, in its style: 32 x 32 here
            def __init__(self):
                self._extractor = ActivationsExtractorHelper(identifier='pixels', preprocessing=None,
                                                             get_activations=self._pixels_from_paths)
                self._extractor.insert_attrs(self)

            @property
            def identifier(self):
                return self._extractor.identifier

            def __call__(self, *args, **kwargs):
                return self._extractor(*args, **kwargs)

            def _pixels_from_paths(self, paths, layer_names):
                return OrderedDict([('pixels', np.array([np.array(Image.open(path).convert('RGB').resize((32, 32)))
                                                         for path in paths]))])
    ''',
    "region_layer_map/pixels.json": '{"IT": "pixels", "V4": "pixels", "V2": "pixels", "V1": "pixels"}',
}
OVERRIDE_RUN = '''
    import json, warnings
    import numpy as np
    from brainscore_vision import load_model, model_registry, score
    from brainscore_core.errors import PluginOverrideNotice

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = load_model("pixels")
    result = score("pixels", "Kriegeskorte2008.hIT-rdm", store=False)
    print(json.dumps({"notices": [str(w.message) for w in caught if issubclass(w.category, PluginOverrideNotice)],
                      "class": type(model.activations_model).__name__, "layer_map": model.layer_map,
                      "module": model_registry.source("pixels").module, "score": float(result)}))
'''


def test_a_brainscore_pixels_folder_replaces_the_zoo_model_with_a_notice(tmp_path, raw_data, module_homes):
    """Brain-Score's ``pixels`` plugin (an ActivationsExtractorHelper model with a region-layer JSON) dropped into a
    user folder wins over model-tools' zoo ``pixels``; run in a fresh interpreter (registries are per process)."""
    for relative, text in PIXELS_PLUGIN.items():
        path = tmp_path / "plugins" / "models" / "pixels" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())
    environment = {**os.environ, "BRAINSCORE_PLUGIN_FOLDERS": str(tmp_path / "plugins")}  # homes: the module's
    run = subprocess.run([sys.executable, "-c", textwrap.dedent(OVERRIDE_RUN)], capture_output=True, text=True,
                         env=environment, cwd=tmp_path, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    output = json.loads(run.stdout.strip().splitlines()[-1])
    [notice] = output["notices"]
    assert "\n" not in notice and notice.startswith(
        "model 'pixels' of an explicit registration (no distribution) (module 'brainscore_vision.models.pixels') "
        "replaces the built-in one of distribution 'model-tools'")
    assert output["class"] == "PixelModel" and output["module"] == "brainscore_vision.models.pixels"
    assert output["layer_map"] == {"IT": "pixels", "V4": "pixels", "V2": "pixels", "V1": "pixels"}
    assert np.isfinite(output["score"])


def test_check_brain_models_accepts_a_brain_model_and_names_what_is_not_one(raw_data, monkeypatch):
    import functools
    import types

    from conftest import build_tiny_net

    from model_tools.compat.activations.pytorch import load_preprocess_images
    from model_tools.compat.brain_transformation import ModelCommitment
    from model_tools.compat.check_submission import check_models

    module = types.ModuleType("my_brain_models")

    def get_model(name):
        from model_tools.activations import ActivationsExtractor

        extractor = ActivationsExtractor(build_tiny_net(), name, functools.partial(load_preprocess_images,
                                                                                   image_size=8))
        return ModelCommitment(name, extractor, ["1", "2", "4"], region_layer_map={"IT": "2"}) if name == "good" \
            else extractor

    module.get_model_list, module.get_model = (lambda: ["good"]), get_model
    monkeypatch.setitem(sys.modules, "my_brain_models", module)
    scores = check_models.check_brain_models("my_brain_models")
    assert np.isfinite(float(scores["good"]))
    module.get_model_list = lambda: ["not-a-brain-model"]
    with pytest.raises(check_models.CheckFailedError, match="'not-a-brain-model': get_model must return a BrainModel"):
        check_models.check_brain_models(module)
