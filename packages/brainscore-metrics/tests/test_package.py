import importlib
import subprocess
import sys
from importlib.metadata import version

import pytest

import brainscore_metrics


def test_version_matches_distribution_metadata():
    assert brainscore_metrics.__version__ == version("brainscore-metrics")


@pytest.mark.parametrize("name", brainscore_metrics.__all__)
def test_every_public_name_imports_from_the_top_level(name):
    value = getattr(brainscore_metrics, name)
    if name != "__version__":
        # the lazy table must point at the module that defines (or re-exports) the very same object
        assert value is getattr(importlib.import_module(brainscore_metrics._LAZY[name]), name)
    namespace = {}
    exec(f"from brainscore_metrics import {name}", namespace)
    assert namespace[name] is value


def test_unknown_name_raises_attribute_error():
    with pytest.raises(AttributeError, match="no_such_metric"):
        brainscore_metrics.no_such_metric  # noqa: B018


def test_importing_the_package_loads_neither_sklearn_nor_torch():
    code = ("import sys, brainscore_metrics; "
            "print(sorted(m for m in ('sklearn', 'torch') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "[]"


def test_the_readme_map_names_every_module():
    # "Where things live" names each module of the package by its file, or by its folder for a subpackage listed as
    # one (behavior/, properties/, backend/)
    import re
    from pathlib import Path

    root = Path(brainscore_metrics.__file__).parent
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()  # the package folder's
    start = readme.index("## Where things live")
    table = readme[start:readme.index("\n## ", start + 1)]
    missing = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        if relative == "__init__.py":
            continue
        folder = relative.rsplit("/", 1)[0] + "/" if "/" in relative else None
        named = re.search(r"[`/ (]" + re.escape(relative if folder else path.name) + "`", table)
        if not named and not (folder and f"`{folder}`" in table):
            missing.append(relative)
    assert missing == []
