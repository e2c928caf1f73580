"""``ImageNet-top1``: top-1 accuracy on the 50,000 ILSVRC-2012 validation images, from a local copy.

As Brain-Score defines it: the model performs the ``label`` task with ``'imagenet'`` (its own ImageNet classes, so no
fitting stimuli), looks at every image 10 times, and the score is the fraction of images whose label is the image's
WordNet synset; ceiling 1, version 1, parent ``ImageNet``. The images may not be redistributed:
``$BRAINSCORE_IMAGENET_DIR`` points at them (:mod:`brainscore_vision.data_helpers.local_data`), either sorted into
``<synset>/`` folders (the layout of PyTorch's ImageNet examples) or flat beside a label table: ``LOC_val_solution.csv``
(``ImageId``, ``PredictionString`` starting with the synset) or Brain-Score's ``imagenet2012.csv`` (``filename``,
``synset``).
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_vision import load_metric
from brainscore_vision.data_helpers.local_data import LocalDataMissingError, local_folder
from brainscore_vision.model_interface import BrainModel
from brainscore_vision.utils import LazyLoad, resolve

__all__ = ["NUMBER_OF_TRIALS", "Imagenet2012", "imagenet_label_accuracy", "imagenet_validation_set"]

NUMBER_OF_TRIALS = 10
IMAGE_SUFFIXES = (".JPEG", ".jpeg", ".jpg", ".JPG", ".png")
BIBTEX = """@inproceedings{deng2009imagenet,
  title = {ImageNet: A large-scale hierarchical image database},
  author = {Deng, J. and Dong, W. and Socher, R. and Li, L. and Li, Kai and Fei-Fei, Li},
  booktitle = {2009 IEEE Conference on Computer Vision and Pattern Recognition}, pages = {248--255}, year = {2009}
}"""


def _labels_from_table(root: Path) -> dict[str, str]:
    """filename stem -> synset, from the first label table found in ``root``."""
    if (root / "LOC_val_solution.csv").is_file():
        with open(root / "LOC_val_solution.csv", newline="") as handle:
            return {row["ImageId"]: row["PredictionString"].split()[0] for row in csv.DictReader(handle)}
    if (root / "imagenet2012.csv").is_file():
        with open(root / "imagenet2012.csv", newline="") as handle:
            return {Path(row["filename"]).stem: row["synset"] for row in csv.DictReader(handle)}
    return {}


def imagenet_validation_set(root: Path | None = None):
    """The validation images under ``root`` (default ``$BRAINSCORE_IMAGENET_DIR``) as a StimulusSet with ``synset``."""
    from brainio.stimuli import StimulusSet

    root = local_folder("imagenet", "ImageNet-top1") if root is None else Path(root)
    folders = sorted(p for p in root.iterdir() if p.is_dir() and p.name.startswith("n") and p.name[1:].isdigit())
    files, synsets = [], []
    if folders:
        for folder in folders:
            for path in sorted(folder.iterdir()):
                if path.suffix in IMAGE_SUFFIXES:
                    files.append(path)
                    synsets.append(folder.name)
    else:
        table = _labels_from_table(root)
        for path in sorted(root.iterdir()):
            if path.suffix in IMAGE_SUFFIXES and path.stem in table:
                files.append(path)
                synsets.append(table[path.stem])
    if not files:
        raise LocalDataMissingError(f"ImageNet-top1: no labelled validation image in {root} (expected <synset>/ "
                                    f"folders, or images beside LOC_val_solution.csv or imagenet2012.csv)")
    stimuli = StimulusSet({"stimulus_id": [p.name for p in files], "filename": [p.name for p in files],
                           "synset": synsets})
    stimuli.stimulus_paths = {p.name: p for p in files}
    stimuli.identifier = "ImageNet2012-val"
    return stimuli


class Imagenet2012(BenchmarkBase):
    """``ImageNet-top1``. ``root`` (default None: ``$BRAINSCORE_IMAGENET_DIR``) is the validation-image folder."""

    region = "behavior"

    def __init__(self, root: Path | None = None):
        self._stimuli = LazyLoad(lambda: imagenet_validation_set(root))
        self._metric = load_metric("accuracy")
        super().__init__(identifier="ImageNet-top1", version=1, ceiling_func=lambda: Score(1.0), parent="ImageNet",
                         bibtex=BIBTEX)

    def stimulus_count(self) -> int:
        return len(resolve(self._stimuli))

    def __call__(self, candidate: BrainModel) -> Score:
        score, _, _ = imagenet_label_accuracy(candidate, resolve(self._stimuli), self._metric)
        score.attrs.update(raw=Score(float(score)), ceiling=self.ceiling, normalization="none (ceiling 1)",
                           bibtex=self.bibtex)
        return score


def imagenet_label_accuracy(candidate: BrainModel, stimuli, metric, number_of_trials: int = NUMBER_OF_TRIALS):
    """The accuracy of the model's own ImageNet labels against each stimulus's ``synset`` (exact match).

    The model performs the ``label`` task with ``'imagenet'`` and looks at ``stimuli`` without their ``synset``
    column, ``number_of_trials`` times (Brain-Score's ImageNet, ImageNet-C and ObjectNet benchmarks).

    Returns
    -------
    (score, stimulus ids, correct) : the metric's Score, and per presentation its ``stimulus_id`` and whether the
    label was right (ndarrays of shape (presentation,)).
    """
    from brainio.assemblies import BehavioralAssembly

    candidate.start_task(BrainModel.Task.label, "imagenet")
    shown = stimuli[[column for column in stimuli.columns if column != "synset"]]  # the label is not shown
    predictions = candidate.look_at(shown, number_of_trials=number_of_trials)
    predictions = predictions.squeeze("choice") if "choice" in predictions.dims else predictions
    truth = dict(zip(stimuli["stimulus_id"], stimuli["synset"].astype(str), strict=True))
    ids = np.asarray(predictions["stimulus_id"].values).astype(str)
    target = BehavioralAssembly(np.asarray([truth[i] for i in ids]), coords={"stimulus_id": ("presentation", ids)},
                                dims=["presentation"])
    correct = np.asarray(predictions.values).astype(str) == np.asarray(target.values)
    return metric(predictions, target), ids, correct
