"""Sessions for the monorepo.

``nox`` with no arguments runs what CI runs: ``lint`` (ruff and the import contracts), one ``isolated-<package>`` per package (installs it
alone with only its declared dependencies and imports every module), one ``tests-<package>`` per
package, and ``slurm`` (the grid on a one-node Slurm it starts itself, and the Dask + PostgreSQL grid tests). Opt-in
sessions: ``demo`` (the README's main job), ``benchmarks`` (speed figures for the package
READMEs), ``fuzz`` (brainio's fuzzer, 2,000 cases) and ``torchvision`` (the optional model zoo extras on the
CUDA torch build).

Every install goes through ``constraints.txt`` (torch==2.13.0, the only CPU build on our machines).
In-repo dependencies are always installed from their local folders, never from PyPI.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import nox

ROOT = Path(__file__).parent
CONSTRAINTS = str(ROOT / "constraints.txt")
PYTHON = "3.11"

# distribution -> (in-repo dependencies in install order, import name)
PACKAGES: dict[str, tuple[list[str], str]] = {
    "brainio": ([], "brainio"),
    "brainscore-core": (["brainio"], "brainscore_core"),
    "brainscore-metrics": (["brainio", "brainscore-core"], "brainscore_metrics"),
    "brainscore-vision": (["brainio", "brainscore-core", "brainscore-metrics"], "brainscore_vision"),
    "model-tools": (
        ["brainio", "brainscore-core", "brainscore-metrics", "brainscore-vision"],
        "model_tools",
    ),
    # Brain-Score 1.x's API (import brainscore): a deprecated layer, never installed by the others
    "brainscore-legacy": (
        ["brainio", "brainscore-core", "brainscore-metrics", "brainscore-vision"],
        "brainscore",
    ),
}
# extras installed for a package's own test session
TEST_EXTRAS = {
    "brainio": "test,s3",
    "brainscore-core": "test,postgres",
    "brainscore-metrics": "test,torch",
    "brainscore-vision": "test,report",
    "model-tools": "test",
    "brainscore-legacy": "test",
}
# further in-repo packages a test session needs (end-to-end tests find models through entry points,
# exactly as a third-party model package would be found; the package itself never imports them)
TEST_ALSO = {"brainscore-vision": ["model-tools", "brainscore-legacy"]}

nox.options.sessions = (["lint"] + [f"isolated-{p}" for p in PACKAGES] + [f"tests-{p}" for p in PACKAGES]
                        + ["slurm"])
nox.options.error_on_missing_interpreters = True

os.environ.setdefault("PIP_CONSTRAINT", CONSTRAINTS)
os.environ.setdefault("PIP_DISABLE_PIP_VERSION_CHECK", "1")


def _local(dist: str, extras: str = "") -> str:
    path = f"{ROOT / 'packages' / dist}"
    return f"{path}[{extras}]" if extras else path


def install_package(
    session: nox.Session, dist: str, extras: str = "", also: list[str] | None = None, constrained: bool = True
) -> None:
    """Install ``dist`` and its in-repo dependencies from the local folders (plus ``also``)."""
    deps, _ = PACKAGES[dist]
    targets = [_local(d) for d in deps] + [_local(dist, extras)]
    for extra_dist in also or []:
        for d in PACKAGES[extra_dist][0] + [extra_dist]:
            if d != dist and d not in deps:
                targets.append(_local(d))
    constraints = ["-c", CONSTRAINTS] if constrained else []
    session.log(f"installing {dist}{f'[{extras}]' if extras else ''} and its dependencies (about 1-2 minutes on a "
                "cold machine, torch included; pip's output is shown with nox -v)")
    session.install(*constraints, *dict.fromkeys(targets))


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    """ruff over every package, the noxfile and the tools; the import contracts of ``.importlinter`` (layers, the
    compatibility wing imported by nobody of ours, brainio alone, no circle inside a package), imports by name
    included (``tools/lint_imports.py``; the packages are read, not installed)."""
    session.install("-c", CONSTRAINTS, "ruff==0.17.6", "import-linter==2.17")
    session.run("ruff", "check", ".")
    session.run("python", str(ROOT / "tools" / "lint_imports.py"))


def _make_isolated(dist: str) -> None:
    @nox.session(name=f"isolated-{dist}", python=PYTHON)
    def isolated(session: nox.Session) -> None:
        install_package(session, dist)
        session.run("python", "-m", "pip", "check")
        session.run("python", str(ROOT / "tools" / "check_imports.py"), dist, PACKAGES[dist][1])


def _make_tests(dist: str) -> None:
    @nox.session(name=f"tests-{dist}", python=PYTHON)
    def tests(session: nox.Session) -> None:
        install_package(session, dist, TEST_EXTRAS.get(dist, "test"), TEST_ALSO.get(dist))
        session.chdir(ROOT / "packages" / dist)
        session.run("python", "-m", "pytest", *(session.posargs or ["tests"]))


for _dist in PACKAGES:
    _make_isolated(_dist)
    _make_tests(_dist)


SLURM_PROGRAMS = ("/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/sbin/munged", "/usr/bin/sbatch", "/usr/bin/squeue",
                  "/usr/bin/scancel", "/usr/bin/sinfo", "/usr/bin/scontrol")


def _install_slurm(session: nox.Session) -> str | None:
    """Install Debian's Slurm and munge when missing (as root); None when they are there, else why they are not."""
    if all(os.access(path, os.X_OK) for path in SLURM_PROGRAMS):
        return None
    if os.geteuid() != 0:
        return "Slurm (slurm-wlm, munge) is not installed and this session is not root, which apt-get needs"
    if shutil.which("apt-get") is None:
        return "Slurm (slurm-wlm, munge) is not installed and there is no apt-get here to install it"
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-qq", "slurm-wlm", "munge"]
    session.log("installing Slurm: " + " ".join(install) + " (about 40 s)")
    done = subprocess.run(install, env=environment, capture_output=True, text=True, check=False)
    if done.returncode != 0:  # stale package lists: update them once
        subprocess.run(["apt-get", "update", "-qq"], env=environment, capture_output=True, check=False)
        done = subprocess.run(install, env=environment, capture_output=True, text=True, check=False)
    if all(os.access(path, os.X_OK) for path in SLURM_PROGRAMS):
        return None
    last = (done.stderr or done.stdout).strip().splitlines()
    return f"apt-get could not install slurm-wlm and munge: {last[-1] if last else done.returncode}"


def _slurm_daemons() -> list[str]:
    """Slurm and munge daemons of a local cluster of ours still running (their command lines name its folder)."""
    listing = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True, check=False).stdout
    return [line.strip() for line in listing.splitlines()
            if "brainscore-slurm-" in line and any(name in line for name in ("slurmctld", "slurmd", "munged"))]


@nox.session(python=PYTHON)
def slurm(session: nox.Session) -> None:
    """The grid on a real batch scheduler: a one-node Slurm started by the tests themselves
    (``brainscore_core.local_slurm``, as root), a 3 x 3 grid with a job cancelled mid-grid, a whole allocation
    cancelled and resumed, out-of-memory workers, the preflight; then the Dask + PostgreSQL grid tests. Skips with the
    reason where Slurm cannot be installed; fails if a daemon it started is still running afterwards."""
    reason = _install_slurm(session)
    if reason is not None:
        session.skip(reason)
    install_package(session, "brainscore-vision", "test,slurm", ["model-tools"])
    session.env.update({"BRAINSCORE_SLURM_TESTS": "1", "BRAINSCORE_REQUIRE_SLURM": "1"})
    session.chdir(ROOT / "packages" / "brainscore-vision")
    try:
        session.run("python", "-m", "pytest", *(session.posargs or ["tests/test_grid_slurm.py",
                                                                    "tests/test_grid_postgres.py"]))
    finally:
        left = _slurm_daemons()
        if left:
            session.error(f"Slurm daemons still running after the tests: {left}")


@nox.session(python=PYTHON)
def demo(session: nox.Session) -> None:
    """The README's main job: score the random-weight net and pixels on the two real benchmarks."""
    install_package(session, "model-tools", also=[])
    raw = os.environ.get("BRAINSCORE_RAW_DATA", str((ROOT / ".." / "shared" / "data").resolve()))
    session.env["BRAINSCORE_RAW_DATA"] = raw
    session.run(
        "brainscore", "score",
        "--model", "randomnet", "--model", "pixels",
        "--benchmark", "Cowley2023.V4-pls", "--benchmark", "Kriegeskorte2008.hIT-rdm",
        *session.posargs,
    )


@nox.session(python=PYTHON)
def benchmarks(session: nox.Session) -> None:
    """Speed figures of every package (``packages/*/benchmarks/bench_*.py``), printed as ratios to a baseline."""
    install_package(session, "model-tools", also=[])
    # the metrics test extra brings the peers bench_peers.py races (scikit-learn, himalaya, rsatoolbox)
    session.install("-c", CONSTRAINTS, _local("brainscore-metrics", "torch,test"), _local("brainio", "s3"))
    scripts = sorted((ROOT / "packages").glob(session.posargs[0] if session.posargs else "*/benchmarks/bench_*.py"))
    for script in scripts:
        session.run("python", str(script))


@nox.session(python=PYTHON, default=False)
def fuzz(session: nox.Session) -> None:
    """brainio's seeded fuzzer with the full 2,000 cases (CI runs 120 inside ``tests-brainio``)."""
    install_package(session, "brainio", TEST_EXTRAS["brainio"])
    session.chdir(ROOT / "packages" / "brainio")
    session.env["BRAINIO_FUZZ_CASES"] = session.posargs[0] if session.posargs else "2000"
    session.run("python", "-m", "pytest", "-q", "tests/test_fuzz.py", "-k", "fuzzed")


@nox.session(python=PYTHON, default=False)
def torchvision(session: nox.Session) -> None:
    """Opt-in: the torchvision/timm model zoo on the CUDA torch pair (~5.5 GB venv, runs on CPU)."""
    session.env["PIP_CONSTRAINT"] = ""
    session.install("torch==2.14.1", "torchvision==0.29.1", "timm")
    install_package(session, "model-tools", "test,torchvision", constrained=False)
    session.chdir(ROOT / "packages" / "model-tools")
    session.run("python", "-m", "pytest", "-m", "torchvision", "tests")
    # our plain-torch AlexNet / VGG-16 / ResNet-18 / ResNet-50 against torchvision's, same weights; with a CORnet
    # checkout as posargs (--cornet-source DIR) CORnet-Z/S against dicarlolab/CORnet too
    session.run("python", "scripts/compare_with_torchvision.py", *session.posargs)
