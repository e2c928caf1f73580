"""CORnet-Z and CORnet-S (Kubilius et al. 2018, 2019; dicarlolab/CORnet, MIT) in plain torch.

Four areas named as the ventral stream (``V1``, ``V2``, ``V4``, ``IT``) and a ``decoder``; each area ends in an
identity module ``output`` whose output is the area's response, so ``'IT.output'`` is the layer to record.
Parameter names are those of the published checkpoints after removing their ``module.`` prefix (they were
saved from ``DataParallel``). CORnet-S repeats its areas V2, V4 and IT 2, 4 and 2 times (recurrence with one
set of convolutions and a batch norm per time step); the stride of the first time step's 3x3 convolution is 2,
later steps keep the size. ``output`` runs once per time step; a hook keeps the last step's response.
"""

from __future__ import annotations

from collections import OrderedDict

import torch.nn.functional as F
from torch import Tensor, nn

__all__ = ["CORnetS", "CORnetZ", "cornet_s", "cornet_z"]


class _Flatten(nn.Module):
    def forward(self, x: Tensor) -> Tensor:
        return x.reshape(x.size(0), -1)


def _decoder() -> nn.Sequential:
    return nn.Sequential(OrderedDict([("avgpool", nn.AdaptiveAvgPool2d(1)), ("flatten", _Flatten()),
                                      ("linear", nn.Linear(512, 1000)), ("output", nn.Identity())]))


class _AreaZ(nn.Module):
    """Convolution, ReLU, 3x3 max pool with stride 2."""

    def __init__(self, in_channels: int, out_channels: int, kernel: int = 3, stride: int = 1):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel, stride=stride, padding=kernel // 2)
        self.nonlin = nn.ReLU()
        self.pool = nn.MaxPool2d(3, stride=2, padding=1)
        self.output = nn.Identity()

    def forward(self, x: Tensor) -> Tensor:
        return self.output(self.pool(self.nonlin(self.conv(x))))


class CORnetZ(nn.Sequential):
    """Feed-forward CORnet: one convolution per area (64, 128, 256, 512 channels)."""

    def __init__(self):
        super().__init__(OrderedDict([("V1", _AreaZ(3, 64, kernel=7, stride=2)), ("V2", _AreaZ(64, 128)),
                                      ("V4", _AreaZ(128, 256)), ("IT", _AreaZ(256, 512)), ("decoder", _decoder())]))
        for module in self.modules():
            if isinstance(module, (nn.Conv2d, nn.Linear)):
                nn.init.xavier_uniform_(module.weight)
                nn.init.zeros_(module.bias)


class _AreaS(nn.Module):
    """A recurrent bottleneck area: input 1x1 convolution, then ``times`` steps of 1x1 (x4 channels), 3x3, 1x1
    with batch norm per step, added to a shortcut (a strided 1x1 convolution with batch norm at step 0, the
    previous state later), ReLU."""

    scale = 4

    def __init__(self, in_channels: int, out_channels: int, times: int):
        super().__init__()
        wide = out_channels * self.scale
        self.times = times
        self.conv_input = nn.Conv2d(in_channels, out_channels, 1, bias=False)
        self.skip = nn.Conv2d(out_channels, out_channels, 1, stride=2, bias=False)
        self.norm_skip = nn.BatchNorm2d(out_channels)
        self.conv1 = nn.Conv2d(out_channels, wide, 1, bias=False)
        self.nonlin1 = nn.ReLU()
        self.conv2 = nn.Conv2d(wide, wide, 3, padding=1, bias=False)
        self.nonlin2 = nn.ReLU()
        self.conv3 = nn.Conv2d(wide, out_channels, 1, bias=False)
        self.nonlin3 = nn.ReLU()
        self.output = nn.Identity()
        for step in range(times):
            self.add_module(f"norm1_{step}", nn.BatchNorm2d(wide))
            self.add_module(f"norm2_{step}", nn.BatchNorm2d(wide))
            self.add_module(f"norm3_{step}", nn.BatchNorm2d(out_channels))

    def forward(self, x: Tensor) -> Tensor:
        state = self.conv_input(x)
        output = state
        for step in range(self.times):
            shortcut = self.norm_skip(self.skip(state)) if step == 0 else state
            out = self.nonlin1(getattr(self, f"norm1_{step}")(self.conv1(state)))
            out = F.conv2d(out, self.conv2.weight, stride=2 if step == 0 else 1, padding=1)  # stride on step 0
            out = self.nonlin2(getattr(self, f"norm2_{step}")(out))
            out = getattr(self, f"norm3_{step}")(self.conv3(out))
            state = self.nonlin3(out + shortcut)
            output = self.output(state)
        return output


class CORnetS(nn.Sequential):
    """CORnet-S: a two-convolution V1, recurrent V2 (2 steps), V4 (4 steps) and IT (2 steps)."""

    def __init__(self):
        v1 = nn.Sequential(OrderedDict([
            ("conv1", nn.Conv2d(3, 64, 7, stride=2, padding=3, bias=False)), ("norm1", nn.BatchNorm2d(64)),
            ("nonlin1", nn.ReLU()), ("pool", nn.MaxPool2d(3, stride=2, padding=1)),
            ("conv2", nn.Conv2d(64, 64, 3, padding=1, bias=False)), ("norm2", nn.BatchNorm2d(64)),
            ("nonlin2", nn.ReLU()), ("output", nn.Identity())]))
        super().__init__(OrderedDict([("V1", v1), ("V2", _AreaS(64, 128, 2)), ("V4", _AreaS(128, 256, 4)),
                                      ("IT", _AreaS(256, 512, 2)), ("decoder", _decoder())]))
        for module in self.modules():
            if isinstance(module, nn.Conv2d):
                fan_out = module.kernel_size[0] * module.kernel_size[1] * module.out_channels
                nn.init.normal_(module.weight, 0.0, (2.0 / fan_out) ** 0.5)
            elif isinstance(module, nn.BatchNorm2d):
                nn.init.ones_(module.weight)
                nn.init.zeros_(module.bias)


def cornet_z() -> CORnetZ:
    return CORnetZ()


def cornet_s() -> CORnetS:
    return CORnetS()
