"""No module-global mutable state in brainscore-metrics (issue 44, part 3): every module of the package passes the
static check of ``_module_state.py``; the check is seen to fail on a hand-written source for each rule and to pass
constants and local state; the package's tables are read-only."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType

import pytest
from _module_state import module_state_problems

import brainscore_metrics
from brainscore_metrics._frozen import frozen

SOURCE = Path(brainscore_metrics.__file__).parent


def test_brainscore_metrics_holds_no_module_global_mutable_state():
    modules = sorted(SOURCE.rglob("*.py"))
    assert len(modules) > 50  # the whole package is read, not an empty folder
    problems = []
    for path in modules:
        problems += module_state_problems(path.read_text(), str(path.relative_to(SOURCE)))
    assert problems == []


@pytest.mark.parametrize("source, expected", [
    ("_choice = None\ndef remember(c):\n    global _choice\n    _choice = c\n", "global _choice"),
    ("import functools\n@functools.lru_cache\ndef f(x):\n    return x\n", "@lru_cache on f"),
    ("import functools\n@functools.lru_cache(maxsize=4)\ndef f(x):\n    return x\n", "@lru_cache on f"),
    ("from functools import cache\n@cache\ndef f(x):\n    return x\n", "@cache on f"),
    ("_seen = {}\n", "_seen is a mutable container"),
    ("_calls: list[int] = []\n", "_calls is a mutable container"),
    ("_kinds = set(('a',))\n", "_kinds is a mutable container"),
    ("import collections\n_memo = collections.defaultdict(list)\n", "_memo is a mutable container"),
    ("TABLE = dict.fromkeys(('a', 'b'), 0)\n", "TABLE is a mutable container"),
    ("import threading\n_state = threading.local()\n", "_state is a mutable container"),
    ("from types import MappingProxyType\nTABLE = MappingProxyType({'a': {'b': 1}})\n", "TABLE is a mutable container"),
    ("NAMES = ('a', ['b'])\n", "NAMES is a mutable container"),
    ("class A:\n    memo = {}\n", "memo is a mutable container"),
    ("import types\n_probe = types.SimpleNamespace(threads=None)\ndef f(n):\n    _probe.threads = n\n",
     "f changes the module-level _probe"),
    ("_holder = object()\ndef f(n):\n    setattr(_holder, 'n', n)\n", "f changes the module-level _holder"),
    ("import numpy as np\n_buffer = np.zeros(3)\ndef f(x):\n    _buffer[0] = x\n", "f changes the module-level _buffer"),
    ("from registry import make_counts\n_counts = make_counts()\ndef f(k):\n    _counts[k] += 1\n",
     "f changes the module-level _counts"),
    ("import contextvars\n_threads = contextvars.ContextVar('t', default=None)\ndef choose(n):\n    _threads.set(n)\n",
     "choose sets the context variable _threads without resetting it"),
    ("import time\n_loaded_at = time.monotonic()\n", "a clock read at module level"),
])
def test_the_state_checker_reports_each_kind(source, expected):
    problems = module_state_problems(source)
    assert len(problems) == 1 and expected in problems[0], problems


def test_the_state_checker_lets_constants_and_local_state_pass():
    source = (
        "import contextlib, contextvars, time\n"
        "from types import MappingProxyType\n"
        "from brainscore_metrics._frozen import frozen\n"
        "__all__ = ['f', 'B']\n"
        "TABLE = frozen({'a': {'b': [1, 2]}})\n"
        "KINDS = MappingProxyType({'a': ('x', 'y')})\n"
        "NAMES = ('x', 'y')\n"
        "SET = frozenset({'a'})\n"
        "GRID = tuple(float(a) for a in [1, 2])\n"
        "_threads = contextvars.ContextVar('t', default=None)\n"
        "def f(key, buffer):\n"
        "    seen = {}\n    seen[key] = TABLE[key]\n    buffer[0] = 1\n    started = time.monotonic()\n"
        "    return seen, started\n"
        "@contextlib.contextmanager\n"
        "def use(n):\n    token = _threads.set(n)\n    try:\n        yield\n    finally:\n"
        "        _threads.reset(token)\n"
        "class B:\n    KINDS = frozenset({'a'})\n    def __init__(self):\n        self.items = []\n"
        "        self.items.append(1)\n"
    )
    assert module_state_problems(source) == []


def test_frozen_tables_are_read_only_and_equal_to_what_they_freeze():
    table = {"a": {"b": [1, 2], "c": {3}}, "d": ("e", ["f"])}
    read_only = frozen(table)
    assert read_only == {"a": {"b": (1, 2), "c": {3}}, "d": ("e", ("f",))}
    assert isinstance(read_only, MappingProxyType) and isinstance(read_only["a"], MappingProxyType)
    assert isinstance(read_only["a"]["c"], frozenset)
    table["a"]["b"].append(3)  # a copy: changing the source changes nothing
    assert read_only["a"]["b"] == (1, 2)
    with pytest.raises(TypeError):
        read_only["x"] = 1
    with pytest.raises(TypeError):
        read_only["a"]["x"] = 1


def test_the_package_tables_refuse_changes():
    from brainscore_metrics import plugin, regression
    from brainscore_metrics.backend import AVAILABLE_BACKENDS

    for table in (plugin.METRICS, plugin.CEILINGS, regression.REGRESSIONS, AVAILABLE_BACKENDS):
        with pytest.raises(TypeError):
            table["mine"] = None
    with pytest.raises(TypeError):  # a metric's defaults too: one caller cannot change another's
        plugin.METRICS["cka_biased"][2]["unbiased"] = True
