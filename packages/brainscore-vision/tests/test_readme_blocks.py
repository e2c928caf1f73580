"""The READMEs' Python code blocks run as written (issue 19, item 1), so the docs cannot rot.

Each README's ```python blocks are joined in order into one script, run in a fresh process with a temporary
working folder and home (``~/Downloads`` lands there), ``$BRAINSCORE_RAW_DATA`` pointing at the real recordings,
and this test session's caches (so packaged data and activations are reused). A block is skipped only when the
line before its fence says ``<!-- not run: <reason> -->``; those blocks are listed here, so none is skipped
silently. Shell and TOML blocks are not run.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from brainio.children import run_child

REPO_ROOT = Path(__file__).resolve().parents[3]
READMES = ["README.md", *(f"packages/{name}/README.md" for name in
                          ("brainio", "brainscore-core", "brainscore-metrics", "brainscore-vision", "model-tools"))]
BLOCK = re.compile(r"(?P<before>[^\n]*)\n```python\n(?P<code>.*?)```", re.S)
SKIPPED = {"packages/brainio/README.md": 1}  # the S3 loading example: needs a bucket and network access


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
    result = run_child([tmp_path / "readme_blocks.py"], cwd=tmp_path, env=environment, capture_output=True, text=True,
                       timeout=900, check=False)  # dies with this test process
    assert result.returncode == 0, f"{relative}:\n{result.stdout[-2000:]}\n{result.stderr[-4000:]}"
