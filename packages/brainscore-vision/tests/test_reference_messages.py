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
