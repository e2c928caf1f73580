"""Issue 41, finding 3 (model-tools' side): an activations cache record is never trusted to point outside the cache."""

from __future__ import annotations

import logging
import os
import shutil

import h5py
import numpy as np
import pytest
from _counting import ForwardCounter

from brainio.records import read_record, write_record
from model_tools.activations import ActivationsExtractor, ImagePreprocessing
from model_tools.activations.cache import default_cache_root

pytestmark = pytest.mark.security


@pytest.mark.parametrize("form", ["relative", "absolute"])
def test_a_record_naming_a_file_outside_the_cache_is_a_miss_and_the_model_runs(tiny_net, image_files, tmp_path,
                                                                                 caplog, form):
    """Before: an index entry naming ``../../outside/planted.nc`` (or an absolute path) was read as the model's
    activations, and no forward pass ran."""
    counter = ForwardCounter(tiny_net)
    extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), batch_size=10)
    honest = np.array(extractor(image_files, ["1", "logits"]).values)  # a copy: the result maps the entry file
    assert counter.calls == 1
    root = default_cache_root()
    (entry,) = sorted((root / "entries").rglob("*.nc"))
    planted = tmp_path / "outside" / "planted.nc"
    planted.parent.mkdir()
    shutil.move(entry, planted)
    with h5py.File(planted, "r+") as file:  # what an attacker wants the model to have computed
        file["activations"][...] = 7.0
    name = str(planted) if form == "absolute" else os.path.relpath(planted, root)  # ../../outside/planted.nc
    assert (root / name).resolve() == planted.resolve()
    for record_path in [*(root / "index").rglob("*.json"), *(root / "rows").rglob("*.json")]:
        content = read_record(record_path)
        if "entries" in content:
            content["entries"] = [{**item, "entry": name} for item in content["entries"]]
        else:
            content["entry"] = name
        write_record(record_path, content)  # a record with a valid digest: anyone can compute one
    with caplog.at_level(logging.WARNING, logger="model_tools.activations.cache"):
        again = extractor(image_files, ["1", "logits"])
    assert counter.calls == 2  # the forward pass ran
    np.testing.assert_array_equal(again.values, honest)
    assert not np.any(again.values == 7.0)
    assert any(repr(name) in record.getMessage() and str(root) in record.getMessage() for record in caplog.records)
