"""The READMEs' Python code blocks run as written (issue 19, item 1), so the docs cannot rot, and they leave the
checkout as they found it (issue 33: the tour wrote ``store/`` into it).

Each README's ```python blocks are joined in order into one script, run in a fresh process from the checkout's root
(where a user runs them) with a temporary home (``~/Downloads`` lands there), ``$BRAINSCORE_RAW_DATA`` pointing at the
real recordings, and this test session's caches (so packaged data and activations are reused). Every file of the
checkout (but ``.git``, ``.nox`` and byte-code caches) is listed with its size and modification time before and
after: a file added, removed or changed fails the test. A block is skipped only when the line before its fence says
``<!-- not run: <reason> -->``; those blocks are listed here, so none is skipped silently. Shell and TOML blocks are
not run.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from brainscore_core.children import run_child

REPO_ROOT = Path(__file__).resolve().parents[3]
READMES = ["README.md", *(f"packages/{name}/README.md" for name in
                          ("brainio", "brainscore-core", "brainscore-metrics", "brainscore-vision", "model-tools"))]
BLOCK = re.compile(r"(?P<before>[^\n]*)\n```python\n(?P<code>.*?)```", re.S)
SKIPPED = {"packages/brainio/README.md": 1,  # the S3 loading example: needs a bucket and network access
           "packages/brainscore-core/README.md": 1}  # the Slurm grid: tests/test_grid_slurm.py runs it on a one-node Slurm
NOT_CHECKOUT = {".git", ".nox", "__pycache__", ".pytest_cache", ".ruff_cache"}  # tools' own folders


def checkout_files(root: Path = REPO_ROOT) -> dict[str, tuple[int, int]]:
    """Every file and folder of the checkout: relative path -> (size, modification time in ns)."""
    found = {}
    for folder, folders, files in os.walk(root):
        folders[:] = [name for name in folders if name not in NOT_CHECKOUT]
        for name in [*folders, *files]:
            path = Path(folder) / name
            info = path.lstat()
            found[path.relative_to(root).as_posix()] = (info.st_size if name in files else 0, info.st_mtime_ns)
    return found


def describe_changes(before: dict, after: dict) -> str:
    added, removed = sorted(set(after) - set(before)), sorted(set(before) - set(after))
    changed = sorted(path for path in set(before) & set(after) if before[path] != after[path])
    return f"added {added[:10]}, removed {removed[:10]}, changed {changed[:10]}"


def python_blocks(readme: Path) -> tuple[list[tuple[int, str]], int]:
    """(line number, code) of each block to run, and the number of blocks marked not to run."""
    text = readme.read_text(encoding="utf-8")
    blocks, skipped = [], 0
    for match in BLOCK.finditer(text):
        if match.group("before").strip().startswith("<!-- not run:"):
            skipped += 1
            continue
        blocks.append((text[:match.start("code")].count("\n") + 1, match.group("code")))
    return blocks, skipped


@pytest.mark.parametrize("relative", READMES)
def test_readme_python_blocks_run_in_order(relative, raw_data_dir, tmp_path):
    readme = REPO_ROOT / relative
    blocks, skipped = python_blocks(readme)
    assert blocks, f"{relative} has no Python block"
    assert skipped == SKIPPED.get(relative, 0)
    script = "\n\n".join(f"# --- {relative}, line {line}\n{code}" for line, code in blocks)
    (tmp_path / "readme_blocks.py").write_text(script, encoding="utf-8")
    (tmp_path / "home").mkdir()
    environment = {**os.environ, "HOME": str(tmp_path / "home"), "BRAINSCORE_RAW_DATA": str(raw_data_dir),
                   "MPLBACKEND": "Agg"}
    before = checkout_files()
    result = run_child([tmp_path / "readme_blocks.py"], cwd=REPO_ROOT, env=environment, capture_output=True,
                       text=True, timeout=900, check=False)  # dies with this test process
    assert result.returncode == 0, f"{relative}:\n{result.stdout[-2000:]}\n{result.stderr[-4000:]}"
    after = checkout_files()
    assert after == before, f"running the blocks of {relative} changed the checkout: {describe_changes(before, after)}"


def test_the_checkout_check_sees_a_written_file(tmp_path):
    """The check above can fail: a file written into a folder like the checkout shows as added, then as changed."""
    (tmp_path / "packages").mkdir()
    before = checkout_files(tmp_path)
    (tmp_path / "store").mkdir()
    (tmp_path / "store" / "stimulus_MyLab2026.csv").write_text("stimulus_id\n", encoding="utf-8")
    after = checkout_files(tmp_path)
    assert describe_changes(before, after) == "added ['store', 'store/stimulus_MyLab2026.csv'], removed [], changed []"
    (tmp_path / "store" / "stimulus_MyLab2026.csv").write_text("stimulus_id,x\n", encoding="utf-8")
    assert "changed ['store/stimulus_MyLab2026.csv']" in describe_changes(after, checkout_files(tmp_path))
