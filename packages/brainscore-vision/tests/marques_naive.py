"""A straightforward per-unit reading of Brain-Score's Marques2020 property maths: one unit at a time, scipy's
``UnivariateSpline`` per curve, plain Python control flow. The independent reference the vectorised code is checked
against (tests) and the baseline it is timed against (``benchmarks/bench_marques2020_suite.py``)."""

from __future__ import annotations

import numpy as np
from scipy.interpolate import UnivariateSpline

KERNELS = {"hanning": [0, 0.4, 1, 0.4, 0], "smooth": [0, 0.2, 1, 0.2, 0], "flat": [1] * 5,
           "triangle": [0.5, 0.75, 1, 0.75, 0.5]}


def bandwidth(curve, orientation, filt_type, threshold, half):
    """(bandwidth, preferred orientation) of one orientation curve."""
    knots = np.concatenate([orientation - 180, orientation, orientation + 180])
    values = np.concatenate([curve, curve, curve])
    if filt_type is not None:
        kernel = np.array(KERNELS[filt_type], dtype=float)
        values = np.convolve(kernel / kernel.sum(), values, mode="same")
    grid = np.arange(-180, 360, dtype=float)
    fitted = UnivariateSpline(knots, values, s=0.0)(grid)
    preferred = int(np.argmax(fitted[180:360]))
    level = fitted[preferred + 180] * threshold
    low = high = None
    for index in range(preferred + 179, -1, -1):
        if fitted[index] <= level:
            low = grid[index]
            break
    for index in range(preferred + 181, len(grid)):
        if fitted[index] <= level:
            high = grid[index]
            break
    width = np.nan if low is None or high is None or high - low > 180 else high - low
    return (width / 2 if half else width), preferred


def spatial_frequency_tuning(curve, frequency, filt_type, threshold):
    """(bandwidth as low/high x 100, peak frequency) of one spatial-frequency curve."""
    values = np.asarray(curve, dtype=float)
    if filt_type is not None:
        kernel = np.array(KERNELS[filt_type], dtype=float)
        padded = np.concatenate([[values[0]] * 2, values, [values[-1]] * 2])
        values = np.convolve(kernel / kernel.sum(), padded, mode="valid")
    log_frequency = np.log2(frequency)
    grid = np.linspace(log_frequency[0], log_frequency[-1], 100)
    fitted = UnivariateSpline(log_frequency, values, s=0.0)(grid)
    peak = int(np.argmax(fitted))
    level = fitted[peak] * threshold
    lows = [grid[i] for i in range(peak) if fitted[i] <= level]
    highs = [grid[i] for i in range(peak + 1, len(grid)) if fitted[i] <= level]
    low = lows[-1] if lows else np.nan
    high = highs[0] if highs else np.nan
    return 2 ** low / 2 ** high * 100, 2 ** grid[peak]


def circular_variance(curve, orientation):
    angles = np.deg2rad(2 * orientation)
    return 1 - abs(sum(r * np.exp(1j * a) for r, a in zip(curve, angles))) / sum(abs(r) for r in curve)


def orthogonal_preferred_ratio(curve):
    preferred = int(np.argmax(curve))
    return curve[(preferred + len(curve) // 2) % len(curve)] / curve[preferred]


def size_tuning(curve, radius):
    """(gsf, surround diameter, ratio, ssi) of one size curve."""
    peak, plateau = max(curve), curve[-1]
    ssi = (peak - plateau) / peak if peak != 0 else np.nan
    if not (peak > 0 and ssi > 0.1):
        return np.nan, np.nan, np.nan, ssi
    preferred = int(np.argmax(curve))
    gsf = 2 * next(r for r, value in zip(radius, curve) if value >= 0.95 * peak)
    limit = plateau + 0.05 * abs(plateau)
    surround = 2 * next(r for r, value in zip(radius, curve) if value <= limit and r > radius[preferred])
    return gsf, surround, surround / gsf, ssi


def _phase_dc_ac(phase_values):
    n = len(phase_values)
    dc = float(np.mean(phase_values))
    f1 = sum(v * np.exp(-2j * np.pi * k / n) for k, v in enumerate(phase_values))
    return dc, 2 * abs(f1) / n


def ringach(rates, base, n_sf, orientation, n_phase):
    """Rows (baseline, max_dc, ..., opr/bw) of the units with max_dc > baseline + 5, one unit at a time."""
    rows = []
    n_or = len(orientation)
    for unit, blank in zip(rates, base):
        grid = unit.reshape(-1, n_sf, n_or, n_phase)
        best = (-np.inf, None)
        for cycle in range(grid.shape[0]):
            for sf in range(n_sf):
                for o in range(n_or):
                    dc, ac = _phase_dc_ac(grid[cycle, sf, o])
                    if dc > best[0]:
                        best = (dc, (cycle, sf, o, ac))
        max_dc, (cycle, sf, _, max_ac) = best
        curve = grid[cycle, sf].mean(axis=-1)
        cv = circular_variance(curve, orientation)
        bw = bandwidth(curve, orientation, "hanning", 0.707, half=True)[0]
        opr = orthogonal_preferred_ratio(curve)
        if max_dc > blank + 5:
            rows.append([blank, max_dc, curve.min(), max_ac, max_ac / max_dc, cv, bw, opr,
                         0.0 if np.isnan(bw) else 1.0, cv / bw, opr - cv, opr / bw])
    return np.array(rows).reshape(-1, 12)


def cavanaugh(rates, base, radius, n_sf, n_or, n_phase):
    rows = []
    for unit, blank in zip(rates, base):
        grid = unit.reshape(len(radius), n_sf, n_or, n_phase)
        dc = grid.mean(axis=-1) - blank
        ac = np.abs(np.fft.fft(grid, axis=-1)[..., 1]) / n_phase * 2
        both = np.stack([dc, ac], axis=-1)
        _, sf, o, component = np.unravel_index(np.argmax(both), both.shape)
        gsf, surround, ratio, ssi = size_tuning(list(both[:, sf, o, component]), list(radius))
        if both.max() > 5:
            rows.append([ssi, float(ssi >= 0.1), gsf, surround, ratio])
    return np.array(rows).reshape(-1, 5)


def devalois_a(rates, base, n_sf, orientation, n_phase):
    values = []
    for unit, blank in zip(rates, base):
        dc = unit.reshape(-1, n_sf, len(orientation), n_phase).mean(axis=-1)
        cycle, sf, _ = np.unravel_index(np.argmax(dc), dc.shape)
        preferred = bandwidth(dc[cycle, sf], orientation, "smooth", 0.5, half=False)[1]
        if dc.max() > blank + 5:
            values.append(preferred - 180 if preferred >= 157.5 else preferred)
    return np.array(values, dtype=float)


def devalois_b(rates, base, n_radius, frequency, n_or, n_phase):
    values = []
    for unit, blank in zip(rates, base):
        grid = unit.reshape(n_radius, len(frequency), n_or, n_phase)
        both = np.stack([grid.mean(axis=-1) - blank, np.abs(np.fft.fft(grid, axis=-1)[..., 1]) / n_phase * 2], -1)
        r, _, o, component = np.unravel_index(np.argmax(both), both.shape)
        peak = spatial_frequency_tuning(both[r, :, o, component], frequency, "smooth", 0.707)[1]
        if both.max() > 5:
            values.append(peak)
    return np.array(values, dtype=float)


def schiller(rates, base, n_radius, frequency, n_or, n_phase):
    rows = []
    for unit, blank in zip(rates, base):
        dc = unit.reshape(n_radius, len(frequency), n_or, n_phase).mean(axis=-1)
        r, _, o = np.unravel_index(np.argmax(dc), dc.shape)
        width = spatial_frequency_tuning(dc[r, :, o], frequency, "smooth", 0.707)[0]
        if dc.max() > blank + 5:
            rows.append([0.0 if np.isnan(width) else 1.0, width])
    return np.array(rows).reshape(-1, 2)


def receptive_field_centres(values, blank, position_y, position_x, threshold=0.05):
    """RF centre (y, x) of each unit: ``values`` (presentation, unit) in (y, x, rest) order, one unit at a time."""
    n_units = values.shape[1]
    centres = np.full((n_units, 2), np.nan)
    for unit in range(n_units):
        responses = np.maximum(values[:, unit], 0).reshape(len(position_y), len(position_x), -1)
        rf_map = np.maximum(responses.max(axis=-1) - max(blank[unit], 0), 0)
        peak = rf_map.max()
        if peak <= 0:
            continue
        ys, xs = np.nonzero(rf_map > peak * threshold)
        weights = rf_map[ys, xs].astype(float)
        centres[unit] = (np.interp((ys * weights).sum() / weights.sum(), np.arange(len(position_y)), position_y),
                         np.interp((xs * weights).sum() / weights.sum(), np.arange(len(position_x)), position_x))
    return centres
