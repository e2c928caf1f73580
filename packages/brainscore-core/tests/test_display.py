"""What people see of a results store (issue 41, findings 6 and 10): the URL's password as ``***``, stored text with
its terminal controls escaped; the store's own messages checked against a real PostgreSQL server that requires a
password."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from brainscore_core import Score
from brainscore_core.display import HIDDEN, display_text, display_url
from brainscore_core.local_postgres import new_database
from brainscore_core.results import ResultStore, ResultStoreError, ResultStoreNotFoundError
from brainscore_core.scoring import digest_change

pytestmark = pytest.mark.security


@pytest.mark.parametrize(("url", "shown"), [
    ("postgresql+psycopg://alice:s3cret@db.example:5432/scores", "postgresql+psycopg://alice:***@db.example:5432/scores"),
    # a percent-encoded password (here "p@ss:w/rd") is hidden whole
    ("postgresql+psycopg://alice:p%40ss%3Aw%2Frd@db:5432/x", "postgresql+psycopg://alice:***@db:5432/x"),
    # libpq also reads the password from the query (SQLAlchemy writes the parameters in alphabetical order)
    ("postgresql+psycopg://alice@db/x?sslmode=require&password=s3cret",
     "postgresql+psycopg://alice@db/x?password=***&sslmode=require"),
    ("mysql+pymysql://bob:s3cret@db/x?PWD=s3cret", "mysql+pymysql://bob:***@db/x?PWD=***"),
    # nothing to hide: unchanged
    ("sqlite:////home/alice/.brainscore/results.sqlite", "sqlite:////home/alice/.brainscore/results.sqlite"),
    ("postgresql+psycopg://alice@db.example/scores", "postgresql+psycopg://alice@db.example/scores"),
    # SQLAlchemy cannot read it (a port that is not a number): the user part is still hidden
    ("postgresql://alice:s3cret@db:port/x", "postgresql://alice:***@db:port/x"),
    # not a URL at all: it may be nothing but the secret
    ("s3cret", "the results store (URL not shown)"),
])
def test_display_url_hides_the_password_wherever_the_url_holds_it(url, shown):
    assert display_url(url) == shown
    assert "s3cret" not in display_url(url)


def test_display_url_takes_a_sqlalchemy_url():
    url = sa.make_url("postgresql+psycopg://alice:s3cret@db.example/scores")
    assert display_url(url) == f"postgresql+psycopg://alice:{HIDDEN}@db.example/scores"


@pytest.mark.parametrize(("text", "shown"), [
    ("alex\x1b[2Jnet", "alex\\x1b[2Jnet"),  # ESC: "clear the screen"
    ("bell\x07", "bell\\x07"),
    ("shown\rhidden", "shown\\rhidden"),  # CR: the rest would overwrite the start of the line
    ("two\nlines\tand a tab", "two\\nlines\\tand a tab"),
    ("nul\x00 del\x7f", "nul\\x00 del\\x7f"),
    ("c1\x9b2J", "c1\\x9b2J"),  # the one-byte CSI some terminals obey
    ("abc\u202edcba", "abc\\u202edcba"),  # right-to-left override: would show the rest reversed
    ("line\u2028separator", "line\\u2028separator"),
    # printable text is unchanged, backslashes included
    ("Cowley2023.V4-pls", "Cowley2023.V4-pls"),
    ("V4 — raw² über", "V4 — raw² über"),
    ("evil$\\undefinedmacro$", "evil$\\undefinedmacro$"),
])
def test_display_text_escapes_every_terminal_control(text, shown):
    assert display_text(text) == shown
    assert display_text(text).isprintable()


def test_display_text_escapes_all_65_control_characters():
    # Unicode's control characters (category Cc) are U+0000-U+001F, U+007F and U+0080-U+009F: 32 + 1 + 32
    controls = "".join(chr(code) for code in [*range(0x20), 0x7F, *range(0x80, 0xA0)])
    shown = display_text(controls)
    assert shown.isprintable() and shown.count("\\") == 65


def test_store_messages_never_show_the_password(password_postgres):
    password = sa.make_url(password_postgres).password
    url = new_database(password_postgres)
    with pytest.raises(ResultStoreNotFoundError) as not_found:  # nothing stored there yet
        ResultStore(url, read_only=True).rows()
    assert password not in str(not_found.value) and HIDDEN in str(not_found.value)
    store = ResultStore(url)
    assert password not in repr(store)
    store.add(Score(0.5), model_identifier="display-model", benchmark_identifier="b", benchmark_version=1,
              model_digest="a" * 40)
    # the warning for a model whose weights changed since its stored score names the store
    warning = digest_change("display-model", "b" * 40, store)
    assert warning is not None and "newest stored score in" in warning
    assert password not in warning and HIDDEN in warning
    store.dispose()
    # the server requires the password: a wrong one is refused, and the message shows neither
    wrong = sa.make_url(url).set(password="not-the-password")
    with pytest.raises(ResultStoreError, match="password authentication failed") as refused:
        ResultStore(wrong.render_as_string(hide_password=False)).check()
    assert password not in str(refused.value) and "not-the-password" not in str(refused.value)
