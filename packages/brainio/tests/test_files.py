"""brainio.files: the remembered SHA-1 of a file is served from memory only while the file is unchanged."""

import hashlib
import os

from brainio import files


def test_sha1_is_remembered_only_while_the_file_is_unchanged(tmp_path, monkeypatch):
    path = tmp_path / "stimulus.bin"
    path.write_bytes(b"a" * 100)
    reads = []
    real = files.sha1_hash
    monkeypatch.setattr(files, "sha1_hash", lambda name: reads.append(name) or real(name))
    # a file written just now is never remembered: it could change again within one timestamp tick
    first = files.remembered_sha1_hash(path)
    assert files.remembered_sha1_hash(path) == first and len(reads) == 2
    monkeypatch.setattr(files, "_SETTLED_NS", -1)  # every file counts as settled
    files.remembered_sha1_hash(path)
    assert files.remembered_sha1_hash(path) == first and len(reads) == 3  # remembered
    path.write_bytes(b"b" * 100)  # same size, new content
    status = path.stat()
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns + 5_000_000_000))  # a distinct mtime for sure
    changed = files.remembered_sha1_hash(path)
    # independent digest: hashlib over the new bytes
    assert changed == hashlib.sha1(b"b" * 100).hexdigest() != first and len(reads) == 4
