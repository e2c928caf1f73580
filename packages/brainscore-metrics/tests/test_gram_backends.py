"""CKA and RDM with the stimulus Gram matrix formed on another backend (``backend='torch'``).

Expected values are written out here in plain numpy float64: ``1 - np.corrcoef`` for the RDM, and CKA
from explicit centred Gram matrices (biased: double centring; unbiased: the U-centring of Song et al.
2012). The real-data case uses Cowley 2023 V4 responses and image features through our loaders.
"""

import numpy as np
import pytest
from _cowley import averaged, image_features, load_trials
from conftest import torch_or_skip

from brainio.assemblies import NeuroidAssembly
from brainscore_metrics._gram import stimulus_gram_as_numpy
from brainscore_metrics._rdm_kernels import correlation_distance_triangle
from brainscore_metrics.cka import CKAMetric, linear_cka
from brainscore_metrics.rdm import RDMCrossValidated, RDMMetric


def _wide(n=40, p=600, dtype=np.float64, seed=3):
    rng = np.random.default_rng(seed)
    latent = rng.normal(size=(n, 5))
    X = latent @ rng.normal(size=(5, p)) + rng.normal(size=(n, p)) + 12  # offset: centring matters
    Y = latent @ rng.normal(size=(5, 8)) + rng.normal(size=(n, 8))
    return X.astype(dtype), Y


def _double_centre(K):
    return K - K.mean(0)[None, :] - K.mean(1)[:, None] + K.mean()


def _u_centre(K):
    n = len(K)
    K = K.copy()
    np.fill_diagonal(K, 0)
    U = K - K.sum(1)[:, None] / (n - 2) - K.sum(0)[None, :] / (n - 2) + K.sum() / ((n - 1) * (n - 2))
    np.fill_diagonal(U, 0)
    return U


def _expected_cka(X, Y, unbiased):
    centre = _u_centre if unbiased else _double_centre
    K, L = (centre(Z @ Z.T) for Z in (np.asarray(X, dtype=np.float64), np.asarray(Y, dtype=np.float64)))
    return (K * L).sum() / np.sqrt((K * K).sum() * (L * L).sum())


@pytest.mark.parametrize("center", ["columns", "rows"])
def test_gram_as_numpy_on_each_backend(backend_name, center):
    X, _ = _wide()
    Z = X - (X.mean(axis=0) if center == "columns" else X.mean(axis=1, keepdims=True))
    gram = stimulus_gram_as_numpy(X, center=center, backend=backend_name)
    assert isinstance(gram, np.ndarray) and gram.dtype == np.float64
    np.testing.assert_allclose(gram, Z @ Z.T, rtol=0, atol=1e-10 * np.abs(Z @ Z.T).max())


@pytest.mark.parametrize("unbiased", [True, False])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_linear_cka_on_each_backend(backend_name, unbiased, dtype):
    X, Y = _wide(dtype=dtype)
    expected = _expected_cka(X, Y, unbiased)
    rel = 1e-10 if dtype == np.float64 else 1e-6  # float32 block products ('mixed'), summed in float64
    assert linear_cka(X, Y, unbiased=unbiased, backend=backend_name) == pytest.approx(expected, rel=rel)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_rdm_triangle_on_each_backend(backend_name, dtype):
    X, _ = _wide(dtype=dtype)
    order = np.random.default_rng(0).permutation(len(X))
    expected = (1 - np.corrcoef(X.astype(np.float64)[order]))[np.triu_indices(len(X), 1)]
    triangle = correlation_distance_triangle(X, order, backend=backend_name)
    np.testing.assert_allclose(triangle, expected, rtol=0, atol=1e-12 if dtype == np.float64 else 1e-6)


def test_torch_tensor_input_follows_its_backend():
    torch = torch_or_skip()
    X, _ = _wide()
    gram = stimulus_gram_as_numpy(torch.from_numpy(X), center="columns")
    Z = X - X.mean(axis=0)
    np.testing.assert_allclose(gram, Z @ Z.T, rtol=0, atol=1e-10 * np.abs(Z @ Z.T).max())


def test_unknown_backend_is_named():
    X, Y = _wide()
    with pytest.raises(ValueError, match="tpu"):
        linear_cka(X, Y, backend="tpu")


@pytest.fixture(scope="module")
def cowley_pair(raw_data_dir):
    """Real inputs: Cowley 2023 V4 trial-averaged responses and image features of the same images."""
    target = averaged(load_trials(raw_data_dir))
    features = image_features(raw_data_dir)
    features = features.sel(presentation=[sid in set(target["stimulus_id"].values)
                                          for sid in features["stimulus_id"].values])
    return features.astype(np.float32), target


def test_metrics_with_torch_backend_on_real_data(cowley_pair):
    """Scores with the Gram matrix formed by torch equal the numpy-backend scores and the written-out
    formulas on the same real arrays."""
    torch_or_skip()
    source, target = cowley_pair
    order = np.argsort(source["stimulus_id"].values)
    X = source.values[order].astype(np.float64)
    Y = target.values[np.argsort(target["stimulus_id"].values)]
    cka = CKAMetric(backend="torch")(source, target)
    assert float(cka) == pytest.approx(_expected_cka(X, Y, True), rel=1e-6)
    assert float(cka) == pytest.approx(float(CKAMetric()(source, target)), rel=1e-6)
    # float32 source: torch centres each block in float64 before the float32 product, numpy with a
    # float32 hi/lo pair of the means; the two roundings differ at float32 noise (~1e-8 here)
    rsa = RDMMetric(backend="torch")(source, target)
    assert float(rsa) == pytest.approx(float(RDMMetric()(source, target)), abs=1e-6)
    rdm_triangles = [(1 - np.corrcoef(Z))[np.triu_indices(len(Z), 1)] for Z in (X, Y)]
    from scipy.stats import spearmanr

    assert float(rsa) == pytest.approx(spearmanr(*rdm_triangles).statistic, abs=1e-6)
    cv = RDMCrossValidated(backend="torch")(source, target)
    assert float(cv) == pytest.approx(float(RDMCrossValidated()(source, target)), abs=1e-6)


def test_assemblies_keep_working_with_backend_keyword():
    X, Y = _wide(n=20, p=50)
    ids = [f"s{i:02d}" for i in range(20)]

    def assembly(values):
        return NeuroidAssembly(values, coords={"stimulus_id": ("presentation", ids),
                                               "neuroid_id": ("neuroid", np.arange(values.shape[1]))},
                               dims=["presentation", "neuroid"])

    score = CKAMetric(backend="numpy")(assembly(X), assembly(Y))
    assert float(score) == pytest.approx(_expected_cka(X, Y, True), rel=1e-10)
