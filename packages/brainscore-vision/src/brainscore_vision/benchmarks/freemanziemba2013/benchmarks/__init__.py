"""Brain-Score's import path ``brainscore_vision.benchmarks.freemanziemba2013.benchmarks`` (modules ``benchmark``,
``public_benchmarks``).
"""
