"""Behavioural readouts: ``probabilities`` (logistic regression on a layer) and ``label`` (ImageNet logits)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from model_tools.activations.packaging import dim_coords
from model_tools.brain_transformation.imagenet import N_CLASSES, imagenet_synsets
from model_tools.brain_transformation.label_indices import default_label_indices, label_key
from model_tools.brain_transformation.readout_memo import FITTED_READOUTS, readout_key
from model_tools.errors import MissingLabelsError

#: Settings of the reference's probabilities readout (scikit-learn 1.9: l2 is the default penalty, spelled
#: ``l1_ratio=0``; multinomial is the default for more than two classes; newton-cg is still available).
LOGISTIC_REGRESSION_SETTINGS = {"solver": "newton-cg", "C": 1e-3, "l1_ratio": 0.0, "max_iter": 100, "tol": 1e-4}
LABEL_COLUMNS = ("image_label", "label")


def _features(activations_model: Any, stimuli: Any, layer: str, trials: Mapping[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """(features of shape (presentation, n_features), presentation coordinates); ``trials``: the activations model's
    ``number_of_trials`` / ``require_variance`` for Brain-Score's microsaccades (one row per stimulus and trial)."""
    assembly = activations_model(stimuli, layers=[layer], **(trials or {}))
    assembly = assembly.transpose("presentation", "neuroid")
    return np.asarray(assembly.values, dtype=np.float64), dim_coords(assembly, "presentation")


def _behavioral_assembly(values: np.ndarray, presentation: Mapping[str, np.ndarray],
                         choice: Mapping[str, np.ndarray] | None):
    from brainio.assemblies import BehavioralAssembly

    coords = {name: ("presentation", np.asarray(coord)) for name, coord in presentation.items()}
    for name, coord in (choice or {}).items():
        coords[name] = ("choice", np.asarray(coord))
    return BehavioralAssembly(values, coords=coords, dims=["presentation", "choice"])


class ProbabilitiesMapping:
    """StandardScaler + multinomial logistic regression on one layer, fitted on labelled stimuli.

    Parameters
    ----------
    identifier : str
    activations_model : callable
        ``activations_model(stimuli, layers=[layer])`` -> NeuroidAssembly (presentation x neuroid).
    layer : str
        Readout layer.
    """

    def __init__(self, identifier: str, activations_model: Any, layer: str):
        self.identifier = identifier
        self.activations_model = activations_model
        self.layer = layer

    def fit(self, fitting_stimuli: Any, trials: Mapping[str, Any] | None = None) -> ProbabilitiesMapping:
        """Fit on a StimulusSet with an ``image_label`` (or ``label``) column; ``trials`` as :func:`_features` (each
        trial of a stimulus is a row with the stimulus's label).

        A readout fitted on the same content before in this process (same model weights, preprocessing, layer,
        images, labels and trials) is reused, not fitted again: the same coefficients
        (:mod:`~model_tools.brain_transformation.readout_memo`)."""
        from sklearn.linear_model import LogisticRegression
        from sklearn.preprocessing import StandardScaler

        column = next((name for name in LABEL_COLUMNS if name in getattr(fitting_stimuli, "columns", ())), None)
        if column is None:
            raise MissingLabelsError(
                f"fitting stimuli {getattr(fitting_stimuli, 'identifier', None)!r} have no label column "
                f"(one of {LABEL_COLUMNS}); columns: {list(getattr(fitting_stimuli, 'columns', []))}")
        key = readout_key(self.activations_model, fitting_stimuli, self.layer, column, trials,
                          LOGISTIC_REGRESSION_SETTINGS)
        remembered = FITTED_READOUTS.get(key)
        if remembered is not None:  # the same content fitted before in this process: the same coefficients
            self.scaler_, self.classifier_ = remembered
        else:
            features, presentation = _features(self.activations_model, fitting_stimuli, self.layer, trials)
            label_of = dict(zip(fitting_stimuli["stimulus_id"].values, fitting_stimuli[column].values, strict=True))
            labels = np.asarray([label_of[stimulus_id] for stimulus_id in presentation["stimulus_id"]])
            self.scaler_ = StandardScaler().fit(features)
            self.classifier_ = LogisticRegression(**LOGISTIC_REGRESSION_SETTINGS).fit(
                self.scaler_.transform(features), labels)
            FITTED_READOUTS.put(key, self.scaler_, self.classifier_)
        self.classes_ = self.classifier_.classes_
        return self

    def look_at(self, stimuli: Any, trials: Mapping[str, Any] | None = None):
        """BehavioralAssembly (presentation, choice) of probabilities; ``choice`` = the fitted labels; ``trials`` as
        :func:`_features`."""
        if not hasattr(self, "classifier_"):
            raise MissingLabelsError(f"model {self.identifier!r}: start_task('probabilities', fitting_stimuli) "
                                     "must be called before look_at")
        features, presentation = _features(self.activations_model, stimuli, self.layer, trials)
        probabilities = self.classifier_.predict_proba(self.scaler_.transform(features))
        return _behavioral_assembly(probabilities, presentation, {"choice": self.classes_})


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax of an array of shape (presentation, n_classes), computed stably."""
    shifted = logits - logits.max(axis=1, keepdims=True)
    exponentials = np.exp(shifted)
    return exponentials / exponentials.sum(axis=1, keepdims=True)


class LabelMapping:
    """Labels from 1000-way ImageNet logits.

    Parameters
    ----------
    identifier : str
    activations_model : callable
    labels : 'imagenet' or sequence of str
        'imagenet': the class of the argmax logit, as a WordNet synset id (``'n01440764'``) by default. A
        label list: for each label, the mean softmax probability over its ImageNet indices (from
        ``label_indices``); argmax.
    label_indices : mapping of str -> sequence of int, default=None
        ImageNet class indices of each label. None means the shipped table: the 16 classes of Geirhos et al. and
        the other labels of Brain-Score's behavioural benchmarks (Baker2022's animals, Scialom2024's objects, ...),
        looked up lower-cased without spaces
        (:func:`~model_tools.brain_transformation.label_indices.default_label_indices`).
    imagenet_classes : sequence of str, default=None
        Name of each logit, in order, for ``labels='imagenet'``. None means the ILSVRC-2012 synset ids shipped
        with the package (:func:`~model_tools.brain_transformation.imagenet.imagenet_synsets`; 1000 logits).
    layer : str, default='logits'
    """

    def __init__(self, identifier: str, activations_model: Any, labels: Any, *,
                 label_indices: Mapping[str, Sequence[int]] | None = None,
                 imagenet_classes: Sequence[str] | None = None, layer: str = "logits"):
        self.identifier = identifier
        self.activations_model = activations_model
        self.labels = labels
        self.label_indices = label_indices
        self.imagenet_classes = imagenet_classes
        self.layer = layer

    def _indices(self) -> Mapping[str, Sequence[int]]:
        """Indices per label as the labels are spelled: ``label_indices``, or the shipped table looked up by
        :func:`~model_tools.brain_transformation.label_indices.label_key` (unknown labels left out)."""
        if self.label_indices is not None:
            return self.label_indices
        table = default_label_indices()
        return {label: table[label_key(label)] for label in self.labels if label_key(label) in table}

    def _check(self) -> None:
        if isinstance(self.labels, str):
            if self.labels != "imagenet":
                raise MissingLabelsError(f"model {self.identifier!r}: label task {self.labels!r} is neither "
                                         "'imagenet' nor a list of labels")
            return
        indices = self._indices()
        unknown = [str(label) for label in self.labels if label not in indices]
        if unknown:
            raise MissingLabelsError(f"model {self.identifier!r}: labels {unknown} have no ImageNet indices (known: "
                                     f"{sorted(indices)}); pass label_indices={{label: [imagenet indices]}}")

    def look_at(self, stimuli: Any, trials: Mapping[str, Any] | None = None):
        """BehavioralAssembly (presentation, choice=1) of label strings; ``trials`` as :func:`_features`."""
        self._check()
        logits, presentation = _features(self.activations_model, stimuli, self.layer, trials)
        if isinstance(self.labels, str):
            classes = imagenet_synsets() if self.imagenet_classes is None else tuple(self.imagenet_classes)
            if logits.shape[1] != len(classes):
                raise MissingLabelsError(
                    f"model {self.identifier!r}: layer {self.layer!r} has {logits.shape[1]} outputs but "
                    f"{len(classes)} ImageNet class names are known; pass imagenet_classes with one name per logit")
            chosen = np.asarray(classes)[logits.argmax(axis=1)]
        else:
            indices = self._indices()
            needed = N_CLASSES if self.label_indices is None else 1 + max(max(indices[label]) for label in self.labels)
            if logits.shape[1] < needed or (self.label_indices is None and logits.shape[1] != N_CLASSES):
                raise MissingLabelsError(
                    f"model {self.identifier!r}: layer {self.layer!r} has {logits.shape[1]} outputs; mapping labels "
                    f"to ImageNet classes needs a {N_CLASSES}-way ImageNet logits layer (or label_indices below "
                    f"{logits.shape[1]})")
            probabilities = softmax(logits)
            per_label = np.stack([probabilities[:, list(indices[label])].mean(axis=1)
                                  for label in self.labels], axis=1)
            chosen = np.asarray(list(self.labels))[per_label.argmax(axis=1)]
        return _behavioral_assembly(chosen[:, None].astype(object), presentation, None)
