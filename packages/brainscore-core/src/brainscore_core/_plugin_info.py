"""Plugin kinds and the origin of one registered plugin (:class:`PluginInfo`), shared by the plugin layer
(:mod:`brainscore_core._catalog`, :mod:`brainscore_core._registry`, :mod:`brainscore_core.plugins`)."""

from __future__ import annotations

from dataclasses import dataclass

from brainscore_core.errors import UnknownKindError
from brainscore_core.hookspecs import HOOK_KINDS

__all__ = ["KINDS", "PluginInfo", "normalize_kind"]

KINDS: tuple[str, ...] = tuple(HOOK_KINDS)
_KIND_ALIASES = {
    **{kind: kind for kind in KINDS},
    **{f"{kind}s": kind for kind in KINDS},
    **{f"{kind}_registry": kind for kind in KINDS},
    "dataset": "data", "datasets": "data", "assembly": "data", "assemblies": "data",
    "stimulus_sets": "stimulus_set", "stimuli": "stimulus_set",
}


def normalize_kind(kind: str) -> str:
    """Map ``kind`` (``'benchmark'``, ``'benchmarks'``, ``'dataset'``, ...) to a registry kind.

    Raises
    ------
    UnknownKindError
        If ``kind`` names no registry; the message lists the valid kinds.
    """
    normalized = _KIND_ALIASES.get(str(kind).strip().lower().replace("-", "_").replace(" ", "_"))
    if normalized is None:
        raise UnknownKindError(f"unknown plugin kind {kind!r}; valid kinds are {', '.join(KINDS)}")
    return normalized


@dataclass(frozen=True)
class PluginInfo:
    """One registry entry: what is registered and which distribution provides it.

    Attributes
    ----------
    kind : str
        Registry kind (one of ``KINDS``).
    identifier : str
        Identifier under which the factory is registered.
    distribution : str or None
        Name of the installed distribution whose entry point registered it; None when it was registered
        explicitly (not through an entry point).
    version : str or None
        Version of that distribution.
    module : str or None
        Module that registered the factory.
    """

    kind: str
    identifier: str
    distribution: str | None
    version: str | None
    module: str | None

    def describe(self) -> str:
        """Human-readable origin, used in error messages."""
        if self.distribution:
            origin = f"distribution {self.distribution!r} {self.version or ''}".rstrip()
        else:
            origin = "an explicit registration (no distribution)"
        return f"{origin} (module {self.module!r})"

    def same_origin(self, other: PluginInfo) -> bool:
        return self.module == other.module and self.distribution == other.distribution
