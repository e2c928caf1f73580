"""``brainscore cache``: how much each cache holds, and pruning (:mod:`brainscore_core.caches`, which asks every
installed package for the caches it writes: entry-point group ``brainscore_caches``).

::

    brainscore cache                                   # kind, location, entries, size; the total
    brainscore cache prune --max-size 5GB              # least recently used first, until the caches hold 5 GB
    brainscore cache prune --model alexnet             # everything alexnet's activations and layer choices use
    brainscore cache prune --older-than 30d --kind weights --kind activations

``prune`` needs ``--model``, ``--older-than`` or ``--max-size``; ``--kind`` (repeatable) defaults to the kinds that
are recomputed from what is at hand (as their packages publish them: stimuli, activations, layer_selection,
ceilings). It lists what it would delete and asks first (``--yes`` does not ask, ``--dry-run`` only lists). This
module knows no cache's layout: a kind, its folders and its entries come from the package that writes it.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from brainscore_vision._cli_io import confirmed
from brainscore_vision.errors import EXIT_FAILED, EXIT_USAGE, CommandError

__all__ = ["add_cache_commands", "run_cache_command"]


def add_cache_commands(commands: Any) -> None:
    """Add ``cache`` and ``cache prune`` to the command line's subparsers (the kinds are checked when it runs: which
    exist depends on the installed packages, and listing them is not worth importing their publications for every
    command)."""
    cache = commands.add_parser("cache", help="sizes of the caches every installed package publishes (data, stimuli, "
                                              "activations, ceilings, weights, ...), and pruning")
    sub = cache.add_subparsers(dest="cache_command")
    prune = sub.add_parser("prune", help="delete cache entries by model, by age or down to a size (asks first)")
    prune.add_argument("--kind", action="append", dest="kinds", metavar="KIND",
                       help="a kind to prune (repeatable; `brainscore cache` lists them); default: the kinds their "
                            "packages recompute from what is at hand (stimuli, activations, layer_selection, ceilings; "
                            "data and weights only when named)")
    prune.add_argument("--model", action="append", dest="models", metavar="MODEL",
                       help="only entries of this model (activations, layer_selection; repeatable)")
    prune.add_argument("--older-than", default=None, metavar="AGE",
                       help="only entries not used for AGE (30d, 12h, 2w)")
    prune.add_argument("--max-size", default=None, metavar="SIZE",
                       help="delete least recently used entries until the pruned kinds hold at most SIZE (5GB, 500MB)")
    prune.add_argument("--yes", "-y", action="store_true", help="delete without asking")
    prune.add_argument("--dry-run", action="store_true", help="list what would be deleted, delete nothing")


def run_cache_command(args: argparse.Namespace) -> int:
    """Run ``brainscore cache [prune]``; returns the exit status."""
    return _prune(args) if getattr(args, "cache_command", None) == "prune" else _sizes()


def _published() -> dict:
    from brainscore_core.caches import cache_kinds
    from brainscore_core.errors import PublicationError

    try:
        return cache_kinds()
    except PublicationError as error:
        raise CommandError(str(error), EXIT_FAILED) from None


def _sizes() -> int:
    from brainscore_core.caches import cache_entries, locations
    from brainscore_core.memory_plan import format_bytes

    kinds = _published()
    entries = cache_entries(published_kinds=kinds)
    where = locations(kinds)
    rows = []
    for kind in kinds:
        mine = [entry for entry in entries if entry.kind == kind]
        rows.append((kind, format_bytes(sum(entry.size for entry in mine)), str(len(mine)),
                     ", ".join(str(path) for path in where[kind])))
    rows.append(("total", format_bytes(sum(entry.size for entry in entries)), str(len(entries)), ""))
    widths = [max(len(row[i]) for row in [("kind", "size", "entries", "location"), *rows]) for i in range(3)]
    for kind, size, count, location in [("kind", "size", "entries", "location"), *rows]:
        print(f"{kind.ljust(widths[0])}  {size.rjust(widths[1])}  {count.rjust(widths[2])}  {location}".rstrip())
    for published in kinds.values():
        for kind in published:
            for line in kind.notes() if kind.notes is not None else ():
                print(line)
    return 0


def _prune(args: argparse.Namespace) -> int:
    from brainscore_core.caches import (
        cache_entries,
        delete_entries,
        parse_age,
        parse_size,
        pruned_by_default,
        select_for_pruning,
    )
    from brainscore_core.display import display_text
    from brainscore_core.memory_plan import format_bytes

    if not (args.models or args.older_than or args.max_size):
        raise CommandError("say what to prune: --model MODEL, --older-than AGE (30d) or --max-size SIZE (5GB)",
                           EXIT_USAGE)
    try:
        older_than = parse_age(args.older_than) if args.older_than else None
        max_bytes = parse_size(args.max_size) if args.max_size else None
    except ValueError as error:
        raise CommandError(str(error), EXIT_USAGE) from None
    published = _published()
    kinds = tuple(dict.fromkeys(args.kinds or pruned_by_default(published)))
    unknown = [kind for kind in kinds if kind not in published]
    if unknown:
        raise CommandError(f"unknown cache kind {unknown[0]!r}; kinds: {', '.join(published)}", EXIT_USAGE)
    entries = cache_entries(kinds, published_kinds=published)
    chosen = select_for_pruning(entries, models=args.models, older_than_s=older_than, max_bytes=max_bytes)
    total = sum(entry.size for entry in entries)
    freed = sum(entry.size for entry in chosen)
    if not chosen:
        print(f"nothing to prune: the {', '.join(kinds)} caches hold {format_bytes(total)} in {len(entries)} "
              "entries, none matches")
        return 0
    now = time.time()
    for entry in chosen[:20]:
        owner = f" ({entry.model})" if entry.model else ""
        print(display_text(f"  {entry.kind}{owner}: {format_bytes(entry.size)}, last used "
                           f"{(now - entry.last_used) / 86400:.1f} days ago: {entry.paths[-1]}"))
    if len(chosen) > 20:
        print(f"  ... and {len(chosen) - 20} more")
    summary = f"{len(chosen)} of {len(entries)} entries, {format_bytes(freed)} of {format_bytes(total)}"
    if args.dry_run:
        print(f"dry run: would delete {summary}")
        return 0
    if not args.yes and not confirmed(f"delete {summary}? [y/N] "):
        raise CommandError("nothing deleted (not confirmed; --yes deletes without asking)", EXIT_FAILED)
    delete_entries(chosen)
    print(f"deleted {len(chosen)} entries, {format_bytes(freed)}; {format_bytes(total - freed)} left in "
          f"{', '.join(kinds)}")
    return 0
