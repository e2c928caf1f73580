"""1.x ``brainscore.model_interface``: the model interface.

Every name warns with a ``DeprecationWarning`` naming today's spelling.
"""

from brainscore_core.deprecation import deprecated_attributes

__getattr__ = deprecated_attributes(__name__, {
    "BrainModel": ("brainscore_vision.model_interface.BrainModel",
             "brainscore_vision.model_interface:BrainModel"),
})
