import json

import numpy as np
import pytest

from brainio import NeuroidAssembly, read_netcdf, sha1_hash, write_netcdf
from brainio.cli import main


@pytest.fixture
def csv_and_folder(tmp_path, image_dir):
    csv = tmp_path / "stimuli.csv"
    csv.write_text("stimulus_id,filename,category\n" + "".join(f"s{i},im{i}.png,c{i % 2}\n" for i in range(4)))
    return csv, image_dir


def test_validate_ok(csv_and_folder, capsys):
    csv, folder = csv_and_folder
    assert main(["validate", "--csv", str(csv), "--stimuli-dir", str(folder)]) == 0
    assert capsys.readouterr().out.strip() == "ok"


def test_validate_lists_problems(tmp_path, csv_and_folder, neuroid_assembly, capsys):
    csv, folder = csv_and_folder
    csv.write_text(csv.read_text() + "s1,missing.png,c1\n")
    bad = neuroid_assembly.copy(deep=True)
    bad.values[0, 0, 0] = np.nan
    write_netcdf(bad, tmp_path / "a.nc")
    status = main(["validate", "--csv", str(csv), "--stimuli-dir", str(folder), "--nc", str(tmp_path / "a.nc")])
    out = capsys.readouterr().out
    assert status == 1
    assert "duplicate stimulus_id: ['s1']" in out
    assert "missing.png" in out
    assert f"assembly ({tmp_path / 'a.nc'}): 1 NaN values" in out


def test_package_stimuli_and_assembly(tmp_path, csv_and_folder, neuroid_assembly, capsys):
    csv, folder = csv_and_folder
    out = tmp_path / "out"
    assert main(["package", "--csv", str(csv), "--stimuli-dir", str(folder), "--identifier", "Cli.test",
                 "--output", str(out)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["csv_path"] == str(out / "stimulus_Cli_test.csv")
    assert result["zip_sha1"] == sha1_hash(result["zip_path"])
    write_netcdf(neuroid_assembly, tmp_path / "a.nc")
    assert main(["package", "--nc", str(tmp_path / "a.nc"), "--identifier", "Cli.test", "--output", str(out)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["cls"] == "NeuroidAssembly" and result["path"] == str(out / "assy_Cli_test.nc")
    assert isinstance(read_netcdf(result["path"]), NeuroidAssembly)


def test_package_refuses_with_exit_1(tmp_path, csv_and_folder, capsys):
    csv, folder = csv_and_folder
    (folder / "im2.png").unlink()
    out = tmp_path / "out"
    assert main(["package", "--csv", str(csv), "--stimuli-dir", str(folder), "--identifier", "X",
                 "--output", str(out)]) == 1
    assert "im2.png" in capsys.readouterr().err
    assert not out.exists()


def test_entry_point_runs():
    import subprocess
    import sys
    from pathlib import Path

    script = Path(sys.executable).parent / "brainio"
    result = subprocess.run([str(script), "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "validate" in result.stdout
