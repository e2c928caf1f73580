"""The report as a user sees it: headless Chromium on file://, sorting, links, displayed numbers.

Two sources: a store filled with realistic rows (hand-worked expectations in report_fixtures), and
real `brainscore score` runs of `pixels` and `randomnet` on the two real benchmarks (skipped with a
reason until those plugins and the data are present; required under BRAINSCORE_REQUIRE_DATA=1).
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from report_fixtures import (
    BEHAVIOUR,
    IT,
    V4,
    artifacts_dir,
    chrome,
    real_store,
    realistic_rows,
    store_arguments,
)

from brainscore_vision.report import build_report

__all__ = ["chrome", "real_store"]  # fixtures, imported so that pytest finds them in this module


def _by(name):
    from selenium.webdriver.common.by import By

    return getattr(By, name)


def _model_order(driver) -> list[str]:
    rows = driver.find_elements(_by("CSS_SELECTOR"), "#leaderboard tbody tr")
    return [row.get_attribute("data-model") for row in rows]


def _column(driver, node: str) -> int:
    header = driver.find_element(_by("CSS_SELECTOR"), f'#leaderboard th[data-node="{node}"]')
    return int(header.get_attribute("data-col"))


def _cell(driver, model: str, node: str):
    column = _column(driver, node)
    row = driver.find_element(_by("CSS_SELECTOR"), f'#leaderboard tbody tr[data-model="{model}"]')
    return row.find_elements(_by("TAG_NAME"), "td")[column]


def _click_header(driver, node: str) -> None:
    driver.find_element(_by("CSS_SELECTOR"), f'#leaderboard th[data-node="{node}"] button.sort').click()


def _expected_order(values: dict[str, float | None], descending: bool) -> list[str]:
    """Models by value (missing/NaN last in both directions), ties by current order kept stable."""
    present = [m for m, v in values.items() if v is not None and not math.isnan(v)]
    missing = [m for m in values if m not in present]
    return sorted(present, key=lambda m: values[m], reverse=descending) + missing


def _shown(value: float) -> str:
    """Independent statement of the page's number format: three decimals, ▲ prefix above 1."""
    return ("\u25b2" if value > 1 else "") + f"{value:.3f}"


def _external_links(driver) -> list[str]:
    """src/href attribute values on the displayed page that point to the network."""
    script = ("return Array.from(document.querySelectorAll('[src],[href]'))"
              ".map(e => e.getAttribute('src') || e.getAttribute('href'))"
              ".filter(v => /^\\s*(https?:)?\\/\\//i.test(v));")
    return driver.execute_script(script)


def _screenshot(driver, name: str) -> Path:
    path = artifacts_dir() / name
    driver.save_screenshot(str(path))
    return path


def _severe_console_errors(driver) -> list[str]:
    try:
        logs = driver.get_log("browser")
    except Exception:  # log capture is optional in some driver builds
        return []
    return [entry["message"] for entry in logs if entry.get("level") == "SEVERE"]


def test_leaderboard_in_chromium_sorts_toggles_and_links_to_benchmark_pages(chrome, tmp_path):
    rows = realistic_rows()
    site = build_report(tmp_path / "report", use_plugins=False, **store_arguments(tmp_path, rows))
    chrome.get((site / "index.html").as_uri())
    assert chrome.find_element(_by("TAG_NAME"), "h1").text == "Brain-Score leaderboard"
    assert _severe_console_errors(chrome) == []
    assert _external_links(chrome) == []

    # default order: average_vision, best first (hand-worked in realistic_rows: .435, .28775, .1115)
    assert _model_order(chrome) == ["alexnet_toy", "randomnet", "pixels"]
    # cells show the latest rows' ceiled scores (pixels on V4: row 2's 0.081, not stale row 1's 0.9)
    latest = {(r["model_identifier"], r["benchmark_identifier"]): r for r in rows[1:]}
    for (model, benchmark), row in latest.items():
        shown = _cell(chrome, model, benchmark).find_element(_by("TAG_NAME"), "a").text
        assert shown == _shown(row["score_ceiled"]), (model, benchmark)
    assert _cell(chrome, "pixels", BEHAVIOUR).text == "\u2014"

    # sort by the IT benchmark: descending first (0.31, 0.142, 0.095), then ascending
    _click_header(chrome, IT)
    it_values = {m: latest[(m, IT)]["score_ceiled"] for m in ("alexnet_toy", "pixels", "randomnet")}
    assert _model_order(chrome) == _expected_order(it_values, descending=True)
    assert _model_order(chrome) == ["alexnet_toy", "pixels", "randomnet"]
    ranks = [td.text for td in chrome.find_elements(_by("CSS_SELECTOR"), "#leaderboard td.rank")]
    assert ranks == ["1", "2", "3"]
    _click_header(chrome, IT)
    assert _model_order(chrome) == ["randomnet", "pixels", "alexnet_toy"]
    header = chrome.find_element(_by("CSS_SELECTOR"), f'#leaderboard th[data-node="{IT}"]')
    assert header.get_attribute("aria-sort") == "ascending"

    # a column with a missing score keeps the unscored model last both ways
    _click_header(chrome, BEHAVIOUR)
    assert _model_order(chrome) == ["randomnet", "alexnet_toy", "pixels"]
    _click_header(chrome, BEHAVIOUR)
    assert _model_order(chrome) == ["alexnet_toy", "randomnet", "pixels"]

    # overshoot marker, hover text with raw score and ceiling, and the raw toggle
    overshoot = _cell(chrome, "alexnet_toy", V4)
    assert overshoot.find_element(_by("TAG_NAME"), "a").text == "\u25b21.030"
    assert "raw 0.793" in overshoot.get_attribute("title")
    assert "ceiling 0.610 \u00b10.021" in overshoot.get_attribute("title")
    raw = _cell(chrome, "pixels", V4).find_element(_by("CSS_SELECTOR"), "span.raw")
    assert not raw.is_displayed()
    toggle = chrome.find_element(_by("ID"), "toggle-raw")
    toggle.click()
    assert raw.is_displayed() and raw.text == "raw 0.222 \u00b7 ceiling 0.610"
    assert toggle.text == "Hide raw scores and ceilings"
    _screenshot(chrome, "report-leaderboard.png")

    # follow the link of pixels' V4 cell to the benchmark page
    _cell(chrome, "pixels", V4).find_element(_by("TAG_NAME"), "a").click()
    assert chrome.current_url.endswith(f"/benchmarks/{V4}.html")
    assert chrome.find_element(_by("TAG_NAME"), "h1").text == V4
    fact = chrome.find_element(_by("CSS_SELECTOR"), 'dd[data-fact="ceiling"]').text
    assert fact == f"{0.61:.3f} \u00b1{0.021:.3f}"
    assert chrome.find_element(_by("CSS_SELECTOR"), 'dd[data-fact="n_neuroids"]').text == "88"
    assert chrome.find_element(_by("ID"), "bibtex").text.startswith("@article{cowley2023")
    table = {tr.get_attribute("data-model"): tr.find_elements(_by("TAG_NAME"), "td")
             for tr in chrome.find_elements(_by("CSS_SELECTOR"), "#scores tbody tr")}
    assert list(table) == ["alexnet_toy", "randomnet", "pixels"]
    for model, cells in table.items():
        row = latest[(model, V4)]
        assert cells[2].text == _shown(row["score_ceiled"])
        assert cells[3].text == f"\u00b1{row['error']:.3f}"
        assert cells[4].text == f"{row['score_raw']:.3f}"
    assert _external_links(chrome) == []
    chart = chrome.find_element(_by("CSS_SELECTOR"), "figure.scores-chart img")
    assert chrome.execute_script("return arguments[0].complete && arguments[0].naturalWidth", chart) > 0
    _screenshot(chrome, "report-benchmark.png")

    # the RSA page draws RDM images that load from file://
    chrome.get((site / "benchmarks" / f"{IT}.html").as_uri())
    images = chrome.find_elements(_by("CSS_SELECTOR"), "figure.rdm img")
    assert len(images) == 3
    assert all(chrome.execute_script("return arguments[0].naturalWidth", img) > 0 for img in images)

    # and a model page with its layer map
    chrome.find_element(_by("LINK_TEXT"), "randomnet").click()
    assert chrome.current_url.endswith("/models/randomnet.html")
    layer_rows = [tr.text for tr in chrome.find_elements(_by("CSS_SELECTOR"), "#layer-map tbody tr")]
    assert layer_rows == ["V1 conv1", "V4 conv2", "IT conv3"]
    assert _severe_console_errors(chrome) == []


def test_real_scores_of_pixels_and_randomnet_in_chromium(chrome, real_store, tmp_path):
    """Report of real `brainscore score` runs; numbers on screen equal the store's rows."""
    url, rows = real_store
    site = build_report(tmp_path / "report", url)
    chrome.get((site / "index.html").as_uri())
    latest: dict[tuple[str, str], dict] = {}
    for row in sorted(rows, key=lambda r: (str(r["timestamp"]), r["id"])):
        latest[(row["model_identifier"], row["benchmark_identifier"])] = row
    assert sorted(_model_order(chrome)) == ["pixels", "randomnet"]
    for (model, benchmark), row in latest.items():
        text = _cell(chrome, model, benchmark).find_element(_by("TAG_NAME"), "a").text
        value = row["score_ceiled"]
        assert text == ("NaN" if value is None or math.isnan(value) else _shown(value)), (model, benchmark)
    for model in ("pixels", "randomnet"):
        # both benchmarks sit under neural (V4 and IT regions, one benchmark each, parents from the
        # installed plugins): neural = (V4 score + IT score) / 2, computed here from the store's rows
        v4, it = latest[(model, V4)]["score_ceiled"], latest[(model, IT)]["score_ceiled"]
        neural = _cell(chrome, model, "neural").text
        assert neural.startswith(_shown((v4 + it) / 2)), (model, neural)
    for benchmark in (V4, IT):
        values = {m: latest[(m, benchmark)]["score_ceiled"] for m in ("pixels", "randomnet")}
        _click_header(chrome, benchmark)
        assert _model_order(chrome) == _expected_order(values, descending=True)
    _screenshot(chrome, "report-real-leaderboard.png")
    _cell(chrome, "pixels", IT).find_element(_by("TAG_NAME"), "a").click()
    assert chrome.find_element(_by("TAG_NAME"), "h1").text == IT
    ceiling = latest[("pixels", IT)]["ceiling"]
    fact = chrome.find_element(_by("CSS_SELECTOR"), 'dd[data-fact="ceiling"]').text
    assert re.match(re.escape(f"{ceiling:.3f}"), fact)
    table = {tr.get_attribute("data-model"): tr.find_elements(_by("TAG_NAME"), "td")
             for tr in chrome.find_elements(_by("CSS_SELECTOR"), "#scores tbody tr")}
    for model, cells in table.items():
        assert cells[4].text == f"{latest[(model, IT)]['score_raw']:.3f}"
    _screenshot(chrome, "report-real-benchmark.png")
