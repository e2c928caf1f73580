"""Data plugin: Li et al. 2026 (Triple-N), macaque Neuropixels responses of 47,503 units (5 animals; V1, V2, V4,
IT) to the 1,000 NSD shared images, registered by reference to Brain-Score's bucket (``catalogue.json`` beside this
module).

``Li2026`` (stimulus set, 1,000 images, ``stimulus_id`` ``nsd_<id>`` as in Allen2022), ``Li2026``
(NeuronRecordingAssembly, ``presentation x neuroid x time_bin`` = 1000 x 47,503 x 1: the mean rate of 70-170 ms;
neuroid coordinates ``region``, ``animal``, ``reliability`` (the paper's best window) and ``reliability_window``
(split-half, Spearman-Brown corrected, at 70-170 ms)) and ``Li2026.temporal`` (30 bins of 10 ms, 0-300 ms).
"""

from pathlib import Path

from brainscore_vision import data_registry, load_stimulus_set, stimulus_set_registry
from brainscore_vision.data_helpers.public_catalogue import register_family_catalogue

__all__ = ["BIBTEX"]

BIBTEX = """@article{li2026triplen,
    title = {Triple-N dataset: large-scale fMRI-guided dense recordings of nonhuman
             primate neural responses to natural scenes},
    author = {Li, Yipeng and Liu, Xieyi and Li, Wanru and Yang, Jia and Gong, Baoqi
              and Jin, Wei and Gong, Zhengxin and Wang, Kesheng and Luo, Jingqiu
              and Zhao, Zishuo and Bao, Pinglei},
    journal = {Nature Neuroscience},
    year = {2026},
    doi = {10.1038/s41593-026-02322-z},
    url = {https://doi.org/10.1038/s41593-026-02322-z},
}"""

register_family_catalogue(Path(__file__).with_name("catalogue.json"), data_registry=data_registry,
                          stimulus_set_registry=stimulus_set_registry, load_stimulus_set=load_stimulus_set)
