"""Issue 42: ``brainscore list models`` shows plugin folders and what they need; ``--dry-run`` marks models whose
weights are not here yet; a folder's requirements notice is printed only by a command that imports that folder.

The plugin below is nasnet_mobile's shape (Brain-Score's ``load_weight_file`` call, a ``requirements.txt``), with a
tiny network; nothing of it is imported by listing it."""

from __future__ import annotations

import sys
import textwrap
import uuid

import pytest

from brainscore_core.config import set_options
from brainscore_vision.cli import main

INIT = """
    from brainscore_vision import model_registry
    from .model import get_model

    model_registry['{identifier}'] = lambda: get_model('{identifier}')
    open(__file__ + '.imported', 'w').close()
"""
MODEL = """
    from brainscore_core.supported_data_standards.brainio.s3 import load_weight_file


    def get_model(name):
        weights = load_weight_file(bucket="brainscore-storage", folder_name="brainscore-vision/models",
                                   relative_path="{folder}/weights-1234.pth", version_id="null",
                                   sha1="2f88f50ca7b16c9462cdf4b001bdca6cc82aea35")
        return weights


    def computed(name):
        return load_weight_file(bucket="b", relative_path=name + ".pth", version_id=None, sha1=None)  # not guessed
"""


@pytest.fixture
def plugin(tmp_path):
    folder = f"needy_{uuid.uuid4().hex[:8]}"
    identifier = folder.replace("_", "-")
    root = tmp_path / "plugins" / "models" / folder
    root.mkdir(parents=True)
    (root / "__init__.py").write_text(textwrap.dedent(INIT.format(identifier=identifier)))
    (root / "model.py").write_text(textwrap.dedent(MODEL.format(folder=folder)))
    (root / "requirements.txt").write_text("no-such-distribution-bs42>=1\n")
    with set_options(plugin_folders=[tmp_path / "plugins"]):
        yield identifier, folder, root


def _weights_path(folder):
    from brainscore_core.config import brainscore_home

    return brainscore_home() / "brainscore-vision" / "models" / folder / "weights-1234.pth"


def test_list_models_shows_a_folder_plugin_and_what_it_needs(plugin, capsys):
    identifier, folder, root = plugin
    assert main(["list", "models"]) == 0
    out, err = capsys.readouterr()
    [line] = [line for line in out.splitlines() if line.startswith(identifier)]
    assert f"plugin folder {root}" in line and "[needs no-such-distribution-bs42>=1, needs weights]" in line
    assert f"-r {root / 'requirements.txt'}" in line
    assert (f"s3://brainscore-storage/brainscore-vision/models/{folder}/weights-1234.pth -> {_weights_path(folder)}"
            in line)
    assert "1 weight file(s)" in line  # the call with a computed name is not guessed
    assert not (root / "__init__.py.imported").exists() and f"brainscore_vision.models.{folder}" not in sys.modules
    assert "needs packages" not in err  # the requirements notice belongs to importing the folder

    path = _weights_path(folder)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"weights")
    (root / "requirements.txt").write_text("pluggy\n")
    assert main(["list", "models"]) == 0
    [line] = [line for line in capsys.readouterr().out.splitlines() if line.startswith(identifier)]
    assert line.endswith("[ready]")


def test_dry_run_marks_a_plugin_whose_weights_are_missing(plugin, capsys, tmp_path):
    identifier, folder, root = plugin
    url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    assert main(["score", "--model", identifier, "--model", "pixels", "--benchmark", "Kiani2007.mIT-rdm",
                 "--results-url", url, "--dry-run"]) == 0
    out = capsys.readouterr().out
    [line] = [line for line in out.splitlines() if line.strip().startswith(identifier)]
    assert "model NEEDS NO-SUCH-DISTRIBUTION-BS42>=1, NEEDS WEIGHTS" in line and f"{folder}/weights-1234.pth" in line
    [pixels] = [line for line in out.splitlines() if line.strip().startswith("pixels on")]
    assert ": score; data [shipped]; memory " in pixels  # ready: scored, with its data need and memory estimate
    assert "1 pair(s) need something before they can run here" in out
    assert not (root / "__init__.py.imported").exists()


def test_a_requirements_notice_comes_only_from_a_command_that_imports_the_folder(plugin, capfd, tmp_path):
    identifier, folder, root = plugin
    url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    for command in (["list", "benchmarks"], ["score", "--model", "pixels", "--benchmark", "Kiani2007.mIT-rdm",
                                             "--results-url", url, "--dry-run"]):
        assert main(command) == 0
        assert "needs packages that are not installed" not in capfd.readouterr().err, command
    assert not (root / "__init__.py.imported").exists()
