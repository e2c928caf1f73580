"""One progress bar for every long step (extraction, packaging, cross-validation splits, ceilings, grids).

``progress(iterable, ...)`` wraps an iterable in a tqdm bar that works in a terminal, in a log file and in
Jupyter, and appears only once a step has run for 2 s (``delay``). In a notebook the widget bar of ``tqdm.notebook`` is used when ipywidgets is importable; otherwise
the plain text bar, so no ``TqdmWarning`` about a missing IProgress appears. Bars are shown by default, also
when stderr is not a terminal (a long silent step is worse than a few lines of log); set
``BRAINSCORE_PROGRESS=0`` (or pass ``disable=True``) to switch them off.

Inside :func:`forward_progress` (a Dask worker scoring a pair of a grid), bars draw nothing; each reports its state
(description, count, total) to a listener instead, when it starts, at most every ``interval`` seconds, and when it
ends, so the client that submitted the work can show it (:mod:`brainscore_core.grid_events`).
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextvars import ContextVar
from typing import Any

from brainscore_core.config import progress_enabled

__all__ = ["forward_progress", "progress"]

#: where bars report instead of drawing, and how often (set by :func:`forward_progress`)
_LISTENER: ContextVar[tuple[Callable[[dict], None], float] | None] = ContextVar("brainscore_progress_listener",
                                                                                  default=None)


@contextlib.contextmanager
def forward_progress(listener: Callable[[dict[str, Any]], None], *, interval: float = 10.0) -> Iterator[None]:
    """Bars opened in this block (in this thread or task) draw nothing and call ``listener`` with a dict
    ``{'desc', 'n', 'total', 'unit', 'elapsed_s', 'done'}`` when they start, at most every ``interval`` seconds
    while they run, and when they end."""
    token = _LISTENER.set((listener, interval))
    try:
        yield
    finally:
        _LISTENER.reset(token)


class _Discard:
    """A text stream that keeps nothing (what a forwarding bar draws on)."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


_DISCARD = _Discard()


def _forwarding_bar(base: type, listener: Callable[[dict], None], interval: float) -> type:
    class ForwardingBar(base):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self._sent_at: float | None = None
            super().__init__(*args, **kwargs)
            self._report(done=False, force=True)

        def update(self, n: float | None = 1) -> bool | None:
            result = super().update(n)
            self._report(done=False, force=False)
            return result

        def close(self) -> None:
            if not getattr(self, "_closed_reported", True):
                self._report(done=True, force=True)
            super().close()

        def _report(self, *, done: bool, force: bool) -> None:
            now = time.monotonic()
            if not force and self._sent_at is not None and now - self._sent_at < interval:
                return
            self._sent_at, self._closed_reported = now, done
            listener({"desc": self.desc, "n": int(self.n), "total": None if self.total is None else int(self.total),
                      "unit": self.unit, "elapsed_s": round(self.format_dict.get("elapsed", 0.0), 1), "done": done})

    return ForwardingBar


def _in_notebook() -> bool:
    shell = sys.modules.get("IPython")
    if shell is None:
        return False
    try:
        ipython = shell.get_ipython()  # type: ignore[attr-defined]
    except AttributeError:
        return False
    return ipython is not None and type(ipython).__name__ == "ZMQInteractiveShell"


def _tqdm_class() -> Any:
    if _in_notebook():
        try:
            import ipywidgets  # noqa: F401
            from tqdm.notebook import tqdm as notebook_tqdm

            return notebook_tqdm
        except ImportError:
            pass
    return _tqdm_text_class()


def _tqdm_text_class() -> Any:
    from tqdm import tqdm as text_tqdm

    return text_tqdm


def progress(
    iterable: Iterable[Any] | None = None,
    *,
    total: int | None = None,
    desc: str | None = None,
    unit: str = "it",
    disable: bool | None = None,
    leave: bool = True,
    delay: float = 2.0,
    **kwargs: Any,
) -> Any:
    """A tqdm progress bar over ``iterable`` (or a manual bar with ``total`` when ``iterable`` is None).

    Parameters
    ----------
    iterable : iterable, optional
        What to iterate over; ``None`` gives a bar to advance with ``.update(n)``.
    total : int, optional
        Number of steps, default ``len(iterable)`` where defined.
    desc : str, optional
        Label in front of the bar.
    unit : str, default="it"
        Name of one step.
    disable : bool, optional
        ``True`` hides the bar; default ``None`` follows ``$BRAINSCORE_PROGRESS`` (shown unless set to 0).
    leave : bool, default=True
        Keep the finished bar on screen.
    delay : float, default=2.0
        Seconds before the bar appears: steps that finish sooner print nothing.
    """
    forwarding = _LISTENER.get()
    if forwarding is not None:  # a grid pair on a worker: report to the client, draw nothing here
        bar_class = _forwarding_bar(_tqdm_text_class(), *forwarding)
        drawing = {key: value for key, value in kwargs.items() if key not in ("file", "mininterval", "position")}
        return bar_class(iterable, total=total, desc=desc, unit=unit, disable=False, leave=False, delay=0,
                         file=_DISCARD, mininterval=1.0, **drawing)
    if disable is None:
        disable = not progress_enabled()
    # miniters=1: tqdm's default adapts how many steps it waits between redraws to the first steps' pace, so a bar
    # whose first steps were fast (cache hits) then stalled for minutes between redraws (37-171 s in layer selection,
    # issue 42); with 1 it redraws whenever a step ends and mininterval (0.1 s) has passed
    kwargs.setdefault("miniters", 1)
    return _tqdm_class()(
        iterable, total=total, desc=desc, unit=unit, disable=disable, leave=leave, delay=delay,
        dynamic_ncols=True, **kwargs
    )
