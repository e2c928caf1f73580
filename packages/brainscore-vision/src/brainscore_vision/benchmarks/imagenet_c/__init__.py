"""Benchmark plugin: ``ImageNet-C-{noise,blur,weather,digital}-top1`` (Brain-Score's identifiers) on a local copy of
Brain-Score's ImageNet-C tables and images (``$BRAINSCORE_IMAGENET_C_DIR``); see
:mod:`brainscore_vision.benchmarks.imagenet_c.benchmark`."""

from brainscore_vision import benchmark_registry


def _factory(category: str):
    def build():
        from brainscore_vision.benchmarks.imagenet_c.benchmark import ImagenetCCategory

        return ImagenetCCategory(category)

    return build


for _category in ("noise", "blur", "weather", "digital"):
    benchmark_registry[f"ImageNet-C-{_category}-top1"] = _factory(_category)


DATA_NEEDS = "local:imagenet_c"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): ImageNet-C, from
$BRAINSCORE_IMAGENET_C_DIR."""
