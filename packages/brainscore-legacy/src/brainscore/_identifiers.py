"""Data identifiers of Brain-Score 1.x and brainio 2021 (lab-prefixed, e.g. ``dicarlo.Majaj2015``) mapped to today's.

Rules, in order, for an identifier of kind ``'data'`` (assemblies) or ``'stimulus_set'``:

1. registered today under that name: itself;
2. an era name listed in :data:`ERA_NAMES` (the README's ``dicarlo.Majaj2015`` is today's ``MajajHong2015.public``);
3. the storage identifier of an entry of Brain-Score's public catalogue (``dicarlo.MajajHong2015.public``,
   ``movshon.FreemanZiemba2013.public``, ``brendel.Geirhos2021_colour``): that entry's identifier;
4. a lab prefix (``<lab>.``) dropped, when the rest is registered today;
5. data that exists today but is not public (:data:`NOT_PUBLIC`): a one-line :class:`LegacyIdentifierError` naming
   today's identifier and, where there is one, its public counterpart;
6. otherwise a one-line :class:`LegacyIdentifierError` naming the identifier today's name would have.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["ERA_NAMES", "NOT_PUBLIC", "LegacyIdentifierError", "today_identifier"]

#: (kind, identifier of the 1.x era) -> today's identifier of the same public data
ERA_NAMES: dict[tuple[str, str], str] = {
    ("data", "dicarlo.Majaj2015"): "MajajHong2015.public",
    ("data", "dicarlo.Majaj2015.public"): "MajajHong2015.public",
    ("data", "dicarlo.Majaj2015.temporal.public"): "MajajHong2015.temporal.public",
    ("data", "dicarlo.Rajalingham2018"): "Rajalingham2018.public",
    ("stimulus_set", "dicarlo.hvm-public"): "hvm-public",
    ("stimulus_set", "dicarlo.objectome.public"): "objectome.public",
    ("stimulus_set", "dicarlo.objectome.240"): "objectome.public",
    ("stimulus_set", "movshon.FreemanZiemba2013-public"): "FreemanZiemba2013.public",
    ("stimulus_set", "movshon.FreemanZiemba2013.aperture-public"): "FreemanZiemba2013.aperture-public",
}

#: (kind, identifier of the 1.x era) -> (today's identifier, its public counterpart or None); not public data
NOT_PUBLIC: dict[tuple[str, str], tuple[str, str | None]] = {
    ("data", "dicarlo.MajajHong2015"): ("MajajHong2015.private", "MajajHong2015.public"),
    ("data", "dicarlo.MajajHong2015.private"): ("MajajHong2015.private", "MajajHong2015.public"),
    ("data", "dicarlo.Majaj2015.private"): ("MajajHong2015.private", "MajajHong2015.public"),
    ("data", "dicarlo.MajajHong2015.temporal"): ("MajajHong2015.temporal.private", "MajajHong2015.temporal.public"),
    ("data", "movshon.FreemanZiemba2013"): ("FreemanZiemba2013.private", "FreemanZiemba2013.public"),
    ("data", "movshon.FreemanZiemba2013.private"): ("FreemanZiemba2013.private", "FreemanZiemba2013.public"),
    ("data", "dicarlo.Rajalingham2018.private"): ("Rajalingham2018.private", "Rajalingham2018.public"),
    ("data", "dicarlo.Kar2019"): ("Kar2019", None),
    ("data", "dicarlo.Kar2018hvm"): ("Kar2018hvm", None),
    ("data", "dicarlo.Kar2018cocogray"): ("Kar2018cocogray", None),
    ("data", "dicarlo.Sanghavi2020"): ("Sanghavi2020", None),
    ("data", "dicarlo.SanghaviJozwik2020"): ("SanghaviJozwik2020", None),
    ("data", "dicarlo.SanghaviMurty2020"): ("SanghaviMurty2020", None),
    ("data", "dicarlo.Rajalingham2020"): ("Rajalingham2020", None),
    ("data", "dicarlo.BashivanKar2019.naturalistic"): ("BashivanKar2019.naturalistic", None),
    ("data", "dicarlo.BashivanKar2019.synthetic"): ("BashivanKar2019.synthetic", None),
    ("data", "tolias.Cadena2017"): ("Cadena2017", None),
    ("data", "aru.Kuzovkin2018"): ("Kuzovkin2018", None),
    ("data", "aru.Cichy2019"): ("Cichy2019", None),
    ("data", "klab.Zhang2018search_obj_array"): ("Zhang2018search_obj_array", None),
    ("stimulus_set", "dicarlo.hvm"): ("hvm", "hvm-public"),
    ("stimulus_set", "dicarlo.hvm-private"): ("hvm-private", "hvm-public"),
    ("stimulus_set", "movshon.FreemanZiemba2013-private"): ("FreemanZiemba2013.private", "FreemanZiemba2013.public"),
}

_KIND_WORDS = {"data": "dataset", "stimulus_set": "stimulus set"}


class LegacyIdentifierError(KeyError):
    """An identifier of the 1.x era with no public data under today's name; the message names today's identifier."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


def _public_storage_names(kind: str) -> dict[str, str]:
    from brainscore_vision.data_helpers.public_catalogue import catalogue

    wanted = "assembly" if kind == "data" else "stimulus_set"
    return {entry["s3_identifier"]: entry["identifier"] for (entry_kind, _), entry in catalogue().items()
            if entry_kind == wanted and entry.get("s3_identifier")}


def today_identifier(kind: str, identifier: str, registered: Mapping) -> str:
    """Today's identifier of ``identifier`` (see the module docstring).

    Parameters
    ----------
    kind : {'data', 'stimulus_set'}
    identifier : str
        An identifier of today or of the 1.x era.
    registered : mapping
        Today's registry of that kind (membership is all that is read; nothing is loaded).

    Raises
    ------
    LegacyIdentifierError
        When no public data of today answers to ``identifier``; the message names today's identifier.
    """
    if identifier in registered:
        return identifier
    if (kind, identifier) in ERA_NAMES:
        return ERA_NAMES[kind, identifier]
    storage = _public_storage_names(kind)
    if identifier in storage:
        return storage[identifier]
    lab, _, rest = identifier.partition(".")
    if rest and rest in registered:
        return rest
    word = _KIND_WORDS[kind]
    if (kind, identifier) in NOT_PUBLIC:
        today, public = NOT_PUBLIC[kind, identifier]
        hint = f"; its public counterpart is {public!r}" if public else "; no public counterpart is registered"
        raise LegacyIdentifierError(f"{word} {identifier!r} is today's {today!r}, which is not public data{hint}")
    today = rest or identifier
    raise LegacyIdentifierError(f"no {word} {identifier!r}: today's identifier would be {today!r}, which is not "
                                f"registered (brainscore list {'data' if kind == 'data' else 'stimulus_sets'})")
