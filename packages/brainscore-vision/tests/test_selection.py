"""Selecting models and benchmarks (``brainscore_vision.selection``): shell-style globs, the suites ``shipped``,
``reachable``, ``leaderboard`` and ``all``, one-line errors with close matches; ``score_many`` and ``brainscore score
--dry-run`` with each suite. Expected sets are computed independently: ``re`` over the registry for globs, the markers
of ``brainscore list benchmarks`` for the data suites, the benchmarks' parents for the leaderboard."""

from __future__ import annotations

import re

import pytest

import brainscore_vision
from brainscore_vision.benchmark_data import data_marker
from brainscore_vision.cli import EXIT_USAGE, main
from brainscore_vision.errors import SelectionError
from brainscore_vision.selection import SUITES
from brainscore_vision.selection import select as _select
from brainscore_vision.selection import suite as _suite


def _all() -> list[str]:
    """Every registered benchmark now (other tests may register their own)."""
    return sorted(brainscore_vision.benchmark_registry)


def _own() -> set[str]:
    return {info.identifier for info in brainscore_vision.list_plugins("benchmark")
            if info.distribution == "brainscore-vision"}


def select(kind, words):
    return _select(kind, words, brainscore_vision.domain)


def suite(name):
    return _suite(name, brainscore_vision.domain)


@pytest.fixture
def no_aws(monkeypatch, tmp_path):
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "no-credentials"))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "no-config"))
    return monkeypatch


@pytest.mark.parametrize("pattern, regex", [("Li2026.*-rdm", r"Li2026\..*-rdm"), ("*.IT-*", r".*\.IT-.*"),
                                            ("Sanghavi*2020.V4-pls", r"Sanghavi.*2020\.V4-pls"),
                                            ("Geirhos2021[ce]*-top1", r"Geirhos2021[ce].*-top1")])
def test_a_glob_selects_what_the_equivalent_regex_matches(pattern, regex):
    expected = [identifier for identifier in _all() if re.fullmatch(regex, identifier)]
    assert expected and select("benchmark", [pattern]) == expected


def test_words_join_in_order_each_once():
    chosen = select("benchmark", ["Kar2019-ost", "Li2026.IT-*", "Kar2019-ost"])
    assert chosen == ["Kar2019-ost", "Li2026.IT-pls", "Li2026.IT-rdm", "Li2026.IT-ridgecv"]


def test_all_is_every_benchmark():
    assert suite("all") == _all() and len(_own()) >= 181


def test_shipped_is_what_the_list_marks_shipped():
    assert suite("shipped") == [identifier for identifier in _all() if data_marker(identifier) == "[shipped]"]


def test_shipped_is_empty_without_the_raw_data_and_says_why(monkeypatch, tmp_path):
    monkeypatch.setenv("BRAINSCORE_RAW_DATA", str(tmp_path / "nowhere"))
    assert suite("shipped") == []
    with pytest.raises(SelectionError, match="'shipped' has no benchmark here .*BRAINSCORE_RAW_DATA"):
        select("benchmark", ["shipped"])


def test_reachable_takes_private_data_only_with_aws_credentials(no_aws):
    without = suite("reachable")
    everything = _all()
    markers = {identifier: data_marker(identifier) for identifier in everything}
    assert not [i for i in without if markers[i].startswith("[private")]
    assert not [i for i in without if markers[i] in ("[unavailable]",) or markers[i].endswith("unset]")]
    assert {i for i in everything if markers[i] in ("[shipped]", "[network]", "[network: unsigned, then your AWS credentials]")
            } <= set(without)
    no_aws.setenv("AWS_ACCESS_KEY_ID", "AKIAEXAMPLEEXAMPLE01")
    no_aws.setenv("AWS_SECRET_ACCESS_KEY", "secret")
    with_credentials = suite("reachable")
    private = [i for i in _own() if markers[i] == "[private: needs Brain-Score credentials]"]
    assert len(private) == 16 and set(private) <= set(with_credentials)  # 30 of issue 39 less Cadena and Li2026
    assert (set(with_credentials) - set(without)) & _own() == set(private)


def test_reachable_takes_a_local_family_once_its_folder_is_set(no_aws, monkeypatch, tmp_path):
    assert "Allen2022_fmri.V1-ridge" not in suite("reachable")
    monkeypatch.setenv("BRAINSCORE_NSD_DIR", str(tmp_path))
    assert "Allen2022_fmri.V1-ridge" in suite("reachable")


def test_leaderboard_is_what_reaches_average_vision():
    chosen = suite("leaderboard")
    # by their parents: Li2026's pls have none, Bracci2019's is its own family node, the read-out is engineering,
    # ImageNet-top1's is ImageNet, Scialom2024's 20 engineering accuracies' is 'Scialom2024-top1' (Brain-Score's
    # benchmarks/scialom2024/benchmark.py): none of these reaches average_vision
    left_out = {"Li2026.V1-pls", "Li2026.V2-pls", "Li2026.V4-pls", "Li2026.IT-pls", "Bracci2019.anteriorVTC-rdm",
                "Igustibagus2024.IT_readout-accuracy", "ImageNet-top1"}
    left_out |= {f"Scialom2024_{condition}EngineeringAccuracy" for condition in
                 ["rgb", "contours", *(f"{kind}-{level}" for kind in ("phosphenes", "segments")
                                       for level in (12, 16, 21, 27, 35, 46, 59, 77, 100))]}
    # engineering too: ImageNet-C (parent Hendrycks2019-top1), ObjectNet (engineering), Islam2021's dimensionality
    # of the model alone (parent Islam2021; no brain data)
    left_out |= {f"ImageNet-C-{category}-top1" for category in ("noise", "blur", "weather", "digital")}
    left_out |= {"ObjectNet-top1"} | {f"Islam2021-{factor}_{region}_dimensionality" for factor in ("shape", "texture")
                                      for region in ("v1", "v2", "v4", "it")}
    assert len(left_out) == 40
    own = _own()
    assert set(chosen) & own == own - left_out
    for identifier in ("Li2026.IT-ridgecv", "Li2026.V1-rdm", "Kar2019-ost", "MajajHong2015.IT-pls",
                       "Rajalingham2018-i2n", "Marques2020_Ringach2002-or_bandwidth", "Hermann2020cueconflict-shape_bias"):
        assert identifier in chosen


def test_a_glob_matching_nothing_is_one_line_with_close_matches():
    with pytest.raises(SelectionError) as raised:
        select("benchmark", ["Geirhos2012*"])
    message = str(raised.value)
    assert "\n" not in message and "no benchmark matches the pattern 'Geirhos2012*'" in message
    assert "Geirhos2021" in message and "suites: shipped, reachable, leaderboard, all" in message


def test_model_globs_skip_aliases(monkeypatch):
    def factory():
        raise AssertionError("not built")

    alias = lambda: None  # noqa: E731
    alias.alias_of = "zz-selection-model"
    brainscore_vision.model_registry["zz-selection-model"] = factory
    brainscore_vision.model_registry["zz-selection-model-alias"] = alias
    assert select("model", ["zz-selection-*"]) == ["zz-selection-model"]
    assert select("model", ["zz-selection-model-alias"]) == ["zz-selection-model-alias"]  # named exactly: kept


def test_score_many_expands_globs_and_suites(monkeypatch):
    import brainscore_core.grid

    seen = {}
    monkeypatch.setattr(brainscore_core.grid, "score_many",
                        lambda models, benchmarks, client, **kwargs: seen.update(models=models, benchmarks=benchmarks))
    brainscore_vision.score_many("pix*", ["Li2026.V4-*", "all"], store=False)
    assert seen["benchmarks"][:3] == ["Li2026.V4-pls", "Li2026.V4-rdm", "Li2026.V4-ridgecv"]
    assert sorted(seen["benchmarks"]) == _all()
    with pytest.raises(SelectionError, match="no benchmark matches the pattern 'Nothing\\*'"):
        brainscore_vision.score_many(["pixels"], ["Nothing*"], store=False)


@pytest.mark.parametrize("name", SUITES)
def test_dry_run_of_each_suite_lists_its_pairs_and_what_each_needs(name, capsys, tmp_path, no_aws):
    brainscore_vision.model_registry["zz-dry-run-model"] = lambda: None
    status = main(["score", "--model", "zz-dry-run-model", "--benchmark", name, "--dry-run", "--results-url",
                   f"sqlite:///{tmp_path / 'results.sqlite'}"])
    out = capsys.readouterr().out
    assert status == 0
    expected = suite(name)
    pairs = [line for line in out.splitlines() if line.startswith("  zz-dry-run-model on ")]
    assert [line.split(" on ")[1].split(" (v")[0] for line in pairs] == expected
    for line, identifier in zip(pairs, expected, strict=True):
        # "...: score; data <marker>; memory <estimate>" (the memory preflight follows the data column)
        assert line.split("; data ", 1)[1].split("; memory")[0] == data_marker(identifier), line
    assert f"dry run of {len(expected)} pair(s)" in out


def test_dry_run_with_a_pattern_matching_nothing_exits_2(capsys):
    status = main(["score", "--model", "pixels", "--benchmark", "Kar2020*", "--dry-run"])
    err = capsys.readouterr().err
    assert status == EXIT_USAGE and len(err.strip().splitlines()) == 1 and "Kar2019-ost" in err
