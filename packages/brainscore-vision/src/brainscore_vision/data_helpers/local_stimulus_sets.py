"""Brain-Score's packaged stimulus sets read from a local folder (data that may not be redistributed: ImageNet-C,
ObjectNet): the CSV Brain-Score's bucket holds, checked against the sha1 its data plugin records, and the images
named in its ``filename`` column beside it."""

from __future__ import annotations

from pathlib import Path

from brainio.files import remembered_sha1_hash
from brainscore_vision.data_helpers.local_data import local_folder
from brainscore_vision.errors import DataIntegrityError, LocalDataMissingError

__all__ = ["local_brainscore_stimulus_set"]


def local_brainscore_stimulus_set(folder: str, csv_name: str, *, identifier: str, csv_sha1: str, needed_by: str,
                                  row_step: int = 1, root: Path | None = None):
    """A StimulusSet from ``<local folder>/<csv_name>`` and the images beside it.

    Parameters
    ----------
    folder : str
        A key of :data:`~brainscore_vision.data_helpers.local_data.LOCAL_FOLDERS` (``'imagenet_c'``, ``'objectnet'``).
    csv_name : str
        The CSV's path inside the folder (e.g. ``'stimulus_BarbuMayo2019.csv'``); the images are looked up under its
        ``filename`` column, relative to the CSV's folder.
    identifier : str
        The identifier the set gets (Brain-Score's).
    csv_sha1 : str
        The sha1 Brain-Score's data plugin records for the CSV.
    needed_by : str
        The benchmark that needs it (for the messages).
    row_step : int, default=1
        Keep every ``row_step``-th row, in the CSV's order (Brain-Score's ImageNet-C sampling: 10).
    root : path, default=None
        The folder itself; None reads the folder's variable.

    Raises
    ------
    LocalDataMissingError
        The variable is unset, or the CSV or an image it names is missing (naming the file).
    DataIntegrityError
        The CSV's bytes differ from the ones Brain-Score records (naming the file and both sha1s).
    """
    from brainio.stimuli import StimulusSet

    root = local_folder(folder, needed_by) if root is None else Path(root)
    csv_path = root / csv_name
    if not csv_path.is_file():
        raise LocalDataMissingError(f"{needed_by} needs {csv_path}, Brain-Score's table of the stimulus set "
                                    f"{identifier!r}, which is not there")
    found = remembered_sha1_hash(csv_path)
    if found != csv_sha1:
        raise DataIntegrityError(f"{needed_by}: {csv_path} has sha1 {found}, not the {csv_sha1} Brain-Score records "
                                 f"for stimulus set {identifier!r}")
    stimuli = StimulusSet.from_files(csv_path, csv_path.parent, identifier=identifier, strict=False)
    if row_step != 1:
        paths = stimuli.stimulus_paths
        stimuli = StimulusSet(stimuli.iloc[::row_step].reset_index(drop=True))
        stimuli.stimulus_paths = {stimulus_id: paths[stimulus_id] for stimulus_id in stimuli["stimulus_id"]}
        stimuli.identifier = identifier
    missing = [path for path in stimuli.stimulus_paths.values() if not Path(path).is_file()]
    if missing:
        raise LocalDataMissingError(f"{needed_by}: {len(missing)} images named in {csv_path} are not in "
                                    f"{csv_path.parent}, e.g. {missing[:3]}")
    return stimuli
