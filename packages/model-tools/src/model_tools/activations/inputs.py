"""Normalise what users pass as stimuli (StimulusSet, paths, in-memory images, a tensor) into one form."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from brainio.stimuli import StimulusSet
from brainio.stimulus_cache import content_digests, stimulus_files
from model_tools.digest import cached_file_digest, json_digest
from model_tools.errors import StimulusError


@dataclass
class Stimuli:
    """Stimuli in presentation order.

    Attributes
    ----------
    items : list or torch.Tensor
        One entry per presentation: a path, a PIL image or a numpy array; or a float tensor of shape
        (presentation, 3, H, W) that is fed to the model as is (already preprocessed).
    presentation : dict of str -> numpy.ndarray of shape (presentation,)
        Presentation coordinates, ``stimulus_id`` first; for a StimulusSet every column.
    stimulus_set : pandas.DataFrame or None
        The StimulusSet they came from, if any.
    """

    items: Any
    presentation: dict[str, np.ndarray]
    stimulus_set: Any = None
    _digest: str | None = field(default=None, repr=False)
    _item_digests: list[str] | None = field(default=None, repr=False)
    _digests_of: Callable[[], list[str]] | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.presentation["stimulus_id"])

    @property
    def is_tensor(self) -> bool:
        return not isinstance(self.items, list)

    def with_files(self) -> Stimuli:
        """The same stimuli (same digest) with every image a model may place in memory replaced by its placed file
        (written on demand): what a preprocessing callable that reads files needs."""
        if self.is_tensor or not any(_is_placement(item) for item in self.items):
            return self
        ids = self.presentation["stimulus_id"]
        items = [self.stimulus_set.get_stimulus(stimulus_id) if _is_placement(item) else item
                 for item, stimulus_id in zip(self.items, ids, strict=True)]
        return Stimuli(items, self.presentation, self.stimulus_set, _digest=self.digest(),
                       _item_digests=self.item_digests())

    def subset(self, positions) -> Stimuli:
        """The stimuli at ``positions`` (presentation indices, in that order), with their content digests."""
        if self.is_tensor:
            raise StimulusError("a subset of a stimulus tensor is taken by indexing the tensor")
        positions = np.asarray(positions, dtype=np.int64)
        digests = self.item_digests()
        stimulus_set = self.stimulus_set.iloc[positions] if self.stimulus_set is not None else None
        return Stimuli([self.items[i] for i in positions],
                       {name: np.asarray(values)[positions] for name, values in self.presentation.items()},
                       stimulus_set, _item_digests=[digests[i] for i in positions])

    def digest(self) -> str:
        """sha1 over the content of every stimulus in order (file bytes, pixels or tensor bytes).

        Stimulus ids and metadata are not part of it: they do not change activations. An image placed on the screen
        in memory (see :func:`as_stimuli`) contributes the digest of its placement (source bytes and ratio), so a
        subset or another set showing the same placed image gives the same per-item digest.
        """
        if self._digest is None:
            if self.is_tensor:
                array = self.items.detach().to("cpu").contiguous().numpy()
                parts = [_array_digest(array)]
            else:
                parts = self.item_digests()
            self._digest = json_digest({"stimuli": parts})
        return self._digest

    def item_digests(self) -> list[str] | None:
        """The content digest of each stimulus, in presentation order (None for a tensor of stimuli)."""
        if self.is_tensor:
            return None
        if self._item_digests is None:  # a stimulus set's: one call for all (brainio.stimulus_cache)
            digests = self._digests_of() if self._digests_of is not None else None
            self._item_digests = digests if digests is not None else [item_digest(item) for item in self.items]
        return self._item_digests


def _array_digest(array: np.ndarray) -> str:
    sha = hashlib.sha1(f"{array.dtype}|{array.shape}|".encode())
    sha.update(np.ascontiguousarray(array).tobytes())
    return sha.hexdigest()


def _is_placement(item: Any) -> bool:
    """An image placed on the screen that can be made in memory (``open_image``) and names its pixels
    (``content_digest``): brainscore_vision's ``PlacedImage``."""
    return hasattr(item, "open_image") and hasattr(item, "content_digest")


def item_digest(item: Any) -> str:
    """sha1 hex naming one stimulus's content: a file's bytes, an image's pixels, or a placement's own digest."""
    if _is_placement(item):
        return item.content_digest()
    if isinstance(item, (str, os.PathLike)):
        try:
            return cached_file_digest(os.fspath(item))
        except OSError as error:
            raise StimulusError(f"cannot read stimulus file {os.fspath(item)!r}: {error}") from error
    if isinstance(item, np.ndarray):
        return _array_digest(item)
    from PIL import Image

    if isinstance(item, Image.Image):
        sha = hashlib.sha1(f"PIL|{item.mode}|{item.size}|".encode())
        sha.update(item.tobytes())
        return sha.hexdigest()
    raise StimulusError(f"unsupported stimulus type {type(item).__name__} (path, PIL image or numpy array)")


def _is_stimulus_set(stimuli: Any) -> bool:
    return hasattr(stimuli, "columns") and "stimulus_id" in getattr(stimuli, "columns", ())


def _set_items(stimulus_set: Any, ids: list) -> tuple[list, Callable[[], list[str]] | None]:
    """The items of a stimulus set and how to get all their content digests in one call.

    With ``stimulus_paths``, one call each asks them for the placements a model may make in memory (a set placed on
    the screen by brainscore_vision: ``placements(ids)``; their files are never needed), the files of the others,
    and later every digest (:func:`brainio.stimulus_cache.content_digests`). A set without ``stimulus_paths``, or
    whose class has its own ``get_stimulus``, is asked per stimulus.
    """
    paths = getattr(stimulus_set, "stimulus_paths", None)
    if paths is None or getattr(type(stimulus_set), "get_stimulus", None) not in (None, StimulusSet.get_stimulus):
        return [_stimulus_path(stimulus_set, stimulus_id) for stimulus_id in ids], None
    placements = getattr(paths, "placements", None)
    items = placements(ids) if callable(placements) else [None] * len(ids)
    unplaced = [index for index, item in enumerate(items) if item is None]
    files = stimulus_files(stimulus_set, [ids[index] for index in unplaced])
    for index, path in zip(unplaced, files, strict=True):
        items[index] = path

    def digests_of() -> list[str]:
        try:
            return content_digests(stimulus_set, ids).tolist()
        except OSError as error:
            raise StimulusError(f"cannot read stimulus file {error.filename!r}: {error}") from error

    return items, digests_of


def _stimulus_path(stimulus_set: Any, stimulus_id: Any) -> str:
    getter = getattr(stimulus_set, "get_stimulus", None)
    if getter is not None:
        return getter(stimulus_id)
    paths = getattr(stimulus_set, "stimulus_paths", None)
    if paths is None:
        raise StimulusError("the stimulus set has neither get_stimulus nor stimulus_paths")
    return paths[stimulus_id]


def as_stimuli(stimuli: Any) -> Stimuli:
    """Normalise ``stimuli`` into :class:`Stimuli`.

    Parameters
    ----------
    stimuli : StimulusSet, sequence of paths / PIL images / numpy arrays, or torch.Tensor
        A StimulusSet keeps its row order; every column becomes a presentation coordinate. When its
        ``stimulus_paths`` offer ``placement(stimulus_id)`` (a set placed on the screen by brainscore_vision), the
        placed images are made in memory from the original files instead of read from placed files.
        Paths become ``stimulus_id`` and ``stimulus_path``; in-memory images get ids ``image00000``...
        A tensor of shape (presentation, 3, H, W) is used as the model input without preprocessing.
    """
    if isinstance(stimuli, Stimuli):
        return stimuli
    if _is_stimulus_set(stimuli):
        ids = list(stimuli["stimulus_id"].values)
        if len(set(ids)) != len(ids):
            raise StimulusError(f"stimulus set {getattr(stimuli, 'identifier', None)!r} has duplicate stimulus_id values")
        items, digests_of = _set_items(stimuli, ids)
        presentation = {"stimulus_id": np.asarray(ids)}
        for column in stimuli.columns:
            if column != "stimulus_id":
                presentation[column] = np.asarray(stimuli[column].values)
        return Stimuli(items, presentation, stimulus_set=stimuli, _digests_of=digests_of)
    if type(stimuli).__module__.startswith("torch") and hasattr(stimuli, "dim"):
        if stimuli.dim() != 4:
            raise StimulusError(f"a stimulus tensor must have shape (presentation, channel, H, W), got {tuple(stimuli.shape)}")
        ids = np.asarray([f"image{index:05d}" for index in range(stimuli.shape[0])])
        return Stimuli(stimuli, {"stimulus_id": ids})
    if isinstance(stimuli, (str, os.PathLike)) or not isinstance(stimuli, Sequence | np.ndarray):
        raise StimulusError(
            f"unsupported stimuli of type {type(stimuli).__name__}: pass a StimulusSet, a list of paths or "
            "images, or a tensor")
    items = list(stimuli)
    if items and all(isinstance(item, (str, os.PathLike)) for item in items):
        paths = np.asarray([os.fspath(item) for item in items])
        return Stimuli([os.fspath(item) for item in items], {"stimulus_id": paths, "stimulus_path": paths})
    ids = np.asarray([f"image{index:05d}" for index in range(len(items))])
    return Stimuli(items, {"stimulus_id": ids})
