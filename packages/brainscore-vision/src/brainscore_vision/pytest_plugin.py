"""pytest plugin (entry point ``pytest11``): the test markers Brain-Score's tutorials put on plugin tests.

Installed with brainscore-vision, so a plugin author's ``pytest`` knows ``private_access``, ``memory_intense``,
``slow``, ``requires_gpu``, ``travis_slow`` and ``integration`` without warnings (and passes ``--strict-markers``).
Deselect them as usual, e.g. ``pytest -m "not private_access and not requires_gpu"``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["MARKERS", "pytest_configure"]

MARKERS = {
    "private_access": "needs a private resource (e.g. an assembly on Brain-Score's non-public S3 storage)",
    "memory_intense": "needs a lot of memory",
    "slow": "runs slowly",
    "requires_gpu": "needs a GPU to run, or to run in reasonable time",
    "travis_slow": "runs for a long time without output (Brain-Score's legacy CI marker)",
    "integration": "an integration test with real components",
}


def pytest_configure(config: Any) -> None:
    """Register :data:`MARKERS` with pytest."""
    for name, description in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {description}")
