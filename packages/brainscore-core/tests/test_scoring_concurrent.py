"""The one scoring path from several processes into one store at once (issue 18): SQLite and a real PostgreSQL
server; no row lost or duplicated. The expected rows are the ones each process was told to write."""

from __future__ import annotations

import multiprocessing

from brainscore_core.metrics import Score
from brainscore_core.results import ResultStore


class _Benchmark:
    identifier, version, parent = "Fake.IT-pls", 2, "IT"

    def __call__(self, candidate):
        score = Score(candidate.value)
        score.attrs["raw"], score.attrs["ceiling"] = Score(candidate.value), Score(1.0)
        return score


class _Model:
    def __init__(self, value):
        self.value = value

    def content_digest(self):
        return f"digest-{self.value}"


def _score_pairs(url, worker, count, barrier):
    from brainscore_core.scoring import score_pair

    barrier.wait()
    for index in range(count):
        score_pair(_Model(index / count), _Benchmark(), model_identifier=f"worker{worker}-{index}",
                   benchmark_identifier=_Benchmark.identifier, store=url)


def test_three_processes_scoring_into_one_store_lose_and_duplicate_nothing(results_url):
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(3)
    workers = [context.Process(target=_score_pairs, args=(results_url, worker, 40, barrier)) for worker in range(3)]
    for process in workers:
        process.start()
    for process in workers:
        process.join(timeout=300)
    assert [process.exitcode for process in workers] == [0, 0, 0]
    rows = ResultStore(results_url).rows()
    identifiers = sorted(row["model_identifier"] for row in rows)
    assert identifiers == sorted(f"worker{w}-{i}" for w in range(3) for i in range(40))  # each once
    assert {row["benchmark_version"] for row in rows} == {2}
    assert all(row["status"] == "ok" and row["elapsed_s"] is not None for row in rows)
