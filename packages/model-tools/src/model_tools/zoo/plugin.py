"""Entry point of the model zoo (group ``brainscore_vision``): identifier -> factory, nothing imported yet.

Registering imports neither torch nor torchvision nor timm; each factory imports what it needs when
``load_model(identifier)`` calls it.
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Callable, Mapping
from typing import Any

from brainscore_core.hookspecs import hookimpl

# architecture names only (the tables live in modules that are imported by the factories)
CLASSIC_MODELS = ("alexnet", "vgg16", "resnet18", "resnet50", "cornet_z", "cornet_s")  # plain torch
CLASSIC_ALIASES = {"vgg_16": "vgg16", "CORnet-Z": "cornet_z", "CORnet-S": "cornet_s"}  # Brain-Score's names
TORCHVISION_MODELS = ("resnet34",)  # through torchvision (optional extra)
TIMM_MODELS = ("efficientnet_b0", "convnext_tiny")


def _pixels() -> Any:
    from model_tools.zoo.pixels import pixels

    return pixels()


def _randomnet() -> Any:
    from model_tools.zoo.randomnet import randomnet

    return randomnet()


def _classic(name: str, pretrained: bool, identifier: str) -> Any:
    from model_tools.zoo.classic_models import classic_model

    return classic_model(name, pretrained=pretrained, identifier=identifier)


def _classic_availability(name: str, pretrained: bool) -> Callable[[], tuple[str, str]]:
    def availability() -> tuple[str, str]:
        from model_tools.zoo.classic_models import availability as check

        return check(name, pretrained)

    return availability


def _torchvision(name: str) -> Any:
    from model_tools.zoo.torchvision_models import torchvision_model

    return torchvision_model(name)


def _timm(name: str) -> Any:
    from model_tools.zoo.timm_models import timm_model

    return timm_model(name)


INSTALL_HINT = ("from a clone of the repository: pip install torch==2.14.1 torchvision==0.29.1 "
                "'./packages/model-tools[{extra}]' (the CUDA torch pair, about 5.5 GB, in its own environment; "
                "see the model-tools README)")


def _needs(*modules: str, extra: str) -> Callable[[], tuple[str, str]]:
    """An ``availability()`` check: ready, or the missing module and how to get it (imports nothing)."""

    def availability() -> tuple[str, str]:
        missing = [name for name in modules if importlib.util.find_spec(name) is None]
        if missing:
            return f"needs {', '.join(missing)}", INSTALL_HINT.format(extra=extra)
        return "ready", "pretrained weights are downloaded on first use"

    return availability


def _ready() -> tuple[str, str]:
    return "ready", "no weights needed"


def model_factories() -> dict[str, Callable[[], Any]]:
    """Every model of the zoo: identifier -> zero-argument factory returning a BrainModel.

    Each factory has an ``availability()`` attribute: ``(state, hint)`` without importing anything heavy, e.g.
    ``('needs torchvision', 'install the optional zoo ...')``; ``brainscore list models`` prints it. An alias (Brain-Score's
    name of a zoo model, e.g. ``vgg_16``) has ``alias_of`` (``'vgg16'``): the list shows it beside that model.
    """
    factories: dict[str, Callable[[], Any]] = {"pixels": _pixels, "randomnet": _randomnet}
    classic = {name: name for name in CLASSIC_MODELS} | CLASSIC_ALIASES
    for identifier, name in classic.items():
        for pretrained, suffix in ((True, ""), (False, "-random")):
            factory = functools.partial(_classic, name, pretrained, identifier + suffix)
            factory.availability = _classic_availability(name, pretrained)  # type: ignore[attr-defined]
            if identifier != name:  # Brain-Score's name of the same model: `brainscore list models` shows it once
                factory.alias_of = name + suffix  # type: ignore[attr-defined]
            factories[identifier + suffix] = factory
    factories.update({name: functools.partial(_torchvision, name) for name in TORCHVISION_MODELS})
    factories.update({f"timm/{name}": functools.partial(_timm, name) for name in TIMM_MODELS})
    for identifier, factory in factories.items():
        if hasattr(factory, "availability"):
            continue
        if identifier in ("pixels", "randomnet"):
            factory.availability = _ready  # type: ignore[attr-defined]
        elif identifier.startswith("timm/"):
            factory.availability = _needs("timm", "torchvision", extra="timm")  # type: ignore[attr-defined]
        else:
            factory.availability = _needs("torchvision", extra="torchvision")  # type: ignore[attr-defined]
    return factories


@hookimpl
def brainscore_models() -> Mapping[str, Callable[[], Any]]:
    """The model-tools zoo: ``pixels``, ``randomnet``, the classic networks in plain torch (pretrained and
    ``-random``), and torchvision / timm architectures behind their extras."""
    return model_factories()
