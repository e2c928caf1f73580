"""Brain-Score's whole benchmark registry is ours: every key brain-score/vision registers at c642dbe (recorded in
``tests/data/brainscore_registry_keys.json`` with how it was read) is a registered benchmark here, under the same
key. Counted independently of our code: the list comes from Brain-Score's source text, not from our registry."""

import json
from pathlib import Path

import brainscore_vision

RECORD = json.loads((Path(__file__).parent / "data" / "brainscore_registry_keys.json").read_text())


def test_the_record_says_where_it_comes_from():
    provenance = RECORD["provenance"]
    assert provenance["commit"] == "c642dbe42aae3ed064bc0b66f70a80b264021164"
    assert provenance["count"] == len(RECORD["keys"]) == len(set(RECORD["keys"])) == 270


def test_every_brainscore_benchmark_key_is_registered_here():
    ours = {info.identifier for info in brainscore_vision.list_plugins("benchmark")
            if info.distribution == "brainscore-vision"}
    missing = sorted(set(RECORD["keys"]) - ours)
    assert not missing, f"{len(missing)} of Brain-Score's benchmarks are not registered: {missing[:20]}"
    # ours beyond Brain-Score's: the families built on the shipped recordings and one extra Geirhos2021 benchmark
    assert sorted(ours - set(RECORD["keys"])) == [
        "Cowley2023.V4-pls", "Cowley2023.V4-ridge", "Geirhos2021cueconflict-shape_bias", "Kiani2007.mIT-rdm",
        "Kriegeskorte2008.hIT-rdm", "MajajHong2015.public.IT-pls", "MajajHong2015.public.V4-pls"]
