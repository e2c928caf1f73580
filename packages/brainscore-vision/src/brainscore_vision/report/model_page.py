"""One page per model: layer-to-region map, layer-selection profiles, scores across benchmarks."""

from __future__ import annotations

from pathlib import Path

from . import plots
from .facts import layer_map_of, layer_scores_of, rsa_matrices
from .layout import figure, note
from .summary import Summary
from .text import esc, format_error, href, score_html, slug

__all__ = ["model_body"]

_REGION_ORDER = ("V1", "V2", "V4", "IT")


def _region_key(region: str) -> tuple:
    return (_REGION_ORDER.index(region), "") if region in _REGION_ORDER else (len(_REGION_ORDER), region)



def _layer_map(summary: Summary, model: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for entry in summary.current[model].values():
        for region, layer in layer_map_of(entry).items():
            merged.setdefault(region, layer)
    return merged


def _scores_table(summary: Summary, model: str) -> str:
    rows = []
    for node, depth in summary.hierarchy.columns():
        cell = summary.cells[model][node]
        indent = "\u2003" * depth
        if summary.hierarchy.is_group(node):
            label = esc(indent + node)
            kind = f"group (mean of {cell.n_used}/{cell.n_children})"
        else:
            link = href("..", "benchmarks", slug(node) + ".html")
            label = f"{esc(indent)}<a href=\"{link}\">{esc(node)}</a>"
            kind = "benchmark" if node in summary.current[model] else "benchmark (not scored)"
        rows.append(f"<tr data-node=\"{esc(node)}\" class=\"depth-{depth}\"><td class=\"name\">{label}</td>"
                    f"<td>{esc(kind)}</td><td class=\"ceiled\">{score_html(cell.value)}</td>"
                    f"<td class=\"error\">{esc(format_error(cell.error))}</td></tr>")
    return ("<table id=\"model-scores\"><thead><tr><th class=\"name\">benchmark or group</th><th>kind</th>"
            "<th>ceiled score</th><th>error</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>")


def model_body(summary: Summary, model: str, root: Path) -> str:
    """Escaped HTML of a model page's main content; figures are written under ``root / 'img'``."""
    entries = list(summary.current[model].values())
    figures_note = plots.matplotlib_missing()
    parts = [f"<h1>{esc(model)}</h1>", "<h2>Layer-to-region map</h2>"]
    layer_map = _layer_map(summary, model)
    if layer_map:
        rows = "".join(f"<tr><td class=\"name\">{esc(region)}</td><td class=\"name\">{esc(layer)}</td></tr>"
                       for region, layer in sorted(layer_map.items(), key=lambda item: _region_key(item[0])))
        parts.append("<table id=\"layer-map\"><thead><tr><th class=\"name\">region</th>"
                     f"<th class=\"name\">layer</th></tr></thead><tbody>{rows}</tbody></table>")
    else:
        parts.append(note("No layer map was stored with this model's scores (e.g. a model without "
                          "layers, or one committed outside model-tools).", css_id="note-layer-map"))
    profiles = layer_scores_of(entries)
    if not profiles:
        parts.append("<p class=\"rule\" id=\"no-layer-scores\">No per-layer scores were stored (attrs "
                     "<code>layer_scores</code>), so there is no layer-selection profile to plot.</p>")
    else:
        parts.append("<h2>Layer selection</h2>")
        if figures_note:
            parts.append(note(figures_note))
        else:
            name = f"layers-{slug(model)}.png"
            _, problem = plots.draw(plots.layer_profiles, root / "img" / name, profiles, layer_map,
                                    what=f"the layer-selection profile of {model}")
            parts.append(note(problem) if problem else figure(
                href("..", "img", name), f"Score per layer for {model}",
                "Score of each candidate layer during layer selection, one panel per region; the star marks the "
                "layer committed to the region.", css_class="layer-profile"))
    parts.append("<h2>Scores</h2>")
    parts.append(_scores_table(summary, model))
    for entry in entries:
        parts += [note(f"{entry.benchmark}: {problem}") for problem in entry.problems]
    if figures_note:
        parts.append(note(figures_note))
    elif entries:
        name = f"model-{slug(model)}.png"
        omitted, problem = plots.draw(plots.bar_chart, root / "img" / name, [e.benchmark for e in entries],
                                      [e.ceiled for e in entries], [e.error for e in entries],
                                      title=f"{model} across benchmarks", what=f"the bar chart of {model}'s scores")
        caption = "Ceiled score per benchmark with error bars; dashed line: ceiling (1.0)."
        if omitted:
            caption += " Not drawn (NaN, infinite or missing): " + ", ".join(omitted) + "."
        parts.append(note(problem) if problem else figure(href("..", "img", name), f"Bar chart of {model}'s scores",
                                                          caption, css_class="scores-chart"))
    rdm_links = [e.benchmark for e in entries if rsa_matrices(e)[0] is not None]
    if rdm_links:
        links = ", ".join(f"<a href=\"{href('..', 'benchmarks', slug(b) + '.html')}\">{esc(b)}</a>"
                          for b in rdm_links)
        parts.append(f"<p class=\"rule\">This model's RDMs are shown next to the subjects' on: {links}.</p>")
    return "\n".join(parts)
