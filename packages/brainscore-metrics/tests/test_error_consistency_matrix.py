"""The matrix form of error consistency (``pairwise_kappas``) against the one-pair formula and a hand example."""

import numpy as np
import pytest

from brainio.assemblies import BehavioralAssembly
from brainscore_metrics.behavior.error_consistency import ErrorConsistency, cohens_kappa, pairwise_kappas
from brainscore_metrics.errors import BehaviorInputError


def test_hand_worked_kappa():
    # rows: [1, 1, 0, 0] and [1, 0, 0, 0]; accuracies 0.5 and 0.25, observed agreement 3/4,
    # expected 0.5 * 0.25 + 0.5 * 0.75 = 0.5, kappa = (0.75 - 0.5) / (1 - 0.5) = 0.5
    table = np.array([[1, 1, 0, 0], [1, 0, 0, 0]], dtype=float)
    kappas = pairwise_kappas(table)
    assert kappas[0, 1] == pytest.approx(0.5) and kappas[1, 0] == pytest.approx(0.5)
    assert cohens_kappa(table[0], table[1]) == pytest.approx(0.5)


def test_matrix_form_equals_the_pair_formula_with_missing_stimuli():
    rng = np.random.default_rng(3)
    table = (rng.random((6, 40)) < 0.6).astype(float)
    table[rng.random((6, 40)) < 0.2] = np.nan  # each row misses some stimuli
    weights = rng.integers(0, 3, size=40).astype(float)
    for w in (None, weights):
        kappas = pairwise_kappas(table, w)
        for i in range(6):
            for j in range(6):
                shared = ~np.isnan(table[i]) & ~np.isnan(table[j])
                expected = cohens_kappa(table[i, shared], table[j, shared],
                                        None if w is None else w[shared])
                assert kappas[i, j] == pytest.approx(expected, nan_ok=True, abs=1e-12)


def test_undefined_kappa_is_nan():
    table = np.array([[1, 1, 1], [1, 1, 1], [np.nan, np.nan, np.nan]])
    kappas = pairwise_kappas(table)
    assert np.isnan(kappas[0, 1])  # expected agreement 1
    assert np.isnan(kappas[0, 2])  # no shared stimulus


def _trials(subject, ids, truth, choices, condition="0"):
    n = len(ids)
    return {"values": choices, "stimulus_id": ids, "truth": truth, "subject": [subject] * n,
            "condition": [condition] * n}


def test_a_subject_seeing_a_stimulus_twice_is_named():
    rows = _trials("s1", ["a", "a"], ["cat", "cat"], ["cat", "dog"])
    assembly = BehavioralAssembly(rows.pop("values"), coords={k: ("presentation", v) for k, v in rows.items()},
                                  dims=["presentation"])
    with pytest.raises(BehaviorInputError, match="repeated.*'s1', 'a'"):
        ErrorConsistency().ceiling(assembly)
