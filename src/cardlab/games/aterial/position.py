"""Position JSON and per-player observations for Aterial (schema: docs/aterial-position.md).

Cards are written by card id; copies of one card are interchangeable, so instance numbers
never appear. Loading numbers each player's cards leader first, then by card id, so that the
numbering cannot encode where hidden cards lie.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardlab.core.errors import PositionError
from cardlab.core.game import PLAYER_NAMES, Player, parse_player
from cardlab.games.aterial.board import SQUARE_INDEX, SQUARE_NAMES
from cardlab.games.aterial.cards import CardDef
from cardlab.games.aterial.state import (
    EMPTY,
    POSITION_KEYS,
    W_ABILITY_TARGET,
    W_ATTACK_TARGET,
    W_BLOCK,
    W_DEPLOY_TO,
    W_MOVE_TO,
    W_OVER,
    W_TRIGGER_TARGET,
    WINDOWS,
    AterialState,
    Trigger,
)

_KEYS = frozenset(POSITION_KEYS)
_PLAYER_KEYS = {"lp", "deck", "hand", "discard", "removed", "field"}
_UNIT_KEYS = {"card", "ready", "damage", "moves", "devoured", "attack_bonus"}


def _ids(state: AterialState, instances: list[int]) -> list[str]:
    return [state.cards[inst].id for inst in instances]


def _unit(state: AterialState, inst: int, with_values: bool) -> dict[str, Any] | None:
    if inst == EMPTY:
        return None
    unit: dict[str, Any] = {
        "card": state.cards[inst].id,
        "ready": state.ready[inst],
        "damage": state.damage[inst],
        "moves": state.moves[inst],
        "devoured": state.devoured[inst],
        "attack_bonus": state.temp_attack[inst],
    }
    if with_values:  # effective values for people and agents; derived, so not part of a position
        unit["attack"] = state.attack_value(inst)
        if state.cards[inst].type == "subordinate":
            unit["hp"] = state.hp_value(inst)
        unit["attack_targets"] = _attack_targets(state, inst)
    return unit


def _attack_targets(state: AterialState, inst: int) -> list[str]:
    """The enemy squares the unit may attack as the board stands (A12.3-A12.4); [] off its turn or on turn 1."""
    player = state.owner[inst]
    if player != state.active or state.turn <= 1 or state.window == W_OVER:  # A12.1
        return []
    return [_square(1 - player, sq) for sq in state.attack_targets(state.square_of[inst])[0]]


def _square(seat_player: Player, square: int) -> str:
    return f"{PLAYER_NAMES[seat_player]}:{SQUARE_NAMES[square]}"


def _pending(state: AterialState) -> dict[str, Any] | None:
    window = state.window
    if window in (W_MOVE_TO, W_ATTACK_TARGET):
        return {"square": SQUARE_NAMES[state.selected]}
    if window == W_DEPLOY_TO:
        return {"card": state.cards[state.selected].id}
    if window in (W_ABILITY_TARGET, W_TRIGGER_TARGET):
        return {"ability": state.selected_key, "amount": state.pending_amount}
    if window == W_BLOCK:
        return {
            "attacker": _square(state.active, state.square_of[state.attacker]),
            "target": _square(1 - state.active, state.square_of[state.target]),
            "side": state.side,
        }
    return None


def _common(state: AterialState) -> dict[str, Any]:
    return {
        "game": "aterial",
        "config": state.game.config_json(),
        "turn": state.turn,
        "active": PLAYER_NAMES[state.active],
        "first": PLAYER_NAMES[state.first],
        "window": WINDOWS[state.window],
        "chooser": PLAYER_NAMES[state.chooser],
        "pending": _pending(state),
        "triggers": [
            {
                "player": PLAYER_NAMES[trigger.controller],
                "ability": trigger.key,
                "amount": trigger.amount,
                "source": state.cards[trigger.source].id,
            }
            for trigger in state.triggers
        ],
    }


def _result(state: AterialState, data: dict[str, Any]) -> dict[str, Any]:
    data["winner"] = None if state.winner is None else PLAYER_NAMES[state.winner]
    data["draw"] = state.draw
    data["reason"] = state.reason or None
    return data


def dump_position(state: AterialState) -> dict[str, Any]:
    data = _common(state)
    data["shuffle_seed"] = state.shuffle_seed
    data["players"] = {
        PLAYER_NAMES[p]: {
            "lp": state.lp[p],
            "deck": _ids(state, state.decks[p][::-1]),
            "hand": sorted(_ids(state, state.hands[p])),
            "discard": _ids(state, state.discards[p]),
            "removed": _ids(state, state.removed[p]),
            "field": {SQUARE_NAMES[sq]: _unit(state, inst, False) for sq, inst in enumerate(state.field[p])},
        }
        for p in (0, 1)
    }
    return _result(state, data)


def dump_observation(state: AterialState, player: Player | None, *, open_hands: bool = False) -> dict[str, Any]:
    """A18.4: no opponent hand, no deck order; counts, LP, damage and unit states are public.

    Besides the position's unit fields, each unit shows what follows from public information:
    `attack` (effective attack, A4.6), `hp` (effective HP; subordinates only) and `attack_targets`,
    the enemy squares it may attack now (`"P2:F1"`, A12.3-A12.4: the squares
    `AterialState.attack_targets` gives; empty for the inactive player's units, on turn 1 (A12.1)
    and once the game is over). `supply` gives, per empty square of each seat, the dominance its
    neighbours supply there (A11.2): a subordinate of that cost or less may be deployed on it (A11.3).
    A hand is a sorted list of card ids for `player` only (None for the others), for every seat with
    `open_hands` (the replay view of `open_observation`).
    """
    data = _common(state)
    data["player"] = None if player is None else PLAYER_NAMES[player]
    to_move = state.current_player()
    data["to_move"] = None if to_move is None else PLAYER_NAMES[to_move]
    data["players"] = {
        PLAYER_NAMES[p]: {
            "lp": state.lp[p],
            "deck_size": len(state.decks[p]),
            "hand_size": len(state.hands[p]),
            "hand": sorted(_ids(state, state.hands[p])) if p == player or open_hands else None,
            "discard": _ids(state, state.discards[p]),
            "removed": _ids(state, state.removed[p]),
            "field": {SQUARE_NAMES[sq]: _unit(state, inst, True) for sq, inst in enumerate(state.field[p])},
            "supply": {
                SQUARE_NAMES[sq]: state.supply(p, sq) for sq, inst in enumerate(state.field[p]) if inst == EMPTY
            },
        }
        for p in (0, 1)
    }
    return _result(state, data)


# -- loading ----------------------------------------------------------------------------------


def _expect(condition: bool, field: str, problem: str) -> None:
    if not condition:
        raise PositionError(field, problem)


def _int(value: Any, field: str, minimum: int | None = None) -> int:
    _expect(isinstance(value, int) and not isinstance(value, bool), field, "expected an integer")
    _expect(minimum is None or value >= minimum, field, f"expected an integer >= {minimum}")
    return int(value)


def _player(value: Any, field: str) -> Player:
    try:
        return parse_player(value)
    except (ValueError, TypeError):
        raise PositionError(field, f"expected 'P1' or 'P2', got {value!r}") from None


class _Builder:
    """Numbers instances and checks card ids while a position is read."""

    def __init__(self, card_of: Mapping[str, CardDef]) -> None:
        self.card_of = card_of
        self.cards: list[CardDef] = []
        self.owner: list[int] = []

    def card(self, card_id: Any, field: str) -> CardDef:
        _expect(isinstance(card_id, str) and card_id in self.card_of, field, f"unknown card id {card_id!r}")
        return self.card_of[card_id]

    def number(self, player: Player, cards: list[CardDef]) -> dict[str, list[int]]:
        """New instances for one player's cards (leader first, then by id); id -> free instances."""
        pool: dict[str, list[int]] = {}
        for card in sorted(cards, key=lambda c: (c.type != "leader", c.id)):
            pool.setdefault(card.id, []).append(len(self.cards))
            self.cards.append(card)
            self.owner.append(player)
        return pool


def load_position(game: Any, data: Mapping[str, Any]) -> AterialState:
    """Build a state from position JSON; errors name the field and the problem."""
    _expect(isinstance(data, Mapping), "position", "expected a JSON object")
    unknown = sorted(set(data) - _KEYS)
    _expect(not unknown, f"position.{unknown[0] if unknown else ''}", "unknown field")
    for key in ("game", "config", "turn", "active", "first", "window", "players"):
        _expect(key in data, key, "missing")
    _expect(data["game"] == "aterial", "game", f"expected 'aterial', got {data['game']!r}")
    builder = _Builder(game.card_set.cards)
    players = data["players"]
    _expect(isinstance(players, Mapping) and set(players) == {"P1", "P2"}, "players", "expected keys P1 and P2")

    zones: list[dict[str, Any]] = []
    for name in PLAYER_NAMES:
        entry = players[name]
        _expect(
            isinstance(entry, Mapping) and set(entry) == _PLAYER_KEYS,
            f"players.{name}",
            f"expected an object with {sorted(_PLAYER_KEYS)}",
        )
        read: dict[str, Any] = {"lp": _int(entry["lp"], f"players.{name}.lp")}
        for zone in ("deck", "hand", "discard", "removed"):
            cards = entry[zone]
            _expect(isinstance(cards, list), f"players.{name}.{zone}", "expected a list of card ids")
            read[zone] = [builder.card(c, f"players.{name}.{zone}[{i}]") for i, c in enumerate(cards)]
            for index, card in enumerate(read[zone]):
                _expect(
                    card.type == "subordinate",
                    f"players.{name}.{zone}[{index}]",
                    "a leader never leaves the field (A14.5)",
                )
        field = entry["field"]
        _expect(
            isinstance(field, Mapping) and set(field) == set(SQUARE_NAMES),
            f"players.{name}.field",
            f"expected an object with squares {list(SQUARE_NAMES)}",
        )
        units = {}
        for square, unit in field.items():
            if unit is None:
                continue
            where = f"players.{name}.field.{square}"
            _expect(
                isinstance(unit, Mapping) and set(unit) == _UNIT_KEYS,
                where,
                f"expected null or an object with {sorted(_UNIT_KEYS)}",
            )
            units[square] = (builder.card(unit["card"], f"{where}.card"), unit)
        leaders = [square for square, (card, _) in units.items() if card.type == "leader"]
        _expect(len(leaders) == 1, f"players.{name}.field", "exactly one leader must stand on the field (A14.5)")
        read["units"] = units
        zones.append(read)

    numbered = [
        builder.number(
            p, [*z["deck"], *z["hand"], *z["discard"], *z["removed"], *(card for card, _ in z["units"].values())]
        )
        for p, z in enumerate(zones)
    ]
    state = AterialState(game, tuple(builder.cards), tuple(builder.owner), record_events=True)
    n = len(builder.cards)
    state.square_of = [EMPTY] * n
    state.ready = [True] * n
    state.damage = [0] * n
    state.moves = [0] * n
    state.devoured = [False] * n
    state.temp_attack = [0] * n
    for p, (read, pool) in enumerate(zip(zones, numbered, strict=True)):
        name = PLAYER_NAMES[p]
        take = lambda card, pool=pool: pool[card.id].pop(0)  # noqa: E731
        state.lp[p] = read["lp"]
        state.decks[p][:] = [take(card) for card in read["deck"]][::-1]
        for attribute, zone in (("hands", "hand"), ("discards", "discard"), ("removed", "removed")):
            getattr(state, attribute)[p][:] = [take(card) for card in read[zone]]
        for square, (card, unit) in read["units"].items():
            where = f"players.{name}.field.{square}"
            inst = take(card)
            sq = SQUARE_INDEX[square]
            state.field[p][sq] = inst
            state.square_of[inst] = sq
            _expect(isinstance(unit["ready"], bool), f"{where}.ready", "expected true or false")
            _expect(isinstance(unit["devoured"], bool), f"{where}.devoured", "expected true or false")
            state.ready[inst] = unit["ready"]
            state.damage[inst] = _int(unit["damage"], f"{where}.damage", 0)
            state.moves[inst] = _int(unit["moves"], f"{where}.moves", 0)
            state.devoured[inst] = unit["devoured"]
            state.temp_attack[inst] = _int(unit["attack_bonus"], f"{where}.attack_bonus")
            _expect(
                card.type == "subordinate" or state.damage[inst] == 0,
                f"{where}.damage",
                "a leader never carries damage (A4.3)",
            )
            if card.type == "leader":
                state.leader[p] = inst

    state.turn = _int(data["turn"], "turn", 0)
    state.active = _player(data["active"], "active")
    state.first = _player(data["first"], "first")
    state.chooser = _player(data.get("chooser", "P1"), "chooser")
    _expect(data["window"] in WINDOWS, "window", f"{data['window']!r} is not one of {list(WINDOWS)}")
    state.window = WINDOWS.index(data["window"])
    state.shuffle_seed = _int(data.get("shuffle_seed", 0), "shuffle_seed", 0)
    _load_triggers(state, data.get("triggers", []), builder)
    _load_pending(state, data.get("pending"))
    _load_result(state, data)
    if state.window != W_OVER:
        state._advance()
    return state


def _load_triggers(state: AterialState, triggers: Any, builder: _Builder) -> None:
    _expect(isinstance(triggers, list), "triggers", "expected a list")
    for index, trigger in enumerate(triggers):
        where = f"triggers[{index}]"
        _expect(
            isinstance(trigger, Mapping) and set(trigger) == {"player", "ability", "amount", "source"},
            where,
            "expected an object with player, ability, amount, source",
        )
        card = builder.card(trigger["source"], f"{where}.source")
        source = next((i for i, c in enumerate(state.cards) if c is card), EMPTY)
        state.triggers.append(
            Trigger(
                _player(trigger["player"], f"{where}.player"),
                str(trigger["ability"]),
                _int(trigger["amount"], f"{where}.amount", 1),
                source,
            )
        )


def _load_pending(state: AterialState, pending: Any) -> None:
    window = state.window
    needs = window in (W_MOVE_TO, W_ATTACK_TARGET, W_DEPLOY_TO, W_ABILITY_TARGET, W_TRIGGER_TARGET, W_BLOCK)
    _expect((pending is not None) == needs, "pending", f"must be {'an object' if needs else 'null'} at this window")
    if not needs:
        return
    _expect(isinstance(pending, Mapping), "pending", "expected an object")
    me = state.active
    try:
        if window in (W_MOVE_TO, W_ATTACK_TARGET):
            state.selected = SQUARE_INDEX[pending["square"]]
            _expect(state.field[me][state.selected] != EMPTY, "pending.square", "no unit of the active player there")
        elif window == W_DEPLOY_TO:
            state.selected = next(i for i in state.hands[me] if state.cards[i].id == pending["card"])
        elif window in (W_ABILITY_TARGET, W_TRIGGER_TARGET):
            state.selected_key = pending["ability"]
            _expect(
                state.selected_key in ("tap_snipe", "hand_rally", "deploy_strike"),
                "pending.ability",
                "expected tap_snipe, hand_rally or deploy_strike",
            )
            state.pending_amount = _int(pending["amount"], "pending.amount", 1)
        else:
            seat_a, square_a = pending["attacker"].split(":")
            seat_t, square_t = pending["target"].split(":")
            _expect(
                parse_player(seat_a) == me and parse_player(seat_t) == 1 - me,
                "pending",
                "the attacker must be the active player's, the target the opponent's",
            )
            state.attacker = state.field[me][SQUARE_INDEX[square_a]]
            state.target = state.field[1 - me][SQUARE_INDEX[square_t]]
            _expect(EMPTY not in (state.attacker, state.target), "pending", "attacker and target must be units")
            state.side = bool(pending["side"])
    except (KeyError, StopIteration, ValueError, AttributeError, TypeError):
        raise PositionError("pending", f"does not fit window {WINDOWS[window]!r}: {pending!r}") from None


def _load_result(state: AterialState, data: Mapping[str, Any]) -> None:
    winner, draw = data.get("winner"), data.get("draw", False)
    over = state.window == W_OVER
    _expect((winner is not None or draw) == over, "winner", "a result is set exactly when window is 'over'")
    if over:
        state.winner = None if draw else _player(winner, "winner")
        state.draw = bool(draw)
        state.reason = str(data.get("reason") or "")
