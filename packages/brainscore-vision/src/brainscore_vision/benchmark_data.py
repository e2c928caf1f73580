"""What each benchmark needs to run: shipped data, Brain-Score's public bucket (network), local files, or nothing that
can be had. ``brainscore list benchmarks`` prints the marker beside each identifier.

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
``?``               a third-party benchmark: this package does not know
==================  ===================================================================================================

For ``local`` and ``network+local`` the marker also says whether the folder's variable is set (``BRAINSCORE_NSD_DIR
set`` / ``unset``); :mod:`brainscore_vision.data_helpers.local_data` says what to fetch.
"""

from __future__ import annotations

import re

from brainscore_vision.data_helpers.local_data import LOCAL_FOLDERS, local_folder_status

__all__ = ["ACCESS_NEEDS", "NEED_MARKERS", "PLUGIN_MODULE_RULES", "RULES", "UNAVAILABLE_STIMULUS_SETS", "data_marker", "data_need", "plugin_data_need"]

_GEIRHOS_SHIPPED = "cueconflict|edge|silhouette|sketch"

#: (pattern of identifiers, need, local folder or None), first match wins
RULES: tuple[tuple[str, str, str | None], ...] = (
    (r"Marques2020_FreemanZiemba2013-", "unavailable", None),
    # the neural families and the private core benchmarks (issue 39): each family's access is in its data plugin's
    # catalogue.json (private: Brain-Score marks the data private; credentials: its tests do, its metadata does not)
    (r"Bracci2019\.", "private", None),
    (r"Cadena2017-", "credentials", None),
    (r"Igustibagus2024[-.]", "private", None),
    (r"Kar2019-", "private", None),
    (r"Li2026\.", "credentials", None),
    (r"Rajalingham2020\.", "private", None),
    (r"(Sanghavi|SanghaviJozwik|SanghaviMurty)2020\.", "private", None),
    (r"(MajajHong2015\.(V4|IT)-pls|FreemanZiemba2013\.(V1|V2)-pls|Rajalingham2018-i2n)$", "private", None),
    (r"(Cowley2023\.|Kriegeskorte2008\.|Kiani2007\.|tong\.Coggan2024_fMRI\.|Marques2020_|Hermann2020cueconflict-)",
     "shipped", None),
    (rf"Geirhos2021({_GEIRHOS_SHIPPED})-", "shipped", None),
    (r"(Geirhos2021|MajajHong2015public\.|MajajHong2015\.public\.|FreemanZiemba2013public\.|Rajalingham2018public-)",
     "network", None),
    (r"(Gifford2022|Hebart2023_fmri|Papale2025)\.", "network+local", "things"),
    (r"Allen2022_fmri", "local", "nsd"),
    (r"Zerbe2026_fmri", "local", "laion_fmri"),
    (r"ImageNet-top1$", "local", "imagenet"),
    # issue 38, part 1: Brain-Score's tests mark these data private, its metadata calls them public, no read measured
    (r"Baker2022", "credentials", None),
    (r"BMD2024\.", "credentials", None),
    (r"Lonnqvist2024", "credentials", None),
    (r"Maniquet2024-", "credentials", None),
    (r"Scialom2024_", "credentials", None),
    (r"tong\.Coggan2024_behavior-", "credentials", None),
    (r"Hebart2023-match$", "credentials", None),
    # issue 38, second half: Brain-Score's tests mark these data private, its metadata public (not measured here)
    (r"Ferguson2024", "credentials", None),
    (r"Malania2007\.", "credentials", None),
    (r"Islam2021-", "credentials", None),
    (r"ImageNet-C-", "local", "imagenet_c"),
    (r"ObjectNet-top1$", "local", "objectnet"),
)


#: (pattern of the module of a data or stimulus-set plugin, need, local folder or None), first match wins
PLUGIN_MODULE_RULES: tuple[tuple[str, str, str | None], ...] = (
    (r"brainscore_vision\.data_helpers\.public_catalogue$", "network", None),
    # what a family's catalogue.json registers by reference takes its entry's access (ACCESS_NEEDS); Cadena2017's
    # assembly is registered by its own plugin (a step after loading), with its catalogue's access (issue 39)
    (r"brainscore_vision\.data\.cadena2017\b", "credentials", None),
    (r"brainscore_vision\.data\.things\b", "network+local", "things"),
    (r"brainscore_vision\.data\.allen2022\b", "local", "nsd"),
    (r"brainscore_vision\.data\.laion_fmri\b", "local", "laion_fmri"),
    # issue 38, part 1 (before the shipped rule)
    (r"brainscore_vision\.data\.baker2022\b", "credentials", None),
    (r"brainscore_vision\.data\.bmd2024\b", "credentials", None),
    (r"brainscore_vision\.data\.lonnqvist2024\b", "credentials", None),
    (r"brainscore_vision\.data\.maniquet2024\b", "credentials", None),
    (r"brainscore_vision\.data\.scialom2024\b", "credentials", None),
    (r"brainscore_vision\.data\.coggan2024_behavior\b", "credentials", None),
    # issue 38, second half: each family's own catalogue of Brain-Score's files
    (r"brainscore_vision\.data\.(ferguson2024|malania2007|islam2021|barbumayo2019)\b", "credentials", None),
    (r"brainscore_vision\.data\.hendrycks2019\b", "private", None),
    (r"brainscore_vision\.data\.", "shipped", None),
)
#: registered stimulus sets whose images cannot be had (the load raises a clear error)
UNAVAILABLE_STIMULUS_SETS = frozenset({"FreemanZiemba2013_properties"})


def plugin_data_need(kind: str, identifier: str, module: str | None = None) -> tuple[str, str | None]:
    """(need, local folder or None) of a registered plugin: a benchmark by :data:`RULES` on its identifier, a data or
    stimulus-set plugin by :data:`PLUGIN_MODULE_RULES` on the module that registers it; ``('?', None)`` for anything
    else (a model, a metric, a third party's plugin)."""
    if kind == "benchmark":
        return data_need(identifier)
    if kind == "stimulus_set" and identifier in UNAVAILABLE_STIMULUS_SETS:
        return "unavailable", None
    if kind in ("data", "stimulus_set") and re.match(r"brainscore_vision\.data_helpers\.public_catalogue$", module or ""):
        return ACCESS_NEEDS[_catalogue_access(kind, identifier)], None
    if kind in ("data", "stimulus_set"):
        for pattern, need, folder in PLUGIN_MODULE_RULES:
            if re.match(pattern, module or ""):
                return need, folder
    return "?", None


#: the need of a file registered by reference, from its catalogue entry's ``access``
ACCESS_NEEDS = {"public": "network", "unknown": "credentials", "private": "private"}


def _catalogue_access(kind: str, identifier: str) -> str:
    """The ``access`` of ``identifier``'s entry in the families' catalogue files (``data/<family>/catalogue.json``);
    ``'public'`` for an entry of the public catalogue only."""
    from pathlib import Path

    from brainscore_vision.data_helpers.public_catalogue import read_catalogue

    for path in sorted((Path(__file__).parent / "data").glob("*/catalogue.json")):
        entry = read_catalogue(path).get((kind, identifier))
        if entry is not None:
            return entry["access"]
    return "public"


def data_need(identifier: str) -> tuple[str, str | None]:
    """(need, local folder name or None) of benchmark ``identifier`` (``('?', None)`` when no rule matches)."""
    for pattern, need, folder in RULES:
        if re.match(pattern, identifier):
            return need, folder
    return "?", None


#: the marker of a need whose words differ from its name
NEED_MARKERS = {"credentials": "[network: unsigned, then your AWS credentials]",
                "private": "[private: needs Brain-Score credentials]"}


def data_marker(identifier: str) -> str:
    """The bracketed marker ``brainscore list benchmarks`` prints, e.g. ``[local: BRAINSCORE_NSD_DIR unset]``."""
    need, folder = data_need(identifier)
    if folder is None:
        return NEED_MARKERS.get(need, f"[{need}]")
    ready, _ = local_folder_status(folder)
    return f"[{need}: {LOCAL_FOLDERS[folder].variable} {'set' if ready else 'unset'}]"
