"""``Cadena2017-pls`` and ``Cadena2017-mask`` (identifier ``tolias.Cadena2017-mask``): macaque V1 responses to
natural images and their textures (Cadena et al. 2017/2019), as Brain-Score defines them.

NeuralBenchmark, 2 degrees, 2 trials, parent V1. The recordings (``presentation x neuroid``, time bin squeezed) are
averaged over the repetitions of each image (every presentation coordinate but ``repetition_id`` and ``id`` groups
them; NaN skipped), then every image with a NaN left (an image some neuron never saw, about 14%) is dropped, from
the recordings and from their stimulus set.

* ``Cadena2017-pls`` (version 1): ``pls`` over 10 unstratified shuffle splits; ceiling ``internal_consistency``
  split over ``repetition_id``, on the repetitions after dropping every presentation row with a NaN (about 43% of
  the rows are left: the halves of the split-half ceiling need the same neurons).
* ``Cadena2017-mask`` (version 2): ``mask_regression`` (a spatial mask times channel weights per neuron, Klindt et al.
  2017; ours needs no TensorFlow) over 4 unstratified splits; ceiling ``internal_consistency`` over
  ``repetition_id`` on the repetitions as loaded, NaN included (Brain-Score's choice): a neuron with an image without
  a trial in a half leaves that split's median, as Brain-Score's ``pearsonr`` leaves it (``propagate_nan``).
"""

from __future__ import annotations

from brainscore_vision.benchmark_helpers.neural_common import NeuralBenchmark
from brainscore_vision.utils import LazyLoad

__all__ = ["BIBTEX", "NUMBER_OF_TRIALS", "VISUAL_DEGREES", "ToliasCadena2017Mask", "ToliasCadena2017PLS",
           "cadena_assembly", "drop_nan_presentations"]

VISUAL_DEGREES = 2
NUMBER_OF_TRIALS = 2
BIBTEX = """@article{cadena2019deep,
  title={Deep convolutional models improve predictions of macaque V1 responses to natural images},
  author={Cadena, Santiago A and Denfield, George H and Walker, Edgar Y and Gatys, Leon A and Tolias, Andreas S and Bethge, Matthias and Ecker, Alexander S},
  journal={PLoS computational biology},
  volume={15},
  number={4},
  pages={e1006897},
  year={2019},
  url={https://journals.plos.org/ploscompbiol/article?id=10.1371/journal.pcbi.1006897},
  publisher={Public Library of Science San Francisco, CA USA}
}"""


def drop_nan_presentations(assembly):
    """``assembly`` without the presentations that hold a NaN, its stimulus set cut to the ids left."""
    import numpy as np

    stimulus_set = assembly.attrs.get("stimulus_set")
    values = np.asarray(assembly.transpose("presentation", ...).values)
    keep = ~np.isnan(values.reshape(values.shape[0], -1)).any(axis=1)
    assembly = assembly.isel(presentation=np.flatnonzero(keep))
    if stimulus_set is not None:
        ids = set(assembly["stimulus_id"].values)
        assembly.attrs["stimulus_set"] = stimulus_set[stimulus_set["stimulus_id"].isin(ids)]
    return assembly


def cadena_assembly(average_repetitions: bool, assembly=None):
    """``Cadena2017`` as ``presentation x neuroid``: repetitions averaged and NaN images dropped, or every trial."""
    from brainio.coords import walk_coords
    from brainio.grouping import MultiGroupBy
    from brainscore_vision import load_dataset

    assembly = load_dataset("Cadena2017") if assembly is None else assembly
    if "time_bin" in assembly.dims:
        assembly = assembly.squeeze("time_bin")
    assembly = assembly.transpose("presentation", "neuroid")
    if not average_repetitions:
        return assembly
    attrs = dict(assembly.attrs)
    coords = [name for name, dims, _ in walk_coords(assembly)
              if dims == ("presentation",) and name not in ("repetition_id", "id", "presentation")]
    averaged = MultiGroupBy(assembly, coords, keep_dim=True).mean(dim="presentation", skipna=True)
    averaged.attrs = attrs
    return drop_nan_presentations(averaged)


def _benchmark(identifier: str, version: int, metric, ceiling_data) -> NeuralBenchmark:
    from brainscore_vision import load_ceiling

    # propagate_nan: Brain-Score's ceiling correlates the half means with scipy's pearsonr, so a neuron with an image
    # that has no trial in a half (the mask ceiling keeps the NaN of images it never saw) leaves that split's median
    ceiler = load_ceiling("internal_consistency", split_coord="repetition_id", propagate_nan=True)
    return NeuralBenchmark(identifier=identifier, version=version,
                           assembly=LazyLoad(lambda: cadena_assembly(average_repetitions=True)),
                           similarity_metric=metric, visual_degrees=VISUAL_DEGREES, number_of_trials=NUMBER_OF_TRIALS,
                           ceiling_func=lambda: ceiler(ceiling_data.resolve()), ceiling_data=ceiling_data.resolve,
                           parent="V1", bibtex=BIBTEX)


def ToliasCadena2017PLS() -> NeuralBenchmark:
    """``Cadena2017-pls``."""
    from brainscore_vision import load_metric

    trials = LazyLoad(lambda: drop_nan_presentations(cadena_assembly(average_repetitions=False)))
    return _benchmark("Cadena2017-pls", 1, load_metric("pls", crossvalidation_kwargs={"stratification_coord": None}),
                      trials)


def ToliasCadena2017Mask() -> NeuralBenchmark:
    """``Cadena2017-mask`` (identifier ``tolias.Cadena2017-mask``)."""
    from brainscore_vision import load_metric

    trials = LazyLoad(lambda: cadena_assembly(average_repetitions=False))
    metric = load_metric("mask_regression", crossvalidation_kwargs={"splits": 4, "stratification_coord": None})
    return _benchmark("tolias.Cadena2017-mask", 2, metric, trials)
