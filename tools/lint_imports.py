"""Check the import contracts of ``.importlinter`` (import-linter), imports by name included.

Usage: ``python tools/lint_imports.py`` from anywhere (the ``lint`` nox session runs it). The packages need not be
installed: their ``src`` folders are put on the path, and their files are only read, never imported.

import-linter sees ``import`` statements. Some of our modules import by name instead: the lazy tables of a package
``__init__`` (``_LAZY = {"StimulusSet": "brainio.stimuli"}``), ``importlib.import_module("...")``, the
``"module:attribute"`` targets of a deprecation table. This script adds each such name to import-linter's graph as
an import of the module that holds the string, so that the same contracts apply to it:

- a string constant that is exactly the dotted name of one of our modules, or ``"<module>:<attribute>"``, is an
  import of that module (a name built at run time, like ``f"{package}.{name}"``, is not seen: keep those inside one
  package, where the contracts allow them anyway);
- a bare package name (``"brainscore"``) counts only as the argument of ``import_module``, ``find_spec`` or
  ``__import__``, since loggers and messages use package names too;
- docstrings and ``if TYPE_CHECKING:`` blocks are skipped, as import-linter skips those imports.

``--show-dynamic`` lists the names found, one ``importer -> imported (line)`` a line.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE_FOLDERS = sorted(str(path) for path in ROOT.glob("packages/*/src"))
IMPORT_CALLS = {"import_module", "find_spec", "__import__"}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _docstrings(tree: ast.AST) -> set[int]:
    """``id`` of every docstring constant (module, class, function)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _nodes(node: ast.AST) -> Iterator[ast.AST]:
    """Every node under ``node`` except those inside ``if TYPE_CHECKING:`` blocks."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for other in child.orelse:
                yield other
                yield from _nodes(other)
            continue
        yield child
        yield from _nodes(child)


def _call_name(node: ast.Call) -> str:
    function = node.func
    return function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")


def imports_by_name(source: str, modules: set[str]) -> list[tuple[str, int]]:
    """``(imported module, line)`` for every string of ``source`` that names one of ``modules`` (rules above)."""
    tree = ast.parse(source)
    skipped = _docstrings(tree)
    roots = {module for module in modules if "." not in module}
    called = {id(node.args[0]) for node in _nodes(tree) if isinstance(node, ast.Call) and node.args
              and _call_name(node) in IMPORT_CALLS}
    found = []
    for node in _nodes(tree):
        if not isinstance(node, ast.Constant) or not isinstance(node.value, str) or id(node) in skipped:
            continue
        name = node.value.partition(":")[0] if ":" in node.value else node.value
        if name in modules and ("." in name or (name in roots and id(node) in called)):
            found.append((name, node.lineno))
    return found


def module_files() -> dict[str, Path]:
    """Dotted name -> file of every module of our packages."""
    files = {}
    for folder in SOURCE_FOLDERS:
        for path in Path(folder).rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            files[".".join(parts)] = path
    return files


def dynamic_imports(modules: set[str]) -> list[tuple[str, str, int, str]]:
    """``(importer, imported, line, line text)`` for every import by name in our packages."""
    edges = []
    for importer, path in sorted(module_files().items()):
        if importer not in modules:
            continue
        source = path.read_text()
        lines = source.splitlines()
        for imported, line in imports_by_name(source, modules):
            if imported != importer:
                edges.append((importer, imported, line, lines[line - 1].strip()))
    return edges


def self_test() -> None:
    """The rules above on a planted module; raises AssertionError when one of them does not hold."""
    modules = {"pkg", "pkg.a", "pkg.b", "other", "other.c"}
    source = '''"""pkg.a is documented here"""
import importlib
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    TABLE = {"x": "other.c"}
LAZY = {"Thing": "pkg.b"}
TARGET = "other.c:attribute"
logger_name = "other"
importlib.import_module("other")
message = "see pkg.b for more"
'''
    found = imports_by_name(source, modules)
    assert found == [("pkg.b", 6), ("other.c", 7), ("other", 9)], found


def main(argv: list[str]) -> int:
    self_test()
    sys.path[:0] = SOURCE_FOLDERS
    from importlinter import configuration
    from importlinter.adapters.building import GraphBuilder
    from importlinter.application.app_config import settings
    from importlinter.cli import lint_imports

    show = "--show-dynamic" in argv

    class WithImportsByName(GraphBuilder):
        """import-linter's graph plus the imports by name."""

        def build(self, root_package_names, cache_dir, include_external_packages=False,
                  exclude_type_checking_imports=False):
            graph = super().build(root_package_names, cache_dir, include_external_packages,
                                  exclude_type_checking_imports)
            edges = dynamic_imports(graph.modules)
            for importer, imported, line, text in edges:
                graph.add_import(importer=importer, imported=imported, line_number=line, line_contents=text)
                if show:
                    print(f"{importer} -> {imported} (l.{line})")
            print(f"imports by name added to the graph: {len(edges)}")
            return graph

    configuration.configure()
    settings.configure(GRAPH_BUILDER=WithImportsByName())
    return lint_imports(config_filename=str(ROOT / ".importlinter"), no_cache=True, no_logo=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
