"""``ImageNet-C-{noise,blur,weather,digital}-top1``: top-1 accuracy under ImageNet-C's corruptions, from a local copy.

As Brain-Score defines them (``benchmarks/imagenet_c``, commit c642dbe4): each category's table is Brain-Score's
``stimulus_imagenet_c_<category>.csv`` (every validation image under every corruption of the category at severities
1-5), of which **every 10th row, in the table's order**, is kept (Brain-Score's ``sampling_factor=10``). The model
labels the images with its own ImageNet classes (``label`` task with ``'imagenet'``, 10 trials, images shown as they
are); the score is the fraction of kept images of the category's corruptions (:data:`CORRUPTIONS`; 15 in all,
severities 1-5) whose label is the image's synset, the error its standard deviation over the images. Ceiling 1,
version 2, parent ``Hendrycks2019-top1``.

The images may not be redistributed: ``$BRAINSCORE_IMAGENET_C_DIR`` holds
``stimulus_imagenet_c_<category>/stimulus_imagenet_c_<category>.csv`` (checked against the sha1 Brain-Score records)
and the images under its ``filename`` column, the layout of Brain-Score's own local copy. Brain-Score falls back to
its bucket's copy when that folder is missing and then scores every row, not every 10th (another number): here a
missing folder is an error saying what to fetch.
"""

from __future__ import annotations

import numpy as np

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_vision import load_metric
from brainscore_vision.benchmarks.imagenet.benchmark import imagenet_label_accuracy
from brainscore_vision.data.hendrycks2019 import ENTRIES
from brainscore_vision.data_helpers.local_stimulus_sets import local_brainscore_stimulus_set
from brainscore_vision.model_interface import BrainModel
from brainscore_vision.utils import LazyLoad, resolve

__all__ = ["CORRUPTIONS", "SAMPLING_FACTOR", "ImagenetCCategory", "imagenet_c_stimulus_set"]

BIBTEX = """@article{Hendrycks2019-di,
  title = {Benchmarking Neural Network Robustness to Common Corruptions and Perturbations},
  author = {Hendrycks, Dan and Dietterich, Thomas}, month = mar, year = 2019, archivePrefix = {arXiv},
  primaryClass = {cs.LG}, eprint = {1903.12261}, url = {https://arxiv.org/abs/1903.12261}
}"""

#: the corruptions of each category, in Brain-Score's order
CORRUPTIONS = {"noise": ("gaussian_noise", "shot_noise", "impulse_noise"),
               "blur": ("glass_blur", "motion_blur", "zoom_blur", "defocus_blur"),
               "weather": ("snow", "frost", "fog", "brightness"),
               "digital": ("pixelate", "contrast", "elastic_transform", "jpeg_compression")}
SEVERITIES = (1, 2, 3, 4, 5)
SAMPLING_FACTOR = 10
NUMBER_OF_TRIALS = 10  # as ImageNet-top1


def imagenet_c_stimulus_set(category: str, *, sampling_factor: int = SAMPLING_FACTOR, root=None):
    """Every ``sampling_factor``-th row of Brain-Score's ImageNet-C table of ``category``, from the local folder."""
    stem = f"stimulus_imagenet_c_{category}"
    return local_brainscore_stimulus_set(
        "imagenet_c", f"{stem}/{stem}.csv", identifier=f"imagenet_c.{category}", row_step=sampling_factor,
        csv_sha1=ENTRIES[("stimulus_set", f"imagenet_c.{category}")]["csv_sha1"],
        needed_by=f"ImageNet-C-{category}-top1", root=root)


class ImagenetCCategory(BenchmarkBase):
    """``ImageNet-C-<category>-top1``.

    Parameters
    ----------
    category : str
        ``'noise'``, ``'blur'``, ``'weather'`` or ``'digital'``.
    sampling_factor : int, default=10
        Keep every n-th row of the table (Brain-Score's default).
    root : path, default=None
        The ImageNet-C folder; None reads ``$BRAINSCORE_IMAGENET_C_DIR``.
    """

    region = "behavior"

    def __init__(self, category: str, *, sampling_factor: int = SAMPLING_FACTOR, root=None):
        if category not in CORRUPTIONS:
            raise ValueError(f"unknown ImageNet-C category {category!r}; choose one of {sorted(CORRUPTIONS)}")
        self.category = category
        self._stimuli = LazyLoad(lambda: imagenet_c_stimulus_set(category, sampling_factor=sampling_factor,
                                                                 root=root))
        self._metric = load_metric("accuracy")
        super().__init__(identifier=f"ImageNet-C-{category}-top1", version=2, ceiling=Score(1.0),
                         parent="Hendrycks2019-top1", bibtex=BIBTEX)

    def scored_stimuli(self):
        """The kept rows of the category's corruptions at severities 1-5."""
        stimuli = resolve(self._stimuli)
        kept = (stimuli["noise_type"].isin(CORRUPTIONS[self.category])
                & stimuli["noise_level"].astype(int).isin(SEVERITIES))
        return stimuli[kept.to_numpy()]

    def stimulus_count(self) -> int:
        return len(self.scored_stimuli())

    def __call__(self, candidate: BrainModel) -> Score:
        stimuli = self.scored_stimuli()
        score, ids, correct = imagenet_label_accuracy(candidate, stimuli, self._metric, NUMBER_OF_TRIALS)
        kind_of = dict(zip(stimuli["stimulus_id"], stimuli["noise_type"], strict=True))
        kinds = np.asarray([kind_of[i] for i in ids])
        per_corruption = {kind: float(correct[kinds == kind].mean()) for kind in CORRUPTIONS[self.category]}
        score.attrs.update(raw=Score(float(score)), ceiling=self.ceiling, per_corruption=per_corruption,
                           normalization="none (ceiling 1)", bibtex=self.bibtex)
        return score
