"""model-tools' settings, read in one place (as every package reads its own: ``brainscore_core.config`` says the rule).

One answer per question: an option set with ``brainscore_core.set_options`` (where there is one), else the environment
variable, else the default. Flags follow core's one rule (:func:`brainscore_core.config.env_flag`). What is read here
is published for ``brainscore config`` (:mod:`model_tools.publications`) and listed in the README, section *Settings*.
No other module of model-tools reads the environment (brainscore-core's ``tests/test_config.py`` greps for it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from brainio.settings import FALSE_WORDS
from brainscore_core.config import env_flag, env_text, option

__all__ = ["CACHE_NOTICE_ENV", "DEFAULT_CACHE_NOTICE_GB", "MALLOC_SETTINGS", "REUSE_MEMORY_ENV",
           "activation_cache_notice_bytes", "malloc_tuned_by_user", "reuse_memory_enabled", "torch_hub_dir"]

CACHE_NOTICE_ENV = "BRAINSCORE_CACHE_NOTICE_GB"
REUSE_MEMORY_ENV = "MODEL_TOOLS_REUSE_MEMORY"
MALLOC_SETTINGS = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_", "MALLOC_TOP_PAD_")
"""glibc's own malloc variables: when the user sets one (or ``GLIBC_TUNABLES`` naming malloc), model-tools leaves
malloc alone."""

DEFAULT_CACHE_NOTICE_GB = 5.0
"""The activation cache size (GB, 1024**3 bytes) above which a one-line notice says so, unless configured."""


def activation_cache_notice_bytes() -> int | None:
    """Bytes of activation cache above which model-tools prints a one-line notice (once per process), or None for
    never: the option ``cache_notice_gb``, else ``$BRAINSCORE_CACHE_NOTICE_GB`` (a number of GB; ``0`` or a false
    word turns the notice off), else :data:`DEFAULT_CACHE_NOTICE_GB`. A value that is not a number is the default."""
    value: Any = option("cache_notice_gb")
    if value is None:
        value = (env_text(CACHE_NOTICE_ENV) or "").lower() or DEFAULT_CACHE_NOTICE_GB
    if value is False or (isinstance(value, str) and value in FALSE_WORDS):
        return None
    try:
        gigabytes = float(value)
    except (TypeError, ValueError):
        gigabytes = DEFAULT_CACHE_NOTICE_GB
    return int(gigabytes * 1024**3) if gigabytes > 0 else None


def malloc_tuned_by_user() -> bool:
    """Whether the user tuned glibc's malloc through the environment (one of :data:`MALLOC_SETTINGS` set, or
    ``GLIBC_TUNABLES`` naming malloc)."""
    return any(env_text(name) is not None for name in MALLOC_SETTINGS) or "malloc" in (env_text("GLIBC_TUNABLES") or "")


def reuse_memory_enabled() -> bool:
    """``$MODEL_TOOLS_REUSE_MEMORY`` as a flag (default True): whether model-tools keeps freed memory for the next
    batch."""
    return env_flag(REUSE_MEMORY_ENV, default=True)


def torch_hub_dir() -> Path:
    """torch hub's folder: ``$TORCH_HOME/hub``, else ``$XDG_CACHE_HOME/torch/hub``, else ``~/.cache/torch/hub``
    (torch's own rule; read here so that torch need not be imported to find a weight file)."""
    base = env_text("TORCH_HOME") or str(Path(env_text("XDG_CACHE_HOME") or "~/.cache") / "torch")
    return Path(base).expanduser() / "hub"
