"""One configuration module (issue 21, item 1): flags, home, cache switches and set_options; since issue 44 each
package reads (and publishes) its own settings, and this module reads core's."""

import re
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
    ("activations,ceiling", False, False), ("model_tools", True, False), ("brainscore_core.x", False, True)])
def test_one_reading_of_resultcaching_disable(monkeypatch, value, ceiling, activations):
    monkeypatch.setenv("RESULTCACHING_DISABLE", value)
    # each cache's owner names its module (model-tools' activations: model_tools), core knows none but its own
    assert caching_enabled("ceiling", "brainscore_core") is ceiling
    assert caching_enabled("activations", "model_tools") is activations


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


#: the only files of packages/*/src that read the environment directly: core's config, and brainio (below core, which
#: it cannot import) for BRAINIO_HOME and its archive limits (_home.py) and boto3's AWS endpoint variables (stores/s3.py)
ENVIRONMENT_READERS = {"brainscore-core/src/brainscore_core/config.py", "brainio/src/brainio/_home.py",
                       "brainio/src/brainio/stores/s3.py"}
#: the only files that name the readers (env_flag, env_text, env_path): brainio's, where the flag rule lives (_home.py,
#: public in settings.py), config, and the one settings module of each package above core that reads settings of its
#: own (issue 44: each package owns its settings)
SETTINGS_MODULES = {"brainio/src/brainio/_home.py", "brainio/src/brainio/settings.py",
                    "brainscore-core/src/brainscore_core/config.py", "brainscore-vision/src/brainscore_vision/settings.py",
                    "model-tools/src/model_tools/settings.py"}


def _sources() -> dict[str, str]:
    packages = Path(__file__).resolve().parents[2]
    sources = {str(path.relative_to(packages)): path.read_text() for path in packages.glob("*/src/**/*.py")}
    assert len(sources) > 100  # the scan sees the whole checkout
    return sources


def test_only_config_reads_the_environment():
    reading = re.compile(r"\bos\.environ\b|\bos\.getenv\b|\bgetenv\(|\bfrom os import\b[^\n]*\benviron\b|\bos\.environb\b")
    assert {name for name, text in _sources().items() if reading.search(text)} == ENVIRONMENT_READERS


def test_only_each_packages_settings_module_reads_it_through_config():
    helpers = re.compile(r"\benv_(?:flag|text|path)\b")
    assert {name for name, text in _sources().items() if helpers.search(text)} == SETTINGS_MODULES


def test_core_reads_no_setting_of_another_package():
    # issue 44, part 4: vision's data folders and model-tools' malloc, memory, cache-notice and torch-hub settings are
    # read by those packages (settings.py) and published by them; config names none of them
    import brainscore_core.config as config

    source = Path(config.__file__).read_text()
    for variable in ("BRAINSCORE_RAW_DATA", "BRAINSCORE_DATA_STORE", "BRAINSCORE_VISION_DATA_SOURCE", "BRAINSCORE_NSD_DIR",
                     "BRAINSCORE_VISION_S3_BUCKET", "MALLOC_", "GLIBC_TUNABLES", "MODEL_TOOLS_REUSE_MEMORY",
                     "BRAINSCORE_CACHE_NOTICE_GB", "TORCH_HOME"):
        assert variable not in source, variable


def _read_variables(source: str, module) -> set[str]:
    """The variables a settings module reads: literal names and ``*_ENV`` constants passed to a reader."""
    names = set(re.findall(r'(?:env_text|env_flag|env_path|os\.environ\.get)\(\s*"([A-Z_]+)"', source))
    return names | {getattr(module, constant) for constant in
                    re.findall(r"(?:env_text|env_flag|env_path)\(\s*([A-Z_]+_ENV)\b", source)}


def test_every_variable_core_and_brainio_read_is_published_and_documented():
    import brainio._home
    import brainio.stores.s3
    import brainscore_core.config as config
    from brainscore_core.package_hooks import published_settings

    published = {setting.owner: set() for setting in published_settings()}
    for setting in published_settings():
        published[setting.owner] |= set(setting.variables)
    core = _read_variables(Path(config.__file__).read_text(), config)
    assert len(core) >= 10 and sorted(core - published["brainscore-core"]) == []
    brainio_read = {"BRAINIO_HOME", "BRAINIO_ARCHIVE_MAX_GB", "BRAINIO_ARCHIVE_MAX_RATIO", "AWS_ENDPOINT_URL_S3",
                    "AWS_ENDPOINT_URL", "BRAINSCORE_REQUIRE_DATA"}
    brainio_sources = Path(brainio._home.__file__).read_text() + Path(brainio.stores.s3.__file__).read_text()
    assert {name for name in re.findall(r'"([A-Z][A-Z0-9_]+)"', brainio_sources) if name in brainio_read} == brainio_read
    assert published["brainio"] == brainio_read
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    table = readme[readme.index("## Environment variables"):]
    table = "\n".join(line for line in table[:table.index("\n\n", table.index("| variable |"))].splitlines()
                      if line.startswith("|"))
    documented = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", table))
    assert sorted(published["brainscore-core"] - documented) == []
    assert sorted(r for r in re.findall(r"`(\w+)\(", table) if not hasattr(config, r)) == []
    # brainio documents its own
    brainio_readme = (Path(__file__).resolve().parents[2] / "brainio" / "README.md").read_text()
    assert all(f"`{name}`" in brainio_readme for name in brainio_read)


@pytest.mark.parametrize(("name", "reader", "value", "expected"), [
    ("BRAINSCORE_PLUGINS", "requested_plugins", " a, ,b ", ["a", "b"]),
    ("BRAINSCORE_RESULTS_URL", "results_url", "  ", None),
    ("BS_INSTALL_DEPENDENCIES", "install_advice_enabled", "no", False),
    ("BS_INSTALL_DEPENDENCIES", "install_advice_enabled", "0", False),
    ("BS_INSTALL_DEPENDENCIES", "install_advice_enabled", "yes", True),
    ("BRAINSCORE_DISABLE_PLUGIN_AUTOLOAD", "plugin_autoload_disabled", "off", False),
    ("BRAINSCORE_DISABLE_PLUGIN_AUTOLOAD", "plugin_autoload_disabled", "TRUE", True),
])
def test_readers(monkeypatch, name, reader, value, expected):
    import brainscore_core.config as config

    monkeypatch.setenv(name, value)
    assert getattr(config, reader)() == expected


def test_paths_from_the_environment(monkeypatch, tmp_path):
    import brainscore_core.config as config

    monkeypatch.setenv("BRAINSCORE_S3_WEIGHT_FOLDER", "weights")
    assert config.weight_folder() == "weights" and config.weight_folder("mine") == "mine"
    monkeypatch.setenv("PIP_CONSTRAINT", f"{tmp_path / 'c.txt'} other.txt")
    assert config.pip_constraint() == tmp_path / "c.txt"
    monkeypatch.setenv("BS_TEST_PATH", " ~/store ")
    assert config.env_path("BS_TEST_PATH") == Path("~/store").expanduser()
    monkeypatch.setenv("BS_TEST_PATH", "  ")
    assert config.env_path("BS_TEST_PATH") is None and config.env_text("BS_TEST_PATH") is None


def test_set_options_takes_the_options_other_packages_publish(monkeypatch):
    # issue 44, part 4: an option of another package (published with its settings) is set and restored like core's
    from brainscore_core import package_hooks
    from brainscore_core.config import option
    from brainscore_core.package_hooks import Setting

    monkeypatch.setattr(package_hooks, "published_settings",
                        lambda: [Setting("x", ("BS_TEST_X",), "1", "a test option", option="bs_test_x", owner="t")])
    with set_options(bs_test_x=3, progress=False):
        assert option("bs_test_x") == 3 and not progress_enabled()
        with set_options(bs_test_x=4):
            assert option("bs_test_x") == 4
        assert option("bs_test_x") == 3
    assert option("bs_test_x") is None
    with pytest.raises(ValueError, match=r"unknown option\(s\) \['bs_test_y'\]; known: .*bs_test_x"), \
            set_options(bs_test_y=1):
        pass
