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
