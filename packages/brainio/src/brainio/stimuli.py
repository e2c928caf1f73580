"""StimulusSet: a pandas DataFrame of stimulus metadata that knows where its files are."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pandas as pd

from .errors import ValidationError
from .validation import TEXT_COLUMNS, check_stimulus_table

__all__ = ["StimulusSet"]


class StimulusSet(pd.DataFrame):
    """Stimulus metadata, one row per stimulus, with a ``stimulus_id`` column.

    Attributes ``identifier`` (alias ``name``) and ``stimulus_paths`` (dict stimulus_id -> local path)
    survive slicing, filtering, ``copy``, ``merge`` and ``concat``. After ``concat``/``merge`` of sets with
    different identifiers, ``identifier`` is ``None`` (a result that mixes two sets is neither of them, and
    caches keyed on the identifier must not mistake it for one); ``stimulus_paths`` is the union.

    Parameters
    ----------
    data : list of dict, DataFrame or anything ``pandas.DataFrame`` accepts
        One row per stimulus.
    *args, **kwargs
        Passed to ``pandas.DataFrame``.

    Examples
    --------
    >>> s = StimulusSet([{'stimulus_id': 'a', 'category': 'face'}])
    >>> s.name = 'MyExperiment2024'
    >>> s.stimulus_paths = {'a': '/tmp/a.png'}
    >>> s[s['category'] == 'face'].identifier
    'MyExperiment2024'
    """

    _metadata = ["identifier", "stimulus_paths"]
    identifier: str | None = None
    stimulus_paths: dict | None = None

    def __init__(self, data: Any = None, *args: Any, **kwargs: Any):
        super().__init__(data, *args, **kwargs)
        if isinstance(data, StimulusSet):
            object.__setattr__(self, "identifier", data.identifier)
            object.__setattr__(self, "stimulus_paths", data.stimulus_paths)
        if self.stimulus_paths is None:
            object.__setattr__(self, "stimulus_paths", {})

    @property
    def _constructor(self):
        return StimulusSet

    @property
    def name(self) -> str | None:
        """Alias of ``identifier`` (Brain-Score tutorials set ``stimulus_set.name``)."""
        return self.identifier

    @name.setter
    def name(self, value: str | None) -> None:
        object.__setattr__(self, "identifier", value)

    @property
    def image_paths(self) -> dict:
        """Legacy name of ``stimulus_paths`` (brainio 0.x plugins set ``stimulus_set.image_paths = {...}``)."""
        return self.stimulus_paths

    @image_paths.setter
    def image_paths(self, value: dict) -> None:
        object.__setattr__(self, "stimulus_paths", value)

    def get_image(self, image_id: str) -> str:
        """Legacy name of :meth:`get_stimulus`."""
        return self.get_stimulus(image_id)

    def __finalize__(self, other: Any, method: str | None = None, **kwargs: Any) -> StimulusSet:
        result = super().__finalize__(other, method=method, **kwargs)
        inputs = getattr(other, "input_objs", None)
        if inputs is not None:  # concat / merge: combine the metadata of all StimulusSet inputs
            sets = [obj for obj in inputs if isinstance(obj, StimulusSet)]
            identifiers = {s.identifier for s in sets}
            identifier = identifiers.pop() if len(identifiers) == 1 else None
            paths: dict = {}
            for s in sets:
                paths.update(s.stimulus_paths or {})
            object.__setattr__(result, "identifier", identifier)
            object.__setattr__(result, "stimulus_paths", paths)
        elif method == "copy" and isinstance(result.stimulus_paths, dict):
            # a copy of the same kind (a loaded set's ExtractedPaths keeps its recorded digests)
            object.__setattr__(result, "stimulus_paths", result.stimulus_paths.copy())
        return result

    def get_stimulus(self, stimulus_id: str) -> str:
        """Local path of the file of ``stimulus_id``.

        Raises
        ------
        KeyError
            When the set has no path for ``stimulus_id`` (the message names the id and the set).
        """
        paths = self.stimulus_paths or {}
        try:
            return os.fspath(paths[stimulus_id])
        except KeyError:
            raise KeyError(f"stimulus_id {stimulus_id!r} has no path in stimulus set {self.identifier!r}") from None

    @classmethod
    def from_files(cls, csv_path: str | os.PathLike, directory: str | os.PathLike,
                   identifier: str | None = None, *, strict: bool = True) -> StimulusSet:
        """Read a packaged stimulus set: a CSV with a ``filename`` column and the folder of its files.

        Parameters
        ----------
        csv_path : path
            CSV with a header row; a legacy ``image_id`` column is copied to ``stimulus_id``.
        directory : path
            Folder that holds the files named in the ``filename`` column.
        identifier : str, optional
            Identifier of the set, default=None.
        strict : bool, default=True
            Check the table as one being written (see :func:`~brainio.validation.check_stimulus_table`); False for
            a table that arrived through its author's SHA-1.
        """
        frame = read_stimulus_csv(csv_path, strict=strict)
        stimulus_set = cls(frame)
        directory = Path(directory)
        if "filename" in stimulus_set.columns:
            stimulus_set.stimulus_paths = {
                sid: str(directory / filename)
                for sid, filename in zip(stimulus_set["stimulus_id"].tolist(), stimulus_set["filename"].tolist())
            }
        stimulus_set.identifier = identifier
        return stimulus_set


def read_stimulus_csv(csv_path: str | os.PathLike, *, text_columns: tuple[str, ...] = TEXT_COLUMNS,
                      strict: bool = True) -> pd.DataFrame:
    """Read a stimulus CSV after checking every cell, keeping ids and file names as text (``'0001'`` stays ``'0001'``).

    The cells are checked by :func:`~brainio.validation.check_stimulus_table` (duplicate column names as written in
    the header, missing ids, NUL characters, overlong fields, words among numbers; rows are counted as in a
    spreadsheet, the header being row 1) before the frame is returned.

    Parameters
    ----------
    csv_path : path-like
    text_columns : tuple of str, default=TEXT_COLUMNS
        Columns read as text that may hold no missing value (``stimulus_id``, ``image_id``, ``filename``; the
        command line adds its ``--path-column``).
    strict : bool, default=True
        Passed to :func:`~brainio.validation.check_stimulus_table`: False skips the judgements (overlong fields,
        words among numbers) for a table that arrived through its author's SHA-1.

    Raises
    ------
    ValidationError
        Naming the file (and the rows and columns) when it is not a readable UTF-8 CSV or a cell is refused.
    """
    try:
        if os.stat(csv_path).st_size == 0:
            raise ValidationError(f"stimulus CSV {csv_path} is empty (0 bytes)")
        first = pd.read_csv(csv_path, header=None, nrows=1, dtype=str, keep_default_na=False, na_filter=False)
        header = [str(name) for name in first.iloc[0]]  # as written (read_csv would rename a repeated one)
        frame = pd.read_csv(csv_path, dtype={column: str for column in text_columns if column in header})
        problems = check_stimulus_table(frame, first_row=2, text_columns=text_columns, column_names=header,
                                        strict=strict)
        if problems:
            raise ValidationError([f"stimulus CSV {csv_path}: {problem}" for problem in problems])
    except FileNotFoundError as error:
        raise ValidationError(f"stimulus CSV {csv_path} does not exist") from error
    except (UnicodeDecodeError, ValueError, pd.errors.ParserError, pd.errors.EmptyDataError, OSError) as error:
        if isinstance(error, ValidationError):
            raise
        raise ValidationError(f"stimulus CSV {csv_path} cannot be read: {type(error).__name__}: "
                              f"{str(error).splitlines()[0] if str(error) else ''}") from error
    if "stimulus_id" not in frame.columns and "image_id" in frame.columns:
        frame["stimulus_id"] = frame["image_id"]
    if "stimulus_id" not in frame.columns:
        raise ValidationError(f"stimulus CSV {csv_path} has no 'stimulus_id' (or legacy 'image_id') column; its "
                              f"columns: {[str(column) for column in frame.columns][:20]}")
    return frame
