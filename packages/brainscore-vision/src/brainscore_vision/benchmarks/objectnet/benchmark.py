"""``ObjectNet-top1`` (identifier ``BarbuMayo2019-top1``): top-1 accuracy on ObjectNet, from a local copy.

As Brain-Score defines it (``benchmarks/objectnet``, commit c642dbe4): the model labels Brain-Score's 17,261 ObjectNet
images (the classes shared with ImageNet) with its own ImageNet classes (``label`` task with ``'imagenet'``, 10 trials,
images shown as they are); the score is the fraction of images whose label equals the image's ``synset`` entry
exactly. An image whose class maps to several ImageNet synsets keeps them all in that one entry, and one predicted
synset never equals it: those images count as wrong, as Brain-Score scores them. Ceiling 1, version 1, parent
``engineering``.

The images may not be redistributed: ``$BRAINSCORE_OBJECTNET_DIR`` holds Brain-Score's ``stimulus_BarbuMayo2019.csv``
(checked against the sha1 Brain-Score records) and the images under its ``filename`` column.
"""

from __future__ import annotations

from brainscore_core.benchmarks import BenchmarkBase
from brainscore_core.metrics import Score
from brainscore_vision import load_metric
from brainscore_vision.benchmarks.imagenet.benchmark import imagenet_label_accuracy
from brainscore_vision.data.barbumayo2019 import ENTRIES
from brainscore_vision.data_helpers.local_stimulus_sets import local_brainscore_stimulus_set
from brainscore_vision.model_interface import BrainModel
from brainscore_vision.utils import LazyLoad, resolve

__all__ = ["Objectnet", "objectnet_stimulus_set"]

BIBTEX = """@inproceedings{DBLP:conf/nips/BarbuMALWGTK19,
  author = {Andrei Barbu and David Mayo and Julian Alverio and William Luo and Christopher Wang and Dan Gutfreund and
            Josh Tenenbaum and Boris Katz},
  title = {ObjectNet: {A} large-scale bias-controlled dataset for pushing the limits of object recognition models},
  booktitle = {NeurIPS 2019}, pages = {9448--9458}, year = {2019},
  url = {https://proceedings.neurips.cc/paper/2019/hash/97af07a14cacba681feacf3012730892-Abstract.html}
}"""

NUMBER_OF_TRIALS = 10


def objectnet_stimulus_set(root=None):
    """Brain-Score's ``BarbuMayo2019`` stimulus set from the local ObjectNet folder."""
    return local_brainscore_stimulus_set("objectnet", "stimulus_BarbuMayo2019.csv", identifier="BarbuMayo2019",
                                         csv_sha1=ENTRIES[("stimulus_set", "BarbuMayo2019")]["csv_sha1"],
                                         needed_by="ObjectNet-top1", root=root)


class Objectnet(BenchmarkBase):
    """``ObjectNet-top1``. ``root`` (default None: ``$BRAINSCORE_OBJECTNET_DIR``) is the ObjectNet folder."""

    region = "behavior"

    def __init__(self, root=None):
        self._stimuli = LazyLoad(lambda: objectnet_stimulus_set(root))
        self._metric = load_metric("accuracy")
        super().__init__(identifier="BarbuMayo2019-top1", version=1, ceiling=Score(1.0), parent="engineering",
                         bibtex=BIBTEX)

    def stimulus_count(self) -> int:
        return len(resolve(self._stimuli))

    def __call__(self, candidate: BrainModel) -> Score:
        score, _, _ = imagenet_label_accuracy(candidate, resolve(self._stimuli), self._metric, NUMBER_OF_TRIALS)
        score.attrs.update(raw=Score(float(score)), ceiling=self.ceiling, normalization="none (ceiling 1)",
                           bibtex=self.bibtex)
        return score
