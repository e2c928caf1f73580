"""Brain-Score's plugin folders (found by the identifier in their ``__init__.py`` text, imported on demand), user plugin
folders, requirements that are never installed, and the collision rule against built-in distributions."""

from __future__ import annotations

import importlib
import sys
import textwrap
import uuid
import warnings

import pytest

from brainscore_core.config import set_options
from brainscore_core.errors import (
    DuplicateIdentifierError,
    PluginLoadError,
    PluginOverrideNotice,
    UnknownIdentifierError,
)

KIND_PACKAGE = """
    from brainscore_core.plugin_folders import extend_package_path
    __path__ = extend_package_path(__path__, __name__)
"""


@pytest.fixture
def folders_world(world, tmp_path, monkeypatch):
    """A domain package ``<name>`` (Domain on the fake world's entry-point group, built-in distribution
    'builtin-zoo') with kind packages ``models``, ``metrics``, ``data``; returns (world, package name, package dir)."""
    name = f"dompkg_{uuid.uuid4().hex[:8]}"
    root = tmp_path / name
    _write(root / "__init__.py", f"""
        from brainscore_core.plugin_folders import PluginFolders
        from brainscore_core.plugins import Domain
        domain = Domain({world.group!r}, folders=PluginFolders({name!r}), builtin_distributions={{"builtin-zoo"}})
        for _name in ("data_registry", "stimulus_set_registry", "metric_registry", "ceiling_registry",
                      "benchmark_registry", "model_registry", "load_dataset", "load_stimulus_set", "load_metric",
                      "load_ceiling", "load_benchmark", "load_model", "list_plugins"):
            globals()[_name] = getattr(domain, _name)  # the names a domain package gives its users
    """)
    for kind in ("models", "metrics", "data"):
        _write(root / kind / "__init__.py", KIND_PACKAGE)
    monkeypatch.delenv("BRAINSCORE_PLUGIN_FOLDERS", raising=False)
    monkeypatch.delenv("BS_INSTALL_DEPENDENCIES", raising=False)
    importlib.invalidate_caches()
    return world, name, root


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    importlib.invalidate_caches()


def _model_folder(root, folder, identifier, domain, *, absolute=False):
    """A Brain-Score style model folder of ``domain``: ``__init__`` registers, the factory lives in ``model.py``
    (imported relatively, or through the absolute path ``<domain>.models.<folder>.model``)."""
    _write(root / folder / "model.py", f"""
        def get_model():
            return "model of {folder}"
    """)
    imports = f"from {domain}.models.{folder}.model import get_model" if absolute else "from .model import get_model"
    _write(root / folder / "__init__.py", f"""
        from {domain} import model_registry
        {imports}
        model_registry['{identifier}'] = get_model
    """)


def test_a_folder_is_found_by_identifier_and_only_it_is_imported(folders_world):
    world, name, root = folders_world
    package = importlib.import_module(name)
    _model_folder(root / "models", "mine", "my-model", name)
    _write(root / "models" / "broken" / "__init__.py", "raise RuntimeError('must never be imported')\n")
    _write(root / "models" / "commented" / "__init__.py", f"""
        from {name} import model_registry
        # model_registry['my-model'] = None   (a comment does not register)
        model_registry['other'] = lambda: 'other'
        assert model_registry['other'] == 'not a comparison' or True
    """)
    assert package.load_model("my-model") == "model of mine"
    assert f"{name}.models.mine" in sys.modules and f"{name}.models.broken" not in sys.modules
    assert f"{name}.models.commented" not in sys.modules
    info = {p.identifier: p for p in package.list_plugins("model")}["my-model"]
    assert info.module == f"{name}.models.mine" and info.distribution is None
    with pytest.raises(UnknownIdentifierError, match="no model registered as 'nobody'"):
        package.load_model("nobody")


def test_user_folders_from_the_environment_or_set_options_with_absolute_imports(folders_world, tmp_path, monkeypatch):
    world, name, root = folders_world
    package = importlib.import_module(name)
    user = tmp_path / "user_plugins"
    _model_folder(user / "models", "user_model", "user-model", name, absolute=True)
    with pytest.raises(UnknownIdentifierError):
        package.load_model("user-model")
    monkeypatch.setenv("BRAINSCORE_PLUGIN_FOLDERS", str(user))
    assert package.load_model("user-model") == "model of user_model"
    assert str(user / "models") in sys.modules[f"{name}.models"].__path__
    assert not (root / "models" / "user_model").exists()  # nothing written into the package

    other = tmp_path / "more_plugins"
    _write(other / "metrics" / "my_metric" / "__init__.py", f"""
        from {name} import metric_registry
        metric_registry['my_consistency'] = lambda: 'a metric used as a ceiling'
    """)
    with set_options(plugin_folders=[other]):
        assert package.load_ceiling("my_consistency") == "a metric used as a ceiling"
        assert "my_consistency" in package.metric_registry


def test_stimulus_sets_and_data_are_found_in_data_folders(folders_world):
    world, name, root = folders_world
    package = importlib.import_module(name)
    _write(root / "data" / "lab2026" / "__init__.py", f"""
        from {name} import data_registry, stimulus_set_registry
        stimulus_set_registry["Lab2026"] = lambda: "stimuli"
        data_registry["Lab2026"] = lambda: "assembly"
    """)
    assert package.load_stimulus_set("Lab2026") == "stimuli" and package.load_dataset("Lab2026") == "assembly"


def test_two_folders_registering_one_identifier_are_an_error_naming_both(folders_world, tmp_path, monkeypatch):
    world, name, root = folders_world
    package = importlib.import_module(name)
    _model_folder(root / "models", "first", "shared", name)
    user = tmp_path / "user"
    _model_folder(user / "models", "second", "shared", name)
    monkeypatch.setenv("BRAINSCORE_PLUGIN_FOLDERS", str(user))
    with pytest.raises(DuplicateIdentifierError) as caught:
        package.load_model("shared")
    assert str(root / "models" / "first") in str(caught.value) and str(user / "models" / "second") in str(caught.value)


def test_requirements_are_never_installed_and_the_pip_command_is_printed(folders_world, capfd, monkeypatch):
    world, name, root = folders_world
    package = importlib.import_module(name)
    _model_folder(root / "models", "needy", "needy", name)
    (root / "models" / "needy" / "requirements.txt").write_text(
        "# a comment\npluggy\nno-such-distribution-bs28>=1.0\nnumpy<1 ; python_version < '3'\n")
    assert package.load_model("needy") == "model of needy"
    line = capfd.readouterr().err.strip()
    assert "\n" not in line and f"plugin folder {root / 'models' / 'needy'}" in line
    assert "(no-such-distribution-bs28>=1.0)" in line  # pluggy is installed; the marker excludes numpy<1
    assert "-m pip install -c " in line and f"-r {root / 'models' / 'needy' / 'requirements.txt'}" in line

    monkeypatch.setenv("BS_INSTALL_DEPENDENCIES", "no")
    _model_folder(root / "models", "needy_too", "needy-too", name)
    (root / "models" / "needy_too" / "requirements.txt").write_text("no-such-distribution-bs28\n")
    assert package.load_model("needy-too") == "model of needy_too"
    assert capfd.readouterr().err == ""


def test_a_folder_that_fails_to_import_says_how_to_install_its_requirements(folders_world, monkeypatch):
    world, name, root = folders_world
    package = importlib.import_module(name)
    monkeypatch.setenv("BS_INSTALL_DEPENDENCIES", "no")
    _write(root / "models" / "missing_dep" / "__init__.py", f"""
        import no_such_module_bs28
        from {name} import model_registry
        model_registry['missing-dep'] = lambda: None
    """)
    (root / "models" / "missing_dep" / "requirements.txt").write_text("no-such-module-bs28\n")
    with pytest.raises(PluginLoadError) as caught:
        package.load_model("missing-dep")
    message = str(caught.value)
    assert "\n" not in message and "No module named 'no_such_module_bs28'" in message
    assert "install its requirements with:" in message and "requirements.txt" in message


def test_an_installed_plugin_replaces_a_builtin_identifier_with_a_notice(folders_world):
    world, name, root = folders_world
    world.add_plugin("builtin-zoo", f"""
        from {name} import model_registry
        model_registry['alexnet'] = lambda: 'built-in alexnet'
        model_registry['pixels'] = lambda: 'built-in pixels'
    """, module=f"zoo_{uuid.uuid4().hex[:6]}")
    # an entry-point plugin sorted before the built-in one, and a folder plugin: both win over the built-in
    world.add_plugin("aaa-plugin", f"""
        from {name} import model_registry
        model_registry['pixels'] = lambda: 'brain-score pixels'
    """, module=f"aaa_{uuid.uuid4().hex[:6]}")
    _model_folder(root / "models", "alexnet", "alexnet", name)
    package = importlib.import_module(name)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert package.load_model("pixels") == "brain-score pixels"
        assert package.load_model("alexnet") == "model of alexnet"
    notices = [str(w.message) for w in caught if issubclass(w.category, PluginOverrideNotice)]
    assert len(notices) == 2 and all("\n" not in notice for notice in notices)
    assert "'pixels' of distribution 'aaa-plugin'" in notices[0] and "built-in one of distribution 'builtin-zoo'" \
        in notices[0]
    assert f"'alexnet' of an explicit registration (no distribution) (module '{name}.models.alexnet')" in notices[1]
    assert package.model_registry.source("alexnet").module == f"{name}.models.alexnet"


def test_two_third_party_plugins_on_one_identifier_stay_an_error(folders_world):
    # issue 42: an installed package won silently over a folder of the same identifier, and an author editing the
    # folder saw the edits ignored; the rule the README states is a DuplicateIdentifierError naming both
    world, name, root = folders_world
    world.add_plugin("third-party", f"""
        from {name} import model_registry
        model_registry['taken'] = lambda: 'pip plugin'
    """)
    _model_folder(root / "models", "taken", "taken", name)
    package = importlib.import_module(name)
    for read in (lambda: package.load_model("taken"), lambda: "taken" in package.model_registry):
        with pytest.raises(DuplicateIdentifierError) as caught:
            read()
        message = str(caught.value)
        assert "distribution 'third-party' 1.0" in message and f"plugin folder {root / 'models' / 'taken'}" in message
    assert f"{name}.models.taken" not in sys.modules  # the folder is not imported either
    with pytest.raises(DuplicateIdentifierError, match="third-party"):
        importlib.import_module(f"{name}.models.taken")  # importing the folder anyway collides, naming both


@pytest.mark.security
def test_folders_on_sys_path_count_only_where_a_distribution_installed_them(tmp_path, monkeypatch):
    # issue 41: a folder holding <package>/models/evil/ on sys.path (PYTHONPATH, or the working directory that
    # `python -m` puts there) joined the package path and was imported unasked; only a sys.path entry where an
    # installed distribution's RECORD lists files under <package>/models joins it now
    from brainscore_core.plugin_folders import extend_package_path

    stray, site = tmp_path / "stray", tmp_path / "site"
    for root in (stray, site):
        _write(root / "dompkg" / "models" / "evil" / "__init__.py", "raise RuntimeError('never imported')\n")
    _write(site / "evil_plugin-1.0.dist-info" / "RECORD", "dompkg/models/evil/__init__.py,sha256=x,40\n")
    _write(tmp_path / "other" / "unrelated-1.0.dist-info" / "RECORD", "unrelated/__init__.py,,\n")
    (tmp_path / "other" / "dompkg" / "models").mkdir(parents=True)
    own = str(tmp_path / "own")
    monkeypatch.setattr(sys, "path", ["", str(stray), str(tmp_path / "other"), str(site), *sys.path])
    monkeypatch.chdir(stray)  # what `python -m` from inside the stray folder does
    monkeypatch.delenv("BRAINSCORE_PLUGIN_FOLDERS", raising=False)
    assert extend_package_path([own], "dompkg.models") == [own, str(site / "dompkg" / "models")]


def test_a_folder_listing_is_reused_until_the_folder_changes(tmp_path, monkeypatch):
    import os
    from pathlib import Path

    from brainscore_core.plugin_folders import PluginFolders

    root = tmp_path / "models"
    for folder in ("a", "b", "_private"):
        (root / folder).mkdir(parents=True)
    (root / "notes.txt").write_text("not a folder")
    listings = []
    original = Path.iterdir
    monkeypatch.setattr(Path, "iterdir", lambda self: listings.append(self) or original(self))
    folders = PluginFolders("unused")
    assert [p.name for p in folders._folders_of(root)] == ["a", "b"]
    assert [p.name for p in folders._folders_of(root)] == ["a", "b"] and len(listings) == 2  # just changed: racy
    an_hour_ago = root.stat().st_mtime_ns - 3600 * 10**9
    os.utime(root, ns=(an_hour_ago, an_hour_ago))
    folders._folders_of(root)
    assert [p.name for p in folders._folders_of(root)] == ["a", "b"] and len(listings) == 3  # kept: listed once
    (root / "c").mkdir()  # the folder's modification time moves: listed again, with the new folder
    assert [p.name for p in folders._folders_of(root)] == ["a", "b", "c"] and len(listings) == 4
    assert folders._folders_of(tmp_path / "absent") == []
