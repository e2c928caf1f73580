"""Split-half predictor consistency: the ceiling of reverse predictivity (Brain-Score's ``predictor_consistency``).

For each of ``n_splits`` splits and each image with at least two presentations over at least two repetition
values, the image's repetition values are shuffled and cut in two halves (the first ``k // 2`` values of the
permutation, and the rest); the two halves' presentations are averaged (NaN skipped) into two image x neuroid
matrices. Per neuroid the Pearson r between the halves over images is Spearman-Brown corrected,
``2r / (1 + r)``; a split's value is the median over neuroids (NaN skipped), the ceiling the mean over splits,
``error`` the standard deviation over splits divided by the square root of the number of finite splits. A split
that keeps fewer than 10 images gives NaN.

The permutations come from ``numpy.random.default_rng(seed)`` in the order Brain-Score draws them (splits, then
images sorted by id, one permutation of the image's sorted repetition values each), so the halves, and the
numbers, are Brain-Score's. Draws for consecutive images with the same number of repetitions are made in one
``Generator.permuted`` call (which consumes the stream exactly as one ``permutation`` per image does), and the
half means of all images come from one sorted reduction per split instead of one ``isel(...).mean()`` per image.
"""

from __future__ import annotations

import numpy as np

from brainscore_core.metrics import Ceiling, Score
from brainscore_metrics.validation import coords_on_dim, require_coord

__all__ = ["MINIMUM_IMAGES", "SplitHalfPredictorConsistency", "spearman_brown"]

#: splits keeping fewer images give NaN (Brain-Score's rule)
MINIMUM_IMAGES = 10


def spearman_brown(r):
    """Spearman-Brown correction of a split-half correlation, ``2r / (1 + r)``."""
    return 2 * r / (1 + r)


def _pearson_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pearson r per column of two (images x neuroids) matrices; NaN where a column has no spread."""
    a = a - a.mean(axis=0)
    b = b - b.mean(axis=0)
    denominator = np.linalg.norm(a, axis=0) * np.linalg.norm(b, axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (a * b).sum(axis=0) / np.where(denominator == 0, np.nan, denominator)


class SplitHalfPredictorConsistency(Ceiling):
    """Split-half consistency of repetition-split image means, Spearman-Brown corrected.

    Parameters
    ----------
    n_splits : int, default=10
    seed : int, default=0
        Seed of ``numpy.random.default_rng`` (Brain-Score's name and default).
    image_level : str, default='image_id'
        Presentation coordinate naming the image; ``stimulus_id`` is used when the assembly has no
        ``image_id`` (Brain-Score's assemblies carry both, equal).
    rep_level : str, default='repetition'
        Presentation coordinate numbering the repetitions.

    Returns (from ``__call__(assembly)``, assembly of dims presentation x neuroid, repetitions kept)
    ------------------------------------------------------------------------------------------
    Score (0-d) with attrs ``raw`` (split x neuroid Spearman-Brown values), ``error`` and
    ``ceiling = 'predictor_consistency_split_half'`` (Brain-Score's label).
    """

    def __init__(self, n_splits: int = 10, seed: int = 0, image_level: str = "image_id",
                 rep_level: str = "repetition"):
        self.n_splits = n_splits
        self.seed = seed
        self.image_level = image_level
        self.rep_level = rep_level

    def _matrix(self, assembly):
        if "time_bin" in assembly.dims and assembly.sizes["time_bin"] == 1:
            assembly = assembly.squeeze("time_bin")
        image_level = self.image_level
        if image_level == "image_id" and "image_id" not in assembly.coords and "stimulus_id" in assembly.coords:
            image_level = "stimulus_id"
        images = require_coord(assembly, image_level, "assembly", dim="presentation")
        repetitions = require_coord(assembly, self.rep_level, "assembly", dim="presentation").astype(int)
        values = np.asarray(assembly.transpose("presentation", "neuroid").values, dtype=np.float64)
        return values, images, repetitions, coords_on_dim(assembly)

    def __call__(self, assembly) -> Score:
        values, images, repetitions, neuroid_coords = self._matrix(assembly)
        _, image_codes = np.unique(images, return_inverse=True)
        n_images = int(image_codes.max()) + 1 if len(image_codes) else 0
        # per presentation: the rank of its repetition value among its image's distinct values
        span = int(repetitions.max() - repetitions.min()) + 1 if len(repetitions) else 1
        keys, pair_of_presentation = np.unique(image_codes * span + (repetitions - repetitions.min()),
                                               return_inverse=True)  # sorted by image, then by value
        pair_images = keys // span
        distinct = np.bincount(pair_images, minlength=n_images)
        first = np.concatenate([[0], np.cumsum(distinct)[:-1]])
        rank = (np.arange(len(keys)) - first[pair_images])[pair_of_presentation.ravel()]
        presentations = np.bincount(image_codes, minlength=n_images)
        kept = np.flatnonzero((presentations >= 2) & (distinct >= 2))
        nan = np.isnan(values)
        filled = np.where(nan, 0.0, values)
        n_neuroids = values.shape[1]
        rng = np.random.default_rng(self.seed)
        split_values = np.full((self.n_splits, n_neuroids), np.nan)
        kept_mask = np.zeros(n_images, dtype=bool)
        kept_mask[kept] = True
        for split in range(self.n_splits):
            position = self._positions(rng, kept, distinct)  # image -> position of each rank in the permutation
            if len(kept) < MINIMUM_IMAGES:
                continue
            in_second = np.zeros(len(image_codes), dtype=bool)
            usable = kept_mask[image_codes]
            halves = distinct[image_codes[usable]] // 2
            in_second[usable] = position[image_codes[usable], rank[usable]] >= halves
            group = np.where(usable, image_codes * 2 + in_second, -1)
            means = self._group_means(filled, nan, group, n_images)
            split_values[split] = spearman_brown(_pearson_rows(means[kept * 2], means[kept * 2 + 1]))
        return self._score(split_values, neuroid_coords)

    @staticmethod
    def _positions(rng, kept, distinct) -> np.ndarray:
        """(n_images, max distinct) positions of each repetition rank in this split's permutation."""
        width = int(distinct.max()) if len(distinct) else 0
        position = np.zeros((len(distinct), width), dtype=np.int64)
        counts = distinct[kept]
        start = 0
        while start < len(kept):  # runs of consecutive kept images with the same number of repetitions
            stop = start + 1
            while stop < len(kept) and counts[stop] == counts[start]:
                stop += 1
            k = int(counts[start])
            permutations = rng.permuted(np.tile(np.arange(k), (stop - start, 1)), axis=1)
            inverse = np.empty_like(permutations)
            np.put_along_axis(inverse, permutations, np.arange(k)[None, :].repeat(stop - start, 0), axis=1)
            position[kept[start:stop], :k] = inverse
            start = stop
        return position

    @staticmethod
    def _group_means(filled, nan, group, n_images: int) -> np.ndarray:
        """NaN-skipping mean of the rows of each group (``image * 2 + half``); rows of group -1 are left out."""
        rows = np.flatnonzero(group >= 0)
        order = rows[np.argsort(group[rows], kind="stable")]
        sorted_groups = group[order]
        starts = np.flatnonzero(np.r_[True, sorted_groups[1:] != sorted_groups[:-1]])
        sums = np.full((2 * n_images, filled.shape[1]), np.nan)
        counts = np.zeros((2 * n_images, filled.shape[1]))
        present = sorted_groups[starts]
        counts[present] = np.add.reduceat((~nan[order]).astype(np.float64), starts, axis=0)
        sums[present] = np.add.reduceat(filled[order], starts, axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(counts > 0, sums / np.where(counts > 0, counts, 1), np.nan)

    def _score(self, split_values: np.ndarray, neuroid_coords: dict) -> Score:
        finite_rows = ~np.all(np.isnan(split_values), axis=1)
        per_split = np.full(self.n_splits, np.nan)
        if finite_rows.any():
            per_split[finite_rows] = np.nanmedian(split_values[finite_rows], axis=1)
        finite = np.isfinite(per_split)
        value = float(np.mean(per_split[finite])) if finite.any() else float("nan")
        error = float(np.std(per_split[finite]) / np.sqrt(finite.sum())) if finite.any() else float("nan")
        score = Score(value)
        score.attrs["raw"] = Score(split_values, dims=["split", "neuroid"],
                                   coords={"split": np.arange(self.n_splits), **neuroid_coords})
        score.attrs["error"] = Score(error)
        score.attrs["ceiling"] = "predictor_consistency_split_half"
        return score
