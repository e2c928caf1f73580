"""Benchmark plugin: LAION-fMRI, Brain-Score's 24 registered identifiers (``Zerbe2026_fmri[_persubject].<region>-
{tau,ood}-ridgecv``, ``Zerbe2026_fmri.<region>-rdm-pearson``, ``Zerbe2026_fmri.<region>-cka``); the data from a local
folder (``$BRAINSCORE_LAION_FMRI_DIR``, see :mod:`brainscore_vision.data.laion_fmri`)."""

from brainscore_vision import benchmark_registry


def _factory(kind: str, region: str, split: str | None = None, prefix: str = "Zerbe2026_fmri"):
    def build():
        from brainscore_vision.benchmarks.laion_fmri import benchmark

        if kind == "ridgecv":
            return benchmark.LAIONfMRI(region, split, dataset_prefix=prefix)
        return benchmark.LAIONfMRIRSA(region) if kind == "rdm" else benchmark.LAIONfMRICKA(region)

    return build


for _region in ("V1", "V2", "V4", "IT"):
    for _prefix in ("Zerbe2026_fmri_persubject", "Zerbe2026_fmri"):
        for _split in ("tau", "ood"):
            benchmark_registry[f"{_prefix}.{_region}-{_split}-ridgecv"] = _factory("ridgecv", _region, _split, _prefix)
    benchmark_registry[f"Zerbe2026_fmri.{_region}-rdm-pearson"] = _factory("rdm", _region)
    benchmark_registry[f"Zerbe2026_fmri.{_region}-cka"] = _factory("cka", _region)


DATA_NEEDS = "local:laion_fmri"
"""What its benchmarks need (``brainscore list``; :mod:`brainscore_vision.benchmark_data`): the LAION-fMRI files,
from the folder $BRAINSCORE_LAION_FMRI_DIR names."""
