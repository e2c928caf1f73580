"""The activation cache as ``brainscore cache`` sees it: a real extraction's entry is found with its model and its
exact size, pruning by model removes it (the next call computes again), and one notice says when the cache passes
the configured size (``model_tools.settings``: option ``cache_notice_gb`` / ``$BRAINSCORE_CACHE_NOTICE_GB``)."""

from __future__ import annotations

import logging

from _counting import ForwardCounter

from brainscore_core.caches import cache_entries, delete_entries, select_for_pruning
from brainscore_core.config import set_options
from model_tools.activations import ActivationsExtractor, ImagePreprocessing
from model_tools.activations.cache import _NOTICED, default_cache_root


def test_a_real_entry_is_listed_with_its_model_and_pruned_by_model(tiny_net, image_files):
    counter = ForwardCounter(tiny_net)
    ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), batch_size=10)(image_files, ["1", "logits"])
    root = default_cache_root()
    (entry,) = cache_entries(["activations"])
    files = sorted(path for path in root.rglob("*") if path.is_file() and path.parent.name != "locks")
    assert entry.model == "tiny" and sorted(entry.paths) == files  # the .nc, its rows file, its index and rows records
    assert entry.size == sum(path.stat().st_size for path in files)
    delete_entries(select_for_pruning(cache_entries(["activations"]), models=["tiny"]))
    assert cache_entries(["activations"]) == []
    ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), batch_size=10)(image_files, ["1", "logits"])
    assert counter.calls == 2  # computed again after pruning, from nothing half-deleted


def test_one_notice_when_the_cache_passes_the_threshold(tiny_net, image_files, caplog):
    _NOTICED.clear()
    extractor = ActivationsExtractor(tiny_net, "tiny", ImagePreprocessing(8), batch_size=10)
    with caplog.at_level(logging.WARNING, logger="model_tools"):
        with set_options(cache_notice_gb=1.0):  # far above this cache: no notice
            extractor(image_files, ["1"])
        assert not caplog.records
        with set_options(cache_notice_gb=1e-9):  # about 1 byte: passed
            extractor(image_files, ["2"])
            extractor(image_files, ["logits"])  # a second new entry: no second notice in this process
    (record,) = caplog.records
    message = record.getMessage()
    assert message.startswith(f"the activation cache {default_cache_root()} holds ") and "\n" not in message
    assert "brainscore cache prune --kind activations --max-size" in message
    _NOTICED.clear()
