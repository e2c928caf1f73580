"""Compose each tutorial example with the reader's fill-ins (:mod:`fills`) and run it in a fresh Python process."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from extract import Example
from fills import FILLS, GENERIC_REPAIRS, Fill

__all__ = ["Outcome", "compose", "run_example"]

HERE = Path(__file__).parent


@dataclass
class Outcome:
    identifier: str
    returncode: int
    seconds: float
    output: str


def _repaired(code: str, fill: Fill) -> str:
    """The example's own fill-ins first (on the text as captured), then the generic elision repairs."""
    for pattern, replacement in fill.replace:
        code, count = re.subn(pattern, replacement, code, flags=re.M)
        if not count:
            raise ValueError(f"fill-in pattern {pattern!r} matched nothing: the tutorial text changed")
    for pattern, replacement in GENERIC_REPAIRS:
        code = re.sub(pattern, replacement, code)
    return code


def _wrapped(code: str, name: str) -> str:
    lines = [line for line in code.splitlines() if line.strip() and not line.startswith("#")]
    indent = min(len(line) - len(line.lstrip()) for line in lines)
    body = "\n".join("    " + line[indent:] if line.strip() and not line.startswith("#") else "    # " + line.strip()
                     for line in code.splitlines())
    return f"def {name}():\n{body}\n\n\n{name}()\n"


def compose(example: Example, examples: dict[str, Example], *, with_after: bool = True) -> str:
    """The code the reader runs: their lines before, the example (repaired, cut at ``until`` when it needs what is not
    here), their lines after."""
    fill = FILLS[example.identifier]
    code = _repaired(example.code, fill)
    if fill.needs and fill.until:
        match = re.search(fill.until, code, flags=re.M)
        if match is None:
            raise ValueError(f"{example.identifier}: 'until' pattern {fill.until!r} matched nothing")
        code = code[:match.start()]
    if fill.wrap:
        code = _wrapped(code, fill.wrap)
    after = fill.after if with_after and not fill.needs else ""
    if with_after and fill.needs and fill.data_step:
        after = _data_step(fill.data_step)
    return f"{fill.before}\n# ---- the tutorial's example ({example.identifier}, line {example.line})\n{code}\n{after}"


def _data_step(step: str) -> str:
    """The reader's step that loads Brain-Score's data, offline (S3 requests go to a closed local port): it must stop
    with one line, a ``PublicDataUnavailableError`` (or ``CredentialsRequiredError``) naming the file; the test reads
    the printed ``DATA STEP`` line."""
    body = "".join(f"    {line}\n" for line in step.splitlines())
    return ("import os\nos.environ['AWS_ENDPOINT_URL'] = 'http://127.0.0.1:9'\nos.environ['AWS_MAX_ATTEMPTS'] = '1'\n"
            "from brainscore_vision.errors import PublicDataUnavailableError\n"
            f"try:\n{body}except PublicDataUnavailableError as error:\n"
            "    assert '\\n' not in str(error), str(error)\n"
            "    print('DATA STEP:', type(error).__name__, str(error))\n"
            "else:\n    raise AssertionError('the data step loaded data offline')\n")


def run_example(example: Example, examples: dict[str, Example], folder: Path, env: dict[str, str],
                timeout: float = 300) -> Outcome:
    """Write the example (and the files of its plugin folder) into ``folder`` and run it with ``env``."""
    fill = FILLS[example.identifier]
    folder.mkdir(parents=True, exist_ok=True)
    for relative, identifier in fill.files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        other = examples[identifier]
        source = compose(other, examples, with_after=False) if identifier != example.identifier else \
            f"{FILLS[identifier].before}\n{_repaired(other.code, FILLS[identifier])}"
        path.write_text(source)
    main = fill.main if fill.main and not fill.needs else compose(example, examples)
    (folder / "example.py").write_text(main)
    start = time.perf_counter()
    process = subprocess.run([sys.executable, "example.py"], cwd=folder, env=env, capture_output=True, text=True,
                             timeout=timeout)
    return Outcome(example.identifier, process.returncode, time.perf_counter() - start,
                   (process.stdout + process.stderr)[-4000:])


def environment(home: Path, store: Path) -> dict[str, str]:
    """The processes' environment: one shared set of caches (data packaged once), the reader's store on the path."""
    env = dict(os.environ)
    env.update(HOME=str(home / "home"), BRAINIO_HOME=str(home / "brainio"), BRAINSCORE_HOME=str(home / "brainscore"),
               RESULTCACHING_HOME=str(home / "resultcaching"), TUTORIAL_READER_STORE=str(store),
               PYTHONPATH=os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")]).rstrip(os.pathsep),
               PYTHONWARNINGS="ignore::DeprecationWarning", MPLBACKEND="Agg")
    for name in ("BRAINSCORE_RESULTS_URL", "BRAINSCORE_DATA_STORE", "BRAINSCORE_VISION_DATA_SOURCE"):
        env.pop(name, None)
    (home / "home").mkdir(parents=True, exist_ok=True)
    return env


