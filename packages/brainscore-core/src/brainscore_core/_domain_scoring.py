"""``score`` and ``score_many`` bound to a domain, for a domain package's namespace (:meth:`Domain.exports`).

Light on purpose: binding imports neither the scoring path nor the grid (nor SQLAlchemy, xarray, pandas); a call
imports :mod:`brainscore_core.scoring` or :mod:`brainscore_core.grid` and passes the domain, whose loaders they use.
The domain itself does not score.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["bind_scoring"]


def bind_scoring(domain: Any) -> dict[str, Callable[..., Any]]:
    """``{'score': ..., 'score_many': ...}`` calling :func:`brainscore_core.scoring.score` and
    :func:`brainscore_core.grid.score_many` with ``domain``."""

    def score(model_identifier: str, benchmark_identifier: str, conda_active: bool = False, *,
              store: Any = True) -> Any:
        """Score a model on a benchmark of this domain and store the row (:func:`brainscore_core.scoring.score`)."""
        from brainscore_core.scoring import score as score_through

        return score_through(domain, model_identifier, benchmark_identifier, conda_active, store=store)

    def score_many(models: Any, benchmarks: Any, client: Any = None, **kwargs: Any) -> Any:
        """Every model on every benchmark of this domain (:func:`brainscore_core.grid.score_many`)."""
        from brainscore_core.grid import score_many as grid

        return grid(models, benchmarks, client, domain=domain, **kwargs)

    return {"score": score, "score_many": score_many}
