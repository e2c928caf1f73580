"""Brain-Score's model plugin folders: ``models/<folder>/__init__.py`` assigning ``model_registry['<id>'] = ...``.

``load_model(identifier)`` finds the folder registering ``identifier`` by the text of its ``__init__.py`` and imports
only that one (:mod:`brainscore_core.plugin_folders`). Folders are looked for here, in any ``brainscore_vision/models``
folder an installed distribution adds, and in ``<folder>/models`` of every user plugin folder
(``$BRAINSCORE_PLUGIN_FOLDERS``, ``brainscore_core.set_options(plugin_folders=[...])``).
"""

from brainscore_core.plugin_folders import extend_package_path

__path__ = extend_package_path(__path__, __name__)
