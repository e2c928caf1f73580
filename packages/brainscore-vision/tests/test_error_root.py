"""One error root for the whole project (issue 32, item 5): every exception class brainscore_vision defines derives from
``BrainScoreError`` (defined in brainio, re-exported by brainscore_core) and is defined in ``brainscore_vision.errors``."""

from __future__ import annotations

from brainio.testing import assert_one_error_root


def test_every_error_derives_from_the_one_root_and_lives_in_errors():
    assert_one_error_root("brainscore_vision")
