"""A static check for module-global mutable state (issue 44, part 3): what :func:`module_state_problems` reports in a
module's source.

Reported, each with its line:

* ``global`` statements (a function that rebinds a module name);
* memoising decorators (``functools.cache``, ``lru_cache``, ``cached``): a memory of earlier calls;
* a module- or class-level name bound to a mutable container (a dict, list or set display or comprehension, or a
  call of ``dict``, ``list``, ``set``, ``defaultdict``, ``OrderedDict``, ``Counter``, ``deque``, the weak
  dictionaries, ``threading.local``, ``dict.fromkeys``), also nested inside another value, unless it is the
  argument of a freezing call (``frozen``, which freezes deeply; ``MappingProxyType``, ``frozenset``, ``tuple``,
  which freeze their own level). ``__all__`` is exempt;
* a module-level name that a function mutates in place (item or attribute assignment or deletion, augmented
  assignment, a mutating method such as ``append``/``update``/``setdefault``, ``setattr``), unless the function
  binds that name itself;
* a ``ContextVar`` whose ``set`` is not undone by a ``reset`` in the same function (a context-local value that
  outlives the block that chose it);
* a clock read at module level (``time.time()``, ``monotonic``, ``perf_counter``, ``datetime.now``): a time stamp
  kept for the life of the process.
"""

from __future__ import annotations

import ast

__all__ = ["module_state_problems"]

_MUTABLE_CALLS = frozenset({"dict", "list", "set", "defaultdict", "OrderedDict", "Counter", "deque",
                            "WeakValueDictionary", "WeakKeyDictionary", "WeakSet", "local", "fromkeys", "bytearray"})
_FREEZING_CALLS = frozenset({"MappingProxyType", "frozenset", "tuple"})
_DEEP_FREEZING_CALLS = frozenset({"frozen"})
_MUTATING_METHODS = frozenset({"append", "extend", "insert", "update", "setdefault", "pop", "popitem", "clear", "add",
                               "discard", "remove", "appendleft", "extendleft", "sort", "reverse", "__setitem__",
                               "__delitem__"})
_CACHE_DECORATORS = frozenset({"cache", "lru_cache", "cached"})
_CLOCK_CALLS = frozenset({"time", "monotonic", "perf_counter", "time_ns", "monotonic_ns", "now", "utcnow"})
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _call_name(node: ast.AST) -> str | None:
    if not isinstance(node, ast.Call):
        return None
    function = node.func
    return function.id if isinstance(function, ast.Name) else getattr(function, "attr", None)


def _unfrozen_containers(value: ast.AST) -> list[ast.AST]:
    """The mutable containers inside ``value`` that no freezing call wraps."""
    if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return [value]
    name = _call_name(value)
    if name in _DEEP_FREEZING_CALLS:
        return []
    if name in _MUTABLE_CALLS:
        return [value]
    found = []
    if name in _FREEZING_CALLS:  # its own level is frozen: look only inside the displays it freezes
        for argument in value.args:
            children = (argument.keys + argument.values if isinstance(argument, ast.Dict)
                        else argument.elts if isinstance(argument, (ast.List, ast.Set, ast.Tuple)) else [argument])
            for child in children:
                if child is not None:
                    found += _unfrozen_containers(child)
        return found
    if isinstance(value, _FUNCTIONS):
        return []
    if isinstance(value, ast.GeneratorExp):  # consumed where it is made: only what it yields can be kept
        return _unfrozen_containers(value.elt)
    for child in ast.iter_child_nodes(value):
        found += _unfrozen_containers(child)
    return found


def _bound_names(statement: ast.stmt) -> list[str]:
    targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
    names = []
    for target in targets:
        for node in ast.walk(target):
            if isinstance(node, ast.Name):
                names.append(node.id)
    return names


def _module_names(tree: ast.Module) -> set[str]:
    """Names bound by assignments at module level (not functions, classes or imports)."""
    names = set()
    for statement in tree.body:
        if isinstance(statement, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            names.update(_bound_names(statement))
    return names


def _local_names(function: ast.AST) -> set[str]:
    """Names a function binds itself (parameters, assignments, loop and with targets, imports)."""
    names = set()
    arguments = function.args
    for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]:
        if argument is not None:
            names.add(argument.arg)
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return names


def _root_name(node: ast.AST) -> str | None:
    """``x`` of ``x``, ``x[...]``, ``x.a``, ``x.a[...]``."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _mutations(function: ast.AST) -> list[tuple[str, int]]:
    """(name, line) of every in-place change a function makes to a name it reads from outside."""
    found = []
    for node in ast.walk(function):
        targets = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = [target for target in node.targets if isinstance(target, (ast.Subscript, ast.Attribute))]
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Call):
            function_node = node.func
            if isinstance(function_node, ast.Attribute) and function_node.attr in _MUTATING_METHODS:
                targets = [function_node.value]
            elif isinstance(function_node, ast.Name) and function_node.id in ("setattr", "delattr") and node.args:
                targets = [node.args[0]]
        for target in targets:
            name = _root_name(target)
            if name is not None:
                found.append((name, node.lineno))
    return found


def _context_variables(tree: ast.Module) -> set[str]:
    return {name for statement in tree.body if isinstance(statement, (ast.Assign, ast.AnnAssign))
            and _call_name(statement.value) == "ContextVar" for name in _bound_names(statement)}


def module_state_problems(source: str, where: str = "<source>") -> list[str]:
    """What in ``source`` is module-global mutable state (the module docstring's rules), one line each."""
    tree = ast.parse(source)
    problems = []
    module_names, context_variables = _module_names(tree), _context_variables(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            problems.append(f"{where}:{node.lineno}: global {', '.join(node.names)}")
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                name = _call_name(decorator) or (decorator.id if isinstance(decorator, ast.Name)
                                                 else getattr(decorator, "attr", None))
                if name in _CACHE_DECORATORS:
                    problems.append(f"{where}:{node.lineno}: @{name} on {node.name}")
    scopes = [tree.body] + [node.body for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    for body in scopes:
        for statement in body:
            if not isinstance(statement, (ast.Assign, ast.AnnAssign)) or statement.value is None:
                continue
            names = [name for name in _bound_names(statement) if name != "__all__"]
            if names and _unfrozen_containers(statement.value):
                problems.append(f"{where}:{statement.lineno}: {', '.join(names)} is a mutable container at module or "
                                "class level (freeze it: brainscore_metrics._frozen.frozen)")
    for statement in tree.body:  # clocks read when the module is imported
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for node in ast.walk(statement):
            if _call_name(node) in _CLOCK_CALLS and isinstance(node.func, ast.Attribute):
                problems.append(f"{where}:{node.lineno}: a clock read at module level (a time stamp kept)")
    for function in (node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))):
        local = _local_names(function)
        for name, line in _mutations(function):
            if name in module_names and name not in local:
                problems.append(f"{where}:{line}: {function.name} changes the module-level {name}")
        calls = [(node.func.value.id, node.func.attr) for node in ast.walk(function) if isinstance(node, ast.Call)
                 and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name)
                 and node.func.value.id in context_variables]
        for name in sorted({name for name, method in calls if method == "set"}
                           - {name for name, method in calls if method == "reset"}):
            problems.append(f"{where}:{function.lineno}: {function.name} sets the context variable {name} without "
                            "resetting it")
    return problems
