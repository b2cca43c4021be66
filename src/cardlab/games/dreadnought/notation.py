"""One-line position notation for Dreadnought, like chess's FEN (grammar and examples: docs/notation.md).

It holds exactly what the position JSON holds (docs/dreadnought-position.md), as twelve fields:

    config turn phase first token attack triggers cost_reduction stack P1 P2 result

a player being `BA1|BA2|HAND|DECK|DISCARD|BURSTS` and then `|KEY=VALUE` for each other zone or
counter that is not empty; a battle area is `CASTER/HP/UNITS`. Piles are written top card first
(the deck and the HP stacks, which the JSON lists top card last), objects as their card and the
fields that differ from a fresh one (`X01{checked=true}`), and what is under way (attack,
triggers, stack) as compact JSON. Built on the JSON with `cardlab.core.notation`, so whatever the
JSON round-trips, this does too.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from cardlab.core.errors import PositionError
from cardlab.core.notation import (
    EMPTY,
    Reader,
    fields,
    number,
    read_result,
    read_whole,
    seat,
    write_config,
    write_list,
    write_object,
    write_result,
    write_string,
    write_value,
)

if TYPE_CHECKING:
    from cardlab.games.dreadnought.game import Dreadnought
    from cardlab.games.dreadnought.state import DreadnoughtState

FIELDS = (
    "config", "turn", "phase", "first", "token", "attack", "triggers", "cost_reduction", "stack", "P1", "P2", "result",
)  # fmt: skip
"""The notation's fields, in order; a `PositionError` from the syntax names one of them."""

CONFIG_KEYS = ("casters", "cards", "patches")
"""The config fields written `+KEY=VALUE` after the decks; any other `+NAME=VALUE` is a rule option."""

CASTER_DEFAULTS = {"checked": False, "shield": 0, "arms": None}
UNIT_DEFAULTS = {
    "dummy": False, "checked": False, "enchants": [], "attached": [], "bp_mod": 0, "shield": 0, "moved": False,
    "known": False,
}  # fmt: skip
"""A fresh unit's fields; `known` belongs to dummies only (the JSON has it for them alone)."""
SLOT_DEFAULTS = {"checked": False}
"""A burst's or engrave's fields beside its card."""

EXTRAS: dict[str, Any] = {
    "known_hand": [], "speed": [], "gear": [], "mulligan": [], "limbo": [], "placement": [], "engraves": [],
    "idol": None, "speed_shift": 0, "geared": False,
}  # fmt: skip
"""The player fields written `|KEY=VALUE` only when they differ from these values."""

_AREAS = ("BA1", "BA2")
_TOP_LAST = re.compile(r"players\.(P[12])\.(deck|BA1\.hp|BA2\.hp)\[(\d+)\]")


def dump_notation(state: DreadnoughtState) -> str:
    """The state's one-line notation."""
    return notation_of_position(state.position())


def notation_of_position(data: dict[str, Any]) -> str:
    """The notation of a position JSON as `DreadnoughtState.position()` writes it."""
    return " ".join(
        [
            write_config(data["config"]),
            str(data["turn"]),
            data["phase"],
            write_value(data["first"]),
            data["token"],
            write_value(data["attack"]),
            write_list(data["triggers"]),
            str(data["cost_reduction"]),
            write_list(data["stack"]),
            *(_player_text(data["players"][name]) for name in ("P1", "P2")),
            write_result(data),
        ]
    )


def _unit_text(unit: dict[str, Any] | None) -> str:
    return write_object(unit, UNIT_DEFAULTS)


def _player_text(player: dict[str, Any]) -> str:
    parts = [_area_text(player[area]) for area in _AREAS]
    parts += [write_list(player["hand"], write_string), write_list(player["deck"][::-1], write_string)]
    parts += [
        write_list(player["discard"], write_string),
        write_list(player["bursts"], lambda slot: write_object(slot, SLOT_DEFAULTS)),
    ]
    for key, default in EXTRAS.items():
        if player[key] != default:
            parts.append(f"{key}={_extra_text(key, player[key])}")
    return "|".join(parts)


def _area_text(area: dict[str, Any]) -> str:
    caster = write_object(area["caster"], CASTER_DEFAULTS)
    return f"{caster}/{write_list(area['hp'][::-1], write_string)}/{write_list(area['units'], _unit_text)}"


def _extra_text(key: str, value: Any) -> str:
    if key == "idol":
        return _unit_text(value)
    if key == "engraves":
        return write_list(value, lambda slot: write_object(slot, SLOT_DEFAULTS))
    if isinstance(value, list):
        return write_list(value, write_string)
    return write_value(value)


def parse_notation(game: Dreadnought, text: str) -> DreadnoughtState:
    """The state a notation describes (its own config wins over `game`'s, as in `load_position`)."""
    data = position_of_notation(text)
    try:
        return game.load_position(data)
    except PositionError as error:
        raise PositionError(_notation_field(error.field, data), error.problem) from None


def _notation_field(field: str, data: dict[str, Any]) -> str:
    """A JSON field as the notation counts it: deck and HP indices from the top card."""
    match = _TOP_LAST.fullmatch(field)
    if match is None:
        return field
    seat_name, pile, index = match.groups()
    cards = data["players"][seat_name]
    for key in pile.split("."):
        cards = cards[key]
    return f"players.{seat_name}.{pile}[{len(cards) - 1 - int(index)}] (counted from the top)"


def position_of_notation(text: str) -> dict[str, Any]:
    """The position JSON a notation spells, checking its syntax only (the loader checks the rules)."""
    parts = fields(text, FIELDS)
    attack, triggers, stack = parts["attack"], parts["triggers"], parts["stack"]
    first = parts["first"]
    data: dict[str, Any] = {
        "game": "dreadnought",
        "config": _config(parts["config"]),
        "turn": number(parts["turn"]),
        "phase": read_whole(parts["phase"], parts["phase"].name),
        "first": None if first.text == EMPTY else seat(first),
        "token": seat(parts["token"]),
        "players": {name: _read_player(parts[name]) for name in ("P1", "P2")},
        "attack": read_whole(attack, attack.value),
        "triggers": read_whole(triggers, lambda: triggers.items(triggers.value)),
        "cost_reduction": number(parts["cost_reduction"]),
        "stack": read_whole(stack, lambda: stack.items(stack.value)),
    }
    data.update(read_result(parts["result"], ""))
    return data


def _read_unit(reader: Reader) -> dict[str, Any] | None:
    unit = reader.obj(UNIT_DEFAULTS)
    if unit is not None and not unit["dummy"]:
        del unit["known"]
    return unit


def _config(reader: Reader) -> dict[str, Any]:
    """The config as the game writes it (defaults filled in), checked field by field."""
    from cardlab.games.dreadnought.game import DreadnoughtConfig

    return DreadnoughtConfig.from_json(reader.config(CONFIG_KEYS)).to_json()


def _read_player(reader: Reader) -> dict[str, Any]:
    player: dict[str, Any] = {}
    for index, area in enumerate(_AREAS):
        if index:
            reader.expect("|")
        caster = reader.obj(CASTER_DEFAULTS)  # '-' before the casters are placed (D4.1)
        reader.expect("/")
        hp = reader.items(reader.string, "/|")[::-1]
        reader.expect("/")
        player[area] = {"caster": caster, "hp": hp, "units": reader.items(lambda: _read_unit(reader), "|")}
    for pile in ("hand", "deck", "discard"):
        reader.expect("|")
        player[pile] = reader.items(reader.string, "|")
    player["deck"].reverse()
    reader.expect("|")
    player["bursts"] = reader.items(lambda: reader.obj(SLOT_DEFAULTS), "|")
    player.update(EXTRAS)
    while reader.take("|"):
        start = reader.pos
        key = reader.name()
        if key not in EXTRAS:
            raise reader.error(f"{key!r} is not a player field; one of {', '.join(EXTRAS)}", start)
        reader.expect("=")
        player[key] = _read_extra(reader, key)
    reader.done()
    return player


def _read_extra(reader: Reader, key: str) -> Any:
    if key == "idol":
        return _read_unit(reader)
    if key == "engraves":
        return reader.items(lambda: reader.obj(SLOT_DEFAULTS), "|")
    if isinstance(EXTRAS[key], list):
        return reader.items(reader.string, "|")
    return reader.value()
