"""Brain-Score's microsaccades: a different small shift of the image on every trial (``require_variance=True`` with
``number_of_trials > 1``), so that a deterministic model answers each trial differently.

As Brain-Score's ``MicrosaccadeHelper`` places them (``model_helpers/activations/core.py``, commit c642dbe4): trial
``i`` of ``n`` shifts the preprocessed image by ``(r cos t, r sin t)`` pixels with ``r = sqrt(i / n) R`` and
``t = 2 pi sqrt(i / n)`` (a spiral from the centre, trial 0 unshifted), where ``R`` is 0.05 degrees in pixels of
the input: ``0.05 / visual_degrees * height``. The image is moved as OpenCV's ``warpAffine`` moves it (bilinear, edge
pixels repeated): each output pixel reads the input at ``(x - dx, y - dy)``, that position rounded to 1/32 pixel,
from its four neighbours with weights ``(1 - fy)(1 - fx), (1 - fy) fx, fy (1 - fx), fy fx`` summed in that order in
the batch's dtype. On float32 inputs this gives OpenCV's values bit for bit (``tests/test_microsaccades.py`` against
Brain-Score's helper on the same image).

Shifts are made on the input batch in torch, after preprocessing, without temporary image files.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

__all__ = ["EXTENT_DEGREES", "Microsaccade", "microsaccade_shift", "microsaccades", "shift_images"]

#: how far the spiral reaches, in degrees (Brain-Score's ``microsaccade_extent_degrees``)
EXTENT_DEGREES = 0.05
_SUBPIXELS = 32  # OpenCV's INTER_TAB_SIZE: source positions are rounded to 1/32 pixel
_FIXED_POINT = 1024  # OpenCV's AB_SCALE (1 << AB_BITS, AB_BITS = 10)


def microsaccade_shift(trial: int, number_of_trials: int, visual_degrees: float, height: int
                       ) -> tuple[float, float]:
    """The shift ``(dx, dy)`` in pixels of ``trial`` (0-based) of ``number_of_trials`` for an input ``height`` pixels
    high shown at ``visual_degrees``, computed as Brain-Score computes it (same operations, same order)."""
    max_radius = EXTENT_DEGREES / visual_degrees * height
    spiral = max_radius / np.sqrt(number_of_trials)
    radius = np.sqrt(trial / number_of_trials) * max_radius
    angle = spiral * np.sqrt(trial) * 2 * np.pi / max_radius
    return float(radius * np.cos(angle)), float(radius * np.sin(angle))


@dataclass(frozen=True)
class Microsaccade:
    """Trial ``trial`` of ``number_of_trials`` at ``visual_degrees``: the shift depends on these and the input's
    height only, so :meth:`cache_fields` (with the preprocessing in the key) names the shifted input."""

    trial: int
    number_of_trials: int
    visual_degrees: float

    def shift(self, height: int) -> tuple[float, float]:
        return microsaccade_shift(self.trial, self.number_of_trials, self.visual_degrees, height)

    def cache_fields(self) -> dict[str, Any]:
        # i/n reduced: trial 5 of 10 and trial 1 of 2 are the same shift
        return {"position": str(Fraction(self.trial, self.number_of_trials)), "visual_degrees": self.visual_degrees,
                "extent_degrees": EXTENT_DEGREES}

    def __call__(self, batch: Any) -> Any:
        """``batch`` (a tensor of shape (batch, channel, height, width)) shifted; trial 0 is the batch itself."""
        if self.trial == 0:
            return batch
        return shift_images(batch, self.shift(int(batch.shape[-2])))


def microsaccades(number_of_trials: int, visual_degrees: float) -> list[Microsaccade]:
    """The trials of one look, in order."""
    return [Microsaccade(trial, number_of_trials, float(visual_degrees)) for trial in range(number_of_trials)]


def _sources(shift: float, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per output index along one axis: the two source indices (edges repeated) and the fraction (in 1/32 steps) of
    the second, with OpenCV's fixed-point rounding of ``index - shift``."""
    start = int(np.rint(-float(np.float32(shift)) * _FIXED_POINT)) + _FIXED_POINT // _SUBPIXELS // 2
    position = (start + np.arange(size, dtype=np.int64) * _FIXED_POINT) >> 5  # in 1/32 pixel
    whole, fraction = position >> 5, position & (_SUBPIXELS - 1)
    return np.clip(whole, 0, size - 1), np.clip(whole + 1, 0, size - 1), fraction


def shift_images(batch: Any, shift: tuple[float, float]) -> Any:
    """``batch`` (torch tensor of shape (..., height, width)) moved by ``shift = (dx, dy)`` pixels (see the module
    docstring); a new tensor of the same shape and dtype."""
    import torch

    height, width = int(batch.shape[-2]), int(batch.shape[-1])
    rows0, rows1, fy = _sources(shift[1], height)
    columns0, columns1, fx = _sources(shift[0], width)
    dtype, device = batch.dtype, batch.device

    def index(values: np.ndarray):
        return torch.as_tensor(values, device=device)

    fx = torch.as_tensor(fx, dtype=dtype, device=device) / _SUBPIXELS
    fy = torch.as_tensor(fy, dtype=dtype, device=device)[:, None] / _SUBPIXELS
    top, bottom = batch.index_select(-2, index(rows0)), batch.index_select(-2, index(rows1))
    weights = ((1 - fy) * (1 - fx), (1 - fy) * fx, fy * (1 - fx), fy * fx)
    corners = (top.index_select(-1, index(columns0)), top.index_select(-1, index(columns1)),
               bottom.index_select(-1, index(columns0)), bottom.index_select(-1, index(columns1)))
    result = corners[0] * weights[0]
    for corner, weight in zip(corners[1:], weights[1:], strict=True):
        result = result + corner * weight
    return result
