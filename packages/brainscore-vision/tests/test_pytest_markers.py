"""A plugin author's test file with the tutorials' markers runs under ``--strict-markers`` without warnings."""

import subprocess
import sys
import textwrap


def test_tutorial_markers_are_known(tmp_path):
    (tmp_path / "test_plugin_author.py").write_text(textwrap.dedent("""
        import pytest

        @pytest.mark.private_access
        def test_a(): pass

        @pytest.mark.memory_intense
        @pytest.mark.slow
        def test_b(): pass

        @pytest.mark.requires_gpu
        def test_c(): pass
    """))
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "--strict-markers", "-W", "error",
                             "-p", "no:cacheprovider", "-m", "not requires_gpu", str(tmp_path)],
                            capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 passed, 1 deselected" in result.stdout
    assert "PytestUnknownMarkWarning" not in result.stdout + result.stderr
