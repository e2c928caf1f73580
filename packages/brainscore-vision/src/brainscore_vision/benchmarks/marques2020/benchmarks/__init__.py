"""Brain-Score's import path ``brainscore_vision.benchmarks.marques2020.benchmarks``: one module per study
(``ringach2002_benchmark``, ``cavanaugh2002a_benchmark``, ``devalois1982a_benchmark``, ``devalois1982b_benchmark``,
``schiller1976_benchmark``, ``freemanZiemba2013_benchmark``), each re-exporting Brain-Score's names for that study: the
factories (:mod:`brainscore_vision.benchmarks.marques2020.factories`), the property function and the constants.
Nothing is registered here (the family registers through its entry point).
"""
