"""Stimulus caching, in one room: where a stimulus set's files live once extracted, the marker that says they were
verified, and the per-image content digests of a set as one table.

* :mod:`.extraction` -- an archive extracted once into ``$BRAINIO_HOME/<zip sha1>/<stem>/``, kept intact; its
  manifest (``<folder>.members.json``) is the verified-extraction marker and records each member's SHA-1.
* :mod:`.digests` -- :class:`ExtractedPaths` (a loaded set's ``stimulus_paths`` with those SHA-1s),
  :func:`content_digests` (all of a set's digests in one call) and :func:`stimulus_files`.

Users of the room: :func:`brainio.fetch.load_stimulus_set` (extracts, attaches the digests), brainscore_vision's
screen placement (derives placed-image digests from the source digests in one pass) and model-tools' activations
cache (builds its key from the digest array).

Names are resolved on first use (PEP 562): importing the extraction alone (``brainio.cache`` does) imports no pandas.
"""

from __future__ import annotations

from brainio.lazy import lazy_names

_LAZY = {
    "ExtractedPaths": "brainio.stimulus_cache.digests",
    "content_digests": "brainio.stimulus_cache.digests",
    "stimulus_files": "brainio.stimulus_cache.digests",
    "extract_zip": "brainio.stimulus_cache.extraction",
    "manifest_path": "brainio.stimulus_cache.extraction",
    "member_sha1s": "brainio.stimulus_cache.extraction",
}

__all__ = list(_LAZY)

__getattr__, __dir__ = lazy_names(globals(), _LAZY, submodules=True)
