"""Which explained-variance rule a benchmark version uses (Brain-Score #2169, #2244, #2281).

Since 2026-01 Brain-Score maps a raw correlation r onto its split-half ceiling c as ``r^2 / c`` (the ceiling is a
reliability, already a variance ratio); before, as ``(r / c)^2``. Benchmarks whose numbers changed got a new version
(#2244), so a stored score of the old version keeps its number. This module records, per benchmark family, the first
version with the corrected rule; :class:`~brainscore_vision.benchmark_helpers.neural_common.NeuralBenchmark` and
``TrainTestNeuralBenchmark`` use it when no ``normalization`` is given. Building a benchmark at an older version
(e.g. ``MajajHong2015PublicPLS('IT', version=3)``, ``NeuralBenchmark(..., version=3)``) therefore reproduces the old
number, and the result store keeps the two apart by version.

Families not listed (Cowley2023, this package's own; MajajHong2015's reverse predictivity, Allen2022 and LAION-fMRI,
made after the change) use the corrected rule at every version. Coggan2024 fMRI and behaviour are not explained-
variance benchmarks: Brain-Score reverted them to ``(r / c)^2`` at version 1 (#2281), and so do we.
"""

from __future__ import annotations

import re

__all__ = ["CORRECTED_FROM_VERSION", "normalization_for"]

#: identifier pattern -> first version using r^2 / ceiling (the versions #2244 introduced)
CORRECTED_FROM_VERSION: dict[str, int] = {
    r"MajajHong2015\.(V4|IT)(\.public)?-pls$": 4,
    r"FreemanZiemba2013\.(V1|V2)-": 3,
    r"tolias\.Cadena2017-": 2,
    r"Gifford2022\.": 3,
    r"Hebart2023_fmri\.": 3,
    r"Papale2025\.": 3,
    r"Igustibagus2024-": 2,
    r"Rajalingham2020\.": 2,
    r"(Sanghavi|SanghaviJozwik|SanghaviMurty)2020\.": 2,
}


def normalization_for(identifier: str, version: int) -> str:
    """``'legacy_squared'`` for a version older than its family's correction, else ``'r2_over_ceiling'``."""
    for pattern, first in CORRECTED_FROM_VERSION.items():
        if re.match(pattern, identifier):
            return "legacy_squared" if version < first else "r2_over_ceiling"
    return "r2_over_ceiling"
