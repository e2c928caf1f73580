"""Fail when the files of one package import each other in a circle at module level.

Usage: ``python tools/check_import_cycles.py [packages/<dist>/src/<package> ...]`` (default: every package under
``packages/*/src``). Run by the ``lint`` nox session; needs only the standard library.

For each file, every ``import`` / ``from ... import`` executed when the module is imported (module level,
including inside ``try`` and plain ``if`` blocks, but not inside functions, classes or ``if TYPE_CHECKING:``)
gives an edge to the module it names inside the same package: ``from a.b import c`` points to ``a/b/c.py`` when
that file exists, else to ``a/b`` (its ``__init__.py``). A strongly connected component of more than one file is a
circle: the order in which Python happens to import them decides which one sees the other half-initialised.
Imports inside functions, the usual way to break such a circle, are not edges.
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


def _module_level_imports(body: list[ast.stmt]):
    """Import statements run at import time (descends into try/if/with, not into defs or TYPE_CHECKING)."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                yield from _module_level_imports(node.body)
            yield from _module_level_imports(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody, *[handler.body for handler in node.handlers]):
                yield from _module_level_imports(block)
        elif isinstance(node, ast.With):
            yield from _module_level_imports(node.body)


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Modules of the same package that module ``name`` (file ``path``) imports at module level."""
    is_package = path.name == "__init__.py"
    targets = set()
    for node in _module_level_imports(ast.parse(path.read_text(), filename=str(path)).body):
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
    """The check finds a planted circle (a -> b -> a, through a relative import) and ignores function-level
    and TYPE_CHECKING imports; raises AssertionError otherwise."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        package = Path(folder) / "planted"
        (package / "sub").mkdir(parents=True)
        (package / "__init__.py").write_text("")
        (package / "sub" / "__init__.py").write_text("from .b import thing\n")
        (package / "a.py").write_text("from planted.sub import thing\n")
        (package / "sub" / "b.py").write_text("try:\n    from .. import a\nexcept ImportError:\n    pass\nthing = 1\n")
        (package / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from planted import d\n"
                                       "def f():\n    from planted import d\n")
        (package / "d.py").write_text("import planted.c\n")
        modules = module_files(package)
        found = circles({name: imports_of(name, path, modules) for name, path in modules.items()})
    assert found == [["planted.a", "planted.sub", "planted.sub.b"]], found


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
        print(f"{package_dir.name}: {len(modules)} modules, {sum(map(len, graph.values()))} module-level imports, "
              f"{len(found)} circles")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
