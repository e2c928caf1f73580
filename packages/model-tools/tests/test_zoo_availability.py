"""``brainscore list models`` says which zoo models can run here and how to get the others (issue: models that
cannot run on the documented install were offered without a word)."""

import importlib.util

from model_tools.zoo.plugin import model_factories


def test_every_zoo_model_reports_its_availability():
    factories = model_factories()
    for identifier, factory in factories.items():
        state, hint = factory.availability()
        assert state and hint, identifier
    assert factories["pixels"].availability()[0] == "ready"
    assert factories["alexnet-random"].availability()[0] == "ready"  # plain torch, seeded: nothing to fetch
    state, hint = factories["alexnet"].availability()  # no weight file in the test's home
    assert state == "needs weights" and "alexnet-owt-7be5be79.pth" in hint
    expected = "ready" if importlib.util.find_spec("torchvision") else "needs torchvision"
    assert factories["resnet34"].availability()[0] == expected


def test_list_models_prints_the_state_and_the_way_to_get_it(capsys):
    from brainscore_vision.cli import main

    assert main(["list", "models"]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines() if line.strip()}
    assert "[ready]" in lines["randomnet"]
    assert "[needs weights]" in lines["alexnet"] and "download.pytorch.org" in lines["alexnet"]
    assert "[ready]" in lines["cornet_s-random"]
    if importlib.util.find_spec("torchvision") is None:
        assert "[needs torchvision]" in lines["resnet34"] and "model-tools[torchvision]" in lines["resnet34"]
