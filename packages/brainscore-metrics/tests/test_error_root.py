"""One error root for the whole project (issue 32, item 5): every exception class brainscore_metrics defines derives from
``BrainScoreError`` (defined in brainio, re-exported by brainscore_core) and is defined in ``brainscore_metrics.errors``."""

from __future__ import annotations

from brainio.errors import BrainScoreError
from brainio.testing import defined_exceptions

PENDING: set[str] = set()


def test_every_error_derives_from_the_one_root():
    classes = defined_exceptions("brainscore_metrics")
    assert len(classes) >= 3, classes  # the walk found the package's errors (a walk that finds nothing fails)
    assert [cls for cls in classes if not issubclass(cls, BrainScoreError)] == []


def test_every_error_is_defined_in_the_errors_module():
    misplaced = {f"{cls.__module__}.{cls.__qualname__}" for cls in defined_exceptions("brainscore_metrics")
                 if cls.__module__ != "brainscore_metrics.errors"}
    assert misplaced == PENDING
