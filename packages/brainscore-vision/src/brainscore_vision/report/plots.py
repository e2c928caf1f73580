"""Static PNG figures for the report, drawn with matplotlib's Agg canvas (no display, no pyplot state).

matplotlib is the ``report`` extra of brainscore-vision; it is imported only inside these functions, so
the rest of the package never needs it. When it is missing, :func:`matplotlib_missing` says why and the
pages show that note instead of the figures.

Labels and titles come from the store (identifiers, layer names): they are drawn as written, never parsed as
mathtext (``$...$``), so a model named ``evil$\\undefinedmacro$`` is a label, not a failed figure; control characters
are shown escaped and a label longer than :data:`LABEL_MAX` characters is cut (the page's tables show it whole). The
pages draw through :func:`draw`: a figure that still fails is left out with a note, and the rest of the site is built.
"""

from __future__ import annotations

import contextlib
import functools
import math
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["LABEL_MAX", "bar_chart", "draw", "layer_profiles", "matplotlib_missing", "rdm_grid"]

LABEL_MAX = 50
"""Characters of an identifier a figure shows (30 under a rotated tick); a longer one ends in an ellipsis."""

_OVERSHOOT_COLOUR = "#c0392b"
_BAR_COLOUR = "#2c7fb8"


def matplotlib_missing() -> str | None:
    """``None`` when figures can be drawn, else a sentence saying how to enable them."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return "Figures need matplotlib: pip install -c constraints.txt './packages/brainscore-vision[report]' (from the repository root)."
    return None


@contextlib.contextmanager
def _text_as_written() -> Iterator[None]:
    """Text drawn in this block is never parsed as mathtext or TeX (matplotlib reads these settings when a text
    object is made and when it is drawn, so the block spans building and saving a figure)."""
    import matplotlib

    with matplotlib.rc_context({"text.parse_math": False, "text.usetex": False}):
        yield


def _as_written(plot: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(plot)
    def drawn(*args: Any, **kwargs: Any) -> Any:
        with _text_as_written():
            return plot(*args, **kwargs)

    return drawn


def draw(plot: Callable[..., Any], path: Path, *args: Any, what: str, **kwargs: Any) -> tuple[Any, str | None]:
    """``plot(path, *args, **kwargs)``; a failure leaves no file and is returned as a note instead of raised.

    Parameters
    ----------
    plot : callable
        One of this module's figures (:func:`bar_chart`, :func:`layer_profiles`, :func:`rdm_grid`).
    path : Path
        PNG file to write.
    what : str
        The figure in words, for the note (``"the bar chart of alexnet's scores"``).

    Returns
    -------
    (object, str or None)
        What ``plot`` returned and None, or None and a one-line note saying why the figure was left out (also
        given as a :class:`~brainscore_vision.errors.ReportFigureWarning`).
    """
    from brainscore_vision.errors import ReportFigureWarning

    try:
        return plot(path, *args, **kwargs), None
    except Exception as error:  # one row's odd content costs its figure, never the site
        with contextlib.suppress(OSError):
            Path(path).unlink(missing_ok=True)
        first = str(error).strip().splitlines()[0] if str(error).strip() else ""
        problem = f"Figure left out ({what}): {type(error).__name__}: {first}".rstrip(": ")
        warnings.warn(problem, ReportFigureWarning, stacklevel=2)
        return None, problem


def _label(text: object, limit: int = LABEL_MAX) -> str:
    """``text`` as a figure shows it: control characters escaped, cut to ``limit`` characters (longer labels would
    squeeze the axes away)."""
    from brainscore_core.display import display_text

    shown = display_text(text)
    return shown if len(shown) <= limit else shown[:limit - 1] + "\u2026"


def _figure(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def _save(figure, path: Path) -> None:
    figure.savefig(path, format="png", metadata={"Software": None})


def _finite(value: float | None) -> bool:
    return value is not None and math.isfinite(value)


@_as_written
def bar_chart(
    path: Path,
    labels: Sequence[str],
    values: Sequence[float | None],
    errors: Sequence[float | None],
    *,
    title: str,
    ylabel: str = "ceiled score",
) -> list[str]:
    """Horizontal bars with error bars, one per label; bars above 1 (the ceiling) drawn in red.

    Parameters
    ----------
    path : Path
        PNG file to write.
    labels, values, errors : sequence, length n_bars
        Bar names, ceiled scores (unclamped) and their errors (``None``/NaN: no bar or no error bar).
    title : str
        Figure title.
    ylabel : str, default="ceiled score"
        Axis label of the score axis.

    Returns
    -------
    list of str
        Labels left out of the figure because their value was missing, NaN or infinite.
    """
    shown = [(lab, val, err) for lab, val, err in zip(labels, values, errors) if _finite(val)]
    omitted = [lab for lab, val in zip(labels, values) if not _finite(val)]
    figure = _figure(7.5, 1.2 + 0.38 * max(len(shown), 1))
    axes = figure.add_subplot()
    if shown:
        names = [_label(lab) for lab, _, _ in shown]
        heights = np.array([val for _, val, _ in shown], dtype=float)
        spread = np.array([err if _finite(err) else 0.0 for _, _, err in shown], dtype=float)
        positions = np.arange(len(shown))[::-1]
        colours = [_OVERSHOOT_COLOUR if h > 1 else _BAR_COLOUR for h in heights]
        axes.barh(positions, heights, xerr=spread, color=colours, capsize=3, ecolor="#333333")
        axes.set_yticks(positions, names)
        axes.axvline(1.0, color="#555555", linestyle="--", linewidth=1)
        axes.text(1.0, 1.01, "ceiling", transform=axes.get_xaxis_transform(), ha="center", va="bottom",
                  fontsize="small", color="#555555")
        low = min(0.0, float(np.min(heights - spread)))
        high = max(1.05, float(np.max(heights + spread)) * 1.05)
        axes.set_xlim(low, high)
    else:
        axes.text(0.5, 0.5, "no finite scores", ha="center", va="center", transform=axes.transAxes)
        axes.set_yticks([])
    axes.set_xlabel(ylabel)
    axes.set_title(_label(title), fontsize="medium", pad=14)
    _save(figure, path)
    return omitted


@_as_written
def layer_profiles(
    path: Path, layer_scores: Mapping[str, Mapping[str, float]], chosen: Mapping[str, str]
) -> None:
    """Score of every candidate layer, one panel per region, the chosen layer marked.

    Parameters
    ----------
    path : Path
        PNG file to write.
    layer_scores : mapping of str to mapping of str to float
        Region -> (layer -> score), layers in the order the model lists them.
    chosen : mapping of str to str
        Region -> layer committed to that region (from the layer map), marked with a star.
    """
    regions = list(layer_scores)
    figure = _figure(7.5, 2.6 * max(len(regions), 1))
    for index, region in enumerate(regions):
        axes = figure.add_subplot(len(regions), 1, index + 1)
        layers = list(layer_scores[region])
        scores = [float(v) if v is not None else math.nan for v in layer_scores[region].values()]
        axes.plot(range(len(layers)), scores, marker="o", color=_BAR_COLOUR)
        if chosen.get(region) in layers:
            where = layers.index(chosen[region])
            axes.plot([where], [scores[where]], marker="*", markersize=16, color=_OVERSHOOT_COLOUR,
                      linestyle="none", label=f"chosen: {_label(chosen[region])}")
            axes.legend(loc="best", fontsize="small")
        axes.set_xticks(range(len(layers)), [_label(layer, 30) for layer in layers], rotation=30, ha="right",
                        fontsize="small")
        axes.set_ylabel("score")
        axes.set_title(f"{_label(region)}: score per layer", fontsize="medium")
    _save(figure, path)


@_as_written
def rdm_grid(path: Path, rdms: Sequence[tuple[str, np.ndarray]]) -> None:
    """Representational dissimilarity matrices side by side on one shared colour scale.

    Parameters
    ----------
    path : Path
        PNG file to write.
    rdms : sequence of (str, ndarray of shape (n_stimuli, n_stimuli))
        Panel title and matrix, e.g. the model's RDM followed by each subject's.
    """
    columns = min(len(rdms), 4)
    rows = math.ceil(len(rdms) / columns)
    figure = _figure(2.6 * columns + 0.8, 2.6 * rows + 0.3)
    finite = [m[np.isfinite(m)] for _, m in rdms]
    values = np.concatenate(finite) if finite else np.array([0.0])
    low, high = (float(values.min()), float(values.max())) if values.size else (0.0, 1.0)
    image = None
    for index, (label, matrix) in enumerate(rdms):
        axes = figure.add_subplot(rows, columns, index + 1)
        image = axes.imshow(matrix, cmap="viridis", vmin=low, vmax=high, interpolation="nearest")
        axes.set_title(_label(label), fontsize="small")
        axes.set_xticks([])
        axes.set_yticks([])
    if image is not None:
        figure.colorbar(image, ax=figure.axes, shrink=0.8, label="dissimilarity")
    _save(figure, path)
