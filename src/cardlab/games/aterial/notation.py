"""One-line position notation for Aterial, like chess's FEN (grammar and examples: docs/notation.md).

It holds exactly what the position JSON holds (docs/aterial-position.md), as twelve fields:

    config turn active first window chooser pending triggers seed P1 P2 result

a player being `LP|FRONT/BACK|HAND|DECK|DISCARD|REMOVED`: the grid rows as squares 0-2 (`-`
empty; a unit is its card and the fields that differ from a fresh unit, `S14{ready=false}`), then
card lists with the deck written in full, top card first. The notation is built on the JSON (the
shared pieces are in `cardlab.core.notation`), so whatever the JSON round-trips, it does too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardlab.core.notation import (
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
    write_value,
)

if TYPE_CHECKING:
    from cardlab.games.aterial.game import Aterial
    from cardlab.games.aterial.state import AterialState

FIELDS = ("config", "turn", "active", "first", "window", "chooser", "pending", "triggers", "seed", "P1", "P2", "result")
"""The notation's fields, in order; a `PositionError` from the syntax names one of them."""

CONFIG_KEYS = ("leaders", "first", "cards", "patches")
"""The config fields written `+KEY=VALUE` after the decks; any other `+NAME=VALUE` is a rule option."""

UNIT_DEFAULTS = {"ready": True, "damage": 0, "moves": 0, "devoured": False, "attack_bonus": 0}
"""A unit's fields as a unit fresh on the field has them; a unit's notation lists only the others."""

_ROWS = (("F0", "F1", "F2"), ("B0", "B1", "B2"))
_PILES = ("hand", "deck", "discard", "removed")


def dump_notation(state: AterialState) -> str:
    """The state's one-line notation."""
    return notation_of_position(state.position())


def notation_of_position(data: dict[str, Any]) -> str:
    """The notation of a position JSON as `AterialState.position()` writes it."""
    return " ".join(
        [
            write_config(data["config"]),
            str(data["turn"]),
            data["active"],
            data["first"],
            data["window"],
            data["chooser"],
            write_value(data["pending"]),
            write_list(data["triggers"]),
            write_value(data["shuffle_seed"]),
            *(_player_text(data["players"][name]) for name in ("P1", "P2")),
            write_result(data),
        ]
    )


def _player_text(player: dict[str, Any]) -> str:
    grid = "/".join(",".join(write_object(player["field"][sq], UNIT_DEFAULTS) for sq in row) for row in _ROWS)
    return "|".join([str(player["lp"]), grid, *(write_list(player[pile]) for pile in _PILES)])


def parse_notation(game: Aterial, text: str) -> AterialState:
    """The state a notation describes (its own config wins over `game`'s, as in `load_position`)."""
    return game.load_position(position_of_notation(text))


def position_of_notation(text: str) -> dict[str, Any]:
    """The position JSON a notation spells, checking its syntax only (the loader checks the rules)."""
    parts = fields(text, FIELDS)
    pending = parts["pending"]
    triggers = parts["triggers"]
    data: dict[str, Any] = {
        "game": "aterial",
        "config": _config(parts["config"]),
        "turn": number(parts["turn"]),
        "active": seat(parts["active"]),
        "first": seat(parts["first"]),
        "window": read_whole(parts["window"], parts["window"].name),
        "chooser": seat(parts["chooser"]),
        "pending": read_whole(pending, pending.value),
        "triggers": read_whole(triggers, lambda: triggers.items(triggers.value)),
        "shuffle_seed": number(parts["seed"]),
        "players": {name: _read_player(parts[name]) for name in ("P1", "P2")},
    }
    data.update(read_result(parts["result"], None))
    return data


def _config(reader: Reader) -> dict[str, Any]:
    """The config as the game writes it (defaults filled in), checked field by field."""
    from cardlab.games.aterial.game import AterialConfig

    return AterialConfig.from_json(reader.config(CONFIG_KEYS)).to_json()


def _read_player(reader: Reader) -> dict[str, Any]:
    lp = reader.value()
    if isinstance(lp, bool) or not isinstance(lp, int):
        raise reader.error("expected LP|FRONT/BACK|HAND|DECK|DISCARD|REMOVED, starting with the LP", 0)
    field: dict[str, Any] = {}
    for row_index, row in enumerate(_ROWS):
        reader.expect("|" if row_index == 0 else "/")
        start = reader.pos
        units = reader.items(lambda: reader.obj(UNIT_DEFAULTS), "/|")
        if len(units) != len(row):
            raise reader.error(f"a row has 3 squares ('-' for an empty one), got {len(units)}", start)
        field.update(zip(row, units, strict=True))
    player: dict[str, Any] = {"lp": lp}
    for pile in _PILES:
        reader.expect("|")
        player[pile] = reader.items(reader.string, "|")
    reader.done()
    player["field"] = field
    return player
