"""The public metric battery (brainscore_metrics.testing) over every metric and ceiling this package registers,
discovered from its plugin hooks (as scikit-learn's test_common.py discovers estimators): a new identifier is
covered without editing this file. The one list of identifiers let off part of the battery is
``brainscore_metrics._battery_examples.BATTERY_WAIVERS``; the tests below show each entry is still needed."""

import numpy as np
import pytest
from _cowley import averaged, image_features, load_trials
from _regression_helpers import synthetic_pair

from brainscore_core.metrics import Metric, Score
from brainscore_metrics import plugin
from brainscore_metrics._battery_examples import (
    BATTERY_WAIVERS,
    CLASS_EXAMPLES,
    EXAMPLE_KINDS,
    IDENTIFIER_EXAMPLES,
)
from brainscore_metrics.testing import (
    MetricCheckError,
    battery_example,
    check_metric,
    check_registered_metric,
)

METRIC_FACTORIES = plugin.brainscore_metrics()
CEILING_FACTORIES = plugin.brainscore_ceilings()

#: the waivers when this battery was written; an entry may leave (the metric then passes the whole battery), none
#: may join without editing this line and saying why in BATTERY_WAIVERS
WAIVERS_WHEN_WRITTEN = {"confusion_similarity", "tasks_consistency", "factor_dimensionality"}


@pytest.mark.parametrize("identifier", sorted(METRIC_FACTORIES))
def test_registered_metric_battery(identifier):
    check_registered_metric(identifier, METRIC_FACTORIES[identifier])


@pytest.mark.parametrize("identifier", sorted(CEILING_FACTORIES))
def test_registered_ceiling_battery(identifier):
    check_registered_metric(identifier, CEILING_FACTORIES[identifier])


def test_waivers_only_shrink_and_give_reasons():
    assert set(BATTERY_WAIVERS) <= WAIVERS_WHEN_WRITTEN, sorted(set(BATTERY_WAIVERS) - WAIVERS_WHEN_WRITTEN)
    for identifier, (check, reason) in BATTERY_WAIVERS.items():
        assert identifier in METRIC_FACTORIES, f"{identifier}: waived but not registered"
        assert check == "attrs" and len(reason.split()) >= 5, (identifier, check, reason)


@pytest.mark.parametrize("identifier", sorted(BATTERY_WAIVERS))
def test_each_waiver_is_still_needed(identifier):
    """Run without its waiver, the metric fails exactly the check it is let off (else the entry must go)."""
    with pytest.raises(MetricCheckError, match=r"lacks attrs\['error'\]"):
        check_registered_metric(identifier, METRIC_FACTORIES[identifier], waived="")


def test_every_example_kind_and_class_entry_is_used():
    """Every input kind feeds some registered class, every class entry names a registered class and a known kind."""
    classes = {target[1] for target in (*plugin.METRICS.values(), *plugin.CEILINGS.values())}
    assert set(CLASS_EXAMPLES) <= classes, sorted(set(CLASS_EXAMPLES) - classes)
    used = {entry["kind"] for entry in (*CLASS_EXAMPLES.values(), *IDENTIFIER_EXAMPLES.values())} | {"neural"}
    assert used == set(EXAMPLE_KINDS), sorted(set(EXAMPLE_KINDS) ^ used)


# -- the battery on a third party's metric ----------------------------------------------------------------------
class _ThirdPartyCorrelation(Metric):
    """The share of stimuli (matched by stimulus_id) given the same label; declares how the battery feeds it."""

    battery_example = {"kind": "labels"}

    def __call__(self, source, target):
        truth = dict(zip(target["stimulus_id"].values.tolist(), target.values.tolist(), strict=True))
        same = float(np.mean([truth[i] == v for i, v in zip(source["stimulus_id"].values.tolist(),
                                                              source.values.tolist(), strict=True)]))
        return Score(same, attrs={"error": 0.0, "raw": Score(same)})


def test_a_third_party_class_declares_its_example():
    assert battery_example(_ThirdPartyCorrelation)["kind"] == "labels"
    score = check_registered_metric("third_party", _ThirdPartyCorrelation)
    assert 0 < float(score) < 1


def test_a_foreign_class_named_like_ours_gets_the_default_example():
    foreign = type("Accuracy", (Metric,), {"__module__": "someone_elses_plugin"})
    assert battery_example(foreign)["kind"] == "neural"


# -- the checks fail on bad metrics -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pair():
    source, target, *_ = synthetic_pair(n=120, p=30, q=30, seed=4)
    return source, target


def test_check_metric_catches_a_bad_metric(pair):
    def not_a_score(source, target):
        return 0.5

    def order_dependent(source, target):
        score = Score(np.asarray(float(source.values[0, 0])))
        score.attrs.update(error=0.0, raw=score.copy())
        return score

    def without_attrs(source, target):
        return Score(0.5)

    counter = iter(range(100))

    def drifting(source, target):
        return Score(float(next(counter)), attrs={"error": 0.0, "raw": 0.0})

    with pytest.raises(MetricCheckError, match="not a Score"):
        check_metric(not_a_score, *pair)
    with pytest.raises(MetricCheckError, match="order"):
        check_metric(order_dependent, *pair)
    with pytest.raises(MetricCheckError, match="lacks attrs"):
        check_metric(without_attrs, *pair)
    with pytest.raises(MetricCheckError, match="not deterministic"):
        check_metric(drifting, *pair)
    with pytest.raises(MetricCheckError, match="dims"):
        check_metric(lambda s, t: Score(0.5, attrs={"error": 0, "raw": 0}), *pair, expected_dims=("time_bin",))


def test_registered_metric_failure_names_the_identifier():
    def factory():
        return lambda source, target: Score(np.nan, attrs={"error": 0.0, "raw": 0.0})

    with pytest.raises(MetricCheckError, match=r"^my_nan_metric \(function, 'neural' inputs\): .*finite"):
        check_registered_metric("my_nan_metric", factory)


# -- on real recordings -----------------------------------------------------------------------------------------
@pytest.mark.filterwarnings("ignore:PLS power iteration reached max_iter")
def test_battery_on_real_recordings(raw_data_dir):
    """pls and the internal-consistency ceiling through the battery on Cowley 2023 V4 (session 210325): image
    features of its 640 images against the trial-averaged responses, and the single trials."""
    from brainscore_core.testing import check_ceiling

    trials = load_trials(raw_data_dir)
    features, target = image_features(raw_data_dir), averaged(trials)
    score = check_metric(METRIC_FACTORIES["pls"](), features, target)
    assert 0 < float(score) < 1 and score.attrs["raw"].sizes["split"] == 10
    check_ceiling(CEILING_FACTORIES["internal_consistency"](), trials)
