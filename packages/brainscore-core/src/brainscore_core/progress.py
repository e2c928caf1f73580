"""One progress bar for every long step (extraction, packaging, cross-validation splits, ceilings, grids).

``progress(iterable, ...)`` wraps an iterable in a tqdm bar that works in a terminal, in a log file and in
Jupyter, and appears only once a step has run for 2 s (``delay``). In a notebook the widget bar of ``tqdm.notebook`` is used when ipywidgets is importable; otherwise
the plain text bar, so no ``TqdmWarning`` about a missing IProgress appears. Bars are shown by default, also
when stderr is not a terminal (a long silent step is worse than a few lines of log); set
``BRAINSCORE_PROGRESS=0`` (or pass ``disable=True``) to switch them off.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import Any

from brainscore_core.config import progress_enabled


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
    if disable is None:
        disable = not progress_enabled()
    return _tqdm_class()(
        iterable, total=total, desc=desc, unit=unit, disable=disable, leave=leave, delay=delay,
        dynamic_ncols=True, **kwargs
    )
