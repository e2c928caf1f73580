"""Pretrained weight files: found locally, or downloaded once, always checked against their published digest.

A :class:`Checkpoint` records the facts of one published file: its URL and the SHA-256 digest its publisher
gives, which for torchvision and dicarlolab/CORnet is the first 8 hex digits in the file name
(``alexnet-owt-7be5be79.pth``), the check ``torch.hub`` itself applies. :func:`fetch_checkpoint` looks in order:

1. a file passed explicitly (``path=``), else ``$BRAINSCORE_HOME/weights/<file name>``;
2. the torch hub cache (``<torch hub dir>/checkpoints/<file name>``, where torchvision keeps them);
3. a download from the URL into ``$BRAINSCORE_HOME/weights``, with a progress bar, through a temporary file
   that is renamed into place only after its digest matched (an interrupted download leaves no file; the next
   call downloads again), under a file lock (two processes download once).

Files are named by their published digest, so the folder is content-addressed. Every file found or fetched is
hashed; a mismatch is refused (:class:`~model_tools.errors.WeightsDigestError`, a downloaded file is deleted).
Offline without the file, :class:`~model_tools.errors.MissingWeightsError` names the file, its URL and where
to put it. Files are read with ``torch.load(weights_only=True)``: tensors only, no code.
"""

from __future__ import annotations

import hashlib
import http.client
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from model_tools.errors import MissingWeightsError, WeightsDigestError

__all__ = ["CHECKPOINTS", "Checkpoint", "candidate_paths", "fetch_checkpoint", "load_checkpoint_state",
           "load_state_dict", "weights_dir"]


@dataclass(frozen=True)
class Checkpoint:
    """A published weight file.

    Parameters
    ----------
    url : str
    sha256 : str
        The published digest: the full SHA-256, or the prefix the publisher gives (8 hex digits here).
    state_key : str or None, default=None
        The checkpoint's dict entry holding the weights (``'state_dict'`` for CORnet), None for a bare state dict.
    strip_prefix : str, default=''
        Prefix removed from every key (``'module.'``: CORnet was saved from ``DataParallel``).
    """

    url: str
    sha256: str
    state_key: str | None = None
    strip_prefix: str = ""

    @property
    def filename(self) -> str:
        return self.url.rsplit("/", 1)[-1]


_TORCHVISION = "https://download.pytorch.org/models/"
_CORNET = "https://s3.amazonaws.com/cornet-models/"
#: Published files (URLs and digests from torchvision 0.29's ``*_Weights.IMAGENET1K_V1`` and dicarlolab/CORnet's
#: ``cornet/__init__.py`` / ``HASH`` constants): what Brain-Score's alexnet, vgg_16 and CORnet-S load.
CHECKPOINTS: dict[str, Checkpoint] = {
    "alexnet": Checkpoint(_TORCHVISION + "alexnet-owt-7be5be79.pth", "7be5be79"),
    "vgg16": Checkpoint(_TORCHVISION + "vgg16-397923af.pth", "397923af"),
    "resnet18": Checkpoint(_TORCHVISION + "resnet18-f37072fd.pth", "f37072fd"),
    "resnet50": Checkpoint(_TORCHVISION + "resnet50-0676ba61.pth", "0676ba61"),
    "cornet_z": Checkpoint(_CORNET + "cornet_z-5c427c9c.pth", "5c427c9c", "state_dict", "module."),
    "cornet_s": Checkpoint(_CORNET + "cornet_s-1d3f7974.pth", "1d3f7974", "state_dict", "module."),
}


def weights_dir() -> Path:
    """``$BRAINSCORE_HOME/weights`` (``BRAINSCORE_HOME`` defaults to ``~/.brain-score``)."""
    from brainscore_core.config import brainscore_home

    return brainscore_home() / "weights"


def candidate_paths(filename: str) -> list[Path]:
    """Where a weight file is looked for, in order: ``$BRAINSCORE_HOME/weights``, the torch hub cache."""
    import torch

    return [weights_dir() / filename, Path(torch.hub.get_dir()) / "checkpoints" / filename]


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for chunk in iter(lambda: file.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _check(path: Path, checkpoint: Checkpoint) -> Path:
    actual = _sha256(path)
    if not actual.startswith(checkpoint.sha256.lower()):
        raise WeightsDigestError(f"{path} has SHA-256 {actual}, but {checkpoint.url} is published with digest "
                                 f"{checkpoint.sha256}: the file is damaged or another one; delete it and load again")
    return path


def _download(checkpoint: Checkpoint, target: Path) -> Path:
    from brainio.files import atomic_path
    from brainscore_core.progress import progress

    with urllib.request.urlopen(checkpoint.url, timeout=60) as response, atomic_path(target) as temporary:
        total = int(response.headers.get("Content-Length") or 0) or None
        with open(temporary, "wb") as file, progress(total=total, desc=f"downloading {checkpoint.filename}",
                                                      unit="B", unit_scale=True, delay=0) as bar:
            written = 0
            for chunk in iter(lambda: response.read(1 << 20), b""):
                file.write(chunk)
                written += len(chunk)
                bar.update(len(chunk))
        if total is not None and written != total:
            raise ConnectionError(f"download interrupted after {written} of {total} bytes")
        _check(temporary, checkpoint)  # a mismatch raises: the temporary file is removed, nothing lands
    return target


def fetch_checkpoint(checkpoint: Checkpoint, path: str | Path | None = None, *, download: bool = True) -> Path:
    """The verified local file of ``checkpoint`` (see the module docstring for the search order).

    Raises
    ------
    WeightsDigestError
        A file was found or downloaded whose SHA-256 does not match the published digest.
    MissingWeightsError
        No local file and the download failed (offline): names the file, its URL and where to put it.
    """
    if path is not None:
        return _check(Path(path), checkpoint)
    for candidate in candidate_paths(checkpoint.filename):
        if candidate.is_file():
            return _check(candidate, checkpoint)
    target = weights_dir() / checkpoint.filename
    if not download:
        raise MissingWeightsError(_missing_message(checkpoint, target, "downloading is switched off"))
    from filelock import FileLock

    target.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(target) + ".lock"):
        if target.is_file():  # another process downloaded it while we waited
            return _check(target, checkpoint)
        try:
            return _download(checkpoint, target)
        except WeightsDigestError:
            raise
        except (OSError, http.client.HTTPException) as error:  # URLError, HTTPError, timeouts, cut connections
            raise MissingWeightsError(_missing_message(checkpoint, target, f"{type(error).__name__}: {error}")) \
                from error


def _missing_message(checkpoint: Checkpoint, target: Path, reason: str) -> str:
    return (f"weight file {checkpoint.filename} is not available ({reason}); download {checkpoint.url} on a "
            f"machine with internet access and put it at {target} (or in the torch hub cache "
            f"{candidate_paths(checkpoint.filename)[-1].parent}), or pass its path")


def load_checkpoint_state(checkpoint: Checkpoint, path: str | Path | None = None) -> dict[str, Any]:
    """The state dict of ``checkpoint``: the verified file read with ``weights_only=True``, unwrapped and
    with the recorded key prefix removed."""
    import torch

    content = torch.load(fetch_checkpoint(checkpoint, path), map_location="cpu", weights_only=True)
    state = content[checkpoint.state_key] if checkpoint.state_key else content
    prefix = checkpoint.strip_prefix
    return {key[len(prefix):] if prefix and key.startswith(prefix) else key: value for key, value in state.items()}


def load_state_dict(url: str, model_identifier: str) -> dict[str, Any]:
    """The state dict at ``url`` (a file of :data:`CHECKPOINTS`, or any URL whose file name ends in
    ``-<sha256 prefix>.pth``, torch.hub's convention), verified as :func:`fetch_checkpoint` does."""
    for checkpoint in CHECKPOINTS.values():
        if checkpoint.url == url:
            return load_checkpoint_state(checkpoint)
    stem = url.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    digest = stem.rsplit("-", 1)[-1] if "-" in stem else ""
    if not digest or any(c not in "0123456789abcdef" for c in digest):
        raise MissingWeightsError(f"weights of {model_identifier!r} at {url}: no published digest in the file name")
    return load_checkpoint_state(Checkpoint(url, digest))
