"""The public benchmark battery (brainscore_core.testing.check_benchmark) over every benchmark this package
registers; their ceilings need the real data."""

import pytest

import brainscore_vision
from brainscore_core.testing import check_benchmark
from brainscore_vision.benchmark_data import data_need
from brainscore_vision.report.aggregate import STANDARD_PARENTS

#: benchmarks on Brain-Score's public data load it from its bucket (no network in tests): covered by
#: test_public_reference_benchmarks.py with a local S3 server instead
REMOTE_MODULE = "brainscore_vision.benchmarks.public_reference"
REGISTERED = sorted(info.identifier for info in brainscore_vision.list_plugins("benchmark")
                    if info.distribution == "brainscore-vision")
#: the battery with ceilings runs where the data are shipped; the others (network, local folders) run it on
#: synthetic stand-ins in test_newest_families.py / test_laion_fmri.py, and are built offline here
OWN = [i for i in REGISTERED if data_need(i)[0] in ("shipped", "unavailable")]
NOT_SHIPPED = [i for i in REGISTERED if i not in OWN]


#: every family registers its identifiers here when it is added
FAMILIES = {
    "Cowley2023": ["Cowley2023.V4-pls", "Cowley2023.V4-ridge"],
    "Kriegeskorte2008": ["Kiani2007.mIT-rdm", "Kriegeskorte2008.hIT-rdm"],
    "Coggan2024": [f"tong.Coggan2024_fMRI.{region}-rdm" for region in ("V1", "V2", "V4", "IT")],
    "Geirhos2021": [f"Geirhos2021{dataset}-{kind}" for kind in ("error_consistency", "top1") for dataset in (
        "colour", "contrast", "cueconflict", "edge", "eidolonI", "eidolonII", "eidolonIII", "falsecolour", "highpass",
        "lowpass", "phasescrambling", "powerequalisation", "rotation", "silhouette", "sketch", "stylized",
        "uniformnoise")] + ["Geirhos2021cueconflict-shape_bias"],
    "Marques2020": [f"Marques2020_Ringach2002-{name}" for name in (
        "circular_variance", "or_bandwidth", "orth_pref_ratio", "or_selective", "cv_bandwidth_ratio", "opr_cv_diff",
        "modulation_ratio", "max_dc")]
    + [f"Marques2020_Cavanaugh2002-{name}" for name in (
        "grating_summation_field", "surround_diameter", "surround_suppression_index")]
    + ["Marques2020_DeValois1982-pref_or", "Marques2020_DeValois1982-peak_sf", "Marques2020_Schiller1976-sf_bandwidth",
       "Marques2020_Schiller1976-sf_selective"]
    + [f"Marques2020_FreemanZiemba2013-{name}" for name in (
        "texture_modulation_index", "abs_texture_modulation_index", "texture_selectivity", "texture_sparseness",
        "texture_variance_ratio", "max_texture", "max_noise")],
    "Hermann2020": ["Hermann2020cueconflict-shape_bias", "Hermann2020cueconflict-shape_match"],
    "muzellec2026": ["MajajHong2015public.V4-reverse_pls", "MajajHong2015public.IT-reverse_pls"],
    "MajajHong2015 temporal": ["MajajHong2015public.V4-temporal-pls", "MajajHong2015public.IT-temporal-pls"],
    "THINGS": ["Gifford2022.IT-ridge", "Gifford2022.IT-ridgecv"]
    + [f"Hebart2023_fmri.{r}-{m}" for r in ("V1", "V2", "V4", "IT") for m in ("ridge", "ridgecv")]
    + [f"Papale2025.{r}-{m}" for r in ("V1", "V4", "IT") for m in ("ridge", "ridgecv")],
    "Allen2022": [f"{p}.{r}-{k}" for p in ("Allen2022_fmri", "Allen2022_fmri_4subj", "Allen2022_fmri_surface",
                                           "Allen2022_fmri_surface_4subj")
                  for r in ("V1", "V2", "V4", "IT") for k in ("ridge", "rdm")],
    "LAION-fMRI": [f"{p}.{r}-{s}-ridgecv" for p in ("Zerbe2026_fmri", "Zerbe2026_fmri_persubject")
                   for r in ("V1", "V2", "V4", "IT") for s in ("tau", "ood")]
    + [f"Zerbe2026_fmri.{r}-{k}" for r in ("V1", "V2", "V4", "IT") for k in ("rdm-pearson", "cka")],
    "ImageNet": ["ImageNet-top1"],
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_own_benchmarks_are_listed(family):
    missing = sorted(set(FAMILIES[family]) - set(REGISTERED))
    assert not missing, f"{family}: not registered: {missing}"


@pytest.mark.parametrize("identifier", [i for i in NOT_SHIPPED if not i.startswith(("MajajHong", "FreemanZiemba",
                                                                                     "Rajalingham"))])
def test_not_shipped_benchmarks_build_offline(identifier):
    benchmark = brainscore_vision.load_benchmark(identifier)  # nothing is loaded yet
    assert benchmark.identifier == identifier
    assert benchmark.bibtex and benchmark.bibtex.lstrip().startswith("@")
    assert isinstance(benchmark.version, int) and callable(benchmark)


@pytest.mark.parametrize("identifier", OWN)
def test_battery(identifier, raw_data_dir):
    benchmark = brainscore_vision.load_benchmark(identifier)
    check_benchmark(benchmark)
    assert benchmark.identifier == identifier
    assert benchmark.bibtex and benchmark.bibtex.lstrip().startswith("@")
    assert benchmark.parent in ("V1", "V2", "V4", "IT", "behavior") or STANDARD_PARENTS.get(benchmark.parent) in (
        "V1", "behavior")


# -- the battery over every registered model, data plugin and ceiling (issue 21, item 10) -----------------------
#: public-catalogue data load from Brain-Score's bucket (no network in tests; covered with a local S3 server)
REMOTE_DATA = "brainscore_vision.data_helpers.public_catalogue"
#: data from Brain-Score's bucket or from local folders (THINGS, NSD, LAION-fMRI): their loaders are tested on
#: synthetic stand-ins (test_newest_families.py, test_laion_fmri.py)
NOT_SHIPPED_DATA = ("brainscore_vision.data.things", "brainscore_vision.data.allen2022",
                    "brainscore_vision.data.laion_fmri")
OWN_DATA = sorted(info.identifier for info in brainscore_vision.list_plugins("data")
                  if info.module != REMOTE_DATA and not (info.module or "").startswith(NOT_SHIPPED_DATA))
OWN_STIMULI = sorted(info.identifier for info in brainscore_vision.list_plugins("stimulus_set")
                     if info.module != REMOTE_DATA and not (info.module or "").startswith(NOT_SHIPPED_DATA))
#: models that run offline here (the pretrained ones need weight files); the others' architectures are tested
#: in model-tools
OFFLINE_MODELS = ["pixels", "randomnet", "alexnet-random", "resnet18-random", "cornet_z-random"]


@pytest.fixture(scope="module")
def few_real_stimuli(raw_data_dir):
    stimuli = brainscore_vision.load_stimulus_set("Kriegeskorte2008")
    few = stimuli.iloc[:6].copy()
    few.identifier = "Kriegeskorte2008-first6"
    return few


@pytest.mark.parametrize("identifier", OFFLINE_MODELS)
def test_model_battery(identifier, few_real_stimuli):
    from brainscore_core.testing import check_brain_model

    check_brain_model(brainscore_vision.load_model(identifier), few_real_stimuli)


@pytest.mark.parametrize("identifier", OWN_DATA)
def test_data_plugin_battery(identifier, raw_data_dir):
    from brainscore_core.testing import check_data_plugin

    check_data_plugin(identifier, brainscore_vision.load_dataset(identifier))


#: registered, but their images exist neither in the raw data nor offline (the load raises a clear error, tested in
#: test_marques2020_data.py)
UNAVAILABLE_STIMULI = {"FreemanZiemba2013_properties"}


@pytest.mark.parametrize("identifier", [i for i in OWN_STIMULI if i not in UNAVAILABLE_STIMULI and (
    not i.startswith("Geirhos2021") or i in ("Geirhos2021_cue-conflict", "Geirhos2021_edge"))])
def test_stimulus_set_plugin_battery(identifier, raw_data_dir):
    from brainscore_core.testing import check_data_plugin

    check_data_plugin(identifier, brainscore_vision.load_stimulus_set(identifier))


def test_ceiling_battery_on_real_data(raw_data_dir):
    from brainscore_core.testing import check_ceiling

    cowley = brainscore_vision.load_dataset("Cowley2023")  # single trials of session 210325: repetitions kept
    check_ceiling(brainscore_vision.load_ceiling("internal_consistency"), cowley)
    check_ceiling(brainscore_vision.load_ceiling("rsa_ceiling"), brainscore_vision.load_dataset("Kriegeskorte2008.hIT"))
