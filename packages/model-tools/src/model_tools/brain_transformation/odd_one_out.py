"""The ``odd_one_out`` task: for each triplet of stimuli, the one least similar to the other two."""

from __future__ import annotations

from typing import Any

import numpy as np

from model_tools.errors import StimulusError

__all__ = ["OddOneOut"]

SIMILARITY_MEASURES = ("dot", "cosine")


class OddOneOut:
    """Odd-one-out choices from a layer's features, as Brain-Score's ``OddOneOut`` makes them.

    Every consecutive triplet ``(i, j, k)`` of presentation rows is one trial. Each distinct stimulus is run once;
    the similarities ``s(i, j)``, ``s(i, k)``, ``s(j, k)`` of the features (dot product, or cosine) decide: the pair
    most alike stays, the third stimulus is the odd one (``(i, j, k)[2 - argmax]``, the first pair on ties).

    Parameters
    ----------
    identifier : str
    activations_model : callable
        ``activations_model(stimuli, layers=[layer])`` -> NeuroidAssembly (presentation x neuroid).
    layer : str
        Readout layer.
    similarity_measure : {'dot', 'cosine'}, default='dot'
    """

    def __init__(self, identifier: str, activations_model: Any, layer: str, similarity_measure: str = "dot"):
        self.identifier = identifier
        self.activations_model = activations_model
        self.layer = layer
        self.similarity_measure = similarity_measure

    def set_similarity_measure(self, similarity_measure: str) -> None:
        """Brain-Score's setter: ``'dot'`` or ``'cosine'``."""
        self.similarity_measure = similarity_measure

    def look_at(self, triplets: Any):
        """BehavioralAssembly of dims ``('choice', 'presentation')`` (one row of choices, as Brain-Score returns it):
        the odd stimulus id per triplet, with ``stimulus_id`` = ``'<i>|<j>|<k>'`` on ``presentation``."""
        if self.similarity_measure not in SIMILARITY_MEASURES:
            raise ValueError(f"model {self.identifier!r}: similarity_measure {self.similarity_measure!r} is not one of "
                             f"{SIMILARITY_MEASURES}")
        ids = np.asarray(triplets["stimulus_id"].values)
        if len(ids) % 3:
            raise StimulusError(f"model {self.identifier!r}: odd_one_out needs triplets of stimuli, got {len(ids)} "
                                "stimuli (not a multiple of 3)")
        unique_ids, first_rows, rows = np.unique(ids, return_index=True, return_inverse=True)
        stimuli = triplets.iloc[first_rows]  # each distinct stimulus once, sorted by stimulus_id
        features = self.activations_model(stimuli, layers=[self.layer]).transpose("presentation", "neuroid")
        order = {stimulus_id: row for row, stimulus_id in enumerate(features["stimulus_id"].values)}
        values = np.asarray(features.values, dtype=np.float64)[[order[i] for i in unique_ids]]
        if self.similarity_measure == "cosine":
            values = values / np.linalg.norm(values, axis=1, keepdims=True)
        trials = rows.reshape(-1, 3)
        first, second, third = values[trials[:, 0]], values[trials[:, 1]], values[trials[:, 2]]
        similarities = np.stack([np.einsum("ij,ij->i", first, second), np.einsum("ij,ij->i", first, third),
                                 np.einsum("ij,ij->i", second, third)], axis=1)
        odd = 2 - similarities.argmax(axis=1)
        triplet_ids = ids.reshape(-1, 3)
        choices = triplet_ids[np.arange(len(triplet_ids)), odd]
        from brainio.assemblies import BehavioralAssembly

        labels = ["|".join(map(str, triplet)) for triplet in triplet_ids]
        return BehavioralAssembly(choices[None, :].astype(object), coords={"stimulus_id": ("presentation", labels)},
                                  dims=["choice", "presentation"])
