"""Benchmark plugin: Gifford2022.IT-*, Hebart2023_fmri.{V1,V2,V4,IT}-*, Papale2025.{V1,V4,IT}-* (ridge and ridgecv),
Brain-Score's identifiers. The recordings are Brain-Score's public files (network); the THINGS images come from a
local folder (``$BRAINSCORE_THINGS_IMAGES``, see :mod:`brainscore_vision.data.things`)."""

from brainscore_vision import benchmark_registry


def _factory(family: str, region: str, metric_type: str):
    def build():
        from brainscore_vision.benchmarks.things.benchmark import ThingsTrainTest

        return ThingsTrainTest(family, region, metric_type)

    return build


for _family, _regions in (("Gifford2022", ("IT",)), ("Hebart2023_fmri", ("V1", "V2", "V4", "IT")),
                          ("Papale2025", ("V1", "V4", "IT"))):
    for _region in _regions:
        for _metric in ("ridge", "ridgecv"):
            benchmark_registry[f"{_family}.{_region}-{_metric}"] = _factory(_family, _region, _metric)


DATA_NEEDS = "network+local:things"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): the public recordings,
plus the THINGS images from $BRAINSCORE_THINGS_IMAGES."""
