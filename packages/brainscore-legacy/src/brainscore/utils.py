"""1.x ``brainscore.utils``: helpers.

Every name warns with a ``DeprecationWarning`` naming today's spelling.
"""

from brainscore_core.deprecation import deprecated_attributes

__getattr__ = deprecated_attributes(__name__, {
    "LazyLoad": ("brainscore_vision.utils.LazyLoad",
             "brainscore_vision.utils:LazyLoad"),
    "fullname": ("brainscore_vision.utils.fullname",
             "brainscore_vision.utils:fullname"),
})
