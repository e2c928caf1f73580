"""Helpers for tests: assemblies compared coordinate by coordinate with a readable diff, a local S3 server, and the
processes a process left behind (Linux ``/proc``)."""

from __future__ import annotations

import contextlib
import importlib
import inspect
import os
import pkgutil
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from .coords import flatten_indexes, walk_coords

__all__ = ["assert_assemblies_equal", "assert_one_error_root", "assert_processes_end", "defined_exceptions",
           "descendants_when_killed", "is_running",
           "local_private_s3_server", "local_s3_server", "running_descendants", "s3_test_environment"]


def _equal(a: np.ndarray, b: np.ndarray, rtol: float, atol: float) -> np.ndarray:
    if a.dtype.kind in "fc" or b.dtype.kind in "fc":
        try:
            return np.isclose(a.astype(float), b.astype(float), rtol=rtol, atol=atol, equal_nan=True)
        except (TypeError, ValueError):
            pass
    both_missing = pd.isna(a) & pd.isna(b) if a.dtype == object or b.dtype == object else False
    return (a == b) | both_missing


def _item(values: np.ndarray, where: np.ndarray):
    value = values[tuple(where)]
    return value.item() if isinstance(value, np.generic) else value


def _describe(label: str, a: np.ndarray, b: np.ndarray, rtol: float, atol: float) -> str | None:
    if a.shape != b.shape:
        return f"{label}: shapes differ, {a.shape} != {b.shape}"
    same = np.asarray(_equal(a, b, rtol, atol))
    if same.all():
        return None
    where = np.argwhere(~same)[:5]
    shown = ", ".join(f"{tuple(int(i) for i in w)}: {_item(a, w)!r} != {_item(b, w)!r}" for w in where)
    return f"{label}: {int((~same).sum())} of {same.size} values differ; first at {shown}"


def assert_assemblies_equal(a: xr.DataArray, b: xr.DataArray, *, rtol: float = 0.0, atol: float = 0.0,
                            check_class: bool = False, check_attrs: bool = False) -> None:
    """Raise ``AssertionError`` listing every difference in dims, values and coordinates.

    Dim order does not matter (``b`` is transposed to ``a``'s order); coordinates may be plain or
    MultiIndex levels; NaN equals NaN.

    Parameters
    ----------
    rtol, atol : float, default=0.0
        Tolerances for floating values and coordinates.
    check_class : bool, default=False
        Also require the same class.
    check_attrs : bool, default=False
        Also compare scalar/text attrs.
    """
    a, b = flatten_indexes(a), flatten_indexes(b)
    problems = []
    if check_class and type(a) is not type(b):
        problems.append(f"class: {type(a).__name__} != {type(b).__name__}")
    if set(a.dims) != set(b.dims):
        problems.append(f"dims: {a.dims} != {b.dims}")
        raise AssertionError("assemblies differ:\n  " + "\n  ".join(problems))
    b = b.transpose(*a.dims)
    coords_a = {name: (dims, values) for name, dims, values in walk_coords(a)}
    coords_b = {name: (dims, values) for name, dims, values in walk_coords(b)}
    for name in sorted(set(coords_a) ^ set(coords_b), key=str):
        problems.append(f"coordinate {name!r} only in {'first' if name in coords_a else 'second'}")
    for name in sorted(set(coords_a) & set(coords_b), key=str):
        (dims_a, values_a), (dims_b, values_b) = coords_a[name], coords_b[name]
        if dims_a != dims_b:
            problems.append(f"coordinate {name!r}: dims {dims_a} != {dims_b}")
            continue
        problem = _describe(f"coordinate {name!r} {dims_a}", np.asarray(values_a), np.asarray(values_b), rtol, atol)
        if problem:
            problems.append(problem)
    problem = _describe("values", np.asarray(a.values), np.asarray(b.values), rtol, atol)
    if problem:
        problems.append(problem)
    if check_attrs:
        plain = (str, int, float, np.number)
        attrs_a = {k: v for k, v in a.attrs.items() if isinstance(v, plain)}
        attrs_b = {k: v for k, v in b.attrs.items() if isinstance(v, plain)}
        if attrs_a != attrs_b:
            problems.append(f"attrs: {attrs_a} != {attrs_b}")
    if problems:
        raise AssertionError("assemblies differ:\n  " + "\n  ".join(problems))


@contextlib.contextmanager
def local_s3_server() -> Iterator[str]:
    """A moto S3 server on 127.0.0.1 (a free port) for tests; yields its endpoint URL, stops it on exit.

    Needs ``moto[server]`` (a test dependency, imported only here).
    """
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    try:
        host, port = server.get_host_and_port()
        yield f"http://{host}:{port}"
    finally:
        server.stop()


@contextlib.contextmanager
def local_private_s3_server(timeout: float = 20.0) -> Iterator[tuple[str, str, str]]:
    """A moto S3 server on 127.0.0.1 that refuses unsigned and wrongly signed requests (a private bucket's
    behaviour); yields ``(endpoint, access_key_id, secret_access_key)`` of a user it accepts, stops it on exit.

    moto checks signatures only when its ``INITIAL_NO_AUTH_ACTION_COUNT`` setting is finite, one value per process, so
    the server runs in a child process; its first four requests (unchecked) create that user and give it every
    permission.
    """
    import json
    import socket
    import subprocess
    import sys

    import boto3

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # the setting is read at each request, so the child sets it before serving (no environment variable: only
    # brainscore_core.config reads the environment)
    serve = ("import sys, moto.settings; moto.settings.INITIAL_NO_AUTH_ACTION_COUNT = 4; "
             "from moto.server import main; main(sys.argv[1:])")
    server = subprocess.Popen([sys.executable, "-c", serve, "-H", "127.0.0.1", "-p", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + timeout
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the moto server on port {port} did not start within {timeout} s")
            time.sleep(0.1)
        endpoint = f"http://127.0.0.1:{port}"
        iam = boto3.client("iam", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="setup",
                           aws_secret_access_key="setup")
        iam.create_user(UserName="reader")
        key = iam.create_access_key(UserName="reader")["AccessKey"]
        everything = {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}
        policy = iam.create_policy(PolicyName="everything", PolicyDocument=json.dumps(everything))
        iam.attach_user_policy(UserName="reader", PolicyArn=policy["Policy"]["Arn"])
        yield endpoint, key["AccessKeyId"], key["SecretAccessKey"]
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def defined_exceptions(package: str) -> list[type[Exception]]:
    """Every error class (an ``Exception``; warnings excluded) defined in any module of ``package``, e.g. ``'brainio'``.

    Control-flow signals that derive from ``BaseException`` only, as ``GeneratorExit`` does (model-tools'
    ``RecordedEverything`` ends a forward pass early and must not be caught by a model's ``except Exception``), are
    not errors and are not listed.

    Imports every module of the package (``pkgutil.walk_packages``); a class re-exported by another module is
    listed once, under the module that defines it (its ``__module__``). For tests of the house rules: one error
    root (:class:`brainio.errors.BrainScoreError`) and errors defined in the package's ``errors`` module.
    """
    root = importlib.import_module(package)
    modules = [root] + [importlib.import_module(info.name)
                        for info in pkgutil.walk_packages(root.__path__, prefix=f"{package}.")]
    found: dict[str, type[Exception]] = {}
    for module in modules:
        for _, value in inspect.getmembers(module, inspect.isclass):
            if (issubclass(value, Exception) and not issubclass(value, Warning)
                    and value.__module__ == module.__name__):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[name] for name in sorted(found)]


def assert_one_error_root(package: str) -> None:
    """The house rules for errors of ``package`` (e.g. ``'brainscore_metrics'``): every exception class it defines
    derives from :class:`brainio.errors.BrainScoreError`, the one root of the project, and is defined in the
    package's ``errors`` module. Fails naming the classes that break a rule (a walk that finds fewer than three
    classes fails too: it would check nothing)."""
    from .errors import BrainScoreError

    classes = defined_exceptions(package)
    assert len(classes) >= 3, f"{package}: found only {classes}"
    outside_root = [f"{cls.__module__}.{cls.__qualname__}" for cls in classes if not issubclass(cls, BrainScoreError)]
    assert outside_root == [], f"{package}: errors not derived from BrainScoreError: {outside_root}"
    misplaced = [f"{cls.__module__}.{cls.__qualname__}" for cls in classes if cls.__module__ != f"{package}.errors"]
    assert misplaced == [], f"{package}: errors defined outside {package}.errors: {misplaced}"


def s3_test_environment(endpoint: str, scratch: str | os.PathLike) -> dict[str, str | None]:
    """Environment variables that point boto3 at ``endpoint`` (a :func:`local_s3_server`) with fake credentials and
    no AWS configuration of the machine (config files under ``scratch``); None means: unset it.

    Example: ``for name, value in s3_test_environment(endpoint, tmp_path).items(): monkeypatch.setenv(name, value)
    if value is not None else monkeypatch.delenv(name, raising=False)``.
    """
    return {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1",
            "AWS_EC2_METADATA_DISABLED": "true",  # never ask an instance-metadata endpoint
            "AWS_ENDPOINT_URL": endpoint, "AWS_CONFIG_FILE": str(Path(scratch) / "no-aws-config"),
            "AWS_SHARED_CREDENTIALS_FILE": str(Path(scratch) / "no-aws-credentials"),
            "AWS_PROFILE": None, "AWS_SESSION_TOKEN": None, "AWS_ENDPOINT_URL_S3": None}


def _state_and_parent(pid: str) -> tuple[str, int] | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[0], int(fields[1])


def is_running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (a zombie runs nothing; a container's init may never reap
    it). Linux only."""
    found = _state_and_parent(str(pid))
    return found is not None and found[0] != "Z"


def running_descendants(pid: int) -> list[int]:
    """Every running process whose chain of parents leads to ``pid`` (read from ``/proc``; Linux only)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            found = _state_and_parent(entry.name)
            if found is not None and found[0] != "Z":
                parents[int(entry.name)] = found[1]
    descendants, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        children = [child for child, ppid in parents.items() if ppid == parent]
        descendants += children
        frontier += children
    return descendants


def assert_processes_end(pids: list[int], timeout: float = 10.0) -> None:
    """Wait up to ``timeout`` seconds for every process of ``pids`` to end; fail naming those still running."""
    deadline = time.monotonic() + timeout
    while any(is_running(pid) for pid in pids):
        if time.monotonic() > deadline:
            raise AssertionError(f"processes {[pid for pid in pids if is_running(pid)]} still run {timeout:g} s later")
        time.sleep(0.05)


def descendants_when_killed(tmp_path: str | os.PathLike, caller_code: str, *, settle_s: float = 0.3) -> list[int]:
    """Run ``caller_code`` (``python -c``, in ``tmp_path``), wait until it has a child process, ``kill -9`` it after
    ``settle_s`` more seconds (its child past its start-up); returns the pids of its descendants at that moment, for
    :func:`assert_processes_end`. Fails when the caller starts no child within 60 s or ends before the kill. Linux
    only."""
    import signal
    import subprocess
    import sys

    caller = subprocess.Popen([sys.executable, "-c", caller_code], cwd=tmp_path, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not (children := running_descendants(caller.pid)) and caller.poll() is None:
            if time.monotonic() > deadline:
                raise AssertionError("the caller started no child within 60 s")
            time.sleep(0.05)
        assert caller.poll() is None, "the caller ended before it was killed"
        time.sleep(settle_s)
    finally:
        os.kill(caller.pid, signal.SIGKILL)
        caller.wait()
    return children
