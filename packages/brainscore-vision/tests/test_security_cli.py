"""What the command line shows cannot leak the store's password or be rewritten by stored text (issue 41, findings 6
and 10).

Finding 6: every command of ``brainscore`` runs against a real PostgreSQL server that requires a password (a random
one per session), given in ``--results-url`` where the command takes it and in ``$BRAINSCORE_RESULTS_URL`` for all;
then all their output and every file written during the test (the report, exports, side files, caches, the working
directory) is searched for the password. Before the fix, 9 of the 12 commands printed it, e.g. ``rows stored in
postgresql+psycopg://postgres:<password>@...``.

Finding 10: rows whose identifiers hold terminal controls (ESC, BEL, CR, ...) are listed, offered for deletion and
reported: no control character reaches the terminal (each is shown escaped, ``\\x1b``). Before the fix, ``results
list`` and the ``results delete`` table printed them raw, so a row could rewrite what the user saw before saying yes.
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import time
from pathlib import Path
from urllib.parse import quote

import pytest
import sqlalchemy as sa
from conftest import registered_model

from brainscore_vision.cli import EXIT_FAILED, EXIT_USAGE, main

pytestmark = pytest.mark.security

MODEL, BENCHMARK = "pixels", "Kiani2007.mIT-rdm"  # the cheapest real pair: 92 images, ceiling 1
#: every control character (Unicode category Cc) but the newline that ends printed lines
CONTROLS = {chr(code) for code in [*range(0x20), *range(0x7F, 0xA0)]} - {"\n"}


class Terminal:
    """Runs ``brainscore`` commands in this process, keeping everything they print."""

    def __init__(self, capsys, monkeypatch):
        self.capsys, self.monkeypatch, self.printed = capsys, monkeypatch, []

    def __call__(self, *argv: str, status: int = 0, answer: str | None = None) -> str:
        if answer is not None:
            self.monkeypatch.setattr("sys.stdin", io.StringIO(answer))
        result = main(list(argv))
        captured = self.capsys.readouterr()
        text = captured.out + captured.err
        self.printed.append((argv, text))
        assert result == status, (argv, text)
        return text


def _commands() -> set[tuple[str, ...]]:
    """Every command and subcommand of ``brainscore`` (``("results", "list")``, ``("cache",)``, ...), read from its
    parser, so that a command added later is not left out of this test."""
    import argparse

    from brainscore_vision.cli import build_parser

    def subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                return dict(action.choices)
        return {}

    found = set()
    for name, parser in subcommands(build_parser()).items():
        found.add((name,))
        found |= {(name, sub) for sub in subcommands(parser)}
    return found


def _written_since(started: float, *folders: Path) -> list[Path]:
    files = []
    for folder in folders:
        for root, _, names in os.walk(folder):
            for name in names:
                path = Path(root) / name
                if path.is_file() and not path.is_symlink() and path.stat().st_mtime >= started:
                    files.append(path)
    return files


def test_no_command_prints_or_writes_the_store_password(password_postgres, kriegeskorte_raw, tmp_path, monkeypatch,
                                                        capsys):
    from brainscore_core.local_postgres import new_database
    from brainscore_core.result_rows import row_to_json
    from brainscore_core.results import ResultStore

    registered_model(MODEL)
    password = sa.make_url(password_postgres).password
    url = new_database(password_postgres)
    secrets = {password, quote(password, safe="")}
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv("BRAINSCORE_RESULTS_URL", url)
    started = time.time() - 1  # file times may be coarser than time.time()
    run = Terminal(capsys, monkeypatch)

    # the server requires the password: a wrong one is refused (and not shown either)
    wrong = sa.make_url(url).set(password="wrong-password").render_as_string(hide_password=False)
    assert "password authentication failed" in run("results", "list", "--results-url", wrong, status=EXIT_FAILED)
    assert "no results store at postgresql+psycopg://postgres:***@" in run("results", "list")  # nothing stored yet
    assert "score" in run("score", "--model", MODEL, "--benchmark", BENCHMARK, "--dry-run")
    shown = run("score", "--model", MODEL, "--benchmark", BENCHMARK, "--results-url", url)
    assert "rows stored in postgresql+psycopg://postgres:***@127.0.0.1" in shown
    run("score", "--model", MODEL, "--benchmark", BENCHMARK)  # stored: skipped
    run("list", "benchmarks")
    run("list", "models")
    run("ceiling", BENCHMARK)
    run("data", "prepare", "Kriegeskorte2008")
    run("report", "--out", str(tmp_path / "report-env"))
    run("report", "--out", str(tmp_path / "report-url"), "--results-url", url)
    footer = (tmp_path / "report-url" / "index.html").read_text(encoding="utf-8")
    assert "postgresql+psycopg://postgres:***@127.0.0.1" in footer
    assert "1 row(s) in postgresql+psycopg://postgres:***@" in run("results", "list", "--results-url", url)
    run("results", "export", str(tmp_path / "rows.csv"), "--results-url", url)
    run("results", "export", str(tmp_path / "rows.json"))
    run("results", "export", "-", "--format", "json")
    assert "no stored row matches" in run("results", "delete", "--model", "no-such-model", status=EXIT_USAGE)
    run("results", "delete", "--model", MODEL, "--results-url", url, answer="n\n", status=EXIT_FAILED)
    store = ResultStore(url)
    side_file = tmp_path / "brainscore-unstored-test.jsonl"
    side_file.write_text(row_to_json(store.rows()[0]) + "\n", encoding="utf-8")
    store.dispose()
    run("results", "import", str(side_file), "--results-url", url)
    run("results", "delete", "--id", "1", "--yes")
    run("cache")
    run("cache", "prune", "--max-size", "1TB", "--dry-run")
    assert "BRAINSCORE_RESULTS_URL = postgresql+psycopg://postgres:***@127.0.0.1" in run("config")  # the password hidden
    ran = {argv[:length] for argv, _ in run.printed for length in (1, 2)}
    assert ran >= _commands(), _commands() - ran  # every command of the parser ran

    for argv, text in run.printed:
        assert not any(secret in text for secret in secrets), (argv, text)
    homes = Path(os.environ["BRAINSCORE_HOME"]).parent  # the session's homes: caches, data, results
    written = _written_since(started, tmp_path, homes)
    assert any(path.suffix == ".png" for path in written) and any(path.name == "rows.json" for path in written)
    for path in written:
        content = path.read_bytes()
        assert not any(secret.encode() in content for secret in secrets), path


def test_no_message_interpolates_a_raw_store_url():
    """Every f-string of brainscore-core and brainscore-vision that shows a URL shows it through ``display_url``: a
    bare ``{store.url}`` or ``{results_url}`` would print the password again (how finding 6 came about)."""
    import ast
    import importlib.util

    raw = []
    for package in ("brainscore_core", "brainscore_vision"):
        for folder in importlib.util.find_spec(package).submodule_search_locations:
            for path in sorted(Path(folder).rglob("*.py")):
                for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                    if isinstance(node, ast.FormattedValue):
                        value = node.value
                        name = getattr(value, "attr", None) or getattr(value, "id", None)
                        if name in ("url", "results_url", "store_url", "database_url"):
                            raw.append(f"{path}:{node.lineno}: {{{ast.unparse(value)}}}")
    assert raw == []


# -- finding 10: control characters -------------------------------------------------------------------------------
ESCAPED_MODEL = "alexnet\x1b[2J\x1b[1;1Hsafe\x07"  # clears the screen, moves the cursor, rings the bell
OVERWRITING_MODEL = "resnet\rnothing to see"  # the carriage return writes over the start of the line
BENCHMARK_WITH_CSI = "Toy2026.IT-rdm\x9b31m"  # the one-byte CSI: red text on some terminals


@pytest.fixture
def controlled_store(tmp_path):
    """A SQLite store of four rows whose identifiers hold terminal controls; returns its URL and its file."""
    from brainscore_core import Score
    from brainscore_core.results import ResultStore

    path = tmp_path / "results.sqlite"
    store = ResultStore(f"sqlite:///{path}")
    for model, benchmark in ((ESCAPED_MODEL, BENCHMARK_WITH_CSI), (OVERWRITING_MODEL, BENCHMARK_WITH_CSI),
                             (ESCAPED_MODEL, "Toy2026.V4-pls"), (OVERWRITING_MODEL, "Toy2026.V4-pls")):
        store.add(Score(0.5), model_identifier=model, benchmark_identifier=benchmark, benchmark_version=1,
                  layer_map={"IT": "layer\x1b]0;owned\x07"})
    store.dispose()
    return f"sqlite:///{path}", path


def _assert_escaped(text: str) -> None:
    assert not CONTROLS & set(text), repr(text)
    assert "\\x1b[2J" in text or "\\r" in text, text  # shown, not hidden


def test_stored_terminal_controls_are_shown_escaped(controlled_store, tmp_path, capsys, monkeypatch):
    controlled_store, path = controlled_store
    run = Terminal(capsys, monkeypatch)
    listing = run("results", "list", "--results-url", controlled_store)
    _assert_escaped(listing)
    assert "alexnet\\x1b[2J\\x1b[1;1Hsafe\\x07" in listing and "resnet\\rnothing to see" in listing
    assert "Toy2026.IT-rdm\\x9b31m" in listing
    # the question and the rows it asks about
    question = run("results", "delete", "--model", ESCAPED_MODEL, "--results-url", controlled_store, answer="n\n",
                   status=EXIT_FAILED)
    _assert_escaped(question)
    assert "delete these 2 row(s)" in question
    # a filter that matches nothing: the close stored identifiers it suggests
    suggestion = run("results", "delete", "--model", "alexnet[2J[1;1Hsafe", "--results-url", controlled_store,
                     status=EXIT_USAGE)
    _assert_escaped(suggestion)
    assert "did you mean" in suggestion
    # the report's warning names a malformed row (a timestamp that is not a time) by its identifiers
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE scores SET timestamp = 'yesterday\x1b[2K' WHERE id = 4")
    warning = run("report", "--out", str(tmp_path / "site"), "--results-url", controlled_store)
    _assert_escaped(warning)
    assert "row 4 (resnet\\rnothing to see on Toy2026.V4-pls)" in warning
    with sqlite3.connect(path) as connection:
        connection.execute("DELETE FROM scores WHERE id = 4")
    # the export to a terminal (a person reads it); to a file or a pipe the rows are data and stay exact
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    _assert_escaped(run("results", "export", "-", "--results-url", controlled_store))
    monkeypatch.undo()
    run("results", "export", str(tmp_path / "rows.json"), "--results-url", controlled_store)
    exported = json.loads((tmp_path / "rows.json").read_text(encoding="utf-8"))
    assert exported[0]["model_identifier"] == ESCAPED_MODEL


def test_score_table_and_progress_lines_escape_stored_text():
    from brainscore_vision._cli_rows import format_table

    row = {"model": ESCAPED_MODEL, "benchmark": "b", "raw": 0.5, "ceiling": 1.0, "score": 0.5, "rule": "-",
           "error": float("nan"), "layers": "IT: layer\x1b]0;owned\x07", "elapsed": 1.0}
    table = format_table([row])
    assert not CONTROLS & set(table) and "IT: layer\\x1b]0;owned\\x07" in table


def test_one_line_messages_escape_stored_text(capsys):
    from brainscore_vision._cli_io import print_line

    print_line(f"{OVERWRITING_MODEL} on b: failed: ValueError: bad\x1b[2K")
    err = capsys.readouterr().err
    assert err == "resnet\\rnothing to see on b: failed: ValueError: bad\\x1b[2K\n"
