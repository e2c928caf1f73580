"""Image preprocessing: decode, convert to RGB, resize to a square, scale to [0, 1], normalise.

Split in two steps so that decoding runs in worker threads while the model runs: :meth:`decode` turns one
image into a ``uint8`` array of shape (image_size, image_size, 3) (PIL work, releases the GIL) and
:meth:`to_tensor` turns a stacked batch into the normalised float tensor (one vectorised torch call).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np
from PIL import Image

from model_tools.errors import StimulusError

IMAGENET_MEAN = (0.485, 0.456, 0.406)
IMAGENET_STD = (0.229, 0.224, 0.225)
_RESIZE_MODES = ("standard", "inception")


def to_rgb(image: Image.Image) -> Image.Image:
    """An RGB copy of ``image``: L/A/P images are pasted onto an RGB canvas, other modes converted."""
    if image.mode == "RGB":
        return image
    if image.mode in ("L", "A", "P"):
        canvas = Image.new("RGB", image.size)
        canvas.paste(image.convert("RGB") if image.mode == "P" else image)
        return canvas
    return image.convert("RGB")


def open_image(image: Any) -> Image.Image:
    """A PIL image from a path, a PIL image, a ``uint8`` / float-in-[0, 1] numpy array (H x W [x C]) or an image
    placed on the screen in memory (an object with ``open_image()``, brainscore_vision's ``PlacedImage``)."""
    if isinstance(image, Image.Image):
        return image
    if hasattr(image, "open_image"):
        try:
            return image.open_image()
        except (OSError, ValueError) as error:
            raise StimulusError(f"cannot place image {image!r}: {error}") from error
    if isinstance(image, (str, os.PathLike)):
        try:
            picture = Image.open(image)
            picture.load()  # reads the pixels and closes the file
            return picture
        except (OSError, ValueError) as error:
            raise StimulusError(f"cannot read image file {os.fspath(image)!r}: {error}") from error
    if isinstance(image, np.ndarray):
        array = image
        if array.dtype != np.uint8:
            if not np.issubdtype(array.dtype, np.floating):
                raise StimulusError(f"numpy image of dtype {array.dtype} is not supported (uint8 or float in [0, 1])")
            array = np.clip(np.rint(array * 255.0), 0, 255).astype(np.uint8)
        if array.ndim == 3 and array.shape[2] == 1:
            array = array[:, :, 0]
        if array.ndim not in (2, 3) or (array.ndim == 3 and array.shape[2] not in (3, 4)):
            raise StimulusError(f"numpy image of shape {image.shape} is not H x W, H x W x 3 or H x W x 4")
        return Image.fromarray(array)
    raise StimulusError(f"unsupported image type {type(image).__name__} (path, PIL image or numpy array)")


class ImagePreprocessing:
    """Standard (ImageNet) preprocessing, configurable image size.

    Parameters
    ----------
    image_size : int, default=224
        Side of the square the image is resized to, in pixels.
    resize : {'standard', 'inception'}, default='standard'
        'standard': resize to (image_size, image_size), bilinear with antialias, aspect ratio not kept.
        'inception': resize the short side to ``int(image_size * 256 / 224)`` (the long side to
        ``int(short * long / short side)``), bilinear, then crop the centre square (offsets
        ``round((side - image_size) / 2)``): torchvision's ``Resize`` + ``CenterCrop``, as Brain-Score's
        ``preprocess_type='inception'`` uses them (with ``mean`` = ``std`` = 0.5 there).
    mean, std : tuple of 3 floats, default=ImageNet statistics
        Per-channel normalisation after scaling to [0, 1]. ``normalize=False`` skips it.
    normalize : bool, default=True

    Examples
    --------
    >>> import numpy as np
    >>> pre = ImagePreprocessing(image_size=2, normalize=False)
    >>> pre([np.full((4, 4, 3), 255, np.uint8)]).shape
    torch.Size([1, 3, 2, 2])
    """

    def __init__(self, image_size: int = 224, *, resize: str = "standard", mean: Sequence[float] = IMAGENET_MEAN,
                 std: Sequence[float] = IMAGENET_STD, normalize: bool = True):
        self.image_size = image_size
        self.resize = resize
        self.mean = mean
        self.std = std
        self.normalize = normalize

    def cache_fields(self) -> dict[str, Any]:
        """Everything that changes the output, as JSON (part of the activations cache key)."""
        return {"kind": "ImagePreprocessing", "image_size": int(self.image_size), "resize": self.resize,
                "mean": [float(v) for v in self.mean], "std": [float(v) for v in self.std],
                "normalize": bool(self.normalize)}

    def decode(self, image: Any) -> np.ndarray:
        """One image -> ``uint8`` array of shape (image_size, image_size, 3)."""
        if self.resize not in _RESIZE_MODES:
            raise ValueError(f"resize={self.resize!r} is not one of {_RESIZE_MODES}")
        picture = to_rgb(open_image(image))
        size = int(self.image_size)
        if self.resize == "standard":
            if picture.size != (size, size):
                picture = picture.resize((size, size), Image.Resampling.BILINEAR)
        else:  # torchvision's Resize(int(size * 256 / 224)) then CenterCrop(size), as Brain-Score composes them
            short = int(size * 256 / 224)
            width, height = picture.size
            if width <= height:
                new_size = (short, int(short * height / width))
            else:
                new_size = (int(short * width / height), short)
            if new_size != picture.size:
                picture = picture.resize(new_size, Image.Resampling.BILINEAR)
            left, top = int(round((new_size[0] - size) / 2.0)), int(round((new_size[1] - size) / 2.0))
            picture = picture.crop((left, top, left + size, top + size))
        return np.asarray(picture, dtype=np.uint8)

    def to_tensor(self, batch: np.ndarray, out: Any = None):
        """Stacked ``uint8`` images of shape (n, H, W, 3) -> float32 tensor (n, 3, H, W), normalised.

        ``out``: a float32 tensor of shape (n, 3, H, W) to write into (reused buffers avoid zeroing fresh
        pages for every batch); by default a new tensor. Values are ``(x / 255 - mean) / std`` in float32,
        computed in that order.
        """
        import torch

        batch = np.ascontiguousarray(batch)
        shape = (batch.shape[0], batch.shape[3], batch.shape[1], batch.shape[2])
        if out is None:
            out = torch.empty(shape, dtype=torch.float32)
        elif tuple(out.shape) != shape or out.dtype != torch.float32:
            raise ValueError(f"out has shape {tuple(out.shape)} ({out.dtype}), expected {shape} (torch.float32)")
        # one pass converts to float32 and to channel-first layout; the arithmetic is then done in place
        out.copy_(torch.from_numpy(batch).permute(0, 3, 1, 2))
        out.div_(255.0)
        if self.normalize:
            mean = torch.tensor(self.mean, dtype=torch.float32).view(1, 3, 1, 1)
            std = torch.tensor(self.std, dtype=torch.float32).view(1, 3, 1, 1)
            out.sub_(mean).div_(std)
        return out

    def __call__(self, images: Sequence[Any]):
        """Images (paths, PIL images or arrays) -> float32 tensor of shape (n, 3, image_size, image_size)."""
        return self.to_tensor(np.stack([self.decode(image) for image in images]))

    def __repr__(self) -> str:
        return (f"ImagePreprocessing(image_size={self.image_size}, resize={self.resize!r}, "
                f"normalize={self.normalize})")
