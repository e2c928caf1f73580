"""What a model plugin needs before it can run here, told without importing it (``brainscore list models``,
``brainscore score --dry-run``).

* A factory with ``availability()`` (model-tools' zoo) says it itself; it is asked only when its plugin is a built-in
  one or already imported, so listing imports no third-party plugin.
* Otherwise the plugin's files say it: the packages its ``requirements.txt`` lists that are not installed
  (:func:`brainscore_core.plugin_folders.requirements_command`), and the weight files its code fetches with
  ``load_weight_file`` that are not on this machine yet (:mod:`brainscore_core.plugin_weights`).

The plugin's files are those of its folder (a Brain-Score plugin folder) or of the package its entry point names.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["ModelPlugin", "model_needs", "model_plugins"]


@dataclass(frozen=True)
class ModelPlugin:
    """One model identifier and where it comes from.

    Attributes
    ----------
    identifier : str
    origin : str
        The distribution (``model-tools``), ``plugin folder <path>``, or the registering module.
    location : pathlib.Path or None
        The plugin's folder or module file, when known without importing it.
    builtin : bool
        From one of this repository's distributions.
    note : str
        Why this entry is special (a folder that replaces a built-in model), else ''.
    """

    identifier: str
    origin: str
    location: Path | None
    builtin: bool
    note: str = ""


def _location(module: str | None) -> Path | None:
    from brainscore_core.plugin_weights import plugin_location

    return plugin_location(module) if module else None


def model_plugins() -> list[ModelPlugin]:
    """Every model identifier of the entry-point plugins and of the plugin folders, sorted (a folder that replaces a
    built-in identifier is listed in its place; nothing is imported but plugins the index does not know yet)."""
    import brainscore_vision

    domain = brainscore_vision.domain
    found: dict[str, ModelPlugin] = {}
    for info in domain.list_plugins("model"):
        builtin = info.distribution in domain.builtin_distributions
        found[info.identifier] = ModelPlugin(info.identifier, info.distribution or info.module or "-",
                                             _location(info.module), builtin)
    folders = domain.folders.registrations("model") if domain.folders is not None else []
    for match in folders:
        existing = found.get(match.identifier)
        if existing is not None and existing.origin == f"plugin folder {match.path}":
            continue
        note = ""
        if existing is not None and existing.location is not None and existing.location == match.path:
            continue  # the folder is the installed plugin itself
        if existing is not None:
            note = (f"replaces the built-in one of {existing.origin}" if existing.builtin else
                    f"also registered by {existing.origin}: loading it is a DuplicateIdentifierError")
        found[match.identifier] = ModelPlugin(match.identifier, f"plugin folder {match.path}", match.path, False, note)
    return [found[identifier] for identifier in sorted(found)]


@dataclass(frozen=True)
class _Needs:
    state: str
    hint: str


def model_needs(plugin: ModelPlugin) -> tuple[str, str]:
    """``(state, hint)``: ``'ready'`` or what is missing (``'needs weights'``, ``'needs <packages>'``) and how to get
    it; see the module docstring."""
    import brainscore_vision

    registry = brainscore_vision.model_registry
    if plugin.builtin or registry.is_registered(plugin.identifier) and not plugin.origin.startswith("plugin folder"):
        availability = getattr(registry[plugin.identifier], "availability", None)
        if callable(availability):
            state, hint = availability()
            return str(state), str(hint)
    return _from_files(plugin.location)


def _from_files(location: Path | None) -> tuple[str, str]:
    from brainscore_core.plugin_folders import requirements_command
    from brainscore_core.plugin_weights import plugin_weight_files

    if location is None:
        return "ready", ""
    problems, hints = [], []
    folder = location if location.is_dir() else location.parent
    command = requirements_command(folder) if location.is_dir() else None
    if command is not None:
        problems.append(f"needs {', '.join(command[1])}")
        hints.append(f"install with: {command[0]}")
    missing = [weight for weight in plugin_weight_files(location) if not weight.present]
    if missing:
        problems.append("needs weights")
        files = "; ".join(f"{weight.describe()} -> {weight.path}" for weight in missing)
        hints.append(f"{len(missing)} weight file(s) not here yet, downloaded when the model is first built (offline: "
                     f"put them there): {files}")
    return (", ".join(problems), "; ".join(hints)) if problems else ("ready", "")
