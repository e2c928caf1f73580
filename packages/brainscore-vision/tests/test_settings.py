"""brainscore-vision's own settings (issue 44, part 4: read in ``brainscore_vision/settings.py``, published for
``brainscore config``; before, brainscore-core's ``config.py`` read them)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from brainscore_vision import settings
from brainscore_vision.cli import main


@pytest.mark.parametrize(("name", "reader", "value", "expected"), [
    ("BRAINSCORE_VISION_DATA_SOURCE", "data_source", " S3 ", "s3"),
    ("BRAINSCORE_VISION_DATA_SOURCE", "data_source", "", "local"),
    ("BRAINSCORE_VISION_S3_BUCKET", "data_bucket", "  ", None),
    ("BRAINSCORE_RAW_DATA", "raw_data_setting", " ../data ", "../data"),
    ("BRAINSCORE_DATA_STORE", "data_store_setting", "~/store", Path("~/store").expanduser()),
])
def test_readers(monkeypatch, name, reader, value, expected):
    monkeypatch.setenv(name, value)
    assert getattr(settings, reader)() == expected


def test_local_data_folders(monkeypatch, tmp_path):
    monkeypatch.delenv("BRAINSCORE_NSD_DIR", raising=False)
    assert settings.local_data_folder("BRAINSCORE_NSD_DIR") is None
    monkeypatch.setenv("BRAINSCORE_NSD_DIR", f" {tmp_path} ")
    assert settings.local_data_folder("BRAINSCORE_NSD_DIR") == tmp_path
    with pytest.raises(ValueError, match="BRAINSCORE_HOME"):
        settings.local_data_folder("BRAINSCORE_HOME")


def test_every_variable_read_is_published_and_documented():
    from brainscore_core.package_hooks import published_settings

    source = Path(settings.__file__).read_text()
    read = {getattr(settings, name) for name in re.findall(r"env_(?:text|path)\(\s*([A-Z_]+_ENV)\b", source)}
    read |= set(settings.LOCAL_DATA_ENVS)  # read through local_data_folder(variable)
    published = {variable for setting in published_settings() if setting.owner == "brainscore-vision"
                 for variable in setting.variables}
    assert len(read) == 10 and read == published
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    table = readme[readme.index("## Environment\n"):]
    table = "\n".join(line for line in table.splitlines()[:30] if line.startswith("|"))
    assert sorted(published - set(re.findall(r"`([A-Z][A-Z0-9_]+)`", table))) == []


def test_brainscore_config_lists_every_package(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("BRAINSCORE_NSD_DIR", str(tmp_path))
    monkeypatch.setenv("MODEL_TOOLS_REUSE_MEMORY", "off")
    assert main(["config"]) == 0
    out = capsys.readouterr().out
    owners = [line[:-1] for line in out.splitlines() if line and not line.startswith(" ")]
    assert owners[:4] == ["brainio", "brainscore-core", "brainscore-vision", "model-tools"]
    assert f"BRAINSCORE_NSD_DIR = {tmp_path}  (default: none)" in out
    assert "MODEL_TOOLS_REUSE_MEMORY = off  (default: on)" in out
    assert "BRAINSCORE_HOME = " in out and "option 'home'" in out
    assert main(["config", "--package", "no-such-package"]) == 2
    assert "no installed package 'no-such-package' publishes settings" in capsys.readouterr().err
