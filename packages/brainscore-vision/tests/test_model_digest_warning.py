"""A model identifier loaded with other weights than before (an unseeded network) gets one one-line warning: its
content digest changed since its previous load in this process, or since its newest stored score (another process)."""

from __future__ import annotations

import warnings

import pytest
from conftest import registered_model

import brainscore_core.scoring as scoring
import brainscore_vision
from brainscore_core.errors import ModelDigestChangedWarning
from brainscore_core.results import ResultStore
from brainscore_vision.cli import main

BENCHMARK = "Kiani2007.mIT-rdm"  # one 92 x 92 RDM: the fastest real benchmark


@pytest.fixture(autouse=True)
def fresh_process_memory(monkeypatch):
    """Each test starts as a new process would: no model loaded yet (restored afterwards, whatever happens)."""
    monkeypatch.setattr(scoring, "_DIGESTS_SEEN", {})


def _score(identifier, url):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        brainscore_vision.score(identifier, BENCHMARK, store=url)
    return [w for w in caught if issubclass(w.category, ModelDigestChangedWarning)]


def test_digest_change_in_one_process_warns_once_per_change(tmp_path, monkeypatch, kriegeskorte_raw):
    url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    digests = iter(["a" * 40, "a" * 40, "b" * 40])
    model = registered_model("pixels")
    monkeypatch.setattr(type(model), "content_digest", lambda self: next(digests), raising=False)
    first, same, changed = (_score("pixels", url) for _ in range(3))
    assert first == [] and same == []  # first load, then the same weights again: nothing to say
    (warning,) = changed
    message = str(warning.message)
    assert "\n" not in message and message.startswith(
        "model 'pixels' has other weights than at its previous load in this process (content digest aaaaaaaaaaaa -> "
        "bbbbbbbbbbbb)")
    assert "torch.manual_seed" in message


def test_digest_change_since_the_stored_score_warns_in_a_new_process(tmp_path, monkeypatch, kriegeskorte_raw):
    """A second process knows nothing of the first: the store's newest row of the model tells."""
    url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    model = registered_model("pixels")
    digests = iter(["c" * 40, "d" * 40])
    monkeypatch.setattr(type(model), "content_digest", lambda self: next(digests), raising=False)
    assert _score("pixels", url) == []
    scoring._DIGESTS_SEEN.clear()  # what a new process starts with: only the store knows the earlier weights
    (warning,) = _score("pixels", url)
    assert f"than at its newest stored score in {url} (content digest cccccccccccc -> dddddddddddd)" in \
        str(warning.message)
    stored = [row["model_digest"] for row in ResultStore(url).rows(model_identifier="pixels")]
    assert stored == ["c" * 40, "d" * 40]  # the pair was scored again for the new weights, not skipped


def test_the_command_line_says_it_in_one_line(tmp_path, monkeypatch, capsys, kriegeskorte_raw):
    url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    model = registered_model("pixels")
    digests = iter(["e" * 40, "f" * 40])
    monkeypatch.setattr(type(model), "content_digest", lambda self: next(digests), raising=False)
    brainscore_vision.score("pixels", BENCHMARK, store=url)
    assert main(["score", "--model", "pixels", "--benchmark", BENCHMARK, "--results-url", url]) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if "ModelDigestChangedWarning" in line]
    assert lines == ["brainscore score: ModelDigestChangedWarning: model 'pixels' has other weights than at its "
                     "previous load in this process (content digest eeeeeeeeeeee -> ffffffffffff): its scores are not "
                     "comparable and stored pairs are scored again; seed an unseeded network (torch.manual_seed) "
                     "before building it, or ignore this if you changed the weights on purpose"]
