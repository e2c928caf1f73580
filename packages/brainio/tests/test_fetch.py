import multiprocessing
import os
import shutil
import zipfile
from pathlib import Path

import numpy as np
import pytest

from brainio import (
    LocalStore,
    NeuroidAssembly,
    PropertyAssembly,
    Sha1MismatchError,
    StoreKeyError,
    UnsafeArchiveError,
    assert_assemblies_equal,
    load_assembly,
    load_stimulus_set,
    package_data_assembly_locally,
    package_stimulus_set_locally,
    sha1_hash,
)
from brainio.cache import fetch_verified
from brainio.skipping import import_or_skip
from brainio.stimulus_cache import extract_zip


def _tree(folder: Path) -> set:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*")
            if ".locks" not in p.relative_to(folder).parts} if folder.exists() else set()


@pytest.fixture
def packaged(tmp_path, stimulus_set, neuroid_assembly):
    store_dir = tmp_path / "store"
    stimuli = package_stimulus_set_locally(stimulus_set, "Test.stimuli", downloads_path=store_dir)
    assembly = package_data_assembly_locally(neuroid_assembly, "Test.neural", "Test.stimuli", "NeuroidAssembly",
                                             downloads_path=store_dir)
    return LocalStore(store_dir), stimuli, assembly


def _load_stimuli(store, stimuli):
    return load_stimulus_set("Test.stimuli", store, csv_sha1=stimuli["csv_sha1"], zip_sha1=stimuli["zip_sha1"])


def test_load_from_local_store(packaged, stimulus_set, neuroid_assembly, brainio_home):
    store, stimuli, assembly = packaged
    loaded_set = _load_stimuli(store, stimuli)
    assert loaded_set.identifier == "Test.stimuli"
    assert loaded_set["stimulus_id"].tolist() == stimulus_set["stimulus_id"].tolist()
    assert loaded_set["category"].tolist() == stimulus_set["category"].tolist()
    for sid in loaded_set["stimulus_id"]:
        path = Path(loaded_set.get_stimulus(sid))
        # cache layout: $BRAINIO_HOME/<zip sha1>/<zip name without .zip>/<file>
        assert path.parent == brainio_home / stimuli["zip_sha1"] / "stimulus_Test_stimuli"
        assert sha1_hash(path) == sha1_hash(stimulus_set.get_stimulus(sid))
    assert (brainio_home / stimuli["csv_sha1"] / "stimulus_Test_stimuli.csv").is_file()
    loaded = load_assembly("Test.neural", store, sha1=assembly["sha1"], cls=NeuroidAssembly,
                           stimulus_set_loader=lambda: _load_stimuli(store, stimuli))
    assert isinstance(loaded, NeuroidAssembly)
    assert loaded.attrs["identifier"] == "Test.neural"
    assert loaded.attrs["stimulus_set_identifier"] == "Test.stimuli"
    assert loaded.stimulus_set.identifier == "Test.stimuli"
    # stimulus-set columns joined onto presentation by stimulus_id
    assert loaded["category"].values.tolist() == ["face", "face", "car", "car"] * 2
    assert loaded["size"].values.tolist() == [0.0, 1.0, 2.0, 3.0] * 2
    assert_assemblies_equal(neuroid_assembly, loaded.drop_vars(["category", "size", "filename"]))


def test_property_assembly_is_not_joined(tmp_path, stimulus_set):
    prop = PropertyAssembly(np.arange(4.0), coords={"stimulus_id": ("presentation", ["s0", "s1", "s2", "s3"])},
                            dims=["presentation"])
    package_stimulus_set_locally(stimulus_set, "Test.stimuli", downloads_path=tmp_path)
    info = package_data_assembly_locally(prop, "Prop", "Test.stimuli", "PropertyAssembly", downloads_path=tmp_path)
    loaded = load_assembly("Prop", LocalStore(tmp_path), info["sha1"], "PropertyAssembly",
                           stimulus_set_loader=lambda: stimulus_set)
    assert "category" not in loaded.coords and loaded.stimulus_set is stimulus_set


def test_wrong_sha1_raises_and_leaves_cache_unchanged(packaged, brainio_home):
    store, stimuli, assembly = packaged
    before = _tree(brainio_home)
    wrong = "0" * 40
    with pytest.raises(Sha1MismatchError, match=f"expected {wrong}"):
        load_assembly("Test.neural", store, sha1=wrong, cls=NeuroidAssembly)
    assert _tree(brainio_home) == before


def test_missing_key_raises_and_leaves_cache_unchanged(packaged, brainio_home):
    store, _, _ = packaged
    with pytest.raises(StoreKeyError, match="assy_Nope.nc"):
        load_assembly("Nope", store, sha1="1" * 40, cls=NeuroidAssembly)
    assert _tree(brainio_home) == set()


def test_corrupted_cache_file_is_detected_and_downloaded_again(packaged, brainio_home):
    store, _, assembly = packaged
    first = load_assembly("Test.neural", store, sha1=assembly["sha1"], cls=NeuroidAssembly)
    cached = brainio_home / assembly["sha1"] / "assy_Test_neural.nc"
    data = bytearray(cached.read_bytes())
    data[len(data) // 2] ^= 0xFF  # same size, one flipped byte
    cached.write_bytes(bytes(data))
    assert sha1_hash(cached) != assembly["sha1"]
    again = load_assembly("Test.neural", store, sha1=assembly["sha1"], cls=NeuroidAssembly)
    assert sha1_hash(cached) == assembly["sha1"]
    assert_assemblies_equal(first, again)


def test_corrupted_cache_with_a_bad_store_raises(packaged, brainio_home, tmp_path):
    store, _, assembly = packaged
    load_assembly("Test.neural", store, sha1=assembly["sha1"], cls=NeuroidAssembly)
    cached = brainio_home / assembly["sha1"] / "assy_Test_neural.nc"
    cached.write_bytes(b"corrupt")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "assy_Test_neural.nc").write_bytes(b"also corrupt")
    with pytest.raises(Sha1MismatchError):
        load_assembly("Test.neural", LocalStore(broken), sha1=assembly["sha1"], cls=NeuroidAssembly)
    assert not cached.exists()  # the bad file is never left for a later load


def test_verified_marker_skips_rehash_until_file_changes(packaged, brainio_home, monkeypatch):
    store, _, assembly = packaged
    load_assembly("Test.neural", store, sha1=assembly["sha1"], cls=NeuroidAssembly)
    import json

    import brainio.cache as cache

    calls = []
    original = cache.sha1_hash
    monkeypatch.setattr(cache, "sha1_hash", lambda path: calls.append(path) or original(path))
    cached = brainio_home / assembly["sha1"] / "assy_Test_neural.nc"
    old = cached.stat().st_mtime_ns - 60 * 10**9
    os.utime(cached, ns=(old, old))  # the stamp changed: hashed once, then the marker holds the new stamp
    fetch_verified(store, "assy_Test_neural.nc", assembly["sha1"])
    assert calls == [cached]
    fetch_verified(store, "assy_Test_neural.nc", assembly["sha1"])
    assert calls == [cached]  # marker (size, mtime, ctime) matched, and the file is not racily clean
    marker = cached.with_name(cached.name + ".verified")
    record = json.loads(marker.read_text())
    marker.write_text(json.dumps({**record, "recorded_ns": old + 1}))  # stamped in the same clock tick
    fetch_verified(store, "assy_Test_neural.nc", assembly["sha1"])
    assert calls == [cached, cached]  # racily clean: the stamp alone is not trusted


def test_tampered_extraction_folder_is_extracted_again(packaged, brainio_home):
    store, stimuli, _ = packaged
    first = _load_stimuli(store, stimuli)
    Path(first.get_stimulus("s1")).unlink()
    second = _load_stimuli(store, stimuli)
    assert Path(second.get_stimulus("s1")).is_file()


def test_zip_slip_is_refused(tmp_path, brainio_home):
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("fine.png", b"x")
        z.writestr("../escape.png", b"x")
    with pytest.raises(UnsafeArchiveError, match="escape.png"):
        extract_zip(archive, tmp_path / "target", home=brainio_home)
    assert not (tmp_path / "target").exists() and not (tmp_path / "escape.png").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []
    absolute = tmp_path / "abs.zip"
    with zipfile.ZipFile(absolute, "w") as z:
        z.writestr("/etc/evil", b"x")
    with pytest.raises(UnsafeArchiveError):
        extract_zip(absolute, tmp_path / "target2", home=brainio_home)


class _SlowStore:
    """Copies a file in small pieces, so that two processes overlap while downloading."""

    def __init__(self, directory):
        self.directory = Path(directory)

    def download(self, key, target, version_id=None):
        import time

        data = (self.directory / key).read_bytes()
        with open(target, "wb") as file:
            for start in range(0, len(data), 1024):
                file.write(data[start:start + 1024])
                file.flush()
                time.sleep(0.001)

    def upload(self, source, key):
        raise NotImplementedError


def _fetch_in_process(directory, key, sha1, home, queue):
    os.environ["BRAINIO_HOME"] = home
    path = fetch_verified(_SlowStore(directory), key, sha1)
    queue.put((str(path), sha1_hash(path)))


def test_two_processes_fetching_the_same_file(tmp_path, brainio_home):
    store_dir = tmp_path / "store"
    store_dir.mkdir()
    payload = np.random.default_rng(0).bytes(200_000)
    (store_dir / "big.bin").write_bytes(payload)
    sha1 = sha1_hash(store_dir / "big.bin")
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    processes = [context.Process(target=_fetch_in_process, args=(str(store_dir), "big.bin", sha1,
                                                                 str(brainio_home), queue)) for _ in range(2)]
    for process in processes:
        process.start()
    results = [queue.get(timeout=120) for _ in processes]
    for process in processes:
        process.join(timeout=120)
        assert process.exitcode == 0
    assert results[0] == results[1] == (str(brainio_home / sha1 / "big.bin"), sha1)
    assert sorted(p.name for p in (brainio_home / sha1).iterdir()) == ["big.bin", "big.bin.verified"]
    shutil.rmtree(store_dir)


def test_nested_zip_entries_load(tmp_path, stimulus_set):
    nested = stimulus_set.assign(stimulus_path_within_store=[f"group{i % 2}/img{i}" for i in range(4)])
    info = package_stimulus_set_locally(nested, "Nested", downloads_path=tmp_path)
    loaded = load_stimulus_set("Nested", LocalStore(tmp_path), info["csv_sha1"], info["zip_sha1"])
    assert Path(loaded.get_stimulus("s3")).relative_to(Path(loaded.get_stimulus("s3")).parents[1]).as_posix() == \
        "group1/img3.png"
    assert sha1_hash(loaded.get_stimulus("s3")) == sha1_hash(stimulus_set.get_stimulus("s3"))


def test_open_store_by_location(tmp_path):
    from brainio.stores import open_store

    assert isinstance(open_store(str(tmp_path)), LocalStore)
    local = open_store(f"file://{tmp_path}")
    assert isinstance(local, LocalStore) and local.directory == tmp_path
    with pytest.raises(ValueError, match="no store for scheme 'gopher'"):
        open_store("gopher://x")


def test_open_store_s3():
    import_or_skip("boto3", extra="brainio[s3]")
    from brainio.stores import S3Store, open_store

    store = open_store("s3://bucket/folder/sub")
    assert isinstance(store, S3Store) and store.bucket_name == "bucket"
    assert store.object_key("a.nc") == "folder/sub/a.nc"


def test_local_store_expands_the_home_folder(tmp_path, monkeypatch):
    """The README's ``LocalStore('~/Downloads/brainscore_packages')``: ``~`` means the home folder."""
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "packages").mkdir()
    (tmp_path / "packages" / "a.csv").write_text("x")
    store = LocalStore("~/packages")
    assert store.directory == tmp_path / "packages"
    store.download("a.csv", tmp_path / "copy.csv")
    assert (tmp_path / "copy.csv").read_text() == "x"
