"""Small utilities used by plugins."""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["LazyLoad", "combine_fields", "fullname", "map_fields", "recursive_dict_merge", "resolve"]

_UNSET = object()


class LazyLoad:
    """Defer an expensive load until the object is first used.

    ``LazyLoad(lambda: load_dataset('X'))`` behaves like the loaded object: attribute access, indexing,
    calls, ``len`` and iteration are forwarded to it; the loader runs once, on first use, and its
    result is kept. Use :meth:`resolve` (or :func:`resolve`) to get the object itself, e.g. before
    handing it to code that checks types.

    Parameters
    ----------
    loader : callable
        Called without arguments on first use; its return value is the wrapped object.
    """

    def __init__(self, loader: Callable[[], Any]):
        object.__setattr__(self, "_loader", loader)
        object.__setattr__(self, "_content", _UNSET)
        object.__setattr__(self, "_lock", threading.Lock())

    def resolve(self) -> Any:
        """The wrapped object (loaded on the first call)."""
        if self._content is _UNSET:
            with self._lock:
                if self._content is _UNSET:
                    object.__setattr__(self, "_content", self._loader())
        return self._content

    @property
    def is_loaded(self) -> bool:
        """Whether the loader has run."""
        return self._content is not _UNSET

    def __getattr__(self, name: str) -> Any:
        return getattr(self.resolve(), name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.resolve(), name, value)

    def __getitem__(self, item):
        return self.resolve()[item]

    def __setitem__(self, key, value):
        self.resolve()[key] = value

    def __call__(self, *args, **kwargs):
        return self.resolve()(*args, **kwargs)

    def __len__(self) -> int:
        return len(self.resolve())

    def __iter__(self):
        return iter(self.resolve())

    def __contains__(self, item) -> bool:
        return item in self.resolve()

    def __repr__(self) -> str:
        if not self.is_loaded:
            return f"LazyLoad({self._loader!r}, not loaded)"
        return repr(self._content)


def resolve(obj: Any) -> Any:
    """``obj`` itself, or the object a :class:`LazyLoad` wraps."""
    return obj.resolve() if isinstance(obj, LazyLoad) else obj


def fullname(obj: Any) -> str:
    """``'<module>.<class name>'`` of an object (Brain-Score uses it for logger names)."""
    return f"{type(obj).__module__}.{type(obj).__name__}"


def map_fields(obj: Any, func: Callable[[Any], Any]) -> None:
    """Replace every attribute of ``obj`` by ``func(attribute)``, in place."""
    for name, value in vars(obj).items():
        setattr(obj, name, func(value))


def combine_fields(objs: list, func: Callable[[list], Any]) -> Any:
    """One object of ``objs[0]``'s class whose every field is ``func([field of each object])``."""
    if len(objs) == 0:
        return objs
    names = list(vars(objs[0]))
    return type(objs[0])(**{name: func([getattr(obj, name) for obj in objs]) for name in names})


def recursive_dict_merge(dict1: dict, dict2: dict) -> dict:
    """A deep copy of ``dict1`` updated by ``dict2``, merging nested dicts; ``dict2`` wins on conflicts."""
    result = copy.deepcopy(dict1)
    for key, value in dict2.items():
        if isinstance(result.get(key), dict) and isinstance(value, dict):
            result[key] = recursive_dict_merge(result[key], value)
        else:
            result[key] = value
    return result
