"""The forward pass ends once every recorded layer has its output: same values, the later layers are not run."""

from __future__ import annotations

import numpy as np
import torch
from _counting import ForwardCounter
from torch import nn

from model_tools.activations import ActivationsExtractor, ImagePreprocessing


def _values(net, images, layers, truncate):
    extractor = ActivationsExtractor(net, f"tiny-{truncate}", ImagePreprocessing(8), batch_size=3, cache=False,
                                     truncate_forward=truncate)
    return extractor(images, layers).values


def test_an_early_layer_does_not_run_the_rest_and_gives_the_same_values(tiny_net, image_files):
    last = ForwardCounter(tiny_net[4])  # the final Linear
    whole = _values(tiny_net, image_files, ["1"], truncate=False)
    assert last.calls == 4  # 10 images in batches of 3
    truncated = _values(tiny_net, image_files, ["1"], truncate=True)
    assert last.calls == 4 + 1  # only the first pass runs whole (it checks each recorded module runs once)
    np.testing.assert_array_equal(truncated, whole)
    # several layers: the pass ends after the last of them; the logits need the whole network
    np.testing.assert_array_equal(_values(tiny_net, image_files, ["2", "0"], True),
                                  _values(tiny_net, image_files, ["2", "0"], False))
    np.testing.assert_array_equal(_values(tiny_net, image_files, ["0", "logits"], True),
                                  _values(tiny_net, image_files, ["0", "logits"], False))


class Recurrent(nn.Module):
    """One block applied twice: its recorded output is the second application's."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.block = nn.Sequential(nn.Conv2d(3, 3, 3, padding=1), nn.ReLU())
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 4))

    def forward(self, x):
        x = self.block(x)
        try:  # a model's own broad except must not swallow the stop signal
            x = self.block(x)
        except Exception:
            raise AssertionError("the stop signal reached a model's except Exception") from None
        return self.head(x)


def test_a_module_run_twice_per_pass_always_runs_whole(image_files):
    net = Recurrent().eval()
    head = ForwardCounter(net.head)
    truncated = _values(net, image_files, ["block"], truncate=True)
    assert head.calls == 4  # every pass whole
    whole = _values(net, image_files, ["block"], truncate=False)
    np.testing.assert_array_equal(truncated, whole)
    with torch.no_grad():  # independent: the second application of the block, computed by hand
        inputs = ImagePreprocessing(8)(image_files)
        expected = net.block(net.block(inputs)).reshape(len(image_files), -1).numpy()
    np.testing.assert_allclose(truncated, expected, rtol=1e-6, atol=1e-6)
