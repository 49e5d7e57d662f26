#!/usr/bin/env python3
"""Parameter counts of the model-zoo architectures behind tests/import's MXNet symbols, built
independently of ordo in torch.nn from the architectures' published definitions: GluonCV's CIFAR
ResNet v1 (basic blocks, projection shortcuts with batch norm where the shape changes) and v2
(pre-activation, a batch norm on the data, projection shortcuts without batch norm), and MXNet's
ImageNet ResNet v2 (pre-activation bottlenecks, a batch norm on the data; the symbols here end
in 11,586 and 11,221 classes, the ImageNet-11k models). Prints "name tensors parameters" per
model; the C++ test asserts the importer's figures equal these (tests/import/CMakeLists.txt)."""
import torch.nn as nn


def bn(c):
    return nn.BatchNorm2d(c)


def conv(i, o, k, s=1, bias=False):
    return nn.Conv2d(i, o, k, s, k // 2, bias=bias)


def cifar_v1(n, classes=10):
    layers = [conv(3, 16, 3), bn(16)]
    cin = 16
    for c, stride in ((16, 1), (32, 2), (64, 2)):
        for b in range(n):
            s = stride if b == 0 else 1
            layers += [conv(cin, c, 3, s), bn(c), conv(c, c, 3), bn(c)]
            if s != 1 or cin != c:
                layers += [conv(cin, c, 1, s), bn(c)]
            cin = c
    layers.append(nn.Linear(64, classes))
    return nn.ModuleList(layers)


def cifar_v2(n, classes=10):
    layers = [bn(3), conv(3, 16, 3)]
    cin = 16
    for c, stride in ((16, 1), (32, 2), (64, 2)):
        for b in range(n):
            s = stride if b == 0 else 1
            layers += [bn(cin), conv(cin, c, 3, s), bn(c), conv(c, c, 3)]
            if s != 1 or cin != c:
                layers.append(conv(cin, c, 1, s))
            cin = c
    layers += [bn(64), nn.Linear(64, classes)]
    return nn.ModuleList(layers)


def imagenet_v2(units, classes):
    layers = [bn(3), conv(3, 64, 7, 2), bn(64)]
    cin = 64
    for stage, (count, width) in enumerate(zip(units, (256, 512, 1024, 2048))):
        for u in range(count):
            s = 2 if u == 0 and stage > 0 else 1
            mid = width // 4
            layers += [bn(cin), conv(cin, mid, 1), bn(mid), conv(mid, mid, 3, s), bn(mid),
                       conv(mid, width, 1)]
            if u == 0:
                layers.append(conv(cin, width, 1, s))
            cin = width
    layers += [bn(2048), nn.Linear(2048, classes)]
    return nn.ModuleList(layers)


MODELS = {
    "cifar_resnet20_v1": cifar_v1(3), "cifar_resnet56_v1": cifar_v1(9),
    "cifar_resnet110_v1": cifar_v1(18), "cifar_resnet20_v2": cifar_v2(3),
    "cifar_resnet56_v2": cifar_v2(9), "cifar_resnet110_v2": cifar_v2(18),
    "resnet-50": imagenet_v2((3, 4, 6, 3), 11586), "resnet-152": imagenet_v2((3, 8, 36, 3), 11221),
}

for name, model in MODELS.items():
    params = list(model.parameters())
    print(name, len(params), sum(p.numel() for p in params))
