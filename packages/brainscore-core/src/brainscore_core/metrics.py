"""``Score``, and the two callables every similarity measure is: ``Metric`` and ``Ceiling``.

``brainscore_core.metrics.Score`` is the import path of the Brain-Score tutorials.
"""

from __future__ import annotations

import functools
import inspect
from abc import ABC, abstractmethod
from typing import Any

from brainio.assemblies import DataAssembly
from brainscore_core.score import Score

__all__ = ["Ceiling", "Metric", "Score", "SplitMetric"]


def _get_params(obj: Any) -> dict[str, Any]:
    """scikit-learn's ``get_params``: the constructor's parameters, read from the attributes of the same names
    (``_name`` is accepted too, as Brain-Score's classes store them); parameters stored under no such name are
    left out."""
    params: dict[str, Any] = {}
    for name, parameter in inspect.signature(type(obj).__init__).parameters.items():
        if name == "self" or parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        for attribute in (name, f"_{name}"):
            if attribute in vars(obj):
                params[name] = vars(obj)[attribute]
                break
    return params


class Metric(ABC):
    """Similarity of two assemblies: ``metric(assembly1, assembly2) -> Score``.

    By convention ``assembly1`` is the model's (source) and ``assembly2`` the brain's (target). The
    returned Score is 0-d (a single value) with ``attrs['error']`` and ``attrs['raw']`` (per-split or
    per-neuroid values) where the metric defines them. Parameters go to the constructor; the call does
    the work.

    Whatever a subclass names the two parameters of its ``__call__`` (``source``, ``target``, ...), it is also
    callable as ``metric(assembly1=..., assembly2=...)``, the reference's keyword names.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        call = cls.__dict__.get("__call__")
        if call is None or getattr(call, "__isabstractmethod__", False) or hasattr(call, "_reference_keywords"):
            return
        parameters = [p for p in inspect.signature(call).parameters.values()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)][1:3]
        names = tuple(p.name for p in parameters)
        if len(names) != 2 or names == ("assembly1", "assembly2"):
            return

        @functools.wraps(call)
        def accepting_reference_keywords(self, *args: Any, **kwargs: Any):
            for alias, name in zip(("assembly1", "assembly2"), names):
                if alias in kwargs and name not in kwargs:
                    kwargs[name] = kwargs.pop(alias)
            return call(self, *args, **kwargs)

        accepting_reference_keywords._reference_keywords = names  # type: ignore[attr-defined]
        cls.__call__ = accepting_reference_keywords  # type: ignore[method-assign]

    @abstractmethod
    def __call__(self, assembly1: DataAssembly, assembly2: DataAssembly) -> Score:
        """Compare ``assembly1`` (source, e.g. model) to ``assembly2`` (target, e.g. neural data)."""

    def get_params(self) -> dict[str, Any]:
        """The constructor's parameters and their values (scikit-learn style), e.g. for cache keys."""
        return _get_params(self)


class SplitMetric(Metric):
    """A metric on a fixed train/test split: ``metric(source_train, source_test, target_train,
    target_test) -> Score`` (fit on the train pair, evaluate on the test pair)."""

    @abstractmethod
    def __call__(self, source_train: DataAssembly, source_test: DataAssembly,  # type: ignore[override]
                 target_train: DataAssembly, target_test: DataAssembly) -> Score:
        """Fit on ``(source_train, target_train)`` and score on ``(source_test, target_test)``."""


class Ceiling(ABC):
    """How well data predicts itself: ``ceiling(assembly) -> Score`` (e.g. split-half consistency)."""

    @abstractmethod
    def __call__(self, assembly: DataAssembly) -> Score:
        """The ceiling of ``assembly`` (typically with repetitions kept, not averaged)."""

    def get_params(self) -> dict[str, Any]:
        """The constructor's parameters and their values (scikit-learn style), e.g. for cache keys."""
        return _get_params(self)
