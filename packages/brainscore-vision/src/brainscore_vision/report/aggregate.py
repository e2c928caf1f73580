"""Benchmark hierarchy and score aggregation (pure functions, no I/O).

The rule, as on the Brain-Score leaderboard:

* every benchmark row names a ``parent`` (``V1``, ``V2``, ``V4``, ``IT``, ``behavior``, or any other
  group name, possibly another benchmark identifier);
* the standard groups continue upwards: ``V1``, ``V2``, ``V4``, ``IT`` -> ``neural``;
  ``neural`` and ``behavior`` -> ``average_vision``;
* a group's score is the **unweighted mean of its children's scores that are present and finite**
  (a region = mean of its benchmarks, ``neural`` = mean of the regions, ``behavior`` = mean of the
  behavioural benchmarks, ``average_vision`` = mean of ``neural`` and ``behavior`` where present).
  Children with no score or a NaN score are left out of the mean and the group is marked partial
  (``n_used < n_children``); a group with no usable child has no score;
* ceiled scores are used unclamped, so a benchmark above its ceiling (> 1) pulls its groups up exactly
  as much as its number says;
* a group's error is the standard error of a mean of independent estimates,
  ``sqrt(sum(error_i ** 2)) / n_used``, when every used child has a finite error, else ``None``;
* a group name that is neither standard nor a known benchmark has no parent: it becomes a top-level
  column of its own and does not enter ``average_vision``. A benchmark without a parent is a top-level
  column too;
* ``engineering`` is such a top-level group, as on Brain-Score's leaderboard (its ``engineering_vision`` root, which
  the global score leaves out): accuracies on ImageNet-style tasks, not brain data;
* Brain-Score's names of the top groups, which some benchmarks declare as their parent (``behavior_vision`` for
  Hebart2023-match), are read as ours (:data:`PARENT_ALIASES`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "PARENT_ALIASES",
    "STANDARD_PARENTS",
    "Aggregate",
    "Hierarchy",
    "aggregate_scores",
    "build_hierarchy",
    "mean_with_error",
]

STANDARD_PARENTS: dict[str, str] = {
    "V1": "neural",
    "V2": "neural",
    "V4": "neural",
    "IT": "neural",
    "neural": "average_vision",
    "behavior": "average_vision",
    "Hermann2020": "behavior",  # shape bias and shape match (Brain-Score's parent of the Hermann2020 benchmarks)
    "ImageNet": "engineering",  # ImageNet-top1 (Brain-Score's leaderboard lists it under engineering)
    # issue 38, part 1: the groups Brain-Score's behavioural families declare (one line each)
    "Baker2022": "behavior",
    "BMD2024": "behavior",
    "Lonnqvist2024": "behavior",  # its engineering accuracy too: Brain-Score declares that parent for all four
    "Maniquet2024": "behavior",
    "Scialom2024": "behavior",
    "Scialom2024-top1": "engineering",
    # issue 38, second half
    "Malania2007": "behavior",  # psychophysical thresholds against human subjects
    "Hendrycks2019-top1": "engineering",  # ImageNet-C: top-1 accuracy, no human data
    "Islam2021": "engineering",  # the model's own shape/texture dimensionality (ceiling 1, no brain data)
    # Brain-Score's V1 property groups (Marques et al. 2021): the V1 score averages these
    "V1-orientation": "V1",
    "V1-spatial_frequency": "V1",
    "V1-response_selectivity": "V1",
    "V1-receptive_field_size": "V1",
    "V1-surround_modulation": "V1",
    "V1-texture_modulation": "V1",
    "V1-response_magnitude": "V1",
    # Li2026's dataset nodes: its ridgecv and rdm benchmarks hang off Li2026.<region>, one child of the region
    # (Brain-Score's BenchmarkType rows, named in its benchmarks/li2026/benchmark.py)
    "Li2026.V1": "V1",
    "Li2026.V2": "V2",
    "Li2026.V4": "V4",
    "Li2026.IT": "IT",
}

#: Brain-Score's names of its leaderboard's top groups -> ours (a benchmark may declare either)
PARENT_ALIASES: dict[str, str] = {"behavior_vision": "behavior", "neural_vision": "neural",
                                  "engineering_vision": "engineering"}

# Display order of well-known groups among siblings; everything else follows alphabetically.
_KNOWN_ORDER = ["average_vision", "neural", "behavior", "engineering", "V1", "V2", "V4", "IT"]


@dataclass(frozen=True)
class Aggregate:
    """Score of one leaderboard cell.

    Attributes
    ----------
    value : float or None
        Ceiled score (a benchmark's own, or the mean over children); ``nan`` for a NaN benchmark score,
        ``None`` when nothing was scored.
    error : float or None
        Uncertainty of ``value`` (see the module docstring for groups).
    n_used : int
        Children that entered the mean (1 or 0 for a benchmark).
    n_children : int
        Children the group has in the hierarchy (1 for a benchmark).
    """

    value: float | None
    error: float | None
    n_used: int
    n_children: int

    @property
    def partial(self) -> bool:
        """True when some children had no usable score."""
        return 0 < self.n_used < self.n_children


@dataclass(frozen=True)
class Hierarchy:
    """Tree of benchmarks (leaves) and groups.

    Attributes
    ----------
    parents : dict of str to str or None
        Parent of every node; ``None`` for top-level nodes.
    children : dict of str to tuple of str
        Children of every node in display order (empty for benchmarks).
    benchmarks : frozenset of str
        Identifiers that are benchmarks (have rows), as opposed to groups.
    """

    parents: dict[str, str | None]
    children: dict[str, tuple[str, ...]]
    benchmarks: frozenset[str]

    def roots(self) -> list[str]:
        """Top-level nodes in display order."""
        return _ordered(node for node, parent in self.parents.items() if parent is None)

    def columns(self) -> list[tuple[str, int]]:
        """All nodes in display (pre-)order with their depth (0 = top level)."""
        order: list[tuple[str, int]] = []

        def visit(node: str, depth: int) -> None:
            order.append((node, depth))
            for child in self.children[node]:
                visit(child, depth + 1)

        for root in self.roots():
            visit(root, 0)
        return order

    def is_group(self, node: str) -> bool:
        """True for nodes whose score is aggregated from children."""
        return bool(self.children.get(node))


def _ordered(nodes) -> list[str]:
    def key(node: str) -> tuple:
        return (_KNOWN_ORDER.index(node), "") if node in _KNOWN_ORDER else (len(_KNOWN_ORDER), node)

    return sorted(set(nodes), key=key)


def build_hierarchy(benchmark_parents: Mapping[str, str | None]) -> Hierarchy:
    """Build the tree from each benchmark's ``parent``.

    Parameters
    ----------
    benchmark_parents : mapping of str to str or None
        Benchmark identifier -> parent name as stored with its rows.

    Returns
    -------
    Hierarchy
        Benchmarks, the groups above them, and the standard groups they lead to.

    Examples
    --------
    >>> h = build_hierarchy({"Cowley2023.V4-pls": "V4", "Kriegeskorte2008.hIT-rdm": "IT"})
    >>> [name for name, depth in h.columns()]
    ['average_vision', 'neural', 'V4', 'Cowley2023.V4-pls', 'IT', 'Kriegeskorte2008.hIT-rdm']
    """
    parents: dict[str, str | None] = {}
    for benchmark, parent in benchmark_parents.items():
        parents[benchmark] = PARENT_ALIASES.get(parent, parent) if parent else None
    # Walk up from every declared parent, adding standard groups above them.
    pending = [p for p in parents.values() if p is not None]
    while pending:
        node = pending.pop()
        if node in parents:
            continue
        parents[node] = STANDARD_PARENTS.get(node)
        if parents[node] is not None:
            pending.append(parents[node])
    _break_cycles(parents)
    children: dict[str, list[str]] = {node: [] for node in parents}
    for node, parent in parents.items():
        if parent is not None:
            children[parent].append(node)
    return Hierarchy(
        parents=parents,
        children={node: tuple(_ordered(kids)) for node, kids in children.items()},
        benchmarks=frozenset(benchmark_parents),
    )


def _break_cycles(parents: dict[str, str | None]) -> None:
    """Cut a parent link that would close a loop (e.g. A -> B -> A), making that node top-level."""
    for start in list(parents):
        seen = {start}
        node = start
        while parents[node] is not None:
            parent = parents[node]
            if parent in seen:
                parents[node] = None
                break
            seen.add(parent)
            node = parent


def _finite(value: float | None) -> bool:
    return value is not None and not math.isnan(value)


def mean_with_error(parts: Sequence[Aggregate]) -> Aggregate:
    """Mean of the children's finite values with the standard error of that mean.

    Parameters
    ----------
    parts : sequence of Aggregate
        The children's scores.

    Returns
    -------
    Aggregate
        ``value`` = mean of finite child values (``None`` if there is none); ``error`` =
        ``sqrt(sum(error_i ** 2)) / n_used`` when all used children have a finite error, else ``None``.

    Examples
    --------
    >>> mean_with_error([Aggregate(0.5, 0.03, 1, 1), Aggregate(0.3, 0.04, 1, 1)])
    Aggregate(value=0.4, error=0.025, n_used=2, n_children=2)
    """
    used = [part for part in parts if _finite(part.value)]
    if not used:
        return Aggregate(None, None, 0, len(parts))
    value = math.fsum(part.value for part in used) / len(used)
    if all(_finite(part.error) for part in used):
        error = math.sqrt(math.fsum(part.error**2 for part in used)) / len(used)
    else:
        error = None
    return Aggregate(value, error, len(used), len(parts))


def aggregate_scores(
    scores: Mapping[str, tuple[float | None, float | None]], hierarchy: Hierarchy
) -> dict[str, Aggregate]:
    """Score every node of ``hierarchy`` for one model.

    Parameters
    ----------
    scores : mapping of str to (float or None, float or None)
        Benchmark identifier -> (ceiled score, error) of this model; benchmarks not scored are absent.
    hierarchy : Hierarchy
        From :func:`build_hierarchy`.

    Returns
    -------
    dict of str to Aggregate
        One entry per node of the hierarchy.
    """
    result: dict[str, Aggregate] = {}

    def visit(node: str) -> Aggregate:
        if node in result:
            return result[node]
        kids = hierarchy.children.get(node, ())
        if kids:
            result[node] = mean_with_error([visit(child) for child in kids])
        elif node in scores:
            value, error = scores[node]
            result[node] = Aggregate(value, error, 1 if _finite(value) else 0, 1)
        else:
            result[node] = Aggregate(None, None, 0, 1)
        return result[node]

    for node in hierarchy.parents:
        visit(node)
    return result
