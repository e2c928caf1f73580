"""Typed exceptions of brainscore_core.

Every error subclasses a builtin (``ValueError``, ``KeyError`` or ``ImportError``) so that callers can catch
either, and its message names the identifier, kind, distribution or file involved.
"""

from __future__ import annotations

from collections.abc import Sequence

from brainio.errors import BrainScoreError

__all__ = [
    "BrainScoreError",
    "ClusterUnavailableError",
    "DamagedResultStoreError",
    "DuplicateIdentifierError",
    "InvalidPluginError",
    "MemoryBudgetError",
    "ModelDigestChangedWarning",
    "MemberNotImplementedError",
    "NonScalarScoreError",
    "PluginLoadError",
    "PluginOverrideNotice",
    "PluginStateNotice",
    "PostgresUnavailableError",
    "PublicationError",
    "ResultStoreError",
    "ResultStoreNotFoundError",
    "SettingsError",
    "UnknownCacheKindError",
    "UnknownDomainError",
    "UnknownIdentifierError",
    "UnknownKindError",
    "WorkerLostError",
]

# BrainScoreError, the root of every error of every package, is defined in brainio (the bottom of the dependency
# chain) so that brainio's own errors derive from it too; it is the same class under both names.


class UnknownIdentifierError(BrainScoreError, KeyError):
    """No plugin of this kind is registered under ``identifier``.

    Attributes
    ----------
    kind : str
        Registry kind, e.g. ``'benchmark'``.
    identifier : str
        The identifier that was asked for.
    close_matches : list of str
        Registered identifiers that look alike (``difflib``), best first.
    """

    def __init__(self, kind: str, identifier: str, close_matches: Sequence[str], group: str | None = None,
                 n_registered: int = 0, other_kinds: Sequence[str] = ()):
        self.kind = kind
        self.identifier = identifier
        self.close_matches = list(close_matches)
        self.group = group
        self.n_registered = n_registered
        self.other_kinds = list(other_kinds)
        super().__init__(identifier)

    def __reduce__(self):  # picklable (errors travel back from worker processes)
        return type(self), (self.kind, self.identifier, self.close_matches, self.group, self.n_registered,
                            self.other_kinds)

    def __str__(self) -> str:
        where = f" (entry-point group {self.group!r}, {self.n_registered} registered)" if self.group else ""
        if self.other_kinds:  # the exact name exists, as another kind: say so before guessing
            loaders = ", ".join(f"{'load_dataset' if kind == 'data' else 'load_' + kind}({self.identifier!r})"
                                for kind in self.other_kinds)
            return (f"no {self.kind} registered as {self.identifier!r}{where}; a "
                    f"{' and a '.join(self.other_kinds)} of that exact name exists: use {loaders}")
        hint = (f"; did you mean {', '.join(repr(m) for m in self.close_matches)}?" if self.close_matches
                else "; no similar identifier is registered")
        return f"no {self.kind} registered as {self.identifier!r}{where}{hint}"


class DuplicateIdentifierError(BrainScoreError, ValueError):
    """Two plugins claim the same identifier for the same kind.

    The message names both distributions (with versions) and both modules.
    """

    def __init__(self, kind: str, identifier: str, first: object, second: object):
        self.kind = kind
        self.identifier = identifier
        self.first = first
        self.second = second
        super().__init__(
            f"{kind} {identifier!r} is registered twice: by {_describe(first)} and by {_describe(second)}; "
            f"uninstall one of the two distributions or rename the identifier")

    def __reduce__(self):  # picklable (errors travel back from worker processes)
        return type(self), (self.kind, self.identifier, self.first, self.second)


class UnknownKindError(BrainScoreError, ValueError):
    """A registry kind that does not exist (valid kinds are listed in the message)."""


class InvalidPluginError(BrainScoreError, ValueError):
    """A plugin returned something other than a mapping of identifier -> callable factory."""


class PluginLoadError(BrainScoreError, ImportError):
    """Importing a plugin module named by an entry point failed; the message names the distribution."""


class UnknownDomainError(BrainScoreError, LookupError):
    """No domain package creates a :class:`~brainscore_core.plugins.Domain` for an entry-point group (a worker
    asked for a domain by its group: :func:`brainscore_core.plugins.find_domain`)."""


class PublicationError(BrainScoreError, ValueError):
    """A package's published cache kinds or settings (entry-point groups ``brainscore_caches``,
    ``brainscore_settings``) cannot be loaded or are malformed; the message names the entry point and its
    distribution."""


class UnknownCacheKindError(BrainScoreError, ValueError):
    """A cache kind that no installed package publishes (the message lists those that are)."""


class PluginOverrideNotice(UserWarning):
    """An installed plugin replaced a built-in one of the same identifier (the notice names both)."""


class PluginStateNotice(UserWarning):
    """A plugin's import (or a factory) changed torch's global state (default dtype, threads, deterministic flags,
    a random generator, ...); it was put back for the rest of the process. The notice names the plugin and each
    setting with its two values (:mod:`brainscore_core.numeric_state`)."""


class MemberNotImplementedError(BrainScoreError, NotImplementedError, AttributeError):
    """A ``Benchmark`` subclass left out a member it is asked for (``identifier``, ``version``, ``ceiling``,
    ``__call__``); Brain-Score raises ``NotImplementedError`` there. Also an ``AttributeError``, so that
    ``getattr(benchmark, 'version', None)`` gives None."""


class NonScalarScoreError(BrainScoreError, ValueError):
    """A score with more than one value was given where a single number is needed."""


class ResultStoreError(BrainScoreError, RuntimeError):
    """The results store cannot be opened, checked or written (locked, damaged, unreachable); names the URL."""


class DamagedResultStoreError(ResultStoreError):
    """A SQLite results store whose file fails SQLite's own check (a zeroed page, a truncated file): refused before
    anything is written or read; the message names the file, what the check found and how to recover its readable
    rows (``brainscore results export`` from a copy)."""


class ResultStoreNotFoundError(ResultStoreError, FileNotFoundError):
    """A read-only use of the results store found no store (or no scores table) at the URL."""


class MemoryBudgetError(BrainScoreError, MemoryError):
    """A pair whose estimated peak memory exceeds the budget of the process that would run it."""


class SettingsError(BrainScoreError, ValueError):
    """The settings file (:func:`brainscore_core.config.settings_path`) is not valid TOML, or one of its tables holds
    an unknown key or a value of the wrong kind; the message names the file, the table and the key."""


class ClusterUnavailableError(BrainScoreError, RuntimeError):
    """A batch scheduler cannot run the grid's jobs: no Slurm here, its controller does not answer, an unknown
    partition, a refused submission, or dask-jobqueue is missing. One line that says which and what to do."""


class WorkerLostError(BrainScoreError, RuntimeError):
    """The worker process (or the batch job) running a pair died before the pair ended: killed for its memory, at
    its job's time limit, cancelled or preempted. Stored as a failed row whose ``failure_kind`` says which."""


class ModelDigestChangedWarning(UserWarning):
    """A model identifier now has other content (weights, preprocessing) than when it was last loaded or stored:
    typically an unseeded network that gets new random weights in every process. Scores of the two are not
    comparable, and stored pairs of the old content are scored again."""


class PostgresUnavailableError(BrainScoreError, RuntimeError):
    """No PostgreSQL server binaries, or no psycopg driver, for a test server: the message says which and how to
    get it (:mod:`brainscore_core.local_postgres`)."""


def _describe(source: object) -> str:
    describe = getattr(source, "describe", None)
    return describe() if callable(describe) else repr(source)
