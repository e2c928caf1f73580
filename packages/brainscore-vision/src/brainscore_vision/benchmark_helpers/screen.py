"""Placing stimuli on a model's screen: the same visual angle for brain and model.

An experiment showed its stimuli at ``source`` degrees of visual angle; a model sees ``target`` degrees
across its whole input. :func:`place_on_screen` rescales every stimulus so that it covers the same
fraction of the model's field of view as it covered of the subject's: a larger model field pads the
stimulus with gray (RGB 128, 128, 128), a smaller one crops its centre.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np
from PIL import Image

from brainio.digest import stimulus_set_digest
from brainio.extraction import damaged_files, record_files
from brainio.files import apply_umask, atomic_path
from brainio.records import read_record, write_record
from brainio.stimuli import StimulusSet
from brainscore_core.progress import progress
from brainscore_vision._paths import brainscore_home
from brainscore_vision.errors import ScreenError

__all__ = ["ImageConverter", "ScreenError", "convert_image", "place_on_screen"]

GRAY = (128, 128, 128)
_COMPLETE_MARKER = ".complete.json"




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
        written). Otherwise a copy whose files live under
        ``$BRAINSCORE_HOME/stimuli_on_screen/<identifier>--target<t>--source<s>--<digest>/`` (same
        basenames), with identifier ``<identifier>--target<t:.2f>--source<s:.2f>`` and a ``degrees``
        column equal to the target. Results are cached by content: the digest covers the stimulus
        files' bytes and metadata, so changed images never reuse stale conversions.

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
    new_identifier = f"{identifier}--target{target:.2f}--source{source_label}"
    digest = stimulus_set_digest(stimulus_set)
    directory = brainscore_home() / "stimuli_on_screen" / f"{new_identifier}--{digest[:16]}"
    stimulus_ids = [str(s) for s in stimulus_set["stimulus_id"].values]
    names = _target_names(stimulus_set, stimulus_ids)
    marker = read_record(directory / _COMPLETE_MARKER, "screen placement record")
    if marker is None:
        if directory.exists():  # an unverifiable earlier copy: convert every file again, in place
            _convert_files(stimulus_set, stimulus_ids, names, sources, target, directory, new_identifier, set(names))
        else:
            _convert_all(stimulus_set, stimulus_ids, names, sources, target, directory, new_identifier)
    else:
        damaged = set(damaged_files(directory, marker["members"], marker["recorded_ns"]))
        if damaged:  # a converted image changed or vanished: convert those again (atomic per file)
            _convert_files(stimulus_set, stimulus_ids, names, sources, target, directory, new_identifier, damaged)

    converted = stimulus_set.copy()
    converted["degrees"] = target
    converted.identifier = new_identifier
    converted.stimulus_paths = {sid: str(directory / name) for sid, name in zip(stimulus_ids, names)}
    return converted


def convert_image(image: Image.Image, ratio: float) -> Image.Image:
    """Rescale one image's field of view by ``ratio`` = target degrees / source degrees.

    The new size per axis is ``round(ratio * size)``. For ``ratio >= 1`` the unchanged image is pasted
    at offset ``round((new - old) / 2)`` onto a gray RGB canvas of the new size; for ``ratio < 1`` the
    centre box of the new size, starting at ``round((old - new) / 2)``, is cropped out.
    """
    image = image.convert("RGB")
    width, height = image.size
    new_width, new_height = round(ratio * width), round(ratio * height)
    if new_width < 1 or new_height < 1:
        raise ScreenError(f"ratio {ratio} shrinks a {width}x{height} image to nothing")
    if ratio >= 1:
        canvas = Image.new("RGB", (new_width, new_height), GRAY)
        canvas.paste(image, (round((new_width - width) / 2), round((new_height - height) / 2)))
        return canvas
    left, top = round((width - new_width) / 2), round((height - new_height) / 2)
    return image.crop((left, top, left + new_width, top + new_height))


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


def _target_names(stimulus_set: StimulusSet, stimulus_ids: list[str]) -> list[str]:
    basenames = [Path(stimulus_set.get_stimulus(sid)).name for sid in stimulus_ids]
    if len(set(basenames)) == len(basenames):
        return basenames
    # two stimuli share a file name (different folders): name the copies by stimulus id instead
    return [f"{sid}{Path(name).suffix}" for sid, name in zip(stimulus_ids, basenames)]


def _convert_one(stimulus_set, sid: str, source: float, target: float) -> Image.Image:
    path = stimulus_set.get_stimulus(sid)
    try:
        with Image.open(path) as image:
            return convert_image(image, target / source)
    except OSError as error:
        raise ScreenError(f"cannot read stimulus {sid!r} at {path}: {error}") from error


def _write_marker(directory: Path, identifier: str, names: list[str]) -> None:
    """The completion record: every converted file's SHA-1 and stamp, with a digest of the record itself."""
    write_record(directory / _COMPLETE_MARKER, {"identifier": identifier, "count": len(names),
                                                "recorded_ns": time.time_ns(), "members": record_files(directory, names)})


def _convert_files(stimulus_set, stimulus_ids, names, sources, target, directory: Path, identifier: str,
                   which: set[str]) -> None:
    for sid, name, source in zip(stimulus_ids, names, sources):
        if name in which:
            with atomic_path(directory / name, suffix=Path(name).suffix) as temporary:
                _convert_one(stimulus_set, sid, source, target).save(temporary, format=_format(name))
    _write_marker(directory, identifier, names)


def _format(name: str) -> str:
    return Image.registered_extensions().get(Path(name).suffix.lower(), "PNG")


def _convert_all(stimulus_set, stimulus_ids, names, sources, target, directory: Path, identifier: str) -> None:
    directory.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{directory.name}.", dir=directory.parent))
    apply_umask(staging, directory=True)
    try:
        for sid, name, source in progress(list(zip(stimulus_ids, names, sources)),
                                          desc=f"placing on screen ({identifier})", unit="stimulus"):
            _convert_one(stimulus_set, sid, source, target).save(staging / name)
        _write_marker(staging, identifier, names)  # renaming the folder keeps the files' stamps
        try:
            os.replace(staging, directory)
        except OSError:
            # another process finished the same conversion first; its copy is identical
            if not (directory / _COMPLETE_MARKER).is_file():
                raise
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


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
