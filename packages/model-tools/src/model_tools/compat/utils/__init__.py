"""``brainscore_vision.model_helpers.utils``: ``fullname`` (from :mod:`brainscore_vision.utils`) and ``make_list``."""

from __future__ import annotations

from typing import Any

from brainscore_vision.utils import fullname

__all__ = ["fullname", "make_list"]


def make_list(element: Any) -> list | Any:
    """``[element]`` for a single element (a string counts as one), the element itself when it is iterable."""
    if isinstance(element, (str, bytes)) or not hasattr(element, "__iter__"):
        return [element]
    return element
