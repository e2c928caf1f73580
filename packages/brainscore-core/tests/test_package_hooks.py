"""The two package hooks (issue 44, part 4): each package publishes the caches it writes (``brainscore_caches``) and
the settings it reads (``brainscore_settings``); :mod:`brainscore_core.caches` lists, sizes and prunes any published
kind without knowing its layout.

Publishers here are throwaway distributions: a module and a ``dist-info`` written to a folder put on ``sys.path``
(nothing is installed).
"""

from __future__ import annotations

import os
import sys
import textwrap
import uuid
from pathlib import Path

import pytest

from brainscore_core.caches import (
    CacheEntry,
    cache_entries,
    cache_kinds,
    delete_entries,
    locations,
    pruned_by_default,
)
from brainscore_core.errors import PublicationError, UnknownCacheKindError
from brainscore_core.package_hooks import published_settings


@pytest.fixture
def publish(tmp_path, monkeypatch):
    """``publish(caches_source, settings_source=None)``: a distribution ``pub-<token>`` whose entry points name
    ``published_caches`` / ``published_settings`` in a module of that source; returns the distribution's name."""
    site = tmp_path / "site"
    monkeypatch.syspath_prepend(str(site))
    modules = []

    def make(source: str) -> str:
        token = uuid.uuid4().hex[:8]
        module, name = f"pub_{token}", f"pub-{token}"
        site.mkdir(exist_ok=True)
        (site / f"{module}.py").write_text(textwrap.dedent(source))
        info = site / f"pub_{token}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
        points = "".join(f"[{group}]\n{module} = {module}:{function}\n\n" for group, function in (
            ("brainscore_caches", "published_caches"), ("brainscore_settings", "published_settings"))
            if f"def {function}" in source)
        (info / "entry_points.txt").write_text(points)
        modules.append(module)
        return name

    yield make
    for module in modules:
        sys.modules.pop(module, None)


def _write(path: Path, size: int) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\0" * size)
    return path


def test_core_and_brainio_publish_their_caches_and_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("BRAINSCORE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("BRAINIO_HOME", str(tmp_path / "brainio"))
    kinds = cache_kinds()
    owners = {(name, kind.owner) for name, published in kinds.items() for kind in published}
    assert {("ceilings", "brainscore-core"), ("weights", "brainscore-core"), ("data", "brainio")} <= owners
    assert locations(kinds)["ceilings"] == [tmp_path / "home" / "ceilings"]
    assert tmp_path / "brainio" in locations(kinds)["data"]
    assert "ceilings" in pruned_by_default(kinds) and "data" not in pruned_by_default(kinds)  # data comes back slowly
    record = _write(tmp_path / "home" / "ceilings" / "Bench.IT-pls" / "v1-ab.json", 30)
    array = _write(record.with_name("v1-ab.raw.nc"), 70)
    _write(record.with_name("v1-cd.raw.nc"), 5)  # another record's array: not this entry's
    (entry,) = cache_entries(["ceilings"], published_kinds=kinds)
    assert entry.paths == (record, array) and entry.size == 100  # the record first: deleted before its arrays
    settings = {setting.name: setting for setting in published_settings()}
    assert settings["home"].owner == "brainscore-core" and settings["home"].current() == str(tmp_path / "home")
    assert settings["brainio_home"].owner == "brainio" and settings["brainio_home"].variables == ("BRAINIO_HOME",)


def test_entries_may_be_entries_mappings_or_paths_and_stray_links_are_their_own(publish, tmp_path):
    root = tmp_path / "cache"
    a, b, c = (_write(root / name, size) for name, size in (("a.bin", 10), ("b.bin", 20), ("c.bin", 40)))
    outside = _write(tmp_path / "precious.bin", 1000)
    (root / "link.bin").symlink_to(outside)
    name = publish(f"""
        from pathlib import Path
        from brainscore_core.caches import CacheKind, entry_of
        ROOT = Path({str(root)!r})
        def _entries(root):
            return [entry_of("scratch", [root / "a.bin"], "m1", root=root), {{"paths": [root / "b.bin"], "model": "m2"}},
                    [root / "c.bin"]]
        def published_caches():
            return [CacheKind("scratch", lambda: [ROOT], _entries, description="test entries")]
    """)
    kinds = cache_kinds()
    assert [kind.owner for kind in kinds["scratch"]] == [name]
    entries = cache_entries(["scratch"], published_kinds=kinds)
    assert [(entry.paths, entry.size, entry.model) for entry in entries] == [
        ((a,), 10, "m1"), ((b,), 20, "m2"), ((c,), 40, None), ((root / "link.bin",), (root / "link.bin").lstat().st_size,
                                                               None)]
    delete_entries(entries)
    assert sorted(os.listdir(root)) == [] and outside.read_bytes() == b"\0" * 1000  # the link went, not its target


def test_a_folders_kind_and_an_unknown_kind(publish, tmp_path):
    root = tmp_path / "store"
    _write(root / "one" / "x.nc", 100)
    _write(root / "two" / "y.nc", 50)
    _write(root / "one.lock", 0)  # bookkeeping
    _write(root / ".hidden" / "z", 9)
    publish(f"""
        def published_caches():
            return [{{"kind": "packaged", "roots": lambda: [{str(root)!r}], "pruned_by_default": False}}]
    """)
    kinds = cache_kinds()
    entries = cache_entries(["packaged"], published_kinds=kinds)
    assert [(entry.paths, entry.size) for entry in entries] == [((root / "one",), 100), ((root / "two",), 50)]
    assert "packaged" not in pruned_by_default(kinds)
    with pytest.raises(UnknownCacheKindError, match=r"unknown cache kind 'packages'; kinds: .*packaged"):
        cache_entries(["packages"], published_kinds=kinds)


@pytest.mark.parametrize(("source", "message"), [
    ("def published_caches():\n    return {'kind': 'x'}", r"returned dict; expected a list of CacheKind"),
    ("def published_caches():\n    return [{'kind': 'x', 'roots': list, 'colour': 1}]", r"unknown field\(s\) \['colour'\]"),
    ("def published_caches():\n    return [{'kind': 'x'}]", r"incomplete CacheKind.*roots"),
    ("def published_caches():\n    return [{'kind': 'Bad Name', 'roots': list}]", r"cache kind 'Bad Name'.*lower-case"),
    ("def published_caches():\n    return [{'kind': 'x', 'roots': [], 'entries': 'flat'}]", r"roots must be callable"),
    ("def published_caches():\n    raise OSError('disk gone')", r"failed: OSError: disk gone"),
])
def test_a_malformed_publication_names_its_distribution(publish, source, message):
    name = publish(source)
    with pytest.raises(PublicationError, match=message) as caught:
        cache_kinds()
    assert repr(name) in str(caught.value)


def test_settings_from_mappings_and_a_broken_value_does_not_hide_the_others(publish, monkeypatch):
    monkeypatch.setenv("PUB_TEST_VARIABLE", "7")
    name = publish("""
        import os
        def published_settings():
            return [{"name": "seven", "variables": ["PUB_TEST_VARIABLE"], "default": "0", "description": "a test",
                     "value": lambda: os.environ["PUB_TEST_VARIABLE"]},
                    {"name": "broken", "variables": "PUB_TEST_OTHER", "default": "0", "description": "fails",
                     "value": lambda: 1 / 0}]
    """)
    mine = [setting for setting in published_settings() if setting.owner == name]
    assert [(s.name, s.variables, s.current()) for s in mine] == [
        ("seven", ("PUB_TEST_VARIABLE",), "7"), ("broken", ("PUB_TEST_OTHER",), "<ZeroDivisionError: division by zero>")]


def test_selection_rules_on_plain_entries():
    from brainscore_core.caches import parse_age, parse_size, select_for_pruning

    day = 86400.0
    now = 100 * day
    entries = [CacheEntry("activations", (Path(name),), size, now - age * day, model)
               for name, size, age, model in (("a", 10, 5, "m1"), ("b", 20, 1, "m2"), ("c", 30, 9, "m1"))]
    assert [e.paths[0].name for e in select_for_pruning(entries, models=["m1"], now=now)] == ["c", "a"]
    assert [e.paths[0].name for e in select_for_pruning(entries, older_than_s=3 * day, now=now)] == ["c", "a"]
    assert [e.paths[0].name for e in select_for_pruning(entries, max_bytes=25, now=now)] == ["c", "a"]  # 60 -> 20
    assert select_for_pruning(entries, max_bytes=60, now=now) == []
    assert parse_size("1.5GB") == int(1.5 * 1024**3) and parse_age("2w") == 14 * day and parse_age("90m") == 5400
