"""Brain-Score's import path ``brainscore_vision.benchmarks.rajalingham2018.benchmarks`` (modules ``benchmark``,
``public_benchmark``).
"""
