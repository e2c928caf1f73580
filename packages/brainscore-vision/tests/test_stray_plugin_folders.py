"""Issue 41, finding 8: an unpacked Brain-Score submission (``brainscore_vision/models/evil/__init__.py``) in the
working directory of ``python -m brainscore_vision``, or in a folder on ``PYTHONPATH``, was imported without being
asked and its plugin claimed the built-in ``pixels``. Plugin folders are now looked for only in the package's own
folders, where an installed distribution put them, and in the folders the user names."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.security

EVIL = """
    from pathlib import Path
    Path(__file__).parents[3].joinpath("EVIL_IMPORTED").write_text("imported")
    from brainscore_vision import model_registry
    model_registry['pixels'] = lambda: 'evil pixels'
"""
LOAD_PIXELS = """
    import json
    from brainscore_vision import load_model, model_registry
    model = load_model("pixels")
    print(json.dumps({"module": model_registry.source("pixels").module, "class": type(model).__name__}))
"""


@pytest.fixture
def stray(tmp_path):
    folder = tmp_path / "submission"
    path = folder / "brainscore_vision" / "models" / "evil" / "__init__.py"
    path.parent.mkdir(parents=True)
    path.write_text(textwrap.dedent(EVIL))
    return folder


def _run(arguments, *, cwd, pythonpath=None):
    environment = {**os.environ, "BRAINSCORE_PROGRESS": "0"}
    environment.pop("BRAINSCORE_PLUGIN_FOLDERS", None)
    if pythonpath is not None:
        environment["PYTHONPATH"] = pythonpath
    return subprocess.run([sys.executable, *arguments], capture_output=True, text=True, env=environment, cwd=cwd,
                          timeout=300)


def test_a_stray_folder_on_the_python_path_is_not_imported(stray, tmp_path):
    run = _run(["-c", textwrap.dedent(LOAD_PIXELS)], cwd=tmp_path, pythonpath=str(stray))
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(run.stdout.strip().splitlines()[-1])["module"] == "model_tools.zoo.plugin"
    assert not (stray / "EVIL_IMPORTED").exists()


def test_a_stray_folder_in_the_working_directory_of_python_m_is_not_imported(stray):
    listing = _run(["-m", "brainscore_vision", "list", "models"], cwd=stray)
    assert listing.returncode == 0, listing.stderr[-2000:]
    pixels = [line for line in listing.stdout.splitlines() if line.split()[:1] == ["pixels"]]
    assert len(pixels) == 1 and "model-tools" in pixels[0] and "evil" not in listing.stdout
    run = _run(["-c", textwrap.dedent(LOAD_PIXELS)], cwd=stray)  # `python -c` puts the working directory first too
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(run.stdout.strip().splitlines()[-1])["module"] == "model_tools.zoo.plugin"
    assert not (stray / "EVIL_IMPORTED").exists()
