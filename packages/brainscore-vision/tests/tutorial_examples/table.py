"""The README's table of tutorial examples: ``python tests/tutorial_examples/table.py`` prints it."""

from __future__ import annotations

import sys
from pathlib import Path

from extract import TUTORIALS, extract_examples
from fills import FILLS

__all__ = ["WHAT", "markdown_table"]

#: what each example does, in our words (the tutorials' own text stays in the reference files)
WHAT = {
    "packaging-1": "StimulusSet from a list of rows, file paths, name",
    "packaging-2": "StimulusSet from a CSV (string ids, `filename` renamed, paths from a folder)",
    "packaging-3": "naming a stimulus set and a sub-dataset",
    "packaging-4": "`package_stimulus_set_locally`",
    "packaging-5": "DataAssembly with a free `measurement` dim",
    "packaging-6": "NeuroidAssembly presentation x neuroid x time_bin, regions, attrs",
    "packaging-7": "BehavioralAssembly of correct/incorrect trials",
    "packaging-8": "BehavioralAssembly of choice probabilities",
    "packaging-9": "`package_data_assembly_locally`",
    "packaging-10": "pipeline step 1: StimulusSet from metadata",
    "packaging-11": "pipeline step 2: DataAssembly from data and coords",
    "packaging-12": "data plugin `__init__.py` loading from S3 (registration; a comma the page lost restored)",
    "packaging-13": "data plugin `test.py` (stimulus set and assembly checks)",
    "packaging-14": "troubleshooting: unique stimulus ids",
    "packaging-15": "troubleshooting: missing stimulus files",
    "packaging-16": "troubleshooting: assembly dims",
    "packaging-17": "troubleshooting: string stimulus ids",
    "packaging-18": "troubleshooting: the `filename` column",
    "packaging-19": "troubleshooting: ids of assembly vs stimulus set",
    "packaging-20": "troubleshooting: NaN values",
    "neural-1": "quick-start plugin `__init__.py` (a plugin folder with `benchmark.py`; scored with randomnet)",
    "neural-2": "quick-start `benchmark.py`: NeuralBenchmark with `assembly.mean(dim='repetition')`",
    "neural-3": "`explained_variance(raw_score, ceiling)`",
    "neural-4": "Example 1: MajajHong2015 NeuralBenchmark factory",
    "neural-5": "Example 2: Kar2019 OST benchmark class (`load_metric('ost')`)",
    "neural-6": "Example 3: Papale2025 TrainTestNeuralBenchmark",
    "neural-7": "Example 4: Coggan2024 fMRI RSA benchmark class (scored with randomnet; IT ceiling 0.2397)",
    "neural-8": "`internal_consistency` ceiler for Example 1",
    "neural-9": "CrossRegressedCorrelation's apply/aggregate, as shown",
    "neural-10": "`load_metric('ridge')`, `'ridgecv_split'`",
    "neural-11": "`load_metric('neuron_to_neuron')`",
    "neural-12": "`load_metric('rdm')`, `'rdm_cv'`",
    "neural-13": "`load_metric('cka')`, `'cka_cv'`",
    "neural-14": "`pls` and `pls_split` on fixed train/test assemblies",
    "neural-15": "`spantime_pls`, `spantime_ridge`",
    "neural-16": "repetitions kept for the ceiling (the reader's `load_assembly`)",
    "neural-17": "`pls` stratified on `texture_type`",
    "neural-18": "10-ms time bins and `start_recording`",
    "neural-19": "static vs temporal time bins",
    "neural-20": "region slicing and `assembly.mean(dim='repetition')` (the reader's data, elided arguments given)",
    "neural-21": "property function on `type`/`family`/`sample` coordinates",
    "neural-22": "Pattern 1: NeuralBenchmark without `version` (the reader's `load_assembly`)",
    "neural-23": "Pattern 2: PropertiesBenchmark with `NeuronalPropertyCeiling` (Cavanaugh2002a; ceiling 0.958)",
    "neural-24": "Pattern 3: Bracci2019 RSA benchmark class",
    "neural-25": "your own IT/V4 PLS benchmarks (scored with randomnet)",
    "neural-26": "`parent` values of existing benchmarks (elided arguments given)",
    "neural-27": "MajajHong2015 plugin `__init__.py` registering its private and public benchmarks",
    "neural-28": "MajajHong2015 `test.py` with precomputed AlexNet features",
    "neural-29": "ceiling on non-averaged data",
    "neural-30": "checking stimulus-id alignment",
    "neural-31": "`start_recording('IT', ...)`",
    "neural-32": "checking the `time_bin` dim",
    "neural-33": "printing samples and features",
    "submitting-1": "StimulusSet (submission overview)",
    "submitting-2": "BehavioralAssembly (submission overview)",
    "submitting-3": "BenchmarkBase subclass skeleton",
    "submitting-4": "its registration `__init__.py` (a plugin folder)",
    "submitting-5": "benchmark `test.py` scoring AlexNet",
    "submitting-6": "manual check scoring AlexNet",
    "submitting-7": "packaging stimulus set and assembly locally",
    "submitting-8": "data plugin `__init__.py` loading from S3 (registration)",
    "legacy-1": "1.x: StimulusSet from image files with `image_id` and `image_paths`, upload (lost lines restored)",
    "legacy-2": "1.x: BehavioralAssembly with `image_id` (lost `coords={` restored)",
    "legacy-3": "1.x: stimulus-set test with `brainio.get_stimulus_set`",
    "legacy-4": "1.x: assembly test with `brainscore.get_assembly`",
    "legacy-5": "1.x: I2n benchmark (`BenchmarkBase`, `place_on_screen`, `I2n.ceil_score`; scored with randomnet)",
    "legacy-6": "1.x: the experimental benchmark pool",
    "legacy-7": "1.x: reading pickled activations of result_caching",
    "readme1x-1": "1.x README: `brainscore.get_assembly('dicarlo.Majaj2015')`",
    "readme1x-2": "1.x README: `RDM()(assembly1=..., assembly2=...)` (on the reader's data)",
}


def markdown_table(examples: dict) -> str:
    """One row per example: identifier, where it is, what it does, whether it runs offline."""
    files = {short: name for name, short in TUTORIALS.items()}
    rows = ["| example | where | what | offline |", "|---|---|---|---|"]
    for identifier, example in examples.items():
        fill = FILLS[identifier]
        status = f"runs up to where it needs {fill.needs}" if fill.needs else "runs"
        if fill.data_step:
            status += "; the benchmark is registered, and the next step stops at its data in one line naming the file"
        if fill.legacy:
            status += " (with brainscore-legacy)"
        if fill.note:
            status += f"; {fill.note}"
        rows.append(f"| `{identifier}` | `{files[example.tutorial]}` line {example.line} | {WHAT[identifier]} | "
                    f"{status} |")
    return "\n".join(rows)


if __name__ == "__main__":
    reference = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parents[4].parent / "shared" / "reference"
    found = {e.identifier: e for name in TUTORIALS for e in extract_examples(reference / name)}
    print(markdown_table(found))
