"""A traced ``score('pixels', 'Kiani2007.mIT-rdm')`` (issue 32, item 2): the registry finds and loads, one scoring
module scores, and no file of the five packages is entered more than twice at once (no file calls a file that calls
it back, the back-and-forth between ``plugins.py`` and ``_registry.py`` had).

Measured by ``sys.setprofile`` on the real recordings (Kriegeskorte 2008 / Kiani 2007), after one warm-up call so
that packaging the data does not count. For each call into a file of ``packages/*/src`` from another file, the call
stack is cut into segments of consecutive frames of one file; a file's *nesting* is how many of those segments are
its own. Before issue 32: ``plugins.py`` 4 (``score`` -> ``scoring`` -> ... -> ``load_dataset`` ->
``_registry.__getitem__`` -> ``ensure_loaded``), ``brainscore_vision/__init__.py`` 3, the Kriegeskorte data plugin 3.
"""

from __future__ import annotations

import collections
import importlib
import os
import sys

import pytest

import brainscore_vision

#: the folders of our five packages as imported (a checkout's src/ or an installed site-packages), by package name
PACKAGE_FOLDERS = {os.path.dirname(importlib.import_module(name).__file__) + os.sep: name
                   for name in ("brainio", "brainscore_core", "brainscore_metrics", "brainscore_vision", "model_tools")}


def _segments(frame) -> list[str]:
    files = []
    while frame is not None:
        name = frame.f_code.co_filename
        if not files or files[-1] != name:
            files.append(name)
        frame = frame.f_back
    return files


def _short(path: str) -> str | None:
    """``'brainscore_core/scoring.py'`` for a file of our packages, else None."""
    for folder, name in PACKAGE_FOLDERS.items():
        if path.startswith(folder):
            return f"{name}/{path[len(folder):]}"
    return None


@pytest.fixture(scope="module")
def traced(raw_data_dir, tmp_path_factory):
    """Entries (calls from another file), deepest nesting with its stack, and file -> file calls of one score()."""
    brainscore_vision.score("pixels", "Kiani2007.mIT-rdm", store=False)  # warm: data packaged, caches filled
    entries, nesting, stacks, edges = collections.Counter(), collections.Counter(), {}, set()

    def profile(frame, event, arg):
        if event != "call":
            return
        here = frame.f_code.co_filename
        caller = frame.f_back
        if _short(here) is None or (caller is not None and caller.f_code.co_filename == here):
            return
        entries[_short(here)] += 1
        if caller is not None and _short(caller.f_code.co_filename) is not None:
            edges.add((_short(caller.f_code.co_filename), _short(here)))
        segments = _segments(frame)
        if segments.count(here) > nesting[_short(here)]:
            nesting[_short(here)] = segments.count(here)
            stacks[_short(here)] = [_short(s) for s in reversed(segments) if _short(s) is not None]

    url = f"sqlite:///{tmp_path_factory.mktemp('trace') / 'results.sqlite'}"
    sys.setprofile(profile)
    try:
        result = brainscore_vision.score("pixels", "Kiani2007.mIT-rdm", store=url)
    finally:
        sys.setprofile(None)
    return result, entries, nesting, stacks, edges


def test_no_file_is_entered_more_than_twice_at_once(traced):
    result, entries, nesting, stacks, _ = traced
    assert 0 <= float(result) <= 1.5 and len(entries) > 30  # the trace saw the whole score
    deep = {name: stacks[name] for name, depth in nesting.items() if depth > 2}
    assert deep == {}


def test_the_registry_layers_are_called_downwards_only(traced):
    _, entries, _, _, edges = traced
    core = "brainscore_core/"
    order = ["scoring.py", "plugins.py", "_registry.py", "_catalog.py"]  # callers first
    upward = sorted((a, b) for a, b in edges if a.startswith(core) and b.startswith(core)
                    and a[len(core):] in order and b[len(core):] in order
                    and order.index(a[len(core):]) > order.index(b[len(core):]))
    assert upward == []
    # one entry into scoring; the domain loads (model, benchmark, data, metric, stimulus set): once per load
    assert entries["brainscore_core/scoring.py"] == 1
    assert entries["brainscore_core/plugins.py"] == entries["brainscore_core/_catalog.py"] <= 5
    assert entries["brainscore_core/_registry.py"] == 0  # loaders go to the catalog; the registry is Brain-Score's face
