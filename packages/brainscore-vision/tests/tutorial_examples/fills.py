"""What the reader fills in around each tutorial example, and what an example needs that no offline machine has.

A reader copies an example into their own project: names defined earlier in the tutorial or in their own code
(``assembly``, ``stimulus_set``, ``np``) are there, placeholders (``'<authoryear>'``, ``'/path/to/stimuli'``) and
elided arguments (``...``) are theirs, and the captured page's garbling (a lost line, a missing comma) is fixed by
them. :data:`FILLS` holds exactly that per example: code before and after it, substitutions, and for an example that
is a plugin folder the files it goes into. The substitutions are small and each says what it restores.

``needs`` marks an example whose purpose needs something offline machines cannot have here: Brain-Score's S3 data
(private, or public but behind the network), trained weights, or 1.x's pickled caches. Such an example still runs up
to that point (``until``: the first line that needs it), and the test skips with the reason, whose kind of
:data:`brainio.skipping.SKIP_REASONS` is ``needs_kind`` (``network`` by default; ``credentials`` for Brain-Score's
private files and uploads, ``unavailable`` for what this project never makes).
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["FILLS", "Fill", "GENERIC_REPAIRS"]

#: applied to every example: the tutorials elide content with ``...`` in places Python does not accept it
GENERIC_REPAIRS = [
    (r"(?m)^\s*\.\.\.\s*$\n?", ""),          # a line that is only "..." (an elided list or dict entry)
    (r",\s*\.\.\.\s*([}\]])", r"\1"),          # "..., ...}" / "..., ...]": the elided rest of a literal
]

READER = "import reader\nreader.register()\n"
MODEL = "from brainscore_vision import load_model\ncandidate = load_model('randomnet')\n"
NEURAL = READER + "assembly = reader.averaged_assembly()\n"
STIMULI = "stimulus_set = reader.stimulus_set()\n"
PACKAGING_IMPORTS = ("from pathlib import Path\nimport numpy as np\n"
                     "from brainscore_core.supported_data_standards.brainio.stimuli import StimulusSet\n"
                     "from brainscore_core.supported_data_standards.brainio.assemblies import DataAssembly, "
                     "NeuroidAssembly, BehavioralAssembly\n")
S3_MAJAJHONG = "Brain-Score's S3 data: MajajHong2015.public (public bucket, needs a network)"
S3_PRIVATE = "Brain-Score's S3 data: {} (not public)"
ALEXNET = "trained AlexNet weights (torchvision, downloaded)"


@dataclass
class Fill:
    """The reader's part around one example (see the module docstring)."""

    before: str = ""
    after: str = ""
    replace: list[tuple[str, str]] = field(default_factory=list)
    needs: str | None = None
    #: the allow-listed skip kind of ``needs`` (brainio.skipping.SKIP_REASONS)
    needs_kind: str = "network"
    until: str | None = None
    files: dict[str, str] = field(default_factory=dict)
    main: str = ""
    wrap: str | None = None
    legacy: bool = False
    #: for an example that ``needs`` Brain-Score's S3 data: the reader's next step, which loads it; offline (the S3
    #: endpoint a closed local port) it must stop with one line naming the file, not "not registered"
    data_step: str = ""
    #: what else the README's table says about the example
    note: str = ""


FILLS: dict[str, Fill] = {
    # ---- data packaging ----------------------------------------------------------------------------------------
    "packaging-1": Fill(after="assert stimulus_set.identifier == 'MyExperiment2024' and len(stimulus_set) == 4\n"),
    "packaging-2": Fill(
        before="from pathlib import Path\nimport reader\nreader.write_stimuli_csv()\n",
        replace=[(r'"/path/to/stimuli"', "str(reader.raw_data() / 'images')")],
        after="assert all(Path(p).exists() for p in stimulus_set.stimulus_paths.values())\n"
              "assert 'image_filename' in stimulus_set.columns and len(stimulus_set) == 40\n"),
    "packaging-3": Fill(before="import reader\n" + STIMULI,
                        after="assert stimulus_set.identifier == 'MyExperiment2024.condition_A'\n"),
    "packaging-4": Fill(before="import reader\n" + STIMULI,
                        after="from pathlib import Path\nassert (Path.home() / 'Downloads' / 'brainscore_packages' /"
                              " 'stimulus_MyExperiment2024.zip').exists()\n"),
    "packaging-5": Fill(after="assert assembly.dims == ('presentation', 'measurement')\n"),
    "packaging-6": Fill(before="import numpy as np\n",
                        after="assert assembly.sel(region='IT').sizes['neuroid'] == 50\n"),
    "packaging-7": Fill(before="import numpy as np\n", after="assert abs(float(assembly.mean()) - 0.6) < 1e-12\n"),
    "packaging-8": Fill(before=PACKAGING_IMPORTS, after="assert assembly.sizes['choice'] == 3\n"),
    "packaging-9": Fill(
        before="import reader\n" + STIMULI + "assembly = reader.assembly()\n",
        after="from pathlib import Path\nassert (Path.home() / 'Downloads' / 'brainscore_packages' /"
              " 'assy_MyExperiment2024.nc').exists()\n"),
    "packaging-10": Fill(before="import reader\n" + PACKAGING_IMPORTS +
                                "metadata_df = reader.stimulus_set()[['stimulus_id', 'category']]\n",
                         replace=[(r"for stim_id, path in \.\.\.\}", "for stim_id, path in reader.stimulus_paths().items()}")]),
    "packaging-11": Fill(before="import reader\n" + PACKAGING_IMPORTS +
                                "reader_assembly = reader.assembly()\ndata = reader_assembly.values\n"
                                "coords = {name: (reader_assembly[name].dims, reader_assembly[name].values) "
                                "for name in reader_assembly.coords}\n",
                         replace=[(r"coords=\{\.\.\.\}", "coords=coords")]),
    "packaging-12": Fill(replace=[(r'(bucket="brainscore-storage/brainscore-vision/data/\.\.\.")(\s*#)', r"\1,\2")],
                         after="assert 'MyExperiment2024' in data_registry and "
                               "'MyExperiment2024' in stimulus_set_registry\n"),
    "packaging-13": Fill(
        before=READER,
        replace=[(r"== 100  # Replace with your expected count", "== 40  # Replace with your expected count"),
                 (r"\)\) == 100", ")) == 40")],
        after="for case in (TestStimulusSet, TestAssembly):\n"
              "    for name in dir(case):\n"
              "        if name.startswith('test'):\n"
              "            getattr(case(), name)()\n"),
    "packaging-14": Fill(before="import reader\n" + STIMULI),
    "packaging-15": Fill(before="from pathlib import Path\nimport reader\n" + STIMULI),
    "packaging-16": Fill(before="import reader\nassembly = reader.assembly()\n"),
    "packaging-17": Fill(before="import reader\nimport pandas as pd\n" + PACKAGING_IMPORTS +
                                "df = pd.read_csv(reader.write_stimuli_csv())\nstimulus_ids = range(1, 41)\n",
                         after="assert all(isinstance(i, str) for i in coords['stimulus_id'][1])\n"),
    "packaging-18": Fill(before="import pandas as pd\nimport reader\ndf = pd.read_csv(reader.write_stimuli_csv())\n",
                         after="assert 'image_filename' in df.columns\n"),
    "packaging-19": Fill(before="import reader\n" + STIMULI + "assembly = reader.assembly()\n",
                         after="assert not missing\n"),
    "packaging-20": Fill(before="import numpy as np\nimport reader\nassembly = reader.assembly()\n",
                         after="assert nan_count == 0\n"),
    # ---- neural benchmarks -------------------------------------------------------------------------------------
    "neural-1": Fill(files={"yourbenchmark/__init__.py": "neural-1", "yourbenchmark/benchmark.py": "neural-2"},
                     main=READER + "import yourbenchmark\nfrom brainscore_vision import score\n"
                          "result = score('randomnet', 'YourBenchmark.IT-pls', store=False)\n"
                          "print(float(result), float(result.attrs['ceiling']))\n"
                          "assert 0 < float(result.attrs['ceiling']) <= 1\n"),
    "neural-2": Fill(before=READER, after="benchmark = YourBenchmarkIT()\n"
                                          "assert benchmark.identifier == 'YourBenchmark.IT-pls' and benchmark.region == 'IT'\n"
                                          "print(float(benchmark.ceiling))\n"),
    "neural-3": Fill(before="from brainscore_vision.benchmarks import explained_variance\n"
                            "from brainscore_core.metrics import Score\nraw_score, ceiling = Score(0.65), Score(0.82)\n",
                     replace=[(r"^explained_variance\(", "ceiled = explained_variance(")],
                     after="assert abs(float(ceiled) - 0.65 ** 2 / 0.82) < 1e-12\n"),
    "neural-4": Fill(before="from brainscore_vision.benchmark_helpers.neural_common import NeuralBenchmark\n"
                            "from brainscore_core.metrics import Metric, Ceiling\n"
                            "from brainscore_vision.benchmarks.majajhong2015.benchmark import load_assembly, BIBTEX\n",
                     needs=S3_MAJAJHONG),
    "neural-5": Fill(before="import numpy as np\nfrom brainscore_core.metrics import Score\nBIBTEX = ''\n",
                     needs=S3_PRIVATE.format("Kar2019"), needs_kind="credentials", data_step="DicarloKar2019OST()\n"),
    "neural-6": Fill(before="from brainscore_vision import load_dataset, load_metric\nBIBTEX = ''\n",
                     needs="Brain-Score's S3 data: Papale2025_train / _test (public bucket, needs a network)"),
    "neural-7": Fill(
        before="import numpy as np\nfrom brainscore_vision import load_dataset, load_model\n"
               "from brainscore_vision.benchmarks.coggan2024_fMRI.benchmark import BIBTEX, RSA, ceiler, get_ceiling, "
               "get_score\n",
        after="benchmark = _Coggan2024_Region('IT')\n"
              "assert abs(float(get_ceiling(benchmark._assembly)) - 0.2397) < 1e-4\n"
              "score = benchmark(load_model('randomnet'))\nprint(float(score))\n"
              "assert float(score) >= 0 and abs(float(score.attrs['ceiling']) - 0.2397) < 1e-4\n"),
    "neural-8": Fill(before="from brainscore_vision import load_metric\n",
                     needs=S3_MAJAJHONG + " (and Example 1's _DicarloMajajHong2015Region)", until=r"^benchmark = "),
    "neural-9": Fill(before="from brainscore_core.metrics import Metric, Score\n"
                            "from brainscore_vision.metrics import DataAssembly\n",
                     after="assert callable(CrossRegressedCorrelation.apply)\n"),
    "neural-10": Fill(before="from brainscore_vision import load_metric\n"),
    "neural-11": Fill(before="from brainscore_vision import load_metric\n"),
    "neural-12": Fill(before="from brainscore_vision import load_metric\n"),
    "neural-13": Fill(before="from brainscore_vision import load_metric\n"),
    "neural-14": Fill(
        before="from brainscore_vision import load_metric\nimport reader\n"
               "model, neural = reader.model_assembly(), reader.averaged_assembly()\n"
               "source_train, source_test = model.isel(presentation=slice(0, 30)), model.isel(presentation=slice(30, None))\n"
               "target_train, target_test = neural.isel(presentation=slice(0, 30)), neural.isel(presentation=slice(30, None))\n",
        replace=[(r"load_metric\('pls_split'\)", "load_metric('pls_split', regression_kwargs=dict(n_components=10))")],
        after="print(float(score))\nassert -1 <= float(score) <= 1\n"),
    "neural-15": Fill(before="from brainscore_vision import load_metric\n"),
    "neural-16": Fill(before=READER + "from brainscore_vision import load_ceiling\n"
                             "from reader import load_assembly  # the reader's own loader (their data)\n"
                             "ceiler = load_ceiling('internal_consistency')\n",
                      after="print(float(ceiling_func()))\nassert 0 < float(ceiling_func()) <= 1\n"),
    "neural-17": Fill(before="from brainscore_vision import load_metric\n"),
    "neural-18": Fill(before=MODEL),
    "neural-19": Fill(after="assert len(TIME_BINS) == 18\n"),
    "neural-20": Fill(
        before=READER + "from brainscore_vision import load_dataset, load_metric, load_ceiling\n"
               "from brainscore_vision.benchmark_helpers.neural_common import NeuralBenchmark\n",
        replace=[(r"load_dataset\('MajajHong2015'\)", "load_dataset('MyExperiment2024')  # the reader's data"),
                 (r"identifier='MajajHong2015\.(IT|V4)-pls', \.\.\.\)",
                  r"identifier='MyExperiment2024.\1-pls', version=1, assembly=load_assembly('\1', True), "
                  r"similarity_metric=load_metric('pls', regression_kwargs=dict(n_components=10)), visual_degrees=8, "
                  r"number_of_trials=3, ceiling_func=lambda: load_ceiling('internal_consistency')("
                  r"load_assembly('\1', False)))")],
        after="assert benchmark_IT.region == 'IT' and benchmark_V4.region == 'V4'\nprint(float(benchmark_V4.ceiling))\n"),
    "neural-21": Fill(
        before="import numpy as np\nimport xarray as xr\n"
               "from brainscore_vision.benchmark_helpers import properties_common\n"
               "n_neuroids = 3\n"
               "# the tutorial calls it with (texture, noise); Brain-Score's own takes one (noise, texture) array\n"
               "def calc_texture_modulation(texture, noise):\n"
               "    return properties_common.calc_texture_modulation(np.stack([noise.mean(-1), texture.mean(-1)], -2))\n",
        after="rng = np.random.default_rng(0)\n"
              "responses = xr.DataArray(rng.random((3, 2 * 4 * 5)), dims=['neuroid', 'presentation'], coords={\n"
              "    'type': ('presentation', np.repeat([1, 2], 20)), 'family': ('presentation', np.tile(np.repeat(range(4), 5), 2)),\n"
              "    'sample': ('presentation', np.tile(range(5), 8))})\n"
              "freemanziemba2013_properties(responses, None)\n"),
    "neural-22": Fill(before=READER + "from brainscore_vision import load_metric, load_ceiling\n"
                             "from reader import load_assembly  # the reader's own loader (their data)\n"
                             "ceiler = load_ceiling('internal_consistency')\nBIBTEX = '@article{...}'\n",
                      after="benchmark = DicarloMajajHong2015ITPLS()\n"
                            "assert benchmark.version == 1  # the example gives none; NeuralBenchmark's default\n"
                            "print(float(benchmark.ceiling))\nassert 0 < float(benchmark.ceiling) <= 1\n"),
    "neural-23": Fill(
        before="from brainscore_vision import load_dataset, load_metric\n"
               "from brainscore_vision.metrics.distribution_similarity import NeuronalPropertyCeiling\n"
               "from brainscore_vision.benchmarks.marques2020.benchmarks.cavanaugh2002a_benchmark import (\n"
               "    BIBTEX, cavanaugh2002_properties)\n",
        after="benchmark = MarquesCavanaugh2002V1SurroundSuppressionIndex()\nprint(float(benchmark.ceiling))\n"
              "assert abs(float(benchmark.ceiling) - 0.958) < 0.005  # Brain-Score's test.py: 0.958\n"),
    "neural-24": Fill(before="from brainscore_vision import load_dataset, load_metric, load_stimulus_set\n"
                             "from brainscore_vision.model_interface import BrainModel\nBIBTEX = ''\n",
                      needs=S3_PRIVATE.format("Bracci2019"), needs_kind="credentials",
                      data_step="_Bracci2019RSA('anteriorVTC')\n"),
    "neural-25": Fill(before=READER, after="it, v4 = MyExperiment2024ITPLS(), MyExperiment2024V4PLS()\n"
                                           "assert (it.region, v4.region) == ('IT', 'V4')\n"
                                           "from brainscore_vision import load_model\n"
                                           "score = v4(load_model('randomnet'))\n"
                                           "print(float(score), float(score.attrs['ceiling']))\n"
                                           "assert 0 < float(score.attrs['ceiling']) <= 1\n"),
    "neural-26": Fill(
        before=READER + "from brainscore_vision import load_metric, load_ceiling\n"
               "from brainscore_vision.benchmarks import BenchmarkBase\n"
               "from brainscore_vision.benchmark_helpers.neural_common import NeuralBenchmark\n"
               "region, metric = 'IT', 'pls'\nassembly = reader.averaged_assembly('IT')\n"
               "REST = dict(version=1, assembly=assembly, similarity_metric=load_metric('pls'), visual_degrees=8, "
               "number_of_trials=3, ceiling_func=lambda: 0.8)\n",
        replace=[(r"super\(\)\.__init__\(", "BenchmarkBase("),
                 (r"(parent=region, # 'V4' or 'IT'|parent=region, # 'V1', 'V2', 'V4', 'IT'|parent=region,)\s*\n(\s*)\.\.\.",
                  r"\1\n\2**REST"),
                 (r"(parent='IT',)\s*\n(\s*)\.\.\.", r"\1\n\2version=2, ceiling_func=lambda: 0.79")]),
    "neural-27": Fill(until=r"^from \.benchmark import", needs=S3_PRIVATE.format("MajajHong2015.private, for DicarloMajajHong2015{V4,IT}PLS") +
                            "; a plugin folder is found by its entry point (plugin-folder discovery is issue 28's)",
                      needs_kind="credentials",
                      data_step="from brainscore_vision.benchmarks.majajhong2015.benchmark import DicarloMajajHong2015ITPLS\n"
                                "DicarloMajajHong2015ITPLS().ceiling\n"),
    "neural-28": Fill(before="from pathlib import Path\nfrom pytest import approx\n"
                            "from brainscore_vision.benchmark_helpers.test_helper import run_test\n",
                      needs=ALEXNET + " and Brain-Score's precomputed private features "
                                      "(alexnet-majaj2015.private-features.12.nc)", needs_kind="credentials"),
    "neural-29": Fill(before="ceiler, assembly_repetition = (lambda data: data), None\n"),
    "neural-30": Fill(before="import reader\nmodel_assembly = reader.model_assembly()\n"
                             "biological_assembly = reader.averaged_assembly()\n"),
    "neural-31": Fill(before=MODEL),
    "neural-32": Fill(before="import reader\nassembly = reader.assembly()\n"),
    "neural-33": Fill(before="import reader\nassembly = reader.assembly()\n"),
    # ---- submitting benchmarks ---------------------------------------------------------------------------------
    "submitting-1": Fill(after="assert stimulus_set.identifier == 'MyExperiment2024'\n"),
    "submitting-2": Fill(before="import reader\ntrials = reader.legacy_trials()\nresponse_data = trials.values\n"
                                "stimulus_ids = trials['stimulus_id'].values\nsubject_ids = ['s1'] * len(trials)\n"
                                "conditions = ['easy'] * len(trials)\n",
                         after="assert assembly.sizes['presentation'] == 1200\n"),
    "submitting-3": Fill(before=READER + "from brainscore_vision import load_dataset, load_stimulus_set, load_metric\n",
                         after="benchmark = MyExperiment2024Benchmark()\n"
                               "assert benchmark.identifier == 'MyExperiment2024-accuracy' and benchmark.version == 1\n"),
    "submitting-4": Fill(files={"myexperiment2024/__init__.py": "submitting-4",
                                "myexperiment2024/benchmark.py": "submitting-3"},
                         main=READER + "import myexperiment2024\nfrom brainscore_vision import load_benchmark\n"
                              "assert load_benchmark('MyExperiment2024-accuracy').identifier == "
                              "'MyExperiment2024-accuracy'\n"),
    "submitting-5": Fill(needs=ALEXNET + " (test_benchmark_runs scores load_model('alexnet'))"),
    "submitting-6": Fill(before=READER + "import myexperiment2024  # the reader's plugin (submitting-3, -4)\n",
                         files={"myexperiment2024/__init__.py": "submitting-4",
                                "myexperiment2024/benchmark.py": "submitting-3"},
                         needs=ALEXNET, until=r"^model = load_model\('alexnet'\)"),
    "submitting-7": Fill(before="import reader\n" + STIMULI + "assembly = reader.assembly()\n",
                         after="from pathlib import Path\nassert (Path.home() / 'Downloads' / 'brainscore_packages' /"
                               " 'assy_MyExperiment2024.nc').exists()\n"),
    "submitting-8": Fill(after="assert 'MyExperiment2024' in data_registry\n"),
    # ---- the 1.x tutorial and README (brainscore-legacy) ----------------------------------------------------------
    "legacy-1": Fill(
        legacy=True, before="import brainscore\nimport reader\nstimuli_directory = reader.raw_data() / 'images'\n",
        replace=[(r"\.glob\('\*\.png'\)", ".glob('k92_00*.png')"),
                 # the capture lost the line that appends each row: "stimuli.append({" ... "})"
                 (r"(\n(\s*)image_paths\[image_id\] = filepath\n)\s*'image_id'", r"\1\2stimuli.append({\n\2    'image_id'"),
                 (r"(image_path_within_store' to define the filename in the packaged stimuli\n)", r"\1    })\n"),
                 # and the identifier's own line: "stimuli.identifier = '<AuthorYear>'"
                 (r"stimuli\.image_paths = image_paths = '<AuthorYear>'",
                  "stimuli.image_paths = image_paths\nstimuli.identifier = 'AuthorYear2021'"),
                 (r"== 1600", "== 9")],
        needs="an upload to Brain-Score's S3 (package_stimulus_set to 'brainio-contrib': credentials)",
        needs_kind="credentials",
        until=r"^package_stimulus_set\("),
    "legacy-2": Fill(
        legacy=True, before="import brainscore\nimport reader\ntrials = reader.legacy_trials()\n"
                            "choices, image_ids = list(trials.values), list(trials['image_id'].values)\n"
                            "samples, distractors = list(trials['sample_obj'].values), list(trials['dist_obj'].values)\n",
        replace=[(r"BehavioralAssembly\(\['dog', 'dog', 'cat', 'dog', \.\.\.\],",
                  "BehavioralAssembly(choices, coords={'choice': ('presentation', choices),"),  # lost: coords={...
                 (r"\['image1', 'image2', 'image3', 'image4', \.\.\.\]", "image_ids"),
                 (r"\['dog', 'cat', 'cat', 'dog', \.\.\.\]", "samples"),
                 (r"\['cat', 'dog', 'dog', 'cat', \.\.\.\]", "distractors"),
                 (r"(\n\s*)dims=\['presentation'\]\) = '<authoryear>'", r"\1},\1dims=['presentation'])\nassembly.name = 'AuthorYear2021'"),
                 (r"== 179660", "== 1200"), (r"== 1600", "== 48"),
                 (r"\\\n*$", "\\\n    == len(set(assembly['distractor_object'].values)) == 4\n")],  # lost continuation
        after="assert assembly.sizes['presentation'] == 1200\n"),
    "legacy-3": Fill(legacy=True, before="import brainio\nimport brainscore\n" + READER,
                     wrap="test_authoryear2021",
                     replace=[(r"'<authoryear>'", "'AuthorYear2021'"), (r"== 123 ", "== 48 "), (r"== 12 ", "== 48 "),
                              (r"\{'dog', 'cat'\}", "{'body', 'face', 'animalbody', 'animalface'}")]),
    "legacy-4": Fill(legacy=True, before="import numpy as np\nimport brainscore\n" + READER,
                     wrap="test_authoryear2021",
                     replace=[(r"'<authoryear>'", "'AuthorYear2021'"), (r"\)\) == 123 ", ")) == 48 "),
                              (r"== 123456", "== 1200"), (r"\) == 123 ", ") == 48 ")]),
    "legacy-5": Fill(
        legacy=True, before=READER,
        replace=[(r"'<authoryear>'", "'AuthorYear2021'"),
                 (r"(journal = \{bioRxiv\})\n", r'\1}"""\n'),  # lost: the string's end
                 # lost: the rest of the super().__init__ call
                 (r"(ceiling_func=lambda: self\._metric\.ceiling\(self\._assembly\),)\n",
                  r"\1 identifier='AuthorYear2021-i2n', version=1, parent='behavior', bibtex=BIBTEX)\n"),
                 # lost: each place_on_screen call's last argument
                 (r"(target_visual_degrees=candidate\.visual_degrees\(\),)\n",
                  r"\1 source_visual_degrees=self._visual_degrees)\n")],
        # Brain-Score's own I2n stops on this small trial set (its ceiling asserts: a half without d' where the
        # other has one); ours stops there too, in one line (brainscore-metrics test_behavior.py)
        after="from brainscore_vision import load_model\nfrom brainscore_metrics.errors import BehaviorInputError\n"
              "benchmark = AuthorYearI2n()\ntry:\n    benchmark(load_model('randomnet'))\n"
              "except BehaviorInputError as error:\n    print('stops where Brain-Score stops:', error)\n"
              "else:\n    raise AssertionError('the ceiling of this small trial set should stop as Brain-Score stops')\n",
        note="on the reader's 1,200 trials the ceiling stops in one line (`BehaviorInputError`: a half without d' where "
             "the other has one), where Brain-Score's own I2n stops (an assertion), instead of the NaN it scored before; "
             "raw score and `skipna` ceiling equal Brain-Score's (brainscore-metrics `test_behavior.py`)"),
    "legacy-6": Fill(
        legacy=True, before=READER + "from brainscore.utils import LazyLoad\n",
        files={"authoryear2021.py": "legacy-5"},
        replace=[(r"# \.\.\.", "pool = {}  # the 1.x pool: today, brainscore.benchmarks.benchmark_pool (the registry)"),
                 (r"from \.<authoryear> import <AuthorYear>I2n", "from authoryear2021 import AuthorYearI2n"),
                 (r"'<authoryear>-i2n'\] = LazyLoad\(<AuthorYear>I2n\)", "'AuthorYear2021-i2n'] = LazyLoad(AuthorYearI2n)")],
        after="pool = _experimental_benchmark_pool()\nassert pool['AuthorYear2021-i2n'].identifier == 'AuthorYear2021-i2n'\n"),
    "legacy-7": Fill(until=r"^activations = pd\.read_pickle", needs="Brain-Score 1.x's pickled activations cache (result_caching) of an AlexNet run: trained "
                           "weights, and a pickle this project never writes", needs_kind="unavailable"),
    "readme1x-1": Fill(legacy=True, needs=S3_MAJAJHONG + " ('dicarlo.Majaj2015' is today's 'MajajHong2015.public')",
                       until=r"^data = brainscore\.get_assembly"),
    "readme1x-2": Fill(legacy=True, before="import reader\ndata = reader.averaged_assembly()  # the reader's data\n",
                       after="print(float(score))\nassert abs(float(score) - 1) < 1e-9\n"),
}
