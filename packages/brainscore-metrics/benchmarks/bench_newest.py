"""The newest metrics (dual ridge, reverse predictivity, predictor consistency, unbiased CKA) against Brain-Score's
own code: values on the test inputs, and speed on float32 inputs wider than tall.

Brain-Score side: brainscore-vision 2.4.2 from PyPI (its metric, benchmark-helper and muzellec2026 files are
byte-identical to brain-score/vision at commit c642dbe42aae3ed064bc0b66f70a80b264021164), in a throwaway venv::

    python3.11 -m venv /tmp/ref30venv
    /tmp/ref30venv/bin/pip install -c constraints.txt brainscore-vision==2.4.2

Commands (from this package's folder)::

    # the expected values of tests/test_newest_reference.py (written to tests/data/reference_newest.json)
    /tmp/ref30venv/bin/python benchmarks/bench_newest.py values --raw-data ../../../shared/data \
        --out tests/data/reference_newest.json
    # speed: both sides in one run, single calls alternating (ours, reference) --repeat times, medians and ratios
    python benchmarks/bench_newest.py speed --reference-python /tmp/ref30venv/bin/python --repeat 3
    # without arguments (``nox -s benchmarks``): the same, with $BRAINSCORE_REFERENCE_PYTHON as the reference side,
    # or our timings alone when it is not set

Both sides build the same arrays from ``tests/_newest_inputs.py`` (plain numpy) and time only the metric call.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))
import _newest_inputs as inputs  # noqa: E402

REFERENCE_COMMIT = "c642dbe42aae3ed064bc0b66f70a80b264021164"


def _has(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


# ------------------------------------------------------------------------------------------- assemblies
def _assembly(values, ids, neuroid_prefix, objects=None, reference=False, extra=None):
    if reference:
        from brainscore_core.supported_data_standards.brainio.assemblies import NeuroidAssembly
    else:
        from brainio.assemblies import NeuroidAssembly
    coords = {"stimulus_id": ("presentation", list(ids)), "image_id": ("presentation", list(ids)),
              "neuroid_id": ("neuroid", [f"{neuroid_prefix}{i}" for i in range(values.shape[1])]),
              "region": ("neuroid", ["IT"] * values.shape[1])}
    if objects is not None:
        coords["object_name"] = ("presentation", list(objects))
    coords.update(extra or {})
    return NeuroidAssembly(values, coords=coords, dims=["presentation", "neuroid"])


def _reverse_inputs(reference, **sizes):
    model, neural, ids, objects = inputs.reverse_pair(**sizes)
    order = np.random.default_rng(0).permutation(len(ids))  # the model in another stimulus order
    model_assembly = _assembly(model[order], np.asarray(ids)[order], "m", np.asarray(objects)[order], reference)
    return model_assembly, _assembly(neural, ids, "n", objects, reference)


def _split_inputs(reference, **sizes):
    X_train, X_test, Y_train, Y_test, train_ids, test_ids = inputs.split_pair(**sizes)
    return (_assembly(X_train, train_ids, "m", reference=reference), _assembly(X_test, test_ids, "m", reference=reference),
            _assembly(Y_train, train_ids, "n", reference=reference), _assembly(Y_test, test_ids, "n", reference=reference))


def _trial_inputs(reference, **sizes):
    values, images, repetitions = inputs.repetition_trials(**sizes)
    return _assembly(values, images, "n", reference=reference,
                     extra={"repetition": ("presentation", repetitions)})


def _cka_inputs(reference, **sizes):
    source, target, ids = inputs.cka_pair(**sizes)
    return _assembly(source, ids, "m", reference=reference), _assembly(target, ids, "n", reference=reference)


# ----------------------------------------------------------------------------------------------- metrics
def _metrics(reference: bool):
    """name -> (build inputs, call) for either side."""
    if reference:
        from brainscore_vision.metrics.cka.metric import CKA
        from brainscore_vision.metrics.predictor_consistency.ceiling import SplitHalfPredictorConsistency
        from brainscore_vision.metrics.regression_correlation.metric import (
            ReverseCrossRegressedCorrelation,
            ReverseTrainTestSplitCorrelation,
            TrainTestSplitCorrelation,
            dual_ridge_cv_regression,
            dual_ridge_regression,
            pearsonr_correlation,
            pls_regression,
        )

        def reverse(model, neural):
            stratification = "object_name" if _has_coord(model, "object_name") else None
            metric = ReverseCrossRegressedCorrelation(regression=pls_regression(), correlation=pearsonr_correlation(),
                                                      crossvalidation_kwargs={"stratification_coord": stratification})
            return metric(model, neural)

        def reverse_split(st, se, tt, te):
            metric = ReverseTrainTestSplitCorrelation(regression=pls_regression(), correlation=pearsonr_correlation())
            return metric(source_train=st, target_train=tt, source_test=se, target_test=te)

        def dual(st, se, tt, te):
            metric = TrainTestSplitCorrelation(regression=dual_ridge_regression(), correlation=pearsonr_correlation())
            return metric(source_train=st, target_train=tt, source_test=se, target_test=te)

        def dualcv(st, se, tt, te):
            metric = TrainTestSplitCorrelation(regression=dual_ridge_cv_regression(), correlation=pearsonr_correlation())
            return metric(source_train=st, target_train=tt, source_test=se, target_test=te)

        def consistency(trials):
            return SplitHalfPredictorConsistency()(trials)

        def cka(source, target):
            return CKA()(source, target)
    else:
        # metrics' own registrations through core (vision is not a dependency of this package)
        from brainscore_core.plugins import Domain

        domain = Domain("brainscore_vision")
        load_metric, load_ceiling = domain.load_metric, domain.load_ceiling

        def reverse(model, neural):
            stratification = "object_name" if _has_coord(model, "object_name") else None
            return load_metric("reverse_pls", crossvalidation_kwargs={"stratification_coord": stratification})(
                model, neural)

        def reverse_split(st, se, tt, te):
            return load_metric("reverse_pls_split")(source_train=st, target_train=tt, source_test=se, target_test=te)

        def dual(st, se, tt, te):
            return load_metric("dual_ridge_split")(source_train=st, target_train=tt, source_test=se, target_test=te)

        def dualcv(st, se, tt, te):
            return load_metric("dual_ridgecv_split")(source_train=st, target_train=tt, source_test=se, target_test=te)

        def consistency(trials):
            return load_ceiling("predictor_consistency")(trials)

        def cka(source, target):
            return load_metric("cka")(source, target)
    return {"reverse_pls": (_reverse_inputs, reverse), "reverse_pls_split": (_split_reverse_inputs, reverse_split),
            "dual_ridge_split": (_split_inputs, dual), "dual_ridgecv_split": (_split_inputs, dualcv),
            "predictor_consistency": (_trial_inputs, consistency), "cka": (_cka_inputs, cka)}


def _has_coord(assembly, name: str) -> bool:
    """Whether ``assembly`` has coordinate ``name`` (also as a level of Brain-Score's MultiIndexes)."""
    try:
        assembly[name]
    except KeyError:
        return False
    return True


def _split_reverse_inputs(reference, **sizes):
    model, neural, ids, _ = inputs.reverse_pair(**sizes)
    cut = int(0.8 * len(ids))
    return (_assembly(model[:cut], ids[:cut], "m", reference=reference),
            _assembly(model[cut:], ids[cut:], "m", reference=reference),
            _assembly(neural[:cut], ids[:cut], "n", reference=reference),
            _assembly(neural[cut:], ids[cut:], "n", reference=reference))


#: the test inputs (small) and the speed inputs (float32, wider than tall)
VALUE_CASES = {
    "reverse_pls": {}, "reverse_pls_split": {}, "dual_ridge_split": {}, "dual_ridge_split_primal": {"p": 60},
    "dual_ridgecv_split": {}, "dual_ridgecv_split_primal": {"p": 60}, "predictor_consistency": {}, "cka": {},
}
SPEED_CASES = {
    "reverse_pls": {"n": 640, "q": 88, "p": 4000, "dtype": np.float32},
    "reverse_pls_split": {"n": 640, "q": 88, "p": 4000, "dtype": np.float32},
    "dual_ridge_split": {"n_train": 500, "n_test": 125, "p": 20000, "q": 100, "dtype": np.float32},
    "dual_ridgecv_split": {"n_train": 500, "n_test": 125, "p": 20000, "q": 100, "dtype": np.float32},
    "predictor_consistency": {"n_images": 320, "q": 88},
}


def _metric_name(case: str) -> str:
    return case.replace("_primal", "").replace("cowley_", "")


# ------------------------------------------------------------------- real data: Cowley 2023 V4, session 210325
def _cowley_module(reference: bool):
    """tests/_cowley.py, with Brain-Score's NeuroidAssembly standing in for brainio's on the reference side."""
    if reference and "brainio.assemblies" not in sys.modules:
        import types

        from brainscore_core.supported_data_standards.brainio import assemblies

        package, module = types.ModuleType("brainio"), types.ModuleType("brainio.assemblies")
        module.NeuroidAssembly = assemblies.NeuroidAssembly
        package.assemblies = module
        sys.modules.update({"brainio": package, "brainio.assemblies": module})
    import _cowley

    return _cowley


def _cowley_averaged(cowley, trials):
    """Repetition means per image (NaN-free trials), stimulus ids sorted, with an image_type coordinate."""
    ids = np.asarray(trials["stimulus_id"].values)
    unique, codes = np.unique(ids, return_inverse=True)
    sums = np.zeros((len(unique), trials.shape[1]))
    np.add.at(sums, codes, np.asarray(trials.values))
    means = sums / np.bincount(codes)[:, None]
    cls = type(trials)
    return cls(means, coords={"stimulus_id": ("presentation", unique), "image_id": ("presentation", unique),
                              "neuroid_id": ("neuroid", np.asarray(trials["neuroid_id"].values)),
                              "region": ("neuroid", np.asarray(trials["region"].values))},
               dims=["presentation", "neuroid"])


def _with_image_id(assembly):
    return assembly.assign_coords(image_id=("presentation", np.asarray(assembly["stimulus_id"].values)))


def cowley_cases(reference: bool, raw_data_dir: Path) -> dict:
    """name -> arguments of the metric on the real recordings."""
    cowley = _cowley_module(reference)
    trials = cowley.load_trials(raw_data_dir)
    averaged = _cowley_averaged(cowley, trials)
    import csv

    with open(Path(raw_data_dir) / "cowley2023_v4" / f"stimuli_{cowley.SESSION}.csv", newline="") as handle:
        image_ids = [entry["stimulus_id"] for entry in csv.DictReader(handle)]
    values = np.asarray(cowley.image_features(raw_data_dir).values)
    features = type(trials)(values, coords={  # two coordinates per dim: Brain-Score's assemblies need them
        "stimulus_id": ("presentation", image_ids), "image_id": ("presentation", image_ids),
        "neuroid_id": ("neuroid", [f"feature{i:03d}" for i in range(values.shape[1])]),
        "region": ("neuroid", ["features"] * values.shape[1])}, dims=["presentation", "neuroid"])
    pixel_values = np.asarray(cowley.pixel_features(raw_data_dir).values)
    pixels = type(trials)(pixel_values, coords={
        "stimulus_id": ("presentation", image_ids), "image_id": ("presentation", image_ids),
        "neuroid_id": ("neuroid", [f"pixel{i:04d}" for i in range(pixel_values.shape[1])]),
        "region": ("neuroid", ["pixels"] * pixel_values.shape[1])}, dims=["presentation", "neuroid"])
    ids = np.asarray(averaged["stimulus_id"].values)
    train, test = ids[:512], ids[512:]

    def rows(assembly, chosen):
        return assembly.isel(presentation=np.flatnonzero(np.isin(assembly["stimulus_id"].values, chosen)))

    split = (rows(pixels, train), rows(pixels, test), rows(averaged, train), rows(averaged, test))
    return {"cowley_predictor_consistency": (_with_image_id(trials),),
            "cowley_reverse_pls": (features, averaged),
            "cowley_dual_ridge_split": split, "cowley_dual_ridgecv_split": split,
            "cowley_cka": (pixels, averaged)}


def _summary(score) -> dict:
    raw = score.attrs.get("raw")
    out = {"value": float(score)}
    if raw is not None and getattr(raw, "ndim", 0) >= 1:
        values = np.asarray(raw.values, dtype=float)
        out["raw_median_per_row"] = (np.nanmedian(values, axis=-1).ravel().tolist() if values.ndim == 2
                                     else [float(np.nanmedian(values))])
        out["raw_nan_count"] = int(np.isnan(values).sum())
    error = score.attrs.get("error")
    if error is not None:
        out["error"] = float(error)
    if "alpha" in score.attrs:
        out["alpha"] = float(np.asarray(score.attrs["alpha"]).ravel()[0])
    return out


def run_values(reference: bool, raw_data_dir: Path | None = None) -> dict:
    metrics = _metrics(reference)
    results = {}
    if raw_data_dir is not None:
        for case, arguments in cowley_cases(reference, raw_data_dir).items():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                results[case] = _summary(metrics[_metric_name(case)][1](*arguments))
    for case, sizes in VALUE_CASES.items():
        build, call = metrics[_metric_name(case)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            arguments = build(reference, **sizes)
            arguments = arguments if isinstance(arguments, tuple) else (arguments,)
            results[case] = _summary(call(*arguments))
    return results


def run_speed(reference: bool, repeat: int, cases) -> dict:
    metrics = _metrics(reference)
    out = {}
    for case in cases:
        build, call = metrics[_metric_name(case)]
        with warnings.catch_warnings():  # warm-up, untimed: lazy imports, BLAS threads (on the small test inputs)
            warnings.simplefilter("ignore")
            small = build(reference)
            call(*(small if isinstance(small, tuple) else (small,)))
        arguments = build(reference, **SPEED_CASES[case])
        arguments = arguments if isinstance(arguments, tuple) else (arguments,)
        times, value = [], None
        for _ in range(repeat):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                start = time.perf_counter()
                score = call(*arguments)
                times.append(time.perf_counter() - start)
            value = float(score)
        out[case] = {"median_s": statistics.median(times), "times_s": times, "value": value}
    return out


def _distribution_version(name: str) -> str | None:
    """The installed version of distribution ``name`` (the reference side's brainscore-vision: 2.4.2), or None."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    values = sub.add_parser("values")
    values.add_argument("--out", type=Path)
    values.add_argument("--raw-data", type=Path, default=None,
                        help="the real-data folder (cowley2023_v4/): adds the Cowley 2023 cases")
    side = sub.add_parser("side")  # one side's timings as JSON on stdout (used by `speed`)
    side.add_argument("--repeat", type=int, default=3)
    side.add_argument("--cases", nargs="*", default=list(SPEED_CASES))
    speed = sub.add_parser("speed")
    speed.add_argument("--reference-python", default=os.environ.get("BRAINSCORE_REFERENCE_PYTHON"))
    speed.add_argument("--repeat", type=int, default=3)
    speed.add_argument("--cases", nargs="*", default=list(SPEED_CASES))
    argv = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(argv or ["speed"])
    reference = not _has("brainscore_metrics")
    if args.command == "values":
        result = {"side": "reference" if reference else "ours", "reference_commit": REFERENCE_COMMIT,
                  "brainscore_vision": _distribution_version("brainscore-vision"),
                  "date": datetime.date.today().isoformat(), "cases": run_values(reference, args.raw_data)}
        text = json.dumps(result, indent=1)
        if args.out:
            args.out.write_text(text + "\n")
        print(text)
    elif args.command == "side":
        print(json.dumps(run_speed(reference, args.repeat, args.cases)))
    else:
        rows = []
        if not args.reference_python:
            print("no reference side: set BRAINSCORE_REFERENCE_PYTHON (or --reference-python) to the python of a venv "
                  "with brainscore-vision==2.4.2 to time Brain-Score's code in the same run; our timings alone:")
            for case, timing in run_speed(False, args.repeat, args.cases).items():
                print(f"{case:24s} ours {timing['median_s']:8.3f} s (median of {args.repeat})  value {timing['value']:.10f}")
            return
        for case in args.cases:  # alternating single calls, ours then reference, --repeat times: both sides see
            timings = {"ours": [], "reference": []}  # the same changes of the machine's load
            values = {}
            for _ in range(args.repeat):
                for name, python in (("ours", sys.executable), ("reference", args.reference_python)):
                    completed = subprocess.run([python, __file__, "side", "--repeat", "1", "--cases", case],
                                               capture_output=True, text=True, check=True)
                    result = json.loads(completed.stdout.strip().splitlines()[-1])[case]
                    timings[name].append(result["median_s"])
                    values[name] = result["value"]
            medians = {name: statistics.median(times) for name, times in timings.items()}
            ratio = medians["reference"] / medians["ours"]
            rows.append((case, medians, ratio))
            print(f"{case:24s} reference {medians['reference']:9.3f} s  ours {medians['ours']:8.3f} s  ratio "
                  f"{ratio:7.1f}x  (median of {args.repeat} alternating calls)  values {values['reference']:.10f} / "
                  f"{values['ours']:.10f}", flush=True)

if __name__ == "__main__":
    main()
