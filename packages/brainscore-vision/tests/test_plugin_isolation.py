"""Issue 42: one number per model content, whichever way it is scored, and plugins that cannot change each other's
numbers.

Three seeded stand-ins of compact_vgg19_V4 (float64 at import), grcnn (24 layers, BatchNorm in training mode) and
nasnet_mobile (BatchNorm in training mode) (:mod:`issue42_standins`), two as installed distributions and one as a
plugin folder, are scored on Kriegeskorte2008 through ``score()`` in one process, through ``brainscore score``, and
through ``brainscore score --workers 2`` (a Dask LocalCluster on 127.0.0.1). Before the fix, the CLI's memory
estimate ran a blank image through the networks left in training mode and changed their BatchNorm statistics, so
the CLI scored other weights than ``score()`` (another activation-cache entry, another number), and the float64
plugin's import turned every later model of the process into float64.

Expected values: the three ways must agree to 1e-9 (they share no state but the files on disk), and each model
content must have exactly one activation-cache entry (one key, whichever way computed it).
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from issue42_standins import IDENTIFIERS, write_distribution, write_folder

pytestmark = pytest.mark.slow

BENCHMARK = "Kriegeskorte2008.hIT-rdm"
MODELS = sorted(IDENTIFIERS.values())
SCORE_ALL = f"""
    import json
    from brainscore_vision import score
    print(json.dumps({{identifier: float(score(identifier, {BENCHMARK!r}, store=False)) for identifier in {MODELS!r}}}))
"""


@pytest.fixture(scope="module")
def world(tmp_path_factory, kriegeskorte_raw):
    root = tmp_path_factory.mktemp("isolation")
    site, folders = root / "site", root / "folders"
    write_distribution(site, "standin_compact")
    write_distribution(site, "standin_nasnet")
    write_folder(folders, "standin_grcnn")
    return root


def _environment(root: Path, home: str) -> dict[str, str]:
    environment = {**os.environ, "PYTHONPATH": str(root / "site"), "BRAINSCORE_PLUGIN_FOLDERS": str(root / "folders"),
                   "BRAINSCORE_PROGRESS": "0"}
    for name in ("BRAINIO_HOME", "BRAINSCORE_HOME", "RESULTCACHING_HOME"):
        environment[name] = str(root / home / name.lower())
    environment.pop("BRAINSCORE_DISABLE_PLUGIN_AUTOLOAD", None)
    return environment


def _run(root: Path, home: str, arguments: list[str]) -> subprocess.CompletedProcess:
    for log in (root / "site" / "imported.txt", root / "folders" / "models" / "imported.txt"):
        log.unlink(missing_ok=True)
    run = subprocess.run([sys.executable, *arguments], capture_output=True, text=True, env=_environment(root, home),
                         cwd=root, timeout=600)
    assert run.returncode == 0, run.stderr[-4000:]
    return run


def _imported(root: Path) -> list[str]:
    logs = (root / "site" / "imported.txt", root / "folders" / "models" / "imported.txt")
    return sorted(name.rsplit(".", 1)[-1] for log in logs if log.exists() for name in log.read_text().split())


def _cli(root: Path, home: str, models: list[str], *extra: str) -> dict[str, float]:
    url = f"sqlite:///{root / home / 'results.sqlite'}"
    arguments = ["-m", "brainscore_vision", "score", *(f"--model={m}" for m in models), "--benchmark", BENCHMARK,
                 "--results-url", url, "--rescore", *extra]
    run = _run(root, home, arguments)
    with sqlite3.connect(root / home / "results.sqlite") as connection:
        rows = connection.execute("SELECT model_identifier, score_ceiled, status FROM scores ORDER BY id").fetchall()
    assert {status for _, _, status in rows} == {"ok"}, run.stderr[-3000:]
    return {model: value for model, value, _ in rows[-len(models):]}


def _entries(root: Path, home: str) -> list[Path]:
    return sorted((root / home / "brainscore_home" / "activations" / "entries").rglob("*.nc"))


def test_one_number_per_model_content_from_score_the_cli_and_a_grid(world):
    scored = _run(world, "home", ["-c", textwrap.dedent(SCORE_ALL)])
    in_python = json.loads(scored.stdout.strip().splitlines()[-1])
    # the float64 plugin's import is named, with the setting, and kept away from the other two
    notices = [line for line in scored.stderr.splitlines() if "PluginStateNotice" in line or "torch default dtype"
               in line]
    assert len(notices) == 1 and "standin_compact" in notices[0], scored.stderr[-3000:]
    assert "torch default dtype torch.float32 -> torch.float64 when it was imported" in notices[0]
    assert len(_entries(world, "home")) == 3  # one per model

    from_cli = _cli(world, "home", MODELS)
    assert from_cli == pytest.approx(in_python, abs=1e-9)
    assert len(_entries(world, "home")) == 3  # the CLI found the same keys: nothing new was extracted

    # only the nasnet stand-in, in a process that has the plugin index: no other plugin is imported, and the number
    # (computed by a process where the float64 plugin was imported first) is the same
    alone = _cli(world, "home", ["standin-nasnet"])
    assert _imported(world) == ["standin_nasnet"]
    assert alone["standin-nasnet"] == pytest.approx(in_python["standin-nasnet"], abs=1e-9)
    assert len(_entries(world, "home")) == 3

    # a 2-worker grid with empty caches computes everything again, in other processes, in another order
    from_grid = _cli(world, "grid_home", MODELS, "--workers", "2")
    assert from_grid == pytest.approx(in_python, abs=1e-9)
    assert len(_entries(world, "grid_home")) == 3
