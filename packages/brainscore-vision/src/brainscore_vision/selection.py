"""Which models and benchmarks a selection names: identifiers, shell-style globs and the named benchmark suites.

``brainscore score --benchmark ... --model ...`` and :func:`brainscore_vision.score_many` both go through
:func:`select`. Each word of a selection is

* a registered identifier (kept as written);
* a shell-style glob (``*``, ``?``, ``[...]``: ``'Malania2007*'``, ``'*.IT-*'``), matched case-sensitively against
  the registered identifiers (:func:`fnmatch.fnmatchcase`), in sorted order; a model glob skips aliases (a model
  whose factory has ``alias_of``), which would score the same model twice;
* for benchmarks, the name of a suite (:data:`SUITES`):

  ``shipped``
      benchmarks whose data are in this installation (``[shipped]``: ``$BRAINSCORE_RAW_DATA``), when that folder
      exists;
  ``reachable``
      what a user can score here, known without downloading anything: ``shipped``, the benchmarks whose local folder
      variable is set (``[local: VAR set]``, ``[network+local: VAR set]``), everything read from Brain-Score's bucket
      without credentials or unsigned first (``[network]``, ``[network: unsigned, then your AWS credentials]``), the
      private data (``[private: ...]``) when AWS credentials are found (environment, shared files, profiles; the
      instance metadata service is not asked), and third-party benchmarks (``[?]``: nothing says they cannot run);
  ``leaderboard``
      what Brain-Score's ``average_vision`` averages: every benchmark whose ``parent`` leads up to ``average_vision``
      in the report's hierarchy (:mod:`brainscore_vision.report.aggregate`: a region or a group under one, or
      ``behavior``); engineering benchmarks, benchmarks without a parent and families whose parent has no known
      place are left out. Reading the parents builds every benchmark (nothing is loaded or downloaded);
  ``all``
      every registered benchmark.

The words' results are joined in order, each identifier once. A word that matches nothing is a
:class:`~brainscore_vision.errors.SelectionError` (a ``ValueError``) in one line, with the closest identifiers.
"""

from __future__ import annotations

import difflib
import fnmatch
from collections.abc import Collection, Iterable

from brainscore_vision.errors import SelectionError

__all__ = ["SUITES", "alias_of", "aws_credentials_found", "is_glob", "leaderboard_benchmarks", "select", "suite"]

SUITES = ("shipped", "reachable", "leaderboard", "all")
_GLOB_CHARACTERS = "*?["
_EMPTY_SUITE = {"shipped": " (no folder of raw recordings: set BRAINSCORE_RAW_DATA to the shared data folder)"}


def is_glob(word: str) -> bool:
    """Whether ``word`` is a shell-style pattern rather than an identifier."""
    return any(character in word for character in _GLOB_CHARACTERS)


def alias_of(registry, identifier: str) -> str | None:
    """The identifier an alias stands for (a factory's ``alias_of``, e.g. ``vgg_16`` -> ``vgg16``), else None."""
    target = getattr(registry[identifier], "alias_of", None)
    return str(target) if target and registry.is_registered(str(target)) else None


def aws_credentials_found() -> bool:
    """Whether boto3's credential chain finds credentials here without asking a network service
    (:func:`brainio.stores.s3.credentials_found`); False without the s3 extra."""
    try:
        from brainio.stores.s3 import credentials_found
    except ImportError:  # MissingExtraError is an ImportError: no boto3, no credentials to find
        return False
    return credentials_found()


def leaderboard_benchmarks(identifiers: Iterable[str], domain) -> list[str]:
    """The identifiers whose benchmark's ``parent`` leads up to ``average_vision`` (module docstring); ``domain``:
    ``brainscore_vision.domain``."""
    from brainscore_vision.report.aggregate import build_hierarchy

    parents = {}
    for identifier in identifiers:
        try:
            parents[identifier] = domain.load_benchmark(identifier).parent
        except Exception:  # a benchmark that cannot be built has no place on the board here
            continue
    hierarchy = build_hierarchy(parents)
    chosen = []
    for identifier in parents:
        node = identifier
        while node is not None and node != "average_vision":
            node = hierarchy.parents.get(node)
        if node == "average_vision":
            chosen.append(identifier)
    return chosen


def _reachable(need: str, folder: str | None, credentials: bool) -> bool:
    from brainscore_vision.data_helpers.local_data import local_folder_status

    if need in ("local", "network+local"):
        return folder is not None and local_folder_status(folder)[0]
    if need == "private":
        return credentials
    return need in ("shipped", "network", "credentials", "?")


def suite(name: str, domain) -> list[str]:
    """The benchmark identifiers of suite ``name`` (one of :data:`SUITES`) among ``domain``'s (``brainscore_vision.
    domain``), sorted."""
    from brainscore_vision._paths import raw_data_dir
    from brainscore_vision.benchmark_data import data_need

    identifiers = sorted(domain.registry("benchmark"))
    if name == "all":
        return identifiers
    if name == "leaderboard":
        return leaderboard_benchmarks(identifiers, domain)
    needs = {identifier: data_need(identifier) for identifier in identifiers}
    shipped = raw_data_dir().is_dir()
    if name == "shipped":
        return [identifier for identifier in identifiers if needs[identifier][0] == "shipped" and shipped]
    if name == "reachable":
        credentials = aws_credentials_found()
        return [identifier for identifier in identifiers if _reachable(*needs[identifier], credentials)
                and (needs[identifier][0] != "shipped" or shipped)]
    raise SelectionError(f"unknown suite {name!r}: the suites are {', '.join(SUITES)}")


def _close_matches(word: str, candidates: list[str]) -> list[str]:
    literal = "".join(character for character in word if character not in _GLOB_CHARACTERS + "]")
    close = difflib.get_close_matches(literal, candidates, n=5, cutoff=0.5)
    if not close and literal:  # a fragment: identifiers containing its longest plain part
        part = max(literal.replace("*", " ").split(), key=len, default="")
        close = [candidate for candidate in candidates if part.lower() in candidate.lower()][:5]
    return close


def _no_match(kind: str, pattern: str, candidates: list[str]) -> SelectionError:
    close = _close_matches(pattern, candidates)
    hint = f"; close matches: {', '.join(close)}" if close else ""
    suites = f" (suites: {', '.join(SUITES)})" if kind == "benchmark" else ""
    return SelectionError(f"no {kind} matches the pattern {pattern!r}{hint}{suites}")


def select(kind: str, words: Iterable[str], domain, *, known: Collection[str] = ()) -> list[str]:
    """The identifiers of ``kind`` (``'benchmark'`` or ``'model'``) among ``domain``'s (``brainscore_vision.domain``)
    that ``words`` name, in order, each once. A word in ``known`` counts as named without a registry look-up (a dry
    run lists plugin models by their files, importing none).

    Raises :class:`~brainscore_vision.errors.SelectionError` naming the first word that matches nothing, with close
    matches."""
    registry = domain.registry(kind)
    chosen: dict[str, None] = {}
    for word in words:
        if word in known or word in registry:
            found = [word]
        elif kind == "benchmark" and word in SUITES:
            found = suite(word, domain)
        elif is_glob(word):
            candidates = sorted(registry)
            found = [identifier for identifier in candidates if fnmatch.fnmatchcase(identifier, word)]
            if kind == "model":
                found = [identifier for identifier in found if alias_of(registry, identifier) is None]
        else:
            found = []
        if not found and kind == "benchmark" and word in SUITES:
            raise SelectionError(f"the suite {word!r} has no benchmark here{_EMPTY_SUITE.get(word, '')}")
        if not found and not is_glob(word):  # the registry's own message, as for any unknown identifier
            suites = f" (or a suite: {', '.join(SUITES)})" if kind == "benchmark" else ""
            raise SelectionError(str(registry.unknown(word)).strip("'\"") + suites)
        if not found:
            raise _no_match(kind, word, sorted(registry))
        chosen.update(dict.fromkeys(found))
    return list(chosen)
