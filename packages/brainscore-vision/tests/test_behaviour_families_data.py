"""The 37 benchmarks of Ferguson2024, Malania2007, Islam2021, ImageNet-C and ObjectNet: what ``brainscore list
benchmarks`` says each needs, and each family's catalogue of Brain-Score's files (read from its data plugins) loaded by
reference from a local S3 server."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from _behaviour_standins import STANDINS

import brainscore_vision
from brainio.skipping import import_or_skip
from brainscore_vision.benchmark_data import data_marker, plugin_data_need
from brainscore_vision.data_helpers.public_catalogue import load_assembly_by_reference, read_catalogue

DATA = Path(brainscore_vision.__file__).parent / "data"
CREDENTIALS = "[network: unsigned, then your AWS credentials]"
#: Brain-Score's registry keys per family (benchmarks/<family>/__init__.py at c642dbe4) and the marker of each
FAMILIES = {
    "ferguson2024": (14, lambda key: key.startswith("Ferguson2024") and key.endswith("-value_delta"), CREDENTIALS),
    "malania2007": (10, lambda key: key.startswith("Malania2007."), CREDENTIALS),
    "islam2021": (8, lambda key: key.startswith("Islam2021-"), CREDENTIALS),
    "imagenet_c": (4, lambda key: key.startswith("ImageNet-C-"), "[local: BRAINSCORE_IMAGENET_C_DIR unset]"),
    "objectnet": (1, lambda key: key == "ObjectNet-top1", "[local: BRAINSCORE_OBJECTNET_DIR unset]"),
}
#: (assemblies, stimulus sets) in Brain-Score's data plugins
CATALOGUES = {"ferguson2024": (14, 28), "malania2007": (10, 19), "islam2021": (0, 1), "hendrycks2019": (0, 4),
              "barbumayo2019": (0, 1)}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_key_is_listed_with_what_it_needs(family, monkeypatch):
    monkeypatch.delenv("BRAINSCORE_IMAGENET_C_DIR", raising=False)
    monkeypatch.delenv("BRAINSCORE_OBJECTNET_DIR", raising=False)
    count, member, marker = FAMILIES[family]
    keys = [info.identifier for info in brainscore_vision.list_plugins("benchmark") if member(info.identifier)]
    assert len(keys) == count
    assert {data_marker(key) for key in keys} == {marker}


@pytest.mark.parametrize("family", sorted(CATALOGUES))
def test_catalogues_hold_brainscores_entries_and_register_them(family):
    path = DATA / family / "catalogue.json"
    entries = read_catalogue(path)
    kinds = [kind for kind, _ in entries]
    assert (kinds.count("assembly"), kinds.count("stimulus_set")) == CATALOGUES[family]
    assert "c642dbe42aae3ed064bc0b66f70a80b264021164" in json.loads(path.read_text())["_comment"]
    access = "private" if family == "hendrycks2019" else "unknown"
    for (kind, identifier), entry in entries.items():
        assert entry["access"] == access and entry["bucket"] == "brainscore-storage/brainio-brainscore"
        registry = brainscore_vision.data_registry if kind == "assembly" else brainscore_vision.stimulus_set_registry
        assert identifier in registry
        plugin_kind = "data" if kind == "assembly" else kind
        assert plugin_data_need(plugin_kind, identifier, f"brainscore_vision.data.{family}")[0] == (
            "private" if family == "hendrycks2019" else "credentials")


def test_a_malania_assembly_loads_by_reference(tmp_path, monkeypatch):
    """Brain-Score's key for ``Malania2007.short2`` (``assy_Malania2007_short-2.nc``) on a local S3 server, with the
    test's own bytes and sha1: fetched, verified, read as a PropertyAssembly."""
    import_or_skip("boto3", extra="brainscore-vision[test]")
    import_or_skip("moto.server", extra="brainscore-vision[test]")
    import boto3

    from brainio.assemblies import PropertyAssembly
    from brainio.netcdf import write_netcdf
    from brainio.testing import local_s3_server, s3_test_environment

    thresholds = STANDINS.malania_thresholds("short2")
    assembly = PropertyAssembly(thresholds, coords={"subject": ("subject", list(STANDINS.MALANIA_SUBJECTS))},
                                dims=["subject"])
    sha1 = write_netcdf(assembly, tmp_path / "assy.nc")
    entry = read_catalogue(DATA / "malania2007" / "catalogue.json")[("assembly", "Malania2007.short2")]
    with local_s3_server() as endpoint:
        for name, value in s3_test_environment(endpoint, tmp_path).items():
            monkeypatch.setenv(name, value) if value is not None else monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("BRAINIO_HOME", str(tmp_path / "home"))
        bucket, folder = entry["bucket"].split("/", 1)
        client = boto3.client("s3")
        client.create_bucket(Bucket=bucket)
        client.put_object(Bucket=bucket, Key=entry["key"], Body=(tmp_path / "assy.nc").read_bytes())
        assert entry["key"] == f"{folder}/assy_Malania2007_short-2.nc"
        loaded = load_assembly_by_reference("Malania2007.short2", dict(entry, sha1=sha1))
    assert type(loaded).__name__ == "PropertyAssembly"
    np.testing.assert_array_equal(loaded.values, thresholds)
