"""The plugin battery (brainscore_vision.testing) over every registered plugin, discovered from the registries (as
scikit-learn's test_common.py discovers estimators): a new benchmark, model, data set, stimulus set, metric or ceiling
is covered without editing this file, and families are the modules that register benchmarks.

Benchmarks are scored with randomnet (the registered model; the images of each stimulus set pass through it once per
test session, shared with the families' own tests through the activations cache); models look at 3 stimuli of
Kriegeskorte 2008 (aliases of a zoo model are checked under its name); stimulus sets have the files of their first
ten stimuli checked. Plugins whose data come from Brain-Score's bucket or from unset local folders are skipped with
the reason, under the kind their data need gives (brainscore_vision.testing.NEED_SKIP_KINDS over benchmark_data's
markers; counted in the run's skip summary; test_public_reference_benchmarks.py, test_newest_families.py and
test_laion_fmri.py cover them on a local S3 server or synthetic stand-ins)."""

from __future__ import annotations

import json
import pkgutil
import re
from pathlib import Path

import pytest

import brainscore_vision
from brainio.skipping import SKIP_REASONS, skip
from brainscore_vision.benchmark_data import data_need, plugin_data_need
from brainscore_vision.report.aggregate import STANDARD_PARENTS
from brainscore_vision.testing import KINDS, NEED_SKIP_KINDS, check_plugins, plugin_checks

#: benchmarks score the battery's default candidate, registered randomnet: the real-data tests of the families
#: (test_end_to_end, test_geirhos2021, test_marques2020_benchmarks, test_coggan2024, ...) score it too, and the
#: activations cache of the test session serves the images each of them already passed through it
CHECKS = plugin_checks()


@pytest.mark.parametrize("check", CHECKS, ids=str)
def test_plugin_battery(check, raw_data_dir):
    if check.skip_reason:
        skip(check.skip_kind, check.skip_reason)
    check()


def test_battery_skips_are_what_the_data_need_declares():
    """A skip's kind comes from the plugin's data need (benchmark_data), never from its identifier; shipped data are
    never skipped by the battery, and no battery skip is one CI would turn into a failure."""
    for check in CHECKS:
        if check.kind in ("data", "stimulus_set", "benchmark"):
            need, _ = plugin_data_need(check.kind, check.identifier, _MODULES.get((check.kind, check.identifier)))
            assert check.skip_kind in (None, NEED_SKIP_KINDS.get(need)), (str(check), need, check.skip_kind)
            assert need != "shipped" or check.skip_kind is None, str(check)
        assert check.skip_kind is None or not SKIP_REASONS[check.skip_kind].required, str(check)
        assert (check.skip_kind is None) == (check.skip_reason is None), str(check)


def test_every_kind_is_covered():
    covered = {check.kind for check in CHECKS}
    assert covered == set(KINDS), sorted(set(KINDS) - covered)


_MODULES = {(info.kind, info.identifier): info.module for kind in KINDS for info in brainscore_vision.list_plugins(kind)}


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


def _recorded_identifiers() -> tuple[dict[str, str], set[str]]:
    """Benchmark identifiers that Brain-Score's own code reported in the recorded references (``tests/data/*.json``):
    by registry key where a file keys them so, and all of them."""
    by_key: dict[str, str] = {}
    every: set[str] = set()

    def walk(node, key=None):
        if isinstance(node, dict):
            if isinstance(node.get("identifier"), str):
                every.add(node["identifier"])
                if key is not None:
                    by_key[key] = node["identifier"]
            for child_key, child in node.items():
                walk(child, child_key)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    for path in sorted((Path(__file__).parent / "data").glob("*.json")):
        walk(json.loads(path.read_text()))
    return by_key, every


RECORDED_BY_KEY, RECORDED_IDENTIFIERS = _recorded_identifiers()


def _same_family(key: str, identifier: str) -> bool:
    """Brain-Score's benchmarks may carry another identifier than their registry key (``MajajHong2015public.IT-pls`` ->
    ``MajajHong2015.IT.public-pls``), always naming the same study (the author-year stem of the key)."""
    stem = re.match(r"[A-Za-z]+\d{4}", key)
    return stem is not None and stem[0] in identifier


@pytest.mark.parametrize("identifier", [check.identifier for check in CHECKS
                                        if check.kind == "benchmark" and check.skip_kind is not None])
def test_benchmarks_the_battery_skips_build_offline(identifier):
    """Benchmarks on data the battery cannot reach are built without reading anything (their data load on first
    use). Their identifier is the registry key, or the one Brain-Score's code reported for that key where a recorded
    reference has it, or (Brain-Score's renames) one of the same study or recorded from Brain-Score's code."""
    benchmark = brainscore_vision.load_benchmark(identifier)
    if identifier in RECORDED_BY_KEY:
        assert benchmark.identifier == RECORDED_BY_KEY[identifier]
    else:
        assert benchmark.identifier == identifier or _same_family(identifier, benchmark.identifier) or \
            benchmark.identifier in RECORDED_IDENTIFIERS, (identifier, benchmark.identifier)
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
               PluginCheck("data", "remote", "mine", skip_kind="network",
                           skip_reason="its data come from Brain-Score's public bucket"),
               PluginCheck("model", "broken", "mine", _run=fails("IT: responses are not finite"))]
    monkeypatch.setattr(battery, "plugin_checks", lambda *args, **kwargs: planted)
    with pytest.raises(AssertionError) as error:
        check_plugins("mine")
    assert str(error.value).splitlines() == [
        "2 of 4 plugin checks failed:", "benchmark:bad.IT-pls: AssertionError: ceiling changed between two reads",
        "model:broken: AssertionError: IT: responses are not finite"]
    monkeypatch.setattr(battery, "plugin_checks", lambda *args, **kwargs: planted[:3:2])
    assert check_plugins("mine") == {"metric:good": "passed",
                                     "data:remote": "skipped: [network] its data come from Brain-Score's public bucket"}
    monkeypatch.setattr(battery, "plugin_checks", lambda *args, **kwargs: [])
    with pytest.raises(AssertionError, match="no plugin of distribution 'not-installed'"):
        check_plugins("not-installed")
