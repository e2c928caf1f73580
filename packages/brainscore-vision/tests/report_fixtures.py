"""Shared helpers and fixtures of the report tests (imported explicitly by tests/test_report_*.py).

Rows mimic ``brainscore_core.results.ResultStore.rows()``: realistic numbers for `pixels` and
`randomnet` on the two real benchmarks plus a behavioural one, with RDMs, a layer map and layer scores.
"""

from __future__ import annotations

import html.parser
import json
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pytest

from brainio.skipping import import_or_skip, skip

REPO_ROOT = Path(__file__).resolve().parents[3]
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def artifacts_dir() -> Path:
    """Where screenshots go: $BRAINSCORE_TEST_ARTIFACTS, else <repo>/artifacts (git-ignored)."""
    folder = Path(os.environ.get("BRAINSCORE_TEST_ARTIFACTS") or REPO_ROOT / "artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def make_row(row_id, model, benchmark, *, parent, raw, ceiled, error, ceiling, ceiling_error,
             version=1, attrs=None, provenance=None, layer_map=None, comment=None,
             timestamp="2026-11-20T10:00:00"):
    """One row with the keys of ResultStore.rows(); JSON columns as text, like the store returns them."""
    return {
        "id": row_id, "model_identifier": model, "benchmark_identifier": benchmark,
        "benchmark_version": version, "benchmark_parent": parent, "score_raw": raw,
        "score_ceiled": ceiled, "error": error, "ceiling": ceiling, "ceiling_error": ceiling_error,
        "comment": comment, "layer_map": json.dumps(layer_map) if layer_map is not None else None,
        "provenance": json.dumps(provenance or {}), "attrs": json.dumps(attrs or {}),
        "timestamp": timestamp,
    }


def rdm(seed: int, size: int = 8) -> list[list[float]]:
    """A symmetric dissimilarity matrix with a zero diagonal, as a nested list (JSON-ready)."""
    values = np.random.default_rng(seed).random((size, size))
    values = (values + values.T) / 2
    np.fill_diagonal(values, 0.0)
    return values.round(4).tolist()


V4 = "Cowley2023.V4-pls"
IT = "Kriegeskorte2008.hIT-rdm"
BEHAVIOUR = "Toy2026.objects-i2n"
COWLEY_BIBTEX = "@article{cowley2023, title={Stimulus-driven and spontaneous dynamics}, year={2023}}"


def realistic_rows() -> list[dict]:
    """Rows for 3 models x 3 benchmarks; one stale row that must be ignored; one overshoot.

    Leaderboard numbers (latest rows), hand-worked:

    ====================  =======  =======  ==========  ======  ===========================
    model                 V4-pls   hIT-rdm  objects-i2n neural  average_vision
    ====================  =======  =======  ==========  ======  ===========================
    pixels                0.081    0.142    --          0.1115  0.1115 (behavior absent)
    randomnet             0.256    0.095    0.400       0.1755  (0.1755 + 0.4) / 2 = 0.28775
    alexnet_toy           1.030    0.310    0.200       0.670   (0.670 + 0.2) / 2 = 0.435
    ====================  =======  =======  ==========  ======  ===========================
    """
    it_attrs = {"rdm_subjects": ["subject 1 session 1", "subject 2 session 1"],
                "subject_rdms": [rdm(1), rdm(2)], "n_stimuli": 92}
    return [
        # stale row for (pixels, V4, v1): superseded by row 2 (later timestamp)
        make_row(1, "pixels", V4, parent="V4", raw=0.5, ceiled=0.9, error=0.1, ceiling=0.61,
                 ceiling_error=0.02, timestamp="2026-11-19T09:00:00"),
        make_row(2, "pixels", V4, parent="V4", raw=0.2223, ceiled=0.081, error=0.012, ceiling=0.61,
                 ceiling_error=0.021, attrs={"n_stimuli": 1200, "n_neuroids": 88, "bibtex": COWLEY_BIBTEX},
                 layer_map={"V4": "pixels"}),
        make_row(3, "randomnet", V4, parent="V4", raw=0.3952, ceiled=0.256, error=0.018, ceiling=0.61,
                 ceiling_error=0.021, layer_map={"V1": "conv1", "V4": "conv2", "IT": "conv3"},
                 attrs={"layer_scores": {"V4": {"conv1": 0.11, "conv2": 0.256, "conv3": 0.2}}}),
        make_row(4, "alexnet_toy", V4, parent="V4", raw=0.7932, ceiled=1.03, error=0.04, ceiling=0.61,
                 ceiling_error=0.021),
        make_row(5, "pixels", IT, parent="IT", raw=0.0511, ceiled=0.142, error=0.03, ceiling=0.36,
                 ceiling_error=0.05, attrs={**it_attrs, "model_rdm": rdm(3)}),
        make_row(6, "randomnet", IT, parent="IT", raw=0.0342, ceiled=0.095, error=0.02, ceiling=0.36,
                 ceiling_error=0.05, attrs={**it_attrs, "model_rdm": rdm(4)}),
        make_row(7, "alexnet_toy", IT, parent="IT", raw=0.1116, ceiled=0.31, error=0.025, ceiling=0.36,
                 ceiling_error=0.05, attrs={**it_attrs, "model_rdm": rdm(5)}),
        make_row(8, "randomnet", BEHAVIOUR, parent="behavior", raw=0.3, ceiled=0.4, error=0.05,
                 ceiling=0.75, ceiling_error=0.01),
        make_row(9, "alexnet_toy", BEHAVIOUR, parent="behavior", raw=0.15, ceiled=0.2, error=0.05,
                 ceiling=0.75, ceiling_error=0.01),
    ]


class _Collector(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.attributes: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        self.attributes += [(tag, name, value or "") for name, value in attrs]


def tag_attributes(text: str) -> list[tuple[str, str, str]]:
    """(tag, attribute, value) of every start tag in an HTML document."""
    collector = _Collector()
    collector.feed(text)
    return collector.attributes


def site_pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


@pytest.fixture
def chrome(tmp_path_factory):
    """Headless Chromium through Selenium; skips (kinds 'extra', 'service'; failures under
    BRAINSCORE_REQUIRE_DATA=1) without it."""
    import_or_skip("selenium", extra="brainscore-vision[test]")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    for binary in (CHROMIUM, CHROMEDRIVER):
        if not (Path(binary).exists() and os.access(binary, os.X_OK)):
            skip("service", f"{binary} missing: apt-get install -y chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="chromium-profile-", dir=tmp_path_factory.getbasetemp())
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--no-first-run", "--disable-background-networking", "--disable-component-update",
                     "--disable-sync", "--disable-quic", f"--user-data-dir={profile}",
                     "--window-size=1280,900"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _score_of(row: dict):
    """A Score as a benchmark returns it: ceiled value with error, raw and ceiling Scores, extra attrs."""
    from brainscore_core.score import Score

    score = Score(row["score_ceiled"] if row["score_ceiled"] is not None else float("nan"))
    score.attrs.update(json.loads(row["attrs"]))
    score.attrs["raw"] = Score(row["score_raw"])
    if row["ceiling"] is not None:
        score.attrs["ceiling"] = Score(row["ceiling"], attrs={"error": row["ceiling_error"]})
    score.attrs["error"] = row["error"]
    return score


def fill_store(url: str, rows: list[dict]) -> None:
    """Add ``rows`` to the ResultStore at ``url`` with ``store.add`` (in list order)."""
    from datetime import UTC, datetime

    from brainscore_core.results import ResultStore

    store = ResultStore(url)
    store.rows()  # creates the store, also when it stays empty (the report reads existing stores only)
    for row in rows:
        attrs = json.loads(row["attrs"])
        row_id = store.add(
            _score_of(row), model_identifier=row["model_identifier"],
            benchmark_identifier=row["benchmark_identifier"], benchmark_version=row["benchmark_version"],
            benchmark_parent=row["benchmark_parent"], comment=row["comment"],
            layer_map=json.loads(row["layer_map"]) if row["layer_map"] else None,
            timestamp=datetime.fromisoformat(row["timestamp"]).replace(tzinfo=UTC))
        stored = json.loads(store.rows()[-1]["attrs"] or "{}")
        # the report reads list/dict attrs (model_rdm, subject_rdms, layer_scores) from the attrs JSON
        lost = sorted(key for key in attrs if stored.get(key) != attrs[key])
        assert not lost, f"ResultStore.add did not keep attrs {lost} of row {row_id}"
    store.dispose()


def store_arguments(tmp_path: Path, rows: list[dict]) -> dict:
    """``build_report`` arguments for ``rows``: a real ResultStore filled with ``store.add``."""
    url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    fill_store(url, rows)
    return {"results_url": url}


REAL_MODELS = ("pixels", "randomnet")
REAL_BENCHMARKS = (V4, IT)


@pytest.fixture
def real_store(tmp_path, cowley_raw, kriegeskorte_raw):
    """(url, rows) of a results store filled by `brainscore score` on the real benchmarks and models.

    The raw-data fixtures (tests/conftest.py) skip, or fail under BRAINSCORE_REQUIRE_DATA=1, without data;
    caches go to the session's temporary homes set there, so data is packaged once per session.
    """
    import sys

    import brainscore_vision
    from brainscore_core.children import run_child  # the scoring child dies with this test process
    from brainscore_core.results import ResultStore

    missing = [b for b in REAL_BENCHMARKS if b not in brainscore_vision.benchmark_registry]
    missing += [m for m in REAL_MODELS if m not in brainscore_vision.model_registry]
    if missing:  # the models come from model-tools, which this package's test session installs
        skip("extra", f"not registered in entry-point group 'brainscore_vision': {', '.join(missing)}")
    url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    command = [sys.executable, "-m", "brainscore_vision", "score", "--results-url", url]
    for model in REAL_MODELS:
        command += ["--model", model]
    for benchmark in REAL_BENCHMARKS:
        command += ["--benchmark", benchmark]
    done = run_child(command[1:], capture_output=True, text=True, env=dict(os.environ), timeout=1800)
    if done.returncode == 3:
        skip("data", f"raw data missing for the real runs: {done.stderr.strip()[-500:]}")
    if done.returncode != 0:
        pytest.fail(f"brainscore score failed ({done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return url, ResultStore(url).rows()
