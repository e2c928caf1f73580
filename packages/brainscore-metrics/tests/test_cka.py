"""Linear CKA (unbiased and biased): closed forms, textbook formulas, CV, bootstrap, bad input."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from _representational import activations
from sklearn.model_selection import StratifiedShuffleSplit

from brainio.assemblies import DataAssembly
from brainscore_metrics.cka import (
    CKACrossValidated,
    CKAMetric,
    linear_cka,
    linear_cka_from_grams,
    unbiased_hsic_from_grams,
)
from brainscore_metrics.errors import (
    NonFiniteValuesError,
    RDMFormatError,
    StimulusAlignmentError,
    TooFewStimuliError,
)


def song_hsic_loops(K, L):
    """Unbiased HSIC (Song et al. 2012, eq. 5) with the zero-diagonal matrices, as plain loops."""
    n = len(K)
    Kt = [[0.0 if i == j else K[i][j] for j in range(n)] for i in range(n)]
    Lt = [[0.0 if i == j else L[i][j] for j in range(n)] for i in range(n)]
    trace = sum(Kt[i][j] * Lt[j][i] for i in range(n) for j in range(n))
    sum_k = sum(Kt[i][j] for i in range(n) for j in range(n))
    sum_l = sum(Lt[i][j] for i in range(n) for j in range(n))
    cross = sum(Kt[i][j] * Lt[j][m] for i in range(n) for j in range(n) for m in range(n))
    return (trace + sum_k * sum_l / ((n - 1) * (n - 2)) - 2 * cross / (n - 2)) / (n * (n - 3))


def song_hsic_u_statistic(K, L):
    """The U-statistic definition (Song et al. 2012, theorem 2): mean over ordered 4-tuples of distinct
    indices of h = 1/24 * sum over their permutations (s,t,u,v) of k_st l_st + k_st l_uv - 2 k_st l_su."""
    n = len(K)
    total, count = 0.0, 0
    for quadruple in itertools.permutations(range(n), 4):
        h = 0.0
        for s, t, u, v in itertools.permutations(quadruple):
            h += K[s][t] * L[s][t] + K[s][t] * L[u][v] - 2 * K[s][t] * L[s][u]
        total += h / 24
        count += 1
    return total / count


def biased_cka_textbook(X, Y):
    """HSIC_b = tr(K H L H) / (n-1)^2 with an explicit centring matrix H; CKA = HSIC / sqrt(HSIC HSIC)."""
    n = len(X)
    H = np.eye(n) - np.ones((n, n)) / n
    K, L = X @ X.T, Y @ Y.T

    def hsic(A, B):
        return np.trace(A @ H @ B @ H) / (n - 1) ** 2

    return hsic(K, L) / np.sqrt(hsic(K, K) * hsic(L, L))


def unbiased_cka_loops(X, Y):
    K, L = (X @ X.T).tolist(), (Y @ Y.T).tolist()
    return song_hsic_loops(K, L) / (np.sqrt(song_hsic_loops(K, K) * song_hsic_loops(L, L)) + 1e-12)


@pytest.fixture
def pair():
    rng = np.random.default_rng(0)
    n = 24
    source = rng.normal(size=(n, 15)) + 2.0  # non-zero means: centring matters for the biased form
    target = source[:, :5] @ rng.normal(size=(5, 7)) + rng.normal(scale=2, size=(n, 7))
    return source, target, np.array([f"im{i:02d}" for i in range(n)]), np.resize(["a", "b"], n)  # train part (10 %) must hold every class


def test_song_formula_equals_u_statistic_definition():
    rng = np.random.default_rng(1)
    X, Y = rng.normal(size=(6, 3)), rng.normal(size=(6, 2))
    K, L = (X @ X.T).tolist(), (Y @ Y.T).tolist()
    assert song_hsic_loops(K, L) == pytest.approx(song_hsic_u_statistic(K, L), rel=1e-10)
    assert unbiased_hsic_from_grams(np.array(K), np.array(L)) == pytest.approx(song_hsic_u_statistic(K, L), rel=1e-10)


def test_unbiased_cka_equals_song_loops(pair):
    source, target, _, _ = pair
    expected = unbiased_cka_loops(source, target)
    assert linear_cka(source, target, unbiased=True) == pytest.approx(expected, abs=1e-10)
    assert linear_cka_from_grams(source @ source.T, target @ target.T) == pytest.approx(expected, abs=1e-10)


def test_biased_cka_equals_textbook_hsic(pair):
    source, target, _, _ = pair
    expected = biased_cka_textbook(source, target)
    assert linear_cka(source, target, unbiased=False) == pytest.approx(expected, abs=1e-12)
    assert linear_cka_from_grams(source @ source.T, target @ target.T, unbiased=False) == pytest.approx(expected)


@pytest.mark.parametrize("unbiased", [True, False])
@pytest.mark.parametrize("shape", [(30, 50), (60, 8)])  # stimuli < features and stimuli > features
def test_orthogonal_transform_gives_one(unbiased, shape):
    rng = np.random.default_rng(2)
    X = rng.normal(size=shape)
    Q, _ = np.linalg.qr(rng.normal(size=(shape[1], shape[1])))
    # CKA is invariant to orthogonal transforms, isotropic scaling and translation: CKA(X, 3 XQ + 1) = 1
    assert linear_cka(X, 3 * X @ Q + 1, unbiased=unbiased) == pytest.approx(1, abs=1e-10)


def test_metric_aligns_rows_on_stimulus_id(pair):
    source, target, ids, _ = pair
    order = np.random.default_rng(3).permutation(len(ids))
    score = CKAMetric()(activations(source, ids), activations(target[order], ids[order]))
    assert score.item() == pytest.approx(unbiased_cka_loops(source, target), abs=1e-10)
    swapped = CKAMetric()(activations(target[order], ids[order]), activations(source, ids))  # larger target
    assert swapped.item() == pytest.approx(score.item(), abs=1e-12)
    biased = CKAMetric(unbiased=False)(activations(source, ids), activations(target[order], ids[order]))
    assert biased.item() == pytest.approx(biased_cka_textbook(source, target), abs=1e-12)


def test_nonpositive_self_hsic_gives_zero():
    # identical rows: every centred Gram is 0, so HSIC(X, X) = 0 and CKA is defined as 0
    values = np.ones((5, 3))
    assert linear_cka(values, np.random.default_rng(0).normal(size=(5, 2))) == 0.0


@pytest.mark.parametrize("unbiased", [True, False])
def test_cka_cv_matches_manual_splits(pair, unbiased):
    source, target, ids, objects = pair
    score = CKACrossValidated(unbiased=unbiased)(activations(source, ids, objects), activations(target, ids, objects))
    reference = unbiased_cka_loops if unbiased else biased_cka_textbook
    expected = []
    for _, test in StratifiedShuffleSplit(n_splits=10, test_size=0.9, random_state=1).split(ids, objects):
        test = np.sort(test)
        expected.append(reference(source[test], target[test]))
    np.testing.assert_allclose(score.attrs["raw"].values, expected, atol=1e-10)
    assert score.item() == pytest.approx(np.mean(expected))
    assert score.attrs["error"] == pytest.approx(np.std(expected) / np.sqrt(10))


@pytest.mark.parametrize("unbiased", [True, False])
def test_bootstrap_interval_brackets_value(pair, unbiased):
    source, target, ids, _ = pair
    score = CKAMetric(unbiased=unbiased, bootstrap=300)(activations(source, ids), activations(target, ids))
    assert score.attrs["ci_low"] < score.item() < score.attrs["ci_high"]


def test_fewer_than_four_stimuli_refused():
    values = np.random.default_rng(0).normal(size=(3, 5))
    ids = np.array(["a", "b", "c"])
    with pytest.raises(TooFewStimuliError, match="at least 4"):
        CKAMetric()(activations(values, ids), activations(values, ids))
    assert CKAMetric(unbiased=False)(activations(values, ids), activations(values, ids)).item() == pytest.approx(1)


def test_bad_input_is_named(pair):
    source, target, ids, _ = pair
    other = ids.astype(object)
    other[0] = "unknown_image"
    with pytest.raises(StimulusAlignmentError, match="unknown_image"):
        CKAMetric()(activations(source, ids), activations(target, other))
    nan_source = source.copy()
    nan_source[4, 0] = np.nan
    with pytest.raises(NonFiniteValuesError, match="im04"):
        CKAMetric()(activations(nan_source, ids), activations(target, ids))
    rdm = DataAssembly(np.zeros((len(ids), len(ids))), coords={"stimulus_id": ("presentation", ids)},
                       dims=["presentation", "presentation_right"])
    with pytest.raises(RDMFormatError, match="activations"):
        CKAMetric()(activations(source, ids), rdm)
