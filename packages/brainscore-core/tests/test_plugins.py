"""Plugin discovery through entry points, with fake distributions fed to importlib.metadata (fast)."""

from __future__ import annotations

import sys
import threading

import pluggy
import pytest

from brainscore_core.errors import (
    DuplicateIdentifierError,
    InvalidPluginError,
    PluginLoadError,
    UnknownIdentifierError,
    UnknownKindError,
)
from brainscore_core.hookspecs import HOOK_KINDS
from brainscore_core.plugins import Domain

ASSIGNMENT_STYLE = """
    from DOMAIN import benchmark_registry, data_registry
    CALLS = []

    def _make_benchmark():
        CALLS.append("benchmark")
        return "the benchmark"

    benchmark_registry['Fake2024.IT-pls'] = _make_benchmark
    data_registry['Fake2024'] = lambda: "the assembly"
"""

HOOK_STYLE = """
    from brainscore_core import hookimpl
    HOOK_CALLS = []

    class _Metric:
        def __init__(self, *args, **kwargs):
            self.args, self.kwargs = args, kwargs

    @hookimpl
    def brainscore_metrics():
        HOOK_CALLS.append("metrics")
        return {'fake_pls': _Metric, 'shared_ceiling': lambda: 'metric version'}

    @hookimpl
    def brainscore_ceilings():
        return {'fake_consistency': lambda: 'the ceiling', 'shared_ceiling': lambda: 'ceiling version'}

    @hookimpl
    def brainscore_stimulus_sets():
        return {'FakeStimuli': lambda: 'the stimuli'}

    @hookimpl
    def brainscore_models():
        return {'fake_model': lambda: 'the model'}

    @hookimpl
    def brainscore_data():
        return {'FakeData': lambda: 'hook assembly'}

    @hookimpl
    def brainscore_benchmarks():
        return {'FakeHook.V4-rdm': lambda: 'hook benchmark'}
"""


def test_assignment_style_plugin_is_found_through_its_entry_point(world):
    module = world.add_plugin("fake-benchmarks", ASSIGNMENT_STYLE, version="2.5")
    assert world.module.load_benchmark("Fake2024.IT-pls") == "the benchmark"
    assert world.module.load_dataset("Fake2024") == "the assembly"
    info = world.domain.benchmark_registry.source("Fake2024.IT-pls")
    assert (info.distribution, info.version, info.module) == ("fake-benchmarks", "2.5", module)


def test_factories_are_called_only_by_load(world):
    module = world.add_plugin("fake-benchmarks", ASSIGNMENT_STYLE)
    assert "Fake2024.IT-pls" in world.module.benchmark_registry  # discovery imports the module ...
    assert sys.modules[module].CALLS == []                       # ... but calls no factory
    world.module.load_benchmark("Fake2024.IT-pls")
    assert sys.modules[module].CALLS == ["benchmark"]


def test_hook_style_plugin_fills_every_kind(world):
    module = world.add_plugin("fake-hooks", HOOK_STYLE)
    metric = world.module.load_metric("fake_pls", 3, crossvalidation_kwargs={"stratification_coord": "x"})
    assert metric.args == (3,) and metric.kwargs == {"crossvalidation_kwargs": {"stratification_coord": "x"}}
    assert world.module.load_stimulus_set("FakeStimuli") == "the stimuli"
    assert world.module.load_model("fake_model") == "the model"
    assert world.module.load_dataset("FakeData") == "hook assembly"
    assert world.module.load_benchmark("FakeHook.V4-rdm") == "hook benchmark"
    assert world.module.load_ceiling("fake_consistency") == "the ceiling"
    # load_ceiling looks among ceilings first, then among metrics
    assert world.module.load_ceiling("shared_ceiling") == "ceiling version"
    assert world.module.load_ceiling("fake_pls").args == ()
    kinds = {info.kind for info in world.module.list_plugins()}
    assert kinds == set(HOOK_KINDS)
    assert {info.module for info in world.module.list_plugins()} == {module}


def test_discovery_runs_once(world):
    module = world.add_plugin("fake-hooks", HOOK_STYLE)
    for _ in range(3):
        list(world.module.metric_registry)
        world.module.load_model("fake_model")
    assert sys.modules[module].HOOK_CALLS == ["metrics"]


def test_concurrent_first_reads_discover_once(world):
    module = world.add_plugin("fake-hooks", HOOK_STYLE)
    results = []
    threads = [threading.Thread(target=lambda: results.append(len(world.module.metric_registry)))
               for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [2] * 8
    assert sys.modules[module].HOOK_CALLS == ["metrics"]


def test_duplicate_identifier_names_both_distributions_and_modules(world):
    first = world.add_plugin("first-dist", ASSIGNMENT_STYLE, version="1.0")
    second = world.add_plugin("second-dist", ASSIGNMENT_STYLE, version="3.1")
    with pytest.raises(DuplicateIdentifierError) as error:
        world.module.load_benchmark("Fake2024.IT-pls")
    message = str(error.value)
    for name in ("first-dist", "second-dist", "1.0", "3.1", first, second, "Fake2024"):
        assert name in message
    assert isinstance(error.value, ValueError)


def test_duplicate_between_hook_and_assignment(world):
    world.add_plugin("hooks-dist", HOOK_STYLE)
    world.add_plugin("assign-dist", """
        from DOMAIN import model_registry
        model_registry['fake_model'] = lambda: 'other model'
    """)
    with pytest.raises(DuplicateIdentifierError, match="hooks-dist.*assign-dist|assign-dist.*hooks-dist"):
        world.module.load_model("fake_model")


def test_reassignment_by_the_same_module_is_not_a_duplicate(world):
    world.add_plugin("fake-dist", """
        from DOMAIN import model_registry
        model_registry['m'] = lambda: 'first'
        model_registry['m'] = lambda: 'second'
    """)
    assert world.module.load_model("m") == "second"


def test_unknown_identifier_lists_close_matches(world):
    world.add_plugin("fake-benchmarks", ASSIGNMENT_STYLE)
    with pytest.raises(UnknownIdentifierError) as error:
        world.module.load_benchmark("Fake2024.IT-plss")
    assert isinstance(error.value, KeyError)
    assert error.value.close_matches == ["Fake2024.IT-pls"]
    assert "'Fake2024.IT-pls'" in str(error.value) and "benchmark" in str(error.value)
    with pytest.raises(UnknownIdentifierError, match="no similar identifier"):
        world.module.load_benchmark("zzzzzzzzzzzz")
    assert world.module.benchmark_registry.get("nope") is None


def test_plugin_reading_a_registry_while_discovered_does_not_recurse(world):
    world.add_plugin("a-dist", ASSIGNMENT_STYLE)
    world.add_plugin("b-dist", """
        from DOMAIN import benchmark_registry, list_plugins
        SEEN = sorted(benchmark_registry)      # read during discovery: a partial view, no recursion
        PLUGINS = list_plugins('benchmarks')
        benchmark_registry['Reader-bench'] = lambda: 'reader'
    """)
    assert world.module.load_benchmark("Reader-bench") == "reader"
    assert sorted(world.module.benchmark_registry) == ["Fake2024.IT-pls", "Reader-bench"]


def test_autoload_switch_restricts_to_explicit_plugins(world, monkeypatch):
    module = world.add_plugin("fake-benchmarks", ASSIGNMENT_STYLE)
    monkeypatch.setenv("BRAINSCORE_DISABLE_PLUGIN_AUTOLOAD", "1")
    world.module.benchmark_registry["Explicit-bench"] = lambda: "explicit"
    assert sorted(world.module.benchmark_registry) == ["Explicit-bench"]
    assert module not in sys.modules
    info = world.domain.benchmark_registry.source("Explicit-bench")
    assert info.distribution is None and info.module == __name__


@pytest.mark.parametrize(("value", "disabled"), [("1", True), ("true", True), ("yes", True), ("on", True),
                                                  ("0", False), ("off", False), ("false", False), ("no", False),
                                                  ("", False)])
def test_autoload_switch_reads_one_flag_rule(world, monkeypatch, value, disabled):
    # before issue 32 the switch had its own rule: '=off' (and '=OFF', '=disabled') disabled autoload
    world.add_plugin("fake-benchmarks", ASSIGNMENT_STYLE)
    monkeypatch.setenv("BRAINSCORE_DISABLE_PLUGIN_AUTOLOAD", value)
    assert sorted(world.module.benchmark_registry) == ([] if disabled else ["Fake2024.IT-pls"])


def test_autoload_switch_with_named_plugins(world, monkeypatch):
    module = world.add_plugin("fake-benchmarks", ASSIGNMENT_STYLE)
    world.add_plugin("other", HOOK_STYLE)
    monkeypatch.setenv("BRAINSCORE_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.setenv("BRAINSCORE_PLUGINS", module)
    assert sorted(world.module.benchmark_registry) == ["Fake2024.IT-pls"]
    assert world.domain.benchmark_registry.source("Fake2024.IT-pls").distribution == "fake-benchmarks"
    assert len(world.module.metric_registry) == 0


def test_register_plugin_explicitly_before_and_after_discovery(world, monkeypatch):
    monkeypatch.setenv("BRAINSCORE_DISABLE_PLUGIN_AUTOLOAD", "1")
    before = world.write_module(world.unique("explicit"), HOOK_STYLE)
    import importlib

    world.domain.register_plugin(importlib.import_module(before))
    assert world.module.load_model("fake_model") == "the model"

    from types import SimpleNamespace

    from brainscore_core import hookimpl

    late_plugin = SimpleNamespace(brainscore_models=hookimpl(lambda: {"late_model": lambda: "late"}))
    world.domain.register_plugin(late_plugin, name="late")
    assert world.module.load_model("late_model") == "late"


def test_broken_plugin_names_its_distribution(world):
    world.add_plugin("broken-dist", "raise RuntimeError('no such thing')\n")
    with pytest.raises(PluginLoadError, match="broken-dist.*no such thing"):
        world.module.load_model("x")
    with pytest.raises(PluginLoadError):  # the failure is sticky, not a silently half-filled registry
        list(world.module.model_registry)


def test_unknown_hook_is_refused_by_check_pending(world):
    world.add_plugin("typo-dist", """
        from brainscore_core import hookimpl

        @hookimpl
        def brainscore_benchmark():   # typo: the spec is brainscore_benchmarks
            return {}
    """)
    with pytest.raises(pluggy.PluginValidationError, match="brainscore_benchmark"):
        list(world.module.benchmark_registry)


def test_hook_returning_a_non_mapping_is_refused(world):
    world.add_plugin("bad-dist", """
        from brainscore_core import hookimpl

        @hookimpl
        def brainscore_models():
            return ['not', 'a', 'mapping']
    """)
    with pytest.raises(InvalidPluginError, match="brainscore_models.*bad-dist"):
        list(world.module.model_registry)


def test_non_callable_factory_is_refused(world):
    with pytest.raises(InvalidPluginError, match="'x'.*callable"):
        world.module.model_registry["x"] = "not callable"


def test_list_plugins_kinds(world):
    world.add_plugin("fake-benchmarks", ASSIGNMENT_STYLE, version="0.3")
    rows = world.module.list_plugins("benchmark")
    assert [(r.identifier, r.distribution, r.version) for r in rows] == [("Fake2024.IT-pls", "fake-benchmarks", "0.3")]
    assert world.module.list_plugins("benchmarks") == rows
    assert [r.identifier for r in world.module.list_plugins("dataset")] == ["Fake2024"]
    with pytest.raises(UnknownKindError, match="benchmark"):
        world.module.list_plugins("bench")


def test_assignment_before_discovery_is_attributed_to_its_distribution(world):
    module = world.add_plugin("early-dist", ASSIGNMENT_STYLE, version="4.0")
    __import__(module)  # imported by user code before any registry read
    assert world.domain.benchmark_registry.source("Fake2024.IT-pls").distribution == "early-dist"


def test_score_sets_identifiers_and_layer_comment(world):
    calls = []

    class Model:
        layer_map = {"IT": "features.12"}

    class Benchmark:
        def preallocate_memory(self, candidate):
            calls.append("preallocate")

        def __call__(self, candidate):
            calls.append("call")
            from brainscore_core import Score
            return Score(0.25)

    world.module.model_registry["m"] = Model
    world.module.benchmark_registry["b"] = Benchmark
    from brainscore_core.scoring import score

    result = score(world.domain, "m", "b", store=False)
    assert calls == ["preallocate", "call"]
    assert float(result) == 0.25
    assert result.attrs["model_identifier"] == "m" and result.attrs["benchmark_identifier"] == "b"
    assert result.attrs["comment"] == "layers: {'IT': 'features.12'}"


def test_score_without_layer_map_sets_no_comment(world):
    from brainscore_core import Score

    world.module.model_registry["m"] = object
    world.module.benchmark_registry["b"] = lambda: (lambda candidate: Score(0.5))
    from brainscore_core.scoring import score

    assert "comment" not in score(world.domain, "m", "b", store=False).attrs


def test_domains_are_independent(world):
    world.add_plugin("fake-benchmarks", ASSIGNMENT_STYLE)
    other = Domain(world.group + "_other")
    assert len(other.benchmark_registry) == 0
    assert "Fake2024.IT-pls" in world.domain.benchmark_registry


def test_every_kind_has_a_documented_typed_hook():
    import inspect

    from brainscore_core import hookspecs

    for kind, hook_name in HOOK_KINDS.items():
        hook = getattr(hookspecs, hook_name)
        assert "Called once" in inspect.getdoc(hook) and "factory" in inspect.getdoc(hook), kind
        assert "Mapping[str, Callable" in str(inspect.signature(hook).return_annotation), kind
        assert not inspect.signature(hook).parameters


def test_reset_forgets_registrations(world):
    world.module.model_registry["m"] = object
    assert "m" in world.module.model_registry
    world.domain.reset()
    assert "m" not in world.module.model_registry


def test_errors_survive_pickling():
    import pickle

    from brainscore_core.plugins import PluginInfo

    unknown = UnknownIdentifierError("benchmark", "X", ["Y"], group="g", n_registered=3)
    assert str(pickle.loads(pickle.dumps(unknown))) == str(unknown)
    first = PluginInfo("model", "m", "a", "1", "mod_a")
    duplicate = DuplicateIdentifierError("model", "m", first, PluginInfo("model", "m", "b", "2", "mod_b"))
    restored = pickle.loads(pickle.dumps(duplicate))
    assert str(restored) == str(duplicate) and restored.first == first


def test_plugin_layers_use_only_each_others_public_interface():
    # plugins.Domain, _registry.Registry and _catalog.PluginCatalog talk through public methods (factory, contains,
    # registered_origins, store, register_factory, ...): a private member is read only on self/cls
    import ast
    from pathlib import Path

    import brainscore_core

    allowed = {("sys", "_getframe")}
    crossings = []
    for name in ("_catalog.py", "_registry.py", "plugins.py"):
        tree = ast.parse((Path(brainscore_core.__file__).parent / name).read_text())
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")):
                continue
            owner = node.value.id if isinstance(node.value, ast.Name) else None
            if owner not in ("self", "cls") and (owner, node.attr) not in allowed:
                crossings.append(f"{name}:{node.lineno} {ast.unparse(node)}")
    assert crossings == []


def _imports(path):
    """Every brainscore_core module a file imports, at module level or inside functions (TYPE_CHECKING too)."""
    import ast

    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("brainscore_core"):
            found |= {f"{node.module}.{alias.name}" if node.module == "brainscore_core" else node.module
                      for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.startswith("brainscore_core")}
    return found


def test_the_plugin_layers_point_down_and_the_domain_does_not_score():
    # issue 32: the registry finds and loads, one scoring module scores; Domain -> Registry -> PluginCatalog, and
    # neither of the lower two imports (or calls by name) one above it
    from pathlib import Path

    import brainscore_core
    from brainscore_core.plugins import Domain

    folder = Path(brainscore_core.__file__).parent
    above = {"_catalog.py": {"brainscore_core._registry", "brainscore_core.plugins", "brainscore_core.scoring",
                             "brainscore_core.grid"},
             "_registry.py": {"brainscore_core.plugins", "brainscore_core.scoring", "brainscore_core.grid"}}
    for name, forbidden in above.items():
        assert _imports(folder / name) & forbidden == set(), name
    assert "brainscore_core.plugins" not in _imports(folder / "scoring.py") | _imports(folder / "grid.py")  # no tie
    assert not hasattr(Domain, "score") and not hasattr(Domain, "score_many")
    # issue 44, part 5: nothing of the plugin layer reaches up to scoring, not even bound for a namespace
    assert not hasattr(Domain, "exports") and not (folder / "_domain_scoring.py").exists()
    for name in ("plugins.py", "_catalog.py", "_registry.py", "_entry_plugins.py", "_plugin_index.py", "_domains.py"):
        assert not {m for m in _imports(folder / name) if m.startswith(("brainscore_core.scoring", "brainscore_core.grid",
                                                                       "brainscore_core._domain_scoring"))}, name


def test_a_domain_travels_by_its_group(world):
    # what a Dask task does with the domain it carries: the worker finds its own domain of that group
    import pickle

    from brainscore_core.errors import UnknownDomainError
    from brainscore_core.plugins import find_domain

    assert pickle.loads(pickle.dumps(world.domain)) is world.domain
    assert find_domain(world.group) is world.domain
    with pytest.raises(UnknownDomainError, match="no_such_domain_group_bs32"):
        find_domain("no_such_domain_group_bs32")
