"""The two trained family metrics (``ost``, ``mask_regression``), timed against a baseline in the same run.

- ``ost``: the whole metric with the readouts of consecutive time bins fitted as one stacked fit (our default) vs one
  readout per time bin (``max_chunk_bytes=1``, the straightforward loop Brain-Score runs, here in the same numpy
  code, so the two give the same numbers); Kar2019-like data, float32, wide (features > training images).
- ``mask_regression``: one fit of the factorised mask regression, all neuroids' predictions and gradients as joint
  ``numpy.einsum`` contractions (ours) vs the same fit computed neuroid by neuroid (how Brain-Score's TensorFlow
  graph is built: one sub-graph per neuroid); same numbers.

Each timing is the median of ``--repeats`` calls. Run: ``python benchmarks/bench_ported.py [--repeats 3]``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import xarray as xr

from brainscore_metrics.behavior.ost import OSTCorrelation
from brainscore_metrics.mask_regression import MaskRegression


def median_time(function, repeats: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return float(np.median(times)), result


def ost_inputs(n_images=240, n_features=400, n_objects=6, seed=0):
    rng = np.random.default_rng(seed)
    starts = np.arange(70, 250, 10)
    labels = np.repeat([f"obj{k}" for k in range(n_objects)], n_images // n_objects)
    onset = rng.uniform(80, 200, n_images)
    gain = 1 / (1 + np.exp(-(starts[None, :] - onset[:, None]) / 15))
    centers = rng.normal(size=(n_objects, n_features))[np.repeat(np.arange(n_objects), n_images // n_objects)]
    values = (centers[:, :, None] * 4 * gain[:, None, :] + rng.normal(size=(n_images, n_features, len(starts))))
    ids = [f"img{i:04d}" for i in range(n_images)]
    source = xr.DataArray(values.astype(np.float32), dims=["presentation", "neuroid", "time_bin"], coords={
        "stimulus_id": ("presentation", ids), "image_label": ("presentation", labels), "truth": ("presentation", labels),
        "neuroid_id": ("neuroid", np.arange(n_features)), "time_bin_start": ("time_bin", starts),
        "time_bin_end": ("time_bin", starts + 10)})
    target = xr.DataArray(onset + rng.normal(0, 10, n_images), dims=["presentation"], coords={
        "stimulus_id": ("presentation", ids), "i1": ("presentation", rng.uniform(-0.5, 1.0, n_images))})
    return source, target


def per_neuroid_mask_fit(regression: MaskRegression, X, Y):
    """The same fit with predictions and mask gradients computed one neuroid at a time (the baseline)."""
    from brainscore_metrics import mask_regression as module

    original_predict, original_gradient = MaskRegression._predict_maps, module._mask_gradient

    def predict(maps, masks, weights, biases):
        pooled = np.stack([np.tensordot(maps, mask, axes=([1, 2], [0, 1])) for mask in masks], axis=1)
        return np.stack([pooled[:, n] @ weights[n] for n in range(len(masks))], axis=1) + biases, pooled

    def gradient(upstream, weights, maps):
        return np.stack([np.tensordot(upstream[:, n], (maps * weights[n]).sum(-1), axes=1)
                         for n in range(len(weights))])

    try:
        MaskRegression._predict_maps = staticmethod(predict)
        module._mask_gradient = gradient
        return regression.fit(X, Y)
    finally:
        MaskRegression._predict_maps, module._mask_gradient = staticmethod(original_predict), original_gradient


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    for label, (n_images, n_features) in (("narrow: 180 images x 20", (180, 20)), ("wide: 240 images x 400", (240, 400))):
        source, target = ost_inputs(n_images, n_features)
        ours, stacked = median_time(lambda s=source, t=target: OSTCorrelation(n_splits=3)(s, t), args.repeats)
        base, per_bin = median_time(lambda s=source, t=target: OSTCorrelation(n_splits=3, max_chunk_bytes=1)(s, t),
                                    args.repeats)
        assert np.allclose(stacked.attrs["raw"].values, per_bin.attrs["raw"].values, equal_nan=True)
        print(f"ost ({label} float32 features x 18 bins, 3 splits): chunks of bins {ours:.2f} s, one bin at a time "
              f"{base:.2f} s -> {base / ours:.1f}x (same scores)")

    rng = np.random.default_rng(1)
    X = rng.normal(size=(500, 64 * 8 * 8)).astype(np.float32)  # 64 channels of 8 x 8
    Y = (X[:, :50] @ rng.normal(size=(50, 30))).astype(np.float32)
    regression = MaskRegression(channel_shape=(64, 8, 8), max_epochs=10)
    ours, fitted = median_time(lambda: regression.fit(X, Y).predict(X[:50]), args.repeats)
    base, reference = median_time(lambda: per_neuroid_mask_fit(MaskRegression(channel_shape=(64, 8, 8), max_epochs=10),
                                                              X, Y).predict(X[:50]), args.repeats)
    print(f"mask_regression fit (500 x 64ch x 8 x 8 float32 -> 30 neuroids, 10 epochs): all neuroids at once "
          f"{ours:.2f} s, neuroid by neuroid {base:.2f} s -> {base / ours:.1f}x (predictions within "
          f"{np.abs(fitted - reference).max():.1e})")


if __name__ == "__main__":
    main()
