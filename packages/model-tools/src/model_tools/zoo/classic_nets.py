"""AlexNet, VGG-16, ResNet-18 and ResNet-50 in plain torch, without torchvision.

Module names, parameter and buffer names and shapes are exactly torchvision's (``features.0.weight``,
``layer1.0.downsample.1.running_mean``, ...), so torchvision's published ImageNet checkpoints load with
``load_state_dict(strict=True)`` and hooked layer names are the ones Brain-Score's region maps use. The maths
is torchvision's too (ResNet v1.5: the stride of a bottleneck block sits on its 3x3 convolution); the opt-in
``torchvision`` nox session compares logits and hooked activations with torchvision's models on the same
weights. Written from the architectures' papers and the checkpoints' key layout, not from torchvision's code.
"""

from __future__ import annotations

from torch import Tensor, nn

__all__ = ["AlexNet", "ResNet", "VGG16", "alexnet", "resnet18", "resnet50", "vgg16"]


class AlexNet(nn.Module):
    """Krizhevsky et al. 2012 in torchvision's one-tower form (64-192-384-256-256 channels), 1,000 classes."""

    def __init__(self, num_classes: int = 1000):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 64, 11, stride=4, padding=2), nn.ReLU(inplace=True), nn.MaxPool2d(3, stride=2),
            nn.Conv2d(64, 192, 5, padding=2), nn.ReLU(inplace=True), nn.MaxPool2d(3, stride=2),
            nn.Conv2d(192, 384, 3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(384, 256, 3, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(256, 256, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(3, stride=2))
        self.avgpool = nn.AdaptiveAvgPool2d((6, 6))
        self.classifier = nn.Sequential(
            nn.Dropout(0.5), nn.Linear(256 * 6 * 6, 4096), nn.ReLU(inplace=True),
            nn.Dropout(0.5), nn.Linear(4096, 4096), nn.ReLU(inplace=True), nn.Linear(4096, num_classes))

    def forward(self, x: Tensor) -> Tensor:
        return self.classifier(self.avgpool(self.features(x)).flatten(1))


#: VGG-16 (configuration D of Simonyan & Zisserman 2015): output channels of each 3x3 convolution, "M" a max pool
_VGG16 = (64, 64, "M", 128, 128, "M", 256, 256, 256, "M", 512, 512, 512, "M", 512, 512, 512, "M")


class VGG16(nn.Module):
    """VGG-16 without batch normalisation: 13 convolutions with ReLU, 5 max pools, 3 fully connected layers."""

    def __init__(self, num_classes: int = 1000):
        super().__init__()
        layers: list[nn.Module] = []
        channels = 3
        for entry in _VGG16:
            if entry == "M":
                layers.append(nn.MaxPool2d(2, stride=2))
            else:
                layers += [nn.Conv2d(channels, int(entry), 3, padding=1), nn.ReLU(inplace=True)]
                channels = int(entry)
        self.features = nn.Sequential(*layers)
        self.avgpool = nn.AdaptiveAvgPool2d((7, 7))
        self.classifier = nn.Sequential(
            nn.Linear(512 * 7 * 7, 4096), nn.ReLU(inplace=True), nn.Dropout(0.5),
            nn.Linear(4096, 4096), nn.ReLU(inplace=True), nn.Dropout(0.5), nn.Linear(4096, num_classes))

    def forward(self, x: Tensor) -> Tensor:
        return self.classifier(self.avgpool(self.features(x)).flatten(1))


def _conv(in_channels: int, out_channels: int, kernel: int, stride: int = 1) -> nn.Conv2d:
    return nn.Conv2d(in_channels, out_channels, kernel, stride=stride, padding=kernel // 2, bias=False)


def _downsample(in_channels: int, out_channels: int, stride: int) -> nn.Sequential | None:
    if stride == 1 and in_channels == out_channels:
        return None
    return nn.Sequential(_conv(in_channels, out_channels, 1, stride), nn.BatchNorm2d(out_channels))


class BasicBlock(nn.Module):
    """Two 3x3 convolutions with batch norm and an identity (or 1x1 projection) shortcut; ResNet-18/34."""

    expansion = 1

    def __init__(self, in_channels: int, channels: int, stride: int = 1):
        super().__init__()
        self.conv1, self.bn1 = _conv(in_channels, channels, 3, stride), nn.BatchNorm2d(channels)
        self.relu = nn.ReLU(inplace=True)
        self.conv2, self.bn2 = _conv(channels, channels, 3), nn.BatchNorm2d(channels)
        self.downsample = _downsample(in_channels, channels, stride)

    def forward(self, x: Tensor) -> Tensor:
        shortcut = x if self.downsample is None else self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        return self.relu(self.bn2(self.conv2(out)) + shortcut)


class Bottleneck(nn.Module):
    """1x1 reduce, 3x3 (carrying the stride: ResNet v1.5), 1x1 expand by 4, with a shortcut; ResNet-50."""

    expansion = 4

    def __init__(self, in_channels: int, channels: int, stride: int = 1):
        super().__init__()
        out_channels = channels * self.expansion
        self.conv1, self.bn1 = _conv(in_channels, channels, 1), nn.BatchNorm2d(channels)
        self.conv2, self.bn2 = _conv(channels, channels, 3, stride), nn.BatchNorm2d(channels)
        self.conv3, self.bn3 = _conv(channels, out_channels, 1), nn.BatchNorm2d(out_channels)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = _downsample(in_channels, out_channels, stride)

    def forward(self, x: Tensor) -> Tensor:
        shortcut = x if self.downsample is None else self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        return self.relu(self.bn3(self.conv3(out)) + shortcut)


class ResNet(nn.Module):
    """He et al. 2016: a 7x7 stem, four stages of residual blocks (64, 128, 256, 512 channels), pool, linear."""

    def __init__(self, block: type[BasicBlock] | type[Bottleneck], depths: tuple[int, int, int, int],
                 num_classes: int = 1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, 7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(3, stride=2, padding=1)
        in_channels = 64
        for index, (channels, depth) in enumerate(zip((64, 128, 256, 512), depths, strict=True)):
            blocks = []
            for position in range(depth):
                stride = 2 if index > 0 and position == 0 else 1
                blocks.append(block(in_channels, channels, stride))
                in_channels = channels * block.expansion
            setattr(self, f"layer{index + 1}", nn.Sequential(*blocks))
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(512 * block.expansion, num_classes)
        for module in self.modules():  # the usual initialisation (used by the random-weight variants)
            if isinstance(module, nn.Conv2d):
                nn.init.kaiming_normal_(module.weight, mode="fan_out", nonlinearity="relu")
            elif isinstance(module, nn.BatchNorm2d):
                nn.init.ones_(module.weight)
                nn.init.zeros_(module.bias)

    def forward(self, x: Tensor) -> Tensor:
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(self.avgpool(x).flatten(1))


def alexnet() -> AlexNet:
    return AlexNet()


def vgg16() -> VGG16:
    return VGG16()


def resnet18() -> ResNet:
    return ResNet(BasicBlock, (2, 2, 2, 2))


def resnet50() -> ResNet:
    return ResNet(Bottleneck, (3, 4, 6, 3))
