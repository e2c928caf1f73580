"""Talking to the user of the command line: a line above the progress bar, a yes/no question.

Both show their text through :func:`brainscore_core.display.display_text`: a message that quotes stored text (an
identifier, an error message) cannot move the cursor, clear the screen or hide part of a question.
"""

from __future__ import annotations

import sys

__all__ = ["confirmed", "print_line"]


def print_line(line: str) -> None:
    """One line on stderr, above any progress bar (tables and listings go to stdout); control characters escaped."""
    from tqdm import tqdm

    from brainscore_core.display import display_text

    tqdm.write(display_text(line), file=sys.stderr)


def confirmed(question: str) -> bool:
    """Ask ``question`` on stderr and read one answer line from stdin: True only for ``y`` or ``yes``.

    No answer (end of input: nothing piped, no terminal) is no. Control characters in ``question`` are escaped.
    """
    from brainscore_core.display import display_text

    print(display_text(question), end="", file=sys.stderr, flush=True)
    answer = sys.stdin.readline()
    if not sys.stdin.isatty():  # a piped answer (or none) is not echoed: end the question's line
        print(file=sys.stderr)
    return answer.strip().lower() in ("y", "yes")
