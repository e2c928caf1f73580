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


#: the only files of packages/*/src that read the environment: core's config, and brainio (below core, which it
#: cannot import) for BRAINIO_HOME (_home.py) and boto3's AWS endpoint variables (stores/s3.py)
ENVIRONMENT_READERS = {"brainscore-core/src/brainscore_core/config.py", "brainio/src/brainio/_home.py",
                       "brainio/src/brainio/stores/s3.py"}


def test_only_config_reads_the_environment():
    import re

    packages = Path(__file__).resolve().parents[2]
    reading = re.compile(r"\bos\.environ\b|\bos\.getenv\b|\bgetenv\(|\bfrom os import\b[^\n]*\benviron\b|\bos\.environb\b")
    readers = {str(path.relative_to(packages)) for path in packages.glob("*/src/**/*.py") if reading.search(path.read_text())}
    assert len(list(packages.glob("*/src/**/*.py"))) > 100  # the scan sees the whole checkout
    assert readers == ENVIRONMENT_READERS


def test_every_variable_read_is_in_the_one_table():
    import re

    import brainscore_core.config as config

    source = Path(config.__file__).read_text()
    names = set(re.findall(r'(?:_text|env_flag|os\.environ\.get)\(\s*"([A-Z_]+)"', source))
    names |= {getattr(config, constant) for constant in re.findall(r"(?:_text|env_flag)\(\s*([A-Z_]+_ENV)\b", source)}
    names |= set(config._MALLOC_SETTINGS) | set(config.LOCAL_DATA_ENVS) | {"GLIBC_TUNABLES", "TORCH_HOME", "XDG_CACHE_HOME"}
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    table = readme[readme.index("## Environment variables"):]
    table = table[:table.index("\n\n", table.index("| variable |"))]
    documented = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", table))
    readers = set(re.findall(r"`(\w+)\(", table))
    assert len(names) >= 15 and sorted(names - documented) == []
    assert sorted(r for r in readers if not hasattr(config, r) and r not in ("cache_home",)) == []


@pytest.mark.parametrize(("name", "reader", "value", "expected"), [
    ("BRAINSCORE_PLUGINS", "requested_plugins", " a, ,b ", ["a", "b"]),
    ("BRAINSCORE_RESULTS_URL", "results_url", "  ", None),
    ("BRAINSCORE_VISION_DATA_SOURCE", "data_source", " S3 ", "s3"),
    ("BRAINSCORE_VISION_DATA_SOURCE", "data_source", "", "local"),
    ("BS_INSTALL_DEPENDENCIES", "install_advice_enabled", "no", False),
    ("BS_INSTALL_DEPENDENCIES", "install_advice_enabled", "0", False),
    ("BS_INSTALL_DEPENDENCIES", "install_advice_enabled", "yes", True),
    ("MODEL_TOOLS_REUSE_MEMORY", "reuse_memory_enabled", "off", False),
    ("MODEL_TOOLS_REUSE_MEMORY", "reuse_memory_enabled", "1", True),
    ("BRAINSCORE_DISABLE_PLUGIN_AUTOLOAD", "plugin_autoload_disabled", "off", False),
    ("BRAINSCORE_DISABLE_PLUGIN_AUTOLOAD", "plugin_autoload_disabled", "TRUE", True),
])
def test_readers(monkeypatch, name, reader, value, expected):
    import brainscore_core.config as config

    monkeypatch.setenv(name, value)
    assert getattr(config, reader)() == expected


def test_paths_from_the_environment(monkeypatch, tmp_path):
    import brainscore_core.config as config

    monkeypatch.delenv("TORCH_HOME", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert config.torch_hub_dir() == tmp_path / "xdg" / "torch" / "hub"
    monkeypatch.setenv("TORCH_HOME", str(tmp_path / "th"))
    assert config.torch_hub_dir() == tmp_path / "th" / "hub"
    monkeypatch.setenv("BRAINSCORE_S3_WEIGHT_FOLDER", "weights")
    assert config.weight_folder() == "weights" and config.weight_folder("mine") == "mine"
    monkeypatch.setenv("BRAINSCORE_DATA_STORE", "~/store")
    assert config.data_store_setting() == Path("~/store").expanduser()
    monkeypatch.setenv("PIP_CONSTRAINT", f"{tmp_path / 'c.txt'} other.txt")
    assert config.pip_constraint() == tmp_path / "c.txt"
    for name in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_", "GLIBC_TUNABLES"):
        monkeypatch.delenv(name, raising=False)
    assert not config.malloc_tuned_by_user()
    monkeypatch.setenv("GLIBC_TUNABLES", "glibc.malloc.arena_max=2")
    assert config.malloc_tuned_by_user()


def test_local_data_folders(monkeypatch, tmp_path):
    from brainscore_core.config import LOCAL_DATA_ENVS, local_data_folder

    monkeypatch.delenv("BRAINSCORE_NSD_DIR", raising=False)
    assert local_data_folder("BRAINSCORE_NSD_DIR") is None
    monkeypatch.setenv("BRAINSCORE_NSD_DIR", f" {tmp_path} ")
    assert local_data_folder("BRAINSCORE_NSD_DIR") == tmp_path
    assert "BRAINSCORE_NSD_DIR" in LOCAL_DATA_ENVS
    with pytest.raises(ValueError, match="BRAINSCORE_HOME"):
        local_data_folder("BRAINSCORE_HOME")
