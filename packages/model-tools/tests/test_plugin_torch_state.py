"""Issue 42: torch's global state is recorded before a plugin is imported or a model is built and put back after, with
one notice naming the plugin and the setting; the plugin's own settings hold while its own factories run.

compact_vgg19_V4 calls ``torch.set_default_dtype(torch.float64)`` when imported: every later model of the process
then ran in float64 (nasnet 0.1444 instead of 0.1137, five times slower). Expected values here are torch's own
settings before and after, read back with torch's getters.
"""

from __future__ import annotations

import textwrap
import uuid
import warnings

import pytest
import torch

from brainscore_core.config import set_options
from brainscore_core.errors import PluginStateNotice

FOLDER_INIT = """
    from brainscore_vision import model_registry
    from .model import build

    model_registry['{identifier}'] = build
"""


def _folder(root, source: str) -> str:
    name = f"state_{uuid.uuid4().hex[:8]}"
    identifier = name.replace("_", "-")
    folder = root / "models" / name
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text(textwrap.dedent(FOLDER_INIT.format(identifier=identifier)))
    (folder / "model.py").write_text(textwrap.dedent(source))
    return identifier


def _notices(caught) -> list[str]:
    return [str(w.message) for w in caught if issubclass(w.category, PluginStateNotice)]


def test_a_float64_plugin_keeps_float64_to_its_own_models(tmp_path):
    import brainscore_vision

    identifier = _folder(tmp_path, """
        import torch
        from torch import nn

        torch.set_default_dtype(torch.float64)   # as compact_vgg19_V4's model.py does at import
        torch.set_num_threads(1)


        def build():
            torch.manual_seed(0)
            return nn.Linear(3, 2)
    """)
    threads, dtype = torch.get_num_threads(), torch.get_default_dtype()
    assert dtype == torch.float32
    with set_options(plugin_folders=[tmp_path]), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        own = brainscore_vision.load_model(identifier)
        assert torch.get_default_dtype() == torch.float32 and torch.get_num_threads() == threads
        other = brainscore_vision.load_model("randomnet")
        again = brainscore_vision.load_model(identifier)
    assert own.weight.dtype == torch.float64 and again.weight.dtype == torch.float64  # its own choice, kept for it
    network = other.activations_model.model
    assert {parameter.dtype for parameter in network.parameters()} == {torch.float32}  # nobody else's
    [notice] = _notices(caught)
    assert "\n" not in notice and notice.startswith(f"plugin folder {tmp_path / 'models'}")
    assert "torch default dtype torch.float32 -> torch.float64" in notice
    assert f"torch intra-op threads {threads} -> 1" in notice and "when it was imported" in notice


def test_a_factory_that_changes_torch_settings_is_put_back_with_a_notice(tmp_path):
    import brainscore_vision

    identifier = _folder(tmp_path, """
        import torch


        def build():
            torch.use_deterministic_algorithms(True)
            torch.set_grad_enabled(False)
            return 'built'
    """)
    with set_options(plugin_folders=[tmp_path]), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert brainscore_vision.load_model(identifier) == "built"
    assert not torch.are_deterministic_algorithms_enabled() and torch.is_grad_enabled()
    [notice] = _notices(caught)
    assert notice.startswith(f"model {identifier!r}") and "while it was built" in notice
    assert "torch deterministic algorithms (False, False) -> (True, False)" in notice
    assert "torch gradient mode True -> False" in notice


def test_a_plugin_seeding_torch_at_import_does_not_reseed_the_process(tmp_path):
    import brainscore_vision

    identifier = _folder(tmp_path, """
        import torch

        torch.manual_seed(1234)


        def build():
            return torch.rand(3)
    """)
    torch.manual_seed(99)
    expected_process = torch.rand(3)  # what the process's generator gives after manual_seed(99)
    expected_plugin = torch.Generator().manual_seed(1234)
    torch.manual_seed(99)
    with set_options(plugin_folders=[tmp_path]), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        built = brainscore_vision.load_model(identifier)
        assert torch.equal(built, torch.rand(3, generator=expected_plugin))  # its factory sees its own seed
    assert torch.equal(torch.rand(3), expected_process)


@pytest.fixture(autouse=True)
def _settings_back():
    """Whatever a failing test leaves, the next one starts from these."""
    dtype, threads, grad = torch.get_default_dtype(), torch.get_num_threads(), torch.is_grad_enabled()
    deterministic = torch.are_deterministic_algorithms_enabled()
    yield
    torch.set_default_dtype(dtype)
    torch.set_num_threads(threads)
    torch.set_grad_enabled(grad)
    torch.use_deterministic_algorithms(deterministic)
