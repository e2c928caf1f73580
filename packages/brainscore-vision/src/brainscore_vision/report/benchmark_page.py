"""One page per benchmark: facts, BibTeX, ceiling, data size, models' scores (table and chart), RDMs."""

from __future__ import annotations

import math
from pathlib import Path

from . import plots
from .facts import InstalledBenchmarks, bibtex_of, data_size, rsa_matrices
from .layout import facts, figure, note
from .rows import Entry
from .summary import BenchmarkSummary
from .text import esc, format_error, format_score, format_time, href, score_html, slug

__all__ = ["benchmark_body"]



def _scores_table(entries: tuple[Entry, ...], css_id: str) -> str:
    header = ("<tr><th class=\"name\">model</th><th>version</th><th>ceiled score</th><th>error</th>"
              "<th>raw score</th><th>ceiling</th><th>stored at</th></tr>")
    rows = []
    for entry in entries:
        rows.append(
            f"<tr data-model=\"{esc(entry.model)}\"><td class=\"name\"><a href=\""
            f"{href('..', 'models', slug(entry.model) + '.html')}\">{esc(entry.model)}</a></td>"
            f"<td>{esc(entry.version)}</td>"
            f"<td class=\"ceiled\">{score_html(math.nan if entry.ceiled is None else entry.ceiled)}</td>"
            f"<td class=\"error\">{esc(format_error(entry.error))}</td>"
            f"<td class=\"raw-score\">{esc(format_score(entry.raw))}</td>"
            f"<td class=\"ceiling\">{esc(format_score(entry.ceiling))} {esc(format_error(entry.ceiling_error))}</td>"
            f"<td class=\"time\">{esc(format_time(entry.timestamp))}</td></tr>")
    return f"<table id=\"{esc(css_id)}\"><thead>{header}</thead><tbody>{''.join(rows)}</tbody></table>"


def _rdm_section(benchmark: BenchmarkSummary, root: Path, figures_note: str | None) -> list[str]:
    """Subjects' RDMs once (from the first row that has them) and each model's RDM."""
    parts: list[str] = []
    subjects_drawn = False
    for entry in benchmark.entries:
        model_rdm, subject_rdms, problems = rsa_matrices(entry)
        parts += [note(f"{entry.model}: {problem}") for problem in problems]
        if model_rdm is None and not subject_rdms:
            continue
        if figures_note:
            parts.append(note(figures_note))
            return parts
        panels = [(f"model: {entry.model}", model_rdm)] if model_rdm is not None else []
        if not subjects_drawn and subject_rdms:
            panels += [(f"subject: {label}", matrix) for label, matrix in subject_rdms]
            subjects_drawn = True
        name = f"rdm-{slug(benchmark.identifier)}-{slug(entry.model)}.png"
        _, problem = plots.draw(plots.rdm_grid, root / "img" / name, panels,
                                what=f"the RDMs for {entry.model} on {benchmark.identifier}")
        if problem:
            parts.append(note(problem))
            continue
        shape = panels[0][1].shape
        parts.append(figure(
            href("..", "img", name), f"RDMs for {entry.model} on {benchmark.identifier}",
            f"Representational dissimilarity matrices ({shape[0]} x {shape[1]} stimuli), "
            + ", ".join(label for label, _ in panels) + "; one shared colour scale.", css_class="rdm"))
    if parts:
        parts.insert(0, "<h2>Representational dissimilarity matrices</h2>")
    return parts


def benchmark_body(benchmark: BenchmarkSummary, root: Path, installed: InstalledBenchmarks | None = None) -> str:
    """Escaped HTML of a benchmark page's main content; figures are written under ``root / 'img'``.

    Parameters
    ----------
    benchmark : BenchmarkSummary
        The benchmark to show.
    root : Path
        Site folder being built (the page itself lives in ``root / 'benchmarks'``).
    installed : InstalledBenchmarks or None, default=None
        Where to look for BibTeX when the rows carry none (None: nowhere).
    """
    entries = benchmark.entries
    ceiling = (f"{format_score(benchmark.ceiling)} {format_error(benchmark.ceiling_error)}".strip()
               if benchmark.ceiling is not None else "not recorded")
    pairs = [("identifier", benchmark.identifier), ("version", str(benchmark.version)),
             ("parent", benchmark.parent or "none (top-level)"), ("ceiling", ceiling),
             ("models scored", str(len(entries)))]
    sizes = data_size(entries)
    pairs += [(key, str(value)) for key, value in sizes.items()]
    parts = [f"<h1>{esc(benchmark.identifier)}</h1>", facts(pairs)]
    if not sizes:
        parts.append(note("The size of the data (n_stimuli, n_neuroids, ...) was not recorded with these "
                          "scores."))
    if benchmark.ceiling_note:
        parts.append(note(benchmark.ceiling_note, css_id="note-ceiling"))
    for entry in entries:
        parts += [note(f"{entry.model}: {problem}") for problem in entry.problems]
    bibtex, source = bibtex_of(benchmark.identifier, entries, installed)
    parts.append("<h2>Reference</h2>")
    if bibtex:
        parts.append(f"<pre class=\"bibtex\" id=\"bibtex\">{esc(bibtex)}</pre>"
                     f"<p class=\"rule\">BibTeX {esc(source)}.</p>")
    else:
        parts.append(note(f"BibTeX unavailable: {source}.", css_id="note-bibtex"))
    parts.append("<h2>Scores</h2>")
    parts.append(_scores_table(entries, "scores"))
    nans = [e.model for e in entries if e.ceiled is None or math.isnan(e.ceiled)]
    if nans:
        parts.append(note("No finite score for: " + ", ".join(nans) + " (NaN or missing); left out of "
                          "the chart and of the leaderboard's means.", css_id="note-nan"))
    figures_note = plots.matplotlib_missing()
    if figures_note:
        parts.append(note(figures_note))
    elif entries:
        name = f"benchmark-{slug(benchmark.identifier)}.png"
        omitted, problem = plots.draw(plots.bar_chart, root / "img" / name, [e.model for e in entries],
                                      [e.ceiled for e in entries], [e.error for e in entries],
                                      title=f"{benchmark.identifier} (v{benchmark.version})",
                                      what=f"the bar chart of scores on {benchmark.identifier}")
        caption = ("Ceiled score per model with error bars; the dashed line is the ceiling (1.0); red bars exceed it "
                   "and are drawn unclipped.")
        if omitted:
            caption += " Not drawn (NaN, infinite or missing): " + ", ".join(omitted) + "."
        parts.append(note(problem) if problem else figure(
            href("..", "img", name), f"Bar chart of models' ceiled scores on {benchmark.identifier}", caption,
            css_class="scores-chart"))
    parts += _rdm_section(benchmark, root, figures_note)
    if benchmark.older:
        parts.append("<h2>Older versions</h2>")
        parts.append(_scores_table(benchmark.older, "older-scores"))
    return "\n".join(parts)
