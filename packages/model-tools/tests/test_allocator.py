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


@glibc_only
def test_inside_the_block_a_freed_64_mib_buffer_is_reused_without_page_faults():
    env = {key: value for key, value in os.environ.items() if key != "MODEL_TOOLS_REUSE_MEMORY"}
    result = subprocess.run([sys.executable, "-c", _FAULTS], capture_output=True, text=True, env=env, check=True)
    counts = json.loads(result.stdout)
    pages = (64 << 20) // os.sysconf("SC_PAGE_SIZE")
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
