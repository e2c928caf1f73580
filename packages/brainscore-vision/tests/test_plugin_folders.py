"""Brain-Score's plugin folders in brainscore_vision: a user plugin folder laid out like Brain-Score's package
(``benchmarks/``, ``data/``, ``metrics/``) is found by identifier, only the folder asked for is imported, the built-in
entry-point folders are not imported a second time, and a plugin claiming a built-in identifier replaces it with a
one-line notice. Each scenario runs in a fresh interpreter (the registries are per process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

BENCHMARK_INIT = """
    from brainscore_vision import benchmark_registry
    from .benchmark import MyLabBenchmark

    benchmark_registry['MyLab2026.IT-corr'] = MyLabBenchmark
"""
BENCHMARK_MODULE = """
    import numpy as np

    from brainscore_core.metrics import Score
    from brainscore_vision import load_dataset, load_metric
    from brainscore_vision.benchmarks import BenchmarkBase
    from brainscore_vision.benchmarks.mylab_benchmark.constants import VERSION  # absolute import inside the folder


    class MyLabBenchmark(BenchmarkBase):
        def __init__(self):
            super().__init__('MyLab2026.IT-corr', lambda: Score(0.5), VERSION, parent='IT')
            self.assembly = load_dataset('MyLab2026')
            self.metric = load_metric('mylab_corr')

        def __call__(self, candidate):
            return self.metric(candidate(self.assembly), self.assembly) / self.ceiling
"""
DATA_INIT = """
    import numpy as np
    from brainio.assemblies import NeuroidAssembly
    from brainscore_vision import data_registry

    data_registry['MyLab2026'] = lambda: NeuroidAssembly(
        np.arange(12.0).reshape(4, 3) ** 2, coords={'stimulus_id': ('presentation', list('abcd')),
                                                    'neuroid_id': ('neuroid', ['n0', 'n1', 'n2'])},
        dims=['presentation', 'neuroid'])
"""
METRIC_INIT = """
    import numpy as np
    from brainscore_core.metrics import Score
    from brainscore_vision import metric_registry


    def correlation(source, target):
        return Score(np.corrcoef(source.values.ravel(), target.values.ravel())[0, 1])


    metric_registry['mylab_corr'] = lambda: correlation
"""
REEXPORT_ONLY = """
    # a module of re-exports, as brainscore_vision.metrics.<folder> modules are: no registry assignment
    from brainscore_core.metrics import Score  # metric_registry['mylab_corr'] in a comment registers nothing
"""
OVERRIDE_INIT = """
    from brainscore_vision import benchmark_registry

    benchmark_registry['Kriegeskorte2008.hIT-rdm'] = lambda: 'my own Kriegeskorte2008 benchmark'
"""
RUN = """
    import json, sys, warnings
    import brainscore_vision
    from brainscore_core.errors import PluginOverrideNotice

    folders = lambda: sorted(m for m in sys.modules if m.split('.')[1:2] in (['benchmarks'], ['data'], ['metrics'])
                             and m.split('.')[0] == 'brainscore_vision' and len(m.split('.')) == 3)
    brainscore_vision.list_plugins()  # discovery: the entry-point plugins (built-in folders among them) are imported
    before = folders()
    benchmark = brainscore_vision.load_benchmark('MyLab2026.IT-corr')
    score = benchmark(lambda assembly: assembly * 2 + 1)  # a perfectly correlated 'model'
    after = folders()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        kriegeskorte = brainscore_vision.load_benchmark('Kriegeskorte2008.hIT-rdm')
    print(json.dumps({'score': float(score), 'new_modules': sorted(set(after) - set(before)), 'kriegeskorte': kriegeskorte if isinstance(kriegeskorte, str) else repr(kriegeskorte),
                      'notices': [str(w.message) for w in caught if issubclass(w.category, PluginOverrideNotice)],
                      'origin': brainscore_vision.benchmark_registry.source('MyLab2026.IT-corr').module}))
"""


def _write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip())


@pytest.fixture
def user_folder(tmp_path):
    root = tmp_path / "my_plugins"
    _write(root / "benchmarks" / "mylab_benchmark" / "__init__.py", BENCHMARK_INIT)
    _write(root / "benchmarks" / "mylab_benchmark" / "benchmark.py", BENCHMARK_MODULE)
    _write(root / "benchmarks" / "mylab_benchmark" / "constants.py", "VERSION = 3\n")
    _write(root / "data" / "mylab_data" / "__init__.py", DATA_INIT)
    _write(root / "metrics" / "mylab_metric" / "__init__.py", METRIC_INIT)
    _write(root / "metrics" / "reexports" / "__init__.py", REEXPORT_ONLY)
    _write(root / "benchmarks" / "never_imported" / "__init__.py", "raise RuntimeError('not asked for')\n")
    return root


def _run(user_folder, tmp_path) -> dict:
    environment = {**os.environ, "BRAINSCORE_PLUGIN_FOLDERS": str(user_folder), "BRAINSCORE_HOME": str(tmp_path / "home")}
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(RUN)], capture_output=True, text=True,
                            env=environment, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_user_folders_are_found_by_identifier_and_override_a_builtin_with_a_notice(user_folder, tmp_path):
    # by hand: corrcoef(2x + 1, x) = 1, ceiling 0.5
    _write(user_folder / "benchmarks" / "my_kriegeskorte" / "__init__.py", OVERRIDE_INIT)
    output = _run(user_folder, tmp_path)
    assert output["score"] == pytest.approx(2.0)
    assert output["origin"] == "brainscore_vision.benchmarks.mylab_benchmark"
    # only the folders registering what was asked for were imported (the built-in entry-point folders already were)
    assert output["new_modules"] == ["brainscore_vision.benchmarks.mylab_benchmark",
                                     "brainscore_vision.data.mylab_data", "brainscore_vision.metrics.mylab_metric"]
    assert output["kriegeskorte"] == "my own Kriegeskorte2008 benchmark"
    [notice] = output["notices"]
    assert "\n" not in notice and notice.startswith(
        "benchmark 'Kriegeskorte2008.hIT-rdm' of an explicit registration (no distribution) (module "
        "'brainscore_vision.benchmarks.my_kriegeskorte') replaces the built-in one of distribution 'brainscore-vision'")


def test_without_an_override_the_builtin_benchmark_stays(user_folder, tmp_path):
    output = _run(user_folder, tmp_path)
    assert output["notices"] == [] and output["kriegeskorte"].startswith("RSABenchmark(")
