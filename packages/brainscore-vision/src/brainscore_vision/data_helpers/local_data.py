"""Folders of data that may not be redistributed, which a user fetches once and points to.

=================  ==============================  ====================================================================
name               environment variable            what the folder holds
=================  ==============================  ====================================================================
``things``         ``BRAINSCORE_THINGS_IMAGES``    the THINGS image database: ``object_images/<concept>/<image>.jpg``
``nsd``            ``BRAINSCORE_NSD_DIR``          Brain-Score's Allen2022 (NSD) files: ``assy_Allen2022_fMRI_*.nc``,
                                                   ``stimulus_Allen2022_fMRI_*_Stimuli.{csv,zip}``
``laion_fmri``     ``BRAINSCORE_LAION_FMRI_DIR``   Brain-Score's LAION-fMRI files: ``assy_LAION_fMRI_*.nc``, the
                                                   stimuli (``stimuli/manifest.csv`` + images) and the split files
                                                   (``splits/<pool>/<split>.json``)
``imagenet``       ``BRAINSCORE_IMAGENET_DIR``     the ILSVRC-2012 validation images, in ``<synset>/`` folders or flat
                                                   with a label table (``LOC_val_solution.csv`` or Brain-Score's
                                                   ``imagenet2012.csv``)
``imagenet_c``     ``BRAINSCORE_IMAGENET_C_DIR``   ImageNet-C as Brain-Score stores it: per category
                                                   ``stimulus_imagenet_c_<category>/stimulus_imagenet_c_<category>.csv``
                                                   and the images under the CSV's ``filename`` beside it
``objectnet``      ``BRAINSCORE_OBJECTNET_DIR``    ObjectNet as Brain-Score stores it: ``stimulus_BarbuMayo2019.csv``
                                                   and the images under the CSV's ``filename`` beside it
=================  ==============================  ====================================================================

Every loader that needs one calls :func:`local_folder`, which raises :class:`LocalDataMissingError` in one line
saying what to fetch and which variable to set; files inside are checked against the sha1s Brain-Score records,
so a folder with other files fails naming the file (never silently scores on different data).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from brainscore_vision.errors import LocalDataMissingError
from brainscore_vision.settings import local_data_folder

__all__ = ["LOCAL_FOLDERS", "LocalFolder", "LocalDataMissingError", "local_folder", "local_folder_status"]


@dataclass(frozen=True)
class LocalFolder:
    """A local data folder: its variable, what to fetch, and a file or folder inside that shows it is the right one."""

    variable: str
    what: str
    fetch: str
    marker: str


LOCAL_FOLDERS = {
    "things": LocalFolder(
        "BRAINSCORE_THINGS_IMAGES", "the THINGS images",
        "download images_THINGS.zip from https://osf.io/jum2f/ (accept its license; the password is in "
        "password_images.txt), unzip it", "object_images"),
    "nsd": LocalFolder(
        "BRAINSCORE_NSD_DIR", "the Natural Scenes Dataset (Allen2022) files",
        "get NSD access (https://naturalscenesdataset.org, data use agreement), then Brain-Score's packaged files "
        "(assy_Allen2022_fMRI_*.nc, stimulus_Allen2022_fMRI_*_Stimuli.csv/.zip) from its team or its packaging "
        "scripts (data/allen2022_fmri/data_packaging) into one folder", "."),
    "laion_fmri": LocalFolder(
        "BRAINSCORE_LAION_FMRI_DIR", "the LAION-fMRI files",
        "sign the LAION-fMRI data use agreement (`laion-fmri request-access`), put Brain-Score's assy_LAION_fMRI_*.nc "
        "files, the stimuli (stimuli/manifest.csv and images, `laion-fmri download-stimuli`) and the split files "
        "(splits/<pool>/<split>.json from the laion_fmri package) into one folder", "."),
    "imagenet": LocalFolder(
        "BRAINSCORE_IMAGENET_DIR", "the ImageNet (ILSVRC-2012) validation images",
        "download ILSVRC2012_img_val.tar from https://image-net.org (account and terms of access), unpack it into "
        "<synset>/ folders or keep it flat beside LOC_val_solution.csv", "."),
    # issue 38, second half
    "imagenet_c": LocalFolder(
        "BRAINSCORE_IMAGENET_C_DIR", "ImageNet-C (Hendrycks & Dietterich 2019) as Brain-Score stores it",
        "get Brain-Score's stimulus_imagenet_c_<category>.csv and .zip (stimulus sets imagenet_c.<category>, with "
        "Brain-Score's credentials) and unpack each into stimulus_imagenet_c_<category>/ beside its CSV", "."),
    "objectnet": LocalFolder(
        "BRAINSCORE_OBJECTNET_DIR", "ObjectNet (Barbu, Mayo et al. 2019) as Brain-Score stores it",
        "accept ObjectNet's license (https://objectnet.dev), get Brain-Score's stimulus_BarbuMayo2019.csv and .zip "
        "(stimulus set BarbuMayo2019) and unpack the images beside the CSV", "."),
}


def local_folder_status(name: str) -> tuple[bool, Path | None]:
    """(whether the folder is configured and looks right, its path or None)."""
    spec = LOCAL_FOLDERS[name]
    path = local_data_folder(spec.variable)
    if path is None:
        return False, None
    return (path / spec.marker).exists(), path


def local_folder(name: str, needed_by: str) -> Path:
    """The configured folder ``name`` (a key of :data:`LOCAL_FOLDERS`).

    Raises
    ------
    LocalDataMissingError
        In one line: what ``needed_by`` needs, what to fetch, and which variable to set.
    """
    spec = LOCAL_FOLDERS[name]
    ready, path = local_folder_status(name)
    if ready:
        return path
    where = (f"{spec.variable}={str(path)!r} has no {spec.marker!r}" if path is not None
             else f"{spec.variable} is not set")
    inside = f" (the folder that holds {spec.marker}/)" if spec.marker != "." else ""
    raise LocalDataMissingError(f"{needed_by} needs {spec.what}, which may not be redistributed: {spec.fetch}, "
                                f"and set {spec.variable} to that folder{inside}; now {where}")
