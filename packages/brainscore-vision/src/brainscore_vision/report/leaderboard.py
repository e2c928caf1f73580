"""The leaderboard page (index.html): models x benchmarks and groups, ceiled scores, sortable."""

from __future__ import annotations

import math

from .aggregate import STANDARD_PARENTS, Aggregate
from .layout import note
from .rows import Entry
from .summary import Summary
from .text import OVERSHOOT_MARK, esc, format_error, format_score, href, is_overshoot, score_html, slug

__all__ = ["AGGREGATION_RULE", "leaderboard_body"]

AGGREGATION_RULE = (
    "Cells show ceiled scores (1.0 = as consistent as the subjects are with each other) with their "
    "error. Groups are unweighted means of their children's finite scores: a region (V1, V2, V4, IT) "
    "averages its benchmarks, 'neural' averages the regions, 'behavior' averages the behavioural "
    "benchmarks and families (a family, e.g. 'Scialom2024', averages its benchmarks first) and "
    "'average_vision' averages 'neural' and 'behavior' where present; 'engineering' (task accuracies, e.g. "
    "ImageNet, 'Scialom2024-top1') is a column of its own, outside 'average_vision', as on Brain-Score's "
    "leaderboard. A group's error "
    "is sqrt(sum of squared child errors) / number of children used. Missing or NaN scores are left out "
    "of a mean (the cell then shows k/n, the children used). Scores above the ceiling are shown "
    f"unclipped, marked {OVERSHOOT_MARK}, and enter the means unclipped. The latest row per (model, "
    "benchmark, version) is used, and the newest version of each benchmark."
)


def _sort_value(value: float | None) -> str:
    return "" if value is None or math.isnan(value) else repr(float(value))



def _benchmark_cell(entry: Entry | None, depth: int) -> str:
    if entry is None:
        return (f"<td class=\"score missing depth-{depth}\" data-sort=\"\" "
                f"title=\"not scored\">{esc(format_score(None))}</td>")
    # the store writes NaN as NULL: a row without a ceiled score is shown as NaN
    value = entry.ceiled if entry.ceiled is not None else math.nan
    details = [f"ceiled {format_score(value)} {format_error(entry.error)}".strip(),
               f"raw {format_score(entry.raw)}",
               f"ceiling {format_score(entry.ceiling)} {format_error(entry.ceiling_error)}".strip()]
    if is_overshoot(value):
        details.append("above the ceiling (not clipped)")
    if math.isnan(value):
        details.append("the stored score is NaN or missing (see the benchmark page)")
    link = href("benchmarks", slug(entry.benchmark) + ".html")
    error = format_error(entry.error)
    return (
        f"<td class=\"score bench depth-{depth}\" data-sort=\"{_sort_value(value)}\" "
        f"title=\"{esc('; '.join(details))}\"><a href=\"{link}\">{score_html(value)}</a>"
        + (f"<span class=\"err\">{esc(error)}</span>" if error else "")
        + f"<span class=\"raw\">raw {esc(format_score(entry.raw))} \u00b7 ceiling "
        f"{esc(format_score(entry.ceiling))}</span></td>"
    )


def _group_cell(node: str, cell: Aggregate, depth: int) -> str:
    details = [f"mean of {cell.n_used} of {cell.n_children} children of {node}"]
    if cell.value is not None and cell.error is None:
        details.append("error unknown (a child has no error)")
    if is_overshoot(cell.value):
        details.append("above the ceiling (not clipped)")
    error = format_error(cell.error)
    partial = (f"<span class=\"partial\" title=\"{cell.n_used} of {cell.n_children} children scored\">"
               f"{cell.n_used}/{cell.n_children}</span>") if cell.partial else ""
    return (
        f"<td class=\"score group depth-{depth}\" data-sort=\"{_sort_value(cell.value)}\" "
        f"title=\"{esc('; '.join(details))}\">{score_html(cell.value)}"
        + (f"<span class=\"err\">{esc(error)}</span>" if error else "") + f"{partial}</td>"
    )


def _header(summary: Summary, node: str, depth: int, index: int) -> str:
    hierarchy = summary.hierarchy
    if hierarchy.is_group(node):
        kind = "mean of " + ", ".join(hierarchy.children[node])
        return (f"<th class=\"group depth-{depth}\" data-type=\"number\" data-col=\"{index}\" "
                f"data-node=\"{esc(node)}\" title=\"{esc(kind)}\"><button class=\"sort\" type=\"button\">"
                f"{esc(node)}</button><span class=\"kind\">group</span></th>")
    benchmark = summary.benchmarks.get(node)
    title = f"{node} (parent: {benchmark.parent if benchmark else None})"
    if benchmark is not None and benchmark.ceiling is None:
        title += "; no ceiling recorded"
    link = href("benchmarks", slug(node) + ".html")
    return (f"<th class=\"bench depth-{depth}\" data-type=\"number\" data-col=\"{index}\" "
            f"data-node=\"{esc(node)}\" title=\"{esc(title)}\"><button class=\"sort\" type=\"button\">"
            f"{esc(node)}</button> <a class=\"bench-link\" href=\"{link}\">page</a></th>")


def _notes(summary: Summary, store_label: str) -> list[str]:
    notes = []
    if not summary.models:
        notes.append(note(
            f"The results store ({store_label}) holds no scores yet, so there is nothing to rank. "
            "Score a model first, e.g. `brainscore score --model_identifier=pixels "
            "--benchmark_identifier=Cowley2023.V4-pls`, then build the report again.",
            css_id="note-empty"))
        return notes
    if len(summary.models) == 1:
        notes.append(note(f"Only one model ({summary.models[0]}) is in the store: the table has a "
                          "single row and sorting cannot reorder it.", css_id="note-one-model"))
    no_ceiling = [b.identifier for b in summary.benchmarks.values() if b.ceiling is None]
    if no_ceiling:
        notes.append(note("No ceiling recorded for: " + ", ".join(no_ceiling)
                          + ". Their scores are shown as stored.", css_id="note-no-ceiling"))
    nans = sorted(f"{e.model} on {e.benchmark}" for models in summary.current.values()
                  for e in models.values() if e.ceiled is None or math.isnan(e.ceiled))
    if nans:
        notes.append(note("NaN (or missing) stored scores, left out of the group means: "
                          + "; ".join(nans) + ".",
                          css_id="note-nan"))
    overshoots = sorted(f"{e.model} on {e.benchmark}" for models in summary.current.values()
                        for e in models.values() if is_overshoot(e.ceiled))
    if overshoots:
        notes.append(note(f"{OVERSHOOT_MARK} marks scores above the ceiling (ceiled score > 1), shown "
                          "unclipped: " + "; ".join(overshoots) + ".", css_id="note-overshoot"))
    return notes


def _default_order(summary: Summary, columns: list[tuple[str, int]]) -> list[str]:
    """Models sorted by the first column (best first, missing/NaN last), then by name."""
    if not columns:
        return list(summary.models)
    first = columns[0][0]

    def key(model: str) -> tuple:
        value = summary.cells[model][first].value
        missing = value is None or math.isnan(value)
        return (missing, 0.0 if missing else -value, model)

    return sorted(summary.models, key=key)


def leaderboard_body(summary: Summary, store_label: str) -> str:
    """Escaped HTML of the leaderboard page's main content."""
    columns = summary.hierarchy.columns()
    parts = ["<h1>Brain-Score leaderboard</h1>",
             f"<p class=\"rule\">{esc(len(summary.models))} models, {esc(len(summary.benchmarks))} "
             f"benchmarks, {esc(summary.n_rows)} stored rows; store: {esc(store_label)}.</p>"]
    parts += _notes(summary, store_label)
    if summary.models:
        header = ["<th class=\"rank\">#</th>",
                  "<th class=\"name\" data-type=\"text\" data-col=\"1\"><button class=\"sort\" "
                  "type=\"button\">model</button></th>"]
        header += [_header(summary, node, depth, index + 2) for index, (node, depth) in enumerate(columns)]
        if columns:
            header[2] = header[2].replace("<th ", "<th aria-sort=\"descending\" ", 1)
        rows = []
        for rank, model in enumerate(_default_order(summary, columns), start=1):
            cells = [f"<td class=\"rank\">{rank}</td>",
                     f"<td class=\"name\" data-sort=\"{esc(model)}\"><a href=\""
                     f"{href('models', slug(model) + '.html')}\">{esc(model)}</a></td>"]
            for node, depth in columns:
                if summary.hierarchy.is_group(node):
                    cells.append(_group_cell(node, summary.cells[model][node], depth))
                else:
                    cells.append(_benchmark_cell(summary.current[model].get(node), depth))
            rows.append(f"<tr data-model=\"{esc(model)}\">" + "".join(cells) + "</tr>")
        parts.append("<button id=\"toggle-raw\" type=\"button\" aria-pressed=\"false\" hidden>"
                     "Show raw scores and ceilings</button>")
        parts.append("<noscript><p class=\"rule\">Raw scores and ceilings are in each cell's tooltip."
                     "</p></noscript>")
        parts.append("<table id=\"leaderboard\" class=\"sortable\"><thead><tr>" + "".join(header)
                     + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table>")
    known = ", ".join(f"{child} \u2192 {parent}" for child, parent in STANDARD_PARENTS.items())
    parts.append("<h2>How scores are aggregated</h2>")
    parts.append(f"<p class=\"rule\" id=\"aggregation-rule\">{esc(AGGREGATION_RULE)} "
                 f"Standard hierarchy: {esc(known)}; any other parent is a top-level group.</p>")
    return "\n".join(parts)
