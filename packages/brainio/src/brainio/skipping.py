"""One door for skipping a test, with an allow-list of reasons, and a pytest plugin that counts skips by reason.

Every package's tests skip only through this module (a test of brainio greps the test folders for any other skip).
A skip names its kind from :data:`SKIP_REASONS`; the message is tagged ``[kind]`` so that the plugin (registered in
pytest's ``pytest11`` entry points as ``brainio_skips``, so every pytest run with brainio installed loads it) prints,
at the end of the run, how many tests skipped for each kind::

    ------------------------------- skips by reason -------------------------------
    12 skipped: network 8, credentials 3, data 1
      data         1  required  recordings or reference files of this checkout ...

With ``BRAINSCORE_REQUIRE_DATA=1`` (CI) a skip whose kind is *required* (data, a test extra, a local server: what
CI provides) fails instead, and so does a skip that did not come through here (no ``[kind]`` tag). Kinds that no CI
machine can have (the network, credentials, opt-in sessions) stay skips and are counted.

Usage in a test or fixture::

    from brainio.skipping import import_or_skip, require_path, skip, skip_if

    raw = require_path(root / "cowley2023_v4", "Cowley 2023 raw data")      # kind 'data'
    boto3 = import_or_skip("boto3", extra="brainio[s3]")                    # kind 'extra'
    skip("network", "its data come from Brain-Score's public bucket")
    pytestmark = skip_if(not sys.platform.startswith("linux"), "machine", "reads /proc (Linux)")
"""

from __future__ import annotations

import importlib
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, NoReturn

import pytest

from ._home import REQUIRE_DATA_ENV, data_required

__all__ = ["SKIP_REASONS", "SkipReason", "import_or_skip", "kind_of", "require_path", "skip", "skip_if",
           "skip_summary_lines"]


@dataclass(frozen=True)
class SkipReason:
    """One allowed kind of skip: its name, what it means, and whether ``BRAINSCORE_REQUIRE_DATA=1`` fails it."""

    kind: str
    meaning: str
    required: bool


#: the allow-list: a skip names one of these kinds
SKIP_REASONS: dict[str, SkipReason] = {reason.kind: reason for reason in (
    SkipReason("data", "recordings or reference files of the checkout's data folder are not on this machine "
                       "(BRAINSCORE_RAW_DATA, ../shared)", True),
    SkipReason("extra", "a package of the package's test extras (or of its test session) is not installed", True),
    SkipReason("service", "a local server program is not available (PostgreSQL, Slurm, Chromium)", True),
    SkipReason("local-data", "files that may not be redistributed, from a local folder whose variable is not set "
                             "(NSD, LAION-fMRI, ImageNet, THINGS)", False),
    SkipReason("network", "data or weights reachable only over the network (Brain-Score's public bucket, "
                          "downloaded weights); CI runs offline", False),
    SkipReason("credentials", "files that need credentials (Brain-Score's private or unconfirmed files)", False),
    SkipReason("opt-in", "what only an opt-in nox session installs or starts (torchvision, the Slurm tests)", False),
    SkipReason("machine", "a facility this machine lacks (Linux /proc, glibc malloc, more than one BLAS thread)",
               False),
    SkipReason("unavailable", "what cannot be had anywhere (stimuli that were never published)", False),
    SkipReason("covered", "checked elsewhere under another name (a model alias)", False),
)}

_TAG = re.compile(r"^(?:Skipped: )?\[([a-z-]+)\] ")
UNLISTED = "unlisted"
"""The summary's name for skips that did not come through this module."""


def _kind(kind: str) -> SkipReason:
    try:
        return SKIP_REASONS[kind]
    except KeyError:
        raise ValueError(f"skip kind {kind!r} is not in brainio.skipping.SKIP_REASONS "
                         f"({', '.join(SKIP_REASONS)})") from None


def _tagged(kind: str, message: str) -> str:
    return f"[{_kind(kind).kind}] {message}"


def skip(kind: str, message: str, *, allow_module_level: bool = False) -> NoReturn:
    """Skip the running test (or module) for ``kind`` of :data:`SKIP_REASONS`, saying ``message``; fail instead when
    the kind is required and ``BRAINSCORE_REQUIRE_DATA=1``.

    Raises
    ------
    ValueError
        For a kind that is not in the allow-list.
    """
    __tracebackhide__ = True  # pytest reports the skip at the test's line, not here
    reason = _kind(kind)
    if reason.required and data_required():
        pytest.fail(f"{_tagged(kind, message)} ({REQUIRE_DATA_ENV}=1: a skip of kind {kind!r} fails)", pytrace=False)
    pytest.skip(_tagged(kind, message), allow_module_level=allow_module_level)


def skip_if(condition: bool, kind: str, message: str) -> pytest.MarkDecorator:
    """``pytest.mark.skipif(condition, ...)`` with a tagged reason (a required kind fails under
    ``BRAINSCORE_REQUIRE_DATA=1``, through the plugin's report hook)."""
    return pytest.mark.skipif(bool(condition), reason=_tagged(kind, message))


def require_path(path: str | Path, what: str, *, kind: str = "data") -> Path:
    """``path`` when it exists; else :func:`skip` (``kind``, default ``'data'``) saying ``what`` is not found there."""
    __tracebackhide__ = True
    path = Path(path)
    if path.exists():
        return path
    hint = " (set BRAINSCORE_RAW_DATA to the folder holding the raw recordings)" if kind == "data" else ""
    skip(kind, f"{what} not found at {path}{hint}")


def import_or_skip(module: str, *, extra: str, kind: str = "extra") -> ModuleType:
    """``importlib.import_module(module)``, or :func:`skip` (``kind``, default ``'extra'``) naming the extra that
    installs it (e.g. ``extra="brainio[s3]"``). An installed module that fails to import counts as missing too (as
    torchvision on CPU torch)."""
    __tracebackhide__ = True
    try:
        return importlib.import_module(module)
    except Exception as error:  # ImportError, or an installed package broken on this torch build
        problem = f"{type(error).__name__}: {error}"
    skip(kind, f"{module} is not importable ({problem}); it comes with {extra}", allow_module_level=True)


def kind_of(report: Any) -> str | None:
    """The allow-listed kind of a skipped pytest report, or None when it was not skipped through this module."""
    longrepr = getattr(report, "longrepr", None)
    message = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr or "")
    match = _TAG.match(message)
    return match[1] if match and match[1] in SKIP_REASONS else None


def skip_summary_lines(reports: list[Any]) -> list[str]:
    """The lines the plugin prints: a count per kind (most first), then one line per kind with its meaning."""
    kinds = Counter(kind_of(report) or UNLISTED for report in reports if not hasattr(report, "wasxfail"))
    if not kinds:
        return ["no test skipped"]
    ordered = sorted(kinds.items(), key=lambda item: (-item[1], item[0]))
    lines = [f"{sum(kinds.values())} skipped: " + ", ".join(f"{kind} {count}" for kind, count in ordered)]
    for kind, count in ordered:
        reason = SKIP_REASONS.get(kind)
        label = ("required" if reason.required else "allowed") if reason else "stray"
        meaning = reason.meaning if reason else "a skip without an allow-listed [kind] tag (not through brainio.skipping)"
        lines.append(f"  {kind:<12} {count:>4}  {label:<9} {meaning}")
    return lines


# -- the pytest plugin (entry point pytest11: brainio_skips) --------------------------------------------------------
def _enforce(report: Any) -> None:
    """Under ``BRAINSCORE_REQUIRE_DATA=1``: a skip of a required kind, or one not through this module, fails."""
    if not report.skipped or hasattr(report, "wasxfail") or not data_required():
        return
    kind = kind_of(report)
    if kind is not None and not SKIP_REASONS[kind].required:
        return
    longrepr = report.longrepr
    message = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
    why = (f"a skip of kind {kind!r}" if kind else "a skip not through brainio.skipping (no allow-listed [kind] tag)")
    report.outcome = "failed"
    report.longrepr = f"{message}\n{REQUIRE_DATA_ENV}=1: {why} fails"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    _enforce(report)
    return report


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    report = yield
    _enforce(report)
    return report


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    terminalreporter.write_sep("-", "skips by reason")
    for line in skip_summary_lines(terminalreporter.stats.get("skipped", [])):
        terminalreporter.write_line(line)
