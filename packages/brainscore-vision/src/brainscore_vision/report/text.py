"""How numbers, identifiers and file names appear in the report (one place, so tests can reuse it)."""

from __future__ import annotations

import hashlib
import html
import math
import re
from datetime import datetime
from urllib.parse import quote

__all__ = [
    "OVERSHOOT_MARK",
    "SLUG_MAX",
    "esc",
    "format_error",
    "format_score",
    "format_time",
    "href",
    "is_overshoot",
    "score_html",
    "slug",
]

#: the longest file name a slug gives (see :func:`slug`)
SLUG_MAX = 97
#: how a digested slug ends; an identifier ending so is digested too, so it cannot take another one's file
_DIGESTED = re.compile(r"-[0-9a-f]{16}$")
# Shown before a ceiled score above 1 (the model beats the subjects' own consistency).
OVERSHOOT_MARK = "\u25b2"
_DIGITS = 3


def esc(value: object) -> str:
    """HTML-escape any value's text, quotes included (safe in element text and attribute values)."""
    return html.escape("" if value is None else str(value), quote=True)


def format_score(value: float | None) -> str:
    """Text of a score: three decimals, ``NaN`` for not-a-number, an em dash for missing.

    >>> format_score(0.52349), format_score(float("nan")), format_score(None)
    ('0.523', 'NaN', '—')
    """
    if value is None:
        return "\u2014"
    if math.isnan(value):
        return "NaN"
    return f"{value:.{_DIGITS}f}"


def format_error(value: float | None) -> str:
    """Text of an error with its ``±`` sign, or empty when there is none.

    >>> format_error(0.0123)
    '±0.012'
    """
    if value is None or math.isnan(value):
        return ""
    return f"\u00b1{value:.{_DIGITS}f}"


def format_time(stamp: object) -> str:
    """A stored timestamp to the second, ``UTC`` when it is; unparseable text as it is.

    >>> format_time("2026-11-23T00:55:58.266572+00:00")
    '2026-11-23 00:55:58 UTC'
    """
    if stamp is None:
        return ""
    try:
        moment = stamp if isinstance(stamp, datetime) else datetime.fromisoformat(str(stamp))
    except ValueError:
        return str(stamp)
    text = moment.strftime("%Y-%m-%d %H:%M:%S")
    offset = moment.utcoffset()
    if offset is not None and offset.total_seconds() == 0:
        text += " UTC"
    return text


def is_overshoot(value: float | None) -> bool:
    """True for a ceiled score above 1 (shown with :data:`OVERSHOOT_MARK`, never clipped)."""
    return value is not None and not math.isnan(value) and value > 1


def score_html(value: float | None) -> str:
    """Escaped HTML of a ceiled score: the overshoot marker above 1, a flagged ``NaN``, else the number."""
    if is_overshoot(value):
        return (f"<span class=\"overshoot\" title=\"above the ceiling, not clipped\">{OVERSHOOT_MARK}"
                f"{esc(format_score(value))}</span>")
    if value is not None and math.isnan(value):
        return "<span class=\"nan\" title=\"the stored score is NaN or missing\">NaN</span>"
    return esc(format_score(value))


def slug(identifier: str) -> str:
    """A file-name-safe, collision-free name for ``identifier``, at most :data:`SLUG_MAX` characters.

    Identifiers made only of letters, digits, ``.``, ``_`` and ``-``, at most :data:`SLUG_MAX` characters long, keep
    their text. Any other identifier (unsafe characters, too long for a file name, or text that looks like a digested
    name) becomes its first 80 characters with everything else replaced by ``_``, then ``-`` and 16 hex digits of the
    SHA-1 of the whole identifier, so two identifiers never share a file and every name fits the file system (a
    figure's name holds two slugs: at most 4 + 97 + 1 + 97 + 4 characters, under the usual 255).

    >>> slug("Cowley2023.V4-pls")
    'Cowley2023.V4-pls'
    >>> slug("x" * 300) == "x" * 80 + "-" + hashlib.sha1(b"x" * 300).hexdigest()[:16]
    True
    """
    text = str(identifier)
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", text).lstrip(".") or "_"
    if safe == text and not safe.startswith("_") and len(safe) <= SLUG_MAX and not _DIGESTED.search(safe):
        return safe
    digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"{safe[:80]}-{digest}"


def href(*parts: str) -> str:
    """Relative link built from path parts (each percent-encoded), escaped for an attribute."""
    return esc("/".join(quote(part, safe="") for part in parts))
