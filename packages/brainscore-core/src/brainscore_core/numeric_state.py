"""Process-wide settings that change numbers, kept from leaking out of the plugin that changed them.

A Brain-Score model plugin may call ``torch.set_default_dtype(torch.float64)`` (or ``torch.set_num_threads(1)``,
``torch.manual_seed(0)``, ...) when its module is imported. In one process every later model then runs that way:
compact_vgg19_V4 made nasnet_mobile score 0.1444 instead of 0.1137, five times slower (issue 42).
:func:`guarded` records these settings before a block (a plugin's import, a factory's call), runs it, and puts back
every setting the block changed, reporting which. The plugin layer keeps what a plugin's import changed as that
plugin's own settings and applies them (only) while one of its factories runs, so a float64 plugin still builds a
float64 model (whose forward passes follow its weights' dtype) while every other model stays as it was.

Settings (each only when its module is already imported: nothing here imports torch or numpy):

* torch: default dtype, default device, gradient mode, intra-op and inter-op threads, deterministic algorithms
  (and their warn-only flag), float32 matmul precision, anomaly detection, the cuDNN / CUDA TF32 / oneDNN switches;
* random number generators: torch's CPU generator and numpy's global one (a plugin seeding at import would otherwise
  reseed every later unseeded model of the process).

When torch is first imported inside a block, the block's "before" is the state torch had right after its own
import, recorded by a one-shot import watcher (torch has no getter for its default thread counts).
"""

from __future__ import annotations

import contextlib
import importlib.abc
import sys
import threading
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["SETTINGS", "PluginSettings", "StateChanges", "capture", "guarded", "restore"]


@dataclass(frozen=True)
class Setting:
    """One process-wide setting: its name in messages, the module that holds it, how to read and write it."""

    name: str
    module: str
    get: Callable[[Any], Any]
    put: Callable[[Any, Any], None]
    announce: bool = True  # False for random generators: every draw changes them (restored all the same)

    def same(self, first: Any, second: Any) -> bool:
        if hasattr(first, "shape") and hasattr(second, "shape"):  # generator states (tensors, arrays)
            import numpy as np

            return first.shape == second.shape and bool(np.array_equal(np.asarray(first), np.asarray(second)))
        if isinstance(first, tuple) and isinstance(second, tuple):
            return len(first) == len(second) and all(self.same(a, b) for a, b in zip(first, second, strict=True))
        return first == second


def _backend(path: str) -> tuple[Callable[[Any], Any], Callable[[Any, Any], None]]:
    """Getter and setter of a ``torch.backends`` flag such as ``'cudnn.benchmark'``."""
    holder, attribute = path.rsplit(".", 1)

    def owner(torch: Any) -> Any:
        target = torch.backends
        for part in holder.split("."):
            target = getattr(target, part)
        return target

    def get(torch: Any) -> Any:
        with warnings.catch_warnings():  # newer torch deprecates some flags in favour of fp32_precision
            warnings.simplefilter("ignore")
            return getattr(owner(torch), attribute)

    def put(torch: Any, value: Any) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            setattr(owner(torch), attribute, value)

    return get, put


SETTINGS: tuple[Setting, ...] = (
    Setting("torch default dtype", "torch", lambda t: t.get_default_dtype(), lambda t, v: t.set_default_dtype(v)),
    Setting("torch default device", "torch", lambda t: str(t.get_default_device()),
            lambda t, v: t.set_default_device(v)),
    Setting("torch gradient mode", "torch", lambda t: t.is_grad_enabled(), lambda t, v: t.set_grad_enabled(v)),
    Setting("torch intra-op threads", "torch", lambda t: t.get_num_threads(), lambda t, v: t.set_num_threads(v)),
    Setting("torch inter-op threads", "torch", lambda t: t.get_num_interop_threads(),
            lambda t, v: t.set_num_interop_threads(v)),
    Setting("torch deterministic algorithms", "torch",
            lambda t: (t.are_deterministic_algorithms_enabled(), t.is_deterministic_algorithms_warn_only_enabled()),
            lambda t, v: t.use_deterministic_algorithms(v[0], warn_only=v[1])),
    Setting("torch float32 matmul precision", "torch", lambda t: t.get_float32_matmul_precision(),
            lambda t, v: t.set_float32_matmul_precision(v)),
    Setting("torch anomaly detection", "torch", lambda t: t.is_anomaly_enabled(), lambda t, v: t.set_anomaly_enabled(v)),
    *(Setting(f"torch.backends.{path}", "torch", *_backend(path))
      for path in ("cudnn.benchmark", "cudnn.deterministic", "cudnn.allow_tf32", "cuda.matmul.allow_tf32",
                   "mkldnn.enabled")),
    Setting("torch random generator", "torch", lambda t: t.get_rng_state(), lambda t, v: t.set_rng_state(v),
            announce=False),
    Setting("numpy global random generator", "numpy", lambda n: n.random.get_state(),
            lambda n, v: n.random.set_state(v), announce=False),
)
"""Every setting :func:`capture` reads, in the order messages name them."""

_PRISTINE: dict[str, Any] = {}  # what torch's settings were right after torch's own import in this process


def capture() -> dict[str, Any]:
    """The current value of every setting whose module is imported (name -> value); settings a torch build does not
    have are left out."""
    values = {}
    for setting in SETTINGS:
        module = sys.modules.get(setting.module)
        if module is None:
            continue
        try:
            values[setting.name] = setting.get(module)
        except (AttributeError, RuntimeError):
            continue
    return values


def restore(values: Mapping[str, Any]) -> list[str]:
    """Set each setting of ``values`` that differs now; returns the names that could not be set back (torch's
    inter-op threads can be set only once, before any parallel work)."""
    failed = []
    now = capture()
    for setting in SETTINGS:
        if setting.name not in values or setting.name not in now or setting.same(now[setting.name],
                                                                                   values[setting.name]):
            continue
        try:
            setting.put(sys.modules[setting.module], values[setting.name])
        except (RuntimeError, ValueError, TypeError):
            failed.append(setting.name)
    return failed


@dataclass
class StateChanges:
    """What a :func:`guarded` block changed, filled when the block ends.

    Attributes
    ----------
    changed : dict of str -> (before, after)
        Each setting the block left different from how it found it (after any ``apply``), with both values.
    kept : dict of str -> value
        ``after`` of every changed setting: what the block's code wanted (a plugin's own settings).
    unrestored : list of str
        Settings that could not be put back.
    """

    changed: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    unrestored: list[str] = field(default_factory=list)

    @property
    def kept(self) -> dict[str, Any]:
        return {name: after for name, (_, after) in self.changed.items()}

    def describe(self, *, generators: bool = True) -> str:
        """``'torch default dtype torch.float32 -> torch.float64, ...'``; a generator is named without its state, and
        left out with ``generators=False`` (a factory drawing random weights changes it as a matter of course)."""
        by_name = {setting.name: setting for setting in SETTINGS}
        parts = []
        for name, (before, after) in self.changed.items():
            if by_name[name].announce:
                parts.append(f"{name} {before} -> {after}")
            elif generators:
                parts.append(f"{name} (reseeded or drawn from)")
        return ", ".join(parts)


class _TorchImportWatcher(importlib.abc.MetaPathFinder):
    """Records torch's settings right after torch's own import (the "before" of a block that first imports it)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "torch" or _PRISTINE:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
                spec.loader = _RecordingLoader(spec.loader)
                return spec
            if spec is not None:
                return spec
        return None


class _RecordingLoader(importlib.abc.Loader):
    def __init__(self, loader: Any):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module) -> None:
        self.loader.exec_module(module)
        _PRISTINE.update({name: value for name, value in capture().items()
                          if next(s for s in SETTINGS if s.name == name).module == "torch"})

    def __getattr__(self, name: str) -> Any:  # resources, is_package, ... of the real loader
        return getattr(self.loader, name)


_WATCHER = _TorchImportWatcher()


_GUARD = threading.RLock()


class guarded:  # lower case: used as a function, ``with guarded(...) as changes``
    """Run a block with the process's numeric settings recorded before and put back after.

    Parameters
    ----------
    apply : mapping of str -> value, default=None
        Settings to hold while the block runs (a plugin's own, see the module docstring); they are undone after it
        like any other change.

    Returns
    -------
    StateChanges
        From ``with``: filled when the block ends (also when it raises): what the block itself changed.

    Notes
    -----
    Blocks of different threads run one after the other (a re-entrant lock): torch's settings belong to the process,
    so a plugin's float64 held for its factory in one thread would otherwise reach a model another thread builds. A
    class, not a generator: a nested load (a benchmark's factory loading its data) enters this module once per level.
    """

    def __init__(self, apply: Mapping[str, Any] | None = None):
        self.apply = apply
        self.changes = StateChanges()

    def __enter__(self) -> StateChanges:
        _GUARD.acquire()
        try:
            self.before = capture()
            if self.apply:
                restore(self.apply)
            self.start = capture()
            self.watching = "torch" not in sys.modules and _WATCHER not in sys.meta_path
            if self.watching:  # torch first imported in the block: its state right after its own import is "before"
                sys.meta_path.insert(0, _WATCHER)
        except BaseException:
            _GUARD.release()
            raise
        return self.changes

    def __exit__(self, *exc_info: Any) -> None:
        try:
            if self.watching:
                with contextlib.suppress(ValueError):
                    sys.meta_path.remove(_WATCHER)
            end = capture()
            baseline = {**_PRISTINE, **self.before}
            start = {**_PRISTINE, **self.start}
            by_name = {setting.name: setting for setting in SETTINGS}
            for name, value in end.items():
                if name in start and not by_name[name].same(start[name], value):
                    self.changes.changed[name] = (start[name], value)
            self.changes.unrestored = restore({name: value for name, value in baseline.items() if name in end})
        finally:
            _GUARD.release()


class PluginSettings:
    """What each plugin's import changed (module -> settings), held again while that plugin's factories run."""

    def __init__(self):
        self.by_module: dict[str, dict[str, Any]] = {}

    def remember(self, module: str, changes: StateChanges, who: str) -> None:
        """Keep what the import of ``module`` changed as its own settings, and say so (:meth:`announce`)."""
        if changes.changed:
            self.by_module[module] = changes.kept
        self.announce(changes, who, "when it was imported", generators=True)

    def of(self, module: str | None) -> dict[str, Any]:
        """The settings of the plugin holding ``module`` (its longest module prefix), else {}."""
        prefixes = [prefix for prefix in self.by_module if module and (module == prefix or module.startswith(
            prefix + "."))]
        return self.by_module[max(prefixes, key=len)] if prefixes else {}

    @staticmethod
    def announce(changes: StateChanges, who: str, when: str = "while it was built", *, generators: bool = False
                 ) -> None:
        """One :class:`~brainscore_core.errors.PluginStateNotice` naming ``who`` and what it changed (generator
        draws counted only with ``generators``)."""
        from brainscore_core.errors import PluginStateNotice

        said = changes.describe(generators=generators)
        if said:
            unrestored = f" ({', '.join(changes.unrestored)} could not be put back)" if changes.unrestored else ""
            warnings.warn(f"{who} changed {said} {when}; put back for the rest of the process{unrestored}, and held "
                          "only while its own factories run", PluginStateNotice, stacklevel=4)
