"""1.x ``brainscore.benchmarks.screen``: placing stimuli on the model's screen.

Every name warns with a ``DeprecationWarning`` naming today's spelling.
"""

from brainscore_core.deprecation import deprecated_attributes

__getattr__ = deprecated_attributes(__name__, {
    "place_on_screen": ("brainscore_vision.benchmark_helpers.screen.place_on_screen",
             "brainscore_vision.benchmark_helpers.screen:place_on_screen"),
})
