"""Seeded, bounded fuzzing of brainio's inputs (issue 22, item 5): damaged CSVs, netCDF files and identifiers.

Every case must end in a typed brainio error (or success) whose message names the offending file, and the
``brainio`` command must never print a traceback nor reach its catch-all (exit status 2). CI runs
``BRAINIO_FUZZ_CASES`` cases (default 120); ``nox -s fuzz`` runs 2,000.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import pytest

from brainio import BrainIOError, NeuroidAssembly, ValidationError, read_netcdf, write_netcdf
from brainio.cli import main
from brainio.stimuli import read_stimulus_csv

CASES = int(os.environ.get("BRAINIO_FUZZ_CASES", "120"))
SEED = 20261124


def _good_csv(count: int = 4) -> bytes:
    rows = "".join(f"s{i},im{i}.png,c{i % 2}\n" for i in range(count))
    return ("stimulus_id,filename,category\n" + rows).encode()


def _good_nc(folder: Path) -> bytes:
    assembly = NeuroidAssembly(
        np.arange(12.0).reshape(4, 3),
        coords={"stimulus_id": ("presentation", [f"s{i}" for i in range(4)]),
                "repetition": ("presentation", [0] * 4),
                "neuroid_id": ("neuroid", ["n0", "n1", "n2"]), "region": ("neuroid", ["IT"] * 3)},
        dims=["presentation", "neuroid"])
    write_netcdf(assembly, folder / "good.nc")
    return (folder / "good.nc").read_bytes()


def _mutate(data: bytes, rng: random.Random) -> bytes:
    data = bytearray(data)
    kind = rng.choice(["flip", "block", "truncate", "insert", "encoding", "empty"])
    if kind == "flip":
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
    elif kind == "block":
        start = rng.randrange(len(data))
        data[start:start + rng.randint(4, 256)] = bytes(rng.randrange(256) for _ in range(rng.randint(4, 64)))
    elif kind == "truncate":
        del data[rng.randrange(len(data)):]
    elif kind == "insert":
        position = rng.randrange(len(data))
        data[position:position] = rng.choice([b'"', b",,,", b"\n\n", b"\x00", b"\xff\xfe", b"../../etc/passwd",
                                              b"\r", "é".encode("latin-1")])
    elif kind == "encoding":
        data = bytearray(data.decode("latin-1").encode("utf-16"))
    else:
        data = bytearray()
    return bytes(data)


def _cases(folder: Path):
    rng = random.Random(SEED)
    csv, nc = _good_csv(), _good_nc(folder)
    for index in range(CASES):
        if index % 2 == 0:
            yield index, "csv", _mutate(csv, rng)
        else:
            yield index, "nc", _mutate(nc, rng)


def test_fuzzed_inputs_give_typed_errors_naming_the_file(tmp_path, image_dir, capsys):
    untyped, unnamed, tracebacks = [], [], []
    for index, kind, data in _cases(tmp_path):
        path = tmp_path / f"case{index}.{kind}"
        path.write_bytes(data)
        try:  # the API
            read_stimulus_csv(path) if kind == "csv" else read_netcdf(path, timeout=30)
        except BrainIOError as error:
            if path.name not in str(error):
                unnamed.append((path.name, str(error)[:200]))
        except Exception as error:
            untyped.append((path.name, f"{type(error).__name__}: {str(error)[:200]}"))
        flag = ["--csv", str(path), "--stimuli-dir", str(image_dir)] if kind == "csv" else ["--nc", str(path)]
        status = main(["validate", *flag])  # the command line
        out, err = capsys.readouterr()
        if status == 2 or "Traceback" in err:
            tracebacks.append((path.name, err[-300:]))
        elif status == 1 and any(path.name not in line for line in (out + err).splitlines() if line.strip()):
            unnamed.append((path.name, (out + err)[:300]))
    assert untyped == []
    assert tracebacks == []
    assert unnamed == []


def test_fifo_that_would_block_forever_ends_with_a_typed_error(tmp_path):
    """A named pipe blocks the HDF5 library's open() in C: the probe in a child process must end it."""
    fifo = tmp_path / "stuck.nc"
    os.mkfifo(fifo)
    with pytest.raises(BrainIOError, match="stuck.nc"):
        read_netcdf(fifo, timeout=2)


def test_hanging_open_is_killed_after_the_timeout(tmp_path, monkeypatch):
    """A child that never returns (as h5py does on some damaged dimension scales) is killed at the timeout.

    The child waits without using CPU: a busy loop also reaches its CPU limit (as long as the timeout) and then either
    of the two ends could come first (that case: ``test_probe_child.py``, "used its 1 s of CPU time")."""
    import brainio.netcdf as netcdf

    path = tmp_path / "a.nc"
    path.write_bytes(_good_nc(tmp_path))
    monkeypatch.setattr(netcdf, "_PROBE", "import time; time.sleep(600)")
    with pytest.raises(BrainIOError, match=r"a.nc: opening it did not finish within 1 s"):
        read_netcdf(path, timeout=1)


@pytest.mark.parametrize("stimulus_id", ["../../x", "/etc/passwd", "a/../../b", "C:evil", "dir\\file", ""])
def test_unsafe_stimulus_ids_are_refused_at_packaging(tmp_path, image_dir, stimulus_id):
    from brainio import StimulusSet, package_stimulus_set_locally

    stimulus_set = StimulusSet({"stimulus_id": ["fine", stimulus_id]})
    stimulus_set.stimulus_paths = {"fine": image_dir / "im0.png", stimulus_id: image_dir / "im1.png"}
    with pytest.raises(ValidationError, match="unsafe"):
        package_stimulus_set_locally(stimulus_set, "Unsafe", downloads_path=tmp_path / "out")
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []


def test_unsafe_path_within_store_is_refused(tmp_path, image_dir):
    from brainio import StimulusSet, package_stimulus_set_locally

    stimulus_set = StimulusSet({"stimulus_id": ["a"], "stimulus_path_within_store": ["../../outside"]})
    stimulus_set.stimulus_paths = {"a": image_dir / "im0.png"}
    with pytest.raises(ValidationError, match="stimulus_path_within_store.*outside"):
        package_stimulus_set_locally(stimulus_set, "Unsafe", downloads_path=tmp_path / "out")


def test_cli_refuses_files_outside_the_stimuli_dir(tmp_path, image_dir, capsys):
    outside = tmp_path / "secret.png"
    outside.write_bytes((image_dir / "im0.png").read_bytes())
    csv = tmp_path / "s.csv"
    csv.write_text(f"stimulus_id,filename\na,im1.png\nb,../secret.png\nc,{outside}\n")
    arguments = ["package", "--csv", str(csv), "--stimuli-dir", str(image_dir), "--identifier", "Out",
                 "--output", str(tmp_path / "out")]
    assert main(arguments) == 1
    err = capsys.readouterr().err
    assert "row 3: '../secret.png'" in err and f"row 4: '{outside}'" in err and "--allow-outside" in err
    assert not (tmp_path / "out").exists()
    assert main([*arguments, "--allow-outside"]) == 0


def test_identifiers_sharing_file_names_never_overwrite_silently(tmp_path, image_dir):
    """``Lab.v1`` and ``Lab_v1`` map to the same file names; the second package is refused, not written."""
    from brainio import StimulusSet, package_stimulus_set_locally, sha1_hash

    def stimuli(files):
        stimulus_set = StimulusSet({"stimulus_id": [f"s{i}" for i in range(len(files))]})
        stimulus_set.stimulus_paths = {f"s{i}": image_dir / name for i, name in enumerate(files)}
        return stimulus_set

    out = tmp_path / "out"
    first = package_stimulus_set_locally(stimuli(["im0.png", "im1.png"]), "Lab.v1", downloads_path=out)
    again = package_stimulus_set_locally(stimuli(["im0.png", "im1.png"]), "Lab.v1", downloads_path=out)
    assert again["zip_sha1"] == first["zip_sha1"]  # same content: packaging twice is fine
    with pytest.raises(ValidationError, match="stimulus_Lab_v1.csv already exists with different content"):
        package_stimulus_set_locally(stimuli(["im2.png"]), "Lab_v1", downloads_path=out)
    from brainio.packaging import zip_identifier

    assert zip_identifier(first["zip_path"]) == "Lab.v1"  # the identifier is recorded inside the package
    assert sha1_hash(first["csv_path"]) == first["csv_sha1"] and sha1_hash(first["zip_path"]) == first["zip_sha1"]
    replaced = package_stimulus_set_locally(stimuli(["im2.png"]), "Lab_v1", downloads_path=out, overwrite=True)
    assert replaced["zip_sha1"] != first["zip_sha1"]


def test_assembly_overwrite_is_refused_and_identifier_recorded(tmp_path, neuroid_assembly):
    import pandas as pd

    from brainio import package_data_assembly_locally

    stimulus_set = pd.DataFrame({"stimulus_id": np.unique(neuroid_assembly["stimulus_id"].values)})
    first = package_data_assembly_locally(neuroid_assembly, "Lab.v1", "Lab.v1", downloads_path=tmp_path,
                                          stimulus_set=stimulus_set)
    assert read_netcdf(first["path"]).attrs["identifier"] == "Lab.v1"
    changed = neuroid_assembly.copy(deep=True)
    changed.values[...] += 1
    with pytest.raises(ValidationError, match="assy_Lab_v1.nc already exists .*the package of 'Lab.v1'"):
        package_data_assembly_locally(changed, "Lab_v1", "Lab.v1", downloads_path=tmp_path, stimulus_set=stimulus_set)
    assert read_netcdf(first["path"]).attrs["identifier"] == "Lab.v1"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]
