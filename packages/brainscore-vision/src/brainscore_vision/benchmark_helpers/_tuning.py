"""Tuning-curve properties of single units (Marques et al. 2021), vectorised over units.

Every function takes one curve per unit along the last axis: a 1-d curve (one unit, Brain-Score's signature and
return types) or a 2-d array ``(n_units, n_conditions)`` (one value per unit). Nothing loops over units.

Brain-Score smooths a curve with a short kernel and interpolates it with an interpolating cubic spline
(``UnivariateSpline(s=0)``: knots at the samples, not-a-knot ends) before reading off peaks and half-widths.
Smoothing and interpolation are both linear in the curve, so for one grid of conditions they are one matrix
(``conditions -> fine grid``), built once (cached) and applied to all units with a single matrix product.
"""

from __future__ import annotations

import functools

import numpy as np

__all__ = ["calc_bandwidth", "calc_circular_variance", "calc_orthogonal_preferred_ratio", "calc_phase_components",
           "calc_modulation_ratio", "calc_size_tuning", "calc_sparseness", "calc_spatial_frequency_tuning",
           "calc_texture_modulation", "calc_variance", "calc_variance_ratio", "SMOOTHING_KERNELS"]

#: smoothing kernels by ``filt_type`` (normalised to sum 1 before use), as Brain-Score names them
SMOOTHING_KERNELS = {
    "hanning": (0, 2 / 5, 1, 2 / 5, 0),
    "flat": (1, 1, 1, 1, 1),
    "smooth": (0, 1 / 5, 1, 1 / 5, 0),
    "triangle": (0.5, 0.75, 1, 0.75, 0.5),
}
#: the 1-degree grid Brain-Score evaluates orientation curves on (three periods, the middle one is read)
ORIENTATION_GRID = np.linspace(-180, 359, 540)
SPATIAL_FREQUENCY_GRID_POINTS = 100


def _as_rows(curve) -> tuple[np.ndarray, bool]:
    """``curve`` as float rows ``(n_units, n_conditions)`` and whether it was a single 1-d curve."""
    array = np.asarray(curve, dtype=float)
    if array.ndim == 1:
        return array[None, :], True
    if array.ndim != 2:
        raise ValueError(f"expected a curve of shape (n_conditions,) or (n_units, n_conditions), got {array.shape}")
    return array, False


def _kernel(filt_type: str | None) -> np.ndarray | None:
    if filt_type is None:
        return None
    if filt_type not in SMOOTHING_KERNELS:
        raise ValueError(f"filt_type must be one of {sorted(SMOOTHING_KERNELS)} or None, got {filt_type!r}")
    weights = np.asarray(SMOOTHING_KERNELS[filt_type], dtype=float)
    return weights / weights.sum()


def _spline_matrix(knots: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Matrix ``(len(points), len(knots))`` evaluating the interpolating cubic spline (not-a-knot) at ``points``.

    The same spline as ``scipy.interpolate.UnivariateSpline(knots, values, s=0)`` (FITPACK puts the interior
    knots at ``knots[2:-2]`` when ``s=0``), extrapolated with the end polynomials outside ``knots``.
    """
    from scipy.interpolate import make_interp_spline

    spline = make_interp_spline(knots, np.eye(len(knots)), k=3)
    return spline(points)


@functools.lru_cache(maxsize=32)
def _orientation_operator(orientation: tuple, filt_type: str | None) -> np.ndarray:
    """``(540, n)`` matrix: orientation curve -> smoothed spline on :data:`ORIENTATION_GRID`."""
    orientation = np.asarray(orientation, dtype=float)
    n = len(orientation)
    extended = np.tile(np.eye(n), (3, 1))  # the curve repeated over three periods (-180, 0, +180)
    weights = _kernel(filt_type)
    if weights is not None:
        extended = np.stack([np.convolve(weights, column, mode="same") for column in extended.T], axis=1)
    knots = np.hstack((orientation - 180, orientation, orientation + 180))
    return _spline_matrix(knots, ORIENTATION_GRID) @ extended


@functools.lru_cache(maxsize=32)
def _spatial_frequency_operators(spatial_frequency: tuple, filt_type: str | None):
    """Matrices (smoothing ``(n, n)``, fine grid ``(100, n)``, at the samples ``(n, n)``) and the log2 grid."""
    log_frequency = np.log2(np.asarray(spatial_frequency, dtype=float))
    n = len(log_frequency)
    smoothing = np.eye(n)
    weights = _kernel(filt_type)
    if weights is not None:
        # edge samples repeated twice on each side, then a 'valid' convolution: n values again
        padded = np.vstack((smoothing[[0, 0]], smoothing, smoothing[[-1, -1]]))
        smoothing = np.stack([np.convolve(weights, column, mode="valid") for column in padded.T], axis=1)
    grid = np.linspace(log_frequency[0], log_frequency[-1], num=SPATIAL_FREQUENCY_GRID_POINTS, endpoint=True)
    return smoothing, _spline_matrix(log_frequency, grid) @ smoothing, \
        _spline_matrix(log_frequency, log_frequency) @ smoothing, grid


def _crossings(below: np.ndarray, peak: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row: last column before ``peak`` and first after it where ``below`` holds (-1 where there is none)."""
    columns = np.arange(below.shape[1])[None, :]
    before = np.where(below & (columns < peak[:, None]), columns, -1).max(axis=1)
    after = np.where(below & (columns > peak[:, None]), columns, below.shape[1])
    after = after.min(axis=1)
    after[after == below.shape[1]] = -1
    return before, after


def _pick(values: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``values[index]`` with NaN where ``index`` is -1."""
    return np.where(index >= 0, values[np.maximum(index, 0)], np.nan)


def calc_circular_variance(orientation_curve, orientation):
    """Circular variance ``1 - |sum r(θ) e^{2iθ}| / sum |r(θ)|`` (θ in degrees) of each curve."""
    curves, single = _as_rows(orientation_curve)
    vector_sum = curves @ np.exp(1j * 2 * np.asarray(orientation, dtype=float) / 180 * np.pi)
    with np.errstate(invalid="ignore", divide="ignore"):
        variance = 1 - np.abs(vector_sum) / np.sum(np.abs(curves), axis=1)
    return variance[0] if single else variance


def calc_bandwidth(orientation_curve, orientation, filt_type="hanning", thrsh=0.5, mode="full"):
    """Orientation bandwidth and preferred orientation from a smoothed, spline-interpolated curve.

    Parameters
    ----------
    orientation_curve : array of shape (n_orientations,) or (n_units, n_orientations)
        Responses at ``orientation`` (degrees, one period of 180, ascending).
    filt_type : {'hanning', 'flat', 'smooth', None}, default='hanning'
        Kernel smoothing the curve (repeated over three periods) before the spline.
    thrsh : float, default=0.5
        Fraction of the peak at which the width is read.
    mode : {'full', 'half'}, default='full'
        Full width, or half of it.

    Returns
    -------
    (bandwidth, preferred_orientation, grid, fitted_curve)
        Bandwidth in degrees (NaN where the curve does not fall to ``thrsh`` of its peak on both sides within
        the grid, or is wider than 180); preferred orientation: argmax of the fitted curve on the 1-degree grid
        0..179 (int); grid (180,); fitted curve (180,) or (n_units, 180).
    """
    curves, single = _as_rows(orientation_curve)
    operator = _orientation_operator(tuple(np.asarray(orientation, dtype=float).tolist()), filt_type)
    fitted = curves @ operator.T
    preferred = np.argmax(fitted[:, 180:360], axis=1)
    peak_value = fitted[np.arange(len(fitted)), preferred + 180]
    below = fitted <= (peak_value * thrsh)[:, None]
    before, after = _crossings(below, preferred + 180)
    bandwidth = _pick(ORIENTATION_GRID, after) - _pick(ORIENTATION_GRID, before)
    bandwidth[bandwidth > 180] = np.nan
    if mode == "half":
        bandwidth = bandwidth / 2
    if single:
        return bandwidth[0], int(preferred[0]), ORIENTATION_GRID[180:360], fitted[0, 180:360]
    return bandwidth, preferred, ORIENTATION_GRID[180:360], fitted[:, 180:360]


def calc_orthogonal_preferred_ratio(orientation_curve, orientation):
    """Response at the orientation 90 degrees from the (sampled) preferred one, over the preferred response."""
    curves, single = _as_rows(orientation_curve)
    n = len(orientation)
    preferred = np.argmax(curves, axis=1)
    orthogonal = (preferred + n // 2) % n
    rows = np.arange(len(curves))
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = curves[rows, orthogonal] / curves[rows, preferred]
    return ratio[0] if single else ratio


def calc_spatial_frequency_tuning(y, sf, filt_type="triangle", thrsh=0.707, mode="ratio"):
    """Peak spatial frequency and bandwidth from a smoothed spline over log2 frequency.

    Parameters
    ----------
    y : array of shape (n_frequencies,) or (n_units, n_frequencies)
        Responses at ``sf`` (cycles/degree, ascending).
    filt_type : {'triangle', 'hanning', 'flat', 'smooth', None}, default='triangle'
    thrsh : float, default=0.707
    mode : {'ratio', 'oct'}, default='ratio'
        ``'ratio'``: low / high cut-off frequency x 100; ``'oct'``: high / low - 1.

    Returns
    -------
    (bandwidth, peak_spatial_frequency, r2, grid, fitted_curve)
        Bandwidth NaN where the fitted curve does not fall to ``thrsh`` of its peak on both sides; peak in
        cycles/degree on a 100-point log grid; r2 of the spline at the samples against the raw responses.
    """
    curves, single = _as_rows(y)
    _, operator, at_samples, grid = _spatial_frequency_operators(
        tuple(np.asarray(sf, dtype=float).tolist()), filt_type)
    fitted = curves @ operator.T
    preferred = np.argmax(fitted, axis=1)
    peak_value = fitted[np.arange(len(fitted)), preferred]
    below = fitted <= (peak_value * thrsh)[:, None]
    before, after = _crossings(below, preferred)
    low, high = _pick(grid, before), _pick(grid, after)
    if mode == "oct":
        bandwidth = (2 ** high) / (2 ** low) - 1
    else:
        bandwidth = (2 ** low) / (2 ** high) * 100
    residual = np.sum((curves - curves @ at_samples.T) ** 2, axis=1)
    total = np.sum((curves - curves.mean(axis=1, keepdims=True)) ** 2, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        r2 = 1 - residual / total
    peak = np.power(2, grid[preferred])
    if single:
        return bandwidth[0], peak[0], r2[0], np.power(2, grid), fitted[0]
    return bandwidth, peak, r2, np.power(2, grid), fitted


def calc_size_tuning(size_curve, radius):
    """Grating summation field, surround diameter, their ratio and surround suppression index.

    ``ssi = (peak - response at the largest radius) / peak``. Where the peak is positive and ``ssi > 0.1``:
    GSF = twice the smallest radius reaching 95% of the peak; surround diameter = twice the smallest radius
    beyond the preferred one whose response is within 5% (of its magnitude) of the largest radius' response.
    Elsewhere those three are NaN.

    Returns
    -------
    (grating_summation_field, surround_diameter, surround_gsf_ratio, surround_suppression_index)
    """
    curves, single = _as_rows(size_curve)
    radius = np.asarray(radius, dtype=float)
    preferred = np.argmax(curves, axis=1)
    peak = curves.max(axis=1)
    plateau = curves[:, -1]
    with np.errstate(invalid="ignore", divide="ignore"):
        ssi = (peak - plateau) / peak
    suppressed = (peak > 0) & (ssi > 0.1)
    summation = radius[np.argmax(curves >= (peak * 0.95)[:, None], axis=1)] * 2
    plateau_reached = (curves <= (plateau + 0.05 * np.abs(plateau))[:, None]) & \
        (radius[None, :] > radius[preferred][:, None])
    surround = radius[np.argmax(plateau_reached, axis=1)] * 2
    gsf = np.where(suppressed, summation, np.nan)
    surround_diameter = np.where(suppressed, surround, np.nan)
    ratio = surround_diameter / gsf
    if single:
        return gsf[0], surround_diameter[0], ratio[0], ssi[0]
    return gsf, surround_diameter, ratio, ssi


def calc_phase_components(responses, axis=-1):
    """Mean (F0, "DC") and first-harmonic amplitude (F1, "AC") over equally spaced phases along ``axis``.

    F1 = 2 |FFT_1| / n, the amplitude of ``F0 + F1 cos(phase - phi)``.
    """
    responses = np.asarray(responses, dtype=float)
    n = responses.shape[axis]
    dc = responses.mean(axis=axis)
    ac = np.abs(np.fft.fft(responses, axis=axis).take(1, axis=axis)) / n * 2
    return dc, ac


def calc_modulation_ratio(responses, axis=-1):
    """F1 / F0 of responses over equally spaced phases (along ``axis``)."""
    dc, ac = calc_phase_components(responses, axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        return ac / dc


def calc_texture_modulation(response):
    """``(texture - noise) / (texture + noise)`` per family, and its NaN-mean.

    ``response`` of shape (2, n_families) (noise, texture) or (n_units, 2, n_families).
    """
    response = np.asarray(response, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        family = (response[..., 1, :] - response[..., 0, :]) / (response[..., 1, :] + response[..., 0, :])
    return np.nanmean(family, axis=-1), family


def calc_sparseness(response):
    """Treves-Rolls sparseness over all stimuli; a 2-d+ array with a leading unit axis gives one per unit."""
    response = np.asarray(response, dtype=float)
    flat = response.reshape(-1) if response.ndim <= 2 else response.reshape(response.shape[0], -1)
    n = flat.shape[-1]
    with np.errstate(invalid="ignore", divide="ignore"):
        return (1 - (flat.sum(axis=-1) / n) ** 2 / ((flat ** 2).sum(axis=-1) / n)) / (1 - 1 / n)


def calc_variance(response):
    """Residual, sample and family mean squares of ``(family, sample[, trial])`` responses (nested ANOVA)."""
    response = np.asarray(response, dtype=float)
    if response.ndim == 3:
        a, b, n = response.shape
        sample_mean = response.mean(axis=2)
        family_mean = sample_mean.mean(axis=1)
        residual_ms = np.sum((response - sample_mean[:, :, None]) ** 2) / (a * b * (n - 1))
        sample_ms = n * np.sum((sample_mean - family_mean[:, None]) ** 2) / (a * (b - 1))
        family_ms = b * n * np.sum((family_mean - family_mean.mean()) ** 2) / (a - 1)
    else:
        a, b = response.shape
        family_mean = response.mean(axis=1)
        residual_ms = np.nan
        sample_ms = np.sum((response - family_mean[:, None]) ** 2) / (a * (b - 1))
        family_ms = b * np.sum((family_mean - family_mean.mean()) ** 2) / (a - 1)
    return residual_ms, sample_ms, family_ms


def calc_variance_ratio(response):
    """(family share + 0.02) / (sample share + 0.02) of the variance of ``(family, sample[, trial])`` responses.

    Returns ``(variance_ratio, sample share, family share)``.
    """
    response = np.asarray(response, dtype=float)
    residual_ms, sample_ms, family_ms = calc_variance(response)
    if response.ndim == 3:
        residual = residual_ms
        sample = (sample_ms - residual_ms) / response.shape[2]
        family = (family_ms - sample_ms) / (response.shape[2] * response.shape[1])
    else:
        residual = 0
        sample = sample_ms
        family = (family_ms - sample_ms) / response.shape[1]
    total = residual + sample + family
    return (family / total + 0.02) / (sample / total + 0.02), sample / total, family / total
