"""The grid stays on its floor (issue 32, item 1): tasks carry their domain, load in the process that runs them and
release what they loaded after the pair (a model is kept only for the next pair of the same model, one per thread),
and Dask memory annotations come from shapes the workers report, without loading anything in the submitting process.

Models and benchmarks here are plain objects registered in a fake plugin world; the numbers are worked by hand.
"""

from __future__ import annotations

import gc
import threading

import numpy as np
import pytest

from brainio.skipping import import_or_skip

MODEL_PLUGIN = """
import threading
from brainscore_core import hookimpl

BUILT = []          # (kind, identifier, thread name) of every factory call
ALIVE = []          # weak references to every model and benchmark built
HELD = []           # (model, benchmark) of each pair that registered the model's release callback
RELEASED = []       # (model, benchmark that registered it) of each release callback that ran


class Model:
    def __init__(self, identifier, width):
        self.identifier, self.width = identifier, width

    def feature_count(self, region):
        return self.width


class Benchmark:
    version, parent, region = 1, "IT", "IT"

    def __init__(self, identifier, n):
        self.identifier, self.n = identifier, n

    def stimulus_count(self):
        return self.n

    def __call__(self, model):
        from brainscore_core.metrics import Score
        from brainscore_core.pair_scope import call_at_model_release

        # a resource held while the model runs (as model-tools' malloc tuning): registered once per model run; the
        # callback holds names only, so it keeps neither the model nor the benchmark alive
        pair = (model.identifier, self.identifier)
        if call_at_model_release("held for " + pair[0], lambda: RELEASED.append(pair)):
            HELD.append(pair)
        score = Score(float(model.width) / 100 + self.n / 1000)
        score.attrs["raw"] = Score(0.5)
        score.attrs["ceiling"] = Score(0.8)
        return score


def _track(kind, identifier, thing):
    import weakref

    BUILT.append((kind, identifier, threading.current_thread().name))
    ALIVE.append(weakref.ref(thing))
    return thing


@hookimpl
def brainscore_models():
    return {f"m{w}": (lambda w=w: _track("model", f"m{w}", Model(f"m{w}", w))) for w in (10, 20)}


@hookimpl
def brainscore_benchmarks():
    return {f"b{n}": (lambda n=n: _track("benchmark", f"b{n}", Benchmark(f"b{n}", n))) for n in (30, 40, 50)}
"""


@pytest.fixture
def plugin(world):
    import importlib

    module = world.add_plugin("fake-grid", MODEL_PLUGIN)
    return importlib.import_module(module)


def test_in_process_grid_releases_what_it_loaded(world, plugin, tmp_path):
    from brainscore_core import grid
    from brainscore_core.grid import score_many

    frame = score_many(["m10", "m20"], ["b30", "b40", "b50"], domain=world.domain,
                       store=f"sqlite:///{tmp_path / 'r.sqlite'}", progress=False)
    assert list(frame["status"]) == ["ok"] * 6
    # by hand: width / 100 + n / 1000, e.g. m20 on b50 = 0.2 + 0.05
    assert frame["score"].tolist() == pytest.approx([0.13, 0.14, 0.15, 0.23, 0.24, 0.25])
    built = [(kind, identifier) for kind, identifier, _ in plugin.BUILT]
    # each model built once (its pairs are consecutive: kept for the next one), each benchmark once per pair
    assert built.count(("model", "m10")) == 1 and built.count(("model", "m20")) == 1
    assert sorted(identifier for kind, identifier in built if kind == "benchmark") == sorted(["b30", "b40", "b50"] * 2)
    gc.collect()
    assert [ref for ref in plugin.ALIVE if ref() is not None] == []  # nothing kept for the life of the process
    assert grid.release_models() == 0 and not hasattr(grid, "_LOADED")


def test_a_kept_model_serves_only_the_next_pair_of_the_same_model_in_its_thread(world, plugin, tmp_path):
    from brainscore_core import grid

    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    grid.score_task(world.domain, "m10", "b30", url, keep_model=True)
    (kept,) = [ref for ref in plugin.ALIVE if ref() is not None]
    assert isinstance(kept(), plugin.Model) and kept().identifier == "m10"
    outcome = {}
    other = threading.Thread(target=lambda: outcome.setdefault("r", grid.score_task(world.domain, "m10", "b40", url)))
    other.start()
    other.join()
    assert outcome["r"]["status"] == "ok"
    assert [identifier for kind, identifier, _ in plugin.BUILT if kind == "model"] == ["m10", "m10"]  # another thread
    grid.score_task(world.domain, "m20", "b40", url)  # this thread, another model: the kept one goes first
    gc.collect()
    assert kept() is None and grid.release_models() == 0


def test_what_a_model_holds_stays_with_it_while_the_grid_keeps_it(world, plugin, tmp_path):
    from brainscore_core.grid import score_many

    frame = score_many(["m10", "m20"], ["b30", "b40", "b50"], domain=world.domain,
                       store=f"sqlite:///{tmp_path / 'r.sqlite'}", progress=False)
    assert list(frame["status"]) == ["ok"] * 6
    # each model's three pairs run in a row: its first pair registers, the other two find it held, and it is released
    # once, when the grid lets the model go (m10's before m20 is built, m20's when the grid ends)
    assert plugin.HELD == [("m10", "b30"), ("m20", "b30")]
    assert plugin.RELEASED == [("m10", "b30"), ("m20", "b30")]


def test_what_a_model_holds_is_released_with_the_pair_when_the_model_is_not_kept(world, plugin, tmp_path):
    from brainscore_core import grid

    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    grid.score_task(world.domain, "m10", "b30", url)  # not kept: released when the pair ends
    assert plugin.HELD == plugin.RELEASED == [("m10", "b30")]
    grid.score_task(world.domain, "m10", "b40", url, keep_model=True)
    assert plugin.RELEASED == [("m10", "b30")]  # kept: waiting with the model
    grid.score_task(world.domain, "m20", "b40", url)  # another model takes the slot: m10's goes first
    assert plugin.HELD == [("m10", "b30"), ("m10", "b40"), ("m20", "b40")]
    assert plugin.RELEASED == [("m10", "b30"), ("m10", "b40"), ("m20", "b40")]
    assert grid.release_models() == 0


def test_an_in_process_grid_opens_its_store_once_for_all_its_pairs(world, plugin, tmp_path, monkeypatch):
    from brainscore_core.grid import score_many
    from brainscore_core.results import ResultStore

    engines, disposed = [], []
    original_create, original_dispose = ResultStore._create_engine, ResultStore.dispose
    monkeypatch.setattr(ResultStore, "_create_engine", lambda self: engines.append(self) or original_create(self))
    monkeypatch.setattr(ResultStore, "dispose", lambda self: disposed.append(self) or original_dispose(self))
    url = f"sqlite:///{tmp_path / 'r.sqlite'}"
    frame = score_many(["m10", "m20"], ["b30", "b40", "b50"], domain=world.domain, store=url, progress=False)
    assert list(frame["status"]) == ["ok"] * 6
    assert len(engines) == 1 and disposed == engines  # one engine for the six pairs, closed when the grid ended
    engines.clear(), disposed.clear()
    mine = ResultStore(url)  # a store object of the caller's own: used, and left open for the caller
    frame = score_many(["m10"], ["b30", "b40"], domain=world.domain, store=mine, progress=False, rescore=True)
    assert list(frame["status"]) == ["ok"] * 2 and engines == [mine] and disposed == []
    assert mine.count() == 8  # six rows, then two more: every pair's row was stored
    mine.dispose()


def test_memory_annotations_come_from_the_workers(world, plugin, tmp_path, monkeypatch):
    distributed = import_or_skip("distributed", extra="brainscore-core[test]")
    from brainscore_core import grid, grid_dask

    annotated = {}
    original = grid_dask.memory_resources

    def spy(client, domain, pairs):
        annotated.update(original(client, domain, pairs))
        return annotated

    monkeypatch.setattr(grid_dask, "memory_resources", spy)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None,
                                  resources={"MEMORY": 64e9}) as cluster, distributed.Client(cluster) as client:
        frame = grid.score_many(["m10", "m20"], ["b30", "b50"], client, domain=world.domain,
                                store=f"sqlite:///{tmp_path / 'r.sqlite'}", progress=False)
    assert sorted(frame["status"]) == ["ok"] * 4
    here = threading.current_thread().name
    assert {kind for kind, _, _ in plugin.BUILT} == {"model", "benchmark"}  # built, but in the worker
    assert [entry for entry in plugin.BUILT if entry[2] == here] == []  # the submitting thread built nothing
    assert sorted(annotated) == [("m10", "b30"), ("m10", "b50"), ("m20", "b30"), ("m20", "b50")]
    for (model, benchmark), resources in annotated.items():
        n, features = int(benchmark[1:]), int(model[1:])
        activations = n * features * 4  # float32 activations; the metric holds 2 more copies and 2 n x n float64
        # no forward pass reported: the metric's working set counts, plus 64 MiB of scoring overhead
        shapes = activations + 2 * activations + 2 * n ** 2 * 8 + 64 * 2**20
        baseline = resources["MEMORY"] - shapes
        assert 0 < baseline < 64e9  # the worker's resident memory with both loaded
    # the worker released everything once the grid ended
    gc.collect()
    assert [ref for ref in plugin.ALIVE if ref() is not None] == []


def test_a_task_carries_its_domain_by_its_group(world, plugin):
    import pickle

    from brainscore_core.grid_preflight import shape_task

    travelled = pickle.loads(pickle.dumps(world.domain))
    assert travelled is world.domain
    shape = shape_task(world.group, "benchmark", "b40")  # a group name works too
    assert shape["stimulus_count"] == 40 and shape["region"] == "IT"
    assert shape_task(world.domain, "model", "m20", ["IT", "V4"])["feature_counts"] == {"IT": 20, "V4": 20}
    assert shape_task(world.domain, "model", "no-such-model") == {}
    assert np.isfinite(shape["loaded_bytes"])


def test_preflight_loads_no_benchmark_data_for_a_model_without_shapes(world, plugin, monkeypatch):
    """A model that reports no width (here: none at all) gets no estimate, and its benchmarks' data (their stimulus
    counts) are never read; a model with a width gets its estimate from the counts as before."""
    from brainscore_core.grid_preflight import preflight

    counted = []
    original = plugin.Benchmark.stimulus_count
    monkeypatch.setattr(plugin.Benchmark, "stimulus_count", lambda self: counted.append(self.identifier) or
                        original(self))
    monkeypatch.setattr(plugin.Model, "feature_count", lambda self, region: None if self.width == 10 else self.width)
    estimates = preflight(world.domain, [("m10", "b30"), ("m10", "b40"), ("m20", "b40")])
    assert estimates[("m10", "b30")] is None and estimates[("m10", "b40")] is None
    assert estimates[("m20", "b40")] is not None and estimates[("m20", "b40")].n_stimuli == 40
    assert counted == ["b40"]  # b30 is paired only with the model without a width: its count is never asked for
