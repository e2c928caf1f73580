"""What brainio writes to disk and what it reads from the environment, published for ``brainscore cache`` and
``brainscore config`` (entry-point groups ``brainscore_caches`` and ``brainscore_settings``, read by
``brainscore_core.package_hooks``).

brainio sits below brainscore-core and cannot import its classes, so it publishes plain mappings with the same fields
(``CacheKind``: ``kind``, ``roots``, ``entries``, ``pruned_by_default``, ``description``; ``Setting``: ``name``,
``variables``, ``default``, ``description``, ``value``).
"""

from __future__ import annotations

__all__ = ["published_caches", "published_settings"]


def published_caches() -> list[dict]:
    """brainio's verified file cache (``$BRAINIO_HOME``): one entry per fetched file's folder; fetched again over the
    network, so pruned only when named."""
    from ._home import cache_home

    return [{"kind": "data", "roots": lambda: [cache_home()], "entries": "folders", "pruned_by_default": False,
             "description": "brainio's verified copy of one fetched file ($BRAINIO_HOME/<sha1>/)"}]


def _endpoint() -> str | None:
    from .stores.s3 import endpoint_setting

    return endpoint_setting()


def published_settings() -> list[dict]:
    """The variables brainio reads (in ``_home.py`` and ``stores/s3.py``)."""
    from . import _home

    return [
        {"name": "brainio_home", "variables": ("BRAINIO_HOME",), "default": "~/.brainio",
         "description": "brainio's verified file cache", "value": _home.cache_home},
        {"name": "archive_max_gb", "variables": ("BRAINIO_ARCHIVE_MAX_GB",), "default": f"{_home.DEFAULT_ARCHIVE_MAX_GB:g}",
         "description": "most GiB one ZIP archive may expand to (inf: no limit)",
         "value": lambda: _home.archive_max_bytes() / 1024**3},
        {"name": "archive_max_ratio", "variables": ("BRAINIO_ARCHIVE_MAX_RATIO",),
         "default": f"{_home.DEFAULT_ARCHIVE_MAX_RATIO:g}",
         "description": "most an archive, or a member of 1 MiB or more, may expand relative to its compressed size",
         "value": _home.archive_max_ratio},
        {"name": "require_data", "variables": (_home.REQUIRE_DATA_ENV,), "default": "off",
         "description": "tests: a skip of a kind CI provides (data, extra, service) or not through brainio.skipping "
                        "fails (a flag)", "value": _home.data_required},
        {"name": "s3_endpoint", "variables": ("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"), "default": "AWS",
         "description": "the S3 endpoint of S3Store (boto3's own variables)", "value": _endpoint},
    ]
