"""TensorFlow's truncated-normal draw, reproduced in numpy: the initial weights of Brain-Score's TensorFlow readout.

Brain-Score's OST readout initialises its weights with Keras' ``VarianceScaling(seed=0)``; with TensorFlow 2.16 and
later (Keras 3) that is ``tf.random.stateless_truncated_normal(shape, seed=[0, 0]) * stddev``. TensorFlow fills it
with Philox-4x32-10 (Salmon et al. 2011) from a key and counter derived from the seed, in groups of 4 values: group
``g`` starts from the counter advanced by ``256 g`` and draws pairs of 32-bit words, each pair giving two
Box-Muller normals (float32) that are kept when their magnitude is below 2, until the group holds 4. This module
does exactly that, vectorised over groups. The key and counter of seed ``[0, 0]`` are TensorFlow's
(``tf.raw_ops.StatelessRandomGetKeyCounter``; other seeds are not needed here).

Checked against TensorFlow 2.21.0 (the tests hold values it drew; equal to float32 rounding of sin/cos/log).
"""

from __future__ import annotations

import numpy as np

__all__ = ["keras_variance_scaling", "stateless_truncated_normal"]

#: TensorFlow's Philox key and counter for a stateless op seeded with [0, 0] (key as two 32-bit words, low first;
#: counter as four)
SEED_0_KEY = (0xDD5B9083, 0xDF7A3EF6)
SEED_0_COUNTER = (0x0, 0x0, 0x33DA8054, 0xFF2F51A8)
_ROUND_KEYS = (0x9E3779B9, 0xBB67AE85)
_MULTIPLIERS = (0xD2511F53, 0xCD9E8D57)
_SKIP_PER_GROUP = 256   # counter steps reserved per group of 4 outputs
_CALLS_PER_GROUP = 4    # Philox calls drawn per group; more are drawn for the rare group that needs them
_MASK32 = np.uint64(0xFFFFFFFF)


def _philox(counters: np.ndarray, key: tuple[int, int]) -> np.ndarray:
    """Philox-4x32-10 of each row of ``counters`` (uint64 array of shape (n, 4) holding 32-bit words)."""
    c0, c1, c2, c3 = (counters[:, i].astype(np.uint64) for i in range(4))
    k0, k1 = np.uint64(key[0]), np.uint64(key[1])
    for round_ in range(10):
        if round_:
            k0, k1 = (k0 + np.uint64(_ROUND_KEYS[0])) & _MASK32, (k1 + np.uint64(_ROUND_KEYS[1])) & _MASK32
        product0 = np.uint64(_MULTIPLIERS[0]) * c0
        product1 = np.uint64(_MULTIPLIERS[1]) * c2
        c0, c1, c2, c3 = ((product1 >> np.uint64(32)) ^ c1 ^ k0, product1 & _MASK32,
                          (product0 >> np.uint64(32)) ^ c3 ^ k1, product0 & _MASK32)
    return np.stack([c0, c1, c2, c3], axis=1)


def _advanced(counter: tuple[int, ...], steps: np.ndarray) -> np.ndarray:
    """The 128-bit counter plus each of ``steps`` (non-negative, below 2**64), as (n, 4) 32-bit words."""
    words = np.empty((len(steps), 4), dtype=np.uint64)
    low = np.uint64(counter[0]) + (steps & _MASK32)
    carry = low >> np.uint64(32)
    words[:, 0] = low & _MASK32
    middle = np.uint64(counter[1]) + (steps >> np.uint64(32)) + carry
    carry = middle >> np.uint64(32)
    words[:, 1] = middle & _MASK32
    high = np.uint64(counter[2]) + carry
    words[:, 2] = high & _MASK32
    words[:, 3] = (np.uint64(counter[3]) + (high >> np.uint64(32))) & _MASK32
    return words


def _box_muller(x0: np.ndarray, x1: np.ndarray) -> np.ndarray:
    """TensorFlow's float32 Box-Muller of two 32-bit words per pair: (n, 2) normals."""
    def unit(x):  # 23 random mantissa bits as a float32 in [0, 1)
        return ((x & np.uint64(0x7FFFFF)) | np.uint64(127 << 23)).astype(np.uint32).view(np.float32) - np.float32(1)

    u1 = np.maximum(unit(x0), np.float32(1e-7))
    angle = (2.0 * np.pi * unit(x1).astype(np.float64)).astype(np.float32)
    radius = np.sqrt(np.float32(-2.0) * np.log(u1))
    return np.stack([np.sin(angle) * radius, np.cos(angle) * radius], axis=-1)


def stateless_truncated_normal(shape: tuple[int, ...], key: tuple[int, int] = SEED_0_KEY,
                               counter: tuple[int, ...] = SEED_0_COUNTER) -> np.ndarray:
    """float32 standard normals truncated at +-2, in TensorFlow's order for the given Philox key and counter."""
    size = int(np.prod(shape))
    n_groups = -(-size // 4)
    groups = np.arange(n_groups, dtype=np.uint64)
    out = np.empty((n_groups, 4), dtype=np.float32)
    pending, calls = np.arange(n_groups), _CALLS_PER_GROUP
    while len(pending):
        steps = (groups[pending, None] * np.uint64(_SKIP_PER_GROUP) + np.arange(calls, dtype=np.uint64)).ravel()
        words = _philox(_advanced(counter, steps), key).reshape(len(pending), calls * 2, 2)
        normals = _box_muller(words[..., 0], words[..., 1]).reshape(len(pending), calls * 4)
        kept = np.abs(normals) < np.float32(2.0)
        enough = kept.sum(axis=1) >= 4
        for row in np.flatnonzero(enough):
            out[pending[row]] = normals[row][kept[row]][:4]
        pending, calls = pending[~enough], calls * 2
    return out.ravel()[:size].reshape(shape)


def keras_variance_scaling(n_inputs: int, n_outputs: int) -> np.ndarray:
    """Keras 3's ``VarianceScaling(seed=0)`` (fan-in, truncated normal) weights of shape (n_inputs, n_outputs)."""
    stddev = np.float32(np.sqrt(1.0 / max(1, n_inputs)) / 0.87962566103423978)
    return stateless_truncated_normal((n_inputs, n_outputs)) * stddev
