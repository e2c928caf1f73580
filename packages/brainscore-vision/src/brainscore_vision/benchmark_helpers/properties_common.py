"""Single-neuron property benchmarks (Marques et al. 2021 style).

The model is recorded like an electrophysiology experiment: its receptive fields are mapped with small gratings,
the units whose receptive field lies at the stimulus are kept, their responses are scaled to V1 firing rates
(:mod:`._firing_rates`), a *property function* turns the responses to the benchmark's gratings (and to the blank)
into per-unit property values (e.g. surround suppression index; the tuning maths are in :mod:`._tuning`), and a
distribution metric (``ks_similarity``) compares them with the measured distribution; the raw similarity is
divided by the data's self-similarity ceiling.

Brain-Score's names (``calc_bandwidth``, ``get_firing_rates``, ``map_receptive_field_locations``, the constants
...) are importable from here, so plugin code written for Brain-Score runs unchanged.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Metric, Score
from brainscore_core.normalization import ceil_score
from brainscore_vision.benchmark_helpers._firing_rates import (  # noqa: F401  (Brain-Score's names, re-exported)
    BLANK_STIM_NAME,
    HIGH_INTERVAL_MAX_RESP,
    HIGH_INTERVAL_PERCENTILE,
    LOW_INTERVAL_MAX_RESP,
    LOW_INTERVAL_PERCENTILE,
    MEDIAN_MAX_RESP,
    MEDIAN_SPONTANEOUS,
    ORIENTATION_NUMBER_OF_TRIALS,
    ORIENTATION_STIM_NAME,
    RESP_THRESH,
    RF_DELTA,
    RF_NUMBER_OF_TRIALS,
    RF_STIM_NAME,
    RF_THRSH,
    SINGLE_MAX_RESP,
    _assert_grating_activations,
    filter_receptive_fields,
    firing_rates_affine,
    get_firing_rates,
    get_stimulus_position,
    map_receptive_field_locations,
    record_from_model,
)
from brainscore_vision.benchmark_helpers._timebins import region_of, squeeze_time_bin
from brainscore_vision.benchmark_helpers._tuning import (
    calc_bandwidth,
    calc_circular_variance,
    calc_orthogonal_preferred_ratio,
    calc_size_tuning,
    calc_sparseness,
    calc_spatial_frequency_tuning,
    calc_texture_modulation,
    calc_variance,
    calc_variance_ratio,
)
from brainscore_vision.benchmark_helpers.screen import place_on_screen
from brainscore_vision.model_interface import BrainModel
from brainscore_vision.utils import resolve

__all__ = ["PropertiesBenchmark", "calc_bandwidth", "calc_circular_variance", "calc_orthogonal_preferred_ratio",
           "calc_size_tuning", "calc_sparseness", "calc_spatial_frequency_tuning", "calc_texture_modulation",
           "calc_variance", "calc_variance_ratio", "filter_receptive_fields", "firing_rates_affine",
           "get_firing_rates", "get_stimulus_position", "map_receptive_field_locations", "record_from_model"]


class PropertiesBenchmark(BenchmarkBase):
    """Compare distributions of single-neuron properties between model and brain.

    Parameters
    ----------
    identifier : str
        E.g. ``'Marques2020_Cavanaugh2002-surround_suppression_index'``.
    assembly : PropertyAssembly or LazyLoad
        Measured property values (dim ``neuroid``, coordinate ``region``); ``attrs['stimulus_set']`` (or
        ``stimulus_set=``) holds the stimuli to record the model with, ``attrs['number_of_trials']`` the trials.
    neuronal_property : callable
        With receptive-field mapping: ``neuronal_property(model_identifier=..., responses=..., baseline=...)``
        (Brain-Score's signature; ``model_identifier`` only if it takes it) -> PropertyAssembly, from the firing
        rates ``neuroid x presentation`` of the selected units to the stimuli and to the blank. Without:
        ``neuronal_property(responses)`` (or ``(responses, baseline)`` when ``baseline_stimulus_set`` is given)
        from the raw ``presentation x neuroid`` responses.
    similarity_metric : Metric
        ``metric(model_properties, measured_properties) -> Score``, e.g. ``load_metric('ks_similarity',
        property_name=...)``.
    timebins : list of (int, int)
        Time bins to record, e.g. ``[(70, 170)]``.
    ceiling_func : callable or Ceiling
        ``ceiling_func() -> Score``; a Ceiling (callable on the assembly, e.g. ``NeuronalPropertyCeiling``) is
        called on the assembly.
    region : str or None, default=None
        Region to record; None: the assembly's single ``region``.
    visual_degrees : float, default=8
        Size of the stimuli in degrees when they have no ``degrees`` column (without receptive-field mapping).
    number_of_trials : int or None, default=None
        None: ``assembly.attrs['number_of_trials']`` (1 when absent).
    stimulus_set, baseline_stimulus_set : StimulusSet or None, default=None
        The stimuli (default: the assembly's) and the baseline stimuli (default with receptive-field mapping:
        ``Marques2020_blank``).
    receptive_field_mapping : bool, default=True
        Brain-Score's recording (map receptive fields, keep the units at the stimulus, scale to firing rates);
        False records the region as it is.
    version : int, default=1
    parent, bibtex : str or None, default=None
    """

    def __init__(self, identifier: str, assembly, neuronal_property: Callable, similarity_metric: Metric,
                 timebins, ceiling_func=None, *, region: str | None = None, visual_degrees: float = 8,
                 number_of_trials: int | None = None, stimulus_set=None, baseline_stimulus_set=None,
                 receptive_field_mapping: bool = True, version: int = 1, parent: str | None = None,
                 bibtex: str | None = None):
        self._assembly = assembly
        self._neuronal_property = neuronal_property
        self._similarity_metric = similarity_metric
        self._timebins = list(timebins)
        self._region = region
        self._visual_degrees = visual_degrees
        self._number_of_trials = number_of_trials
        self._stimulus_set = stimulus_set
        self._baseline_stimulus_set = baseline_stimulus_set
        self._receptive_field_mapping = receptive_field_mapping
        ceiler = ceiling_func
        if ceiling_func is not None and _takes_assembly(ceiling_func):
            def ceiler():
                return ceiling_func(resolve(self._assembly))
        super().__init__(identifier=identifier, ceiling_func=ceiler, version=version, parent=parent, bibtex=bibtex,
                         ceiling_data=lambda: resolve(self._assembly))

    @property
    def timebins(self):
        return self._timebins

    def _record(self, candidate: BrainModel, stimulus_set):
        placed = place_on_screen(stimulus_set, target_visual_degrees=candidate.visual_degrees(),
                                 source_visual_degrees=None if "degrees" in stimulus_set else self._visual_degrees)
        return squeeze_time_bin(candidate.look_at(placed, number_of_trials=self._trials(None)))

    def _trials(self, assembly) -> int:
        if self._number_of_trials is not None:
            return int(self._number_of_trials)
        return int(assembly.attrs.get("number_of_trials", 1)) if assembly is not None else 1

    def __call__(self, candidate: BrainModel) -> Score:
        assembly = resolve(self._assembly)
        # resolved first: a stimulus set that cannot be had fails before any recording
        stimulus_set = resolve(self._stimulus_set if self._stimulus_set is not None
                               else assembly.attrs["stimulus_set"])
        region = self._region or region_of(assembly)
        candidate.start_recording(region, time_bins=self._timebins)
        if self._receptive_field_mapping:
            model_properties = self._mapped_properties(candidate, region, stimulus_set, self._trials(assembly))
        else:
            responses = self._record(candidate, stimulus_set)
            if self._baseline_stimulus_set is not None:
                baseline = self._record(candidate, resolve(self._baseline_stimulus_set))
                model_properties = self._neuronal_property(responses, baseline)
            else:
                model_properties = self._neuronal_property(responses)
        raw = self._similarity_metric(model_properties, assembly)
        return ceil_score(raw, self.ceiling)

    def _mapped_properties(self, candidate: BrainModel, region: str, stimulus_set, number_of_trials: int):
        model_identifier = candidate.identifier
        in_rf = filter_receptive_fields(model_identifier, candidate, region, get_stimulus_position(stimulus_set))
        responses = get_firing_rates(model_identifier, candidate, region, stimulus_set, number_of_trials, in_rf)
        baseline_stimuli = self._baseline_stimulus_set if self._baseline_stimulus_set is not None \
            else BLANK_STIM_NAME
        baseline = get_firing_rates(model_identifier, candidate, region, baseline_stimuli, number_of_trials, in_rf)
        arguments = {"model_identifier": model_identifier, "responses": responses, "baseline": baseline}
        accepted = _keyword_names(self._neuronal_property)
        if accepted is not None:
            arguments = {name: value for name, value in arguments.items() if name in accepted}
        return self._neuronal_property(**arguments)


def _keyword_names(function) -> set[str] | None:
    """Names ``function`` takes by keyword; None when it takes ``**kwargs`` or cannot be inspected."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return None
    return {p.name for p in parameters if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def _takes_assembly(function) -> bool:
    """Whether ``function`` is a Ceiling-like callable of one argument (rather than ``() -> Score``)."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return False
    required = [p for p in signature.parameters.values()
                if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(required) == 1
