"""The battery over every registered plugin: metrics, ceilings, benchmarks (scored with a small model), models, data
and stimulus sets, discovered from the registries as scikit-learn's ``test_common.py`` discovers estimators.

This repository's tests run it over everything installed; a plugin author runs it over their own distribution with
one call::

    from brainscore_vision.testing import check_plugins

    def test_my_plugins():
        check_plugins("my-brainscore-plugin")     # the distribution name in your pyproject.toml

or, one test per plugin, ``@pytest.mark.parametrize("check", plugin_checks("my-brainscore-plugin"), ids=str)`` and
``check()`` in the test (first, where ``check.skip_reason`` is set, ``brainio.skipping.skip(check.skip_kind,
check.skip_reason)``: the skip is then counted under its kind, and fails under ``BRAINSCORE_REQUIRE_DATA=1`` when the
kind is one CI provides).

What each kind is checked with:

================  ===================================================================================================
kind              check
================  ===================================================================================================
``metric``        :func:`brainscore_metrics.testing.check_registered_metric` (example inputs of its kind)
``ceiling``       the same, through :func:`brainscore_core.testing.check_ceiling`
``benchmark``     :func:`brainscore_core.testing.check_benchmark` with a candidate model scored, and the ceiling read
                  a second time from a fresh instance (its disk cache, or computed again)
``model``         :func:`brainscore_core.testing.check_brain_model` on a few stimuli (the first 3 of Kriegeskorte
                  2008 by default: enough for its checks, cheap for large networks)
``data``          :func:`brainscore_core.testing.check_data_plugin` on the loaded assembly
``stimulus_set``  the same, on the loaded stimulus set (the files of its first ten stimuli)
================  ===================================================================================================

Skipped, with the reason and a kind of :data:`brainio.skipping.SKIP_REASONS` derived from the plugin's data need
(:func:`brainscore_vision.benchmark_data.plugin_data_need`, through :data:`NEED_SKIP_KINDS`): Brain-Score's public
bucket (``network``: the battery runs offline), its private or unconfirmed files (``credentials``), a local folder
that is not set (``local-data``), stimuli that cannot be had (``unavailable``). Models are skipped when their factory
says they cannot run here (``availability()``: weights not downloaded, ``network``; a module of an opt-in extra
missing, ``opt-in``) or when they are another name of a registered model (``alias_of``, ``covered``: checked under
that name). Shipped data never skip here: without them the check fails (or skips as ``data`` in the test's
fixture). Benchmarks whose stimuli cannot be had are checked without scoring.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["KINDS", "NEED_SKIP_KINDS", "PluginCheck", "check_plugins", "plugin_checks"]

#: the registry kinds the battery covers, in the order it runs them
KINDS = ("metric", "ceiling", "data", "stimulus_set", "model", "benchmark")
_NEEDS = {"network": "its data come from Brain-Score's public bucket, and the battery runs offline",
          "network+local": "its data come from Brain-Score's public bucket, and the battery runs offline",
          "credentials": "its data come from Brain-Score's bucket (unsigned or with AWS credentials), and the battery "
                         "runs offline",
          "private": "its data are Brain-Score's private files: they need Brain-Score credentials, and the battery "
                     "runs offline"}
#: a data need (:mod:`brainscore_vision.benchmark_data`) -> the kind of skip it gives (brainio.skipping.SKIP_REASONS);
#: ``shipped`` and ``?`` (a third party's plugin) run
NEED_SKIP_KINDS = {"network": "network", "network+local": "network", "credentials": "credentials",
                   "private": "credentials", "local": "local-data", "unavailable": "unavailable"}
#: a model's ``availability()`` state -> its kind of skip; any other state that is not ready: ``opt-in`` (a module the
#: battery cannot install, e.g. torchvision)
_AVAILABILITY_SKIP_KINDS = {"needs weights": "network"}


@dataclass(frozen=True)
class PluginCheck:
    """One check of the battery: ``check()`` runs it (raising AssertionError or the metric battery's error naming the
    plugin and the failed check); ``skip_reason`` says why it cannot run here (then ``check()`` does nothing) and
    ``skip_kind`` its kind of :data:`brainio.skipping.SKIP_REASONS`."""

    kind: str
    identifier: str
    distribution: str | None
    skip_reason: str | None = None
    note: str | None = None
    skip_kind: str | None = None
    _run: Callable[[], None] | None = field(default=None, repr=False, compare=False)

    def __call__(self) -> None:
        if self.skip_reason is None and self._run is not None:
            self._run()

    def __str__(self) -> str:
        return f"{self.kind}:{self.identifier}"


def _few_stimuli(count: int = 3) -> Any:
    """The first ``count`` stimuli of Kriegeskorte 2008 (shipped with this package's raw data)."""
    import brainscore_vision

    stimuli = brainscore_vision.load_stimulus_set("Kriegeskorte2008")
    few = stimuli.iloc[:count].copy()
    few.identifier = f"Kriegeskorte2008-first{count}"
    return few


def _model_maker(model: str | Callable[[], Any]) -> Callable[[], Any]:
    import brainscore_vision

    return (lambda: brainscore_vision.load_model(model)) if isinstance(model, str) else model


def _data_skip(kind: str, identifier: str, module: str | None) -> tuple[str, str] | None:
    """(skip kind, reason) from the plugin's data need, or None when its check runs."""
    from brainscore_vision.benchmark_data import plugin_data_need
    from brainscore_vision.data_helpers.local_data import LOCAL_FOLDERS, local_folder_status

    need, folder = plugin_data_need(kind, identifier, module)
    if need in _NEEDS:
        return NEED_SKIP_KINDS[need], _NEEDS[need]
    if need == "local" and folder is not None and not local_folder_status(folder)[0]:
        spec = LOCAL_FOLDERS[folder]
        return NEED_SKIP_KINDS[need], f"needs {spec.what} from a local folder, and {spec.variable} is not set to one"
    if need == "unavailable" and kind == "stimulus_set":
        return NEED_SKIP_KINDS[need], "its images cannot be had (the load raises a one-line error saying so)"
    return None


def _check_for(info: Any, *, model: str | Callable[[], Any], stimuli: Callable[[], Any]) -> PluginCheck:
    import brainscore_vision
    from brainscore_core import testing as core_testing

    kind, identifier = info.kind, info.identifier
    base = {"kind": kind, "identifier": identifier, "distribution": info.distribution}
    if kind in ("metric", "ceiling"):
        from brainscore_metrics.testing import check_registered_metric

        registry = brainscore_vision.metric_registry if kind == "metric" else brainscore_vision.ceiling_registry
        return PluginCheck(**base, _run=lambda: check_registered_metric(identifier, registry[identifier]))
    skip = _data_skip(kind, identifier, info.module)
    if skip:
        return PluginCheck(**base, skip_kind=skip[0], skip_reason=skip[1])
    if kind == "data":
        return PluginCheck(**base, _run=lambda: core_testing.check_data_plugin(
            identifier, brainscore_vision.load_dataset(identifier)))
    if kind == "stimulus_set":
        return PluginCheck(**base, _run=lambda: core_testing.check_data_plugin(
            identifier, brainscore_vision.load_stimulus_set(identifier)))
    if kind == "model":
        factory = brainscore_vision.model_registry[identifier]
        alias_of = getattr(factory, "alias_of", None)
        if isinstance(alias_of, str) and alias_of in brainscore_vision.model_registry:
            return PluginCheck(**base, skip_kind="covered",
                               skip_reason=f"another name of {alias_of!r} (the same network), checked there")
        availability = getattr(factory, "availability", None)
        if callable(availability):
            state, hint = availability()
            if state != "ready":
                return PluginCheck(**base, skip_kind=_AVAILABILITY_SKIP_KINDS.get(state, "opt-in"),
                                   skip_reason=f"{state}: {hint}")
            if "downloaded on first use" in hint:  # ready, but its weights would be fetched now
                return PluginCheck(**base, skip_kind="network", skip_reason=f"{hint}, and the battery runs offline")
        return PluginCheck(**base, _run=lambda: core_testing.check_brain_model(
            brainscore_vision.load_model(identifier), stimuli()))
    from brainscore_vision.benchmark_data import data_need

    if data_need(identifier)[0] == "unavailable":
        return PluginCheck(**base, note="not scored: its stimuli cannot be had", _run=lambda: core_testing.check_benchmark(
            brainscore_vision.load_benchmark(identifier), reload=lambda: brainscore_vision.load_benchmark(identifier)))
    make_model = _model_maker(model)
    return PluginCheck(**base, _run=lambda: core_testing.check_benchmark(
        brainscore_vision.load_benchmark(identifier), make_model(),
        reload=lambda: brainscore_vision.load_benchmark(identifier)))


def plugin_checks(distribution: str | Iterable[str] | None = None, *, kinds: Iterable[str] = KINDS,
                  model: str | Callable[[], Any] = "randomnet", stimuli: Callable[[], Any] = _few_stimuli,
                  ) -> list[PluginCheck]:
    """One :class:`PluginCheck` per registered plugin, discovered from the registries.

    Parameters
    ----------
    distribution : str, iterable of str or None, default=None
        Only plugins registered by these distributions (the name in a ``pyproject.toml``); None: every plugin.
    kinds : iterable of str, default=KINDS
        The registry kinds to cover.
    model : str or callable () -> BrainModel, default='randomnet'
        The candidate each benchmark scores: a registered model identifier, or a function building one.
    stimuli : callable () -> StimulusSet, default=the first 3 stimuli of Kriegeskorte 2008
        What the model checks look at.
    """
    import brainscore_vision

    wanted = None if distribution is None else {distribution} if isinstance(distribution, str) else set(distribution)
    return [_check_for(info, model=model, stimuli=stimuli) for kind in kinds
            for info in brainscore_vision.list_plugins(kind) if wanted is None or info.distribution in wanted]


def check_plugins(distribution: str | Iterable[str] | None = None, **kwargs: Any) -> dict[str, str]:
    """Run every check of :func:`plugin_checks` (same arguments) and return ``{'kind:identifier': outcome}``
    (``'passed'``, ``'passed (note)'`` or ``'skipped: [kind] reason'``).

    Raises
    ------
    AssertionError
        Listing every failed check, one line each; raised also when no plugin of ``distribution`` is registered.
    """
    checks = plugin_checks(distribution, **kwargs)
    if not checks:
        raise AssertionError(f"no plugin of distribution {distribution!r} is registered (is it installed?)")
    outcomes, failures = {}, []
    for check in checks:
        if check.skip_reason:
            outcomes[str(check)] = f"skipped: [{check.skip_kind}] {check.skip_reason}"
            continue
        try:
            check()
        except Exception as error:  # every failure is collected and reported together
            failures.append(f"{check}: {type(error).__name__}: {error}")
            continue
        outcomes[str(check)] = f"passed ({check.note})" if check.note else "passed"
    if failures:
        raise AssertionError(f"{len(failures)} of {len(checks)} plugin checks failed:\n" + "\n".join(failures))
    return outcomes
