"""Extracted stimulus folders stay what their archive holds (issue 22, items 1, 4 and 9).

Expected contents come from the original image files (their SHA-1 computed here with hashlib), never from
the cache under test.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import time
from pathlib import Path

import pandas as pd
import pytest

from brainio import LocalStore, StimulusSet, load_stimulus_set, package_stimulus_set_locally
from brainio.stimulus_cache.extraction import manifest_path, sweep_stale_temporaries


def _sha1(path) -> str:
    return hashlib.sha1(Path(path).read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def kriegeskorte(raw_data_dir, tmp_path_factory):
    """The first 12 real Kriegeskorte 2008 images, packaged with brainio into a LocalStore."""
    folder = raw_data_dir / "kriegeskorte2008"
    frame = pd.read_csv(folder / "stimuli.csv", dtype={"stimulus_id": str}).head(12)
    stimulus_set = StimulusSet(frame.rename(columns={"filename": "image_filename"}))
    stimulus_set.stimulus_paths = {sid: folder / name for sid, name in zip(frame["stimulus_id"], frame["filename"])}
    out = tmp_path_factory.mktemp("store")
    info = package_stimulus_set_locally(stimulus_set, "Kriegeskorte2008.first12", downloads_path=out)
    originals = {sid: _sha1(path) for sid, path in stimulus_set.stimulus_paths.items()}
    return str(out), info, originals


def _load(store_dir: str, info: dict) -> StimulusSet:
    return load_stimulus_set("Kriegeskorte2008.first12", LocalStore(store_dir), csv_sha1=info["csv_sha1"],
                             zip_sha1=info["zip_sha1"])


def _age(path: Path, seconds: float) -> None:
    old = time.time() - seconds
    os.utime(path, (old, old))


def test_replaced_image_is_detected_and_restored(kriegeskorte):
    """The issue's case: one cached image replaced by another valid PNG of the same set."""
    store_dir, info, originals = kriegeskorte
    loaded = _load(store_dir, info)
    victim, donor = Path(loaded.get_stimulus("k92_001")), Path(loaded.get_stimulus("k92_002"))
    victim.write_bytes(donor.read_bytes())
    again = _load(store_dir, info)
    assert _sha1(again.get_stimulus("k92_001")) == originals["k92_001"]


@pytest.mark.parametrize("keep_mtime", [False, True])
def test_every_member_is_checked_even_with_old_stamps(kriegeskorte, keep_mtime):
    """Stamps that are no longer racily clean are trusted only while (size, mtime, ctime) all match: a change
    of content that restores size and mtime still changes ctime."""
    store_dir, info, originals = kriegeskorte
    loaded = _load(store_dir, info)
    folder = Path(loaded.get_stimulus("k92_003")).parent
    for path in folder.iterdir():
        _age(path, 3600)
    _load(store_dir, info)  # re-stamps the aged files: clean from now on
    victim = Path(loaded.get_stimulus("k92_003"))
    status = victim.stat()
    data = bytearray(victim.read_bytes())
    data[-20] ^= 0xFF  # same size, different bytes
    victim.write_bytes(bytes(data))
    if keep_mtime:
        os.utime(victim, ns=(status.st_atime_ns, status.st_mtime_ns))
    _load(store_dir, info)
    assert _sha1(victim) == originals["k92_003"]


def test_racily_clean_file_is_hashed(kriegeskorte, monkeypatch):
    """A file whose stamp was recorded within the racy window is hashed although its stamp matches."""
    store_dir, info, _ = kriegeskorte
    loaded = _load(store_dir, info)
    folder = Path(loaded.get_stimulus("k92_004")).parent
    record = json.loads(manifest_path(folder).read_text())
    assert set(record["members"]) == {Path(p).name for p in loaded.stimulus_paths.values()}
    import brainio.stimulus_cache.extraction as extraction

    hashed = []
    original = extraction.sha1_hash  # the shared brainio.files.sha1_hash, as extraction imported it
    monkeypatch.setattr(extraction, "sha1_hash", lambda path: hashed.append(Path(path).name) or original(path))
    for path in folder.iterdir():
        _age(path, 3600)
    _load(store_dir, info)
    assert len(hashed) == 12  # stamps changed: every file hashed once, then re-stamped
    hashed.clear()
    _load(store_dir, info)
    assert hashed == []  # stamps match and are old: trusted
    record = json.loads(manifest_path(folder).read_text())
    record["recorded_ns"] = record["members"]["k92_004.png"]["mtime_ns"] + 1  # stamped in the same tick
    record["digest"] = extraction._content_digest(record["members"], record["recorded_ns"])
    manifest_path(folder).write_text(json.dumps(record))
    _load(store_dir, info)
    assert len(hashed) == 12  # all were aged within 2 s of each other: racily clean, so hashed
    hashed.clear()
    manifest_path(folder).write_text(json.dumps({**record, "recorded_ns": record["recorded_ns"] + 5}))
    _load(store_dir, info)
    assert len(hashed) == 12  # a manifest that fails its own digest is not trusted either


def test_stray_files_are_left_alone(kriegeskorte):
    store_dir, info, originals = kriegeskorte
    loaded = _load(store_dir, info)
    folder = Path(loaded.get_stimulus("k92_001")).parent
    stray = folder / ".DS_Store"
    stray.write_bytes(b"finder")
    inode = Path(loaded.get_stimulus("k92_005")).stat().st_ino
    again = _load(store_dir, info)
    assert stray.read_bytes() == b"finder"
    assert Path(again.get_stimulus("k92_005")).stat().st_ino == inode  # nothing was extracted again
    assert {sid: _sha1(p) for sid, p in again.stimulus_paths.items()} == originals


def test_damaged_manifest_is_rebuilt_with_a_warning(kriegeskorte, caplog):
    store_dir, info, originals = kriegeskorte
    loaded = _load(store_dir, info)
    folder = Path(loaded.get_stimulus("k92_001")).parent
    manifest_path(folder).write_text('{"format": 1, "members": ')
    Path(loaded.get_stimulus("k92_006")).write_bytes(b"damaged")
    again = _load(store_dir, info)
    assert "is damaged" in caplog.text
    assert {sid: _sha1(p) for sid, p in again.stimulus_paths.items()} == originals
    assert json.loads(manifest_path(folder).read_text())["members"]["k92_006.png"]["sha1"] == originals["k92_006"]


def test_leftovers_of_killed_runs_are_removed(kriegeskorte, brainio_home):
    store_dir, info, _ = kriegeskorte
    loaded = _load(store_dir, info)
    folder = Path(loaded.get_stimulus("k92_001")).parent
    member_temp = folder / ".k92_001.png.abc123.part"
    member_temp.write_bytes(b"partial")
    extraction_temp = folder.parent / f".{folder.name}.xyz789.part"
    extraction_temp.mkdir()
    (extraction_temp / "k92_001.png").write_bytes(b"partial")
    _load(store_dir, info)
    assert not member_temp.exists() and not extraction_temp.exists()
    # elsewhere in the cache: only temporaries older than an hour go
    other = brainio_home / ("0" * 40)
    other.mkdir()
    fresh, stale = other / ".x.nc.fresh1.part", other / ".y.nc.stale1.part"
    fresh.write_bytes(b"1")
    stale.write_bytes(b"1")
    _age(stale, 7200)
    assert sweep_stale_temporaries(brainio_home) == [stale]
    assert fresh.exists() and not stale.exists()


def test_archive_without_stimulus_file_names_the_set(tmp_path, brainio_home):
    import zipfile

    from brainio import ValidationError

    (tmp_path / "store").mkdir()
    pd.DataFrame({"stimulus_id": ["a", "b"], "filename": ["a.png", "b.png"]}).to_csv(
        tmp_path / "store" / "stimulus_Broken.csv", index=False)
    with zipfile.ZipFile(tmp_path / "store" / "stimulus_Broken.zip", "w") as archive:
        archive.writestr("a.png", b"only a")
    with pytest.raises(ValidationError, match="'Broken'.*1 stimulus files .*b.png"):
        load_stimulus_set("Broken", LocalStore(tmp_path / "store"), csv_sha1=_sha1(tmp_path / "store" /
                          "stimulus_Broken.csv"), zip_sha1=_sha1(tmp_path / "store" / "stimulus_Broken.zip"))


def _load_and_read(store_dir: str, info: dict, rounds: int, damage: bool, home: str, queue) -> None:
    os.environ["BRAINIO_HOME"] = home
    failures = []
    for index in range(rounds):
        try:
            loaded = _load(store_dir, info)
            paths = list(loaded.stimulus_paths.values())
            if damage:  # changed content and stray files: the repairs race the readers
                Path(paths[index % len(paths)]).write_bytes(b"damaged")
                Path(paths[0]).with_name(".DS_Store").write_bytes(b"x")
            else:
                for path in paths:  # every path handed out must stay readable
                    Path(path).read_bytes()
        except Exception as error:
            failures.append(f"{type(error).__name__}: {error}")
    queue.put(failures)


def test_concurrent_loads_while_another_process_damages_files(kriegeskorte, brainio_home):
    """4 reader processes and 1 damaging process, 20 loads each: no load fails, no returned path vanishes."""
    store_dir, info, originals = kriegeskorte
    _load(store_dir, info)
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    workers = [context.Process(target=_load_and_read, args=(store_dir, info, 20, i == 0, str(brainio_home), queue))
               for i in range(5)]
    for worker in workers:
        worker.start()
    failures = [failure for _ in workers for failure in queue.get(timeout=300)]
    for worker in workers:
        worker.join(timeout=60)
    assert failures == []
    final = _load(store_dir, info)
    assert {sid: _sha1(p) for sid, p in final.stimulus_paths.items()} == originals


# --- the stimulus-caching room (issue 32): the verified-extraction marker and the set's digest table -------------


def _settled(store_dir: str, info: dict) -> StimulusSet:
    """A load after the extracted files were aged out of the racy window and re-stamped: the next load is warm."""
    loaded = _load(store_dir, info)
    for path in loaded.stimulus_paths.values():
        _age(Path(path), 3600)
    return _load(store_dir, info)


def test_a_warm_load_opens_no_archive_and_still_sees_a_replaced_image(kriegeskorte, monkeypatch):
    import brainio.stimulus_cache.extraction as extraction

    store_dir, info, originals = kriegeskorte
    loaded = _settled(store_dir, info)
    opened = []
    original_open = extraction.open_archive
    monkeypatch.setattr(extraction, "open_archive", lambda path: opened.append(path) or original_open(path))
    _load(store_dir, info)
    assert opened == []  # the manifest (the marker) names this archive and every stamp matches
    victim = Path(loaded.get_stimulus("k92_007"))
    victim.write_bytes(Path(loaded.get_stimulus("k92_008")).read_bytes())
    _load(store_dir, info)
    assert len(opened) == 1 and _sha1(victim) == originals["k92_007"]  # the stamp differed: full check, restored


def test_the_loaded_set_carries_the_sha1_of_every_file(kriegeskorte, monkeypatch):
    """content_digests reads the table recorded at extraction: equal to hashlib over the original images, and no
    image is hashed (the per-file fallback is made to fail)."""
    import brainio.stimulus_cache.digests as digests
    from brainio.stimulus_cache import ExtractedPaths, content_digests

    store_dir, info, originals = kriegeskorte
    loaded = _settled(store_dir, info)
    assert isinstance(loaded.stimulus_paths, ExtractedPaths)
    monkeypatch.setattr(digests, "remembered_sha1_hash", lambda path: pytest.fail(f"{path} was hashed"))
    ids = loaded["stimulus_id"].tolist()
    assert content_digests(loaded).tolist() == [originals[sid] for sid in ids]
    subset = loaded[loaded["stimulus_id"].isin(ids[3:7])].copy()  # slicing and copying keep the table
    assert isinstance(subset.stimulus_paths, ExtractedPaths)
    assert content_digests(subset, ids[6:2:-1]).tolist() == [originals[sid] for sid in ids[6:2:-1]]


def test_a_changed_path_is_hashed_from_its_file(kriegeskorte):
    import pickle  # only to check the object survives a transfer to a worker process, nothing is stored

    from brainio.stimulus_cache import content_digests

    store_dir, info, originals = kriegeskorte
    loaded = _load(store_dir, info)
    loaded.stimulus_paths["k92_001"] = loaded.stimulus_paths["k92_002"]
    assert content_digests(loaded, ["k92_001", "k92_003"]).tolist() == [originals["k92_002"], originals["k92_003"]]
    moved = pickle.loads(pickle.dumps(loaded.stimulus_paths))
    assert moved.content_digests(["k92_001", "k92_003"]).tolist() == [None, originals["k92_003"]]
    loaded.stimulus_paths.update({"k92_004": loaded.stimulus_paths["k92_005"]})  # any bulk change: all hashed
    assert content_digests(loaded, ["k92_004"]).tolist() == [originals["k92_005"]]
    with pytest.raises(KeyError, match="'nope'.*Kriegeskorte2008.first12"):
        content_digests(loaded, ["nope"])


def test_a_format_1_manifest_is_read_and_rewritten(kriegeskorte, caplog):
    """Manifests written before the archive stamp: checked the full way (no 'damaged' warning), then format 2."""
    import brainio.stimulus_cache.extraction as extraction

    store_dir, info, originals = kriegeskorte
    folder = Path(_load(store_dir, info).get_stimulus("k92_001")).parent
    record = json.loads(manifest_path(folder).read_text())
    old = {"format": 1, "members": record["members"], "recorded_ns": record["recorded_ns"],
           "digest": extraction._content_digest(record["members"], record["recorded_ns"], None, 1)}
    manifest_path(folder).write_text(json.dumps(old))
    again = _load(store_dir, info)
    assert "damaged" not in caplog.text
    assert json.loads(manifest_path(folder).read_text())["format"] == 2
    assert {sid: _sha1(p) for sid, p in again.stimulus_paths.items()} == originals
