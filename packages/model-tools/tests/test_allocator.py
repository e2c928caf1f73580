"""freed_memory_reused: large freed blocks stay in the process (glibc), measured with page-fault counts."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from brainio.skipping import skip_if
from model_tools.activations import allocator
from model_tools.activations.allocator import freed_memory_reused, reuse_enabled

glibc_only = skip_if(allocator._glibc() is None, "machine", "needs glibc malloc")

_FAULTS = """
import ctypes, json, resource
from model_tools.activations.allocator import freed_memory_reused

libc = ctypes.CDLL(None)
libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, (ctypes.c_size_t,)
libc.free.argtypes = (ctypes.c_void_p,)

def second_round_faults():
    # a 64 MiB block malloc'ed, written and freed twice (as torch's CPU allocator does): faults of round two
    for _ in range(2):
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        block = libc.malloc(64 << 20)
        ctypes.memset(block, 1, 64 << 20)
        libc.free(block)
        after = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    return after - before

plain = second_round_faults()
with freed_memory_reused(True) as tuned:
    reused = second_round_faults()
print(json.dumps({"plain": plain, "reused": reused, "tuned": tuned}))
"""


def _fault_counts(script: str) -> tuple[dict, int]:
    """The JSON ``script`` prints, run in a fresh process with the reuse switch at its default; and the pages of the
    64 MiB buffer the scripts allocate."""
    env = {key: value for key, value in os.environ.items() if key != "MODEL_TOOLS_REUSE_MEMORY"}
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    return json.loads(result.stdout), (64 << 20) // os.sysconf("SC_PAGE_SIZE")


@glibc_only
def test_inside_the_block_a_freed_64_mib_buffer_is_reused_without_page_faults():
    counts, pages = _fault_counts(_FAULTS)
    assert counts["tuned"] is True
    # default glibc maps a block over 32 MiB afresh each time: about one fault per page (16384 at 4 KiB)
    assert counts["plain"] > pages // 2
    # kept in the heap: the second round touches pages that are already there
    assert counts["reused"] < pages // 20


@glibc_only
def test_nested_blocks_tune_once_and_settle_on_the_last_exit():
    with freed_memory_reused(True) as outer:
        with freed_memory_reused(True) as inner:
            assert allocator._depth == 2
        assert allocator._depth == 1
    assert (outer, inner, allocator._depth) == (True, True, 0)


def test_switched_off_by_parameter_environment_or_user_malloc_settings(monkeypatch):
    monkeypatch.delenv("MODEL_TOOLS_REUSE_MEMORY", raising=False)
    monkeypatch.delenv("GLIBC_TUNABLES", raising=False)
    with freed_memory_reused(False) as tuned:
        assert tuned is False
    monkeypatch.setenv("MODEL_TOOLS_REUSE_MEMORY", "off")
    assert reuse_enabled() is False
    assert reuse_enabled(True) is True  # an explicit parameter wins over the switch
    monkeypatch.delenv("MODEL_TOOLS_REUSE_MEMORY")
    monkeypatch.setenv("GLIBC_TUNABLES", "glibc.malloc.mmap_threshold=65536")
    assert reuse_enabled(True) is False  # the user's own malloc settings always win
    with freed_memory_reused() as tuned:
        assert tuned is False


_ONE_BLOCK = """
import ctypes, json, resource
from brainscore_core.pair_scope import give_model_releases, pair_scope, run_released, take_model_releases
from model_tools.activations.allocator import freed_memory_reused

libc = ctypes.CDLL(None)
libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, (ctypes.c_size_t,)
libc.free.argtypes = (ctypes.c_void_p,)

def faults_of_one_block():
    # one extraction: a 64 MiB buffer malloc'ed, written and freed inside its own block
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    with freed_memory_reused(True):
        block = libc.malloc(64 << 20)
        ctypes.memset(block, 1, 64 << 20)
        libc.free(block)
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
"""

_PAIR_FAULTS = _ONE_BLOCK + """
faults_of_one_block()
apart = faults_of_one_block()  # the block before it returned its memory (malloc_trim) on leaving
with pair_scope():
    faults_of_one_block()
    in_a_pair = faults_of_one_block()
print(json.dumps({"apart": apart, "in_a_pair": in_a_pair}))
"""


@glibc_only
def test_the_blocks_of_one_pair_reuse_each_others_memory():
    counts, pages = _fault_counts(_PAIR_FAULTS)
    assert counts["apart"] > pages // 2  # each block outside a pair starts from returned memory: a fault per page
    assert counts["in_a_pair"] < pages // 20  # the pair held the memory from one block to the next


@glibc_only
def test_a_pair_holds_the_tuning_from_its_first_block_to_its_end(monkeypatch):
    from brainscore_core.pair_scope import pair_scope

    depths_after_leaving = []
    original_leave = allocator._leave

    def leave(library):
        original_leave(library)
        depths_after_leaving.append(allocator._depth)

    monkeypatch.setattr(allocator, "_leave", leave)
    with pair_scope():
        with freed_memory_reused(True):
            assert allocator._depth == 2  # the block, and the pair's hold
        assert allocator._depth == 1  # still tuned between the pair's blocks
        with freed_memory_reused(True):
            assert allocator._depth == 2  # one hold per pair
        assert allocator._depth == 1
    assert allocator._depth == 0 and depths_after_leaving == [1, 1, 0]  # settled when the pair ended
    with freed_memory_reused(True):
        assert allocator._depth == 1  # outside a pair: no hold
    assert allocator._depth == 0


_KEPT_MODEL_FAULTS = _ONE_BLOCK + """
with pair_scope():  # a grid's pair whose model it keeps for the next pair (what brainscore_core.grid_task does)
    faults_of_one_block()
    kept = take_model_releases()
with pair_scope():  # the next pair of the same model
    give_model_releases(kept)
    next_pair = faults_of_one_block()
    kept = take_model_releases()
run_released(kept)  # the grid lets the model go: the memory is returned
released = faults_of_one_block()
print(json.dumps({"next_pair": next_pair, "released": released}))
"""


@glibc_only
def test_a_kept_models_next_pair_reuses_the_memory_of_the_one_before():
    counts, pages = _fault_counts(_KEPT_MODEL_FAULTS)
    assert counts["next_pair"] < pages // 20  # held from one pair to the next while the grid kept the model
    assert counts["released"] > pages // 2  # returned once the model was released: a fault per page again


@glibc_only
def test_the_tuning_is_held_once_per_model_run_and_settled_when_the_model_is_released():
    from brainscore_core.pair_scope import give_model_releases, pair_scope, run_released, take_model_releases

    with pair_scope():
        with freed_memory_reused(True):
            assert allocator._depth == 2  # the block, and the model's hold
        kept = take_model_releases()
    assert allocator._depth == 1  # kept by the grid: still tuned between its pairs
    with pair_scope():
        give_model_releases(kept)
        with freed_memory_reused(True):
            assert allocator._depth == 2  # the hold of the first pair, not a second one
        kept = take_model_releases()
    assert allocator._depth == 1
    run_released(kept)
    assert allocator._depth == 0
