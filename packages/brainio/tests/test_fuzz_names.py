"""Every error raised while reading a fuzzed file or identifier names it (issue 34, item 4).

The seeded corpus of test_fuzz.py (damaged CSVs and netCDF files) plus damaged stimulus ZIPs goes through every door
that reads them -- ``StimulusSet.from_files``, ``DataAssembly.from_files``, ``load_stimulus_set`` /
``load_assembly`` from a store that serves the damaged file under its own SHA-1 (a bad upload recorded as is),
``brainio package`` -- and a seeded corpus of identifiers (path separators, NUL and other control characters,
lone surrogates, 5,000 characters, ...) goes through packaging and loading. Each must succeed or raise a brainio
error whose message names the file (or the identifier, or the file it maps to); the command line exits 0 or 1.
``BRAINIO_FUZZ_CASES`` sets the size (``nox -s fuzz``: 2,000).
"""

from __future__ import annotations

import contextlib
import random
import re
from functools import partial

import numpy as np
import pandas as pd
import pytest
from test_fuzz import CASES, SEED, _good_nc, _mutate

from brainio import (
    BrainIOError,
    LocalStore,
    NeuroidAssembly,
    StimulusSet,
    load_assembly,
    load_stimulus_set,
    package_data_assembly_locally,
    package_stimulus_set_locally,
    sha1_hash,
)
from brainio.cli import main
from brainio.fetch import assembly_file_name, check_identifier, stimulus_file_stem

DOOR_CASES = max(3, CASES // 8)  # per kind; each netCDF case starts one probe process (~0.4 s)


def _packaged_stimuli(tmp_path, image_dir) -> tuple[bytes, bytes]:
    stimulus_set = StimulusSet({"stimulus_id": [f"s{i}" for i in range(4)], "category": ["a", "b", "a", "b"]})
    stimulus_set.stimulus_paths = {f"s{i}": image_dir / f"im{i}.png" for i in range(4)}
    result = package_stimulus_set_locally(stimulus_set, "Good", downloads_path=tmp_path / "good")
    with open(result["csv_path"], "rb") as csv, open(result["zip_path"], "rb") as archive:
        return csv.read(), archive.read()


def _check(call, names: tuple[str, ...], case: str, failures: dict[str, list]) -> None:
    try:
        call()
    except BrainIOError as error:
        if not any(name in str(error) for name in names):
            failures["unnamed"].append((case, f"{type(error).__name__}: {str(error)[:200]}"))
    except Exception as error:
        failures["untyped"].append((case, f"{type(error).__name__}: {str(error)[:200]}"))


# h5netcdf's File, when its constructor fails on a damaged file, complains from its destructor (AttributeError
# '_writable'); our error has already been raised by then
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_fuzzed_files_name_themselves_through_every_door(tmp_path, image_dir, capsys):
    rng = random.Random(SEED + 1)
    csv, archive = _packaged_stimuli(tmp_path, image_dir)
    sources = {"csv": csv, "zip": archive, "nc": _good_nc(tmp_path)}
    failures: dict[str, list] = {"unnamed": [], "untyped": [], "cli": []}
    for index in range(3 * DOOR_CASES):
        kind = ("csv", "zip", "nc")[index % 3]
        store = tmp_path / f"store{index}"
        store.mkdir()
        files = {"csv": store / "stimulus_Fz.csv", "zip": store / "stimulus_Fz.zip", "nc": store / "assy_Fz.nc"}
        for name, data in sources.items():
            files[name].write_bytes(_mutate(data, rng) if name == kind else data)
        damaged = files[kind]
        case = f"{damaged.name} #{index}"
        names = (damaged.name,)
        if kind == "nc":
            _check(partial(NeuroidAssembly.from_files, damaged), names, case, failures)
            _check(partial(load_assembly, "Fz", LocalStore(store), sha1_hash(damaged), cls=NeuroidAssembly), names,
                   case, failures)
            continue
        _check(partial(load_stimulus_set, "Fz", LocalStore(store), sha1_hash(files["csv"]), sha1_hash(files["zip"])),
               names, case, failures)
        if kind == "csv":
            _check(partial(StimulusSet.from_files, damaged, image_dir), names, case, failures)
            status = main(["package", "--csv", str(damaged), "--stimuli-dir", str(image_dir), "--identifier", "Fz",
                           "--output", str(store / "out")])
            out, err = capsys.readouterr()
            if status not in (0, 1) or "Traceback" in err or (
                    status == 1 and any(damaged.name not in line for line in err.splitlines() if line.strip())):
                failures["cli"].append((case, status, err[-300:]))
    assert failures == {"unnamed": [], "untyped": [], "cli": []}


PIECES = ["", " ", "Lab.v1", "a/b", "../x", "/abs", "a\\b", "a\x00b", "a\nb", "tab\there", "\udcff", "é", "x" * 151,
          "x" * 5000, ".", "..", "c:evil", "%2e%2e", "ok_1"]


def _identifiers(count: int) -> list[str]:
    rng = random.Random(SEED + 2)
    return PIECES + ["".join(rng.choice(PIECES) for _ in range(rng.randint(1, 3))) for _ in range(count)]


def test_fuzzed_identifiers_are_named_by_every_error(tmp_path, image_dir, capsys):
    assembly = NeuroidAssembly(np.zeros((1, 1)), coords={"stimulus_id": ("presentation", ["s0"]),
                                                        "neuroid_id": ("neuroid", ["n0"])},
                               dims=["presentation", "neuroid"])
    ids = pd.DataFrame({"stimulus_id": ["s0"]})
    out, cache_sha1 = tmp_path / "out", "0" * 40
    failures: dict[str, list] = {"unnamed": [], "untyped": [], "cli": []}
    for identifier in _identifiers(CASES // 4):
        stimulus_set = StimulusSet({"stimulus_id": ["s0"]})
        stimulus_set.stimulus_paths = {"s0": image_dir / "im0.png"}
        names = (repr(identifier),)
        with contextlib.suppress(BrainIOError):  # a valid identifier's errors may name the file it maps to
            names += (stimulus_file_stem(identifier), assembly_file_name(identifier))
        doors = [partial(package_stimulus_set_locally, stimulus_set, identifier, downloads_path=out),
                 partial(package_data_assembly_locally, assembly, identifier, identifier, downloads_path=out,
                         stimulus_set=ids),
                 partial(load_stimulus_set, identifier, LocalStore(out), cache_sha1, cache_sha1),
                 partial(load_assembly, identifier, LocalStore(out), cache_sha1, cls=NeuroidAssembly),
                 partial(load_assembly, "Fine", LocalStore(out), identifier)]  # as a recorded SHA-1
        for door in doors:
            _check(door, names, repr(identifier), failures)
        if "\x00" not in identifier and "\udcff" not in identifier:  # not expressible as a command-line argument
            csv = tmp_path / "s.csv"
            csv.write_text("stimulus_id,filename\ns0,im0.png\n")
            status = main(["package", "--csv", str(csv), "--stimuli-dir", str(image_dir), "--identifier", identifier,
                           "--output", str(out)])
            err = capsys.readouterr().err
            if status not in (0, 1) or (status == 1 and not any(name in err for name in names)):
                failures["cli"].append((repr(identifier), status, err[-300:]))
    assert failures == {"unnamed": [], "untyped": [], "cli": []}


@pytest.mark.parametrize(("identifier", "reason"), [
    ("a/b", "path separator"), ("a\\b", "path separator"), ("a\x00b", "control character"),
    ("a\nb", "control character"), ("\udcff", "UTF-8 cannot encode"), ("x" * 151, "151 bytes long (at most 150)"),
    ("", "not a non-empty string"), (None, "not a non-empty string")])
def test_identifiers_that_cannot_name_a_file_are_refused(identifier, reason):
    from brainio import InvalidIdentifierError

    with pytest.raises(InvalidIdentifierError, match=re.escape(reason)) as caught:
        check_identifier(identifier, "stimulus set identifier")
    assert repr(identifier) in str(caught.value)


def test_brain_score_identifiers_are_accepted():
    for identifier in ("dicarlo.MajajHong2015.public", "Geirhos2021colour", "tong.Coggan2024_fMRI",
                       "Marques2020_Ringach2002-or_bandwidth", "Lab v1 (2026)", "é-ü"):
        assert check_identifier(identifier) == identifier
