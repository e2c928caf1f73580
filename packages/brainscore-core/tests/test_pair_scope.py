"""The pair scope: a memo that exists only while one pair is scored (``brainscore_core.pair_scope``)."""

from __future__ import annotations

import threading

from brainscore_core.pair_scope import pair_memo, pair_scope
from brainscore_core.scoring import score_pair


def test_memo_exists_only_inside_a_pair_and_is_dropped_after():
    assert pair_memo() is None
    with pair_scope() as memo:
        assert pair_memo() is memo
        memo["answer"] = 42
        with pair_scope() as inner:  # a nested pair gets its own memo
            assert pair_memo() is inner and "answer" not in inner
        assert pair_memo() is memo
    assert pair_memo() is None and memo == {}


def test_other_threads_do_not_see_this_pairs_memo():
    seen = []
    with pair_scope():
        thread = threading.Thread(target=lambda: seen.append(pair_memo()))
        thread.start()
        thread.join()
    assert seen == [None]


def test_score_pair_runs_the_pair_inside_one_scope():
    memos = []

    class Model:
        identifier = "m"

        def content_digest(self):
            memos.append(pair_memo())
            return "d"

    class Benchmark:
        identifier = "b"
        version = 1

        def __call__(self, model):
            from brainscore_core.metrics import Score

            memos.append(pair_memo())
            return Score(0.5, attrs={"raw": Score(0.5), "ceiling": Score(1.0)})

    score_pair(Model(), Benchmark(), store=False)
    assert len(memos) == 2 and memos[0] is not None and memos[0] is memos[1]
    assert pair_memo() is None


def test_callbacks_run_when_the_pair_ends_last_registered_first():
    from brainscore_core.pair_scope import call_at_pair_end

    calls = []
    assert call_at_pair_end(lambda: calls.append("outside")) is False  # nothing to attach to: never called
    with pair_scope():
        assert call_at_pair_end(lambda: calls.append("first")) is True
        assert call_at_pair_end(lambda: calls.append("second")) is True
        assert calls == []  # not before the pair ends
    assert calls == ["second", "first"]


def test_every_callback_runs_after_a_failing_pair_and_a_failing_callback():
    import pytest

    from brainscore_core.pair_scope import call_at_pair_end

    calls = []

    def fails():
        calls.append("fails")
        raise OSError("callback")

    with pytest.raises(ValueError, match="the pair"), pair_scope():  # the pair's own error is the one raised
        call_at_pair_end(lambda: calls.append("kept"))
        raise ValueError("the pair")
    assert calls == ["kept"]
    with pytest.raises(OSError, match="callback"), pair_scope():
        call_at_pair_end(lambda: calls.append("also runs"))
        call_at_pair_end(fails)
    assert calls == ["kept", "fails", "also runs"]


def test_a_failing_callback_does_not_hide_the_pairs_own_error():
    import pytest

    from brainscore_core.pair_scope import call_at_pair_end

    def fails():
        raise OSError("callback")

    with pytest.warns(RuntimeWarning, match="OSError"), pytest.raises(ValueError, match="the pair"), pair_scope():
        call_at_pair_end(fails)
        raise ValueError("the pair")


def test_model_release_callbacks_run_once_per_key_after_the_pair_end_ones():
    from brainscore_core.pair_scope import call_at_model_release, call_at_pair_end

    calls = []
    assert call_at_model_release("k", lambda: calls.append("outside")) is False  # nothing to attach to
    with pair_scope():
        assert call_at_model_release("k", lambda: calls.append("k")) is True
        assert call_at_model_release("k", lambda: calls.append("k again")) is False  # held already: not kept
        assert call_at_model_release("j", lambda: calls.append("j")) is True
        call_at_pair_end(lambda: calls.append("pair end"))
    assert calls == ["pair end", "j", "k"]


def test_model_release_callbacks_taken_for_a_kept_model_follow_it_into_the_next_pair():
    from brainscore_core.pair_scope import (
        call_at_model_release,
        give_model_releases,
        run_released,
        take_model_releases,
    )

    calls = []
    with pair_scope():
        call_at_model_release("k", lambda: calls.append("k"))
        kept = take_model_releases()  # what the grid does when it keeps the model for its next pair
    assert calls == [] and list(kept) == ["k"]
    with pair_scope():
        give_model_releases(kept)  # the next pair runs the kept model
        assert call_at_model_release("k", lambda: calls.append("k again")) is False  # still held from the first pair
        kept = take_model_releases()
    assert calls == []
    run_released(kept)  # the grid lets the model go
    assert calls == ["k"]
    give_model_releases({"outside": lambda: calls.append("outside")})  # no pair to hand them to: run at once
    assert calls == ["k", "outside"]


def test_a_failing_release_callback_is_warned_about_and_the_others_run():
    import pytest

    from brainscore_core.pair_scope import run_released

    calls = []

    def fails():
        raise OSError("release")

    with pytest.warns(RuntimeWarning, match="model was released: OSError"):
        run_released({"a": lambda: calls.append("a"), "b": fails})
    assert calls == ["a"]
