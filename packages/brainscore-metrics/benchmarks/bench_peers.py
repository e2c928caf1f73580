"""Ours beside the peers a user would pick (scikit-learn, himalaya, rsatoolbox, a plain numpy Kornblith CKA), on the
same computation, in one run, with alternating calls.

Inputs:

* ``real``: the 640 Cowley 2023 V4 images of session 210325 through a seeded random CNN (plain torch, 4 stride-2
  conv blocks, 112 px -> 512 x 7 x 7 = 25,088 float32 features, ReLU: many dead units) against the session's 50
  averaged units; the fixed split is a seeded 512 / 128 permutation. Crossnobis runs on the recorded trials (50
  units, the first 6 repeats of each image as folds).
* ``large``: 3,200 stimuli x 10,000 float32 ReLU units of a 50-dimensional latent plus noise, 2,000 of them dead
  (never active) -> 200 neuroids; split 2,880 / 320. (Issue 31's int8-quantised input is no fair race: its float32
  kernel is singular to float32 rounding, and scikit-learn's float32 ``Ridge`` falls back to ``lstsq``, 100 s.)

Cases (each peer computes the same thing: same alphas, folds, centring, inputs; values are checked against each other
in the JSON as ``max_abs_diff``):

* ``ridge``: ``Ridge(alpha=1).fit(train).predict(test)`` vs ``arrays.ridge_predict`` (and ``RidgeRegression().fit
  .predict``, row ``ridge_fit_predict``);
* ``ridgecv_loo``: ``RidgeCV(10 alphas)`` (efficient leave-one-out, one alpha) vs ``arrays.ridgecv_predict``;
* ``ridgecv_5fold`` / ``ridgecv_5fold_per_target``: himalaya ``KernelRidgeCV(10 alphas, cv=5, fit_intercept=True,
  local_alpha=False/True)`` vs ``arrays.ridgecv_predict(cv=5, alpha_per_target=...)``;
* ``rdm_spearman``, ``rdm_pearson``, ``rdm_tau_a`` (``real`` only: rsatoolbox's tau-a is minutes at 5.1 M pairs):
  rsatoolbox ``calc_rdm(correlation)`` of model and brain + ``compare(method)`` vs ``arrays.compute_rdm`` +
  ``arrays.compare_rdms``; ``rdm_euclidean``: the RDM alone; ``crossnobis`` (``real``): the RDM of the trials;
* ``cka``: Kornblith's numpy CKA (Gram matrices, centring matrix products, Frobenius cosine; biased) vs
  ``arrays.linear_cka(unbiased=False)``; ``cka_unbiased``: the same with Nguyen et al.'s U-centring vs
  ``unbiased=True``.

Timing: for each case, calls alternate ours / peer (the peer first in odd rounds), each side's time is the median of
5 calls (3 when its first call took over 10 s); the 1-minute load average is read before every call and reported
(min-max), and each call's process CPU time (all threads; on a loaded machine it shows the work where wall time
mostly shows the wait). Run (one command; needs the metrics ``test`` extra for the peers, and the real data)::

    BRAINSCORE_RAW_DATA=/work/shared/data python packages/brainscore-metrics/benchmarks/bench_peers.py \
        --out /tmp/bench_peers.json

``--inputs real`` or ``--inputs large`` runs one input; ``--cases`` a subset. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reference_inputs import DATA

ALPHAS = np.logspace(-1, 6, 10)


# ------------------------------------------------------------------------------------------------------ inputs

def random_cnn_features(images: np.ndarray, seed: int = 0) -> np.ndarray:
    """512 x 7 x 7 float32 features of a seeded random 4-block CNN for uint8 images (n, 112, 112, 3)."""
    import torch

    torch.manual_seed(seed)
    layers = []
    for channels_in, channels_out in ((3, 64), (64, 128), (128, 256), (256, 512)):
        layers += [torch.nn.Conv2d(channels_in, channels_out, 3, stride=2, padding=1), torch.nn.ReLU()]
    net = torch.nn.Sequential(*layers).eval()
    batches = []
    with torch.no_grad():
        for start in range(0, len(images), 64):
            x = torch.from_numpy(images[start:start + 64]).permute(0, 3, 1, 2).float() / 255.0
            batches.append(net((x - 0.45) / 0.25).flatten(1).numpy())
    return np.concatenate(batches).astype(np.float32)


def real_inputs() -> dict:
    from PIL import Image

    folder = DATA / "cowley2023_v4"
    with open(folder / "stimuli_210325.csv", newline="") as handle:
        stimuli = list(csv.DictReader(handle))
    images = np.stack([np.asarray(Image.open(folder / entry["filename"]).convert("RGB")) for entry in stimuli])
    X = random_cnn_features(images)
    Y = np.load(folder / "responses_avg_210325.npy").T.astype(np.float64)
    raw = np.load(folder / "responses_raw_210325.npy")[:, :, :6].astype(np.float64)  # every image has >= 6 repeats
    trials = raw.transpose(1, 2, 0).reshape(-1, raw.shape[0])
    order = np.random.default_rng(0).permutation(len(X))
    return {"X": X, "Y": Y, "train": np.sort(order[:512]), "test": np.sort(order[512:]), "trials": trials,
            "conditions": np.repeat(np.arange(raw.shape[1]), 6), "folds": np.tile(np.arange(6), raw.shape[1]),
            "describe": f"Cowley 2023 V4 210325: random CNN {X.shape[0]} x {X.shape[1]} float32 "
                        f"({int((X.max(0) == X.min(0)).sum())} dead units) -> {Y.shape[1]} units"}


def large_inputs() -> dict:
    """ReLU units of a 50-dimensional latent plus noise, 2,000 of them never active (dead), float32."""
    rng = np.random.default_rng(2024)
    latent = rng.normal(size=(3200, 50))
    bias = np.where(np.arange(10000) < 2000, -1e3, 0.0)  # the first 2,000 units never fire
    X = np.maximum(latent @ rng.normal(size=(50, 10000)) / np.sqrt(50) + rng.normal(size=(3200, 10000)) + bias, 0)
    X = X.astype(np.float32)
    Y = latent @ rng.normal(size=(50, 200)) * 0.3 + rng.normal(size=(3200, 200))
    order = rng.permutation(3200)
    return {"X": X, "Y": Y, "train": np.sort(order[:2880]), "test": np.sort(order[2880:]),
            "describe": f"3,200 x 10,000 float32 ReLU units, {int((X.max(0) == X.min(0)).sum())} dead -> 200 neuroids"}


# ------------------------------------------------------------------------------------------------------- cases

def _kornblith(X, Y, unbiased: bool) -> float:
    """Kornblith et al.'s numpy CKA (``gram_linear``, ``center_gram``, ``cka``), U-centred when ``unbiased``."""
    def center(gram):
        gram = gram.copy()
        n = gram.shape[0]
        if unbiased:
            np.fill_diagonal(gram, 0)
            means = np.sum(gram, 0, dtype=np.float64) / (n - 2)
            means -= np.sum(means) / (2 * (n - 1))
            gram -= means[:, None]
            gram -= means[None, :]
            np.fill_diagonal(gram, 0)
        else:
            means = np.mean(gram, 0, dtype=np.float64)
            means -= np.mean(means) / 2
            gram -= means[:, None]
            gram -= means[None, :]
        return gram

    a, b = center(X @ X.T), center(Y @ Y.T)
    return float(np.ravel(a).dot(np.ravel(b)) / (np.linalg.norm(a) * np.linalg.norm(b)))


def cases(data: dict, name: str) -> dict:
    """case -> (ours, peer): zero-argument callables returning comparable values."""
    from himalaya.kernel_ridge import KernelRidgeCV
    from rsatoolbox.data import Dataset
    from rsatoolbox.rdm import calc_rdm, compare
    from sklearn.linear_model import Ridge, RidgeCV

    from brainscore_metrics import arrays

    X, Y, train, test = data["X"], data["Y"], data["train"], data["test"]
    X_train, X_test, Y_train = X[train], X[test], Y[train]

    def himalaya(local_alpha):
        model = KernelRidgeCV(alphas=ALPHAS, cv=5, fit_intercept=True, warn=False,
                              solver_params={"local_alpha": local_alpha})
        return model.fit(X_train, Y_train).predict(X_test)

    def rsatoolbox_rsa(method):
        first = calc_rdm(Dataset(X), method="correlation")
        second = calc_rdm(Dataset(Y), method="correlation")
        return float(compare(first, second, method=method)[0, 0])

    def ours_rsa(method):
        return float(arrays.compare_rdms(arrays.compute_rdm(X), arrays.compute_rdm(Y), method)[0, 0])

    table = {
        "ridge": (lambda: arrays.ridge_predict(X_train, Y_train, X_test),
                  lambda: Ridge(alpha=1.0).fit(X_train, Y_train).predict(X_test)),
        "ridge_fit_predict": (lambda: arrays.RidgeRegression(1.0).fit(X_train, Y_train).predict(X_test),
                              lambda: Ridge(alpha=1.0).fit(X_train, Y_train).predict(X_test)),
        "ridgecv_loo": (lambda: arrays.ridgecv_predict(X_train, Y_train, X_test, alphas=ALPHAS)[0],
                        lambda: RidgeCV(alphas=ALPHAS).fit(X_train, Y_train).predict(X_test)),
        "ridgecv_5fold": (lambda: arrays.ridgecv_predict(X_train, Y_train, X_test, alphas=ALPHAS, cv=5)[0],
                          lambda: himalaya(False)),
        "ridgecv_5fold_per_target": (
            lambda: arrays.ridgecv_predict(X_train, Y_train, X_test, alphas=ALPHAS, cv=5, alpha_per_target=True)[0],
            lambda: himalaya(True)),
        "rdm_spearman": (lambda: ours_rsa("spearman"), lambda: rsatoolbox_rsa("spearman")),
        "rdm_pearson": (lambda: ours_rsa("pearson"), lambda: rsatoolbox_rsa("corr")),
        "rdm_euclidean": (lambda: arrays.compute_rdm(X, "euclidean"),
                          lambda: calc_rdm(Dataset(X), method="euclidean").dissimilarities[0]),
        "cka": (lambda: arrays.linear_cka(X, Y, unbiased=False), lambda: _kornblith(X, Y, False)),
        "cka_unbiased": (lambda: arrays.linear_cka(X, Y), lambda: _kornblith(X, Y, True)),
    }
    if name == "real":
        table["rdm_tau_a"] = (lambda: ours_rsa("tau_a"), lambda: rsatoolbox_rsa("tau-a"))
        trials, conditions, folds = data["trials"], data["conditions"], data["folds"]
        table["crossnobis"] = (
            lambda: arrays.compute_rdm(trials, "crossnobis", conditions=conditions, folds=folds),
            lambda: calc_rdm(Dataset(trials, obs_descriptors={"image": conditions, "repeat": folds}),
                             method="crossnobis", descriptor="image", cv_descriptor="repeat").dissimilarities[0])
    return table


# ------------------------------------------------------------------------------------------------------ timing

def _load() -> float:
    return os.getloadavg()[0]


def time_case(ours, peer, repeats: int = 5, slow_seconds: float = 10.0, settle: float = 0.0) -> dict:
    """Alternating single calls; each side's median of ``repeats`` calls (3 when its first call exceeded
    ``slow_seconds``); ``settle`` seconds of sleep before each call (untimed)."""
    times = {"ours": [], "peer": []}
    cpu = {"ours": [], "peer": []}
    loads = []
    values = {}
    target = {"ours": repeats, "peer": repeats}
    round_index = 0
    while any(len(times[side]) < target[side] for side in times):
        order = ("ours", "peer") if round_index % 2 == 0 else ("peer", "ours")
        for side in order:
            if len(times[side]) >= target[side]:
                continue
            if settle:
                time.sleep(settle)
            loads.append(_load())
            start, start_cpu = time.perf_counter(), time.process_time()
            values[side] = (ours if side == "ours" else peer)()
            times[side].append(time.perf_counter() - start)
            cpu[side].append(time.process_time() - start_cpu)
            if len(times[side]) == 1 and times[side][0] > slow_seconds:
                target[side] = min(3, repeats)
        round_index += 1
    ours_value, peer_value = (np.asarray(values[side], dtype=np.float64) for side in ("ours", "peer"))
    return {"ours_s": statistics.median(times["ours"]), "peer_s": statistics.median(times["peer"]),
            "ours_all": times["ours"], "peer_all": times["peer"], "load_min": min(loads), "load_max": max(loads),
            "ours_cpu_s": statistics.median(cpu["ours"]), "peer_cpu_s": statistics.median(cpu["peer"]),
            "max_abs_diff": float(np.max(np.abs(ours_value - peer_value))),
            "peer_scale": float(np.max(np.abs(peer_value)))}


PEER = {"ridge": "scikit-learn Ridge", "ridge_fit_predict": "scikit-learn Ridge", "ridgecv_loo": "scikit-learn RidgeCV",
        "ridgecv_5fold": "himalaya KernelRidgeCV", "ridgecv_5fold_per_target": "himalaya KernelRidgeCV",
        "rdm_spearman": "rsatoolbox", "rdm_pearson": "rsatoolbox", "rdm_tau_a": "rsatoolbox",
        "rdm_euclidean": "rsatoolbox", "crossnobis": "rsatoolbox", "cka": "numpy Kornblith",
        "cka_unbiased": "numpy Kornblith"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", nargs="*", default=["real", "large"], choices=["real", "large"])
    parser.add_argument("--cases", nargs="*", default=None)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--settle", type=float, default=0.0,
                        help="seconds of sleep before each call: the previous call's BLAS threads stop spinning")
    parser.add_argument("--out", type=Path, default=None, help="JSON results (written atomically)")
    args = parser.parse_args()
    import warnings

    warnings.simplefilter("ignore")
    results = []
    print(f"load average at start: {os.getloadavg()}", flush=True)
    for name in args.inputs:
        data = real_inputs() if name == "real" else large_inputs()
        print(f"{name}: {data['describe']}", flush=True)
        table = cases(data, name)
        for case in [case for case in args.cases if case in table] if args.cases else table:  # in the order asked
            ours, peer = table[case]
            result = {"input": name, "case": case, "peer": PEER[case], **time_case(ours, peer, args.repeats,
                                                                                   settle=args.settle)}
            results.append(result)
            print(json.dumps(result), flush=True)
    if args.out:
        tmp = args.out.with_suffix(".tmp")
        tmp.write_text(json.dumps({"results": results, "python": sys.version}, indent=1))
        os.replace(tmp, args.out)
    print("\n| input | case | peer | peer s | ours s | peer / ours | CPU s peer / ours | load (1 min) | max abs diff "
          "(relative) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['input']} | {r['case']} | {r['peer']} | {r['peer_s']:.3g} | {r['ours_s']:.3g} | "
              f"**{r['peer_s'] / r['ours_s']:.2f}x** | {r['peer_cpu_s']:.3g} / {r['ours_cpu_s']:.3g} | "
              f"{r['load_min']:.1f}-{r['load_max']:.1f} | {r['max_abs_diff'] / max(r['peer_scale'], 1e-300):.1e} |")


if __name__ == "__main__":
    main()
