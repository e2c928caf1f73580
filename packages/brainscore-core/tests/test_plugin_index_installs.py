"""The plugin index shared by several installs of one distribution version, and by catalogs its plugins do not
register into: every process sees exactly its own install's identifiers, whatever other processes wrote.

Several virtual environments (one per project, a nox venv beside a dev venv, editable installs from different git
worktrees) share one ``$BRAINSCORE_HOME``. Each install here is a folder on ``PYTHONPATH`` holding a domain module
``dom`` and the same distribution (``same-dist 1.0``, entry point ``plug``, module ``plug_same``) registering other
identifiers; the two copies of the module have the same size and modification time (a copy that keeps mtimes, or
two wheels), so nothing but their location tells them apart. Fresh interpreters, as the index is for the next
process; nothing is pip-installed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest

DOMAIN = """
    from brainscore_core.plugins import Domain
    domain = Domain({group!r})
    model_registry, benchmark_registry, list_plugins = domain.model_registry, domain.benchmark_registry, domain.list_plugins
"""

PLUGIN = """
    open(__file__.rsplit('/', 1)[0] + '/imported.txt', 'a').write(__name__ + '\\n')
    from dom import benchmark_registry, model_registry
    for _name in {names!r}:
        model_registry[_name] = lambda: 'model'
    benchmark_registry[{names[0]!r} + '.bench'] = lambda: 'benchmark'
"""

LIST = """
    import json, dom
    print(json.dumps({"models": sorted(dom.model_registry), "benchmarks": sorted(dom.benchmark_registry)}))
"""


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))


def _install(site: Path, group: str, names: tuple[str, ...]) -> Path:
    """``site`` with ``dom.py`` (the domain of ``group``) and ``same-dist 1.0`` whose plugin registers the models
    ``names`` and the benchmark ``<names[0]>.bench``."""
    _write(site / "dom.py", DOMAIN.format(group=group))
    _write(site / "plug_same.py", PLUGIN.format(names=names))
    info = site / "same_dist-1.0.dist-info"
    _write(info / "METADATA", "Metadata-Version: 2.1\nName: same-dist\nVersion: 1.0\n")
    _write(info / "entry_points.txt", f"[{group}]\nplug = plug_same\n")
    os.utime(site / "plug_same.py", ns=(1_700_000_000_000_000_000,) * 2)  # both copies: one mtime
    return site


@pytest.fixture
def installs(tmp_path):
    """Two installs of ``same-dist 1.0`` in one group: A registers models a1, a2; B registers b1, b2 (same size)."""
    group = f"bs_installs_{uuid.uuid4().hex[:8]}"
    first = _install(tmp_path / "install-a", group, ("a1", "a2"))
    second = _install(tmp_path / "install-b", group, ("b1", "b2"))
    assert (first / "plug_same.py").stat().st_size == (second / "plug_same.py").stat().st_size
    return first, second


EXPECTED = {"install-a": {"models": ["a1", "a2"], "benchmarks": ["a1.bench"]},
            "install-b": {"models": ["b1", "b2"], "benchmarks": ["b1.bench"]}}  # what each plugin's source assigns


def _environment(site: Path, home: Path) -> dict[str, str]:
    environment = {**os.environ, "PYTHONPATH": str(site), "BRAINSCORE_HOME": str(home)}
    environment.pop("BRAINSCORE_DISABLE_PLUGIN_AUTOLOAD", None)
    environment.pop("BRAINSCORE_PLUGINS", None)
    return environment


def _run(site: Path, home: Path, code: str = LIST) -> dict:
    """Run ``code`` in a fresh interpreter of the install ``site``: its last JSON line, plus whether it imported the
    plugin (``'imported'``)."""
    (site / "imported.txt").unlink(missing_ok=True)
    run = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                         env=_environment(site, home), cwd=site, timeout=120)
    assert run.returncode == 0, run.stderr[-3000:]
    imported = (site / "imported.txt").exists()
    return {**json.loads(run.stdout.strip().splitlines()[-1]), "imported": imported}


def test_alternating_installs_of_one_version_each_see_their_own_identifiers(installs, tmp_path):
    home = tmp_path / "home"
    for round_ in range(2):
        for site in installs:
            seen = _run(site, home)
            # the first process of each install imports its plugin; from then on both records are kept side by side
            assert seen == {**EXPECTED[site.name], "imported": round_ == 0}, (round_, site.name)


def test_concurrent_installs_of_one_version_each_see_their_own_identifiers(installs, tmp_path):
    home = tmp_path / "home"
    for _ in range(2):  # writers racing on an empty index, then on one that holds the other install's record
        processes = [(site, subprocess.Popen([sys.executable, "-c", textwrap.dedent(LIST)], text=True,
                                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                             env=_environment(site, home), cwd=site))
                     for _ in range(3) for site in installs]
        for site, process in processes:
            out, err = process.communicate(timeout=120)
            assert process.returncode == 0, err[-3000:]
            assert json.loads(out.strip().splitlines()[-1]) == EXPECTED[site.name]
    for site in installs:  # no writer dropped the other's record: neither install imports its plugin again
        assert _run(site, home) == {**EXPECTED[site.name], "imported": False}


def test_a_catalog_its_plugins_do_not_register_into_records_nothing(installs, tmp_path):
    # a second Domain of the group: the plugin assigns into dom's registries, so this catalog sees nothing of it; an
    # empty record would hide the plugin's identifiers from every later process of the install
    site, home = installs[0], tmp_path / "home"
    _run(site, home, """
        import json
        from brainscore_core.plugins import Domain
        import dom
        other = Domain(dom.domain.catalog.entry_point_group)
        print(json.dumps({"models": sorted(other.model_registry)}))
    """)
    assert _run(site, home) == {**EXPECTED[site.name], "imported": True}
    assert _run(site, home) == {**EXPECTED[site.name], "imported": False}


def test_a_writer_keeps_what_others_wrote_since_it_read_and_drops_records_whose_file_is_gone(tmp_path, monkeypatch):
    from brainscore_core._plugin_index import PluginIndex

    monkeypatch.setenv("BRAINSCORE_HOME", str(tmp_path / "home"))
    here, gone, late = (tmp_path / f"{name}.py" for name in ("here", "gone", "late"))
    for path in (here, gone, late):
        path.write_text("")
    key = "same-dist==1.0:plug=plug_same"
    slow = PluginIndex("g")
    slow.load()  # reads the empty index before the others write
    quick = PluginIndex("g")
    quick.load()
    quick.put(key, str(here), "stamp-here", {"model": {"h": "plug_same"}}, {})
    quick.put(key, str(gone), "stamp-gone", {"model": {"g": "plug_same"}}, {})
    quick.save()
    gone.unlink()  # that install was removed
    slow.put(key, str(late), "stamp-late", {"model": {"l": "plug_same"}}, {"model": {"l": "local:x"}})
    slow.save()
    reader = PluginIndex("g")
    reader.load()
    assert {location: record.identifiers for (_, location), record in reader.records.items()} == {
        str(here): {"model": {"h": "plug_same"}}, str(late): {"model": {"l": "plug_same"}}}
    assert reader.valid(key, str(late), "stamp-late").needs == {"model": {"l": "local:x"}}
    assert reader.valid(key, str(here), "stamp-late") is None  # a stale stamp
    from brainio.records import write_record

    write_record(reader.path, {key: {"stamp": "stamp-here", "identifiers": {"model": {"h": "plug_same"}}, "needs": {}}})
    reader.load()
    assert reader.records == {}  # an index of the earlier format (no locations) is not read: imported again
