"""The plugin index of vision's own plugins, shared by processes that read it differently: every process lists the
identifiers vision's plugins register, whatever an earlier process wrote into the home.

Before the fix, a second ``Domain('brainscore_vision')`` (model-tools' tests build one) imported vision's plugins,
whose assignments went to ``brainscore_vision``'s own registries: it recorded them as registering nothing, and every
later process of the install trusted that (2 benchmarks listed instead of 277). The expected identifier sets come from
a process with an empty home: no index, every plugin imported and its registrations seen directly.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

KINDS = ("benchmark", "data", "stimulus_set", "metric", "model")

LIST = f"""
    import json
    import brainscore_vision as vision
    print(json.dumps({{kind: sorted(getattr(vision, kind + "_registry")) for kind in {KINDS!r}}}))
"""

SECOND_DOMAIN = f"""
    import json
    from brainscore_core.plugins import Domain
    other = Domain("brainscore_vision")
    print(json.dumps({{kind: sorted(getattr(other, kind + "_registry")) for kind in {KINDS!r}}}))
"""


def _run(home: Path, code: str) -> dict[str, list[str]]:
    environment = {**os.environ, "BRAINSCORE_HOME": str(home)}
    for name in ("BRAINSCORE_DISABLE_PLUGIN_AUTOLOAD", "BRAINSCORE_PLUGINS"):
        environment.pop(name, None)
    run = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                         env=environment, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_a_second_domain_of_the_group_leaves_the_index_of_vision_whole(tmp_path):
    expected = _run(tmp_path / "cold", LIST)  # no index: every plugin imported
    assert len(expected["benchmark"]) == 277  # all 277 of the README (tests/test_benchmark_data.py)
    home = tmp_path / "shared"
    _run(home, SECOND_DOMAIN)
    assert _run(home, LIST) == expected  # the plugins recorded by no one are imported, then recorded
    assert _run(home, LIST) == expected  # read from the index
