"""renamed_keywords: old keyword names keep working with a DeprecationWarning (issue 21, item 4)."""

from __future__ import annotations

import inspect
import warnings

import pytest

from brainscore_core.deprecation import renamed_keywords


class Seeded:
    @renamed_keywords(seed="random_state")
    def __init__(self, *, random_state: int = 0):
        self.random_state = random_state


def test_old_name_warns_and_gives_the_same_value():
    with pytest.warns(DeprecationWarning, match="'seed' is deprecated, use 'random_state'"):
        old = Seeded(seed=5)
    assert old.random_state == Seeded(random_state=5).random_state == 5


def test_new_name_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Seeded(random_state=3).random_state == 3


def test_both_names_is_an_error():
    with pytest.raises(TypeError, match="both 'seed'"):
        Seeded(seed=1, random_state=2)


def test_signature_shows_only_the_new_name():
    assert list(inspect.signature(Seeded).parameters) == ["random_state"]
    assert Seeded.__init__.renamed_keywords == {"seed": "random_state"}


def test_deprecated_attributes_warn_naming_the_new_spelling_and_load_lazily():
    import pytest

    from brainscore_core.deprecation import deprecated_attributes, warn_deprecated

    loaded = []
    getter = deprecated_attributes("legacy.module", {"Old": ("new.module.New", lambda: loaded.append(1) or 42)})
    assert loaded == []
    with pytest.warns(DeprecationWarning, match=r"^legacy\.module\.Old is deprecated: use new\.module\.New$"):
        assert getter("Old") == 42
    with pytest.raises(AttributeError, match="'legacy.module' has no attribute 'Other'"):
        getter("Other")
    with pytest.warns(DeprecationWarning, match="x is deprecated: use y"):
        warn_deprecated("x", "y")
    by_path = deprecated_attributes("legacy.module", {"join": ("os.path.join", "os.path:join")})
    with pytest.warns(DeprecationWarning, match="legacy.module.join is deprecated: use os.path.join"):
        import os.path

        assert by_path("join") is os.path.join
