"""Brain-Score's newest benchmark helpers on fixed inputs: the expected values of tests/test_newest_helpers.py.

Run in a throwaway venv with brainscore-vision 2.4.2 (its ``benchmark_helpers`` and ``metric_helpers`` files are
byte-identical to brain-score/vision at commit c642dbe42aae3ed064bc0b66f70a80b264021164)::

    python3.11 -m venv /tmp/ref30venv && /tmp/ref30venv/bin/pip install -c constraints.txt brainscore-vision==2.4.2
    /tmp/ref30venv/bin/python benchmarks/reference_newest_helpers.py > tests/data/reference_newest_helpers.json

The inputs are built from plain numpy (``default_rng``) by the functions below, which the tests import too.
"""

from __future__ import annotations

import datetime
import json
import sys

import numpy as np

REFERENCE_COMMIT = "c642dbe42aae3ed064bc0b66f70a80b264021164"


# ------------------------------------------------------------------------------------------------ inputs
def neuroid_wise_inputs():
    """(per-neuroid r (12,), ceiling values (3 splits, 12), subject of each neuroid); one r is NaN."""
    rng = np.random.default_rng(51)
    r = rng.uniform(0.1, 0.8, 12)
    r[5] = np.nan
    return r, rng.uniform(0.5, 0.95, (3, 12)), [f"sub{i % 3}" for i in range(12)]


def flatten_inputs():
    """(values (5, 3, 4), time bin starts, ends)."""
    rng = np.random.default_rng(52)
    return rng.standard_normal((5, 3, 4)), [0.0, 0.01, 0.02, 0.03], [0.01, 0.02, 0.03, 0.04]


def time_align_inputs():
    """(source bins, target bins, values (4 presentations, 2 neuroids, n source bins))."""
    source = [(t, t + 10) for t in range(0, 100, 10)]
    target = [(0, 15), (15, 40), (40, 45), (50, 100), (0, 100)]
    rng = np.random.default_rng(53)
    return source, target, rng.standard_normal((4, 2, len(source)))


def bootstrap_inputs():
    """(values over 5 subjects, values over 4 subjects x 6 stimuli with one NaN)."""
    rng = np.random.default_rng(54)
    two = rng.standard_normal((4, 6))
    two[1, 2] = np.nan
    return rng.uniform(0.2, 0.6, 5), two


def children_inputs():
    """Per child: (ceiled score, raw per-neuroid values (3,), ceiling)."""
    rng = np.random.default_rng(55)
    return [(float(rng.uniform(0.2, 0.6)), rng.uniform(0.3, 0.7, 3), float(rng.uniform(0.6, 0.9)))
            for _ in range(4)]


# ------------------------------------------------------------------------------------------------- reference
def main():
    from importlib.metadata import version

    from brainscore_core.metrics import Score
    from brainscore_core.supported_data_standards.brainio.assemblies import NeuroidAssembly
    from brainscore_vision.benchmark_helpers.multi_subject import (
        KFoldNeuralBenchmark,
        MultiSubjectNeuralBenchmark,
    )
    from brainscore_vision.benchmark_helpers.neural_common import (
        flatten_timebins_into_neuroids,
        neuroid_wise_explained_var,
    )
    from brainscore_vision.metric_helpers.bootstrap_error import bootstrap_error
    from brainscore_vision.model_helpers.brain_transformation.temporal import assembly_time_align, time_align

    out = {"reference_commit": REFERENCE_COMMIT, "brainscore_vision": version("brainscore-vision"),
           "date": datetime.date.today().isoformat()}
    r, ceilings, subjects = neuroid_wise_inputs()
    neuroid_coords = {"neuroid_id": ("neuroid", [f"n{i}" for i in range(12)]), "subject": ("neuroid", subjects)}
    score = Score(float(np.nanmedian(r)))
    score.attrs["raw"] = Score(r, coords=neuroid_coords, dims=["neuroid"])
    ceiling = Score(float(np.mean(np.median(ceilings, axis=1))))
    ceiling.attrs["raw"] = Score(ceilings, coords={"split": [0, 1, 2], **neuroid_coords}, dims=["split", "neuroid"])
    ceiled = neuroid_wise_explained_var(score, ceiling)
    out["neuroid_wise"] = {"value": float(ceiled), "ceiled_scores": ceiled.attrs["ceiled_scores"].values.tolist()}

    values, starts, ends = flatten_inputs()
    assembly = NeuroidAssembly(values, coords={
        "stimulus_id": ("presentation", [f"s{i}" for i in range(5)]), "repetition": ("presentation", [0] * 5),
        "neuroid_id": ("neuroid", ["a", "b", "c"]), "channel": ("neuroid", ["Fz", "Cz", "Pz"]),
        "time_bin_start": ("time_bin", starts), "time_bin_end": ("time_bin", ends)},
        dims=["presentation", "neuroid", "time_bin"])
    flat = flatten_timebins_into_neuroids(assembly)
    out["flatten"] = {"values": flat.values[:, :, 0].tolist(), "neuroid_id": flat["neuroid_id"].values.tolist(),
                      "recording_time": flat["recording_time"].values.tolist(),
                      "time_bin_start": flat["time_bin_start"].values.tolist(),
                      "time_bin_end": flat["time_bin_end"].values.tolist()}

    source, target, values = time_align_inputs()
    out["time_align"] = {"weights": time_align(source, target).tolist()}
    assembly = NeuroidAssembly(values, coords={
        "stimulus_id": ("presentation", [f"s{i}" for i in range(4)]), "image_id": ("presentation", list("abcd")),
        "neuroid_id": ("neuroid", ["n0", "n1"]), "region": ("neuroid", ["IT", "IT"]),
        "time_bin_start": ("time_bin", [b[0] for b in source]), "time_bin_end": ("time_bin", [b[1] for b in source])},
        dims=["presentation", "neuroid", "time_bin"])
    valid = [b for b in target if b != (40, 45)] + [(40, 50)]
    aligned = assembly_time_align(assembly, valid)
    out["assembly_time_align"] = {"target": [list(b) for b in valid],
                                  "values": aligned.transpose("presentation", "neuroid", "time_bin").values.tolist()}

    one, two = bootstrap_inputs()
    out["bootstrap"] = {
        "one_dim": bootstrap_error(Score(one, coords={"subject": list("abcde")}, dims=["subject"]), ["subject"],
                                   n_bootstrap=200),
        "two_dims": bootstrap_error(Score(two, coords={"subject": list("abcd"), "stimulus": list("uvwxyz")},
                                          dims=["subject", "stimulus"]), ["subject", "stimulus"], n_bootstrap=300,
                                    seed=3)}

    children = children_inputs()

    class Child:
        region, version, bibtex, timebins = "IT", 3, "@article{x}", [(0, 0)]

        def __init__(self, key):
            self.value, self.raw, ceiling = children[key if isinstance(key, int) else int(key[-1])]
            self.ceiling = Score(ceiling)

        def __call__(self, candidate):
            score = Score(self.value)
            score.attrs["raw"] = Score(self.raw, coords={"neuroid": [0, 1, 2]}, dims=["neuroid"])
            return score

    subjects = ["sub-0", "sub-1", "sub-2", "sub-3"]
    multi = MultiSubjectNeuralBenchmark("wrapper", subjects, Child)
    score = multi(None)
    out["multi_subject"] = {"value": float(score), "raw": float(score.attrs["raw"]), "error": score.attrs["error"],
                            "sem_subjects": score.attrs["sem_subjects"], "ceiling": float(score.attrs["ceiling"]),
                            "ceiling_error": score.attrs["ceiling"].attrs["error"],
                            "ceiling_direct": float(multi._compute_ceiling())}
    kfold = KFoldNeuralBenchmark("wrapper", 4, Child)
    score = kfold(None)
    out["kfold"] = {"value": float(score), "raw": float(score.attrs["raw"]), "error": score.attrs["error"],
                    "sem_folds": score.attrs["sem_folds"], "ceiling": float(score.attrs["ceiling"])}
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
