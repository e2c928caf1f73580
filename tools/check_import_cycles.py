"""Fail when the files of one package import each other in a circle, at module level or inside functions.

Usage: ``python tools/check_import_cycles.py [packages/<dist>/src/<package> ...]`` (default: every package under
``packages/*/src``). Run by the ``lint`` nox session; needs only the standard library.

For each file, every ``import`` / ``from ... import`` statement gives an edge to the module it names inside the
same package: at module level (including inside ``try``, ``with`` and plain ``if`` blocks) and inside functions and
classes alike, but not inside ``if TYPE_CHECKING:`` (never run). ``from a.b import c`` points to ``a/b/c.py`` when
that file exists, else to ``a/b`` (its ``__init__.py``). A strongly connected component of more than one file is a
circle: at module level the order in which Python happens to import them decides which one sees the other
half-initialised; through a function-level import the two files still depend on each other (a "two-way tie"), which
an import inside a function only hides. ``importlib.import_module("...")`` with a string (how a lazy package
``__init__`` resolves its names on first use) is not an edge.

An import of the package itself or of one of its parent packages from a submodule (``from brainio import X`` inside
``brainio/cache.py``) points to that package's ``__init__.py``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def module_files(package_dir: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file of the package rooted at ``package_dir``."""
    modules = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = list(path.relative_to(package_dir.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(node: ast.AST):
    """Every import statement under ``node``, at any depth (functions and classes included), except inside
    ``if TYPE_CHECKING:`` blocks."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for other in child.orelse:
                yield from _imports_of_statement(other)
        else:
            yield from _imports(child)


def _imports_of_statement(node: ast.stmt):
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node
    else:
        yield from _imports(node)


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Modules of the same package that module ``name`` (file ``path``) imports, anywhere in the file."""
    is_package = path.name == "__init__.py"
    targets = set()
    for node in _imports(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = name.split(".")
                anchor = anchor if is_package else anchor[:-1]
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            candidates = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                          for alias in node.names]
        targets.update(candidate for candidate in candidates if candidate in modules and candidate != name)
    return targets


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def self_test() -> None:
    """The check finds a planted circle (a -> b -> a, through a relative import) and one made by a function-level
    import (c -> d -> c), and ignores TYPE_CHECKING imports (e -> f -> e) and ``importlib.import_module`` strings
    (g -> h -> g); raises AssertionError otherwise."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        package = Path(folder) / "planted"
        (package / "sub").mkdir(parents=True)
        (package / "__init__.py").write_text("")
        (package / "sub" / "__init__.py").write_text("from .b import thing\n")
        (package / "a.py").write_text("from planted.sub import thing\n")
        (package / "sub" / "b.py").write_text("try:\n    from .. import a\nexcept ImportError:\n    pass\nthing = 1\n")
        (package / "c.py").write_text("def f():\n    from planted import d\n")
        (package / "d.py").write_text("import planted.c\n")
        (package / "e.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from planted import f\n")
        (package / "f.py").write_text("import planted.e\n")
        (package / "g.py").write_text("import importlib\ndef f():\n    return importlib.import_module('planted.h')\n")
        (package / "h.py").write_text("class K:\n    def m(self):\n        from planted import g\n")
        modules = module_files(package)
        found = circles({name: imports_of(name, path, modules) for name, path in modules.items()})
    assert sorted(found) == [["planted.a", "planted.sub", "planted.sub.b"], ["planted.c", "planted.d"]], found


def main(argv: list[str]) -> int:
    self_test()
    package_dirs = [Path(arg) for arg in argv] or sorted(
        path for path in ROOT.glob("packages/*/src/*") if (path / "__init__.py").exists())
    failed = False
    for package_dir in package_dirs:
        modules = module_files(package_dir)
        graph = {name: imports_of(name, path, modules) for name, path in modules.items()}
        found = circles(graph)
        for component in found:
            failed = True
            edges = [f"{a} -> {b}" for a in component for b in sorted(graph[a]) if b in component]
            print(f"import circle in {package_dir.name}: {', '.join(component)}\n    " + "\n    ".join(edges))
        print(f"{package_dir.name}: {len(modules)} modules, {sum(map(len, graph.values()))} imports between them "
              f"(module and function level), {len(found)} circles")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
