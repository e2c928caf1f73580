"""The public benchmark battery (brainscore_core.testing.check_benchmark) over every benchmark this package
registers; their ceilings need the real data."""

import pytest

import brainscore_vision
from brainscore_core.testing import check_benchmark

#: benchmarks on Brain-Score's public data load it from its bucket (no network in tests): covered by
#: test_public_reference_benchmarks.py with a local S3 server instead
REMOTE_MODULE = "brainscore_vision.benchmarks.public_reference"
OWN = sorted(info.identifier for info in brainscore_vision.list_plugins("benchmark")
             if info.distribution == "brainscore-vision" and info.module != REMOTE_MODULE)


#: every family registers its identifiers here when it is added
FAMILIES = {
    "Cowley2023": ["Cowley2023.V4-pls", "Cowley2023.V4-ridge"],
    "Kriegeskorte2008": ["Kiani2007.mIT-rdm", "Kriegeskorte2008.hIT-rdm"],
    "Coggan2024": [f"tong.Coggan2024_fMRI.{region}-rdm" for region in ("V1", "V2", "V4", "IT")],
    "Geirhos2021": [f"Geirhos2021{dataset}-{kind}" for kind in ("error_consistency", "top1") for dataset in (
        "colour", "contrast", "cueconflict", "edge", "eidolonI", "eidolonII", "eidolonIII", "falsecolour", "highpass",
        "lowpass", "phasescrambling", "powerequalisation", "rotation", "silhouette", "sketch", "stylized",
        "uniformnoise")] + ["Geirhos2021cueconflict-shape_bias"],
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_own_benchmarks_are_listed(family):
    missing = sorted(set(FAMILIES[family]) - set(OWN))
    assert not missing, f"{family}: not registered: {missing}"


@pytest.mark.parametrize("identifier", OWN)
def test_battery(identifier, raw_data_dir):
    benchmark = brainscore_vision.load_benchmark(identifier)
    check_benchmark(benchmark)
    assert benchmark.identifier == identifier
    assert benchmark.bibtex and benchmark.bibtex.lstrip().startswith("@")
    assert benchmark.parent in ("V1", "V2", "V4", "IT", "behavior")
