"""model-tools' own settings (issue 44, part 4: read in ``model_tools/settings.py``, published for ``brainscore
config``; before, brainscore-core's ``config.py`` read them)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from brainscore_core.config import set_options
from model_tools import settings


def test_activation_cache_notice_threshold(monkeypatch):
    monkeypatch.delenv("BRAINSCORE_CACHE_NOTICE_GB", raising=False)
    default = int(settings.DEFAULT_CACHE_NOTICE_GB * 1024**3)
    assert settings.activation_cache_notice_bytes() == default
    for value, expected in (("2.5", int(2.5 * 1024**3)), (" 1 ", 1024**3), ("0", None), ("off", None), ("", default),
                            ("many", default)):
        monkeypatch.setenv("BRAINSCORE_CACHE_NOTICE_GB", value)
        assert settings.activation_cache_notice_bytes() == expected, value
    with set_options(cache_notice_gb=0.5):  # model-tools' option, published with its settings
        assert settings.activation_cache_notice_bytes() == 1024**3 // 2
    with set_options(cache_notice_gb=False):
        assert settings.activation_cache_notice_bytes() is None
    assert settings.activation_cache_notice_bytes() == default  # restored after the block


@pytest.mark.parametrize(("value", "expected"), [("off", False), ("0", False), ("1", True), ("maybe", True)])
def test_reuse_memory_flag(monkeypatch, value, expected):
    monkeypatch.setenv("MODEL_TOOLS_REUSE_MEMORY", value)
    assert settings.reuse_memory_enabled() is expected


def test_malloc_and_torch_hub(monkeypatch, tmp_path):
    for name in (*settings.MALLOC_SETTINGS, "GLIBC_TUNABLES"):
        monkeypatch.delenv(name, raising=False)
    assert not settings.malloc_tuned_by_user()
    monkeypatch.setenv("GLIBC_TUNABLES", "glibc.malloc.arena_max=2")
    assert settings.malloc_tuned_by_user()
    monkeypatch.delenv("GLIBC_TUNABLES")
    monkeypatch.setenv("MALLOC_TOP_PAD_", "0")
    assert settings.malloc_tuned_by_user()
    monkeypatch.delenv("TORCH_HOME", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert settings.torch_hub_dir() == tmp_path / "xdg" / "torch" / "hub"
    monkeypatch.setenv("TORCH_HOME", str(tmp_path / "th"))
    assert settings.torch_hub_dir() == tmp_path / "th" / "hub"


def test_every_variable_read_is_published_and_documented():
    from brainscore_core.package_hooks import published_settings

    source = Path(settings.__file__).read_text()
    read = set(re.findall(r'env_(?:text|flag|path)\(\s*"([A-Z_]+)"', source))
    read |= {getattr(settings, name) for name in re.findall(r"env_(?:text|flag|path)\(\s*([A-Z_]+_ENV)\b", source)}
    read |= set(settings.MALLOC_SETTINGS)  # read in a loop over the constant
    published = {variable for setting in published_settings() if setting.owner == "model-tools"
                 for variable in setting.variables}
    assert len(read) >= 8 and read == published
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    table = readme[readme.index("### Settings"):]
    table = "\n".join(line for line in table.splitlines()[:40] if line.startswith("|"))
    assert sorted(published - set(re.findall(r"`([A-Z][A-Z0-9_]+)`", table))) == []
