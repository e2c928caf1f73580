"""Placing stimuli on a model's screen: the same visual angle for brain and model.

An experiment showed its stimuli at ``source`` degrees of visual angle; a model sees ``target`` degrees
across its whole input. :func:`place_on_screen` rescales every stimulus so that it covers the same
fraction of the model's field of view as it covered of the subject's: a larger model field pads the
stimulus with gray (RGB 128, 128, 128), a smaller one crops its centre.

A placed image depends only on the bytes of its file and the ratio target / source, so it is kept once, by content:
``$BRAINSCORE_HOME/stimuli_on_screen/ratio<ratio>/<sha1[:2]>/<sha1><suffix>`` (sha1 of the original file). Every
stimulus set, or subset, that shows the same image at the same ratio shares it; nothing is converted twice. Files
are written when first asked for: the placed set's ``stimulus_paths`` is a :class:`PlacedPaths` mapping whose
lookup converts the image (atomically, with a record of the result's sha1 and stamp, so that a changed or deleted
file is converted again). A model that can place an image itself asks :meth:`PlacedPaths.placement` instead and
never needs the file (model-tools' extractor does, for lossless PNG sources: the pixels are the same either way).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from brainio.files import atomic_path, remembered_sha1_hash
from brainio.records import content_sha1, content_sha1s, read_record, write_record
from brainio.stimuli import StimulusSet
from brainio.stimulus_cache import content_digests, stimulus_files
from brainio.stimulus_cache.extraction import damaged_files, record_files
from brainscore_vision._paths import brainscore_home
from brainscore_vision.errors import ScreenError

__all__ = ["ImageConverter", "PlacedImage", "PlacedPaths", "ScreenError", "convert_image", "place_on_screen"]

GRAY = (128, 128, 128)
#: bumped when the pixels of a placement change (part of every placed image's content digest)
PLACEMENT_VERSION = 1
#: file formats whose placed file decodes to exactly the pixels placed in memory
LOSSLESS_SUFFIXES = (".png", ".bmp", ".tif", ".tiff")
#: zlib level of placed PNG files (level 1 writes about as small files as the default 6 for these images, faster)
PNG_COMPRESS_LEVEL = 1


def place_on_screen(stimulus_set: StimulusSet, target_visual_degrees: float,
                    source_visual_degrees: float | None = None) -> StimulusSet:
    """Rescale ``stimulus_set`` from the experiment's visual angle to the model's.

    Parameters
    ----------
    stimulus_set : StimulusSet
        Stimuli as shown in the experiment, one row per stimulus.
    target_visual_degrees : float
        Field of view of the model, in degrees (``candidate.visual_degrees()``).
    source_visual_degrees : float or None, default=None
        Size of the stimuli in the experiment, in degrees. ``None`` reads the per-stimulus ``degrees``
        column instead; exactly one of the two must be given.

    Returns
    -------
    StimulusSet
        ``stimulus_set`` itself when every source size already equals the target (no copy, no file
        written). Otherwise a copy with identifier ``<identifier>--target<t:.2f>--source<s:.2f>`` and a ``degrees``
        column equal to the target, whose ``stimulus_paths`` (a :class:`PlacedPaths`) give each stimulus's placed
        file under ``$BRAINSCORE_HOME/stimuli_on_screen/``, converted when first asked for and kept by content
        (stimuli already at the target size keep their own file). Only the stimulus files are read here (their
        sha1, remembered per file stamp).

    Raises
    ------
    ScreenError
        Both or neither of ``source_visual_degrees`` and a ``degrees`` column are given, or a size is
        not positive.
    """
    sources = _source_degrees(stimulus_set, source_visual_degrees)
    target = float(target_visual_degrees)
    if target <= 0:
        raise ScreenError(f"target_visual_degrees must be positive, got {target_visual_degrees!r}")
    if np.allclose(sources, target, rtol=0, atol=1e-9):
        return stimulus_set

    identifier = getattr(stimulus_set, "identifier", None) or "stimuli"
    source_label = f"{sources[0]:.2f}" if np.all(sources == sources[0]) else "mixed"
    ids = stimulus_set["stimulus_id"].tolist()
    try:  # one call each for the set's files and their content digests (brainio.stimulus_cache)
        paths = stimulus_files(stimulus_set, ids)
        if isinstance(stimulus_set.stimulus_paths, PlacedPaths):  # placing a placed set again: from its files' bytes
            source_sha1s = np.asarray([remembered_sha1_hash(path) for path in paths], dtype=object)
        else:
            source_sha1s = content_digests(stimulus_set, ids)
    except OSError as error:
        raise ScreenError(f"cannot read a stimulus file of {identifier!r}: {error}") from error
    images: dict[str, PlacedImage | str] = {
        stimulus_id: path if source == target else PlacedImage(path, target / source, sha1)
        for stimulus_id, path, source, sha1 in zip(ids, paths, sources.tolist(), source_sha1s.tolist(), strict=True)}
    converted = stimulus_set.copy()
    converted["degrees"] = target
    converted.identifier = f"{identifier}--target{target:.2f}--source{source_label}"
    converted.stimulus_paths = PlacedPaths(images, source_sha1s=dict(zip(ids, source_sha1s.tolist(), strict=True)))
    return converted


def convert_image(image: Image.Image, ratio: float) -> Image.Image:
    """Rescale one image's field of view by ``ratio`` = target degrees / source degrees.

    The new size per axis is ``round(ratio * size)``. For ``ratio >= 1`` the unchanged image is pasted
    at offset ``round((new - old) / 2)`` onto a gray RGB canvas of the new size; for ``ratio < 1`` the
    centre box of the new size, starting at ``round((old - new) / 2)``, is cropped out, keeping the image's mode
    (as the reference's converter does: a greyscale grating stays greyscale).
    """
    width, height = image.size
    new_width, new_height = round(ratio * width), round(ratio * height)
    if new_width < 1 or new_height < 1:
        raise ScreenError(f"ratio {ratio} shrinks a {width}x{height} image to nothing")
    if ratio >= 1:
        canvas = Image.new("RGB", (new_width, new_height), GRAY)
        canvas.paste(image.convert("RGB"), (round((new_width - width) / 2), round((new_height - height) / 2)))
        return canvas
    left, top = round((width - new_width) / 2), round((height - new_height) / 2)
    return image.crop((left, top, left + new_width, top + new_height))


@dataclass(frozen=True)
class PlacedImage:
    """One stimulus file shown at ``ratio`` = target / source degrees.

    Attributes
    ----------
    source : str
        The stimulus file.
    ratio : float
    source_sha1 : str
        SHA-1 of the stimulus file's bytes (names the placed file and keys its content).
    """

    source: str
    ratio: float
    source_sha1: str

    @classmethod
    def of(cls, source: str, ratio: float) -> PlacedImage:
        try:
            digest = remembered_sha1_hash(source)
        except OSError as error:
            raise ScreenError(f"cannot read stimulus file {source}: {error}") from error
        return cls(str(source), float(ratio), digest)

    @property
    def lossless(self) -> bool:
        """Whether the placed file decodes to exactly :meth:`open_image`'s pixels (PNG and other lossless formats;
        a JPEG is encoded again when written)."""
        return os.path.splitext(self.source)[1].lower() in LOSSLESS_SUFFIXES

    def open_image(self) -> Image.Image:
        """The placed image, made in memory from the stimulus file."""
        try:
            with Image.open(self.source) as image:
                return convert_image(image, self.ratio)
        except OSError as error:
            raise ScreenError(f"cannot read stimulus file {self.source}: {error}") from error

    def content_digest(self) -> str:
        """SHA-1 naming the placed image's pixels: the source's bytes, the ratio and the placement version."""
        return content_sha1(_placement_document(self))

    def relative_path(self) -> Path:
        """Where the placed file lives under the placement root: ``ratio<ratio>/<sha1[:2]>/<sha1><suffix>``."""
        return Path(f"ratio{self.ratio!r}") / self.source_sha1[:2] / f"{self.source_sha1}{Path(self.source).suffix}"


class PlacedPaths(Mapping):
    """``stimulus_id -> path`` of placed stimuli; a placed file is written the first time its path is asked for.

    Parameters
    ----------
    images : mapping of str -> PlacedImage or str
        Per stimulus its placement, or its own file path (a stimulus already at the target size).
    root : path-like or None, default=None
        Where placed files live; None means ``$BRAINSCORE_HOME/stimuli_on_screen`` at the time of use.
    """

    def __init__(self, images: Mapping[str, PlacedImage | str], root: str | os.PathLike | None = None,
                 source_sha1s: Mapping[str, str] | None = None):
        self._images = dict(images)
        self._root = root
        self._digests = _content_digests(self._images, source_sha1s or {})

    @property
    def root(self) -> Path:
        return Path(self._root) if self._root is not None else brainscore_home() / "stimuli_on_screen"

    def __getitem__(self, stimulus_id: str) -> str:
        image = self._images[stimulus_id]
        return image if isinstance(image, str) else str(self._materialise(image))

    def __iter__(self) -> Iterator[str]:
        return iter(self._images)

    def __len__(self) -> int:
        return len(self._images)

    def __repr__(self) -> str:
        return f"PlacedPaths({len(self)} stimuli, root={self.root})"

    def placement(self, stimulus_id: str) -> PlacedImage | None:
        """The placement of ``stimulus_id`` when a model may place it in memory (lossless source), else None (use
        its path)."""
        image = self._images[stimulus_id]
        return image if isinstance(image, PlacedImage) and image.lossless else None

    def placements(self, stimulus_ids: Sequence[str]) -> list[PlacedImage | None]:
        """:meth:`placement` of each id, in one call."""
        images = self._images
        return [image if isinstance(image, PlacedImage) and image.lossless else None
                for image in (images[stimulus_id] for stimulus_id in stimulus_ids)]

    def content_digests(self, stimulus_ids: Sequence[str]) -> np.ndarray:
        """Per id the digest of what a model sees (object array): a lossless placement's :meth:`PlacedImage.content_digest`,
        an unplaced file's SHA-1; ``None`` for a lossy placement (its placed file's bytes name it: hash that file)."""
        digests = self._digests
        return np.asarray([digests.get(stimulus_id) for stimulus_id in stimulus_ids], dtype=object)

    def _materialise(self, image: PlacedImage) -> Path:
        path = self.root / image.relative_path()
        record_path = path.with_name(f".{path.name}.record.json")
        record = read_record(record_path, "screen placement record")
        if record is not None and not damaged_files(path.parent, record["members"], record["recorded_ns"]):
            return path
        # missing, changed or unrecorded: convert (again); readers see the old or the new complete file
        with atomic_path(path, suffix=path.suffix) as temporary:
            converted = image.open_image()
            file_format = _format(path.name)
            options = {"compress_level": PNG_COMPRESS_LEVEL} if file_format == "PNG" else {}
            converted.save(temporary, format=file_format, **options)
        write_record(record_path, {"recorded_ns": time.time_ns(), "members": record_files(path.parent, [path.name])})
        return path


def _content_digests(images: Mapping[str, PlacedImage | str], source_sha1s: Mapping[str, str]) -> dict[str, str]:
    """Per stimulus the digest of what a model sees, in one pass: lossless placements from their source SHA-1 and
    ratio (:meth:`PlacedImage.content_digest`'s document), unplaced files their own SHA-1 (when known)."""
    placed = {stimulus_id: image for stimulus_id, image in images.items()
              if isinstance(image, PlacedImage) and image.lossless}
    digests = {stimulus_id: source_sha1s[stimulus_id] for stimulus_id, image in images.items()
               if isinstance(image, str) and stimulus_id in source_sha1s}
    digests.update(zip(placed, content_sha1s([_placement_document(image) for image in placed.values()]), strict=True))
    return digests


def _placement_document(image: PlacedImage) -> dict:
    return {"placed_on_screen": PLACEMENT_VERSION, "source_sha1": image.source_sha1, "ratio": repr(image.ratio)}


def _source_degrees(stimulus_set: StimulusSet, source_visual_degrees: float | None) -> np.ndarray:
    has_column = "degrees" in stimulus_set.columns
    if source_visual_degrees is not None and has_column:
        raise ScreenError("pass source_visual_degrees or give the stimulus set a 'degrees' column, not both")
    if source_visual_degrees is None and not has_column:
        raise ScreenError(
            f"stimulus set {getattr(stimulus_set, 'identifier', None)!r} has no 'degrees' column and no "
            "source_visual_degrees was given")
    if source_visual_degrees is not None:
        sources = np.full(len(stimulus_set), float(source_visual_degrees))
    else:
        sources = stimulus_set["degrees"].to_numpy(dtype=float)
    if np.any(~np.isfinite(sources)) or np.any(sources <= 0):
        raise ScreenError(f"source visual degrees must be positive and finite, got {np.unique(sources).tolist()}")
    return sources


def _format(name: str) -> str:
    return Image.registered_extensions().get(Path(name).suffix.lower(), "PNG")


class ImageConverter:
    """Brain-Score's per-image converter (``benchmark_helpers.screen.ImageConverter``), on :func:`convert_image`.

    Parameters
    ----------
    target_dir : path-like
        Where converted images are written (under their own file names).
    """

    def __init__(self, target_dir):
        self._target_dir = Path(target_dir)

    def convert_image(self, image_path, source_degrees: float, target_degrees: float) -> str:
        """The path of ``image_path`` shown at ``target_degrees`` instead of ``source_degrees`` (the path itself when
        they are equal); the converted file is written atomically."""
        if source_degrees == target_degrees:
            return image_path
        with Image.open(image_path) as image:
            converted = self.apply_ratio(image, target_degrees / source_degrees)
        self._target_dir.mkdir(parents=True, exist_ok=True)
        target = self._target_dir / os.path.basename(image_path)
        with atomic_path(target) as temporary:
            converted.save(temporary, format=Image.registered_extensions().get(target.suffix.lower(), "PNG"))
        return str(target)

    def apply_ratio(self, image: Image.Image, ratio: float, background_color="gray") -> Image.Image:
        """``image`` enlarged onto a gray canvas (``ratio >= 1``) or centre-cropped (``ratio < 1``)."""
        if background_color not in ("gray", "grey", GRAY):
            raise ValueError(f"only the gray background {GRAY} is supported, got {background_color!r}")
        return convert_image(image, ratio)
