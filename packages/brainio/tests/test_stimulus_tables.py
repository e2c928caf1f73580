"""One validation of stimulus tables for ``brainio validate``, ``brainio package``, ``StimulusSet.from_files`` and the
packaging functions (issue 34, item 3).

Each of the harness's refused cases -- a zero-size CSV, NaN stimulus ids, duplicate column names, text where numbers
belong, NUL bytes and 1 MB fields -- is refused by every door, with the file, the column and the row named (rows as
in a spreadsheet: the header is row 1), and ``package`` writes nothing. The expected rows are the lines we wrote.
Every real stimulus table in ``$BRAINSCORE_RAW_DATA`` passes the same check.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from brainio import StimulusSet, ValidationError, package_stimulus_set_locally
from brainio.cli import main
from brainio.validation import MAX_FIELD_CHARS, check_stimulus_set, check_stimulus_table

HEADER = "stimulus_id,filename,size,category\n"
GOOD_ROWS = ["s0,im0.png,1.5,a", "s1,im1.png,2.5,b", "s2,im2.png,3.5,a", "s3,im3.png,4.5,b"]


def _table(rows: list[str], header: str = HEADER) -> bytes:
    return (header + "".join(row + "\n" for row in rows)).encode()


def _replace(row: int, text: str) -> bytes:
    """The good table with data row ``row`` (2 = first data row, as in a spreadsheet) replaced by ``text``."""
    rows = list(GOOD_ROWS)
    rows[row - 2] = text
    return _table(rows)


# case -> (CSV bytes, fragments every refusal must contain)
CASES = {
    "zero-size CSV": (b"", ["is empty (0 bytes)"]),
    "header only": (_table([]), ["has no rows"]),
    "NaN stimulus id": (_replace(3, "NaN,im1.png,2.5,b"), ["column 'stimulus_id'", "missing value", "row 3"]),
    "nan stimulus id": (_replace(4, "nan,im2.png,3.5,a"), ["column 'stimulus_id'", "missing value", "row 4"]),
    "empty stimulus id": (_replace(5, ",im3.png,4.5,b"), ["column 'stimulus_id'", "missing value", "row 5"]),
    "NA file name": (_replace(2, "s0,NA,1.5,a"), ["column 'filename'", "missing value", "row 2"]),
    "duplicate column names": (_table([r + ",x" for r in GOOD_ROWS], "stimulus_id,filename,size,category,size\n"),
                               ["column name 'size' appears 2 times", "columns 3, 5"]),
    "duplicate id columns": (_table(GOOD_ROWS, "stimulus_id,filename,stimulus_id,category\n"),
                             ["column name 'stimulus_id' appears 2 times", "columns 1, 3"]),
    "text among numbers": (_replace(4, "s2,im2.png,abc,a"), ["column 'size'", "not in row 4", "'abc'"]),
    "text in degrees": (_table(["s0,im0.png,8,a", "s1,im1.png,wide,b"], "stimulus_id,filename,degrees,category\n"),
                        ["column 'degrees' must hold numbers", "row 3", "'wide'"]),
    "NUL byte in a value": (_replace(3, "s1,im1.png,2.5,b\x00x"), ["column 'category'", "NUL character", "row 3"]),
    "NUL byte in an id": (_replace(2, "s\x000,im0.png,1.5,a"), ["column 'stimulus_id'", "NUL character", "row 2"]),
    "NUL byte in a column name": (_table(GOOD_ROWS, "stimulus_id,filename,si\x00ze,category\n"),
                                  ["column 3 has a NUL character"]),
    "1 MB field": (_replace(5, "s3,im3.png,4.5," + "x" * (1 << 20)),
                   ["column 'category'", "1,048,576 characters", f"at most {MAX_FIELD_CHARS:,}", "row 5"]),
}


@pytest.fixture(params=sorted(CASES))
def bad_csv(request, tmp_path):
    data, fragments = CASES[request.param]
    path = tmp_path / "bad.csv"
    path.write_bytes(data)
    return path, fragments


def _assert_names_all(text: str, path: Path, fragments: list[str]) -> None:
    assert str(path) in text, text[:500]
    for fragment in fragments:
        assert fragment in text, (fragment, text[:500])


def test_validate_refuses_naming_file_row_and_column(bad_csv, image_dir, capsys):
    path, fragments = bad_csv
    assert main(["validate", "--csv", str(path), "--stimuli-dir", str(image_dir)]) == 1
    out, err = capsys.readouterr()
    assert "ok" not in out.split()
    _assert_names_all(out + err, path, fragments)


def test_package_refuses_and_writes_nothing(bad_csv, image_dir, tmp_path, capsys):
    path, fragments = bad_csv
    out = tmp_path / "out"
    assert main(["package", "--csv", str(path), "--stimuli-dir", str(image_dir), "--identifier", "Bad",
                 "--output", str(out)]) == 1
    _assert_names_all(capsys.readouterr().err, path, fragments)
    assert not out.exists()


def test_from_files_refuses(bad_csv, image_dir):
    path, fragments = bad_csv
    with pytest.raises(ValidationError) as caught:
        StimulusSet.from_files(path, image_dir)
    _assert_names_all(str(caught.value), path, fragments)


# judgements about a table being written, not reader protections: a table that arrives through its author's SHA-1
JUDGEMENTS = {"text among numbers", "text in degrees", "1 MB field"}


def test_a_verified_download_gets_the_protections_but_not_the_judgements(bad_csv, image_dir):
    """``strict=False`` (used by brainio.fetch for SHA-1-verified tables): the cases that protect the reader are
    still refused, naming the file; a published table with a word among numbers still loads, cells unchanged."""
    path, fragments = bad_csv
    case = next(name for name, (data, _) in CASES.items() if data == path.read_bytes())
    if case in JUDGEMENTS:
        loaded = StimulusSet.from_files(path, image_dir, strict=False)
        assert loaded["stimulus_id"].tolist() == ["s0", "s1", "s2", "s3"][:len(loaded)]
        assert pd.read_csv(path)[loaded.columns[2]].astype(str).tolist() == loaded.iloc[:, 2].astype(str).tolist()
    else:
        with pytest.raises(ValidationError) as caught:
            StimulusSet.from_files(path, image_dir, strict=False)
        _assert_names_all(str(caught.value), path, fragments)


def test_the_good_table_passes_every_door(tmp_path, image_dir, capsys):
    path = tmp_path / "good.csv"
    path.write_bytes(_table(GOOD_ROWS))
    assert main(["validate", "--csv", str(path), "--stimuli-dir", str(image_dir)]) == 0
    loaded = StimulusSet.from_files(path, image_dir)
    assert loaded["size"].tolist() == [1.5, 2.5, 3.5, 4.5] and loaded["stimulus_id"].tolist() == ["s0", "s1", "s2", "s3"]


def test_every_problem_is_listed_at_once(tmp_path):
    path = tmp_path / "many.csv"
    path.write_bytes(_table(["s0,im0.png,1.5,a", ",im1.png,2.5,b\x00", "s2,im2.png,x,a", "s3,im3.png,4.5,b"]))
    with pytest.raises(ValidationError) as caught:
        StimulusSet.from_files(path, tmp_path)
    problems = caught.value.problems
    assert len(problems) == 3 and all(str(path) in problem for problem in problems)


@pytest.mark.parametrize(("column", "values", "fragment"), [
    ("stimulus_id", ["s0", np.nan, "s2"], "column 'stimulus_id': missing value"),
    ("stimulus_id", ["s0", None, "s2"], "column 'stimulus_id': missing value"),
    ("size", [1.0, 2.0, "abc"], "column 'size' holds numbers in 2 rows, but not in row 2 (counted from 0): 'abc'"),
    ("category", ["a", "b\x00", "c"], "column 'category': NUL character in row 1 (counted from 0)"),
    ("category", ["a", "b", "c" * (MAX_FIELD_CHARS + 1)], f"a field of {MAX_FIELD_CHARS + 1:,} characters"),
])
def test_packaging_a_frame_refuses_the_same_cells(column, values, fragment, image_dir, tmp_path):
    frame = {"stimulus_id": ["s0", "s1", "s2"], "size": [1.0, 2.0, 3.0], "category": ["a", "b", "c"]}
    frame[column] = values
    stimulus_set = StimulusSet(frame)
    stimulus_set.stimulus_paths = {sid: image_dir / f"im{i}.png" for i, sid in enumerate(["s0", "s1", "s2"])}
    with pytest.raises(ValidationError, match="'Frame'") as caught:
        package_stimulus_set_locally(stimulus_set, "Frame", downloads_path=tmp_path / "out")
    assert fragment in str(caught.value)
    assert not (tmp_path / "out").exists()


def test_a_frame_with_duplicate_columns_is_refused():
    frame = StimulusSet(pd.DataFrame([["s0", 1, 2]], columns=["stimulus_id", "size", "size"]))
    assert check_stimulus_set(frame, require_files=False) == [
        "column name 'size' appears 2 times (columns 2, 3); every column needs its own name"]


def test_text_columns_with_some_numbers_stay_text():
    """A column of words with a few numbers, or half numbers (Geirhos' 'condition': '0' and 'pow'), is text."""
    table = pd.DataFrame({"stimulus_id": [f"s{i}" for i in range(200)],
                          "condition": ["0", "pow"] * 100, "label": ["cat"] * 198 + ["3", "7"],
                          "mostly_numbers": [str(i) for i in range(197)] + ["a", "b", "c"]})
    assert check_stimulus_table(table) == []


def test_missing_numbers_are_not_text():
    table = pd.DataFrame({"stimulus_id": ["s0", "s1", "s2", "s3"], "rt": ["0.5", "NaN", "", "0.7"]})
    assert check_stimulus_table(table) == []


REAL_TABLES = ["kriegeskorte2008/stimuli.csv", "coggan2024_fmri/stimuli.csv", "geirhos2021/stimuli_cue-conflict.csv",
               "geirhos2021/stimuli_edge.csv", "geirhos2021/stimuli_silhouette.csv", "geirhos2021/stimuli_sketch.csv",
               "cowley2023_v4/stimuli_210325.csv", "cowley2023_v4/stimuli_190923.csv",
               "marques2020/stimuli/image_dicarlo_Marques2020_orientation.csv",
               "marques2020/stimuli/image_movshon_FreemanZiemba2013_properties.csv",
               "marques2020/stimuli/image_dicarlo_Marques2020_blank.csv"]


@pytest.mark.parametrize("relative", REAL_TABLES)
def test_real_stimulus_tables_pass_and_load_unchanged(relative, raw_data_dir):
    """The real tables pass the check, and the typed frame is what pandas alone reads (values and dtypes)."""
    path = raw_data_dir / relative
    loaded = StimulusSet.from_files(path, path.parent)
    plain = pd.read_csv(path, dtype={c: str for c in ("stimulus_id", "image_id", "filename")
                                     if c in pd.read_csv(path, nrows=0).columns})
    if "stimulus_id" not in plain.columns:
        plain["stimulus_id"] = plain["image_id"]
    pd.testing.assert_frame_equal(pd.DataFrame(loaded), plain)
    assert len(loaded) > 0
