"""Messages and registrations a user migrating from Brain-Score meets first."""

import pytest

import brainscore_vision
from brainscore_core.errors import UnknownIdentifierError


def test_internal_consistency_loads_as_a_metric_and_as_a_ceiling():
    # the tutorials' Papale2025 example calls the ceiling through load_metric
    assert type(brainscore_vision.load_metric("internal_consistency")).__name__ == "InternalConsistency"
    assert type(brainscore_vision.load_ceiling("internal_consistency")).__name__ == "InternalConsistency"


def test_an_identifier_of_another_kind_is_named_instead_of_a_guess():
    with pytest.raises(UnknownIdentifierError) as raised:
        brainscore_vision.load_metric("Cowley2023.V4-pls")
    message = str(raised.value)
    assert "a benchmark of that exact name exists" in message and "load_benchmark('Cowley2023.V4-pls')" in message
    assert "did you mean" not in message
    with pytest.raises(UnknownIdentifierError, match="did you mean 'pls'"):
        brainscore_vision.load_metric("plss")


def test_raw_data_default_for_a_regular_install_is_found_from_the_working_directory(tmp_path, monkeypatch):
    """Issue 19, item 10: outside an editable install the default raw-data folder is the first ``shared/data``
    in the working directory or its parents (the README's layout: a checkout beside ``shared/``)."""
    import brainscore_vision._paths as paths

    (tmp_path / "shared" / "data").mkdir(parents=True)
    (tmp_path / "checkout" / "docs").mkdir(parents=True)
    site = tmp_path / "venv" / "site-packages" / "brainscore_vision"
    site.mkdir(parents=True)
    monkeypatch.setattr(paths, "__file__", str(site / "_paths.py"))
    monkeypatch.delenv("BRAINSCORE_RAW_DATA")
    monkeypatch.chdir(tmp_path / "checkout" / "docs")
    assert paths.raw_data_dir() == tmp_path / "shared" / "data"
    monkeypatch.setenv("BRAINSCORE_RAW_DATA", str(tmp_path / "elsewhere"))
    assert paths.raw_data_dir() == tmp_path / "elsewhere"
