"""A throwaway third-party plugin distribution, built and pip-installed inside the test.

Three tiny distributions are written to a temp dir and built into wheels with ``python -m build
--no-isolation``: a domain package (standing in for brainscore-vision: a ``Domain`` on its own
entry-point group), plugin A (registers a stimulus set, an assembly, a metric and a benchmark through
its entry point: Brain-Score-style assignments plus a hookimpl) and plugin B (claims A's benchmark
identifier). They are pip-installed (``--no-deps --no-index``) into a temporary venv created with
``--system-site-packages`` that also sees this environment's packages, and a python subprocess there
loads and runs the benchmark. Nothing in this repository changes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import venv
from pathlib import Path

import pytest

from brainio.skipping import import_or_skip

GROUP = "brainscore_throwaway"

DOMAIN = """
    from brainscore_core.plugins import Domain

    domain = Domain({group!r})
    for _name in ("data_registry", "stimulus_set_registry", "metric_registry", "ceiling_registry",
                  "benchmark_registry", "model_registry", "load_dataset", "load_stimulus_set", "load_metric",
                  "load_ceiling", "load_benchmark", "load_model", "list_plugins"):
        globals()[_name] = getattr(domain, _name)  # the names a domain package gives its users
"""

PLUGIN_A = """
    import numpy as np

    from brainscore_core import hookimpl
    from throwaway_domain import benchmark_registry, data_registry, stimulus_set_registry


    def _stimulus_set():
        from brainio.stimuli import StimulusSet

        stimuli = StimulusSet({"stimulus_id": ["s0", "s1", "s2", "s3"], "object_name": list("aabb")})
        stimuli.identifier = "Throwaway2026"
        return stimuli


    def _assembly():
        from brainio.assemblies import NeuroidAssembly

        values = np.array([[1.0, 2.0], [2.0, 1.0], [3.0, 5.0], [4.0, 3.0]])
        return NeuroidAssembly(values, coords={"stimulus_id": ("presentation", ["s0", "s1", "s2", "s3"]),
                                               "neuroid_id": ("neuroid", ["n0", "n1"])},
                               dims=["presentation", "neuroid"])


    class MeanCorrelation:
        def __call__(self, source, target):
            from brainscore_core import Score

            r = [np.corrcoef(source.values[:, i], target.values[:, i])[0, 1] for i in range(target.shape[1])]
            return Score(float(np.mean(r)), attrs={"error": float(np.std(r))})


    def _benchmark():
        from brainscore_core import BenchmarkBase, ceil_score
        from throwaway_domain import load_dataset, load_metric, load_stimulus_set

        class ThrowawayBenchmark(BenchmarkBase):
            def __init__(self):
                super().__init__("Throwaway2026.IT-corr", lambda: 0.8, 1, parent="IT")
                self.assembly = load_dataset("Throwaway2026")
                self.stimuli = load_stimulus_set("Throwaway2026")
                self.metric = load_metric("mean_correlation")

            def __call__(self, candidate):
                return ceil_score(self.metric(candidate(self.stimuli), self.assembly), self.ceiling)

        return ThrowawayBenchmark()


    stimulus_set_registry["Throwaway2026"] = _stimulus_set
    data_registry["Throwaway2026"] = _assembly
    benchmark_registry["Throwaway2026.IT-corr"] = _benchmark


    @hookimpl
    def brainscore_metrics():
        return {"mean_correlation": MeanCorrelation}
"""

PLUGIN_B = """
    from throwaway_domain import benchmark_registry

    benchmark_registry["Throwaway2026.IT-corr"] = lambda: None
"""

RUN = """
    import json
    import sys
    import brainscore_core
    from throwaway_domain import load_benchmark, list_plugins

    plugins = list_plugins()  # discovery: imports the plugin modules only
    # brainio's package and errors are light (the project's error root lives there); its data modules are not
    heavy = ("xarray", "pandas", "torch", "brainio.assemblies", "brainio.stimuli")
    heavy_after_discovery = sorted(m for m in heavy if m in sys.modules)
    benchmark = load_benchmark("Throwaway2026.IT-corr")
    model = lambda stimuli: benchmark.assembly * 2  # perfectly correlated with the data
    score = benchmark(model)
    print(json.dumps({
        "score": float(score), "raw": float(score.attrs["raw"]), "identifier": benchmark.identifier,
        "core": brainscore_core.__file__,
        "plugins": sorted([p.kind, p.identifier, p.distribution, p.version] for p in plugins),
        "heavy_after_discovery": heavy_after_discovery,
    }))
"""


def _write_distribution(root: Path, name: str, module: str, source: str, entry_point: bool) -> Path:
    project = root / name
    (project / module).mkdir(parents=True)
    (project / module / "__init__.py").write_text(textwrap.dedent(source))
    entry = f'\n[project.entry-points.{GROUP}]\n{module} = "{module}"\n' if entry_point else ""
    (project / "pyproject.toml").write_text(textwrap.dedent(f"""\
        [build-system]
        requires = ["hatchling"]
        build-backend = "hatchling.build"

        [project]
        name = "{name}"
        version = "0.1.0"
        """) + entry + f'\n[tool.hatch.build.targets.wheel]\npackages = ["{module}"]\n')
    return project


def _build(project: Path, out: Path) -> Path:
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out),
                    str(project)], check=True, capture_output=True, text=True)
    return next(out.glob(f"{project.name.replace('-', '_')}-*.whl"))


@pytest.fixture(scope="module")
def throwaway(tmp_path_factory):
    import_or_skip("build", extra="brainscore-core[test]")
    import_or_skip("hatchling", extra="brainscore-core[test]")
    root = tmp_path_factory.mktemp("throwaway")
    wheels = root / "wheels"
    sources = {"bs-throwaway-domain": ("throwaway_domain", DOMAIN.format(group=GROUP), False),
               "bs-throwaway-plugin-a": ("throwaway_plugin_a", PLUGIN_A, True),
               "bs-throwaway-plugin-b": ("throwaway_plugin_b", PLUGIN_B, True)}
    built = {name: _build(_write_distribution(root / "src", name, *spec), wheels) for name, spec in sources.items()}
    environment = root / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(environment)
    python = environment / "bin" / "python"
    site_packages = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                                        check=True, capture_output=True, text=True).stdout.strip())
    # the venv's base interpreter is not this environment's: make this environment's packages visible too
    # (addsitedir also runs their .pth files, so editable installs of this repo are found)
    import site

    (site_packages / "_parent_environment.pth").write_text(
        "".join(f"import site; site.addsitedir({path!r})\n" for path in site.getsitepackages()))

    def pip(*args):
        return subprocess.run([sys.executable, "-m", "pip", "--python", str(python), *args, "--disable-pip-version-check"],
                              check=True, capture_output=True, text=True)

    def run():
        env = {**os.environ, "PYTHONPATH": ""}
        return subprocess.run([str(python), "-c", textwrap.dedent(RUN)], capture_output=True, text=True, env=env)

    pip("install", "--no-deps", "--no-index", str(built["bs-throwaway-domain"]),
        str(built["bs-throwaway-plugin-a"]))
    return pip, run, built


def test_installed_plugin_is_found_collides_and_is_removed(throwaway):
    pip, run, built = throwaway

    # 1. installed: load_benchmark finds it; its benchmark loads the dataset, stimulus set and metric
    result = run()
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    # by hand: the model returns 2 x the data, so r = 1 per neuroid; ceil_score = 1 / 0.8 = 1.25
    assert output["raw"] == pytest.approx(1.0) and output["score"] == pytest.approx(1.25)
    assert output["identifier"] == "Throwaway2026.IT-corr"
    assert output["heavy_after_discovery"] == []  # no data stack (nor torch) imported to register
    # the throwaway venv sees this process's brainscore_core (editable or installed), not another copy
    import brainscore_core

    assert Path(output["core"]).resolve() == Path(brainscore_core.__file__).resolve()
    assert output["plugins"] == [
        ["benchmark", "Throwaway2026.IT-corr", "bs-throwaway-plugin-a", "0.1.0"],
        ["data", "Throwaway2026", "bs-throwaway-plugin-a", "0.1.0"],
        ["metric", "mean_correlation", "bs-throwaway-plugin-a", "0.1.0"],
        ["stimulus_set", "Throwaway2026", "bs-throwaway-plugin-a", "0.1.0"],
    ]

    # 2. a second distribution claiming the same identifier: the error names both distributions
    pip("install", "--no-deps", "--no-index", str(built["bs-throwaway-plugin-b"]))
    result = run()
    assert result.returncode != 0
    assert "DuplicateIdentifierError" in result.stderr
    for name in ("bs-throwaway-plugin-a", "bs-throwaway-plugin-b", "throwaway_plugin_a", "throwaway_plugin_b"):
        assert name in result.stderr
    pip("uninstall", "-y", "bs-throwaway-plugin-b")
    assert run().returncode == 0

    # 3. uninstalled: the identifier is gone
    pip("uninstall", "-y", "bs-throwaway-plugin-a")
    result = run()
    assert result.returncode != 0
    assert "UnknownIdentifierError" in result.stderr and "Throwaway2026.IT-corr" in result.stderr
