"""The one skip helper (brainio.skipping): the allow-list, the skip summary of every pytest run, and
BRAINSCORE_REQUIRE_DATA=1 turning the skips CI must not have into failures; no test of any package skips another way."""

from __future__ import annotations

import importlib.metadata
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from brainio.settings import env_flag
from brainio.skipping import SKIP_REASONS, kind_of, skip, skip_summary_lines

PACKAGES = Path(__file__).resolve().parents[2]

TINY = '''
import pytest
from brainio.skipping import import_or_skip, require_path, skip, skip_if

def test_data():
    require_path("/nonexistent/brainio-skip-test", "tiny data")

def test_extra():
    import_or_skip("no_such_module_brainio_skip_test", extra="brainio[test]")

def test_network():
    skip("network", "its data come from a public bucket")

@skip_if(True, "machine", "never on this machine")
def test_machine_mark():
    pass

@skip_if(True, "data", "a data mark")
def test_data_mark():
    pass

def test_stray():
    pytest.skip("a plain skip")

def test_passes():
    pass
'''


def _run_tiny(tmp_path: Path, require: str | None) -> subprocess.CompletedProcess:
    (tmp_path / "test_tiny.py").write_text(TINY)
    env = {key: value for key, value in os.environ.items() if key != "BRAINSCORE_REQUIRE_DATA"}
    if require is not None:
        env["BRAINSCORE_REQUIRE_DATA"] = require
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-v", "test_tiny.py"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


def _outcomes(output: str) -> dict[str, str]:
    """test name -> PASSED / SKIPPED / FAILED / ERROR from pytest's ``-v`` lines."""
    return dict(re.findall(r"^test_tiny\.py::(test_\w+) (PASSED|SKIPPED|FAILED|ERROR)", output, flags=re.MULTILINE))


def test_every_skip_is_counted_by_its_reason(tmp_path):
    done = _run_tiny(tmp_path, require=None)
    assert done.returncode == 0, done.stdout + done.stderr
    summary = done.stdout[done.stdout.index("skips by reason"):]
    # 6 of the 7 tests skip: data twice (path and mark), extra, network, machine, and the stray plain skip
    assert "6 skipped: data 2, extra 1, machine 1, network 1, unlisted 1" in summary
    assert re.search(r"^  unlisted +1  stray ", summary, flags=re.MULTILINE)
    assert re.search(r"^  data +2  required ", summary, flags=re.MULTILINE)


def test_require_data_fails_the_skips_ci_must_not_have(tmp_path):
    done = _run_tiny(tmp_path, require="1")
    assert done.returncode == 1, done.stdout + done.stderr
    outcomes = _outcomes(done.stdout)
    assert outcomes == {"test_data": "FAILED", "test_extra": "FAILED", "test_network": "SKIPPED",
                        "test_machine_mark": "SKIPPED", "test_data_mark": "ERROR", "test_stray": "FAILED",
                        "test_passes": "PASSED"}, done.stdout
    assert "BRAINSCORE_REQUIRE_DATA=1: a skip of kind 'data' fails" in done.stdout
    assert "a skip not through brainio.skipping (no allow-listed [kind] tag) fails" in done.stdout
    summary = done.stdout[done.stdout.index("skips by reason"):]
    assert "2 skipped: machine 1, network 1" in summary


def test_a_false_word_leaves_the_skips(tmp_path):
    done = _run_tiny(tmp_path, require="off")  # the one truth rule: 'off' is false, as '0' is
    assert done.returncode == 0 and "6 skipped" in done.stdout, done.stdout


def test_a_kind_outside_the_allow_list_is_refused():
    with pytest.raises(ValueError, match=r"'flaky' is not in brainio.skipping.SKIP_REASONS \(data, extra, "):
        skip("flaky", "sometimes")


def test_summary_lines_and_kinds_of_reports():
    class Report:
        def __init__(self, message):
            self.longrepr = ("test_x.py", 3, message)

    reports = [Report("Skipped: [network] a"), Report("[network] b"), Report("Skipped: [credentials] c"),
               Report("Skipped: plain"), Report("Skipped: [flaky] d")]
    assert [kind_of(report) for report in reports] == ["network", "network", "credentials", None, None]
    lines = skip_summary_lines(reports)
    assert lines[0] == "5 skipped: network 2, unlisted 2, credentials 1"
    assert lines[1].split()[:3] == ["network", "2", "allowed"]
    assert skip_summary_lines([]) == ["no test skipped"]


def test_required_kinds_are_what_ci_provides():
    assert {kind for kind, reason in SKIP_REASONS.items() if reason.required} == {"data", "extra", "service"}


def test_the_plugin_is_registered_for_every_pytest_run():
    entry_points = {entry.name: entry.value for entry in importlib.metadata.entry_points(group="pytest11")}
    assert entry_points.get("brainio_skips") == "brainio.skipping"


@pytest.mark.parametrize(("value", "expected"), [("1", True), (" YES ", True), ("on", True), ("0", False),
                                                  ("off", False), ("", False), ("maybe", None), (None, None)])
def test_env_flag_truth_rule(monkeypatch, value, expected):
    if value is None:
        monkeypatch.delenv("BRAINIO_TEST_FLAG", raising=False)
    else:
        monkeypatch.setenv("BRAINIO_TEST_FLAG", value)
    for default in (False, True):
        assert env_flag("BRAINIO_TEST_FLAG", default) == (default if expected is None else expected)


#: ways to skip, xfail or read the CI flag other than brainio.skipping
STRAY = re.compile(r"pytest\.skip\(|importorskip\(|mark\.skip(if)?\b|\bxfail\b|unittest\.skip|"
                   r"environ(\.get\(|\[)\s*[\"']BRAINSCORE_REQUIRE_DATA")


def test_no_test_skips_another_way():
    """Every package's tests (and sources) skip only through brainio.skipping: each skip has an allow-listed kind
    and BRAINSCORE_REQUIRE_DATA has one reader."""
    files = sorted(path for pattern in ("*/tests/**/*.py", "*/src/**/*.py") for path in PACKAGES.glob(pattern))
    assert len(files) > 300  # the scan sees every package of the checkout
    own = {PACKAGES / "brainio" / "src" / "brainio" / "skipping.py", Path(__file__).resolve()}
    stray = [f"{path.relative_to(PACKAGES)}:{number}: {line.strip()}" for path in files if path not in own
             for number, line in enumerate(path.read_text().splitlines(), 1) if STRAY.search(line)]
    assert not stray, "skip through brainio.skipping (an allow-listed kind) instead:\n" + "\n".join(stray)
