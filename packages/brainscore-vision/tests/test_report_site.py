"""The static site without a browser: files, links, notes for odd stores, escaping, atomic writes."""

import math
import re
from pathlib import Path
from urllib.parse import unquote

import pytest
from report_fixtures import (
    COWLEY_BIBTEX,
    IT,
    V4,
    make_row,
    realistic_rows,
    site_pages,
    store_arguments,
    tag_attributes,
)

from brainscore_vision.report import ReportDirectoryError, build_report
from brainscore_vision.report import site as site_module


def _build(tmp_path, rows, name="site", **kwargs):
    """Build from a ResultStore filled with ``rows`` (through ``store.add``)."""
    kwargs.setdefault("use_plugins", False)
    stores = tmp_path / "stores"
    stores.mkdir(exist_ok=True)
    store = stores / f"{name}-{len(list(stores.iterdir()))}"
    store.mkdir()
    return build_report(tmp_path / name, **store_arguments(store, rows), **kwargs)


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_site_is_self_contained_and_every_local_link_resolves(tmp_path):
    site = _build(tmp_path, realistic_rows())
    pages = site_pages(site)
    # leaderboard + 3 benchmark pages + 3 model pages
    assert len(pages) == 7 and (site / "index.html") in pages
    for page in pages:
        for tag, name, value in tag_attributes(_text(page)):
            if name not in ("src", "href"):
                continue
            assert not re.match(r"^\s*(https?:)?//", value, re.IGNORECASE), (page, tag, value)
            assert "http://" not in value and "https://" not in value, (page, tag, value)
            target = (page.parent / unquote(value.split("#")[0])).resolve()
            assert target.is_file(), f"{page.name}: {tag} {name}={value} points nowhere"
    assert (site / "assets" / "report.js").is_file() and (site / "assets" / "report.css").is_file()
    assert (site / "img" / f"benchmark-{V4}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_leaderboard_shows_overshoot_raw_values_and_notes(tmp_path):
    index = _text(_build(tmp_path, realistic_rows()) / "index.html")
    # alexnet_toy on V4: ceiled 1.03 stored -> shown unclipped with the marker
    assert "\u25b21.030" in index and "above the ceiling (not clipped)" in index
    assert 'id="note-overshoot"' in index
    # hover text of pixels on V4 (latest row 2, not the stale row 1 with 0.900)
    assert "ceiled 0.081 \u00b10.012; raw 0.222; ceiling 0.610 \u00b10.021" in index
    assert "0.900" not in index
    # groups: pixels' neural = (0.081 + 0.142) / 2 = 0.1115 -> error sqrt(.012^2+.03^2)/2 = 0.01616
    # (0.081 + 0.142) / 2 is 0.11149999... in binary floating point, so it prints as 0.111
    assert re.search(r'data-sort="0\.111\d*" title="mean of 2 of 2 children of neural">0\.111'
                     r'<span class="err">\u00b10\.016</span>', index)
    assert 'id="aggregation-rule"' in index


def test_empty_store_renders_an_explanatory_note(tmp_path):
    site = _build(tmp_path, [])
    index = _text(site / "index.html")
    assert 'id="note-empty"' in index and "holds no scores yet" in index
    assert "<table" not in index
    assert list((site / "benchmarks").iterdir()) == [] and list((site / "models").iterdir()) == []


def test_one_model_renders_with_a_note(tmp_path):
    rows = [r for r in realistic_rows() if r["model_identifier"] == "pixels"]
    index = _text(_build(tmp_path, rows) / "index.html")
    assert 'id="note-one-model"' in index and "Only one model (pixels)" in index
    assert index.count('<tr data-model="') == 1


def test_missing_ceiling_is_explained_on_leaderboard_and_benchmark_page(tmp_path):
    rows = [make_row(1, "pixels", "NoCeiling2026.V1-pls", parent="V1", raw=0.3, ceiled=None, error=0.02,
                     ceiling=None, ceiling_error=None),
            make_row(2, "randomnet", "NoCeiling2026.V1-pls", parent="V1", raw=0.4, ceiled=None,
                     error=0.02, ceiling=None, ceiling_error=None)]
    site = _build(tmp_path, rows)
    assert "No ceiling recorded for: NoCeiling2026.V1-pls" in _text(site / "index.html")
    page = _text(site / "benchmarks" / "NoCeiling2026.V1-pls.html")
    assert 'id="note-ceiling"' in page and "No ceiling recorded for this benchmark" in page
    assert '<dd data-fact="ceiling">not recorded</dd>' in page
    assert "raw score" in page and ">0.300<" in page and ">0.400<" in page  # raw scores still shown


def test_nan_score_is_shown_as_nan_and_left_out_of_means(tmp_path):
    rows = realistic_rows()
    rows[5]["score_ceiled"] = float("nan")  # randomnet on IT
    site = _build(tmp_path, rows)
    index = _text(site / "index.html")
    assert 'id="note-nan"' in index and "randomnet on Kriegeskorte2008.hIT-rdm" in index
    assert '<span class="nan" title="the stored score is NaN or missing">NaN</span>' in index
    # randomnet's neural = V4 alone = 0.256 (IT NaN left out), marked 1/2
    assert re.search(r'data-sort="0\.256"[^>]*>0\.256<span class="err">\u00b10\.018</span>'
                     r'<span class="partial"[^>]*>1/2</span>', index)
    page = _text(site / "benchmarks" / f"{IT}.html")
    assert "No finite score for: randomnet" in page


def test_text_is_escaped_everywhere(tmp_path):
    evil_model = '<script>alert("m")</script>'
    evil_benchmark = 'x"><img src=y onerror=alert(1)>'
    rows = [make_row(1, evil_model, evil_benchmark, parent="<b>IT</b>", raw=0.1, ceiled=0.2, error=0.01,
                     ceiling=0.5, ceiling_error=0.1, attrs={"bibtex": "@a{<i>}"})]
    site = _build(tmp_path, rows)
    for page in site_pages(site):
        text = _text(page)
        assert "<script>alert" not in text and "<img src=y" not in text and "<b>IT</b>" not in text
        assert "<i>" not in text
    assert "&lt;script&gt;alert(&quot;m&quot;)&lt;/script&gt;" in _text(site / "index.html")
    for page in site_pages(site):  # file names are plain
        assert re.fullmatch(r"[A-Za-z0-9._-]+\.html", page.name)


def test_benchmark_page_facts_bibtex_and_chart(tmp_path):
    site = _build(tmp_path, realistic_rows())
    page = _text(site / "benchmarks" / f"{V4}.html")
    assert '<dd data-fact="ceiling">0.610 \u00b10.021</dd>' in page
    assert '<dd data-fact="n_stimuli">1200</dd>' in page and '<dd data-fact="n_neuroids">88</dd>' in page
    assert "@article{cowley2023" in page and COWLEY_BIBTEX.startswith("@article")
    assert 'class="scores-chart"' in page
    # rows in the scores table, best first: alexnet_toy 1.030, randomnet 0.256, pixels 0.081
    assert re.findall(r'<tr data-model="([^"]+)">', page) == ["alexnet_toy", "randomnet", "pixels"]


def test_bibtex_falls_back_to_the_installed_benchmark_and_survives_failures(tmp_path, monkeypatch):
    import brainscore_vision

    class Declared:
        bibtex = "@article{kriegeskorte2008, year={2008}}"

    def load_benchmark(identifier):
        if identifier == IT:
            return Declared()
        raise RuntimeError(f"cannot load {identifier}")

    monkeypatch.setattr(brainscore_vision, "load_benchmark", load_benchmark, raising=False)
    rows = [r for r in realistic_rows() if r["benchmark_identifier"] != V4]
    site = _build(tmp_path, rows, use_plugins=True)
    assert "@article{kriegeskorte2008" in _text(site / "benchmarks" / f"{IT}.html")
    assert "loading the benchmark failed (RuntimeError)" in _text(site / "benchmarks" / "Toy2026.objects-i2n.html")


def test_rsa_benchmark_shows_model_and_subject_rdms(tmp_path):
    site = _build(tmp_path, realistic_rows())
    page = _text(site / "benchmarks" / f"{IT}.html")
    images = re.findall(r'<img src="([^"]+rdm-[^"]+)"', page)
    assert len(images) == 3  # one figure per model; the subjects' RDMs drawn with the first
    assert "subject: subject 1 session 1" in page and "subject: subject 2 session 1" in page
    assert "8 x 8 stimuli" in page
    for image in images:
        assert (site / "benchmarks" / unquote(image)).resolve().is_file()


def test_model_page_layer_map_profile_and_scores(tmp_path):
    site = _build(tmp_path, realistic_rows())
    page = _text(site / "models" / "randomnet.html")
    assert "<td class=\"name\">V4</td><td class=\"name\">conv2</td>" in page
    assert 'class="layer-profile"' in page and (site / "img" / "layers-randomnet.png").is_file()
    # average_vision of randomnet = ((0.256 + 0.095) / 2 + 0.4) / 2 = 0.28775
    assert re.search(r'data-node="average_vision"[^>]*>.*?<td class="ceiled">0\.288</td>', page)
    assert 'id="note-layer-map"' in _text(site / "models" / "alexnet_toy.html")


def test_newest_benchmark_version_on_leaderboard_older_on_benchmark_page(tmp_path):
    rows = [make_row(1, "pixels", "B.V4", parent="V4", raw=0.1, ceiled=0.111, error=0.0, ceiling=0.5,
                     ceiling_error=0.0, version=1),
            make_row(2, "pixels", "B.V4", parent="V4", raw=0.2, ceiled=0.222, error=0.0, ceiling=0.5,
                     ceiling_error=0.0, version=2)]
    site = _build(tmp_path, rows)
    index = _text(site / "index.html")
    assert "0.222" in index and "0.111" not in index
    page = _text(site / "benchmarks" / "B.V4.html")
    assert "Older versions" in page and "0.111" in page


def test_missing_matplotlib_leaves_notes_instead_of_figures(tmp_path, monkeypatch):
    from brainscore_vision.report import plots

    monkeypatch.setattr(plots, "matplotlib_missing", lambda: "Figures need matplotlib.")
    site = _build(tmp_path, realistic_rows())
    assert list((site / "img").iterdir()) == []
    assert "Figures need matplotlib." in _text(site / "benchmarks" / f"{V4}.html")


def test_rebuild_replaces_previous_site_and_refuses_foreign_folders(tmp_path):
    site = _build(tmp_path, realistic_rows())
    (site / "stale.html").write_text("old")
    _build(tmp_path, realistic_rows()[:3])
    assert not (site / "stale.html").exists() and (site / "index.html").is_file()
    foreign = tmp_path / "documents"
    foreign.mkdir()
    (foreign / "thesis.tex").write_text("keep me")
    with pytest.raises(ReportDirectoryError, match="documents"):
        _build(tmp_path, realistic_rows(), name="documents")
    assert (foreign / "thesis.tex").read_text() == "keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["documents", "site", "stores"]  # no temp folders


def test_failed_build_keeps_the_previous_site(tmp_path, monkeypatch):
    site = _build(tmp_path, realistic_rows())
    before = _text(site / "index.html")

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(site_module, "_render", broken)
    with pytest.raises(RuntimeError, match="disk full"):
        _build(tmp_path, [])
    assert _text(site / "index.html") == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site", "stores"]


def test_nan_free_numbers_match_rows(tmp_path):
    # every latest ceiled score appears in the leaderboard exactly as the page formats it (3 decimals)
    rows = realistic_rows()[1:]
    index = _text(_build(tmp_path, rows) / "index.html")
    for row in rows:
        value = row["score_ceiled"]
        assert not math.isnan(value)
        assert f">{value:.3f}<" in index or f">\u25b2{value:.3f}<" in index, row


def test_brainscore_report_command_writes_the_site(tmp_path, capsys):
    from brainscore_vision.cli import main

    arguments = store_arguments(tmp_path, realistic_rows())
    status = main(["report", "--out", str(tmp_path / "cli-site"), "--results-url", arguments["results_url"]])
    assert status == 0 and "report written to" in capsys.readouterr().out
    index = _text(tmp_path / "cli-site" / "index.html")
    assert index.count('<tr data-model="') == 3


def test_store_password_never_reaches_the_page(tmp_path):
    from brainscore_vision.report.site import _store_label

    label = _store_label("postgresql+psycopg://alice:s3cret@db.example:5432/scores")
    assert "s3cret" not in label and "alice" in label and "***" in label
