"""Command line: ``brainio validate`` and ``brainio package``.

Stimuli come as a CSV with a ``stimulus_id`` column and a column naming each file inside a folder
(``--path-column``, default ``filename``); that column is renamed to ``image_filename`` in the package,
as the tutorial asks, because packaging writes its own ``filename``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from .errors import BrainIOError, PathOutsideRootError, ValidationError
from .netcdf import UNTRUSTED_TIMEOUT_S, read_netcdf
from .packaging import package_data_assembly_locally, package_stimulus_set_locally
from .paths import path_inside
from .stimuli import StimulusSet, read_stimulus_csv
from .validation import TEXT_COLUMNS, check_assembly, check_stimulus_set

__all__ = ["main"]


def _inside(folder: Path, name: str) -> bool:
    """``name`` lies inside ``folder`` by the one path rule (:func:`brainio.paths.path_inside`)."""
    try:
        path_inside(folder, name)
    except PathOutsideRootError:
        return False
    return True


def _stimulus_set(csv_path: str, directory: str, path_column: str, identifier: str | None,
                  allow_outside: bool = False) -> StimulusSet:
    # the one check of the cells (brainio.validation.check_stimulus_table), ids and file names kept as text
    frame = read_stimulus_csv(csv_path, text_columns=(*TEXT_COLUMNS, path_column))
    for column in ("stimulus_id", path_column):
        if column not in frame.columns:
            raise ValidationError(f"{csv_path} has no column {column!r} (columns: {[str(c) for c in frame.columns]})")
    folder = Path(directory)
    paths = {sid: str(folder / str(name)) for sid, name in zip(frame["stimulus_id"].tolist(),
                                                               frame[path_column].tolist())}
    if not allow_outside:
        outside = [f"row {row + 2}: {name!r}" for row, name in enumerate(map(str, frame[path_column].tolist()))
                   if not _inside(folder, name)]
        if outside:
            raise ValidationError([f"{csv_path}: column {path_column!r} names files outside --stimuli-dir {folder} "
                                   f"(pass --allow-outside to package them): {outside[:10]}"
                                   + (f" (+{len(outside) - 10} more)" if len(outside) > 10 else "")])
    if path_column == "filename":
        frame = frame.rename(columns={"filename": "image_filename"})
    stimulus_set = StimulusSet(frame)
    stimulus_set.stimulus_paths = paths
    stimulus_set.identifier = identifier if identifier is not None else Path(csv_path).name  # names it in messages
    return stimulus_set


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="brainio", description="Validate and package Brain-Score data.")
    commands = parser.add_subparsers(dest="command", required=True)
    for name, helptext in (("validate", "run the packaging checklist and list every problem"),
                           ("package", "package stimuli (CSV + folder) and/or an assembly (.nc); prints JSON")):
        command = commands.add_parser(name, help=helptext)
        command.add_argument("--csv", help="stimulus CSV with a stimulus_id column")
        command.add_argument("--stimuli-dir", help="folder of the stimulus files")
        command.add_argument("--path-column", default="filename", help="CSV column naming each file (default: filename)")
        command.add_argument("--nc", help="assembly netCDF file")
        command.add_argument("--class", dest="assembly_class", default="NeuroidAssembly",
                             help="assembly class (default: NeuroidAssembly)")
        command.add_argument("--allow-nan", action="store_true", help="accept NaN values in the assembly")
        command.add_argument("--identifier", help="stimulus set identifier (package) / assembly identifier")
        command.add_argument("--stimulus-set-identifier", help="stimulus set of the assembly (default: --identifier)")
        command.add_argument("--assembly-identifier", help="assembly identifier (default: --identifier)")
        command.add_argument("--output", help="output folder (default: ~/Downloads/brainscore_packages)")
        command.add_argument("--allow-outside", action="store_true",
                             help="accept stimulus files outside --stimuli-dir (absolute paths, '..')")
        command.add_argument("--debug", action="store_true", help="show the traceback of unexpected errors")
        if name == "package":
            command.add_argument("--overwrite", action="store_true",
                                 help="replace existing packaged files of different content")
    return parser


def _read_nc(path: str):
    """A user's file: opened first in a child process that must finish (damaged HDF5 can loop forever)."""
    return read_netcdf(path, timeout=UNTRUSTED_TIMEOUT_S)


def _validate(args) -> int:
    problems: list[str] = []
    stimulus_set = None
    if args.csv:
        stimulus_set = _stimulus_set(args.csv, args.stimuli_dir or ".", args.path_column, args.identifier,
                                     args.allow_outside)
        problems += [f"stimuli ({args.csv}): {p}" for p in check_stimulus_set(stimulus_set)]
    if args.nc:
        problems += [f"assembly ({args.nc}): {p}" for p in check_assembly(_read_nc(args.nc), args.assembly_class,
                                                              stimulus_set, allow_nan=args.allow_nan)]
    for problem in problems:
        print(problem)
    if not problems:
        print("ok")
    return 1 if problems else 0


def _package(args) -> int:
    if args.identifier is None:  # a blank one goes on and is refused by packaging, which names it
        raise ValidationError("--identifier is required for package")
    result: dict = {}
    stimulus_set = None
    stimulus_set_identifier = args.stimulus_set_identifier or args.identifier
    if args.csv:
        stimulus_set = _stimulus_set(args.csv, args.stimuli_dir or ".", args.path_column, stimulus_set_identifier,
                                     args.allow_outside)
        try:
            result["stimulus_set"] = package_stimulus_set_locally(stimulus_set, stimulus_set_identifier, args.output,
                                                                  overwrite=args.overwrite)
        except ValidationError as error:  # name the CSV the problems come from, as validate does
            raise ValidationError([f"stimuli ({args.csv}): {problem}" for problem in error.problems]) from error
    if args.nc:
        result["assembly"] = package_data_assembly_locally(
            _read_nc(args.nc), args.assembly_identifier or args.identifier, stimulus_set_identifier,
            args.assembly_class, args.output, stimulus_set=stimulus_set, allow_nan=args.allow_nan,
            overwrite=args.overwrite)
    if not result:
        raise ValidationError("nothing to package: give --csv/--stimuli-dir and/or --nc")
    print(json.dumps(result["stimulus_set"] if list(result) == ["stimulus_set"] else
                     result["assembly"] if list(result) == ["assembly"] else result, indent=1))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``brainio`` command; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        return _validate(args) if args.command == "validate" else _package(args)
    except (BrainIOError, OSError) as error:
        problems = error.problems if isinstance(error, ValidationError) else [str(error)]
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1
    except Exception as error:
        if args.debug:
            raise
        inputs = ", ".join(f"{flag} {value}" for flag, value in (("--csv", args.csv), ("--nc", args.nc)) if value)
        print(f"brainio {args.command} failed on {inputs or 'its arguments'}: {type(error).__name__}: {error} "
              "(run again with --debug for the traceback, and please report it)", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
