"""Benchmark plugin: Allen2022 (NSD) fMRI, Brain-Score's 32 identifiers
(``Allen2022_fmri[_surface][_4subj].{V1,V2,V4,IT}-{ridge,rdm}``); the data from a local folder
(``$BRAINSCORE_NSD_DIR``, see :mod:`brainscore_vision.data.allen2022`)."""

from brainscore_vision import benchmark_registry


def _factory(prefix: str, region: str, kind: str):
    def build():
        from brainscore_vision.benchmarks.allen2022 import benchmark

        if kind == "rdm":
            return benchmark.Allen2022fmriRSA(region, dataset_prefix=prefix)
        return benchmark.Allen2022fmri(region, kind, dataset_prefix=prefix)

    return build


for _prefix in ("Allen2022_fmri", "Allen2022_fmri_4subj", "Allen2022_fmri_surface", "Allen2022_fmri_surface_4subj"):
    for _region in ("V1", "V2", "V4", "IT"):
        for _kind in ("ridge", "rdm"):
            benchmark_registry[f"{_prefix}.{_region}-{_kind}"] = _factory(_prefix, _region, _kind)


DATA_NEEDS = "local:nsd"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): the NSD files, from the
folder $BRAINSCORE_NSD_DIR names."""
