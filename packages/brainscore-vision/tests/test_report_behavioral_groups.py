"""The report's ``behavior`` and ``engineering`` groups with the behavioural families of issue 38 (part 1), as
Brain-Score's leaderboard groups them: each family's benchmarks under their declared parent (``Scialom2024``,
``Baker2022``, ...), those groups under ``behavior``; ``Scialom2024-top1`` under ``engineering``, a top-level group the
global score (``average_vision``) leaves out; ``behavior_vision`` (Hebart2023-match's parent) read as ``behavior``.
Hand-worked means; the parents come from the registered benchmarks themselves (built offline)."""

from __future__ import annotations

import pytest
from _behavioral_standins import EXPECTED

import brainscore_vision
from brainscore_vision.report.aggregate import aggregate_scores, build_hierarchy

FAMILIES = ("Baker2022", "BMD2024", "Lonnqvist2024", "Maniquet2024", "Scialom2024", "Coggan2024_behavior",
            "Hebart2023")
KEYS = [key for family in FAMILIES for key in EXPECTED[family]]


@pytest.fixture(scope="module")
def parents() -> dict[str, str]:
    """identifier -> parent of the 59 benchmarks, as their objects declare them."""
    out = {}
    for key in KEYS:
        benchmark = brainscore_vision.load_benchmark(key)
        out[benchmark.identifier] = benchmark.parent
    return out


def _root(hierarchy, node):
    path = [node]
    while hierarchy.parents[path[-1]] is not None:
        path.append(hierarchy.parents[path[-1]])
    return path


def test_every_family_reaches_behavior_or_engineering(parents):
    hierarchy = build_hierarchy(parents)
    engineering = {name for name in parents if name.endswith("-engineering_accuracy") and name.startswith("Scialom")}
    assert len(engineering) == 20
    for name in parents:
        path = _root(hierarchy, name)
        if name in engineering:
            assert path[1:] == ["Scialom2024-top1", "engineering"], path
        else:
            assert path[-2:] == ["behavior", "average_vision"], path
    assert _root(hierarchy, "Hebart2023-match") == ["Hebart2023-match", "behavior", "average_vision"]
    assert _root(hierarchy, "Lonnqvist2024-engineering_accuracy")[1] == "Lonnqvist2024"  # as Brain-Score declares
    assert hierarchy.roots() == ["average_vision", "engineering"]
    assert set(hierarchy.children["behavior"]) == {"BMD2024", "Baker2022", "Hebart2023-match", "Lonnqvist2024",
                                                   "Maniquet2024", "Scialom2024",
                                                   "tong.Coggan2024_behavior-ConditionWiseAccuracySimilarity"}


def test_groups_are_means_of_their_children_and_engineering_stays_out_of_the_global_score():
    hierarchy = build_hierarchy({"Scialom2024_rgb-behavioral_accuracy": "Scialom2024",
                                 "Scialom2024_contours-behavioral_accuracy": "Scialom2024",
                                 "Baker2022frankenstein-accuracy_delta": "Baker2022",
                                 "Hebart2023-match": "behavior_vision",
                                 "Scialom2024_rgb-engineering_accuracy": "Scialom2024-top1",
                                 "Scialom2024_contours-engineering_accuracy": "Scialom2024-top1",
                                 "ImageNet-top1": "ImageNet"})
    cells = aggregate_scores({"Scialom2024_rgb-behavioral_accuracy": (0.2, None),
                              "Scialom2024_contours-behavioral_accuracy": (0.4, None),
                              "Baker2022frankenstein-accuracy_delta": (0.6, None), "Hebart2023-match": (0.9, None),
                              "Scialom2024_rgb-engineering_accuracy": (0.5, None),
                              "Scialom2024_contours-engineering_accuracy": (0.7, None),
                              "ImageNet-top1": (0.8, None)}, hierarchy)
    # Scialom2024 = (0.2 + 0.4) / 2 = 0.3; behavior = mean(Scialom2024 0.3, Baker2022 0.6, Hebart 0.9) = 0.6
    assert cells["Scialom2024"].value == pytest.approx(0.3)
    assert cells["behavior"].value == pytest.approx(0.6)
    assert cells["average_vision"].value == pytest.approx(0.6)  # no neural score: behaviour alone, no engineering
    # Scialom2024-top1 = (0.5 + 0.7) / 2 = 0.6; engineering = mean(0.6, ImageNet 0.8) = 0.7
    assert cells["Scialom2024-top1"].value == pytest.approx(0.6)
    assert cells["engineering"].value == pytest.approx(0.7)
