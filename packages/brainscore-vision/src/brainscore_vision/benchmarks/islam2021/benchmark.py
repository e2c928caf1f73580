"""``Islam2021-{shape,texture}_{v1,v2,v4,it}_dimensionality``: how many of a region's dimensions encode shape or
texture (Islam et al. 2021, after Esser et al. 2020). Model-only: no human data, ceiling 1.

As Brain-Score defines them (``benchmarks/islam2021``, commit c642dbe4; identifier ``Islam2021-<REGION>_<factor>_
dimensionality``, e.g. ``Islam2021-V1_shape_dimensionality``, version 1, parent ``Islam2021``):

1. The model records the region over (70, 170) ms while looking at the 21,845 ``Islam2021`` images (4,369 originals
   in 5 textures; 20 shapes).
2. Every image ``i`` (in the stimulus set's order) is paired with another, drawn by ``random.Random(1751)`` exactly as
   Brain-Score draws: the factor (``'shape'`` or ``'texture'``); for ``'shape'`` another texture among the sorted
   others, and the image of the same original in that texture; for ``'texture'`` another shape among the sorted
   others, and one of the images of that shape in the same texture (:func:`draw_pairs`).
3. Metric ``factor_dimensionality`` on the two sets of responses, the pairs labelled by their factor: the share of
   the responses' dimensions given to ``factor`` (brainscore-metrics' :class:`~brainscore_metrics.dimensionality.
   Dimensionality`).

Brain-Score's benchmark indexes the second axis of the model's response (``assembly[:, indexes]``): the images in its
test's precomputed features (``neuroid x presentation``), but the neuroids in the ``presentation x neuroid``
assemblies its model commitments return. Here the pairs always select images, as in Brain-Score's test.
"""

from __future__ import annotations

import random
from collections import defaultdict

import numpy as np

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_vision import load_metric, load_stimulus_set
from brainscore_vision.benchmark_helpers._timebins import BenchmarkDataError
from brainscore_vision.model_interface import BrainModel
from brainscore_vision.utils import LazyLoad, resolve

__all__ = ["FACTORS", "REGIONS", "SEED", "Islam2021Dimensionality", "draw_pairs"]

BIBTEX = """@inproceedings{islam2021shape,
  title = {Shape or Texture: Understanding Discriminative Features in {CNN}s},
  author = {Md Amirul Islam and Matthew Kowal and Patrick Esser and Sen Jia and Bj{\\"o}rn Ommer and
            Konstantinos G. Derpanis and Neil Bruce},
  booktitle = {International Conference on Learning Representations}, year = {2021},
  url = {https://openreview.net/forum?id=NcFEZOi-rLa}
}"""

REGIONS = ("V1", "V2", "V4", "IT")
FACTORS = ("shape", "texture")
SEED = 1751  # Brain-Score's: "turn this benchmark into a deterministic one"
TIME_BINS = [(70, 170)]
N_TEXTURES, N_SHAPES = 5, 20


def draw_pairs(stimulus_set, seed: int = SEED) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Brain-Score's pairs: for every row ``i`` of ``stimulus_set`` (columns ``texture``, ``shape``,
    ``original_image_id``), a factor and a partner row, drawn by ``random.Random(seed)`` in Brain-Score's order.

    Returns
    -------
    (factors, rows1, rows2) : ndarrays of shape (n_stimuli,): the factor of each pair, ``arange(n)`` and the partners.

    Raises
    ------
    BenchmarkDataError
        The set has not 5 textures and 20 shapes, or a partner Brain-Score's draw asks for does not exist (or is not
        unique where it must be), naming the row.
    """
    textures_of = np.asarray(stimulus_set["texture"].values)
    shapes_of = np.asarray(stimulus_set["shape"].values)
    originals = np.asarray(stimulus_set["original_image_id"].values)
    textures, shapes = sorted(set(textures_of.tolist())), sorted(set(shapes_of.tolist()))
    if len(textures) != N_TEXTURES or len(shapes) != N_SHAPES:
        raise BenchmarkDataError(f"Islam2021: the stimulus set has {len(textures)} textures and {len(shapes)} shapes; "
                                 f"Brain-Score's pairing needs {N_TEXTURES} and {N_SHAPES}")
    same_original: dict = defaultdict(list)  # (original, texture) -> rows
    same_texture_shape: dict = defaultdict(list)  # (texture, shape) -> rows, in the set's order
    for row, (texture, shape, original) in enumerate(zip(textures_of.tolist(), shapes_of.tolist(),
                                                         originals.tolist(), strict=True)):
        same_original[(original, texture)].append(row)
        same_texture_shape[(texture, shape)].append(row)
    generator = random.Random(seed)
    factors, partners = [], []
    for row, (texture, shape, original) in enumerate(zip(textures_of.tolist(), shapes_of.tolist(), originals.tolist(),
                                                         strict=True)):
        factor = generator.choice(["shape", "texture"])
        if factor == "shape":  # the same original in another texture
            other = generator.choice([t for t in textures if t != texture])
            candidates = same_original.get((original, other), [])
            if len(candidates) != 1:
                raise BenchmarkDataError(f"Islam2021: row {row} (original {original!r}) has {len(candidates)} images "
                                         f"in texture {other!r}; Brain-Score's pairing needs exactly one")
            partner = candidates[0]
        else:  # another shape in the same texture
            other = generator.choice([s for s in shapes if s != shape])
            candidates = same_texture_shape.get((texture, other), [])
            if not candidates:
                raise BenchmarkDataError(f"Islam2021: row {row} has no image of shape {other!r} in texture "
                                         f"{texture!r} to pair with")
            partner = generator.choice(candidates)
        factors.append(factor)
        partners.append(partner)
    return np.asarray(factors), np.arange(len(factors)), np.asarray(partners)


def _responses_in_set_order(assembly, stimulus_set) -> np.ndarray:
    """The model's responses as (stimulus, feature) in the stimulus set's row order."""
    if "time_bin" in assembly.dims:
        assembly = assembly.mean("time_bin")
    assembly = assembly.transpose("presentation", ...)
    ids = np.asarray(assembly["stimulus_id"].values).astype(str)
    position = {stimulus_id: index for index, stimulus_id in enumerate(ids)}
    wanted = np.asarray(stimulus_set["stimulus_id"].values).astype(str)
    missing = [stimulus_id for stimulus_id in wanted if stimulus_id not in position]
    if missing:
        raise BenchmarkDataError(f"Islam2021: the model's responses lack stimuli {missing[:5]}")
    values = np.asarray(assembly.values)
    return values.reshape(values.shape[0], -1)[[position[stimulus_id] for stimulus_id in wanted]]


class Islam2021Dimensionality(BenchmarkBase):
    """``Islam2021-<factor>_<region>_dimensionality`` (see the module docstring).

    Parameters
    ----------
    region : str
        ``'V1'``, ``'V2'``, ``'V4'`` or ``'IT'``.
    factor : str
        ``'shape'`` or ``'texture'`` (``'residual'`` is accepted too, as in Brain-Score).
    """

    def __init__(self, region: str, factor: str):
        if region not in REGIONS or factor not in (*FACTORS, "residual"):
            raise ValueError(f"Islam2021: region {region!r} / factor {factor!r} not among {REGIONS} / "
                             f"{(*FACTORS, 'residual')}")
        self.region = region
        self.factor = factor
        self._stimuli = LazyLoad(lambda: load_stimulus_set("Islam2021"))
        self._metric = load_metric("factor_dimensionality", factor=factor)
        super().__init__(identifier=f"Islam2021-{region}_{factor}_dimensionality", version=1, ceiling=Score(1.0),
                         parent="Islam2021", bibtex=BIBTEX)

    def __call__(self, candidate: BrainModel) -> Score:
        from brainio.assemblies import NeuroidAssembly

        stimuli = resolve(self._stimuli)
        candidate.start_recording(self.region, TIME_BINS)
        values = _responses_in_set_order(candidate.look_at(stimuli), stimuli)
        factors, rows1, rows2 = draw_pairs(stimuli)

        def paired(rows):
            return NeuroidAssembly(values[rows], coords={"factor": ("presentation", factors)},
                                   dims=["presentation", "neuroid"])

        score = self._metric(paired(rows1), paired(rows2))
        score.attrs.update(raw=Score(float(score)), ceiling=self.ceiling, normalization="none (ceiling 1)",
                           bibtex=self.bibtex)
        return score
