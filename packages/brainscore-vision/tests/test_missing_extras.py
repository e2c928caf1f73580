"""Every missing optional dependency is one line with its pip command (boto3, Dask, matplotlib, psycopg), in a
process where they cannot be imported (``sys.modules[name] = None`` blocks an import as if not installed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent('''
    import io, json, sys, contextlib
    for name in ("boto3", "botocore", "distributed", "matplotlib", "psycopg"):
        sys.modules[name] = None
    import brainscore_vision
    from brainscore_vision.cli import main
    found = {}
    try:
        brainscore_vision.load_stimulus_set("Geirhos2021_colour")  # by reference: Brain-Score's public bucket
    except Exception as error:
        found["boto3"] = str(error)
    for key, argv in (("dask", ["score", "--model", "pixels", "--benchmark", "Kiani2007.mIT-rdm", "--no-store",
                                "--workers", "1"]),
                      ("psycopg", ["results", "list", "--results-url", "postgresql+psycopg://u@127.0.0.1:1/x"]),
                      ("matplotlib", ["report", "--out", sys.argv[1] + "/site", "--results-url", sys.argv[2]])):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            status = main(argv)
        found[key] = [status, err.getvalue()]
    print(json.dumps(found))
''')


def test_each_missing_extra_names_its_pip_command(tmp_path):
    from brainscore_core import Score
    from brainscore_core.results import ResultStore

    url = f"sqlite:///{tmp_path / 'results.sqlite'}"
    ResultStore(url).add(Score(0.5), model_identifier="pixels", benchmark_identifier="Kiani2007.mIT-rdm",
                         benchmark_version=1)
    result = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path), url], capture_output=True, text=True,
                            timeout=300, check=False, cwd=tmp_path,
                            env={**os.environ, "BRAINIO_HOME": str(tmp_path / "brainio")})
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout.splitlines()[-1])
    assert "S3 stores need boto3, which is not installed: pip install -c constraints.txt './packages/brainio[s3]'" \
        in found["boto3"]
    for key, extra in (("dask", "'./packages/brainscore-vision[dask]'"),
                       ("psycopg", "'./packages/brainscore-core[postgres]'"),
                       ("matplotlib", "'./packages/brainscore-vision[report]'")):
        status, err = found[key]
        lines = [line for line in err.splitlines() if line.startswith("brainscore ")]
        assert len(lines) == 1 and f"pip install -c constraints.txt {extra}" in lines[0], (key, err)
        assert "Traceback" not in err
    assert found["dask"][0] == 2 and found["psycopg"][0] == 1
    assert found["matplotlib"][0] == 0 and "the report has no figures" in found["matplotlib"][1]
