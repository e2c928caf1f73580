"""Sine gratings in a hard-edged circular aperture on mid grey, rendered from a parameter table.

One image per table row. With ``N`` the image size in pixels, ``ppd = N / degrees`` pixels per degree and
pixel (row, column), the grating's own coordinates in degrees are::

    x = (column - N/2) / ppd - position_x        (x to the right)
    y = (row    - N/2) / ppd - position_y        (y downwards, as image rows)

and a pixel inside the disc ``x**2 + y**2 <= radius**2`` takes the value::

    floor((contrast * sin(2 pi sf (x cos(theta) + y sin(theta)) + phase) + 1) / 2 * 255)

with ``theta`` = ``orientation`` and ``phase`` converted from degrees; every other pixel is grey 128. Orientation
0 thus gives vertical bars (luminance varies along x), 90 horizontal ones; the disc centre has the value of
``sin(phase)``. The arithmetic follows the order of the generator that drew Brain-Score's images, so that the
floating-point results, and with them the truncated bytes, are the same (see the package README for the
comparison with the shipped orientation set).

Only the disc's bounding box is computed, and rows that share an aperture (radius and position) are rendered
together as one ``(rows, height, width)`` array, in chunks under :data:`CHUNK_BYTES`.

PNG files are written by :func:`encode_png` (8-bit greyscale, no filter, zlib level 6, no ancillary chunks
such as timestamps): the same pixels always give the same bytes with the same zlib.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd

from brainscore_vision.errors import StimulusTableError

__all__ = ["CHUNK_BYTES", "GRATING_COLUMNS", "GREY", "StimulusTableError", "encode_png", "grating_batches",
           "render_gratings", "require_columns"]

GREY = 128
"""Background grey level (uint8), also the whole blank image."""
WHITE = 255
GRATING_COLUMNS = ("degrees", "radius", "position_x", "position_y", "orientation", "phase", "contrast",
                   "spatial_frequency")
"""Columns a grating parameter table must have (besides ``image_id``)."""
CHUNK_BYTES = 64 * 2**20
"""Most float64 bytes one vectorised render step holds (rows x bounding box)."""
PNG_COMPRESSION_LEVEL = 6




def require_columns(table: pd.DataFrame, columns, source: str | Path) -> None:
    """Raise :class:`StimulusTableError` naming every column of ``columns`` that ``table`` lacks, and ``source``."""
    missing = [column for column in columns if column not in table.columns]
    if missing:
        raise StimulusTableError(f"stimulus table {source}: missing column(s) {missing}; it has "
                                 f"{[str(column) for column in table.columns]}")


def _pixel_axis(size_px: int, degrees: float, position: float) -> np.ndarray:
    """Degrees of every pixel centre along one image axis, relative to the grating centre; shape (size_px,)."""
    pixels_per_degree = size_px / degrees
    return (np.arange(size_px) - size_px / 2) / pixels_per_degree - position


def _render_aperture(x: np.ndarray, y: np.ndarray, radius: float, orientation: np.ndarray, phase: np.ndarray,
                     spatial_frequency: np.ndarray, contrast: np.ndarray) -> np.ndarray:
    """Gratings inside one disc: uint8 array of shape (rows, len(y), len(x)); grey outside the disc.

    ``orientation``, ``phase`` in degrees, ``spatial_frequency`` in cycles/deg, each of shape (rows,).
    """
    theta = (orientation / 180 * np.pi)[:, None, None]
    phi = (phase / 180 * np.pi)[:, None, None]
    xv, yv = x[None, None, :], y[None, :, None]
    projected = xv * np.cos(theta) + yv * np.sin(theta)
    texture = np.sin(projected * spatial_frequency[:, None, None] * 2 * np.pi + phi) * contrast[:, None, None]
    values = ((texture + 1) / 2 * WHITE).astype(np.uint8)  # truncation, as the original generator
    inside = (xv ** 2 + yv ** 2 <= radius ** 2)[0]
    return np.where(inside[None], values, np.uint8(GREY))


def grating_batches(table: pd.DataFrame, size_px: int, *, source: str | Path = "<table>",
                    chunk_bytes: int = CHUNK_BYTES) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Render every row of ``table``; yields ``(row_positions, images)`` batches.

    Parameters
    ----------
    table : DataFrame
        One row per image with the columns :data:`GRATING_COLUMNS` (degrees, cycles/deg, deg).
    size_px : int
        Width and height of every image in pixels.
    source : str or Path, default='<table>'
        Named in errors.
    chunk_bytes : int, default=CHUNK_BYTES
        Memory budget of one vectorised step.

    Yields
    ------
    row_positions : ndarray of int, shape (rows,)
        Positions (0-based, in table order) of the rendered rows.
    images : ndarray of uint8, shape (rows, size_px, size_px)
    """
    require_columns(table, GRATING_COLUMNS, source)
    values = {column: table[column].to_numpy(dtype=float) for column in GRATING_COLUMNS}
    bad = ~np.isfinite(np.column_stack(list(values.values()))).all(axis=1) | (values["degrees"] <= 0) \
        | (values["radius"] < 0)
    if bad.any():
        raise StimulusTableError(f"stimulus table {source}: row {int(np.flatnonzero(bad)[0])} has a missing, "
                                 f"non-finite or negative value among {list(GRATING_COLUMNS)}")
    keys = pd.DataFrame({name: values[name] for name in ("degrees", "radius", "position_x", "position_y")})
    for _, group in keys.groupby(list(keys.columns), sort=False):
        rows = group.index.to_numpy()
        degrees, radius, position_x, position_y = group.iloc[0]
        x_all = _pixel_axis(size_px, degrees, position_x)
        y_all = _pixel_axis(size_px, degrees, position_y)
        columns = np.flatnonzero(x_all ** 2 <= radius ** 2)  # the disc's bounding box
        lines = np.flatnonzero(y_all ** 2 <= radius ** 2)
        per_row = max(1, len(columns) * len(lines) * 8 * 4)  # a few float64 temporaries per pixel
        step = max(1, chunk_bytes // per_row)
        for start in range(0, len(rows), step):
            chunk = rows[start:start + step]
            images = np.full((len(chunk), size_px, size_px), GREY, dtype=np.uint8)
            if len(columns) and len(lines):
                box = _render_aperture(x_all[columns], y_all[lines], radius, values["orientation"][chunk],
                                       values["phase"][chunk], values["spatial_frequency"][chunk],
                                       values["contrast"][chunk])
                images[:, lines[0]:lines[-1] + 1, columns[0]:columns[-1] + 1] = box
            yield chunk, images


def render_gratings(table: pd.DataFrame, size_px: int, *, source: str | Path = "<table>") -> np.ndarray:
    """All rows of ``table`` as one uint8 array of shape (len(table), size_px, size_px); see :func:`grating_batches`."""
    images = np.empty((len(table), size_px, size_px), dtype=np.uint8)
    for rows, batch in grating_batches(table, size_px, source=source):
        images[rows] = batch
    return images


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(image: np.ndarray) -> bytes:
    """8-bit greyscale PNG bytes of ``image`` (uint8, shape (height, width)); deterministic, no metadata."""
    image = np.ascontiguousarray(image)
    if image.dtype != np.uint8 or image.ndim != 2:
        raise ValueError(f"encode_png needs a 2-d uint8 array, got {image.dtype} of shape {image.shape}")
    height, width = image.shape
    scanlines = np.concatenate([np.zeros((height, 1), dtype=np.uint8), image], axis=1)  # filter byte 0 per row
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8 bit, greyscale, deflate, no interlace
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(scanlines.tobytes(), PNG_COMPRESSION_LEVEL)) + _chunk(b"IEND", b""))
