"""One-line position notation for Edelweiss, like chess's FEN (grammar and examples: docs/notation.md).

A notation holds exactly what the E14.5 position JSON holds, as ten space-separated fields:

    config turn turn_player window P1 P2 deck discard attack result

for example P1 defending in turn 12 against P2's attack with 6S, and a finished game:

    full 12 P2 defense 3D,7D/4S:T,9H:U 2C/6S:T,10C:U JS,5H,2S 8C,6D 6S -
    full 9 P1 over 2S/- -/- 3S - - P1:attack

A player is HAND/FIELD: the hand in canonical order (E14.5), `*` marking a card the opponent
knows (E2.5); the field in arrival order with orientation (E14.4). `-` is an empty zone or none.

Round trip: `parse_notation(state.notation()).position() == state.position()` and
`parse_notation(text).notation() == text` for every notation a state prints. Parsing checks the
syntax here and everything else through the E14.5 loader; either way a malformed notation raises
`PositionError` naming the notation field (`P1.hand[2]`, `attack`, ...) and the problem.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardlab.core.errors import PositionError
from cardlab.games.edelweiss.cards import CARD_NAMES, CHARACTER_IDS, WINDOW_BY_NAME
from cardlab.games.edelweiss.config import STANDARDS

if TYPE_CHECKING:
    from cardlab.games.edelweiss.state import EdelweissState

FIELDS = ("config", "turn", "turn_player", "window", "P1", "P2", "deck", "discard", "attack", "result")
"""The notation's fields, in order; `PositionError.field` names one of them (or a part of one)."""

EMPTY = "-"
REVEALED = "*"
"""Marks a hand card its owner's opponent knows (Diamond Dust, E2.5/E4.3)."""

_CARD_IDS = {name: card for card, name in enumerate(CARD_NAMES)}
_DEFENSES = ("guard", "block", "field_guard")
_WIN_REASONS = ("attack", "deck_out")
_PLAYERS = ("P1", "P2")


# -- writing ------------------------------------------------------------------------------------


def dump_notation(state: EdelweissState) -> str:
    """The state's one-line notation."""
    return notation_of_position(state.position())


def notation_of_position(data: Mapping[str, Any]) -> str:
    """The notation of an E14.5 position JSON as `EdelweissState.position()` writes it."""
    revealed = data.get("revealed") or {}
    players = [_player_text(data["players"][seat], set(revealed.get(seat, ()))) for seat in _PLAYERS]
    winner = data.get("winner")
    fields = [
        _config_text(data["config"]),
        str(data["turn"]),
        data["turn_player"],
        data["window"],
        *players,
        _list_text(data["deck"]),
        _list_text(data["discard"]),
        _attack_text(data.get("attack")),
        EMPTY if data.get("win_reason") is None else f"{winner or 'draw'}:{data['win_reason']}",
    ]
    return " ".join(fields)


def _list_text(cards: list[str]) -> str:
    return ",".join(cards) or EMPTY


def _config_text(config: Mapping[str, Any]) -> str:
    rules = "".join(f"+{name}={value}" for name, value in sorted((config.get("rules") or {}).items()))
    if config["deck"] != "skills":
        return str(config["deck"]) + rules
    characters = config["characters"]
    if characters is None:
        raise PositionError("config", "a skills position names both characters (E7.1)")
    return f"skills:{config['standard']}:{characters['P1']},{characters['P2']}{rules}"


def _player_text(player: Mapping[str, Any], revealed: set[str]) -> str:
    hand = [card + REVEALED if card in revealed else card for card in player["hand"]]
    return f"{_list_text(hand)}/{_list_text(player['field'])}"


def _attack_text(attack: Mapping[str, Any] | None) -> str:
    if attack is None:
        return EMPTY
    if attack.get("pursuit_club") is not None:
        raise PositionError("attack", "no position rests after a pursuit: the break phase follows it (E5.6)")
    parts = [attack["spade"]]
    defense = attack["defense"]
    if defense is not None:
        card = attack["blocker"] if defense == "block" else attack["guard_card"]
        parts.append(f"{defense}={card}")
    if attack["counter"]:
        parts.append("counter")
    return "/".join(parts)


# -- reading ------------------------------------------------------------------------------------


def parse_notation(text: str) -> EdelweissState:
    """The state a notation describes, advanced through automatic steps like a loaded JSON (E14.5)."""
    from cardlab.games.edelweiss.position import load_position

    data = position_of_notation(text)
    try:
        return load_position(data)
    except PositionError as error:
        raise PositionError(_notation_field(error.field), _notation_names(error.problem)) from None


def position_of_notation(text: str) -> dict[str, Any]:
    """The E14.5 position JSON a notation spells, checking its syntax only (not the rules)."""
    if not isinstance(text, str):
        raise PositionError("notation", f"expected a string, got {type(text).__name__}")
    fields = text.split()
    if len(fields) != len(FIELDS):
        raise PositionError(
            "notation", f"expected {len(FIELDS)} space-separated fields ({' '.join(FIELDS)}), got {len(fields)}"
        )
    config, turn, turn_player, window, p1, p2, deck, discard, attack, result = fields
    data: dict[str, Any] = {
        "game": "edelweiss",
        "config": _parse_config(config),
        "turn": _parse_turn(turn),
        "turn_player": _parse_seat(turn_player, "turn_player"),
        "window": _parse_window(window),
        "deck": _parse_cards(deck, "deck"),
        "discard": _parse_cards(discard, "discard"),
    }
    players: dict[str, Any] = {}
    revealed: dict[str, list[str]] = {}
    for seat, value in zip(_PLAYERS, (p1, p2), strict=True):
        players[seat], revealed[seat] = _parse_player(value, seat)
    data["players"] = players
    data["attack"] = _parse_attack(attack)
    if result == EMPTY:
        data["winner"] = None
    else:
        data["winner"], data["win_reason"] = _parse_result(result)
    if revealed["P1"] or revealed["P2"]:
        data["revealed"] = revealed
    return data


def _fail(field: str, problem: str) -> PositionError:
    return PositionError(field, problem)


def _parse_config(full_text: str) -> dict[str, Any]:
    text, *rule_texts = full_text.split("+")
    config = _parse_deal_config(text)
    if rule_texts:  # rule options (docs/notation.md): +NAME=VALUE each, checked when the position loads
        pairs = [rule.partition("=") for rule in rule_texts]
        if any(not name or not sep or not value for name, sep, value in pairs):
            raise _fail("config", f"{full_text!r}: a rule option is written +NAME=VALUE (cardlab rules edelweiss)")
        config["rules"] = {name: value for name, _, value in pairs}
    return config


def _parse_deal_config(text: str) -> dict[str, Any]:
    if text in ("full", "short"):
        return {"deck": text, "standard": None, "characters": None}
    parts = text.split(":")
    if parts[0] != "skills" or len(parts) != 3:
        raise _fail("config", f"{text!r}: expected 'full', 'short' or 'skills:STANDARD:P1CHAR,P2CHAR' (E1.1, E7.4)")
    _, standard, characters = parts
    if standard not in STANDARDS:
        raise _fail("config", f"{standard!r} is not a standard; one of {', '.join(STANDARDS)} (E7.4)")
    pair = characters.split(",")
    if len(pair) != 2:
        raise _fail("config", f"{characters!r}: expected two character ids, P1's then P2's (E9)")
    for seat, char_id in zip(_PLAYERS, pair, strict=True):
        if char_id not in CHARACTER_IDS:
            raise _fail("config", f"{seat}'s character {char_id!r} is not one of {', '.join(CHARACTER_IDS)} (E9)")
    return {"deck": "skills", "standard": standard, "characters": dict(zip(_PLAYERS, pair, strict=True))}


def _parse_turn(text: str) -> int:
    if not text.isdecimal() or text != str(int(text)) or int(text) < 1:
        raise _fail("turn", f"{text!r}: expected an integer >= 1 without leading zeros")
    return int(text)


def _parse_seat(text: str, field: str) -> str:
    if text not in _PLAYERS:
        raise _fail(field, f"{text!r}: expected P1 or P2")
    return text


def _parse_window(text: str) -> str:
    if text not in WINDOW_BY_NAME:
        raise _fail("window", f"{text!r} is not one of {', '.join(WINDOW_BY_NAME)}")
    return text


def _parse_card(text: str, field: str) -> str:
    if text not in _CARD_IDS:
        raise _fail(field, f"{text!r} is not a card (rank 2-10, J, Q, K or A, then suit S, H, C or D: E0.2)")
    return text


def _items(text: str, field: str) -> list[str]:
    if text == EMPTY:
        return []
    items = text.split(",")
    if "" in items:
        raise _fail(field, f"{text!r}: an empty item (cards are separated by single commas; '-' is an empty zone)")
    return items


def _parse_cards(text: str, field: str) -> list[str]:
    return [_parse_card(item, f"{field}[{index}]") for index, item in enumerate(_items(text, field))]


def _parse_player(text: str, seat: str) -> tuple[dict[str, Any], list[str]]:
    hand_text, slash, field_text = text.partition("/")
    if not slash or "/" in field_text:
        raise _fail(seat, f"{text!r}: expected HAND/FIELD, e.g. '2H,9S/5S:U,8C:T' or '-/-'")
    hand: list[str] = []
    revealed: list[str] = []
    for index, item in enumerate(_items(hand_text, f"{seat}.hand")):
        name = item.removesuffix(REVEALED)
        card = _parse_card(name, f"{seat}.hand[{index}]")
        hand.append(card)
        if name != item:
            revealed.append(card)
    canonical = sorted(hand, key=_CARD_IDS.__getitem__)
    if hand != canonical:
        raise _fail(
            f"{seat}.hand",
            f"cards must be in canonical order, rank then suit S, H, C, D (E14.5): {','.join(canonical)}",
        )
    field = []
    for index, item in enumerate(_items(field_text, f"{seat}.field")):
        name, colon, orientation = item.partition(":")
        if not colon or orientation not in ("U", "T"):
            raise _fail(f"{seat}.field[{index}]", f"{item!r}: expected a card with ':U' (upright) or ':T' (tapped)")
        field.append(f"{_parse_card(name, f'{seat}.field[{index}]')}:{orientation}")
    return {"hand": hand, "field": field}, revealed


def _parse_attack(text: str) -> dict[str, Any] | None:
    if text == EMPTY:
        return None
    spade, *rest = text.split("/")
    attack: dict[str, Any] = {
        "spade": _parse_card(spade, "attack"),
        "defense": None,
        "guard_card": None,
        "blocker": None,
        "counter": False,
        "pursuit_club": None,
    }
    if rest and rest[-1] == "counter":
        attack["counter"] = True
        rest.pop()
    if rest:
        defense, equals, card = rest.pop(0).partition("=")
        if not equals or defense not in _DEFENSES:
            raise _fail("attack", f"{text!r}: expected SPADE[/DEFENSE=CARD][/counter], DEFENSE one of "
                        f"{', '.join(_DEFENSES)} (E5.3)")  # fmt: skip
        attack["defense"] = defense
        attack["blocker" if defense == "block" else "guard_card"] = _parse_card(card, "attack")
    if rest:
        raise _fail("attack", f"{text!r}: expected SPADE[/DEFENSE=CARD][/counter]")
    return attack


def _parse_result(text: str) -> tuple[str | None, str]:
    winner, colon, reason = text.partition(":")
    if winner not in (*_PLAYERS, "draw") or not colon or reason not in _WIN_REASONS:
        raise _fail("result", f"{text!r}: expected '-' or WINNER:REASON, e.g. 'P1:attack' or 'P2:deck_out' (E6)")
    return None if winner == "draw" else winner, reason


# -- error fields ---------------------------------------------------------------------------------

_SEAT_PATH = re.compile(r"players\.(P[12])")


def _notation_field(field: str) -> str:
    """The notation field for a field of the position JSON (`players.P1.hand` -> `P1.hand`, `winner` -> `result`)."""
    head = field.split(".")[0].split("[")[0]
    if head == "players":
        return _SEAT_PATH.sub(r"\1", field)
    if head == "revealed":
        return f"{field.split('.')[1]}.hand" if "." in field else "P1.hand"
    if head in ("winner", "win_reason"):
        return "result"
    return field  # config.*, attack.* (the JSON's part names), turn, deck, ... as they are


def _notation_names(problem: str) -> str:
    return _SEAT_PATH.sub(r"\1", problem)
