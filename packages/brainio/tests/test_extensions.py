"""brainio's extension points (brainio.extensions): names and packaging adapters that an installed distribution
declares through entry points. The distribution here is fake: an in-memory ``Distribution`` fed to importlib.metadata
whose entry points name a module written under ``tmp_path``; nothing is installed."""

from __future__ import annotations

import importlib.abc
import importlib.metadata
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

import brainio
import brainio.fetch
import brainio.packaging
from brainio.extensions import NAMES_GROUP, PACKAGING_ADAPTERS_GROUP


class _FakeDistribution(importlib.metadata.Distribution):
    def __init__(self, entry_points: dict[str, dict[str, str]]):
        self._entry_points = entry_points

    def read_text(self, filename):
        if filename == "METADATA":
            return "Metadata-Version: 2.1\nName: brainio-fake-extension\nVersion: 1.0\n"
        if filename == "entry_points.txt":
            return "".join(f"[{group}]\n" + "".join(f"{key} = {value}\n" for key, value in points.items())
                           for group, points in self._entry_points.items())
        return None

    def locate_file(self, path):
        return Path("/nonexistent") / path


class _FakeFinder(importlib.abc.MetaPathFinder):
    def __init__(self, distribution):
        self.distribution = distribution

    def find_spec(self, fullname, path=None, target=None):
        return None

    def find_distributions(self, context=None):
        name = getattr(context, "name", None)
        return iter([self.distribution] if name in (None, "brainio-fake-extension") else [])


@pytest.fixture
def extension(tmp_path, monkeypatch):
    """A fake distribution adding ``brainio.fake_lookup``, ``brainio.fetch.fake_lookup``, a try at shadowing
    ``brainio.StimulusSet``, and a packaging adapter that renames ``old_identifier=`` and records each call."""
    module = f"fake_brainio_extension_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{module}.py").write_text(textwrap.dedent("""
        import warnings
        calls = []

        def fake_lookup(identifier):
            return f"looked up {identifier}"

        def not_a_stimulus_set():
            raise AssertionError("brainio's own StimulusSet must win")

        def adapt(function_name, args, kwargs):
            calls.append(function_name)
            if "old_identifier" in kwargs:
                warnings.warn("old_identifier is old", DeprecationWarning, stacklevel=3)
                kwargs = dict(kwargs)
                kwargs["stimulus_set_identifier"] = kwargs.pop("old_identifier")
            return args, kwargs
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    finder = _FakeFinder(_FakeDistribution({
        NAMES_GROUP: {"brainio.fake_lookup": f"{module}:fake_lookup",
                      "brainio.fetch.fake_lookup": f"{module}:fake_lookup",
                      "brainio.StimulusSet": f"{module}:not_a_stimulus_set"},
        PACKAGING_ADAPTERS_GROUP: {"fake": f"{module}:adapt"},
    }))
    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, finder])
    yield importlib.import_module(module)
    sys.modules.pop(module, None)


def test_names_come_from_installed_distributions_and_never_shadow_brainios_own(extension):
    assert brainio.fake_lookup("x") == "looked up x"
    assert brainio.fetch.fake_lookup("y") == "looked up y"
    assert brainio.StimulusSet.__module__ == "brainio.stimuli"
    assert "fake_lookup" not in vars(brainio) and "fake_lookup" not in vars(brainio.fetch)  # looked up, not stored


def test_a_name_no_distribution_adds_is_an_attribute_error_naming_module_and_name():
    with pytest.raises(AttributeError, match=r"module 'brainio' has no attribute 'fake_lookup'"):
        brainio.fake_lookup  # noqa: B018
    with pytest.raises(AttributeError, match=r"module 'brainio.fetch' has no attribute 'fake_lookup'"):
        brainio.fetch.fake_lookup  # noqa: B018


def test_packaging_adapters_see_every_call_and_the_functions_stay_brainios(extension, stimulus_set, tmp_path):
    function = brainio.packaging.package_stimulus_set_locally
    assert brainio.package_stimulus_set_locally is function
    with pytest.warns(DeprecationWarning, match="old_identifier is old") as caught:
        result = function(stimulus_set, old_identifier="Fake.stimuli", downloads_path=tmp_path)
    assert result["identifier"] == "Fake.stimuli"
    assert extension.calls == ["package_stimulus_set_locally"]
    assert caught[0].filename == __file__  # the adapter's warning points at this line, the caller's
    assert brainio.packaging.package_stimulus_set_locally is function  # nothing was replaced


def test_without_an_adapter_for_it_an_old_keyword_is_refused(stimulus_set, tmp_path):
    with warnings.catch_warnings(), pytest.raises(TypeError, match="old_identifier"):
        warnings.simplefilter("ignore", DeprecationWarning)
        brainio.packaging.package_stimulus_set_locally(stimulus_set, old_identifier="Fake.stimuli",
                                                       downloads_path=tmp_path)


def test_without_the_legacy_distribution_brainio_2021_lookups_say_how_to_get_them(monkeypatch):
    import brainio.extensions

    monkeypatch.setattr(brainio.extensions, "entry_points", lambda **selection: [])  # as if nothing adds names
    with pytest.raises(AttributeError, match=r"brainio\.get_assembly is brainio 2021's API, which the opt-in "
                                             r"brainscore-legacy distribution adds: .*brainscore_vision\.load_dataset"):
        brainio.get_assembly  # noqa: B018
