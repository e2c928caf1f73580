"""What data a plugin's benchmarks, data and stimulus sets need, as the plugin declares it (issue 44, part 5): a
``DATA_NEEDS`` in its module (a need, a mapping, a function) or a ``data_need`` field on a factory, read after import
and kept in the plugin index, never read from the plugin's text."""

from __future__ import annotations

import pytest

from brainscore_core.data_needs import NEEDS, declared_need, parse_need
from brainscore_core.errors import InvalidPluginError

MIXED = """
    from DOMAIN import benchmark_registry, data_registry, metric_registry, stimulus_set_registry

    def _shipped():
        return "benchmark"

    def _by_reference():
        return "stimulus set"

    _by_reference.data_need = "private"  # a field on the registration wins over the module's declaration

    def DATA_NEEDS(kind, identifier):
        if identifier.startswith("Local"):
            return "local:nsd"
        return "shipped" if kind != "stimulus_set" else None

    benchmark_registry["Shipped.IT-pls"] = _shipped
    benchmark_registry["Local.IT-pls"] = _shipped
    stimulus_set_registry["Shipped"] = _by_reference
    stimulus_set_registry["Undeclared"] = lambda: "stimulus set"
    data_registry["Shipped"] = _shipped
    metric_registry["pls"] = _shipped  # metrics need no data
"""


def test_every_declaration_form(world):
    world.add_plugin("mixed-dist", MIXED)
    world.add_plugin("one-need-dist", """
        from DOMAIN import benchmark_registry
        DATA_NEEDS = "credentials"
        benchmark_registry["Lab2030.IT-pls"] = lambda: "benchmark"
    """)
    world.add_plugin("mapping-dist", """
        from DOMAIN import benchmark_registry
        DATA_NEEDS = {"Lab2031.V4-pls": "network+local:things"}
        benchmark_registry["Lab2031.V4-pls"] = lambda: "benchmark"
        benchmark_registry["Lab2031.IT-pls"] = lambda: "benchmark"
    """)
    world.add_plugin("silent-dist", """
        from DOMAIN import benchmark_registry
        benchmark_registry["Silent.IT-pls"] = lambda: "benchmark"
    """)
    need = world.domain.data_need
    assert [need("benchmark", name) for name in ("Shipped.IT-pls", "Local.IT-pls", "Lab2030.IT-pls",
                                                "Lab2031.V4-pls", "Lab2031.IT-pls", "Silent.IT-pls")] == [
        "shipped", "local:nsd", "credentials", "network+local:things", None, None]
    assert need("stimulus_set", "Shipped") == "private" and need("stimulus_set", "Undeclared") is None
    assert need("data", "Shipped") == "shipped" and need("metric", "pls") is None
    assert need("benchmark", "NoSuch.IT-pls") is None  # not registered: nothing to say


def test_the_registering_module_is_asked_before_the_plugin(world):
    helper = world.unique("helper")
    world.write_module(helper, """
        from DOMAIN import benchmark_registry
        DATA_NEEDS = {"Helper.IT-pls": "network"}  # what it registers for its plugin, it knows best
        benchmark_registry["Helper.IT-pls"] = lambda: "benchmark"
        benchmark_registry["Helper.V4-pls"] = lambda: "benchmark"  # not declared here: the plugin's
    """)
    world.add_plugin("helped-dist", f"""
        import {helper}
        DATA_NEEDS = "shipped"
    """)
    assert world.domain.data_need("benchmark", "Helper.IT-pls") == "network"
    assert world.domain.data_need("benchmark", "Helper.V4-pls") == "shipped"


@pytest.mark.parametrize(("declaration", "message"), [
    ('"somewhere"', r"benchmark 'Bad.IT-pls' of plugin 'plugin_\w+': data need 'somewhere' is not one of shipped"),
    ('"local"', r"data need 'local': name the local folder after a colon"),
    ('"shipped:raw"', r"data need 'shipped:raw': takes no folder"),
    ("42", r"DATA_NEEDS must be a need, a mapping .* got int"),
])
def test_a_bad_declaration_names_the_plugin_and_the_identifier(world, declaration, message):
    world.add_plugin("bad-dist", f"""
        from DOMAIN import benchmark_registry
        DATA_NEEDS = {declaration}
        benchmark_registry["Bad.IT-pls"] = lambda: "benchmark"
    """)
    with pytest.raises(InvalidPluginError, match=message):
        world.domain.data_need("benchmark", "Bad.IT-pls")


def test_parse_need():
    assert [parse_need(need) for need in ("shipped", "local:nsd", "network+local:things")] == [
        ("shipped", None), ("local", "nsd"), ("network+local", "things")]
    assert len(NEEDS) == 7
    with pytest.raises(ValueError, match="is not one of"):
        parse_need("offline")
    assert declared_need("model", "alexnet", None, None) is None


def test_the_plugin_text_scan_stays_in_the_compatibility_wing():
    # issue 44, part 5: Brain-Score's plugin folders are found by reading their __init__.py for registry assignments
    # (plugin_folders.py, the compatibility wing); nothing else reads a plugin's text to learn what it registers or
    # needs, and no table of identifier patterns says what a benchmark needs (benchmark_data asks the declarations)
    import re
    from pathlib import Path

    packages = Path(__file__).resolve().parents[2]
    sources = {path.relative_to(packages).as_posix(): path.read_text() for path in packages.glob("*/src/**/*.py")}
    assert len(sources) > 100
    scanning = {name for name, text in sources.items() if re.search(r"_registry\W{0,3}\\s\*\\\[", text)}
    assert scanning == {"brainscore-core/src/brainscore_core/plugin_folders.py"}
    vision_data = sources["brainscore-vision/src/brainscore_vision/benchmark_data.py"]
    assert "import re" not in vision_data and "RULES" not in vision_data
