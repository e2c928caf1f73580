"""From activations to a BrainModel: region commitments, layer selection, behavioural readouts."""

from model_tools.brain_transformation.behavior import LabelMapping, ProbabilitiesMapping
from model_tools.brain_transformation.commitment import ModelCommitment
from model_tools.brain_transformation.imagenet import ImageNetClass, imagenet_class_table, imagenet_synsets
from model_tools.brain_transformation.layer_selection import LayerSelection, RegionLayerMap
from model_tools.brain_transformation.standard_benchmarks import STANDARD_REGION_BENCHMARKS

__all__ = ["STANDARD_REGION_BENCHMARKS", "ImageNetClass", "LabelMapping", "LayerSelection", "ModelCommitment",
           "ProbabilitiesMapping", "RegionLayerMap", "imagenet_class_table", "imagenet_synsets"]
