"""Position JSON (E14.5) and per-player observations for Edelweiss.

Extension: a top-level `"revealed": {"P1": [...], "P2": [...]}` lists hand cards the
opponent knows (Diamond Dust, E2.5); it is present only when some card is revealed, so
positions without reveals are exactly E14.5.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardlab.core.errors import PositionError
from cardlab.core.game import PLAYER_NAMES, Player, parse_player
from cardlab.games.edelweiss.cards import (
    DIAMOND,
    HEART,
    SPADE,
    TAPPED,
    WINDOW_BY_NAME,
    Window,
    card_name,
    field_entry_name,
    parse_card,
    parse_field_entry,
)
from cardlab.games.edelweiss.config import EdelweissConfig
from cardlab.games.edelweiss.state import DEFENSE_NAMES, NO_CARD, POSITION_KEYS, EdelweissState

_POSITION_KEYS = frozenset(POSITION_KEYS)
_ATTACK_KEYS = ("spade", "defense", "guard_card", "blocker", "counter", "pursuit_club")


def _name_or_none(card: int) -> str | None:
    return None if card == NO_CARD else card_name(card)


def _attack_json(state: EdelweissState) -> dict[str, Any] | None:
    if not state.in_attack:
        return None
    return {
        "spade": card_name(state.spade),
        "defense": DEFENSE_NAMES[state.defense],
        "guard_card": _name_or_none(state.guard_card),
        "blocker": _name_or_none(state.blocker),
        "counter": state.counter,
        "pursuit_club": _name_or_none(state.pursuit_club),
    }


def _common(state: EdelweissState) -> dict[str, Any]:
    data: dict[str, Any] = {
        "game": "edelweiss",
        "config": state.game.config.to_json(),
        "turn": state.turn,
        "turn_player": PLAYER_NAMES[state.turn_player],
        "window": str(state.window),
    }
    return data


def _tail(state: EdelweissState, data: dict[str, Any]) -> dict[str, Any]:
    data["attack"] = _attack_json(state)
    data["winner"] = None if state.winner is None else PLAYER_NAMES[state.winner]
    if state.window == Window.OVER:  # a deck-out draw (rule deck_out_tie) is over without a winner
        data["win_reason"] = state.win_reason
    return data


def dump_position(state: EdelweissState) -> dict[str, Any]:
    """The full state as E14.5 JSON (hands in canonical order, deck top first)."""
    data = _common(state)
    data["deck"] = [card_name(card) for card in reversed(state.deck)]
    data["discard"] = [card_name(card) for card in state.discard]
    data["players"] = {
        PLAYER_NAMES[p]: {
            "hand": [card_name(card) for card in sorted(state.hands[p])],
            "field": [field_entry_name(entry) for entry in state.fields[p]],
        }
        for p in (0, 1)
    }
    _tail(state, data)
    if state.revealed[0] or state.revealed[1]:
        data["revealed"] = {PLAYER_NAMES[p]: [card_name(c) for c in sorted(state.revealed[p])] for p in (0, 1)}
    return data


def dump_observation(state: EdelweissState, player: Player | None, *, open_hands: bool = False) -> dict[str, Any]:
    """What `player` sees (E2.5, E10): no deck order, no unrevealed opponent card.

    `open_hands` (with `player` None) shows every hand, as a replay does once the game is over.
    """
    data = _common(state)
    data["player"] = None if player is None else PLAYER_NAMES[player]
    to_move = state.current_player()
    data["to_move"] = None if to_move is None else PLAYER_NAMES[to_move]
    data["deck_size"] = len(state.deck)
    data["discard"] = [card_name(card) for card in state.discard]
    players = {}
    for p in (0, 1):
        seen = open_hands or p == player
        hand = state.hands[p] if seen else [c for c in state.hands[p] if c in state.revealed[p]]
        players[PLAYER_NAMES[p]] = {
            "hand_size": len(state.hands[p]),
            "hand": [card_name(card) for card in sorted(hand)],
            "hand_complete": seen or len(hand) == len(state.hands[p]),
            "field": [field_entry_name(entry) for entry in state.fields[p]],
        }
    data["players"] = players
    return _tail(state, data)


# -- loading ----------------------------------------------------------------------------------


def _expect(condition: bool, field: str, problem: str) -> None:
    if not condition:
        raise PositionError(field, problem)


def _card_list(value: Any, field: str, parse: Any = parse_card) -> list[int]:
    _expect(isinstance(value, list), field, "expected a list of cards")
    cards = []
    for index, text in enumerate(value):
        try:
            cards.append(parse(text))
        except ValueError as exc:
            raise PositionError(f"{field}[{index}]", str(exc)) from None
    return cards


def _optional_card(value: Any, field: str) -> int:
    if value is None:
        return NO_CARD
    try:
        return parse_card(value)
    except ValueError as exc:
        raise PositionError(field, str(exc)) from None


def load_position(data: Mapping[str, Any]) -> EdelweissState:
    """Build a state from E14.5 JSON, checking it; errors name the field and the problem."""
    from cardlab.games.edelweiss.game import Edelweiss

    _expect(isinstance(data, Mapping), "position", "expected a JSON object")
    unknown = set(data) - _POSITION_KEYS
    _expect(not unknown, f"position.{sorted(unknown)[0] if unknown else ''}", "unknown field")
    for key in ("game", "config", "turn", "turn_player", "window", "deck", "discard", "players"):
        _expect(key in data, key, "missing")
    _expect(data["game"] == "edelweiss", "game", f"expected 'edelweiss', got {data['game']!r}")
    config = EdelweissConfig.from_json(data["config"])
    _expect(not config.skills or config.characters is not None, "config.characters",
            "a skills position must name both characters")  # fmt: skip
    state = EdelweissState(Edelweiss(config), record_events=True)

    turn = data["turn"]
    _expect(isinstance(turn, int) and not isinstance(turn, bool) and turn >= 1, "turn", "expected an integer >= 1")
    state.turn = turn
    try:
        state.turn_player = parse_player(data["turn_player"])
    except (ValueError, TypeError):
        raise PositionError("turn_player", f"expected 'P1' or 'P2', got {data['turn_player']!r}") from None
    window = data["window"]
    _expect(isinstance(window, str) and window in WINDOW_BY_NAME, "window",
            f"{window!r} is not one of {list(WINDOW_BY_NAME)}")  # fmt: skip
    state.window = WINDOW_BY_NAME[window]

    state.deck[:] = reversed(_card_list(data["deck"], "deck"))
    state.discard[:] = _card_list(data["discard"], "discard")
    players = data["players"]
    _expect(isinstance(players, Mapping) and set(players) == {"P1", "P2"}, "players", "expected keys P1 and P2")
    for p, name in enumerate(PLAYER_NAMES):
        entry = players[name]
        _expect(isinstance(entry, Mapping) and set(entry) == {"hand", "field"}, f"players.{name}",
                "expected an object with 'hand' and 'field'")  # fmt: skip
        state.hands[p][:] = sorted(_card_list(entry["hand"], f"players.{name}.hand"))
        field = _card_list(entry["field"], f"players.{name}.field", parse_field_entry)
        for index, field_entry in enumerate(field):
            _expect((field_entry >> 1) & 3 != DIAMOND, f"players.{name}.field[{index}]",
                    "a diamond can never be on a field (E2.2)")  # fmt: skip
        state.fields[p][:] = field

    _check_unique_cards(state, config)
    _load_revealed(state, data.get("revealed"))
    _load_attack(state, data.get("attack"))
    _load_winner(state, data)
    if state.window != Window.OVER:
        state._advance()
    return state


def _check_unique_cards(state: EdelweissState, config: EdelweissConfig) -> None:
    zones = {
        "deck": list(reversed(state.deck)),
        "discard": state.discard,
        "players.P1.hand": state.hands[0],
        "players.P2.hand": state.hands[1],
        "players.P1.field": [entry >> 1 for entry in state.fields[0]],
        "players.P2.field": [entry >> 1 for entry in state.fields[1]],
    }
    seen: dict[int, str] = {}
    limit = 52 if config.deck == "full" else 36
    for zone, cards in zones.items():
        for card in cards:
            _expect(card < limit, zone, f"{card_name(card)} is not in the {config.deck} deck (E1.1)")
            _expect(card not in seen, zone, f"{card_name(card)} also appears in {seen.get(card)}")
            seen[card] = zone


def _load_revealed(state: EdelweissState, revealed: Any) -> None:
    if revealed is None:
        return
    _expect(isinstance(revealed, Mapping) and set(revealed) <= {"P1", "P2"}, "revealed",
            "expected an object with lists for P1 and P2")  # fmt: skip
    for name, cards in revealed.items():
        p = parse_player(name)
        parsed = _card_list(cards, f"revealed.{name}")
        for card in parsed:
            _expect(card in state.hands[p], f"revealed.{name}", f"{card_name(card)} is not in {name}'s hand")
        state.revealed[p].update(parsed)


def _load_attack(state: EdelweissState, attack: Any) -> None:
    if not state.in_attack:
        _expect(attack is None, "attack", f"must be null at window {str(state.window)!r}")
        return
    _expect(isinstance(attack, Mapping), "attack", f"an attack object is required at window {str(state.window)!r}")
    unknown = set(attack) - set(_ATTACK_KEYS)
    _expect(not unknown, f"attack.{sorted(unknown)[0] if unknown else ''}", "unknown field")
    tp = state.turn_player
    state.spade = _optional_card(attack.get("spade"), "attack.spade")
    _expect(state.spade != NO_CARD and state.spade & 3 == SPADE, "attack.spade", "expected the attacking spade")
    on_field = state.spade * 2 + TAPPED in state.fields[tp]
    if state.window in (Window.INTERCEPT, Window.DEFENSE, Window.COUNTER):
        _expect(on_field, "attack.spade", "the attacking spade must be tapped on the attacker's field")
    defense = attack.get("defense")
    _expect(defense in DEFENSE_NAMES, "attack.defense", f"expected one of {list(DEFENSE_NAMES)}")
    state.defense = DEFENSE_NAMES.index(defense)
    state.guard_card = _optional_card(attack.get("guard_card"), "attack.guard_card")
    state.blocker = _optional_card(attack.get("blocker"), "attack.blocker")
    counter = attack.get("counter", False)
    _expect(isinstance(counter, bool), "attack.counter", "expected true or false")
    state.counter = counter
    state.pursuit_club = _optional_card(attack.get("pursuit_club"), "attack.pursuit_club")
    decided = state.window in (Window.COUNTER, Window.PURSUIT)
    _expect(decided == (defense is not None), "attack.defense",
            f"must be {'set' if decided else 'null'} at window {str(state.window)!r}")  # fmt: skip
    _expect((state.window == Window.COUNTER) <= counter, "attack.counter", "the counter window needs a counter")
    _expect(state.pursuit_club == NO_CARD, "attack.pursuit_club", "no pursuit can have happened before the break")
    if defense == "block":
        _expect(state.blocker != NO_CARD and state.blocker & 3 == HEART
                and state.blocker * 2 + TAPPED in state.fields[1 - tp], "attack.blocker",
                "the blocking heart must be tapped on the defender's field")  # fmt: skip
    else:
        _expect(state.blocker == NO_CARD, "attack.blocker", "only a block has a blocking heart")
    if defense in ("guard", "field_guard"):
        _expect(state.guard_card != NO_CARD and state.guard_card in state.discard, "attack.guard_card",
                "the guard card must be in the discard pile")  # fmt: skip
    else:
        _expect(state.guard_card == NO_CARD, "attack.guard_card", "only a guard has a guard card")


def _load_winner(state: EdelweissState, data: Mapping[str, Any]) -> None:
    winner = data.get("winner")
    over = state.window == Window.OVER
    drawn = over and winner is None and state._game.deck_out_tie_is_draw and data.get("win_reason") == "deck_out"
    _expect((winner is not None) == over or drawn, "winner", "a winner is set exactly when window is 'over'")
    if not over:
        _expect("win_reason" not in data, "win_reason", "present only when a winner is set")
        return
    if winner is not None:  # else a drawn deck-out (checked above)
        try:
            state.winner = parse_player(winner)
        except (ValueError, TypeError):
            raise PositionError("winner", f"expected null, 'P1' or 'P2', got {winner!r}") from None
    reason = data.get("win_reason")
    _expect(reason in ("attack", "deck_out"), "win_reason", "expected 'attack' or 'deck_out'")
    state.win_reason = reason
