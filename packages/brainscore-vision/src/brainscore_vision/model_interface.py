"""The interface every model implements to be scored on a benchmark.

A benchmark talks to a model only through :class:`BrainModel`: it tells the model which task to perform
(:meth:`BrainModel.start_task`) or which region to record from (:meth:`BrainModel.start_recording`), then
shows it stimuli (:meth:`BrainModel.look_at`). Models arrive through entry points (for example the
``pixels`` and ``randomnet`` models of model-tools); this package never imports them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from enum import StrEnum

__all__ = ["DEFAULT_TIME_BINS", "BrainModel"]

DEFAULT_TIME_BINS = [(70, 170)]
"""The recording window (ms after stimulus onset) benchmarks and models use when none is given."""


class BrainModel(ABC):
    """A model of the primate ventral visual stream, as seen by a benchmark.

    Output conventions
    ------------------
    * Neural recordings (after :meth:`start_recording`): a ``NeuroidAssembly`` of dims
      ``presentation x neuroid`` (``x time_bin`` when more than one bin was asked for). ``presentation``
      carries ``stimulus_id`` and every stimulus-set column; ``neuroid`` carries a unique ``neuroid_id``,
      ``region`` and ``layer``; ``time_bin`` carries ``time_bin_start`` and ``time_bin_end`` in ms.
    * ``Task.label``: a ``BehavioralAssembly`` of label strings, dims ``presentation x choice`` (one choice).
    * ``Task.probabilities``: dims ``presentation x choice``, ``choice`` coordinate = the fitted labels.
    * ``Task.odd_one_out``: the stimulus id of the odd stimulus per triplet of ``presentation`` rows.
    """

    class Task(StrEnum):
        """What a model is asked to do with the stimuli it looks at (members equal their string names)."""

        passive = "passive"
        """Look at the stimuli without reporting anything (no output besides recordings)."""
        label = "label"
        """Report a label per stimulus; ``fitting_stimuli`` is a label list or ``'imagenet'``."""
        probabilities = "probabilities"
        """Report a probability per label; ``fitting_stimuli`` is a StimulusSet with an ``image_label`` column."""
        odd_one_out = "odd_one_out"
        """For each consecutive triplet of stimuli, report the one least similar to the other two."""

    class RecordingTarget(StrEnum):
        """Regions of the ventral stream a model can be recorded from."""

        V1 = "V1"
        V2 = "V2"
        V4 = "V4"
        IT = "IT"

    @property
    @abstractmethod
    def identifier(self) -> str:
        """Unique name of the model, e.g. ``'randomnet'``."""

    @abstractmethod
    def visual_degrees(self) -> float:
        """Field of view of the model's input, in degrees of visual angle (Brain-Score's default is 8)."""

    @abstractmethod
    def start_task(self, task: BrainModel.Task | str, fitting_stimuli=None) -> None:
        """Prepare the model for ``task``; later :meth:`look_at` calls answer it.

        Parameters
        ----------
        task : BrainModel.Task or str
            The task (``'passive'``, ``'label'``, ``'probabilities'`` or ``'odd_one_out'``).
        fitting_stimuli : StimulusSet, list of str, str or None, default=None
            What the task needs to be set up: labelled stimuli for ``probabilities``, the label set for
            ``label``; ignored for ``passive``.
        """

    @abstractmethod
    def start_recording(self, recording_target: BrainModel.RecordingTarget | str,
                        time_bins: list[tuple[int, int]]) -> None:
        """Record from ``recording_target`` during the next :meth:`look_at` calls.

        Parameters
        ----------
        recording_target : BrainModel.RecordingTarget or str
            Region to record from (``'V1'``, ``'V2'``, ``'V4'`` or ``'IT'``).
        time_bins : list of (int, int)
            Time windows ``(start_ms, end_ms)`` after stimulus onset, e.g. ``[(70, 170)]``.
        """

    @abstractmethod
    def look_at(self, stimuli, number_of_trials: int = 1):
        """Show ``stimuli`` to the model and return its output for the current task or recording.

        Parameters
        ----------
        stimuli : StimulusSet
            The stimuli, already placed on the model's screen (see
            :func:`brainscore_vision.benchmark_helpers.screen.place_on_screen`).
        number_of_trials : int, default=1
            How often each stimulus is shown; deterministic models may ignore it.

        Returns
        -------
        NeuroidAssembly or BehavioralAssembly
            See the class docstring for dims and coordinates.
        """
