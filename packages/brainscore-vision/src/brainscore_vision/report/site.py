"""Build the static report site and swap it into place atomically."""

from __future__ import annotations

import datetime as _dt
import os
import shutil
import tempfile
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from brainio.files import apply_umask
from brainscore_vision.errors import MalformedRowWarning, ReportDirectoryError

from .assets import CSS, JS
from .benchmark_page import benchmark_body
from .facts import InstalledBenchmarks
from .failures import failures_section, open_failures
from .layout import page
from .leaderboard import leaderboard_body
from .model_page import model_body
from .rows import entries_from_rows, load_rows, split_malformed_rows
from .summary import summarize
from .text import slug

__all__ = ["MARKER", "ReportDirectoryError", "build_report"]

# Written into every site; a folder holding it may be replaced by a new build, any other folder may not.
MARKER = ".brainscore-report"




def _store_label(results_url: str | None) -> str:
    """The store's URL for the page footer, password hidden (:func:`brainscore_core.display.display_url`)."""
    from brainscore_core.display import display_url
    from brainscore_core.results import default_url

    return display_url(results_url or default_url())


def _check_target(out_dir: Path) -> None:
    if out_dir.is_symlink() or (out_dir.exists() and not out_dir.is_dir()):
        raise ReportDirectoryError(f"{out_dir} exists and is not a directory; choose another --out")
    if out_dir.is_dir() and any(out_dir.iterdir()) and not (out_dir / MARKER).is_file():
        raise ReportDirectoryError(
            f"{out_dir} is a non-empty folder that was not written by `brainscore report` "
            f"(no {MARKER} file); refusing to replace it")


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _render(build: Path, rows: Iterable[Mapping[str, Any]], store_label: str, use_plugins: bool,
            skipped: int = 0, failed: Iterable[Mapping[str, Any]] = ()) -> None:
    installed = InstalledBenchmarks(enabled=use_plugins)
    summary = summarize(entries_from_rows(rows), parent_of=installed.parent)
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    footer = f"Built by brainscore report on {stamp} from {store_label}."
    if skipped:
        footer += f" {skipped} malformed row{'s' if skipped != 1 else ''} skipped (see the build's warnings)."
    for folder in ("assets", "img", "benchmarks", "models"):
        (build / folder).mkdir()
    _write(build / "assets" / "report.css", CSS)
    _write(build / "assets" / "report.js", JS)
    failures = failures_section(open_failures(failed, rows))
    _write(build / "index.html", page("Brain-Score leaderboard", leaderboard_body(summary, store_label) + "\n"
                                      + failures, depth=0, generated=footer))
    for identifier, benchmark in summary.benchmarks.items():
        body = benchmark_body(benchmark, build, installed)
        _write(build / "benchmarks" / f"{slug(identifier)}.html",
               page(f"{identifier} \u2014 Brain-Score", body, depth=1, generated=footer))
    for model in summary.models:
        _write(build / "models" / f"{slug(model)}.html",
               page(f"{model} \u2014 Brain-Score", model_body(summary, model, build), depth=1, generated=footer))
    _write(build / MARKER, "This folder was written by `brainscore report` and is replaced by its next run.\n")


def build_report(
    out_dir: str | os.PathLike,
    results_url: str | None = None,
    *,
    rows: Iterable[Mapping[str, Any]] | None = None,
    use_plugins: bool = True,
) -> Path:
    """Write the static leaderboard site for a results store.

    The site (``index.html``, ``benchmarks/*.html``, ``models/*.html``, ``img/*.png``, ``assets/``) is
    self-contained: no network, opens from ``file://``. It is built in a temporary folder next to
    ``out_dir`` and renamed into place, so ``out_dir`` holds either the previous complete site or the
    new one.

    Parameters
    ----------
    out_dir : str or path-like
        Folder to write. May not exist yet; if it exists it must be empty or a previous report.
    results_url : str or None, default=None
        SQLAlchemy URL of the results store; ``None`` uses the store's default
        (``$BRAINSCORE_RESULTS_URL``, else ``$BRAINSCORE_HOME/results.sqlite``).
    rows : iterable of mapping or None, default=None
        Rows to report instead of reading the store (same keys as ``ResultStore.rows()``). Failed rows
        (``status='failed'``) are not ranked: the pairs whose newest row failed are listed with their failure kind
        (oom, timeout, deterministic, transient) and error below the leaderboard.
    use_plugins : bool, default=True
        For what the rows lack, ask the installed benchmark (``brainscore_vision.load_benchmark(id)``):
        its ``bibtex``, and its ``parent`` when no row of it stores one. Failures are caught and noted
        on the page; False keeps the build to the store alone.

    Returns
    -------
    Path
        ``out_dir``; open ``out_dir / "index.html"``.

    Raises
    ------
    ReportDirectoryError
        If ``out_dir`` exists and is a file, a symlink, or a non-empty folder without the report marker.

    Warns
    -----
    MalformedRowWarning
        One per row that cannot be used (a timestamp that is not a time, no model or benchmark), naming it, and
        one saying how many were skipped; the site's footer says it too.
    """
    out_dir = Path(out_dir).expanduser().absolute()
    _check_target(out_dir)
    if rows is None:
        rows = load_rows(results_url) + load_rows(results_url, failed=True)
    rows = list(rows)
    rows, skipped = split_malformed_rows(rows)
    failed = [row for row in rows if row.get("status") == "failed"]  # listed with their kinds, not ranked
    rows = [row for row in rows if row.get("status") != "failed"]
    for line in skipped:
        warnings.warn(f"{line}; skipped", MalformedRowWarning, stacklevel=2)
    if skipped:
        warnings.warn(f"skipped {len(skipped)} malformed row{'s' if len(skipped) != 1 else ''} of "
                      f"{len(rows) + len(skipped)}", MalformedRowWarning, stacklevel=2)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    build = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.build-", dir=out_dir.parent))
    apply_umask(build, directory=True)  # mkdtemp made it 0700; a folder gets what mkdir would give (umask 022: 0755)
    try:
        _render(build, rows, _store_label(results_url), use_plugins, skipped=len(skipped), failed=failed)
        if out_dir.exists():
            retired = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.old-", dir=out_dir.parent))
            os.replace(out_dir, retired / "site")
            try:
                os.replace(build, out_dir)
            except OSError:
                os.replace(retired / "site", out_dir)  # put the previous site back
                raise
            shutil.rmtree(retired, ignore_errors=True)
        else:
            os.replace(build, out_dir)
    except BaseException:
        shutil.rmtree(build, ignore_errors=True)
        raise
    return out_dir
