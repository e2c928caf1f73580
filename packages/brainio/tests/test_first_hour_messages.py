"""Messages a new user meets in the first hour (the legacy ``image_paths`` name, a stimulus set without a name)."""

import pandas as pd
import pytest
from PIL import Image

from brainio.errors import ValidationError
from brainio.packaging import package_data_assembly_locally, package_stimulus_set_locally
from brainio.stimuli import StimulusSet


@pytest.fixture
def one_image(tmp_path):
    Image.new("RGB", (8, 8), (10, 20, 30)).save(tmp_path / "a.png")
    stimuli = StimulusSet(pd.DataFrame({"stimulus_id": ["a"]}))
    return stimuli, tmp_path


def test_legacy_image_paths_are_the_stimulus_paths(one_image):
    stimuli, folder = one_image
    stimuli.image_paths = {"a": str(folder / "a.png")}  # brainio 0.x plugins wrote this
    assert stimuli.stimulus_paths == {"a": str(folder / "a.png")}
    assert stimuli.get_image("a") == stimuli.get_stimulus("a") == str(folder / "a.png")


def test_packaging_without_a_name_says_so_and_writes_nothing(one_image):
    stimuli, folder = one_image
    stimuli.stimulus_paths = {"a": str(folder / "a.png")}
    out = folder / "out"
    with pytest.raises(ValidationError, match="needs an identifier .* got None"):
        package_stimulus_set_locally(stimuli, None, downloads_path=out)
    with pytest.raises(ValidationError, match="assembly needs an identifier"):
        package_data_assembly_locally(None, "", "stimuli", downloads_path=out)
    assert not out.exists() or not any(out.iterdir())


def test_legacy_image_id_gets_a_rename_hint_and_missing_files_are_listed_once(one_image):
    import numpy as np

    from brainio.assemblies import NeuroidAssembly
    from brainio.validation import check_assembly, check_stimulus_set

    stimuli, folder = one_image
    legacy = StimulusSet(pd.DataFrame({"image_id": ["a"]}))
    assert any("rename it with stimulus_set.rename(columns={'image_id': 'stimulus_id'})" in problem
               for problem in check_stimulus_set(legacy))
    assembly = NeuroidAssembly(np.zeros((1, 1)), coords={"image_id": ("presentation", ["a"])},
                               dims=["presentation", "neuroid"])
    assert any("assembly.rename({'image_id': 'stimulus_id'})" in p for p in check_assembly(assembly, "NeuroidAssembly"))
    twice = StimulusSet(pd.DataFrame({"stimulus_id": ["b", "b"]}))
    twice.stimulus_paths = {"b": str(folder / "nope.png")}
    (problem,) = [p for p in check_stimulus_set(twice) if "not found" in p]
    assert problem.count("nope.png") == 1


@pytest.mark.parametrize("sha1", ["../../etc", "A" * 40, "abc", None, "0" * 39 + "/"])
def test_a_sha1_that_is_not_40_hex_digits_is_refused_before_touching_the_cache(sha1, tmp_path):
    from brainio.cache import fetch_verified
    from brainio.stores import LocalStore

    with pytest.raises(ValueError, match="40 lowercase hex digits"):
        fetch_verified(LocalStore(tmp_path / "store"), "x.csv", sha1, home=tmp_path / "home")
    assert not (tmp_path / "home").exists() or not any((tmp_path / "home").iterdir())
