"""``Ferguson2024<experiment>-value_delta``: visual-search asymmetry in a binary oddball task (BRAVO), 14 experiments.

As Brain-Score defines it (``benchmarks/ferguson2024``, commit c642dbe4):

1. Every stimulus is labelled ``'oddball'`` when its ``image_number`` is even, else ``'same'``; the model fits the
   ``probabilities`` task on the experiment's 1,920 training stimuli and looks at its 48 test stimuli (both shown at
   **8 degrees**, 3 trials). It answers ``'oddball'`` where its probability of ``'oddball'`` exceeds that of
   ``'same'`` (Brain-Score thresholds a softmax of the two probabilities at 0.5: the same decision).
2. Per block (``first``: target among distractors, ``second``: the reverse) and per number of distractors (1, 5, 11;
   for the model, from ``image_number`` as Brain-Score's table maps it), each subject's accuracy is corrected for
   the experiment's lapse rate ``l`` (a constant of Brain-Score's helpers): ``(accuracy - l / 2) / (1 - l)``, and
   averaged over subjects (the model is one subject).
3. The deltas ``second - first`` at 1, 5 and 11 distractors are joined by straight lines, and the integral of that
   curve from 1 to 11 is the experiment's summary, computed as Brain-Score's sympy code computes it: the lines' slope
   and intercept written to 10 decimals, the sum rounded to 4 decimals and held at the binary precision of the digits
   kept (:func:`symbolic_round`).
4. Raw score: ``value_delta`` with scale 0.75 between the model's and the humans' integrals, ``exp(-0.75 |a - b|)``.
   Ceiling: Brain-Score's precomputed split-half constant (:data:`PRECOMPUTED_CEILINGS`, with its error); score =
   raw / ceiling clipped to [0, 1]. Version 1, parent ``behavior``.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_vision import load_dataset, load_metric, load_stimulus_set
from brainscore_vision.benchmark_helpers.screen import place_on_screen
from brainscore_vision.data.ferguson2024 import EXPERIMENTS
from brainscore_vision.model_interface import BrainModel
from brainscore_vision.utils import LazyLoad, resolve

__all__ = ["DISTRACTOR_NUMS", "EXPERIMENTS", "LAPSE_RATES", "PRECOMPUTED_CEILINGS", "Ferguson2024ValueDelta",
           "block_accuracies", "delta_integral", "distractors_of_image", "experiment_integral", "symbolic_round"]

BIBTEX = """@misc{ferguson_ngo_lee_dicarlo_schrimpf_2024,
  title = {How Well is Visual Search Asymmetry predicted by a Binary-Choice, Rapid, Accuracy-based Visual-search,
           Oddball-detection (BRAVO) task?},
  url = {osf.io/5ba3n}, DOI = {10.17605/OSF.IO/5BA3N}, publisher = {OSF},
  author = {Ferguson, Michael E, Jr and Ngo, Jerry and Lee, Michael and DiCarlo, James and Schrimpf, Martin},
  year = {2024}, month = {Jun}
}"""

VISUAL_DEGREES = 8
NUMBER_OF_TRIALS = 3
VALUE_DELTA_SCALE = 0.75  # Brain-Score's, "chosen after calibrating with ceiling"
#: (ceiling, error) per experiment: Brain-Score's precomputed split-half ceilings (benchmark.py)
PRECOMPUTED_CEILINGS = {
    "circle_line": (0.883, 0.078), "color": (0.897, 0.072), "convergence": (0.862, 0.098), "eighth": (0.852, 0.107),
    "gray_easy": (0.907, 0.064), "gray_hard": (0.863, 0.099), "half": (0.898, 0.077), "juncture": (0.767, 0.141),
    "lle": (0.831, 0.116), "llh": (0.812, 0.123), "quarter": (0.876, 0.087), "round_f": (0.874, 0.088),
    "round_v": (0.853, 0.101), "tilted_line": (0.912, 0.064)}
#: mean lapse rate of the subjects per experiment: Brain-Score's constants (helpers/helpers.py)
LAPSE_RATES = {
    "circle_line": 0.0335, "color": 0.0578, "convergence": 0.0372, "eighth": 0.05556, "gray_easy": 0.0414,
    "gray_hard": 0.02305, "half": 0.0637, "juncture": 0.3715, "lle": 0.0573, "llh": 0.0402, "quarter": 0.0534,
    "round_f": 0.08196, "round_v": 0.0561, "tilted_line": 0.04986}
DISTRACTOR_NUMS = ("1.0", "5.0", "11.0")
_FEW = frozenset((0, 1, 6, 7, 12, 13, 18, 19))  # image numbers with 1 distractor; Brain-Score's table
_SOME = frozenset((2, 3, 8, 9, 14, 15, 20, 21))  # with 5; every other image has 11


def distractors_of_image(image_numbers) -> np.ndarray:
    """The number of distractors (``'1.0'``, ``'5.0'``, ``'11.0'``) of each ``image_number`` (0-23 in a block)."""
    numbers = np.asarray(image_numbers).astype(int)
    return np.where(np.isin(numbers, list(_FEW)), "1.0", np.where(np.isin(numbers, list(_SOME)), "5.0", "11.0"))


def block_accuracies(trials: pd.DataFrame, lapse_rate: float) -> pd.DataFrame:
    """Per ``block`` and ``distractor_nums``, the mean over participants of each participant's lapse-corrected accuracy.

    Parameters
    ----------
    trials : DataFrame
        One row per trial with ``participant_id``, ``block``, ``distractor_nums`` (str), ``correct`` (0/1 or bool);
        only rows whose ``trial_type`` is ``'normal'`` count (when the column is there).
    lapse_rate : float
        ``l`` of ``(accuracy - l / 2) / (1 - l)``.

    Returns
    -------
    DataFrame indexed by (block, distractor_nums) with column ``correct``.
    """
    if "trial_type" in trials:
        trials = trials[trials["trial_type"] == "normal"]
    per_subject = (trials.assign(correct=trials["correct"].astype(float))
                   .groupby(["block", "participant_id", "distractor_nums"], sort=False)["correct"].mean())
    adjusted = (per_subject - lapse_rate * (1.0 / 2)) / (1 - lapse_rate)
    return adjusted.groupby(level=["block", "distractor_nums"]).mean().to_frame("correct")


def _line_integral(point1: tuple[float, float], point2: tuple[float, float]) -> float:
    """Integral of the line through two points between their x values, the line written as Brain-Score writes it
    (slope and intercept to 10 decimals)."""
    (x1, y1), (x2, y2) = point1, point2
    slope = (y2 - y1) / (x2 - x1)
    slope, intercept = float(f"{slope:.10f}"), float(f"{y1 - slope * x1:.10f}")
    return slope * (x2 ** 2 - x1 ** 2) / 2 + intercept * (x2 - x1)


def delta_integral(accuracies: pd.DataFrame) -> float:
    """Integral over 1-11 distractors of the piecewise-linear ``second - first`` accuracy delta, rounded to 4 decimals
    (Brain-Score's ``calculate_integral``); ``accuracies`` as :func:`block_accuracies` returns them."""
    correct = accuracies["correct"]

    def delta(distractors: str) -> float:
        return float(correct.get(("second", distractors), np.nan) - correct.get(("first", distractors), np.nan))

    low, mid, high = (delta(n) for n in DISTRACTOR_NUMS)
    return symbolic_round(_line_integral((1, low), (5, mid)) + _line_integral((5, mid), (11, high)), 4)


def symbolic_round(value: float, places: int) -> float:
    """``value`` rounded as Brain-Score's integral is (``round`` of a sympy ``Float``): to ``places`` decimals (half to
    even), then held at the binary precision of the digits kept. -2.3078 keeps 5 digits, 20 bits:
    -2.30780029296875, not the double nearest -2.3078."""
    if value == 0 or not np.isfinite(value):
        return value
    from decimal import ROUND_HALF_EVEN, Decimal
    from fractions import Fraction

    digits = int(np.floor(np.log10(abs(value)))) + 1  # sympy's _mag: 0.1 <= |value| / 10**digits < 1
    kept = min(digits + places, 15)  # decimal digits the result keeps
    decimal = Fraction(Decimal(repr(value)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN))
    if decimal == 0:
        return 0.0
    if kept == 0 and decimal > value:  # sympy's one adjustment, for |value| < 10 ** -places
        kept = 1
    bits = max(1, int(round((kept + 1) * 3.3219280948873626)))  # mpmath's dps_to_prec
    exponent = math.frexp(float(decimal))[1] - bits  # |decimal| < 2 ** frexp exponent
    scaled = decimal / Fraction(2) ** exponent
    return float(round(scaled) * Fraction(2) ** exponent)  # round(): half to even, as mpmath's round_nearest


def experiment_integral(trials: pd.DataFrame, experiment: str) -> float:
    """The delta integral of ``trials`` (humans or the model) with the lapse rate of ``experiment``."""
    return delta_integral(block_accuracies(trials, LAPSE_RATES[experiment]))


def _trials_of(assembly) -> pd.DataFrame:
    columns = ["participant_id", "block", "distractor_nums", "correct"] + (
        ["trial_type"] if "trial_type" in assembly.coords else [])
    frame = pd.DataFrame({name: np.asarray(assembly[name].values) for name in columns})
    frame["distractor_nums"] = frame["distractor_nums"].astype(str)
    return frame


def _with_labels(stimuli):
    """The stimuli with Brain-Score's ``image_label``: ``'oddball'`` for an even ``image_number``, else ``'same'``."""
    stimuli = stimuli.copy()
    stimuli["image_label"] = np.where(np.asarray(stimuli["image_number"]).astype(int) % 2 == 0, "oddball", "same")
    return stimuli


def model_trials(probabilities) -> pd.DataFrame:
    """The model's trials from its ``presentation x choice`` probabilities of ``'oddball'`` and ``'same'``."""
    probabilities = probabilities.transpose("presentation", "choice")
    choices = list(np.asarray(probabilities["choice"].values).astype(str))
    values = np.asarray(probabilities.values, dtype=float)
    oddball = values[:, choices.index("oddball")] > values[:, choices.index("same")]
    answer = np.where(oddball, "oddball", "same")
    truth = np.asarray(probabilities["image_label"].values).astype(str)
    return pd.DataFrame({"participant_id": "model", "block": np.asarray(probabilities["block"].values).astype(str),
                         "distractor_nums": distractors_of_image(probabilities["image_number"].values),
                         "correct": (answer == truth).astype(float)})


class Ferguson2024ValueDelta(BenchmarkBase):
    """``Ferguson2024<experiment>-value_delta`` (see the module docstring).

    Parameters
    ----------
    experiment : str
        One of :data:`EXPERIMENTS`.
    """

    region = "behavior"

    def __init__(self, experiment: str):
        if experiment not in EXPERIMENTS:
            raise ValueError(f"unknown Ferguson2024 experiment {experiment!r}; choose one of {EXPERIMENTS}")
        self.experiment = experiment
        self._metric = load_metric("value_delta", scale=VALUE_DELTA_SCALE)
        self._assembly = LazyLoad(lambda: load_dataset(f"Ferguson2024_{experiment}"))
        self._fitting_stimuli = LazyLoad(lambda: load_stimulus_set(f"Ferguson2024_{experiment}_training_stimuli"))
        ceiling, error = PRECOMPUTED_CEILINGS[experiment]
        precomputed = Score(ceiling)
        precomputed.attrs["error"] = error
        precomputed.attrs["raw"] = [ceiling, error]
        super().__init__(identifier=f"Ferguson2024{experiment}-value_delta", version=1, ceiling=precomputed,
                         parent="behavior", bibtex=BIBTEX)

    def human_integral(self) -> float:
        """The humans' delta integral."""
        return experiment_integral(_trials_of(resolve(self._assembly)), self.experiment)

    def __call__(self, candidate: BrainModel) -> Score:
        assembly = resolve(self._assembly)
        stimuli = assembly.attrs.get("stimulus_set")
        stimuli = _with_labels(stimuli if stimuli is not None else load_stimulus_set(f"Ferguson2024_{self.experiment}"))
        fitting = _with_labels(resolve(self._fitting_stimuli))
        candidate.start_task(BrainModel.Task.probabilities, place_on_screen(
            fitting, target_visual_degrees=candidate.visual_degrees(), source_visual_degrees=VISUAL_DEGREES))
        probabilities = candidate.look_at(place_on_screen(
            stimuli, target_visual_degrees=candidate.visual_degrees(), source_visual_degrees=VISUAL_DEGREES),
            number_of_trials=NUMBER_OF_TRIALS)
        model_integral = experiment_integral(model_trials(probabilities), self.experiment)
        human_integral = self.human_integral()
        raw = self._metric(model_integral, human_integral)
        ceiling = self.ceiling
        score = Score(min(max(float(raw) / float(ceiling), 0.0), 1.0))
        score.attrs.update(raw=raw, ceiling=ceiling, model_integral=model_integral, human_integral=human_integral,
                           normalization="raw / ceiling, clipped to [0, 1]", bibtex=self.bibtex)
        return score
