"""The 1.x lookups ``get_assembly(identifier)`` / ``get_stimulus_set(identifier)``, over today's loaders."""

from __future__ import annotations

from brainscore._identifiers import today_identifier
from brainscore_core.deprecation import warn_deprecated

__all__ = ["get_assembly", "get_stimulus_set"]


def get_assembly(identifier: str, *, old_spelling: str = "brainscore.get_assembly"):
    """The assembly of ``identifier`` (1.x era names such as ``'dicarlo.Majaj2015'`` map to today's), loaded with
    ``brainscore_vision.load_dataset``; warns with a ``DeprecationWarning`` naming that call."""
    import brainscore_vision

    today = today_identifier("data", identifier, brainscore_vision.data_registry)
    warn_deprecated(f"{old_spelling}({identifier!r})", f"brainscore_vision.load_dataset({today!r})", stacklevel=4)
    return brainscore_vision.load_dataset(today)


def get_stimulus_set(identifier: str, *, old_spelling: str = "brainscore.get_stimulus_set"):
    """The stimulus set of ``identifier`` (1.x era names map to today's), loaded with
    ``brainscore_vision.load_stimulus_set``; warns with a ``DeprecationWarning`` naming that call."""
    import brainscore_vision

    today = today_identifier("stimulus_set", identifier, brainscore_vision.stimulus_set_registry)
    warn_deprecated(f"{old_spelling}({identifier!r})", f"brainscore_vision.load_stimulus_set({today!r})",
                    stacklevel=4)
    return brainscore_vision.load_stimulus_set(today)
