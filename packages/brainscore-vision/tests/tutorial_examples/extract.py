"""Extract the Python code examples of Brain-Score's tutorials (``../shared/reference``) as a reader would copy them.

The reference files are text captures of web pages. Two keep their code indented (the data-packaging tutorial, the
legacy benchmark tutorial); in the others every line starts at column 0 and code runs into the prose around it. The
extraction therefore:

1. classifies each line as code or prose (:func:`is_code_line`: Python statement shapes, open brackets and
   triple-quoted strings continue code; tables, diagrams and sentences do not);
2. cuts consecutive code lines into examples, also where a comment names a new ``.py`` file (a tutorial block that
   shows two files);
3. restores indentation where it was lost (:func:`restore_indentation`: blocks open after ``:``, close after
   ``return``/``pass``/``raise``, at a ``def`` outside a class and at a one-statement ``if``/``for`` body);
4. keeps a block as an example when it compiles, or when it has at least three code lines (a garbled example the
   reader would still recognise as code); the 1.x README's output lines (``> ...``) are not code.

Nothing of the tutorials is stored in this repository: examples are read from the reference files each time.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

__all__ = ["TUTORIALS", "Example", "extract_examples", "is_code_line", "restore_indentation"]

#: reference file -> short name used in example identifiers
TUTORIALS = {
    "tutorial-data-packaging.txt": "packaging",
    "tutorial-neural-benchmarks.txt": "neural",
    "tutorial-submitting-benchmarks.txt": "submitting",
    "tutorial-benchmarks-legacy.txt": "legacy",
    "readme-legacy-brainscore.txt": "readme1x",
}

_STATEMENT = re.compile(r"""^(
      from\s+[\w.<>]+\s+import\b | import\s+[\w.] | def\s+\w+\( | class\s+\w+\s*[(:] | @\w | return\b | \#
    | (if|elif|for|while|with)\s.*:\s*(\#.*)?$ | else:\s*$ | try:\s*$ | except\b.*:\s*$ | finally:\s*$
    | raise\s | assert\s | pass\s*$ | super\( | [)\]}] | \"\"\" | '''
    | '[^']*'\s*: | "[^"]*"\s*:
    | [A-Za-z_][\w.]*(\[[^\]]*\])*\s*(=|\+=|-=)(?!=)
    | [A-Za-z_][\w.]*\(.*\)?\s*(\#.*)?$
    | [A-Za-z_]\w*\s*,\s*[A-Za-z_]\w*\s*=
)""", re.X)
_SENTENCE = re.compile(r"^[A-Z\u2022][A-Za-z']*(\s+[a-z][\w'\-,.;:()]*){3,}")
_NEW_FILE = re.compile(r"^#\s*\S+\.py\s*$")
_OPENERS = re.compile(r"^(def|class|if|elif|else|for|while|with|try|except|finally)\b.*:\s*(#.*)?$")
_ENDERS = re.compile(r"^(return\b|pass$|raise\b|break$|continue$)")


@dataclass
class Example:
    """One code example: ``identifier`` is ``<tutorial>-<n>`` (e.g. ``neural-3``), ``line`` its first line in the
    reference file, ``title`` the prose line before it, ``code`` the source as the reader copies it."""

    identifier: str
    tutorial: str
    line: int
    title: str
    code: str

    def compiles(self) -> bool:
        try:
            compile(self.code, self.identifier, "exec")
        except SyntaxError:
            return False
        return True


def _bracket_depth_change(line: str) -> int:
    code = re.sub(r"'[^']*'|\"[^\"]*\"", "", line).split("#")[0]
    return sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")


def _outside_strings(text: str, in_string: bool) -> tuple[str, bool]:
    """The parts of ``text`` outside triple-quoted strings, and whether a triple-quoted string is open after it."""
    parts = re.split(r'"""|\'\'\'', text)
    outside = [part for index, part in enumerate(parts) if (index % 2 == 0) != in_string]
    return " ".join(outside), in_string != (len(parts) % 2 == 0)


def is_code_line(line: str, depth: int = 0) -> bool:
    """Whether ``line`` (stripped) is code, given the bracket ``depth`` open before it."""
    text = line.strip()
    if not text or text.startswith(">"):
        return False
    if any(ch in text.split("#")[0] for ch in "\u03b2\u0393\u00e2\u2502\u2500"):
        return False  # box-drawing diagrams (also mis-decoded); a comment may hold an arrow
    if depth > 0:
        return True
    if text.startswith("|") or " | " in text:
        return False
    if _SENTENCE.match(text) and not text.startswith("#"):
        return False
    return bool(_STATEMENT.match(text))


def restore_indentation(lines: list[str]) -> list[str]:
    """Indent flattened Python lines (see the module docstring); lines inside brackets keep the current level."""
    out, level, depth, class_level, one_statement, header = [], 0, 0, None, None, ""
    for raw in lines:
        text = raw.strip()
        if depth > 0:
            out.append("    " * (level + 1) + text)
            depth = max(0, depth + _bracket_depth_change(text))
            if depth == 0 and _OPENERS.match(header.split("(")[0] + " " + text):  # a multi-line header ends
                level += 1
            continue
        if re.match(r"^(def|class|@)\b", text) and not re.match(r"^def\s+\w+\(\s*(self|cls)\b", text):
            level = 0  # a module-level definition
            class_level = None if text.startswith("def") else class_level
        elif text.startswith("def") and class_level is not None:
            level = class_level + 1  # a method
        elif re.match(r"^(elif|else|except|finally)\b", text):
            level = max(0, level - 1)
        if text.startswith("class"):
            class_level = level
        out.append("    " * level + text)
        depth, header = max(0, _bracket_depth_change(text)), text
        if one_statement is not None and not text.startswith("#") and not _OPENERS.match(text):
            level, one_statement = one_statement, None  # a one-statement if/for body ends
            continue
        if _OPENERS.match(text):
            if re.match(r"^(if|for|elif|else)\b", text):
                one_statement = level
            level += 1
        elif _ENDERS.match(text) and depth == 0:
            level = max(0, level - 1)
    return out


def _title(lines: list[str], start: int) -> str:
    for line in reversed(lines[max(0, start - 4):start]):
        text = line.strip()
        if text and not is_code_line(text):
            return text[:100]
    return ""


def extract_examples(path: Path) -> list[Example]:
    """The examples of one reference file, in order."""
    name = TUTORIALS[path.name]
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    flat = not any(line.startswith("    ") for line in lines)
    blocks: list[tuple[int, list[str]]] = []
    current: list[str] = []
    start, depth, in_string = 0, 0, False
    for number, line in enumerate(lines):
        text = line.strip()
        code = in_string or is_code_line(text, depth) or (not flat and bool(current) and not text)
        if not flat and (depth or in_string) and line[:1].isalpha() and _SENTENCE.match(text):
            code = False  # garbled code left a bracket or string open: a sentence at column 0 still ends the block
        if not flat and depth and _SENTENCE.match(text.lstrip("\u2022 ")) and not text.startswith("#"):
            code = False  # garbled code left a bracket open: a sentence at column 0 still ends the block
        if code and _NEW_FILE.match(text) and any(not c.strip().startswith("#") for c in current):
            blocks.append((start, current))
            current = []
        if code:
            if not current:
                start = number
            current.append(line)
            outside, in_string = _outside_strings(text, in_string)
            depth = max(0, depth + _bracket_depth_change(outside))
        elif current:
            blocks.append((start, current))
            current, depth, in_string = [], 0, False
    if current:
        blocks.append((start, current))
    examples = []
    for start, block in blocks:
        while block and not block[-1].strip():
            block = block[:-1]
        source = restore_indentation(block) if flat else textwrap.dedent("\n".join(block)).splitlines()
        example = Example(f"{name}-{len(examples) + 1}", name, start + 1, _title(lines, start),
                          "\n".join(source) + "\n")
        code_lines = [c.strip() for c in block if c.strip() and not c.strip().startswith("#")]
        if not code_lines or re.match(r"^['\"][^'\"]+['\"]\s*:", code_lines[0]):
            continue  # comments only (around a shell command), or a printed dict (an output shown)
        if example.compiles() or len(code_lines) >= 3:
            example.identifier = f"{name}-{len(examples) + 1}"
            examples.append(example)
    return examples
