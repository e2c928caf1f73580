"""Benchmark plugin: ``ImageNet-top1`` (Brain-Score's identifier) on a local copy of the ILSVRC-2012 validation
images (``$BRAINSCORE_IMAGENET_DIR``)."""

from brainscore_vision import benchmark_registry


def _imagenet():
    from brainscore_vision.benchmarks.imagenet.benchmark import Imagenet2012

    return Imagenet2012()


benchmark_registry["ImageNet-top1"] = _imagenet


DATA_NEEDS = "local:imagenet"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): the ImageNet validation
images, from $BRAINSCORE_IMAGENET_DIR."""
