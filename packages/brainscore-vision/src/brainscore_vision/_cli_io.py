"""Talking to the user of the command line: a line above the progress bar, a yes/no question."""

from __future__ import annotations

import sys

__all__ = ["confirmed", "print_line"]


def print_line(line: str) -> None:
    """One line on stderr, above any progress bar (tables and listings go to stdout)."""
    from tqdm import tqdm

    tqdm.write(line, file=sys.stderr)


def confirmed(question: str) -> bool:
    """Ask ``question`` on stderr and read one answer line from stdin: True only for ``y`` or ``yes``.

    No answer (end of input: nothing piped, no terminal) is no.
    """
    print(question, end="", file=sys.stderr, flush=True)
    answer = sys.stdin.readline()
    if not sys.stdin.isatty():  # a piped answer (or none) is not echoed: end the question's line
        print(file=sys.stderr)
    return answer.strip().lower() in ("y", "yes")
