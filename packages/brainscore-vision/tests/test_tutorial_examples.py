"""Every code example of Brain-Score's tutorials (``../shared/reference``), run as a reader runs it.

Each example is extracted from the reference text (``tutorial_examples/extract.py``), completed with the reader's
own part (``tutorial_examples/fills.py``: their data, built from the real Kriegeskorte 2008 images with simulated
responses by ``tutorial_examples/reader.py``; the names an example takes from earlier in the tutorial; the page
capture's lost characters) and run in a fresh Python process; the processes run in parallel, once per test session.
An example that needs Brain-Score's S3 data or downloaded weights runs up to that point and is then skipped with the
reason. ``README.md`` ("Tutorial examples") lists them all; ``test_readme_lists_every_example`` keeps it in step.
"""

from __future__ import annotations

import concurrent.futures
import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE / "tutorial_examples"))

from extract import TUTORIALS, extract_examples  # noqa: E402
from fills import FILLS  # noqa: E402

from brainio.skipping import SKIP_REASONS, skip  # noqa: E402

REFERENCE = HERE.parents[2].parent / "shared" / "reference"


def _examples() -> dict:
    if not all((REFERENCE / name).is_file() for name in TUTORIALS):
        return {}
    return {example.identifier: example for name in TUTORIALS for example in extract_examples(REFERENCE / name)}


EXAMPLES = _examples()
IDS = list(EXAMPLES) or ["<reference tutorials absent>"]


def _require_reference():
    if not EXAMPLES:
        skip("data", f"Brain-Score's tutorials not found in {REFERENCE}")


def _legacy_installed() -> bool:
    try:
        import brainscore  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture(scope="session")
def outcomes(tmp_path_factory, raw_data_dir):
    """Run every example once, in parallel (one process each), sharing the caches of one temporary home."""
    _require_reference()
    import reader
    from run import environment, run_example

    base = tmp_path_factory.mktemp("tutorial_examples")
    store = base / "reader_store"
    store.mkdir()
    reader.prepare(store)
    env = environment(base / "homes", store)
    runnable = [example for identifier, example in EXAMPLES.items()
                if not FILLS[identifier].legacy or _legacy_installed()]
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(2, min(4, os.cpu_count() or 2))) as pool:
        futures = [pool.submit(run_example, example, EXAMPLES, base / "runs" / example.identifier, env)
                   for example in runnable]
        return {future.result().identifier: future.result() for future in futures}


def test_every_example_has_the_readers_part():
    """A tutorial change (a new, removed or reworded example) shows up here, not as a silent skip."""
    _require_reference()
    assert set(EXAMPLES) == set(FILLS)


@pytest.mark.parametrize("identifier", IDS)
def test_tutorial_example_runs(identifier, outcomes):
    _require_reference()
    fill = FILLS[identifier]
    if fill.legacy and not _legacy_installed():
        skip("extra", "a 1.x example: needs brainscore-legacy (pip install ./packages/brainscore-legacy; this "
                      "package's test session installs it)")
    outcome = outcomes[identifier]
    assert outcome.returncode == 0, f"{identifier} (line {EXAMPLES[identifier].line}) failed:\n{outcome.output}"
    if fill.data_step:  # the benchmark is registered here: the reader's next step stops at its data, in one line
        lines = [line for line in outcome.output.splitlines() if line.startswith("DATA STEP: ")]
        assert lines and "not registered" not in outcome.output, outcome.output
    if fill.needs:
        skip(fill.needs_kind, f"ran up to where it needs {fill.needs}" + (f"; {lines[0]}" if fill.data_step else ""))


def test_what_an_example_needs_is_an_allowed_skip():
    """An example may stop short only for what no CI machine has (the network, credentials, what is never made)."""
    kinds = {identifier: fill.needs_kind for identifier, fill in FILLS.items() if fill.needs}
    assert kinds and all(kind in SKIP_REASONS and not SKIP_REASONS[kind].required for kind in kinds.values()), kinds


def test_readme_lists_every_example():
    _require_reference()
    from table import markdown_table

    readme = (HERE.parent / "README.md").read_text()
    assert markdown_table(EXAMPLES) in readme, "regenerate the README table: python tests/tutorial_examples/table.py"
