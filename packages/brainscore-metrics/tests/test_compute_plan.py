"""One compute plan per call (issue 44, part 3): no module-global mutable state in brainscore-metrics, one number per
input whatever the worker threads, one float32-to-float64 retry, and ``fit`` / ``cross_predict`` under the same
precision.

Expected values: the same call on one worker thread (bits), scikit-learn (values), and hand-written sources that
break each rule of the state checker (so that it is seen to fail).
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
from _representational import activations

import brainscore_metrics
import brainscore_metrics.backend._numpy_tiles as tiles
from brainscore_metrics import arrays
from brainscore_metrics.backend import ComputePlan, get_backend, use_threads
from brainscore_metrics.backend.plan import with_float64_retry

SOURCE = Path(brainscore_metrics.__file__).parent

#: containers whose construction at module or class level makes a name mutable state when something mutates it
_MUTABLE_CALLS = {"dict", "list", "set", "defaultdict", "OrderedDict", "Counter", "deque", "WeakValueDictionary",
                  "WeakKeyDictionary"}
_MUTATING_METHODS = {"append", "extend", "insert", "update", "setdefault", "pop", "popitem", "clear", "add", "discard",
                     "remove", "appendleft", "__setitem__"}
_CACHE_DECORATORS = {"cache", "lru_cache", "cached"}


def _is_mutable_container(value: ast.expr) -> bool:
    if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    if isinstance(value, ast.Call):
        function = value.func
        name = function.id if isinstance(function, ast.Name) else getattr(function, "attr", None)
        return name in _MUTABLE_CALLS
    return False


def _assigned_names(statement: ast.stmt) -> list[str]:
    targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
    return [target.id for target in targets if isinstance(target, ast.Name)]


def _mutated_names(tree: ast.AST) -> set[str]:
    """Names (bare, or as the last attribute of ``self.x`` / ``Class.x`` / ``module.x``) that are mutated in place."""
    def base(node: ast.expr) -> str | None:
        return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None

    mutated = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
            targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]
            for target in targets:
                if isinstance(target, ast.Subscript) and base(target.value):
                    mutated.add(base(target.value))
                if isinstance(node, ast.AugAssign) and isinstance(target, (ast.Name, ast.Attribute)):
                    mutated.add(base(target))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in _MUTATING_METHODS and base(node.func.value)):
            mutated.add(base(node.func.value))
    return mutated


def module_state_problems(source: str, where: str = "<source>") -> list[str]:
    """What in ``source`` is module-global (or class-level) mutable state: ``global`` statements, cache decorators,
    and module- or class-level containers that the module mutates."""
    tree = ast.parse(source)
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            problems.append(f"{where}:{node.lineno}: global {', '.join(node.names)}")
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                name = target.id if isinstance(target, ast.Name) else getattr(target, "attr", None)
                if name in _CACHE_DECORATORS:
                    problems.append(f"{where}:{node.lineno}: @{name} on {node.name}")
    containers = {}
    scopes = [tree.body] + [node.body for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    for body in scopes:
        for statement in body:
            if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None \
                    and _is_mutable_container(statement.value):
                for name in _assigned_names(statement):
                    containers[name] = statement.lineno
    for name in sorted(set(containers) & _mutated_names(tree)):
        problems.append(f"{where}:{containers[name]}: {name} is a module- or class-level container that is mutated")
    return problems


def test_brainscore_metrics_holds_no_module_global_mutable_state():
    problems = []
    for path in sorted(SOURCE.rglob("*.py")):
        problems += module_state_problems(path.read_text(), str(path.relative_to(SOURCE)))
    assert problems == []


@pytest.mark.parametrize("source, expected", [
    ("_choice = None\ndef remember(c):\n    global _choice\n    _choice = c\n", "global _choice"),
    ("import functools\n@functools.lru_cache\ndef f(x):\n    return x\n", "@lru_cache on f"),
    ("from functools import cache\n@cache\ndef f(x):\n    return x\n", "@cache on f"),
    ("_seen = {}\ndef f(key):\n    _seen[key] = 1\n", "_seen is a module- or class-level container"),
    ("_calls = []\ndef f():\n    _calls.append(1)\n", "_calls is a module- or class-level container"),
    ("class A:\n    memo = dict()\n    def f(self, k):\n        self.memo.setdefault(k, 0)\n",
     "memo is a module- or class-level container"),
])
def test_the_state_checker_reports_each_kind(source, expected):
    problems = module_state_problems(source)
    assert len(problems) == 1 and expected in problems[0]


def test_the_state_checker_lets_constants_and_local_state_pass():
    source = ("TABLE = {'a': 1}\nNAMES = ('x', 'y')\n"
              "def f(key):\n    seen = {}\n    seen[key] = TABLE[key]\n    return seen\n"
              "class B:\n    KINDS = frozenset({'a'})\n    def __init__(self):\n        self.items = []\n"
              "        self.items.append(1)\n")
    assert module_state_problems(source) == []


# ------------------------------------------------------------------------------------- one number per input
def _wide_float32(n: int = 300, p: int = 1300, q: int = 6, seed: int = 0):
    rng = np.random.default_rng(seed)
    latent = rng.normal(size=(n, 12))
    X = np.maximum(latent @ rng.normal(size=(12, p)) + rng.normal(size=(n, p)), 0).astype(np.float32)
    X[:, :100] = 0.0  # dead units
    Y = latent @ rng.normal(size=(12, q)) + rng.normal(size=(n, q))
    return X, Y


def _array_calls(X, Y):
    n = len(X)
    train, test = np.arange(0, n - 60), np.arange(n - 60, n)
    splits = [(np.setdiff1d(np.arange(n), fold), fold) for fold in np.array_split(np.random.default_rng(1).permutation(n), 5)]
    alphas = np.logspace(-1, 5, 7)
    return {
        "ridge_predict": lambda: arrays.ridge_predict(X[train], Y[train], X[test]),
        "ridgecv_loo": lambda: arrays.ridgecv_predict(X[train], Y[train], X[test], alphas=alphas)[0],
        "ridgecv_5fold_per_target": lambda: arrays.ridgecv_predict(X[train], Y[train], X[test], alphas=alphas, cv=5,
                                                                   alpha_per_target=True)[0],
        "ridge_fit_predict": lambda: arrays.RidgeRegression(1.0).fit(X[train], Y[train]).predict(X[test]),
        "linear_fit_predict": lambda: arrays.LinearRegression().fit(X[train], Y[train]).predict(X[test]),
        "pls_fit_predict": lambda: arrays.PLSRegression(5).fit(X[train], Y[train]).predict(X[test]),
        "ridge_cross_predict": lambda: np.concatenate(arrays.RidgeRegression(1.0).cross_predict(X, Y, splits)),
        "ridgecv_cross_predict": lambda: np.concatenate(arrays.RidgeCVRegression(alphas).cross_predict(X, Y, splits)),
        "linear_cross_predict": lambda: np.concatenate(arrays.LinearRegression().cross_predict(X, Y, splits)),
        "pls_cross_predict": lambda: np.concatenate(arrays.PLSRegression(5).cross_predict(X, Y, splits)),
        "rdm_correlation": lambda: arrays.compute_rdm(X),
        "rdm_euclidean": lambda: arrays.compute_rdm(X, "euclidean"),
        "rsa": lambda: arrays.rsa(X, Y),
        "cka": lambda: np.array([arrays.linear_cka(X, Y), arrays.linear_cka(X, Y, unbiased=False)]),
        "cka_narrow": lambda: np.array([arrays.linear_cka(X[:, 100:260], Y)]),
    }


def test_every_worker_count_gives_the_same_bits(monkeypatch):
    # tiles of 40 rows (8 at 300 stimuli) and Cholesky blocks of 64, so that 2 and 4 workers really split the work
    monkeypatch.setattr(tiles, "TILE_ROWS", 40)
    monkeypatch.setattr(tiles, "CHOLESKY_BLOCK", 64)
    X, Y = _wide_float32()
    results = {}
    for threads in (1, 2, 4):
        with use_threads(threads):
            results[threads] = {name: np.asarray(call()) for name, call in _array_calls(X, Y).items()}
    for name, expected in results[1].items():
        for threads in (2, 4):
            np.testing.assert_array_equal(results[threads][name], expected, err_msg=f"{name} on {threads} workers")


@pytest.mark.parametrize("metric", ["pls", "ridge", "linear_predictivity", "rdm", "cka", "dual_ridge_split"])
def test_every_worker_count_gives_the_same_score(monkeypatch, metric):
    from brainscore_metrics import plugin

    monkeypatch.setattr(tiles, "TILE_ROWS", 40)
    monkeypatch.setattr(tiles, "CHOLESKY_BLOCK", 48)
    X, Y = _wide_float32(n=200, p=900)
    ids = [f"s{index}" for index in range(200)]
    objects = np.repeat(np.arange(8), 25).astype(str)
    source, target = activations(X, ids, objects), activations(Y, ids, objects)
    load = plugin.make_factory(*plugin.METRICS[metric])
    scores = []
    for threads in (1, 3):
        with use_threads(threads):
            if metric == "dual_ridge_split":
                score = load()(source[:160], source[160:], target[:160], target[160:])
            else:
                score = load()(source, target)
        scores.append((float(score), np.asarray(score.attrs["raw"].values)))
    assert scores[0][0] == scores[1][0]
    np.testing.assert_array_equal(scores[0][1], scores[1][1])


# ------------------------------------------------------------------------------- the one retry, one precision
def test_the_float64_retry_runs_only_for_float32_products():
    numpy_backend = get_backend("numpy")
    seen = []

    def attempt(plan):
        seen.append(plan.precision)
        if plan.precision == "mixed":
            raise np.linalg.LinAlgError("indefinite")
        return "solved"

    X32 = np.zeros((3, 4), dtype=np.float32)
    assert with_float64_retry(ComputePlan(numpy_backend), X32, attempt, retry_on=(np.linalg.LinAlgError,)) == "solved"
    assert seen == ["mixed", "float64"]
    with pytest.raises(np.linalg.LinAlgError):  # a float64 source has nothing to retry
        with_float64_retry(ComputePlan(numpy_backend), X32.astype(np.float64), attempt,
                           retry_on=(np.linalg.LinAlgError,))
    with pytest.raises(np.linalg.LinAlgError):  # nor an error it was not asked to catch
        with_float64_retry(ComputePlan(numpy_backend), X32, attempt, retry_on=(KeyError,))


@pytest.mark.parametrize("precision", ["mixed", "float64"])
@pytest.mark.parametrize("regression", ["ridge", "ridgecv", "linear", "pls"])
def test_fit_and_cross_predict_take_the_same_products(monkeypatch, regression, precision):
    # a float32 wide source: both paths form their Gram matrices with the precision asked for, and fitting the
    # training rows then predicting equals cross_predict with that one split
    numpy_backend = get_backend("numpy")
    original = numpy_backend.stimulus_gram_blocks
    seen = []

    def spy(plan, X, blocks, center, float32):
        seen.append(float32)
        return original(plan, X, blocks, center, float32)

    monkeypatch.setattr(numpy_backend, "stimulus_gram_blocks", spy)
    X, Y = _wide_float32(n=120, p=700)
    make = {"ridge": lambda: arrays.RidgeRegression(2.0, precision=precision),
            "ridgecv": lambda: arrays.RidgeCVRegression((0.1, 10.0, 1e3), precision=precision),
            "linear": lambda: arrays.LinearRegression(precision=precision),
            "pls": lambda: arrays.PLSRegression(4, precision=precision)}[regression]
    train, test = np.arange(20, 120), np.arange(20)
    fitted = make().fit(X, Y, train).predict(X[test])
    from_fit, seen[:] = list(seen), []
    (crossed,) = make().cross_predict(X, Y, [(train, test)])
    assert from_fit and set(from_fit) == set(seen) == {precision == "mixed"}
    # float32 products of the two paths' Gram matrices (of 100 and of 120 rows) round differently, and least squares
    # squares their condition number (3e-4 measured): why its default precision is float64
    tolerance = 1e-3 if (regression, precision) == ("linear", "mixed") else 1e-6
    np.testing.assert_allclose(fitted, crossed, rtol=tolerance, atol=tolerance * np.abs(crossed).max())
