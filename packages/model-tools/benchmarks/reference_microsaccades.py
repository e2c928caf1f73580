"""Brain-Score's ``MicrosaccadeHelper`` on fixed images: the expected values of ``tests/test_microsaccades.py``.

Run in a throwaway venv with brainscore-vision 2.4.2 (whose microsaccade code in ``model_helpers/activations/core.py``
is the same as brain-score/vision at commit c642dbe42aae3ed064bc0b66f70a80b264021164) and its opencv-python::

    /work/venvs/bsref/bin/python benchmarks/reference_microsaccades.py > tests/data/reference_microsaccades.json

For each case (visual degrees, number of trials, image height, seed): the shifts in pixels and degrees that
``build_microsaccades`` places, and the sha1 of the float32 bytes of each trial's image as ``translate`` (OpenCV's
``warpAffine``) moves it. Then which image each row holds when its ``ActivationsExtractorHelper`` looks at three
constant images twice with ``require_variance=True``.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import sys
from collections import OrderedDict

import numpy as np

REFERENCE_COMMIT = "c642dbe42aae3ed064bc0b66f70a80b264021164"
#: (visual degrees, trials, image height, seed): a small spiral, one that crosses pixels (and the edges), Malania's
CASES = ((8.0, 3, 24, 5), (0.5, 10, 24, 7), (2.986667, 10, 32, 3))


def image(height: int, seed: int) -> np.ndarray:
    """A float32 image of shape (3, height, height + 4) (channels first, as preprocessing gives it)."""
    return np.random.default_rng(seed).standard_normal((3, height, height + 4)).astype(np.float32)


def main():
    from brainscore_vision.model_helpers.activations.core import (
        ActivationsExtractorHelper,
        MicrosaccadeHelper,
    )

    out = {"reference_commit": REFERENCE_COMMIT, "brainscore_vision": "2.4.2", "date": datetime.date.today().isoformat(),
           "cases": []}
    for degrees, trials, height, seed in CASES:
        helper = MicrosaccadeHelper()
        helper.visual_degrees, helper.number_of_trials = degrees, trials
        picture = image(height, seed)
        helper.build_microsaccades("image", picture.shape[1:])
        shifted = [helper.translate(picture, helper.microsaccades["pixels"]["image"][trial], picture.shape[1:], True)
                   for trial in range(trials)]
        out["cases"].append({"degrees": degrees, "trials": trials, "height": height, "seed": seed,
                             "pixels": [list(map(float, p)) for p in helper.microsaccades["pixels"]["image"]],
                             "degrees_shift": [list(map(float, p)) for p in helper.microsaccades["degrees"]["image"]],
                             "sha1": [hashlib.sha1(np.ascontiguousarray(s, dtype=np.float32).tobytes()).hexdigest()
                                      for s in shifted]})
    constant = [np.full((3, 8, 8), float(index), dtype=np.float32) for index in range(3)]

    def get_activations(batch, layers):  # each row's activation: the constant value of the image it was shown
        return OrderedDict((layer, np.asarray(batch)[:, 0, 0, :1]) for layer in layers)

    helper = ActivationsExtractorHelper(get_activations, lambda paths: np.stack([constant[int(p)] for p in paths]))
    helper.set_visual_degrees(8)
    assembly = helper(["0", "1", "2"], layers=["layer"], number_of_trials=2, require_variance=True)
    out["labelling"] = {"labelled": [str(p) for p in assembly["stimulus_path"].values],
                        "holds": [float(v) for v in np.asarray(assembly.values)[:, 0]]}
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
