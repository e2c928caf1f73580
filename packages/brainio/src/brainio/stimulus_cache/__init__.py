"""Stimulus caching, in one room: where a stimulus set's files live once extracted, the marker that says they were
verified, and the per-image content digests of a set as one table.

* :mod:`.extraction` -- an archive extracted once into ``$BRAINIO_HOME/<zip sha1>/<stem>/``, kept intact; its
  manifest (``<folder>.members.json``) is the verified-extraction marker and records each member's SHA-1.
* :mod:`.digests` -- :class:`ExtractedPaths` (a loaded set's ``stimulus_paths`` with those SHA-1s),
  :func:`content_digests` (all of a set's digests in one call) and :func:`stimulus_files`.

Users of the room: :func:`brainio.fetch.load_stimulus_set` (extracts, attaches the digests), brainscore_vision's
screen placement (derives placed-image digests from the source digests in one pass) and model-tools' activations
cache (builds its key from the digest array).
"""

from .digests import ExtractedPaths, content_digests, stimulus_files
from .extraction import extract_zip, manifest_path, member_sha1s

__all__ = ["ExtractedPaths", "content_digests", "extract_zip", "manifest_path", "member_sha1s", "stimulus_files"]
