"""A throwaway distribution for tests: its files written, built as a wheel and pip-installed into a new virtual
environment that also sees the packages of the environment running the tests (so the editable installs of this
repository and their entry points are found there, and the throwaway one only there)."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path


def run(*command, **kwargs) -> subprocess.CompletedProcess:
    """Run ``command``; assert it succeeded, with its output in the message."""
    completed = subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=600, **kwargs)
    assert completed.returncode == 0, f"{command} failed:\n{completed.stdout}\n{completed.stderr}"
    return completed


def install_in_new_venv(root: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (relative path -> text, with a ``pyproject.toml``) under ``root / 'src'``, build the wheel with
    this environment's hatchling (no network), install it into the new venv ``root / 'venv'``; returns its python."""
    source = root / "src"
    for relative, text in files.items():
        (source / relative).parent.mkdir(parents=True, exist_ok=True)
        (source / relative).write_text(text)
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", root / "dist", source)
    (wheel,) = (root / "dist").glob("*.whl")
    venv = root / "venv"
    run(sys.executable, "-m", "venv", "--system-site-packages", venv)
    python = venv / "bin" / "python"
    purelib = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip())
    (purelib / "_outer_environment.pth").write_text(
        f"import site; site.addsitedir({sysconfig.get_paths()['purelib']!r})\n")
    run(python, "-m", "pip", "install", "--no-deps", "--no-index", "-q", wheel)
    return python
