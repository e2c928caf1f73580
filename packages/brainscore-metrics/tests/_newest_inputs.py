"""Inputs shared by the tests of the newest metrics and the script that runs Brain-Score's code on them.

Plain numpy only (``numpy.random.default_rng``, whose streams are the same under numpy 1.26 and 2.x), so that
``benchmarks/bench_newest.py`` can build the same arrays inside a throwaway Brain-Score venv. Each function
returns plain arrays and coordinate lists; the callers wrap them in their own assembly classes.
"""

from __future__ import annotations

import numpy as np


def objects_of(n: int, n_objects: int = 8) -> list[str]:
    return [f"object{i % n_objects}" for i in range(n)]


def reverse_pair(n: int = 160, q: int = 40, p: int = 500, seed: int = 11, dtype=np.float64):
    """(model features (n, p), neural responses (n, q), stimulus ids, object names); two model units are
    constant (dead units) and the stimulus order of the model differs from the neural one."""
    rng = np.random.default_rng(seed)
    latent = rng.standard_normal((n, 10))
    neural = latent @ rng.standard_normal((10, q)) + rng.standard_normal((n, q))
    model = latent @ rng.standard_normal((10, p)) + 2 * rng.standard_normal((n, p)) + 1.5
    model[:, 3] = 0.0
    model[:, 17] = 2.5
    ids = [f"s{i:04d}" for i in range(n)]
    return model.astype(dtype), neural, ids, objects_of(n)


def split_pair(n_train: int = 120, n_test: int = 40, p: int = 600, q: int = 12, seed: int = 21, dtype=np.float64):
    """(X_train, X_test, Y_train, Y_test, train ids, test ids) with features 30x their spread in the mean."""
    rng = np.random.default_rng(seed)
    n = n_train + n_test
    latent = rng.standard_normal((n, 6))
    X = latent @ rng.standard_normal((6, p)) + rng.standard_normal((n, p)) + 30 * rng.standard_normal(p)
    Y = latent @ rng.standard_normal((6, q)) + 0.7 * rng.standard_normal((n, q))
    X = X.astype(dtype)
    ids = [f"t{i:04d}" for i in range(n)]
    return X[:n_train], X[n_train:], Y[:n_train], Y[n_train:], ids[:n_train], ids[n_train:]


def repetition_trials(n_images: int = 60, q: int = 20, seed: int = 31):
    """Trials (n_presentations, q), image ids and repetition numbers: 3-6 repetitions per image, one NaN,
    images listed in a shuffled order."""
    rng = np.random.default_rng(seed)
    counts = rng.integers(3, 7, size=n_images)
    signal = rng.standard_normal((n_images, q))
    images, repetitions, rows = [], [], []
    for image in rng.permutation(n_images):
        for repetition in range(counts[image]):
            images.append(f"img{image:03d}")
            repetitions.append(repetition)
            rows.append(signal[image] + 1.2 * rng.standard_normal(q))
    values = np.stack(rows)
    values[4, 3] = np.nan
    return values, images, repetitions


def cka_pair(n: int = 60, p: int = 300, q: int = 25, seed: int = 41):
    """(source (n, p), target (n, q), stimulus ids) sharing a 5-dim latent."""
    rng = np.random.default_rng(seed)
    latent = rng.standard_normal((n, 5))
    source = latent @ rng.standard_normal((5, p)) + rng.standard_normal((n, p)) + 4.0
    target = latent @ rng.standard_normal((5, q)) + rng.standard_normal((n, q))
    return source, target, [f"c{i:03d}" for i in range(n)]
