"""The ``odd_one_out`` task: for each triplet of stimuli, the one least similar to the other two."""

from __future__ import annotations

from typing import Any

import numpy as np

from model_tools.errors import StimulusError

__all__ = ["OddOneOut"]

SIMILARITY_MEASURES = ("dot", "cosine")
#: up to this many distinct stimuli the similarities come from their Gram matrix; beyond, per triplet in chunks
GRAM_LIMIT = 4096
#: triplets per chunk when the similarities are computed per triplet (bounds the rows gathered at once)
TRIPLET_CHUNK = 8192


def _factorize_sorted(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the sorted distinct ids, each id's index among them): ``np.unique(ids, return_inverse=True)`` by hashing, so a
    million object ids (Hebart2023's 453,642 triplets) are not sorted one comparison at a time."""
    index: dict = {}
    codes = np.fromiter((index.setdefault(value, len(index)) for value in ids.tolist()), dtype=np.int64,
                        count=len(ids))
    distinct = np.empty(len(index), dtype=ids.dtype)
    distinct[:] = list(index)
    order = np.argsort(distinct, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return distinct[order], rank[codes]


def _pair_similarities(values: np.ndarray, trials: np.ndarray) -> np.ndarray:
    """``s(i, j)``, ``s(i, k)``, ``s(j, k)`` per trial (rows of ``trials``: indices into ``values``), shape
    (n_trials, 3). Few distinct stimuli (Hebart2023: 1,854 for 453,642 triplets): read from their Gram matrix, so no
    feature row is gathered per trial; many: per trial, a chunk of trials at a time (memory stays bounded)."""
    if len(values) <= GRAM_LIMIT:
        gram = values @ values.T
        return np.stack([gram[trials[:, 0], trials[:, 1]], gram[trials[:, 0], trials[:, 2]],
                         gram[trials[:, 1], trials[:, 2]]], axis=1)
    out = np.empty((len(trials), 3))
    for start in range(0, len(trials), TRIPLET_CHUNK):
        chunk = trials[start:start + TRIPLET_CHUNK]
        first, second, third = values[chunk[:, 0]], values[chunk[:, 1]], values[chunk[:, 2]]
        out[start:start + len(chunk)] = np.stack([np.einsum("ij,ij->i", first, second),
                                                  np.einsum("ij,ij->i", first, third),
                                                  np.einsum("ij,ij->i", second, third)], axis=1)
    return out


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
        unique_ids, rows = _factorize_sorted(ids)
        first_rows = np.unique(rows, return_index=True)[1]
        stimuli = triplets.iloc[first_rows]  # each distinct stimulus once, sorted by stimulus_id
        features = self.activations_model(stimuli, layers=[self.layer]).transpose("presentation", "neuroid")
        order = {stimulus_id: row for row, stimulus_id in enumerate(features["stimulus_id"].values)}
        values = np.asarray(features.values, dtype=np.float64)[[order[i] for i in unique_ids]]
        if self.similarity_measure == "cosine":
            values = values / np.linalg.norm(values, axis=1, keepdims=True)
        odd = 2 - _pair_similarities(values, rows.reshape(-1, 3)).argmax(axis=1)
        triplet_ids = ids.reshape(-1, 3)
        choices = triplet_ids[np.arange(len(triplet_ids)), odd]
        from brainio.assemblies import BehavioralAssembly

        text = triplet_ids.astype(str)
        labels = np.char.add(np.char.add(np.char.add(np.char.add(text[:, 0], "|"), text[:, 1]), "|"), text[:, 2])
        return BehavioralAssembly(choices[None, :].astype(object), coords={"stimulus_id": ("presentation", labels)},
                                  dims=["choice", "presentation"])
