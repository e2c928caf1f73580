"""How long ``import brainscore_core`` plus building a registry of 100 installed plugins takes.

100 plugin distributions are generated on disk (real ``*.dist-info`` folders with ``entry_points.txt``,
found by ``importlib.metadata`` exactly like pip-installed ones): half register in the Brain-Score style
(assigning into the registries when imported), half through hookimpls; each registers one benchmark and
one dataset. Every measurement runs in a fresh interpreter, a child bound to this script
(:func:`brainscore_core.children.run_child`). The baseline, measured in the same run and started the same way, is a bare
interpreter start (``python -c pass``).

The first process after the plugins are installed imports every one of them and writes the plugin index
(``$BRAINSCORE_HOME/plugin-index``, here a temporary folder); later processes read the index and import only the
plugin that registers the benchmark they load. Both are reported: "first" is one process (it happens once), "later"
the median of the repeats.

Run: ``python benchmarks/bench_registry.py [--plugins 100] [--repeats 7]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import textwrap
import time
from pathlib import Path

from brainscore_core.children import run_child

GROUP = "bench_brainscore"

ASSIGNING = """
from bench_domain import benchmark_registry, data_registry
benchmark_registry["Bench{i}.IT-pls"] = lambda: "benchmark {i}"
data_registry["Bench{i}"] = lambda: "data {i}"
"""
HOOKS = """
from brainscore_core import hookimpl

@hookimpl
def brainscore_benchmarks():
    return {{"Bench{i}.IT-pls": lambda: "benchmark {i}"}}

@hookimpl
def brainscore_data():
    return {{"Bench{i}": lambda: "data {i}"}}
"""
DOMAIN = f"""
from brainscore_core.plugins import Domain
domain = Domain({GROUP!r})
for _name in ("data_registry", "stimulus_set_registry", "metric_registry", "ceiling_registry",
              "benchmark_registry", "model_registry", "load_dataset", "load_stimulus_set", "load_metric",
              "load_ceiling", "load_benchmark", "load_model", "list_plugins"):
    globals()[_name] = getattr(domain, _name)  # the names a domain package gives its users
"""
MEASURE = """
import time
start = time.perf_counter()
import brainscore_core
from bench_domain import benchmark_registry, load_benchmark
count = len(benchmark_registry)
load_benchmark("Bench0.IT-pls")
elapsed = time.perf_counter() - start
import json, sys
print(json.dumps({"seconds": elapsed, "count": count, "xarray": "xarray" in sys.modules}))
"""


def generate(root: Path, n_plugins: int) -> None:
    (root / "bench_domain.py").write_text(DOMAIN)
    for i in range(n_plugins):
        module = f"bench_plugin_{i}"
        (root / f"{module}.py").write_text((ASSIGNING if i % 2 else HOOKS).format(i=i))
        info = root / f"bench_plugin_{i}-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: bench-plugin-{i}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(f"[{GROUP}]\n{module} = {module}\n")


def run_fresh(code: str, root: Path) -> tuple[float, str]:
    start = time.perf_counter()
    environment = {"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin", "BRAINSCORE_HOME": str(root / "home")}
    output = run_child(["-c", code], timeout=600, cwd=root, check=True, capture_output=True, text=True,
                       env=environment).stdout  # dies with this script
    return time.perf_counter() - start, output


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plugins", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        generate(root, args.plugins)
        baseline = statistics.median(run_fresh("pass", root)[0] for _ in range(args.repeats))
        first_wall, first_output = run_fresh(textwrap.dedent(MEASURE), root)  # imports every plugin, writes the index
        first = json.loads(first_output)["seconds"]
        walls, inside = [], []
        for _ in range(args.repeats):
            wall, output = run_fresh(textwrap.dedent(MEASURE), root)
            result = json.loads(output)
            if result["count"] != args.plugins:
                raise RuntimeError(f"expected {args.plugins} benchmarks, found {result['count']}")
            walls.append(wall)
            inside.append(result["seconds"])
    import_and_build = statistics.median(inside)
    print(f"plugins: {args.plugins} (half assigning, half hookimpls), repeats: {args.repeats}, median values")
    print(f"baseline: bare interpreter start (python -c pass): {baseline * 1000:.0f} ms")
    print(f"first process (no plugin index yet): import brainscore_core + discover {args.plugins} plugins + load one "
          f"benchmark: {first * 1000:.0f} ms in-process, {first_wall * 1000:.0f} ms whole process")
    print(f"later processes: import brainscore_core + discover {args.plugins} plugins + load one benchmark: "
          f"{import_and_build * 1000:.0f} ms in-process")
    print(f"whole fresh process: {statistics.median(walls) * 1000:.0f} ms = "
          f"{statistics.median(walls) / baseline:.1f} x the bare interpreter start")
    print(f"xarray imported by discovery: {result['xarray']}")


if __name__ == "__main__":
    main()
