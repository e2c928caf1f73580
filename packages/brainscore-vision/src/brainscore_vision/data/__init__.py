"""Data plugins of this package (``cowley2023``, ``kriegeskorte2008``, ...), each named by an entry point; Brain-Score's
data plugin folders (``data/<folder>/__init__.py`` assigning ``data_registry`` / ``stimulus_set_registry``) are found by
identifier, here and in the user plugin folders (see :mod:`brainscore_vision.models`)."""

from brainscore_core.plugin_folders import extend_package_path

__path__ = extend_package_path(__path__, __name__)
