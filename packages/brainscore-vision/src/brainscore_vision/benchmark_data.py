"""What each benchmark needs to run: shipped data, Brain-Score's public bucket (network), local files, or nothing that
can be had. ``brainscore list benchmarks`` prints the marker beside each identifier.

==================  ===================================================================================================
marker              meaning
==================  ===================================================================================================
``shipped``         the recordings (and images) are in ``$BRAINSCORE_RAW_DATA``, packaged on first use; runs offline
``network``         Brain-Score's public files, fetched from its bucket on first use (sha1-checked) and cached
``network+local``   public recordings, plus images that may not be redistributed, from a local folder
``local``           files that may not be redistributed, from a local folder (a variable names it)
``unavailable``     registered for its identifier and ceiling, but its stimuli cannot be had (see the family's docs)
``?``               a third-party benchmark: this package does not know
==================  ===================================================================================================

For ``local`` and ``network+local`` the marker also says whether the folder's variable is set (``BRAINSCORE_NSD_DIR
set`` / ``unset``); :mod:`brainscore_vision.data_helpers.local_data` says what to fetch.
"""

from __future__ import annotations

import re

from brainscore_vision.data_helpers.local_data import LOCAL_FOLDERS, local_folder_status

__all__ = ["RULES", "data_marker", "data_need"]

_GEIRHOS_SHIPPED = "cueconflict|edge|silhouette|sketch"

#: (pattern of identifiers, need, local folder or None), first match wins
RULES: tuple[tuple[str, str, str | None], ...] = (
    (r"Marques2020_FreemanZiemba2013-", "unavailable", None),
    (r"(Cowley2023\.|Kriegeskorte2008\.|Kiani2007\.|tong\.Coggan2024_fMRI\.|Marques2020_|Hermann2020cueconflict-)",
     "shipped", None),
    (rf"Geirhos2021({_GEIRHOS_SHIPPED})-", "shipped", None),
    (r"(Geirhos2021|MajajHong2015public\.|MajajHong2015\.public\.|FreemanZiemba2013public\.|Rajalingham2018public-)",
     "network", None),
    (r"(Gifford2022|Hebart2023_fmri|Papale2025)\.", "network+local", "things"),
    (r"Allen2022_fmri", "local", "nsd"),
    (r"Zerbe2026_fmri", "local", "laion_fmri"),
    (r"ImageNet-top1$", "local", "imagenet"),
)


def data_need(identifier: str) -> tuple[str, str | None]:
    """(need, local folder name or None) of benchmark ``identifier`` (``('?', None)`` when no rule matches)."""
    for pattern, need, folder in RULES:
        if re.match(pattern, identifier):
            return need, folder
    return "?", None


def data_marker(identifier: str) -> str:
    """The bracketed marker ``brainscore list benchmarks`` prints, e.g. ``[local: BRAINSCORE_NSD_DIR unset]``."""
    need, folder = data_need(identifier)
    if folder is None:
        return f"[{need}]"
    ready, _ = local_folder_status(folder)
    return f"[{need}: {LOCAL_FOLDERS[folder].variable} {'set' if ready else 'unset'}]"
