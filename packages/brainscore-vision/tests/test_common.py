"""The plugin battery (brainscore_vision.testing) over every registered plugin, discovered from the registries (as
scikit-learn's test_common.py discovers estimators): a new benchmark, model, data set, stimulus set, metric or ceiling
is covered without editing this file, and families are the modules that register benchmarks.

Benchmarks are scored with randomnet (the registered model; the images of each stimulus set pass through it once per
test session, shared with the families' own tests through the activations cache); models look at 3 stimuli of
Kriegeskorte 2008 (aliases of a zoo model are checked under its name); stimulus sets have the files of their first
ten stimuli checked. Plugins whose data come from Brain-Score's bucket or from unset local folders are skipped with
the reason (test_public_reference_benchmarks.py, test_newest_families.py and test_laion_fmri.py cover them on a local
S3 server or synthetic stand-ins)."""

from __future__ import annotations

import pkgutil
import re

import pytest

import brainscore_vision
from brainscore_vision.benchmark_data import data_need, plugin_data_need
from brainscore_vision.report.aggregate import STANDARD_PARENTS
from brainscore_vision.testing import KINDS, check_plugins, plugin_checks

#: benchmarks score the battery's default candidate, registered randomnet: the real-data tests of the families
#: (test_end_to_end, test_geirhos2021, test_marques2020_benchmarks, test_coggan2024, ...) score it too, and the
#: activations cache of the test session serves the images each of them already passed through it
CHECKS = plugin_checks()


@pytest.mark.parametrize("check", CHECKS, ids=str)
def test_plugin_battery(check, raw_data_dir):
    if check.skip_reason:
        pytest.skip(check.skip_reason)
    check()


def test_every_kind_is_covered():
    covered = {check.kind for check in CHECKS}
    assert covered == set(KINDS), sorted(set(KINDS) - covered)


# -- families: the modules that register benchmarks ---------------------------------------------------------------
OWN_BENCHMARKS = [info for info in brainscore_vision.list_plugins("benchmark") if info.distribution ==
                  "brainscore-vision"]
FAMILIES = sorted({info.module for info in OWN_BENCHMARKS})


def test_every_benchmark_folder_is_a_registered_family():
    """Every family folder under brainscore_vision/benchmarks registers benchmarks (re-export packages aside)."""
    import brainscore_vision.benchmarks as benchmarks

    folders = {f"brainscore_vision.benchmarks.{module.name}" for module in pkgutil.iter_modules(benchmarks.__path__)
               if module.ispkg}
    registered = {family for family in FAMILIES if family.startswith("brainscore_vision.benchmarks.")}
    assert registered <= folders
    # Brain-Score's import paths of the public-reference families: their benchmarks are registered by
    # benchmarks.public_reference, these folders only re-export its classes under Brain-Score's module names
    reexports = {f"brainscore_vision.benchmarks.{name}" for name in ("majajhong2015", "freemanziemba2013",
                                                                    "rajalingham2018")}
    assert folders - registered == reexports, sorted(folders - registered)


@pytest.mark.parametrize("family", FAMILIES)
def test_family_knows_its_data_and_parents(family):
    """Each family's benchmarks say where their data come from, cite, and sit under a leaderboard parent."""
    members = [info.identifier for info in OWN_BENCHMARKS if info.module == family]
    assert members
    unknown = [identifier for identifier in members if data_need(identifier)[0] == "?"]
    assert not unknown, f"{family}: its plugin declares no DATA_NEEDS for {unknown}"
    for identifier in members:
        if data_need(identifier)[0] not in ("shipped", "unavailable"):
            continue  # loading these reads nothing yet, but their parents come from their data
        benchmark = brainscore_vision.load_benchmark(identifier)
        assert benchmark.bibtex and benchmark.bibtex.lstrip().startswith("@"), identifier
        assert benchmark.parent in ("V1", "V2", "V4", "IT", "behavior") or STANDARD_PARENTS.get(
            benchmark.parent) in ("V1", "behavior"), (identifier, benchmark.parent)


#: Brain-Score's registry keys whose benchmark has another ``.identifier`` (e.g. ``Lonnqvist2024_EngineeringAccuracy`` ->
#: ``Lonnqvist2024-engineering_accuracy``), one pattern a line: only the identifier's difference is checked
KEYS_WITH_OTHER_IDENTIFIERS = (
    r"Lonnqvist2024_",
    r"Scialom2024_",
)

#: registry keys whose benchmark carries another identifier, as in Brain-Score's code (one line per family)
IDENTIFIER_OF_KEY = (
    (r"Cadena2017-mask$", lambda match: "tolias.Cadena2017-mask"),
    (r"Igustibagus2024\.IT_readout-accuracy$", lambda match: "Igustibagus2024-IT_accuracy"),
    (r"Malania2007\.(\w+)-threshold_elevation$", lambda match: f"Malania2007.{match[1]}"),
    (r"Islam2021-(shape|texture)_(v1|v2|v4|it)_dimensionality$",
     lambda match: f"Islam2021-{match[2].upper()}_{match[1]}_dimensionality"),
    (r"ObjectNet-top1$", lambda match: "BarbuMayo2019-top1"),
)


def _identifier_of_key(key: str) -> str:
    for pattern, identifier in IDENTIFIER_OF_KEY:
        match = re.match(pattern, key)
        if match:
            return identifier(match)
    return key


@pytest.mark.parametrize("identifier", [info.identifier for info in OWN_BENCHMARKS if data_need(info.identifier)[0] in (
    "network", "local", "network+local", "credentials", "private") and not info.identifier.startswith(("MajajHong", "FreemanZiemba",
                                                                            "Rajalingham"))])
def test_benchmarks_the_battery_skips_build_offline(identifier):
    """Benchmarks on data the battery cannot reach are built without reading anything (their data load on first
    use); the public-reference ones read their bucket's catalogue when built (test_public_reference_benchmarks.py)."""
    benchmark = brainscore_vision.load_benchmark(identifier)
    assert benchmark.identifier == _identifier_of_key(identifier) or any(
        re.match(key, identifier) for key in KEYS_WITH_OTHER_IDENTIFIERS)
    assert benchmark.bibtex and benchmark.bibtex.lstrip().startswith("@")
    assert isinstance(benchmark.version, int) and callable(benchmark)


def test_every_data_and_stimulus_plugin_has_a_known_source():
    for kind in ("data", "stimulus_set"):
        for info in brainscore_vision.list_plugins(kind):
            if info.distribution == "brainscore-vision":
                assert plugin_data_need(kind, info.identifier, info.module)[0] != "?", (kind, info)


# -- the one call a plugin author makes ---------------------------------------------------------------------------
def test_check_plugins_runs_a_distributions_battery_in_one_call(raw_data_dir):
    """What a plugin author runs: every plugin of one distribution (here the ceilings of brainscore-metrics; the
    whole distribution runs in test_plugin_battery), one outcome each."""
    outcomes = check_plugins("brainscore-metrics", kinds=("ceiling",))
    assert outcomes == {f"ceiling:{info.identifier}": "passed" for info in brainscore_vision.list_plugins("ceiling")}


def test_check_plugins_lists_every_failure(monkeypatch):
    import brainscore_vision.testing as battery
    from brainscore_vision.testing import PluginCheck

    def fails(message):
        def run():
            raise AssertionError(message)
        return run

    planted = [PluginCheck("metric", "good", "mine", _run=lambda: None),
               PluginCheck("benchmark", "bad.IT-pls", "mine", _run=fails("ceiling changed between two reads")),
               PluginCheck("data", "remote", "mine", skip_reason="its data come from Brain-Score's public bucket"),
               PluginCheck("model", "broken", "mine", _run=fails("IT: responses are not finite"))]
    monkeypatch.setattr(battery, "plugin_checks", lambda *args, **kwargs: planted)
    with pytest.raises(AssertionError) as error:
        check_plugins("mine")
    assert str(error.value).splitlines() == [
        "2 of 4 plugin checks failed:", "benchmark:bad.IT-pls: AssertionError: ceiling changed between two reads",
        "model:broken: AssertionError: IT: responses are not finite"]
    monkeypatch.setattr(battery, "plugin_checks", lambda *args, **kwargs: planted[:3:2])
    assert check_plugins("mine") == {"metric:good": "passed",
                                     "data:remote": "skipped: its data come from Brain-Score's public bucket"}
    monkeypatch.setattr(battery, "plugin_checks", lambda *args, **kwargs: [])
    with pytest.raises(AssertionError, match="no plugin of distribution 'not-installed'"):
        check_plugins("not-installed")
