"""The array face (``brainscore_metrics.arrays``) against the peers a user would compare it with: scikit-learn's
``Ridge`` / ``RidgeCV``, himalaya's ``KernelRidgeCV``, rsatoolbox's ``calc_rdm`` / ``compare``, and a plain numpy
Kornblith CKA written here. Every expected number is the peer's own computation on the same arrays (float64), on
synthetic inputs with a known structure, on hard inputs (dead units, duplicated columns, more features than stimuli)
and on the real recordings (Cowley 2023 V4 session 210325, Kriegeskorte 2008)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import torch_or_skip

from brainio.skipping import import_or_skip
from brainscore_metrics import arrays
from brainscore_metrics.errors import InvalidParameterError, NonFiniteValuesError

himalaya_kernel_ridge = import_or_skip("himalaya.kernel_ridge", extra="brainscore-metrics[test]")
rsatoolbox_data = import_or_skip("rsatoolbox.data", extra="brainscore-metrics[test]")
rsatoolbox_rdm = import_or_skip("rsatoolbox.rdm", extra="brainscore-metrics[test]")

ALPHAS = np.logspace(-2, 5, 10)


def _structured(rng, n, p, q, *, dead=0, duplicated=0, noise_levels=None):
    """Sources with a 10-dim latent, targets whose noise grows over the neuroids (so the best alpha differs)."""
    latent = rng.normal(size=(n, 10))
    X = latent @ rng.normal(size=(10, p)) + 0.5 * rng.normal(size=(n, p))
    if dead:
        X[:, :dead] = 3.0  # units that never change
    if duplicated:
        X[:, dead:dead + duplicated] = X[:, -duplicated:]
    levels = np.geomspace(0.05, 20, q) if noise_levels is None else noise_levels
    Y = latent @ rng.normal(size=(10, q)) + levels * rng.normal(size=(n, q))
    return X, Y


def _himalaya(X, Y, X_test, *, cv, local_alpha):
    model = himalaya_kernel_ridge.KernelRidgeCV(alphas=ALPHAS, cv=cv, fit_intercept=True, warn=False,
                                                solver_params={"local_alpha": local_alpha})
    model.fit(X, Y)
    return model.predict(X_test), np.asarray(model.best_alphas_)


@pytest.mark.parametrize("alpha_per_target", [False, True])
@pytest.mark.parametrize("shape", ["wide", "narrow", "hard"])
def test_kfold_ridgecv_equals_himalaya(alpha_per_target, shape):
    rng = np.random.default_rng(3)
    n, p = {"wide": (90, 400), "narrow": (150, 30), "hard": (90, 400)}[shape]
    X, Y = _structured(rng, n + 20, p, 6, dead=40 if shape == "hard" else 0, duplicated=25 if shape == "hard" else 0)
    expected, himalaya_alphas = _himalaya(X[:n], Y[:n], X[n:], cv=5, local_alpha=alpha_per_target)
    model = arrays.RidgeCVRegression(ALPHAS, cv=5, alpha_per_target=alpha_per_target).fit(X[:n], Y[:n])
    np.testing.assert_allclose(np.broadcast_to(model.alpha_, (6,)), himalaya_alphas, rtol=1e-12)
    if alpha_per_target:
        assert len(set(np.asarray(model.alpha_).tolist())) > 1  # the input makes the per-target choice matter
    np.testing.assert_allclose(model.predict(X[n:]), expected, rtol=1e-8, atol=1e-8 * np.abs(expected).max())
    # the same through the fixed-split function, whose one Gram product holds train and test
    predictions, alpha = arrays.ridgecv_predict(X[:n], Y[:n], X[n:], alphas=ALPHAS, cv=5,
                                                alpha_per_target=alpha_per_target)
    np.testing.assert_allclose(predictions, expected, rtol=1e-8, atol=1e-8 * np.abs(expected).max())
    np.testing.assert_allclose(np.broadcast_to(alpha, (6,)), himalaya_alphas, rtol=1e-12)


def test_ridgecv_with_a_group_splitter_equals_himalaya():
    from sklearn.model_selection import GroupKFold

    rng = np.random.default_rng(4)
    X, Y = _structured(rng, 120, 300, 5)
    splitter = list(GroupKFold(4).split(X[:100], groups=np.repeat(np.arange(20), 5)))
    expected, alphas = _himalaya(X[:100], Y[:100], X[100:], cv=splitter, local_alpha=True)
    model = arrays.RidgeCVRegression(ALPHAS, cv=splitter, alpha_per_target=True).fit(X[:100], Y[:100])
    np.testing.assert_allclose(model.alpha_, alphas, rtol=1e-12)
    np.testing.assert_allclose(model.predict(X[100:]), expected, rtol=1e-8, atol=1e-8 * np.abs(expected).max())


@pytest.mark.parametrize("p", [40, 300])
def test_loo_alpha_per_target_equals_scikit_learn(p):
    from sklearn.linear_model import RidgeCV

    rng = np.random.default_rng(5)
    X, Y = _structured(rng, 110, p, 6)
    expected = RidgeCV(alphas=ALPHAS, alpha_per_target=True).fit(X[:90], Y[:90])
    model = arrays.RidgeCVRegression(ALPHAS, alpha_per_target=True).fit(X[:90], Y[:90])
    np.testing.assert_allclose(model.alpha_, expected.alpha_, rtol=1e-12)
    assert len(set(model.alpha_.tolist())) > 1
    np.testing.assert_allclose(model.predict(X[90:]), expected.predict(X[90:]), rtol=1e-8, atol=1e-9)


def test_ridgecv_refuses_folds_whose_training_rows_are_not_the_rest():
    from sklearn.model_selection import ShuffleSplit

    X, Y = _structured(np.random.default_rng(0), 40, 60, 2)
    with pytest.raises(InvalidParameterError, match="all rows not in its test rows"):
        arrays.RidgeCVRegression(ALPHAS, cv=ShuffleSplit(3, train_size=0.5, test_size=0.2)).fit(X, Y)
    with pytest.raises(InvalidParameterError, match="cv"):
        arrays.RidgeCVRegression(ALPHAS, cv=1).fit(X, Y)


@pytest.mark.parametrize("hard", [False, True])
def test_fit_predict_keeps_float32_and_equals_scikit_learn(hard):
    from sklearn.linear_model import Ridge

    rng = np.random.default_rng(6)
    X, Y = _structured(rng, 100, 500, 4, dead=60 if hard else 0, duplicated=30 if hard else 0)
    X32 = X.astype(np.float32)
    expected = Ridge(alpha=2.0).fit(X32[:80].astype(np.float64), Y[:80]).predict(X32[80:].astype(np.float64))
    model = arrays.RidgeRegression(2.0).fit(X32[:80], Y[:80])
    assert model.coef_.dtype == np.float64 and model.coef_.shape == (500, 4)
    # float32 block products summed in float64: at least as close to the float64 fit of the same float32 values as
    # scikit-learn's own float32 fit is
    peer = Ridge(alpha=2.0).fit(X32[:80], Y[:80].astype(np.float32)).predict(X32[80:])
    assert np.abs(model.predict(X32[80:]) - expected).max() <= np.abs(peer - expected).max()
    exact = arrays.RidgeRegression(2.0, precision="float64").fit(X32[:80], Y[:80]).predict(X32[80:])
    np.testing.assert_allclose(exact, expected, rtol=1e-9, atol=1e-9 * np.abs(expected).max())
    np.testing.assert_allclose(arrays.ridge_predict(X32[:80], Y[:80], X32[80:], alpha=2.0, precision="float64"),
                               expected, rtol=1e-9, atol=1e-9 * np.abs(expected).max())


def test_fit_does_not_copy_a_float32_source_to_float64():
    import tracemalloc

    X = np.random.default_rng(0).normal(size=(60, 200000)).astype(np.float32)  # 48 MB float32, 96 MB as float64
    Y = np.random.default_rng(1).normal(size=(60, 3))
    tracemalloc.start()
    arrays.RidgeRegression().fit(X, Y)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    # a float64 copy would be twice the source; measured 27 MB: the Gram matrix, float32 scratch of the Gram product,
    # one 16 MiB float64 row block for coef_ and coef_ itself (200000 x 3, 4.8 MB)
    assert peak < X.nbytes


def test_torch_in_torch_out():
    torch = torch_or_skip()
    rng = np.random.default_rng(7)
    X, Y = _structured(rng, 70, 200, 3)
    expected = arrays.ridgecv_predict(X[:50], Y[:50], X[50:], alphas=ALPHAS, cv=5)[0]
    predictions, _ = arrays.ridgecv_predict(torch.from_numpy(X[:50]), torch.from_numpy(Y[:50]),
                                            torch.from_numpy(X[50:]), alphas=ALPHAS, cv=5)
    assert isinstance(predictions, torch.Tensor)
    np.testing.assert_allclose(predictions.numpy(), expected, rtol=1e-9, atol=1e-12)
    model = arrays.RidgeCVRegression(ALPHAS, cv=5, alpha_per_target=True).fit(torch.from_numpy(X[:50]),
                                                                             torch.from_numpy(Y[:50]))
    assert isinstance(model.predict(torch.from_numpy(X[50:])), torch.Tensor)
    r = arrays.pearson_columns(predictions, torch.from_numpy(Y[50:]))
    np.testing.assert_allclose(r, [np.corrcoef(expected[:, j], Y[50:, j])[0, 1] for j in range(3)], rtol=1e-12)


# ------------------------------------------------------------------------------------------------------------ RSA

def _rsatoolbox_rdm(values, method, **kwargs):
    descriptors = {key: kwargs.pop(key) for key in ("cond", "run") if key in kwargs}
    dataset = rsatoolbox_data.Dataset(values, obs_descriptors=descriptors or None)
    return rsatoolbox_rdm.calc_rdm(dataset, method=method, **kwargs).dissimilarities[0]


def _patterns(rng, hard: bool):
    conditions, runs = np.repeat(np.arange(12), 3), np.tile(np.arange(3), 12)
    values = np.repeat(rng.normal(size=(12, 30)), 3, axis=0) + rng.normal(size=(36, 30))
    if hard:  # dead channels and duplicated ones
        values[:, :5] = 1.5
        values[:, 5:10] = values[:, 20:25]
    return values, conditions, runs


@pytest.mark.parametrize("hard", [False, True])
@pytest.mark.parametrize("remove_mean", [False, True])
def test_rdms_equal_rsatoolbox(hard, remove_mean):
    rng = np.random.default_rng(8)
    values, conditions, runs = _patterns(rng, hard)
    precision_matrix = np.linalg.inv(np.cov(rng.normal(size=(90, 30)).T))
    cases = [("euclidean", {}, {}), ("mahalanobis", {"noise": precision_matrix}, {"noise": precision_matrix}),
             ("crossnobis", {"noise": precision_matrix, "cv_descriptor": "run"},
              {"noise": precision_matrix, "folds": runs}),
             ("crossnobis", {}, {})]  # rsatoolbox's default folds: the k-th row of each condition
    if not remove_mean:
        cases.append(("correlation", {}, {}))
    for method, theirs, ours in cases:
        if method != "correlation":
            theirs = {**theirs, "remove_mean": remove_mean}
            ours = {**ours, "remove_mean": remove_mean}
        expected = _rsatoolbox_rdm(values, method, cond=conditions, run=runs, descriptor="cond", **theirs)
        result = arrays.compute_rdm(values, method, conditions=conditions, **ours)
        np.testing.assert_allclose(result, expected, rtol=1e-9, atol=1e-12 * np.abs(expected).max(),
                                   err_msg=method)


def test_rdm_of_float32_and_torch_patterns():
    torch = torch_or_skip()
    values = np.random.default_rng(9).normal(size=(50, 3000)).astype(np.float32)  # more channels than rows
    for method in ("correlation", "euclidean"):
        expected = _rsatoolbox_rdm(values.astype(np.float64), method)
        np.testing.assert_allclose(arrays.compute_rdm(values, method), expected, rtol=1e-6)
        np.testing.assert_allclose(arrays.compute_rdm(torch.from_numpy(values), method, precision="float64"),
                                   expected, rtol=1e-9)


def test_rdm_bad_input_is_named():
    values = np.ones((6, 4))
    values[2, 1] = np.nan
    with pytest.raises(NonFiniteValuesError, match=r"rows \[2\]"):
        arrays.compute_rdm(values, "euclidean")
    with pytest.raises(InvalidParameterError, match="unknown RDM method 'cityblock'"):
        arrays.compute_rdm(np.ones((6, 4)), "cityblock")
    with pytest.raises(InvalidParameterError, match="condition '1' has no row in fold '1'"):
        arrays.compute_rdm(np.eye(5), "crossnobis", conditions=[0, 1, 0, 2, 2], folds=[0, 0, 1, 0, 1])


COMPARISONS = [("spearman", "spearman"), ("pearson", "corr"), ("cosine", "cosine"), ("corr_cov", "corr_cov"),
               ("cosine_cov", "cosine_cov"), ("tau_a", "tau-a")]


@pytest.mark.parametrize(("ours", "theirs"), COMPARISONS)
def test_comparisons_equal_rsatoolbox(ours, theirs):
    rng = np.random.default_rng(10)
    values, conditions, _ = _patterns(rng, False)
    first = np.stack([_rsatoolbox_rdm(values, "correlation", cond=conditions, descriptor="cond"),
                      _rsatoolbox_rdm(values[:, :12], "euclidean", cond=conditions, descriptor="cond")])
    second = np.stack([_rsatoolbox_rdm(values[:, 8:] + rng.normal(size=(36, 22)), "euclidean", cond=conditions,
                                       descriptor="cond"),
                       np.round(first[0] * 4) / 4])  # ties (tau-a's case)
    expected = rsatoolbox_rdm.compare(first, second, method=theirs)
    np.testing.assert_allclose(arrays.compare_rdms(first, second, ours), expected, rtol=1e-9, atol=1e-12)
    # a constant RDM compares as 0 (one pair at a time: rsatoolbox 0.3.2 misplaces the other values of a stack that
    # holds one, since np.putmask reads its values by the flat index of the output)
    constant = np.zeros(first.shape[1])
    for row in first:
        assert arrays.compare_rdms(row, constant, ours)[0, 0] == rsatoolbox_rdm.compare(row, constant, method=theirs)
    if ours not in ("corr_cov", "cosine_cov"):  # NaN pairs are left out of every comparison, as in rsatoolbox
        first[:, [3, 40]] = np.nan
        second[:, [3, 40]] = np.nan
        np.testing.assert_allclose(arrays.compare_rdms(first, second, ours),
                                   rsatoolbox_rdm.compare(first, second, method=theirs), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("method", ["corr_cov", "cosine_cov"])
def test_whitened_comparisons_with_pattern_variances_equal_rsatoolbox(method):
    rng = np.random.default_rng(11)
    first, second = rng.uniform(size=(2, 66)), rng.uniform(size=(3, 66))
    variances = rng.uniform(0.5, 2.0, size=12)
    np.testing.assert_allclose(arrays.compare_rdms(first, second, method, sigma_k=variances),
                               rsatoolbox_rdm.compare(first, second, method=method, sigma_k=variances), rtol=1e-9)
    with pytest.raises(InvalidParameterError, match="sigma_k"):
        arrays.compare_rdms(first, second, method, sigma_k=np.eye(12))


# ----------------------------------------------------------------------------------------------------------- CKA

def _kornblith_cka(X, Y, unbiased):
    """Linear CKA as Kornblith et al.'s reference code writes it: Gram matrices, centred (or U-centred), Frobenius
    cosine."""
    def gram(values):
        return values @ values.T

    def centre(gram_matrix):
        n = gram_matrix.shape[0]
        if not unbiased:
            H = np.eye(n) - 1.0 / n
            return H @ gram_matrix @ H
        g = gram_matrix.copy()
        np.fill_diagonal(g, 0.0)
        means = g.sum(0) / (n - 2)
        means -= means.sum() / (2 * (n - 1))
        g -= means[:, None] + means[None, :]
        np.fill_diagonal(g, 0.0)
        return g

    a, b = centre(gram(X)), centre(gram(Y))
    return float(np.vdot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


@pytest.mark.parametrize("unbiased", [False, True])
@pytest.mark.parametrize("shape", [(60, 500, 20), (200, 30, 12), (60, 500, 400)])
def test_cka_equals_numpy_kornblith(unbiased, shape):
    n, p, q = shape
    rng = np.random.default_rng(12)
    X, _ = _structured(rng, n, p, 1, dead=5, duplicated=3)
    Y = X[:, :q] @ rng.normal(size=(q, q)) + rng.normal(size=(n, q))
    expected = _kornblith_cka(X, Y, unbiased)
    assert arrays.linear_cka(X, Y, unbiased=unbiased) == pytest.approx(expected, rel=1e-9)
    assert arrays.linear_cka(X.astype(np.float32), Y, unbiased=unbiased) == pytest.approx(
        _kornblith_cka(X.astype(np.float32).astype(np.float64), Y, unbiased), rel=1e-6)
    assert arrays.linear_cka_from_grams(X @ X.T, Y @ Y.T, unbiased=unbiased) == pytest.approx(expected, rel=1e-9)


# ----------------------------------------------------------------------------------------------------- real data

def test_real_cowley_ridgecv_and_crossnobis(raw_data_dir):
    from _cowley import pixel_features

    folder = raw_data_dir / "cowley2023_v4"
    responses = np.load(folder / "responses_avg_210325.npy").T  # (640 images, 50 units), the CSV's image order
    pixels = pixel_features(raw_data_dir, size=16).values  # 768 features > 640 images, same order
    train, test = np.arange(512), np.arange(512, 640)
    for per_target in (True,):  # the shared alpha is compared on the synthetic inputs above
        expected, alphas = _himalaya(pixels[train], responses[train], pixels[test], cv=5, local_alpha=per_target)
        model = arrays.RidgeCVRegression(ALPHAS, cv=5, alpha_per_target=per_target).fit(pixels[train],
                                                                                         responses[train])
        np.testing.assert_allclose(np.broadcast_to(model.alpha_, (50,)), alphas, rtol=1e-12)
        np.testing.assert_allclose(model.predict(pixels[test]), expected, rtol=1e-7, atol=1e-9)
    # crossnobis over the first 100 images, folds = the first 6 repeats (every image has at least 6)
    raw = np.load(folder / "responses_raw_210325.npy")[:, :100, :6].astype(np.float64)  # (units, images, repeats)
    trials = raw.transpose(1, 2, 0).reshape(600, 50)
    conditions, runs = np.repeat(np.arange(100), 6), np.tile(np.arange(6), 100)
    expected = _rsatoolbox_rdm(trials, "crossnobis", cond=conditions, run=runs, descriptor="cond",
                               cv_descriptor="run")
    np.testing.assert_allclose(arrays.compute_rdm(trials, "crossnobis", conditions=conditions, folds=runs),
                               expected, rtol=1e-9, atol=1e-12 * np.abs(expected).max())


@pytest.mark.parametrize(("ours", "theirs"), COMPARISONS)
def test_real_kriegeskorte_comparisons_equal_rsatoolbox(kriegeskorte, ours, theirs):
    # float64 on both sides (stored as float32; rsatoolbox would compare float32 RDMs in float32)
    humans = kriegeskorte["human_it_rdms"].reshape(8, 92, 92).astype(np.float64)  # 4 subjects x 2 sessions
    models = np.concatenate([kriegeskorte["monkey_it_rdm"][None], kriegeskorte["model_rdms"][:3]]).astype(np.float64)
    rows, columns = np.triu_indices(92, k=1)
    expected = rsatoolbox_rdm.compare(humans[:, rows, columns], models[:, rows, columns], method=theirs)
    np.testing.assert_allclose(arrays.compare_rdms(humans, models, ours), expected, rtol=1e-9, atol=1e-12)
