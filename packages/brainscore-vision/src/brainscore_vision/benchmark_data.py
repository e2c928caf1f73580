"""What each benchmark, data set and stimulus set needs to run, as its plugin declares it, and the marker
``brainscore list benchmarks`` and ``brainscore score --dry-run`` print beside it.

Each plugin says it: a ``DATA_NEEDS`` in its module (one need for all it registers, a mapping, or a function), or a
``data_need`` field on a factory (what Brain-Score's files registered by reference carry, from their catalogue entry's
``access``): :mod:`brainscore_core.data_needs`. The plugin index keeps the declarations, so nothing is imported to
list them. A plugin that declares nothing (a third party's, a model, a metric) is ``?``. Before issue 44 a table of
regular expressions over identifiers and module names said it here; ``tests/test_benchmark_data.py`` checks that every
registered benchmark keeps the marker that table gave it.

==================  ===================================================================================================
marker              meaning
==================  ===================================================================================================
``shipped``         the recordings (and images) are in ``$BRAINSCORE_RAW_DATA``, packaged on first use; runs offline
``network``         Brain-Score's public files, fetched from its bucket on first use (sha1-checked) and cached
``credentials``     Brain-Score's files from its bucket, read unsigned first, then with your AWS credentials: its tests
                    mark the data private, its metadata calls it public, and no read was measured here; the marker
                    says what is tried (``[network: unsigned, then your AWS credentials]``)
``private``         Brain-Score's private files (its core benchmarks): tried the same way, expected to need
                    Brain-Score's credentials (``[private: needs Brain-Score credentials]``)
``network+local``   public recordings, plus images that may not be redistributed, from a local folder
``local``           files that may not be redistributed, from a local folder (a variable names it)
``unavailable``     registered for its identifier and ceiling, but its stimuli cannot be had (see the family's docs)
``?``               a plugin that declares nothing: this package does not know
==================  ===================================================================================================

For ``local`` and ``network+local`` the marker also says whether the folder's variable is set (``BRAINSCORE_NSD_DIR
set`` / ``unset``); :mod:`brainscore_vision.data_helpers.local_data` says what to fetch.
"""

from __future__ import annotations

import sys

from brainscore_core.data_needs import declared_need, parse_need
from brainscore_vision._domain import domain
from brainscore_vision.data_helpers.local_data import LOCAL_FOLDERS, local_folder_status

__all__ = ["NEED_MARKERS", "data_marker", "data_need", "plugin_data_need"]

#: the marker of a need whose words differ from its name
NEED_MARKERS = {"credentials": "[network: unsigned, then your AWS credentials]",
                "private": "[private: needs Brain-Score credentials]"}


def plugin_data_need(kind: str, identifier: str, module: str | None = None) -> tuple[str, str | None]:
    """(need, local folder or None) of a registered plugin of ``kind`` (``'benchmark'``, ``'data'``,
    ``'stimulus_set'``), as its plugin declares it; ``('?', None)`` when it declares nothing (a model, a metric, a
    plugin that says nothing) or nothing is registered under ``identifier``.

    ``module``, when given, is the module that registered it: for an identifier this package's registries do not hold
    (a plugin loaded some other way), its ``DATA_NEEDS`` is read there."""
    need = domain.data_need(kind, identifier)
    if need is None and module is not None and not domain.registry(kind).is_registered(identifier):
        need = declared_need(kind, identifier, None, sys.modules.get(module))
    return ("?", None) if need is None else parse_need(need)


def data_need(identifier: str) -> tuple[str, str | None]:
    """(need, local folder name or None) of benchmark ``identifier`` (``('?', None)`` when its plugin declares
    nothing)."""
    return plugin_data_need("benchmark", identifier)


def data_marker(identifier: str) -> str:
    """The bracketed marker ``brainscore list benchmarks`` prints, e.g. ``[local: BRAINSCORE_NSD_DIR unset]``."""
    need, folder = data_need(identifier)
    if folder is None:
        return NEED_MARKERS.get(need, f"[{need}]")
    ready, _ = local_folder_status(folder)
    return f"[{need}: {LOCAL_FOLDERS[folder].variable} {'set' if ready else 'unset'}]"
