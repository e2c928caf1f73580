"""``Benchmark``: a model goes in, a Score comes out; ``BenchmarkBase`` adds a lazily computed, cached ceiling.

``brainscore_core.benchmarks.BenchmarkBase`` is the import path of the Brain-Score tutorials.
"""

from __future__ import annotations

import functools
import numbers
import warnings
from collections.abc import Callable
from typing import Any

from brainscore_core._ceiling_cache import CeilingCache, caching_disabled, data_digest
from brainscore_core.errors import MemberNotImplementedError
from brainscore_core.normalization import ceil_score
from brainscore_core.pair_scope import pair_memo, pair_scope
from brainscore_core.score import Score

__all__ = ["Benchmark", "BenchmarkBase", "ceil_score", "score_benchmark"]


class Benchmark:
    """A test of brain-likeness: ``benchmark(candidate) -> Score``.

    As in Brain-Score, nothing here is abstract: a subclass overrides what it needs, and a member it leaves out
    raises ``NotImplementedError`` naming the class when used (``__call__``, ``identifier``, ``version``,
    ``ceiling``). ``parent`` and ``bibtex`` default to None.

    Attributes
    ----------
    identifier : str
        Unique name, e.g. ``'MajajHong2015.IT-pls'``.
    version : int or None
        Incremented whenever a change can change scores.
    parent : str or None, default=None
        Name of the group this benchmark is aggregated into on the leaderboard (e.g. ``'IT'``).
    bibtex : str or None, default=None
        Citation of the data.
    ceiling : Score
        The best score the data allows (0-d).
    """

    parent: str | None = None
    bibtex: str | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass's ``__call__`` scores one pair: called outside any pair (``benchmark(model)`` directly, as
        Brain-Score's tutorials do), it runs inside its own :func:`~brainscore_core.pair_scope.pair_scope`, as
        ``score()`` and the grid run it, so its steps share what a pair may remember (model-tools hashes the model's
        weights once per pair, not once per activations call: AlexNet's 244 MB eighteen times in Malania2007's ten
        benchmarks before). Inside a pair (``score()``, a benchmark calling another) it joins that pair's memory."""
        super().__init_subclass__(**kwargs)
        call = cls.__dict__.get("__call__")
        if call is not None and not getattr(call, "_brainscore_one_pair", False):
            cls.__call__ = _one_pair(call)

    def __call__(self, candidate: Any) -> Score:
        """Score ``candidate`` (a domain model, e.g. a ``BrainModel``); returns a ceiled 0-d Score with
        attrs ``raw``, ``ceiling`` and ``error``."""
        raise MemberNotImplementedError(f"{type(self).__name__} does not define __call__(candidate)")

    @property
    def identifier(self) -> str:
        """Unique name of the benchmark."""
        raise MemberNotImplementedError(f"{type(self).__name__} does not define the property 'identifier'")

    @property
    def version(self) -> int | None:
        """Version of the benchmark (optional in Brain-Score's interface, but strongly encouraged)."""
        raise MemberNotImplementedError(f"{type(self).__name__} does not define the property 'version'")

    @property
    def ceiling(self) -> Score:
        """Ceiling of the benchmark's data."""
        raise MemberNotImplementedError(f"{type(self).__name__} does not define the property 'ceiling'")

    def preallocate_memory(self, candidate: Any) -> None:
        """Called by :func:`score_benchmark` before ``__call__``; lets a benchmark prepare the candidate
        (e.g. allocate activation buffers). No-op by default."""
        return None


def _one_pair(call: Callable) -> Callable:
    """``call`` run inside a pair scope of its own unless one is open (:meth:`Benchmark.__init_subclass__`)."""

    @functools.wraps(call)
    def scored_as_one_pair(self: Any, *args: Any, **kwargs: Any) -> Any:
        if pair_memo() is not None:
            return call(self, *args, **kwargs)
        with pair_scope():
            return call(self, *args, **kwargs)

    scored_as_one_pair._brainscore_one_pair = True  # type: ignore[attr-defined]
    return scored_as_one_pair


#: marks a ``version`` that was not passed (``None`` is a valid version, as in Brain-Score)
_MISSING: Any = object()


def _as_ceiling(value: Any) -> Score:
    if isinstance(value, Score):
        return value
    if isinstance(value, numbers.Number) or hasattr(value, "dims"):
        return Score(value)
    raise TypeError(f"a ceiling must be a Score or a number, got {type(value).__name__}")


class BenchmarkBase(Benchmark):
    """Benchmark with stored identifier/version/parent/bibtex and a ceiling computed once, lazily.

    Parameters
    ----------
    identifier : str
        Unique name of the benchmark.
    ceiling_func : callable () -> Score, or Score, default=None
        Computes the ceiling (vision form). A Score or number here is taken as the ceiling itself (the
        core form ``BenchmarkBase(identifier, ceiling, version, parent)``).
    version : int or None
        Benchmark version; part of the ceiling cache key. Required, as in Brain-Score's ``BenchmarkBase``
        (omitting it is a ``TypeError`` naming the benchmark; ``None`` is accepted and kept). The helper classes
        built on it (``NeuralBenchmark`` and siblings in brainscore-vision) default it to 1.
    parent : str or None, default=None
        Leaderboard parent.
    bibtex : str or None, default=None
        Citation.
    ceiling : Score or float, default=None
        A ready ceiling (keyword form); takes precedence over ``ceiling_func``.
    ceiling_data : object or callable, default=None
        The data the ceiling is computed from (an assembly, a stimulus set, a file sha1 string, a list of
        these, or a callable returning one). When given, the ceiling is cached on disk under
        ``$BRAINSCORE_HOME/ceilings/`` keyed by identifier + version + a digest of this data, so changed
        data never reuses a stale ceiling. When None, the ceiling is only kept in memory. Env
        ``RESULTCACHING_DISABLE=1`` turns the disk cache off.
    """

    def __init__(self, identifier: str, ceiling_func: Callable[[], Score] | Score | float | None = None,
                 version: int | None = _MISSING, parent: str | None = None, bibtex: str | None = None, *,
                 ceiling: Score | float | None = None, ceiling_data: Any = None):
        if version is _MISSING:
            raise TypeError(f"{type(self).__name__}({identifier!r}) is missing the argument 'version' (as in "
                            "Brain-Score's BenchmarkBase; a new benchmark starts with version=1)")
        self._identifier = identifier
        self._ceiling_func = ceiling_func
        self._version = version
        self.parent = parent
        self._bibtex = bibtex
        self._ready_ceiling = ceiling
        self._ceiling_data = ceiling_data
        self._cached_ceiling: Score | None = None

    @property
    def identifier(self) -> str:
        return self._identifier

    @property
    def version(self) -> int:
        return self._version

    @property
    def bibtex(self) -> str | None:  # type: ignore[override]
        return self._bibtex

    @property
    def ceiling(self) -> Score:
        """The ceiling, computed on first access (or read from the disk cache) and then kept."""
        if self._cached_ceiling is None:
            self._cached_ceiling = self._compute_ceiling()
        return self._cached_ceiling

    def _compute_ceiling(self) -> Score:
        if self._ready_ceiling is not None:
            return _as_ceiling(self._ready_ceiling)
        if self._ceiling_func is None:
            raise ValueError(f"benchmark {self.identifier!r} has neither a ceiling nor a ceiling_func")
        if not callable(self._ceiling_func):
            return _as_ceiling(self._ceiling_func)
        if self._ceiling_data is None or caching_disabled():
            return _as_ceiling(self._ceiling_func())
        digest = data_digest(self._ceiling_data)
        cache = CeilingCache()
        cached = cache.load(self.identifier, self.version, digest)
        if cached is not None:
            return cached
        ceiling = _as_ceiling(self._ceiling_func())
        try:
            cache.save(ceiling, self.identifier, self.version, digest)
        except (OSError, ValueError, TypeError) as error:  # a failed cache write must not fail the score
            warnings.warn(f"could not cache the ceiling of {self.identifier!r} under {cache.directory}: "
                          f"{error}", RuntimeWarning, stacklevel=2)
        return ceiling

    def __repr__(self) -> str:
        return f"{type(self).__name__}(identifier={self.identifier!r}, version={self.version!r})"


def score_benchmark(benchmark: Benchmark, model: Any) -> Score:
    """Score ``model`` on ``benchmark``: ``benchmark.preallocate_memory(model)``, then ``benchmark(model)``."""
    preallocate = getattr(benchmark, "preallocate_memory", None)
    if callable(preallocate):
        preallocate(model)
    score = benchmark(model)
    if score is None:
        raise TypeError(f"benchmark {getattr(benchmark, 'identifier', type(benchmark).__name__)!r} returned None: its "
                        "__call__ must return a Score (is a `return score` missing at its end?)")
    return score
