"""One error root for the whole project (issue 32, item 5): every exception class brainscore_core defines derives from
``BrainScoreError`` (defined in brainio, re-exported by brainscore_core) and is defined in ``brainscore_core.errors``."""

from __future__ import annotations

from brainio.testing import assert_one_error_root


def test_every_error_derives_from_the_one_root_and_lives_in_errors():
    assert_one_error_root("brainscore_core")


def test_core_reexports_the_root_and_a_module_that_raises_an_error_names_it():
    from brainio.errors import BrainScoreError
    from brainscore_core import errors, results

    assert errors.BrainScoreError is BrainScoreError
    assert results.ResultStoreError is errors.ResultStoreError
    assert issubclass(errors.MemoryBudgetError, MemoryError)
