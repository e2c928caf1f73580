"""Testing benchmarks without running a model: stored features stand in for a BrainModel.

The ``run_test`` pattern of the Brain-Score tutorials::

    score = run_test(benchmark, precomputed_features_filepath='alexnet-features.nc')

:class:`PrecomputedFeatures` answers every ``look_at`` with the rows of a stored NeuroidAssembly whose
``stimulus_id`` matches the stimuli asked for, in the order asked for; it ignores the recording target,
the time bins and the screen (its visual degrees default to 8, so benchmarks at 8 degrees hand it the
stimuli unchanged).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from brainio.assemblies import NeuroidAssembly
from brainscore_core.metrics import Score
from brainscore_vision.model_interface import BrainModel

__all__ = ["NumberOfTrialsTests", "PrecomputedFeatures", "PrecomputedTests", "StandardizedTests", "VisualDegreesTests",
           "run_test"]


class PrecomputedFeatures(BrainModel):
    """A BrainModel that returns stored features.

    Parameters
    ----------
    features : NeuroidAssembly, or dict of str -> assembly
        Dims ``presentation x ...``, ``presentation`` carrying ``stimulus_id`` (one row per stimulus); a dict maps
        a stimulus set's identifier to its features (Brain-Score's form for benchmarks showing several sets).
        Behavioural features (choices) work too: any task is accepted, the stored values are the answer.
    visual_degrees : float, default=8
    identifier : str, default='precomputed-features'
    """

    def __init__(self, features: NeuroidAssembly, visual_degrees: float = 8,
                 identifier: str = "precomputed-features"):
        self.features = features
        self._visual_degrees = visual_degrees
        self._identifier = identifier
        self.recordings: list[tuple[str, list]] = []

    @property
    def identifier(self) -> str:
        return self._identifier

    def visual_degrees(self) -> float:
        return self._visual_degrees

    def start_task(self, task, fitting_stimuli=None) -> None:
        self.task = task  # stored features answer every task

    def start_recording(self, recording_target, time_bins) -> None:
        self.recordings.append((str(recording_target), list(time_bins)))

    def look_at(self, stimuli, number_of_trials: int = 1) -> NeuroidAssembly:
        features = self.features
        if isinstance(features, dict):
            identifier = getattr(stimuli, "identifier", None)
            if identifier not in features:
                raise KeyError(f"precomputed features have no entry for stimulus set {identifier!r} "
                               f"(they have {sorted(features)})")
            features = features[identifier]
        stored = [str(s) for s in features["stimulus_id"].values]
        index = {stimulus_id: row for row, stimulus_id in enumerate(stored)}
        wanted = [str(s) for s in stimuli["stimulus_id"].values]
        missing = [s for s in wanted if s not in index]
        if missing:
            raise KeyError(f"precomputed features lack stimuli {missing[:5]} ({len(missing)} in all)")
        features = features.transpose("presentation", ...)
        rows = features.isel(presentation=np.array([index[s] for s in wanted]))
        # carry the asked-for stimulus set's metadata, as a real model would
        for column in stimuli.columns:
            if column != "stimulus_id" and column not in rows.coords:
                rows = rows.assign_coords({column: ("presentation", stimuli[column].to_numpy())})
        return rows


def run_test(benchmark, precomputed_features_filepath: str | Path | None = None, *, features=None,
             visual_degrees: float = 8) -> Score:
    """Score ``benchmark`` on stored features (a netCDF file or an assembly).

    Parameters
    ----------
    benchmark : Benchmark
    precomputed_features_filepath : str or Path or None, default=None
        A netCDF NeuroidAssembly (``brainio.netcdf.read_netcdf``).
    features : NeuroidAssembly or None, default=None
        The features themselves (instead of a file).
    visual_degrees : float, default=8
        Field of view the features were computed at.
    """
    if (precomputed_features_filepath is None) == (features is None):
        raise ValueError("pass exactly one of precomputed_features_filepath and features")
    if features is None:
        from brainio.netcdf import read_netcdf

        features = read_netcdf(precomputed_features_filepath, cls=NeuroidAssembly)
    return benchmark(PrecomputedFeatures(features, visual_degrees=visual_degrees))


class StandardizedTests:
    """Brain-Score's standard benchmark checks, for plugin test files (``StandardizedTests().ceilings_test(...)``).

    ``expected`` is a number or a ``pytest.approx``.
    """

    def ceilings_test(self, benchmark: str, expected) -> None:
        """The ceiling of ``benchmark`` equals ``expected``."""
        from brainscore_vision import load_benchmark

        ceiling = float(load_benchmark(benchmark).ceiling)
        assert ceiling == expected, f"ceiling of {benchmark!r} is {ceiling}, expected {expected}"

    def self_regression_test(self, benchmark: str, visual_degrees: float, expected) -> None:
        """The benchmark's own data as the model's features: the raw score equals ``expected``, with raw values
        over ``neuroid`` and 10 ``split``s."""
        raw = self._self_score(benchmark, visual_degrees, expected)
        assert "neuroid" in raw.dims and raw.sizes.get("split") == 10, f"raw values have dims {raw.sizes}"

    def self_rdm_test(self, benchmark: str, visual_degrees: float, expected) -> None:
        """As :meth:`self_regression_test` for RDM benchmarks: raw values over 10 ``split``s."""
        raw = self._self_score(benchmark, visual_degrees, expected)
        assert raw.sizes.get("split") == 10, f"raw values have dims {raw.sizes}"

    @staticmethod
    def _self_score(identifier: str, visual_degrees: float, expected):
        from brainscore_vision import load_benchmark
        from brainscore_vision.utils import resolve

        benchmark = load_benchmark(identifier)
        score = benchmark(PrecomputedFeatures(resolve(benchmark._assembly), visual_degrees=visual_degrees))
        raw = score.attrs["raw"]
        assert float(raw) == expected, f"raw score of {identifier!r} is {float(raw)}, expected {expected}"
        return raw.attrs["raw"]


class PrecomputedTests:
    """Score a benchmark on stored features, as Brain-Score's plugin tests do."""

    def run_test(self, benchmark: str, precomputed_features_filepath: str | Path, expected) -> None:
        """The raw score on the features in ``precomputed_features_filepath`` (stimuli identified by file name,
        ``stimulus_path``, as Brain-Score's feature files store them) equals ``expected``."""
        from brainscore_vision import load_benchmark
        from brainscore_vision.utils import resolve

        benchmark = load_benchmark(benchmark)
        stimulus_set = resolve(benchmark._assembly).stimulus_set
        features = _features_by_stimulus(precomputed_features_filepath, stimulus_set)
        raw = benchmark(PrecomputedFeatures(features, visual_degrees=10)).attrs["raw"]
        assert float(raw) == expected, f"raw score is {float(raw)}, expected {expected}"


def _features_by_stimulus(path: str | Path, stimulus_set) -> NeuroidAssembly:
    """Stored features whose ``stimulus_path`` file names are matched to ``stimulus_set``'s files."""
    from brainio.netcdf import read_netcdf

    features = read_netcdf(path, cls=NeuroidAssembly)
    if "stimulus_id" in features.coords:
        return features
    names = [Path(p).name for p in np.asarray(features["stimulus_path"].values).astype(str)]
    id_of = {Path(stimulus_set.get_stimulus(s)).name: s for s in stimulus_set["stimulus_id"]}
    missing = sorted(set(names) - set(id_of))
    if missing:
        raise KeyError(f"stored features name files the stimulus set lacks: {missing[:5]}")
    return features.assign_coords(stimulus_id=("presentation", [id_of[name] for name in names]))


class _StopCandidate(BrainModel):
    """A candidate that checks what the benchmark shows it, then stops the benchmark."""

    class StopException(Exception):
        pass

    def __init__(self, degrees: float, check):
        self._degrees, self._check = degrees, check

    @property
    def identifier(self) -> str:
        return "stop-candidate"

    def visual_degrees(self) -> float:
        return self._degrees

    def start_task(self, task, fitting_stimuli=None) -> None:
        pass

    def start_recording(self, recording_target, time_bins=None) -> None:
        pass

    def look_at(self, stimuli, number_of_trials: int = 1):
        self._check(stimuli, number_of_trials)
        raise self.StopException()


def _run_until_look_at(identifier: str, candidate: _StopCandidate) -> None:
    from brainscore_vision import load_benchmark

    try:
        load_benchmark(identifier)(candidate)
    except _StopCandidate.StopException:
        return
    raise AssertionError(f"benchmark {identifier!r} never called look_at")


class VisualDegreesTests:
    """Checks of ``place_on_screen`` as a benchmark applies it."""

    def amount_gray_test(self, benchmark: str, candidate_degrees: float, image_id: str, expected) -> None:
        """The image ``image_id`` shown to a model of ``candidate_degrees``: its gray (128, 128, 128) pixels over
        ``image.size`` (the number of array elements, height x width x channels, as Brain-Score divides) equal
        ``expected``."""
        from PIL import Image

        def check(stimuli, number_of_trials):
            with Image.open(stimuli.get_stimulus(image_id)) as image:
                pixels = np.asarray(image)
            gray = np.all(pixels.reshape(pixels.shape[0], pixels.shape[1], -1) == 128, axis=-1).sum()
            assert gray / pixels.size == expected, f"gray fraction {gray / pixels.size}, expected {expected}"

        _run_until_look_at(benchmark, _StopCandidate(candidate_degrees, check))


class NumberOfTrialsTests:
    """Checks that a benchmark asks for repeated trials."""

    def repetitions_test(self, benchmark_identifier: str) -> None:
        def check(stimuli, number_of_trials):
            assert number_of_trials > 1, f"{benchmark_identifier!r} asks for {number_of_trials} trial(s)"

        _run_until_look_at(benchmark_identifier, _StopCandidate(8, check))
