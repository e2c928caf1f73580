"""The weight files a Brain-Score plugin fetches, read from its syntax tree (issue 42: ``--dry-run`` said "score" for
plugins whose weights were missing). Expected paths: ``$BRAINSCORE_HOME/<folder_name>/<relative_path>``, as
``load_weight_file`` puts them (``test_s3_files``)."""

from __future__ import annotations

import textwrap

from brainscore_core.plugin_weights import plugin_weight_files

SOURCE = """
    from brainscore_core.supported_data_standards.brainio import s3
    from brainscore_core.supported_data_standards.brainio.s3 import load_file, load_weight_file

    def keywords():
        return load_weight_file(bucket="bucket-a", folder_name="brainscore-vision/models",
                                relative_path="grcnn/checkpoint.pt", version_id="null", sha1=SHA1_A)

    def positional():
        return s3.load_weight_file("bucket-b", "net/w.pth", "v1", "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd", "custom/")

    def brain_score_load_file():   # no sha1 in load_file's signature: folder_name is its fourth argument
        return load_file("bucket-c", "compact.pt", "v2", "user_718/")

    def computed(name):
        return load_weight_file(bucket="bucket-d", relative_path=name, version_id=None, sha1=None)
"""


def test_literal_weight_calls_are_read_and_computed_ones_left_out(tmp_path, monkeypatch):
    monkeypatch.delenv("BRAINSCORE_S3_WEIGHT_FOLDER", raising=False)
    (tmp_path / "plugin").mkdir()
    (tmp_path / "plugin" / "model.py").write_text(textwrap.dedent(SOURCE))
    (tmp_path / "plugin" / "broken.py").write_text("def (:\n")  # does not parse: skipped
    found = plugin_weight_files(tmp_path / "plugin")
    assert [(w.bucket, w.folder_name, w.relative_path, w.sha1) for w in found] == [
        ("bucket-a", "brainscore-vision/models", "grcnn/checkpoint.pt", None),  # sha1: a name, not a literal
        ("bucket-b", "custom/", "net/w.pth", "cd" * 20),
        ("bucket-c", "user_718/", "compact.pt", None)]
    from brainscore_core.config import brainscore_home

    home = brainscore_home().resolve()
    assert [w.path for w in found] == [home / "brainscore-vision/models/grcnn/checkpoint.pt", home / "custom/net/w.pth",
                                       home / "user_718/compact.pt"]
    assert found[0].describe() == "s3://bucket-a/brainscore-vision/models/grcnn/checkpoint.pt"
    assert not found[0].present
    found[0].path.parent.mkdir(parents=True)
    found[0].path.write_bytes(b"w")
    assert found[0].present
