"""``brainscore cache``: sizes per kind and pruning by model, by age and down to a size (brainscore_core.caches, which asks each package for the caches it writes).

The caches are laid out by hand here, file by file, as the packages that write them lay them out (model-tools'
activations index records, ceiling JSON + arrays, placed stimulus folders ...), with sizes chosen so every expected
number is a sum of known byte counts. model-tools' own tests check that a real extraction is found the same way.
"""

from __future__ import annotations

import io
import json
import os
import sys
import time
from pathlib import Path

import pytest

from brainscore_core.caches import cache_entries, parse_age, parse_size, select_for_pruning
from brainscore_vision.cli import EXIT_FAILED, EXIT_USAGE, main

DAY = 86400.0


def _file(path: Path, size: int, age_days: float = 0.0) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\0" * size)
    stamp = time.time() - age_days * DAY
    os.utime(path, (stamp, stamp))
    return path


def _record(path: Path, content: dict, age_days: float = 0.0) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"content": content, "sha1": "-"}), encoding="utf-8")
    stamp = time.time() - age_days * DAY
    os.utime(path, (stamp, stamp))
    return path


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A home with two models' activations (one old), a layer choice, a ceiling, a placed stimulus set, a weight
    file and packaged data; returns the home and the byte size of each entry."""
    home = tmp_path / "home"
    for name, value in (("BRAINSCORE_HOME", home), ("BRAINSCORE_DATA_STORE", home / "data_store"),
                        ("BRAINIO_HOME", tmp_path / "brainio")):
        monkeypatch.setenv(name, str(value))
    activations = home / "activations"
    sizes = {}
    for model, key, size, age in (("alexnet", "aa11", 3000, 40), ("pixels", "bb22", 5000, 1)):
        entry = _file(activations / "entries" / key[:2] / f"{key}.run1.nc", size, age)
        index = _record(activations / "index" / key[:2] / f"{key}-layer.json",
                        {"model": model, "entry": entry.relative_to(activations).as_posix(), "start": 0, "stop": 1},
                        age)
        sizes[model] = size + index.stat().st_size
    _file(activations / "locks" / "aa11.lock", 0)  # bookkeeping, not an entry
    sizes["selection"] = _record(home / "layer_selection" / "k1.json", {"model": "alexnet", "best": "x"}, 40).stat() \
        .st_size
    ceiling = _record(home / "ceilings" / "Kiani2007.mIT-rdm" / "v1-abc.json", {"value": 1.0}, 2)
    sizes["ceiling"] = ceiling.stat().st_size + _file(ceiling.parent / "v1-abc.raw.nc", 700, 2).stat().st_size
    _file(home / "stimuli_on_screen" / "K--target8--source3--d" / "a.png", 400, 3)
    _file(home / "stimuli_on_screen" / "K--target8--source3--d" / "b.png", 600, 3)
    sizes["stimuli"] = 1000
    sizes["weights"] = _file(home / "weights" / "alexnet-owt-7be5be79.pth", 9000, 50).stat().st_size
    sizes["data"] = _file(home / "data_store" / "cowley2023" / "assy.nc", 2000, 60).stat().st_size + _file(
        tmp_path / "brainio" / "0123abcd" / "stimuli.zip", 1500, 60).stat().st_size
    _file(home / "data_store" / "cowley2023.lock", 0)
    return home, sizes


def test_sizes_per_kind(home, capsys):
    _, sizes = home
    assert main(["cache"]) == 0
    lines = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()[1:8]}
    # format_bytes: below 1024 bytes in B, else KB with one decimal
    assert lines["activations"][1:4] == [f"{(sizes['alexnet'] + sizes['pixels']) / 1024:.1f}", "KB", "2"]
    assert lines["weights"][1:4] == ["8.8", "KB", "1"] and lines["stimuli"][1:4] == ["1000", "B", "1"]
    assert lines["data"][3] == "2" and lines["ceilings"][3] == "1" and lines["layer_selection"][3] == "1"
    total = sum(sizes.values())
    assert lines["total"][1:4] == [f"{total / 1024:.1f}", "KB", "8"]


def test_prune_by_model_deletes_its_activations_and_layer_choices_only(home, capsys):
    root, _ = home
    assert main(["cache", "prune", "--model", "alexnet", "--yes"]) == 0
    assert "deleted 2 entries" in capsys.readouterr().out
    remaining = sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())
    assert not any("aa11" in path and not path.endswith(".lock") for path in remaining)
    assert "activations/entries/bb/bb22.run1.nc" in remaining and "layer_selection/k1.json" not in remaining
    assert "weights/alexnet-owt-7be5be79.pth" in remaining  # weights only when named


def test_prune_by_age_and_kind(home, capsys):
    root, _ = home
    assert main(["cache", "prune", "--older-than", "30d", "--kind", "weights", "--kind", "activations", "-y"]) == 0
    assert not (root / "weights" / "alexnet-owt-7be5be79.pth").exists()
    assert not (root / "activations" / "entries" / "aa" / "aa11.run1.nc").exists()
    assert (root / "activations" / "entries" / "bb" / "bb22.run1.nc").exists()  # used a day ago
    assert (root / "layer_selection" / "k1.json").exists()  # not a pruned kind here
    assert (root / "data_store" / "cowley2023" / "assy.nc").exists()


def test_prune_to_a_size_deletes_least_recently_used_first(home, capsys):
    root, sizes = home
    kept = sizes["pixels"] + sizes["ceiling"]  # the two newest entries of the default kinds
    assert main(["cache", "prune", "--max-size", str(kept), "--yes"]) == 0
    left = {entry.kind for entry in cache_entries(("stimuli", "activations", "layer_selection", "ceilings"))}
    assert left == {"activations", "ceilings"}
    assert sum(entry.size for entry in cache_entries(("activations", "ceilings"))) == kept
    assert not list(root.rglob(".*deleting*"))  # folders renamed away, then removed: nothing half-deleted left


def test_prune_asks_first_and_dry_run_deletes_nothing(home, capsys, monkeypatch):
    root, _ = home
    before = sorted(root.rglob("*"))
    assert main(["cache", "prune", "--max-size", "0", "--dry-run"]) == 0
    assert "dry run: would delete 5 of 5 entries" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))
    assert main(["cache", "prune", "--max-size", "0"]) == EXIT_FAILED
    assert "nothing deleted" in capsys.readouterr().err and sorted(root.rglob("*")) == before
    assert main(["cache", "prune"]) == EXIT_USAGE
    assert main(["cache", "prune", "--max-size", "lots"]) == EXIT_USAGE
    assert "'lots' is not a size" in capsys.readouterr().err


def test_selection_rules_on_plain_entries():
    from brainscore_core.caches import CacheEntry

    now = 100 * DAY
    entries = [CacheEntry("activations", (Path(name),), size, now - age * DAY, model)
               for name, size, age, model in (("a", 10, 5, "m1"), ("b", 20, 1, "m2"), ("c", 30, 9, "m1"))]
    assert [e.paths[0].name for e in select_for_pruning(entries, models=["m1"], now=now)] == ["c", "a"]
    assert [e.paths[0].name for e in select_for_pruning(entries, older_than_s=3 * DAY, now=now)] == ["c", "a"]
    assert [e.paths[0].name for e in select_for_pruning(entries, max_bytes=25, now=now)] == ["c", "a"]  # 60 -> 20
    assert select_for_pruning(entries, max_bytes=60, now=now) == []
    assert [e.paths[0].name for e in select_for_pruning(entries, models=["m2"], max_bytes=0, now=now)] == ["b"]
    assert parse_size("1.5GB") == int(1.5 * 1024**3) and parse_size("500 mb") == 500 * 1024**2
    assert parse_size("2048") == 2048 and parse_age("2w") == 14 * DAY and parse_age("90m") == 5400


def test_plugin_weights_are_counted_and_pruned_only_when_named(home, capsys, monkeypatch):
    # issue 42: `brainscore cache` counted no weights of Brain-Score plugins (load_weight_file puts them under
    # $BRAINSCORE_HOME/<folder_name>/<relative path>, e.g. brainscore-vision/models/nasnet_mobile/...)
    root, _ = home
    monkeypatch.delenv("BRAINSCORE_S3_WEIGHT_FOLDER", raising=False)
    nasnet = _file(root / "brainscore-vision" / "models" / "nasnet_mobile" / "nasnetamobile-7e03cead.pth", 2048, 40)
    _file(nasnet.with_name(nasnet.name + ".verified"), 100, 40)
    _file(nasnet.parent / ".nasnetamobile-7e03cead.pth.lock", 0)
    default = _file(root / "models" / "bs_s3" / "checkpoint.pth", 1024, 1)
    assert main(["cache"]) == 0
    lines = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()[1:8]}
    assert lines["weights"][3] == "3"  # the zoo's file, nasnet's (its marker with it) and the default folder's
    assert main(["cache", "prune", "--model", "alexnet", "-y"]) == 0  # weights only when named
    assert nasnet.exists() and default.exists()
    assert main(["cache", "prune", "--kind", "weights", "--older-than", "30d", "-y"]) == 0
    assert not nasnet.exists() and not nasnet.with_name(nasnet.name + ".verified").exists() and default.exists()


THROWAWAY = '''
from pathlib import Path

ROOT = Path({root!r})


def _entries(root):
    # one entry per <name>.bin with its <name>.model record (written first, so deleted first), the model named inside
    for data in sorted(root.glob("*.bin")):
        record = data.with_suffix(".model")
        yield {{"paths": [record, data], "model": record.read_text().strip(), "used": data}}


def published_caches():
    return [{{"kind": "scratchpad", "roots": lambda: [ROOT], "entries": _entries,
              "description": "one scratch result of the throwaway plugin"}}]


def published_settings():
    return [{{"name": "scratch_root", "variables": ("THROWAWAY_SCRATCH",), "default": str(ROOT),
              "description": "where the throwaway plugin keeps its scratch results", "value": lambda: ROOT}}]
'''


@pytest.fixture
def throwaway(tmp_path, monkeypatch):
    """A plugin distribution made here, never installed: ``throwaway-cache`` 1.0, a module and a dist-info on
    ``sys.path`` whose entry points publish one cache kind (``scratchpad``: ``<name>.bin`` with its ``<name>.model``)
    and one setting; two entries (models m1, m2) of known sizes. Returns the cache folder and the entry sizes."""
    root, site = tmp_path / "scratch", tmp_path / "site"
    site.mkdir()
    (site / "throwaway_cache.py").write_text(THROWAWAY.format(root=str(root)))
    info = site / "throwaway_cache-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: throwaway-cache\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[brainscore_caches]\nthrowaway = throwaway_cache:published_caches\n\n"
                                           "[brainscore_settings]\nthrowaway = throwaway_cache:published_settings\n")
    monkeypatch.syspath_prepend(str(site))
    sys.modules.pop("throwaway_cache", None)  # a module of that name imported by another test is not this one
    sizes = {}
    for model, size, age in (("m1", 700, 10), ("m2", 1300, 1)):
        record = _file(root / f"{model}-run.model", 0, age)
        record.write_text(model)
        sizes[model] = size + record.stat().st_size
        _file(root / f"{model}-run.bin", size, age)
    yield root, sizes
    sys.modules.pop("throwaway_cache", None)


def test_a_throwaway_distribution_publishes_its_own_cache(home, throwaway, capsys):
    # issue 44, part 4: `brainscore cache` knows no package's layout; a distribution it has never seen publishes its
    # cache through the entry-point group brainscore_caches and is listed, sized and pruned like the built-in ones
    root, sizes = throwaway
    assert main(["cache"]) == 0
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()[1:9]}
    assert rows["scratchpad"][1:5] == [f"{(sizes['m1'] + sizes['m2']) / 1024:.1f}", "KB", "2", str(root)]
    assert rows["total"][3] == "10"  # the eight entries of the home fixture and these two
    assert main(["cache", "prune", "--kind", "scratchpad", "--model", "m1", "--yes"]) == 0
    assert "deleted 1 entries" in capsys.readouterr().out
    assert sorted(path.name for path in root.iterdir()) == ["m2-run.bin", "m2-run.model"]
    # pruned by default (it did not say otherwise): a prune down to a size reaches it, least recently used first
    assert main(["cache", "prune", "--max-size", "0", "--dry-run"]) == 0
    assert "would delete 6 of 6 entries" in capsys.readouterr().out  # the home fixture's five, and m2's
    assert main(["config", "--package", "throwaway-cache"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("throwaway-cache:\n") and f"THROWAWAY_SCRATCH = {root}" in out and "brainscore-core" not in out


def test_an_unknown_kind_and_a_broken_publication_are_named(home, throwaway, capsys):
    root, _ = throwaway
    assert main(["cache", "prune", "--kind", "scratch", "--max-size", "0", "-y"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "unknown cache kind 'scratch'" in err and "scratchpad" in err
    module = root.parent / "site" / "throwaway_cache.py"
    module.write_text(module.read_text().replace('"roots": lambda: [ROOT]', '"roots": [ROOT]'))
    sys.modules.pop("throwaway_cache", None)
    assert main(["cache"]) == EXIT_FAILED
    err = capsys.readouterr().err
    assert "cache kind 'scratchpad' of distribution 'throwaway-cache': roots must be callable" in err
