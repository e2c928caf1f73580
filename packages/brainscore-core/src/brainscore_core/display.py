"""How the results store appears to people: its URL without the password, its text without terminal controls.

Everything a person reads (command-line output and prompts, warnings and error messages, the report's footer) shows a
store's URL through :func:`display_url` and text read from a store (identifiers, layer names, error messages) through
:func:`display_text`. Code that connects keeps the real URL; only what is shown changes.

* :func:`display_url` -- the password as ``***``, whether it sits in the user part (``user:secret@host``) or in a
  query parameter (``?password=secret``); text that is not a URL at all is shown as a fixed phrase, since it might be
  nothing but a secret.
* :func:`display_text` -- control characters (ESC, BEL, CR, LF, TAB, DEL, the C1 controls such as the one-byte CSI)
  and the characters that reorder or break displayed text (bidirectional overrides and isolates, line and paragraph
  separators) written as Python escapes (``\\x1b``, ``\\r``, ``\\u202e``): a stored identifier cannot move the
  cursor, clear the screen, ring the bell or hide what a prompt asks about. Printable text, accents and symbols
  included, is unchanged.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit

__all__ = ["HIDDEN", "display_text", "display_url"]

HIDDEN = "***"
"""What a password is shown as."""

#: query parameters that hold a secret in SQLAlchemy / libpq URLs (compared in lower case)
_SECRET_PARAMETERS = frozenset({"password", "passwd", "pwd", "sslpassword", "secret", "token", "access_token"})
#: ``scheme://user:password@`` when the text cannot be parsed as a URL
_USER_PASSWORD = re.compile(r"(?P<head>://[^/?#@:]*:)[^@]*@")
_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
#: reorder or break displayed text without being control characters (Unicode categories Cf, Zl, Zp)
_LAYOUT = "\u061c\u200e\u200f\u2028\u2029\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def _escape(character: str) -> str:
    if character in _SHORT:
        return _SHORT[character]
    code = ord(character)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _escapes() -> dict[int, str]:
    # Unicode's control characters (category Cc, fixed by the standard): C0, DEL and C1
    controls = [chr(code) for code in [*range(0x20), *range(0x7F, 0xA0)]]
    return {ord(character): _escape(character) for character in [*controls, *_LAYOUT]}


_ESCAPES = _escapes()


def display_text(value: object) -> str:
    """``value``'s text with every control and layout character escaped, safe to print on a terminal.

    Parameters
    ----------
    value : object
        Anything; ``None`` gives ``"None"`` as ``str`` would.

    Returns
    -------
    str
        The text, one printable line: ``"\\x1b[2J"`` (ESC, then ``[2J``) becomes the seven characters ``\\x1b[2J``,
        a carriage return ``\\r``, a newline ``\\n``. A backslash already in the text stays as it is.

    >>> display_text("alex\\x1b[2Jnet\\x07")
    'alex\\\\x1b[2Jnet\\\\x07'
    >>> display_text("V4 — raw²")
    'V4 — raw²'
    """
    return str(value).translate(_ESCAPES)


def display_url(url: object) -> str:
    """A results-store URL as people see it: the password shown as :data:`HIDDEN`, the rest unchanged.

    Parameters
    ----------
    url : str or sqlalchemy.URL
        The URL the store connects with.

    Returns
    -------
    str
        E.g. ``postgresql+psycopg://alice:***@db.example:5432/scores`` for
        ``postgresql+psycopg://alice:s3cret@db.example:5432/scores``; ``?password=s3cret`` becomes ``?password=***``.
        Text that SQLAlchemy cannot read as a URL has whatever stands between ``user:`` and ``@`` hidden, and text
        without ``scheme://`` gives ``"the results store (URL not shown)"``: it might be nothing but a secret.
        Control characters are escaped (:func:`display_text`).

    >>> display_url("postgresql+psycopg://alice:s3cret@db.example:5432/scores")
    'postgresql+psycopg://alice:***@db.example:5432/scores'
    >>> display_url("sqlite:////home/alice/.brainscore/results.sqlite")
    'sqlite:////home/alice/.brainscore/results.sqlite'
    """
    try:  # parsed as the store parses it, so that what it reads as the password is what is hidden
        import sqlalchemy as sa

        text = sa.make_url(url).render_as_string(hide_password=True)
    except Exception:  # not a URL SQLAlchemy reads: hide whatever stands between "user:" and "@"
        text = str(url)
        if "://" not in text:
            return "the results store (URL not shown)"
        text = _USER_PASSWORD.sub(lambda match: f"{match['head']}{HIDDEN}@", text)
    parts = urlsplit(text)
    if parts.query:
        pairs = parse_qsl(parts.query, keep_blank_values=True)
        if any(key.lower() in _SECRET_PARAMETERS for key, _ in pairs):
            hidden = [(key, HIDDEN if key.lower() in _SECRET_PARAMETERS else value) for key, value in pairs]
            text = parts._replace(query=urlencode(hidden, safe="*/:")).geturl()
    return display_text(text)
