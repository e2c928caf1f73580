"""Brain-Score's import path ``brainscore_vision.metrics.distribution_similarity.metric``: single-neuron property distributions.

Re-exports (one implementation each, in brainscore-metrics); registered through its entry point, not here.
Brain-Score's ``BootstrapDistributionSimilarity`` and ``NeuronalPropertyCeiling`` are ``KSSimilarity`` and
``PropertyCeiling`` here.
"""

from brainscore_metrics.properties.ks_similarity import (
    KSSimilarity as BootstrapDistributionSimilarity,
)
from brainscore_metrics.properties.ks_similarity import (
    PropertyCeiling as NeuronalPropertyCeiling,
)

__all__ = ["BootstrapDistributionSimilarity", "NeuronalPropertyCeiling"]
