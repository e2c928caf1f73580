"""One configuration module (issue 21, item 1): flags, home, cache switches and set_options."""

from pathlib import Path

import pytest

from brainscore_core.config import brainscore_home, caching_enabled, env_flag, progress_enabled, set_options


@pytest.mark.parametrize(("value", "expected"), [("1", True), (" TRUE ", True), ("yes", True), ("on", True),
                                                 ("0", False), ("false", False), ("No", False), ("", False),
                                                 ("maybe", None)])
def test_env_flag_words(monkeypatch, value, expected):
    monkeypatch.setenv("BS_TEST_FLAG", value)
    for default in (False, True):
        assert env_flag("BS_TEST_FLAG", default) == (default if expected is None else expected)


def test_empty_home_counts_as_unset(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("BRAINSCORE_HOME", "  ")
    assert brainscore_home() == Path.home() / ".brain-score"
    monkeypatch.setenv("BRAINSCORE_HOME", str(tmp_path / "bs"))
    assert brainscore_home() == tmp_path / "bs"
    with set_options(home=tmp_path / "other"):
        assert brainscore_home() == tmp_path / "other"
    assert brainscore_home() == tmp_path / "bs"


@pytest.mark.parametrize(("value", "ceiling", "activations"), [
    ("", True, True), ("1", False, False), ("true", False, False), ("0", True, True),
    ("brainscore_vision.benchmarks.x.ceiling", False, True), ("model_tools.activations", True, False),
    ("activations,ceiling", False, False)])
def test_one_reading_of_resultcaching_disable(monkeypatch, value, ceiling, activations):
    monkeypatch.setenv("RESULTCACHING_DISABLE", value)
    assert caching_enabled("ceiling") is ceiling
    assert caching_enabled("activations") is activations


def test_set_options_nests_and_refuses_unknown_names(monkeypatch):
    monkeypatch.setenv("BRAINSCORE_PROGRESS", "1")
    with set_options(progress=False, caching=False):
        assert not progress_enabled() and not caching_enabled("ceiling")
        with set_options(progress=True):
            assert progress_enabled()
        assert not progress_enabled()
    assert progress_enabled() and caching_enabled("ceiling")
    with pytest.raises(ValueError, match="unknown option"), set_options(colour=True):
        pass


def test_plugin_folders_from_the_option_or_the_environment(monkeypatch, tmp_path):
    import os

    from brainscore_core.config import plugin_folders

    monkeypatch.delenv("BRAINSCORE_PLUGIN_FOLDERS", raising=False)
    assert plugin_folders() == []
    monkeypatch.setenv("BRAINSCORE_PLUGIN_FOLDERS", f"{tmp_path / 'a'}{os.pathsep}{os.pathsep} ~/b ")
    assert plugin_folders() == [tmp_path / "a", Path("~/b").expanduser()]
    with set_options(plugin_folders=[tmp_path / "c"]):
        assert plugin_folders() == [tmp_path / "c"]
    with set_options(plugin_folders=str(tmp_path / "d")):
        assert plugin_folders() == [tmp_path / "d"]
    with set_options(plugin_folders=[]):  # an empty list overrides the environment
        assert plugin_folders() == []


def test_activation_cache_notice_threshold(monkeypatch):
    from brainscore_core.config import DEFAULT_CACHE_NOTICE_GB, activation_cache_notice_bytes

    monkeypatch.delenv("BRAINSCORE_CACHE_NOTICE_GB", raising=False)
    assert activation_cache_notice_bytes() == int(DEFAULT_CACHE_NOTICE_GB * 1024**3)
    for value, expected in (("2.5", int(2.5 * 1024**3)), (" 1 ", 1024**3), ("0", None), ("off", None),
                            ("", int(DEFAULT_CACHE_NOTICE_GB * 1024**3)), ("many", int(DEFAULT_CACHE_NOTICE_GB * 1024**3))):
        monkeypatch.setenv("BRAINSCORE_CACHE_NOTICE_GB", value)
        assert activation_cache_notice_bytes() == expected, value
    with set_options(cache_notice_gb=0.5):
        assert activation_cache_notice_bytes() == 1024**3 // 2
    with set_options(cache_notice_gb=False):
        assert activation_cache_notice_bytes() is None
