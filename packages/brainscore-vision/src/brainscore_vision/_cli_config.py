"""``brainscore config``: every setting of every installed package, its variables, the value in effect and the
default.

::

    brainscore config                     # one line per setting, grouped by the package that reads it
    brainscore config --package model-tools

The settings come from the packages themselves (entry-point group ``brainscore_settings``:
:func:`brainscore_core.package_hooks.published_settings`); this module knows none of them. A value is what the
owning package's reader answers now (the option set with ``set_options``, else the variable, else the default).
"""

from __future__ import annotations

import argparse
from typing import Any

from brainscore_vision.errors import EXIT_FAILED, EXIT_USAGE, CommandError

__all__ = ["add_config_command", "run_config_command"]


def add_config_command(commands: Any) -> None:
    """Add ``config`` to the command line's subparsers."""
    config = commands.add_parser("config", help="every setting of every installed package: its environment "
                                                "variables, the value in effect and the default")
    config.add_argument("--package", action="append", dest="packages", metavar="DISTRIBUTION",
                        help="only the settings of this distribution (repeatable), e.g. brainio, model-tools")


def run_config_command(args: argparse.Namespace) -> int:
    """Print the published settings; returns the exit status."""
    from brainscore_core.display import display_text
    from brainscore_core.errors import PublicationError
    from brainscore_core.package_hooks import published_settings

    try:
        settings = published_settings()
    except PublicationError as error:
        raise CommandError(str(error), EXIT_FAILED) from None
    owners = list(dict.fromkeys(setting.owner for setting in settings))
    wanted = args.packages or owners
    unknown = [name for name in wanted if name not in owners]
    if unknown:
        raise CommandError(f"no installed package {unknown[0]!r} publishes settings; those that do: "
                           f"{', '.join(map(str, owners))}", EXIT_USAGE)
    for owner in (owner for owner in owners if owner in wanted):
        print(f"{owner}:")
        for setting in (setting for setting in settings if setting.owner == owner):
            variables = ", ".join(setting.variables) or "(no variable)"
            option = f"; option {setting.option!r}" if setting.option else ""
            print(display_text(f"  {variables} = {setting.current()}  (default: {setting.default}{option})"))
            print(display_text(f"      {setting.name}: {setting.description}"))
    return 0
