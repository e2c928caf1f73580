"""The 1.x API of the original brainscore README and of the legacy benchmark tutorial (``../shared/reference``), run
against today's packages and the real recordings in ``../shared/data``.

Expected numbers come from today's API called directly on the same data (the legacy layer must give exactly what it
points to) or from scipy on the same arrays.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import numpy as np
import pytest

from brainio.skipping import require_path

REPO_ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session", autouse=True)
def _homes(tmp_path_factory):
    homes = tmp_path_factory.mktemp("homes")
    with pytest.MonkeyPatch.context() as patch:
        for name in ("BRAINIO_HOME", "BRAINSCORE_HOME", "RESULTCACHING_HOME"):
            patch.setenv(name, str(homes / name.lower()))
        patch.setenv("BRAINSCORE_RAW_DATA", os.environ.get("BRAINSCORE_RAW_DATA",
                                                           str(REPO_ROOT.parent / "shared" / "data")))
        yield


@pytest.fixture(scope="session")
def raw_data(_homes) -> Path:
    return require_path(Path(os.environ["BRAINSCORE_RAW_DATA"]), "real data")


def test_get_assembly_maps_era_identifiers_and_warns_naming_todays_call(raw_data):
    """``brainscore.get_assembly`` of the 1.x README, on a dataset built here from real data: the storage name of
    Brain-Score's public catalogue (``tong.Coggan2024_fMRI``) is today's ``Coggan2024_fMRI``."""
    import brainscore
    import brainscore_vision
    from brainio.testing import assert_assemblies_equal

    with pytest.warns(DeprecationWarning, match=r"brainscore\.get_assembly\('tong\.Coggan2024_fMRI'\) is deprecated: "
                                                r"use brainscore_vision\.load_dataset\('Coggan2024_fMRI'\)"):
        legacy = brainscore.get_assembly("tong.Coggan2024_fMRI")
    assert_assemblies_equal(legacy, brainscore_vision.load_dataset("Coggan2024_fMRI"))
    with pytest.warns(DeprecationWarning, match=r"use brainscore_vision\.load_stimulus_set\('Kriegeskorte2008'\)"):
        stimuli = brainscore.get_stimulus_set("Kriegeskorte2008")
    assert len(stimuli) == 92


def test_the_readme_identifier_maps_to_the_public_majajhong_data():
    import brainscore
    import brainscore_vision
    from brainscore._identifiers import today_identifier

    assert today_identifier("data", "dicarlo.Majaj2015", brainscore_vision.data_registry) == "MajajHong2015.public"
    assert today_identifier("data", "dicarlo.MajajHong2015.public", brainscore_vision.data_registry) == \
        "MajajHong2015.public"
    assert today_identifier("stimulus_set", "dicarlo.objectome.public", brainscore_vision.stimulus_set_registry) == \
        "objectome.public"
    not_public = (r"^dataset 'dicarlo\.MajajHong2015' is today's 'MajajHong2015\.private', which is not public data; "
                  r"its public counterpart is 'MajajHong2015\.public'$")
    with pytest.raises(KeyError, match=not_public), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        brainscore.get_assembly("dicarlo.MajajHong2015")
    with pytest.raises(brainscore.LegacyIdentifierError, match=r"^no dataset 'dicarlo\.Nobody2030': today's "
                                                               r"identifier would be 'Nobody2030'"):
        brainscore.get_assembly("dicarlo.Nobody2030")


def _v4(raw_data):
    """Cowley 2023 V4 (session 210325), repeat-averaged, as today's loaders give it."""
    import brainscore_vision
    from brainio.assemblies import average_repetition

    return average_repetition(brainscore_vision.load_dataset("Cowley2023")).squeeze("time_bin", drop=True)


def test_readme_rdm_metric_with_assembly1_and_assembly2(raw_data):
    """``RDM()(assembly1=data, assembly2=data)`` (the README): the RDM metric, 1 for the same data; on two halves of
    the neurons it equals the Spearman r of the RDM upper triangles, computed here with scipy."""
    from scipy.stats import spearmanr

    data = _v4(raw_data)
    with pytest.warns(DeprecationWarning, match=r"brainscore\.metrics\.rdm\.RDM is deprecated: use "
                                                r"brainscore_vision\.load_metric\('rdm'\)"):
        from brainscore.metrics.rdm import RDM
    metric = RDM()
    assert float(metric(assembly1=data, assembly2=data)) == pytest.approx(1.0, abs=1e-12)
    first, second = data.isel(neuroid=slice(0, 25)), data.isel(neuroid=slice(25, None))
    upper = np.triu_indices(data.sizes["presentation"], k=1)
    rdm1 = 1 - np.corrcoef(first.transpose("presentation", "neuroid").values)
    rdm2 = 1 - np.corrcoef(second.transpose("presentation", "neuroid").values)
    expected = spearmanr(rdm1[upper], rdm2[upper])[0]
    # the recordings are float32, and the metric's default precision='mixed' forms their products in float32
    assert float(metric(assembly1=first, assembly2=second)) == pytest.approx(expected, abs=1e-7)
    assert float(RDM(precision="float64")(assembly1=first, assembly2=second)) == pytest.approx(expected, abs=1e-12)
    rdm = metric(first)  # one assembly: its RDM (1.x's RDM class)
    np.testing.assert_allclose(rdm.values, rdm1, atol=1e-10)


def test_legacy_benchmark_tutorial_imports_are_todays_objects():
    import brainscore_vision
    from brainscore_vision.benchmark_helpers.screen import place_on_screen as todays_place_on_screen

    with pytest.warns(DeprecationWarning, match="brainscore.benchmarks.BenchmarkBase is deprecated"):
        from brainscore.benchmarks import BenchmarkBase
    with pytest.warns(DeprecationWarning, match="brainscore.benchmarks.screen.place_on_screen is deprecated"):
        from brainscore.benchmarks.screen import place_on_screen
    with pytest.warns(DeprecationWarning, match="brainscore.model_interface.BrainModel is deprecated"):
        from brainscore.model_interface import BrainModel
    with pytest.warns(DeprecationWarning, match="brainscore.utils.LazyLoad is deprecated"):
        from brainscore.utils import LazyLoad
    assert BenchmarkBase is brainscore_vision.benchmarks.BenchmarkBase
    assert place_on_screen is todays_place_on_screen
    assert BrainModel is brainscore_vision.BrainModel and LazyLoad is brainscore_vision.utils.LazyLoad


def test_legacy_i2n_ceil_score_is_the_per_repetition_ceiling():
    """1.x ``I2n.ceil_score(score, ceiling)``: per repetition raw / sqrt(ceiling), then the mean (by hand)."""
    from brainscore_core.metrics import Score

    with pytest.warns(DeprecationWarning, match=r"use brainscore_vision\.load_metric\('i2n'\)"):
        from brainscore.metrics.image_level_behavior import I2n
    raw, ceiling = Score(0.3), Score(0.8)
    raw.attrs["raw"] = Score([0.2, 0.4], coords={"split": [0, 1]}, dims=["split"])
    ceiling.attrs["raw"] = Score([0.64, 0.81], coords={"split": [0, 1]}, dims=["split"])
    assert float(I2n.ceil_score(raw, ceiling)) == pytest.approx((0.2 / 0.8 + 0.4 / 0.9) / 2, abs=1e-12)


def test_brainio_2021_lookups_after_import_brainscore(raw_data):
    import brainio
    import brainscore  # noqa: F401 (adds brainio 2021's spellings)

    with pytest.warns(DeprecationWarning, match=r"brainio\.get_stimulus_set\('Kriegeskorte2008'\) is deprecated: "
                                                r"use brainscore_vision\.load_stimulus_set\('Kriegeskorte2008'\)"):
        stimuli = brainio.get_stimulus_set("Kriegeskorte2008")
    assert len(stimuli) == 92 and len(set(stimuli["stimulus_id"])) == 92
    with pytest.warns(DeprecationWarning, match=r"brainio\.get_assembly\('Kriegeskorte2008\.hIT'\)"):
        assembly = brainio.get_assembly("Kriegeskorte2008.hIT")
    assert assembly.sizes["subject"] == 4


def test_packaging_with_assembly_class_and_image_id(tmp_path, raw_data):
    """The legacy tutorial's packaging calls: a stimulus set and a BehavioralAssembly labelled by ``image_id``,
    packaged with ``assembly_class=`` (into a local store instead of S3); loading them back gives ``stimulus_id``."""
    import pandas as pd

    import brainscore  # noqa: F401
    from brainio import LocalStore
    from brainio.assemblies import BehavioralAssembly
    from brainio.fetch import load_assembly, load_stimulus_set
    from brainio.packaging import package_data_assembly, package_stimulus_set
    from brainio.stimuli import StimulusSet

    images = raw_data / "kriegeskorte2008" / "images"
    ids = [f"k92_{i:03d}" for i in range(1, 11)]
    stimuli = StimulusSet(pd.DataFrame({"image_id": ids, "object_name": ["face"] * 5 + ["body"] * 5}))
    stimuli.stimulus_paths = {image_id: images / f"{image_id}.png" for image_id in ids}
    store = LocalStore(tmp_path / "store")
    with pytest.warns(DeprecationWarning, match="a stimulus set column 'image_id' is deprecated: use 'stimulus_id'"):
        packaged_stimuli = package_stimulus_set(None, stimuli, stimulus_set_identifier="Legacy2021", store=store,
                                                downloads_path=tmp_path / "downloads")
    assembly = BehavioralAssembly(["face", "body"] * 10, dims=["presentation"], coords={
        "image_id": ("presentation", ids * 2), "choice": ("presentation", ["face", "body"] * 10)})
    with pytest.warns(DeprecationWarning) as caught:
        packaged = package_data_assembly(None, assembly, assembly_identifier="Legacy2021",
                                         stimulus_set_identifier="Legacy2021", assembly_class="BehavioralAssembly",
                                         store=store, downloads_path=tmp_path / "downloads")
    messages = [str(w.message) for w in caught]
    assert any("'assembly_class' is deprecated, use 'assembly_class_name'" in m for m in messages)
    assert any("an assembly coordinate 'image_id' is deprecated: use 'stimulus_id'" in m for m in messages)
    assert packaged["cls"] == "BehavioralAssembly"
    loaded = load_assembly("Legacy2021", store, sha1=packaged["sha1"], cls=BehavioralAssembly,
                           stimulus_set_loader=lambda: load_stimulus_set(
                               "Legacy2021", store, csv_sha1=packaged_stimuli["csv_sha1"],
                               zip_sha1=packaged_stimuli["zip_sha1"]))
    assert list(loaded["stimulus_id"].values) == ids * 2 and len(loaded.stimulus_set) == 10


def test_brainio_2021_lookup_without_importing_brainscore_first(raw_data):
    """1.x code often imports only brainio: ``brainio.get_stimulus_set`` loads the legacy layer itself (fresh
    process, so no earlier ``import brainscore`` of this test session helps)."""
    import subprocess
    import sys

    code = ("import sys, warnings, brainio\n"
            "assert 'brainscore' not in sys.modules\n"
            "with warnings.catch_warnings(record=True) as caught:\n"
            "    warnings.simplefilter('always')\n"
            "    stimuli = brainio.get_stimulus_set('Kriegeskorte2008')\n"
            "print(len(stimuli), any(issubclass(w.category, DeprecationWarning) for w in caught))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["92", "True"]


def test_importing_brainscore_changes_no_function_of_brainio():
    """brainio 2021's spellings come through brainio's extension points (entry points of this distribution), so
    importing ``brainscore`` first or last leaves brainio's modules as they were: the same objects under the same
    names, none added (fresh process: nothing imported ``brainscore`` before)."""
    import subprocess
    import sys

    code = ("import sys, brainio, brainio.fetch, brainio.packaging\n"
            "modules = (brainio, brainio.fetch, brainio.packaging)\n"
            "def snapshot():\n"
            "    return [{name: id(value) for name, value in vars(module).items()} for module in modules]\n"
            "before = snapshot()\n"
            "function = brainio.packaging.package_data_assembly\n"
            "assert 'brainscore' not in sys.modules\n"
            "import brainscore\n"
            "after = snapshot()\n"
            "print(before == after, brainio.packaging.package_data_assembly is function,\n"
            "      callable(brainio.get_assembly), 'get_assembly' in vars(brainio))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split() == ["True", "True", "True", "False"]
