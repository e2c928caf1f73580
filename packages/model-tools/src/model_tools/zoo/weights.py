"""Find pretrained weight files locally, or download them when possible; say what is missing otherwise."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from model_tools.errors import MissingWeightsError


def weights_dir() -> Path:
    """``$BRAINSCORE_HOME/weights`` (``BRAINSCORE_HOME`` defaults to ``~/.brain-score``)."""
    from brainscore_core.config import brainscore_home

    return brainscore_home() / "weights"


def candidate_paths(filename: str) -> list[Path]:
    """Where a weight file is looked for, in order: ``$BRAINSCORE_HOME/weights``, the torch hub cache."""
    paths = [weights_dir() / filename]
    try:
        import torch

        paths.append(Path(torch.hub.get_dir()) / "checkpoints" / filename)
    except ImportError:  # pragma: no cover - torch is a dependency
        pass
    return paths


def load_state_dict(url: str, model_identifier: str) -> dict[str, Any]:
    """The state dict stored at ``url``: from a local copy if there is one, else downloaded to the hub cache.

    Files are read with ``torch.load(weights_only=True)`` (tensors only, no arbitrary objects).

    Raises
    ------
    MissingWeightsError
        No local copy and the download failed (offline); the message names the file, the URL and the folders.
    """
    import torch

    filename = url.rsplit("/", 1)[-1]
    for path in candidate_paths(filename):
        if path.is_file():
            return torch.load(path, map_location="cpu", weights_only=True)
    try:
        return torch.hub.load_state_dict_from_url(url, map_location="cpu", progress=False, weights_only=True)
    except Exception as error:  # urllib, ssl and http errors all mean "not downloadable now"
        folders = " or ".join(str(path.parent) for path in candidate_paths(filename))
        raise MissingWeightsError(
            f"pretrained weights of model {model_identifier!r} are not available: file {filename!r} is not in "
            f"{folders} and downloading {url} failed ({type(error).__name__}: {error}). Download the file on a "
            f"machine with internet access and copy it to {weights_dir() / filename}"
        ) from error
