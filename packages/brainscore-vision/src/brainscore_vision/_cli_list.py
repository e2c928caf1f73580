"""``brainscore list benchmarks | models | metrics | ceilings | data | stimulus_sets``: one line per identifier, with
where it comes from and, for benchmarks and models, what it needs here; aliases beside their target."""

from __future__ import annotations

__all__ = ["LIST_KINDS", "run_list_command"]

#: the command's kinds -> registry kind
LIST_KINDS = {"benchmarks": "benchmark", "models": "model", "metrics": "metric", "ceilings": "ceiling",
              "data": "data", "stimulus_sets": "stimulus_set"}


def run_list_command(args) -> int:
    import brainscore_vision

    kind = LIST_KINDS[args.kind]
    if kind == "model":
        return _list_models()
    registry = brainscore_vision.domain.registry(kind)
    everything = brainscore_vision.list_plugins(kind)
    aliases = _aliases(registry, everything)
    infos = [info for info in everything if not _alias_of(registry, info.identifier)]
    names = {info.identifier: info.identifier + (f" (alias {', '.join(aliases[info.identifier])})"
                                                 if info.identifier in aliases else "") for info in infos}
    width = max((len(name) for name in names.values()), default=10)
    for info in infos:
        origin = info.distribution or info.module or "-"
        line = f"{names[info.identifier].ljust(width)}  {origin}"
        if kind == "benchmark":  # what it needs: shipped data, the public bucket, local files
            from brainscore_vision.benchmark_data import data_marker

            line += f"  {data_marker(info.identifier)}"
        print(line)
    return 0


def _list_models() -> int:
    """Every model of the installed plugins and of the plugin folders, with what each needs here (its weights, the
    packages its requirements.txt lists), told without importing third-party plugins (:mod:`._plugin_needs`)."""
    import brainscore_vision
    from brainscore_vision._plugin_needs import model_needs, model_plugins

    registry = brainscore_vision.model_registry
    plugins = model_plugins()
    imported = {plugin.identifier for plugin in plugins if registry.is_registered(plugin.identifier)}
    aliases = {}
    for plugin in plugins:  # aliases of the zoo (alias_of), shown beside their model; the zoo is imported anyway
        target = _alias_of(registry, plugin.identifier) if plugin.builtin or plugin.identifier in imported else None
        if target:
            aliases.setdefault(target, []).append(plugin.identifier)
    shown = [plugin for plugin in plugins if not any(plugin.identifier in names for names in aliases.values())]
    names = {p.identifier: p.identifier + (f" (alias {', '.join(aliases[p.identifier])})" if p.identifier in aliases
                                           else "") for p in shown}
    width = max((len(name) for name in names.values()), default=10)
    for plugin in shown:
        state, hint = model_needs(plugin)
        line = f"{names[plugin.identifier].ljust(width)}  {plugin.origin}  [{state}]" + (f" {hint}" if hint else "")
        print(line + (f" ({plugin.note})" if plugin.note else ""))
    return 0


def _alias_of(registry, identifier: str) -> str | None:
    from brainscore_vision.selection import alias_of

    return alias_of(registry, identifier)


def _aliases(registry, infos) -> dict[str, list[str]]:
    """Model identifier -> its aliases, each listed once beside it instead of on a line of its own."""
    found: dict[str, list[str]] = {}
    for info in infos:
        target = _alias_of(registry, info.identifier)
        if target:
            found.setdefault(target, []).append(info.identifier)
    return found
