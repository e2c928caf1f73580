"""Progress bars redraw when a slow step ends, whatever the pace of the first steps (issue 42: during layer selection
the bars updated only every 37-171 s, after fast first steps made tqdm wait for many steps between redraws)."""

from __future__ import annotations

import io
import time

from brainscore_core.progress import progress


def test_a_bar_redraws_after_each_slow_step_that_follows_fast_ones(monkeypatch):
    monkeypatch.delenv("BRAINSCORE_PROGRESS", raising=False)
    stream = io.StringIO()
    bar = progress(range(5003), desc="layers", delay=0, file=stream, disable=False)
    for index in bar:
        if index >= 5000:  # three slow steps after 5,000 fast ones: each ends well past mininterval (0.1 s)
            time.sleep(0.15)
    bar.close()
    states = stream.getvalue().replace("\r", "\n")
    for done in (5001, 5002, 5003):  # the count after each slow step was drawn
        assert f"{done}/5003" in states, done
