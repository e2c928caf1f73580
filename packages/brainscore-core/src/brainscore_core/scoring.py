"""The one scoring path: score one model on one benchmark, record what made the score, and store the row.

:func:`score` (behind ``brainscore_vision.score``) loads the pair through a domain's loaders and scores it; the
``brainscore score`` command and the grid (:mod:`brainscore_core.grid`) go through :func:`score_pair` /
:func:`run_pair` too. The domain (:class:`brainscore_core.plugins.Domain`) finds and loads; it does not score.

Storage never loses a computed score: the store is opened and checked *before* scoring (a locked or damaged
store fails in seconds, not after an hour of work); a row that still cannot be written afterwards goes to a
side file ``brainscore-unstored-<time>-<pid>.jsonl`` next to the SQLite file (else in ``$BRAINSCORE_HOME``),
which ``brainscore results import FILE`` loads into any store later.
"""

from __future__ import annotations

import functools
import os
import time
import warnings
from collections.abc import Mapping
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from brainscore_core.config import brainscore_home
from brainscore_core.display import display_url
from brainscore_core.errors import ModelDigestChangedWarning
from brainscore_core.pair_scope import pair_scope
from brainscore_core.result_rows import failure_row, row_to_json, score_row
from brainscore_core.results import ResultStore, ResultStoreError

__all__ = ["UnstoredScoreWarning", "digest_change", "model_digest", "model_layers", "open_store", "run_pair", "score",
           "score_pair", "side_file_for", "versions", "write_side_file"]

DISTRIBUTIONS = ("brainio", "brainscore-core", "brainscore-metrics", "brainscore-vision", "model-tools")


class UnstoredScoreWarning(UserWarning):
    """A score was computed but the results store refused it; the row is in the side file the message names."""


def versions() -> dict[str, str]:
    """Versions of the installed Brain-Score distributions (those that are installed); read once per process (every
    stored row names them: a grid of many pairs would parse the distributions' metadata once per pair)."""
    return dict(_installed_versions())


@functools.cache
def _installed_versions() -> tuple[tuple[str, str], ...]:
    found = []
    for name in DISTRIBUTIONS:
        try:
            found.append((name, metadata.version(name)))
        except metadata.PackageNotFoundError:
            continue
    return tuple(found)


def model_layers(model: Any) -> tuple[dict[str, str], dict[str, dict[str, float]]]:
    """The model's committed region -> layer map and its layer-selection profiles.

    Returns ``model.layer_map`` (else ``model.region_layer_map``) and ``model.layer_scores``
    (``{region: {layer: score}}``, set by model-tools when layer selection ran); empty where absent.
    """
    from brainscore_core.score import score_value

    layer_map = getattr(model, "layer_map", None) or getattr(model, "region_layer_map", None) or {}
    layer_scores = getattr(model, "layer_scores", None) or {}
    profiles = {str(region): {str(layer): score_value(value) for layer, value in dict(scores).items()}
                for region, scores in dict(layer_scores).items() if scores}
    return {str(region): str(layer) for region, layer in dict(layer_map).items()}, profiles


def model_digest(model: Any) -> str | None:
    """``model.content_digest()`` (weights and preprocessing, see model-tools) where the model has it, else None.

    Grids skip a pair already stored for the same model identifier *and* digest, so changed weights are scored
    again.
    """
    digest = getattr(model, "content_digest", None)
    if callable(digest):
        return str(digest())
    return None


#: the content digest each model identifier had when this process last loaded it (strings only)
_DIGESTS_SEEN: dict[str, str] = {}


def digest_change(model_identifier: str, digest: str | None, store: ResultStore | None = None) -> str | None:
    """A one-line warning when ``model_identifier`` now has another content digest than at its previous load in
    this process, or than its newest stored row (another process, an earlier run); None when it has not changed.

    An unseeded network is the usual cause: each process builds it with new random weights, so its scores differ
    from run to run and stored pairs are never reused. Remembers ``digest`` as the identifier's current one.
    """
    if digest is None:
        return None
    previous, where = _DIGESTS_SEEN.get(model_identifier), "its previous load in this process"
    if previous is None and store is not None:
        try:
            previous = store.latest_digest(model_identifier)
            where = f"its newest stored score in {display_url(store.url)}"
        except ResultStoreError:  # the store's own check reports an unreadable store
            previous = None
    _DIGESTS_SEEN[model_identifier] = digest
    if previous is None or previous == digest:
        return None
    return (f"model {model_identifier!r} has other weights than at {where} (content digest {previous[:12]} -> "
            f"{digest[:12]}): its scores are not comparable and stored pairs are scored again; seed an unseeded "
            "network (torch.manual_seed) before building it, or ignore this if you changed the weights on purpose")


def open_store(store: Any = True) -> ResultStore | None:
    """The results store to write to, opened and checked now (before any scoring).

    ``True`` / ``None``: the default store ($BRAINSCORE_RESULTS_URL or $BRAINSCORE_HOME/results.sqlite); a string:
    that URL; a :class:`ResultStore`: itself; ``False``: no store (returns None). Raises ResultStoreError.
    """
    if store is False:
        return None
    if store is True or store is None:
        store = ResultStore()
    elif isinstance(store, (str, os.PathLike)):
        store = ResultStore(str(store))
    store.check()
    return store


def side_file_for(store: ResultStore | None) -> Path:
    """Where rows go that ``store`` refused: next to its SQLite file, else in ``$BRAINSCORE_HOME``."""
    folder = brainscore_home()
    if store is not None and store.url.startswith("sqlite:///"):
        database = Path(store.url[len("sqlite:///"):]).expanduser()
        if database.parent.is_dir():
            folder = database.parent
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return folder / f"brainscore-unstored-{stamp}-{os.getpid()}.jsonl"


def write_side_file(path: Path, rows: list[Mapping[str, Any]]) -> Path:
    """Append rows (one JSON object per line) to ``path`` and flush them to disk."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as file:
        for row in rows:
            file.write(row_to_json(row) + "\n")
        file.flush()
        os.fsync(file.fileno())
    return path


def _describe(model: Any, benchmark: Any, result: Any, model_identifier: str, benchmark_identifier: str) -> dict:
    layer_map, layer_scores = model_layers(model)
    result.attrs["model_identifier"] = model_identifier
    result.attrs["benchmark_identifier"] = benchmark_identifier
    if layer_map:
        result.attrs["comment"] = f"layers: {layer_map}"
    if layer_scores:
        result.attrs["layer_scores"] = layer_scores
    return {"layer_map": layer_map or None, "comment": result.attrs.get("comment")}


def run_pair(model: Any, benchmark: Any, *, model_identifier: str, benchmark_identifier: str,
             digest: str | None = None, provenance: Mapping[str, Any] | None = None,
             catch: bool = True) -> tuple[Any, dict[str, Any], BaseException | None]:
    """Score ``model`` on ``benchmark`` and build its store row; nothing is written here.

    Returns ``(score or None, row, error or None)``: with ``catch`` a failing benchmark gives a failure row
    (status 'failed', its error type and message) instead of raising.
    """
    from brainscore_core.benchmarks import score_benchmark

    version = getattr(benchmark, "version", None)
    common = {"model_identifier": model_identifier, "benchmark_identifier": benchmark_identifier,
              "benchmark_version": 1 if version is None else version,
              "benchmark_parent": getattr(benchmark, "parent", None), "model_digest": digest, "versions": versions()}
    start = time.perf_counter()
    try:
        result = score_benchmark(benchmark, model)
    except Exception as error:
        if not catch:
            raise
        return None, failure_row(error, elapsed_s=time.perf_counter() - start, **common), error
    elapsed = time.perf_counter() - start
    described = _describe(model, benchmark, result, model_identifier, benchmark_identifier)
    row = score_row(result, elapsed_s=elapsed, provenance={"elapsed_s": round(elapsed, 3), **(provenance or {})},
                    **described, **common)
    return result, row, None


def score_pair(model: Any, benchmark: Any, *, model_identifier: str | None = None,
               benchmark_identifier: str | None = None, store: Any = True) -> Any:
    """Score one model on one benchmark and store the row; returns the Score.

    Parameters
    ----------
    model : BrainModel
    benchmark : Benchmark
    model_identifier, benchmark_identifier : str, optional
        Default ``model.identifier`` and ``benchmark.identifier``.
    store : bool, str or ResultStore, default=True
        Where the row goes (:func:`open_store`); ``False`` stores nothing. The store is checked before scoring.

    Returns
    -------
    Score with ``attrs['model_identifier']``, ``attrs['benchmark_identifier']`` and, where the model has a layer
    map, ``attrs['comment'] = "layers: {...}"``. If the store refuses the row after scoring, the row is written
    to a side file and an :class:`UnstoredScoreWarning` names it.
    """
    model_identifier = model_identifier or str(getattr(model, "identifier", type(model).__name__))
    benchmark_identifier = benchmark_identifier or str(getattr(benchmark, "identifier", type(benchmark).__name__))
    opened = open_store(store)
    with pair_scope():
        digest = model_digest(model)
        changed = digest_change(model_identifier, digest, opened)
        if changed:
            warnings.warn(changed, ModelDigestChangedWarning, stacklevel=2)
        result, row, _ = run_pair(model, benchmark, model_identifier=model_identifier,
                                  benchmark_identifier=benchmark_identifier, digest=digest, catch=False)
    if opened is not None:
        try:
            opened.insert(row)
        except ResultStoreError as error:
            path = write_side_file(side_file_for(opened), [row])
            warnings.warn(f"{error}; the row of {model_identifier} on {benchmark_identifier} was written to {path} "
                          f"(load it later with: brainscore results import {path})", UnstoredScoreWarning,
                          stacklevel=2)
    return result


def score(domain: Any, model_identifier: str, benchmark_identifier: str, conda_active: bool = False, *,
          store: Any = True) -> Any:
    """Load model ``model_identifier`` and benchmark ``benchmark_identifier`` through ``domain`` and score them
    (:func:`score_pair`: the row goes to the results store).

    Parameters
    ----------
    domain : Domain
        Whose ``load_model`` / ``load_benchmark`` resolve the identifiers (e.g. ``brainscore_vision.domain``).
    model_identifier, benchmark_identifier : str
    conda_active : bool, default=False
        Accepted for compatibility with Brain-Score and ignored (nothing is installed while scoring).
    store : bool, str or ResultStore, default=True
        ``True``: $BRAINSCORE_RESULTS_URL or $BRAINSCORE_HOME/results.sqlite; a URL or ResultStore; ``False``: none.

    Returns
    -------
    Score with ``attrs['model_identifier']``, ``attrs['benchmark_identifier']`` and, when the model exposes a layer
    map (``layer_map`` or ``region_layer_map``), ``attrs['comment'] = "layers: {region: layer}"``.
    """
    model = domain.load_model(model_identifier)
    benchmark = domain.load_benchmark(benchmark_identifier)
    return score_pair(model, benchmark, model_identifier=model_identifier, benchmark_identifier=benchmark_identifier,
                      store=store)

