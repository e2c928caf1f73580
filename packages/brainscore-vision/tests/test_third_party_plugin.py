"""A benchmark plugin written from the tutorials' quick-start template, built as a wheel and pip-installed
into a separate virtual environment, is found through its entry points and scores."""

import subprocess
import sys
import textwrap

import pytest
from throwaway_distribution import install_in_new_venv, run

from brainio.skipping import import_or_skip

# The template of the neural-benchmark tutorial, unchanged (two modules of the plugin package).
TEMPLATE_INIT = '''\
from brainscore_vision import benchmark_registry
from .benchmark import YourBenchmarkIT
benchmark_registry['YourBenchmark.IT-pls'] = YourBenchmarkIT
'''
TEMPLATE_BENCHMARK = '''\
from brainscore_vision import load_dataset, load_metric, load_ceiling
from brainscore_vision.benchmark_helpers.neural_common import NeuralBenchmark
BIBTEX = """@article{YourName2024, ...}"""
def YourBenchmarkIT():
    # Load your registered data
    assembly = load_dataset('YourDataset')
    assembly_repetition = load_dataset('YourDataset') # Keep repetitions for ceiling
    # Average repetitions for model comparison
    assembly = assembly.mean(dim='repetition')
    return NeuralBenchmark(
        identifier='YourBenchmark.IT-pls',
        version=1,
        assembly=assembly,
        similarity_metric=load_metric('pls'),
        visual_degrees=8, # From your experiment
        number_of_trials=50,
        ceiling_func=lambda: load_ceiling('internal_consistency')(assembly_repetition),
        parent='IT', # Or 'V1', 'V2', 'V4'
        bibtex=BIBTEX
    )
'''
# The plugin's own tiny data set: a plain trial-level NeuroidAssembly with a ``repetition`` coordinate on
# ``presentation``; brainio's ``mean(dim='repetition')`` averages over that coordinate, so the template
# above runs literally.
DATA_INIT = '''\
import numpy as np
import pandas as pd
from brainio.assemblies import NeuroidAssembly
from brainio.stimuli import StimulusSet
from brainscore_vision import data_registry, stimulus_set_registry


def load_stimuli():
    ids = [f'your_{i:02d}' for i in range(40)]
    stimuli = StimulusSet(pd.DataFrame({'stimulus_id': ids}))
    stimuli.stimulus_paths = {i: f'/never/opened/{i}.png' for i in ids}
    stimuli.identifier = 'YourDataset'
    return stimuli


def load_assembly():
    rng = np.random.default_rng(0)
    stimuli = load_stimuli()
    signal = rng.normal(size=(40, 6))
    values = np.repeat(signal, 4, axis=0) + 0.5 * rng.normal(size=(160, 6))
    assembly = NeuroidAssembly(values, coords={
        'stimulus_id': ('presentation', np.repeat(stimuli['stimulus_id'].to_numpy(), 4)),
        'repetition': ('presentation', np.tile(np.arange(4), 40)),
        'neuroid_id': ('neuroid', [f'n{i}' for i in range(6)]), 'region': ('neuroid', ['IT'] * 6)},
        dims=['presentation', 'neuroid'])
    assembly.attrs['stimulus_set'] = stimuli
    return assembly


stimulus_set_registry['YourDataset'] = load_stimuli
data_registry['YourDataset'] = load_assembly
'''
PYPROJECT = '''\
[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "yourbenchmark-plugin"
version = "0.1.0"
dependencies = ["brainscore-vision"]

[project.entry-points.brainscore_vision]
yourbenchmark = "yourbenchmark"
yourdataset = "yourdataset"

[tool.hatch.build.targets.wheel]
packages = ["yourbenchmark", "yourdataset"]
'''
CHECK = '''\
import numpy as np
from brainio.assemblies import NeuroidAssembly
from brainscore_vision import list_plugins, load_benchmark
from brainscore_vision.benchmark_helpers.test_helper import run_test

benchmark = load_benchmark('YourBenchmark.IT-pls')
info = {p.identifier: p for p in list_plugins('benchmark')}['YourBenchmark.IT-pls']
print('identifier', benchmark.identifier, 'distribution', info.distribution)
averaged = benchmark.assembly
rng = np.random.default_rng(1)
features = NeuroidAssembly(averaged.values @ rng.normal(size=(6, 30)) + 0.1 * rng.normal(size=(40, 30)),
                           coords={'stimulus_id': ('presentation', averaged['stimulus_id'].values),
                                   'neuroid_id': ('neuroid', np.arange(30))}, dims=['presentation', 'neuroid'])
score = run_test(benchmark, features=features)
print('score', float(score), 'ceiling', float(score.attrs['ceiling']))
'''


@pytest.mark.slow
def test_quick_start_template_as_separate_pip_package(tmp_path):
    import_or_skip("hatchling", extra="brainscore-vision[test]")  # builds the plugin wheel
    python = install_in_new_venv(tmp_path, {"pyproject.toml": PYPROJECT, "yourbenchmark/__init__.py": TEMPLATE_INIT,
                                            "yourbenchmark/benchmark.py": TEMPLATE_BENCHMARK,
                                            "yourdataset/__init__.py": DATA_INIT})

    completed = run(python, "-c", textwrap.dedent(CHECK), cwd=tmp_path)
    lines = dict(line.split(" ", 1) for line in completed.stdout.strip().splitlines())
    assert lines["identifier"] == "YourBenchmark.IT-pls distribution yourbenchmark-plugin"
    score, ceiling = lines["score"].split(" ceiling ")
    assert 0 < float(ceiling) <= 1 and np_isfinite(float(score))
    # the plugin is not importable from the test environment itself: only the venv has it
    assert subprocess.run([sys.executable, "-c", "import yourbenchmark"], capture_output=True).returncode != 0


def np_isfinite(value: float) -> bool:
    return value == value and abs(value) != float("inf")
