"""Renamed keyword arguments and functions: the old name keeps working for a while, with a ``DeprecationWarning``.

Used wherever a public keyword was renamed to the project's name table (``CONTRIBUTING.md``)::

    class CrossRegressedCorrelation(Metric):
        @renamed_keywords(bootstrap_seed="bootstrap_random_state", stimulus_coord="comparison_coord")
        def __init__(self, ..., bootstrap_random_state=0, comparison_coord="stimulus_id"): ...

``inspect.signature`` (and with it ``get_params``) sees the new names only.

A function known under two names keeps one; the other becomes a :func:`deprecated_alias` of it::

    to_float = deprecated_alias(score_value, "brainscore_vision._cli_rows.to_float",
                                "brainscore_core.score.score_value")
"""

from __future__ import annotations

import functools
import importlib
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["deprecated_alias", "deprecated_attributes", "renamed_keywords", "warn_deprecated"]

F = TypeVar("F", bound=Callable[..., Any])


def renamed_keywords(**renames: str) -> Callable[[F], F]:
    """Decorator: accept each old keyword (the argument name) in place of its new name (the value).

    Passing an old name warns with a ``DeprecationWarning`` that names both and forwards the value; passing
    both the old and the new name raises ``TypeError``. The mapping is kept as ``function.renamed_keywords``.
    """
    def decorate(function: F) -> F:
        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for old, new in renames.items():
                if old in kwargs:
                    if new in kwargs:
                        raise TypeError(f"{function.__qualname__}() got both {old!r} (deprecated) and {new!r}")
                    warnings.warn(f"{function.__qualname__}(): keyword {old!r} is deprecated, use {new!r} "
                                  "(same meaning)", DeprecationWarning, stacklevel=2)
                    kwargs[new] = kwargs.pop(old)
            return function(*args, **kwargs)

        wrapper.renamed_keywords = dict(renames)  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate


def warn_deprecated(old: str, new: str, *, stacklevel: int = 3) -> None:
    """Warn with a ``DeprecationWarning`` that the spelling ``old`` is deprecated and names ``new`` (one line)."""
    warnings.warn(f"{old} is deprecated: use {new}", DeprecationWarning, stacklevel=stacklevel)


def deprecated_attributes(module_name: str, aliases: dict[str, tuple[str, Callable[[], Any] | str]]):
    """A module ``__getattr__`` (PEP 562) that serves old names, each with a ``DeprecationWarning`` naming its new
    spelling.

    Parameters
    ----------
    module_name : str
        The module's ``__name__`` (used in the warning: ``'<module_name>.<name> is deprecated: use <new>'``).
    aliases : dict
        ``old name -> (new spelling for the message, target)``; the target is ``'module:attribute'`` or a callable
        returning the object, resolved on access, so nothing is imported before an old name is used.

    Usage: ``__getattr__ = deprecated_attributes(__name__, {'RDM': ("load_metric('rdm')", 'brainscore_metrics.rdm:RDMMetric')})``.
    """
    def __getattr__(name: str) -> Any:
        if name not in aliases:
            raise AttributeError(f"module {module_name!r} has no attribute {name!r}")
        new, target = aliases[name]
        warn_deprecated(f"{module_name}.{name}", new)
        if isinstance(target, str):
            module, _, attribute = target.partition(":")
            return getattr(importlib.import_module(module), attribute)
        return target()

    return __getattr__


def deprecated_alias(function: F, old_name: str, new_name: str) -> F:
    """``function`` under a former name: each call warns with a ``DeprecationWarning`` naming ``old_name`` and
    ``new_name`` (where the one definition lives), then returns what ``function`` returns."""
    @functools.wraps(function)
    def alias(*args: Any, **kwargs: Any) -> Any:
        warnings.warn(f"{old_name} is deprecated, use {new_name} (the same function)", DeprecationWarning,
                      stacklevel=2)
        return function(*args, **kwargs)

    alias.deprecated_name = old_name  # type: ignore[attr-defined]
    return alias  # type: ignore[return-value]
