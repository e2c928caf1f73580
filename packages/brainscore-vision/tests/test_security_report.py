"""Hostile rows cannot take the report down, and its folder follows the umask (issue 41, findings 7 and 9).

The rows are stored in a real SQLite store, as a user's adversary would store them: identifiers the store accepts
(512 characters at most, any text) that matplotlib would read as mathtext (``evil$\\undefinedmacro$``), that are too
long for a file name (300 characters), that hold path separators or terminal escapes, and a score another tool wrote
as infinity. Before the fixes, the first and the second each failed the whole build (``ParseFatalException``,
``File name too long``), as did the infinite score (``Axis limits cannot be NaN or Inf``). The built site is opened
in headless Chromium: every page of every row loads and shows its identifier, and every figure it links loads.
"""

from __future__ import annotations

import os
import stat
import warnings
from pathlib import Path

import pytest
from report_fixtures import chrome, fill_store, make_row, rdm

from brainscore_vision.errors import ReportFigureWarning
from brainscore_vision.report import build_report
from brainscore_vision.report.text import esc, slug

__all__ = ["chrome"]  # a fixture, imported so that pytest finds it in this module

pytestmark = pytest.mark.security

MATHTEXT_MODEL = "evil$\\undefinedmacro$"
LONG_MODEL = "m" * 300
LONG_BENCHMARK = "Long2026." + "b" * 291
PATH_MODEL = "../../outside/a/b"
TERMINAL_MODEL = "term\x1b[2J\x07inal"
MATHTEXT_BENCHMARK = "Math2026.$x^$-rdm"  # "$x^$" is a mathtext syntax error
PLAIN_BENCHMARK = "Toy2026.V4-pls"
INFINITE_BENCHMARK = "Toy2026.IT-rdm"
MODELS = ("alexnet_toy", MATHTEXT_MODEL, LONG_MODEL, PATH_MODEL, TERMINAL_MODEL)
BENCHMARKS = (PLAIN_BENCHMARK, LONG_BENCHMARK, MATHTEXT_BENCHMARK, INFINITE_BENCHMARK)


def _row(row_id: int, model: str, benchmark: str, ceiled: float, **extra) -> dict:
    return make_row(row_id, model, benchmark, parent="V4", raw=ceiled / 2, ceiled=ceiled, error=0.01, ceiling=0.5,
                    ceiling_error=0.02, **extra)


def hostile_rows() -> list[dict]:
    rdms = {"model_rdm": rdm(1, 4), "subject_rdms": [rdm(2, 4)], "rdm_subjects": ["subject $\\oops$"]}
    return [
        _row(1, "alexnet_toy", PLAIN_BENCHMARK, 0.4),
        _row(2, MATHTEXT_MODEL, PLAIN_BENCHMARK, 0.3, layer_map={"V4": "layer$\\oops$"},
             attrs={"layer_scores": {"V4": {"layer$\\oops$": 0.3, "conv2": 0.2}}}),
        _row(3, LONG_MODEL, PLAIN_BENCHMARK, 0.2),
        _row(4, LONG_MODEL, LONG_BENCHMARK, 0.25),
        _row(5, PATH_MODEL, MATHTEXT_BENCHMARK, 0.1, attrs=rdms),
        _row(6, TERMINAL_MODEL, PLAIN_BENCHMARK, 0.15),
        _row(7, "alexnet_toy", INFINITE_BENCHMARK, 0.5),
    ]


def _hostile_store(tmp_path: Path) -> str:
    from brainscore_core.results import ResultStore

    url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    fill_store(url, hostile_rows())
    store = ResultStore(url)  # another tool stored an infinite score (ResultStore.add would store NULL)
    stored = store.rows(model_identifier="alexnet_toy", benchmark_identifier=INFINITE_BENCHMARK)[0]
    store.insert({**stored, "id": None, "score_ceiled": float("inf"), "timestamp": _later(stored["timestamp"])})
    store.dispose()
    return url


def _later(stamp: str):
    from datetime import datetime, timedelta

    return datetime.fromisoformat(stamp) + timedelta(hours=1)


def _build(tmp_path: Path) -> Path:
    with warnings.catch_warnings():
        # every figure of these rows is drawn (no ReportFigureWarning), and drawn well: no glyph missing for a control
        # character, no axes squeezed away by a long label (matplotlib's UserWarnings)
        warnings.simplefilter("error", UserWarning)
        return build_report(tmp_path / "report", _hostile_store(tmp_path), use_plugins=False)


def test_hostile_rows_build_every_page_with_safe_file_names(tmp_path):
    site = _build(tmp_path)
    for folder, identifiers in (("models", MODELS), ("benchmarks", BENCHMARKS)):
        for identifier in identifiers:
            page = site / folder / f"{slug(identifier)}.html"
            assert f"<h1>{esc(identifier)}</h1>" in page.read_text(encoding="utf-8"), identifier
    files = list(site.rglob("*"))
    assert all(len(path.name.encode()) <= 255 for path in files)
    assert all(path.resolve().is_relative_to(site.resolve()) for path in files)
    assert not (tmp_path / "outside").exists()
    # the 300-character identifiers got a digested name; the mathtext ones were drawn as written
    assert len(slug(LONG_MODEL)) < 100 and (site / "img" / f"model-{slug(LONG_MODEL)}.png").is_file()
    assert (site / "img" / f"layers-{slug(MATHTEXT_MODEL)}.png").is_file()
    assert (site / "img" / f"rdm-{slug(MATHTEXT_BENCHMARK)}-{slug(PATH_MODEL)}.png").is_file()
    # the infinite score is left out of its chart, and the caption says so
    page = (site / "benchmarks" / f"{slug(INFINITE_BENCHMARK)}.html").read_text(encoding="utf-8")
    assert "Not drawn (NaN, infinite or missing): alexnet_toy." in page


def test_a_figure_that_fails_is_left_out_with_a_note(tmp_path, monkeypatch):
    """Stand-in for any failure matplotlib may still have: the RDM figure raises; its page notes it, no half-written
    image is left, and every other page and figure is built."""
    from brainscore_vision.report import plots

    def failing(path, panels):
        Path(path).write_bytes(b"half a PNG")
        raise ValueError("Image size of 100000x100 pixels is too large")

    monkeypatch.setattr(plots, "rdm_grid", failing)
    with pytest.warns(ReportFigureWarning, match=r"Figure left out \(the RDMs for .*\): ValueError: Image size"):
        site = build_report(tmp_path / "report", _hostile_store(tmp_path), use_plugins=False)
    page = (site / "benchmarks" / f"{slug(MATHTEXT_BENCHMARK)}.html").read_text(encoding="utf-8")
    assert "Figure left out (the RDMs for ../../outside/a/b on Math2026.$x^$-rdm): ValueError: Image size of " \
           "100000x100 pixels is too large" in page
    assert not list((site / "img").glob("rdm-*"))
    assert (site / "img" / f"benchmark-{slug(MATHTEXT_BENCHMARK)}.png").is_file()
    assert all((site / "models" / f"{slug(model)}.html").is_file() for model in MODELS)


def test_hostile_rows_in_chromium(chrome, tmp_path):
    from selenium.webdriver.common.by import By

    site = _build(tmp_path)
    chrome.get((site / "index.html").as_uri())
    links = {row.get_attribute("data-model"): row.find_element(By.CSS_SELECTOR, "td.name a").get_attribute("href")
             for row in chrome.find_elements(By.CSS_SELECTOR, "#leaderboard tbody tr")}
    assert set(links) == set(MODELS)
    pages = [*links.values(), *((site / "benchmarks" / f"{slug(b)}.html").as_uri() for b in BENCHMARKS)]
    for address in pages:
        chrome.get(address)
        heading = chrome.find_element(By.TAG_NAME, "h1").get_attribute("textContent")
        assert heading in (*MODELS, *BENCHMARKS), address
        images = chrome.find_elements(By.CSS_SELECTOR, "figure img")
        assert images, address
        for image in images:  # every figure the page links was drawn and loads
            assert chrome.execute_script("return arguments[0].complete && arguments[0].naturalWidth", image) > 0
        external = chrome.execute_script(
            "return Array.from(document.querySelectorAll('[src],[href]'))"
            ".map(e => e.getAttribute('src') || e.getAttribute('href')).filter(v => /^\\s*(https?:)?\\/\\//i.test(v));")
        assert external == [], address
    severe = [entry["message"] for entry in chrome.get_log("browser") if entry.get("level") == "SEVERE"]
    assert severe == []


@pytest.mark.parametrize(("umask", "folder_mode", "file_mode"), [(0o077, 0o700, 0o600), (0o022, 0o755, 0o644)])
def test_the_report_folder_follows_the_umask(tmp_path, umask, folder_mode, file_mode):
    # what mkdir (0777) and open (0666) give under the umask: 0777 & ~umask, 0666 & ~umask
    previous = os.umask(umask)
    try:
        site = build_report(tmp_path / "report", rows=hostile_rows()[:1], use_plugins=False)  # one plain row
    finally:
        os.umask(previous)
    for path in [site, *site.rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode == (folder_mode if path.is_dir() else file_mode), (path, oct(mode))
