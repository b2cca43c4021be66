"""Helpers to build small Dreadnought positions (docs/dreadnought-position.md) for the Dreadnought tests.

`make_position` fills in everything a test does not care about: the starter decks' casters
(P1: X01 Ignis Varga in BA1 and X03 Oren Quill in BA2; P2: X04 Mira Tidewell in BA1 and X06 Fen
Larkspur in BA2), each HP stack as many filler cards as the caster's `hp`, a short filler deck,
no bursts, empty zones, and a stack that waits in the window asked for with the rest of the turn
below it. Decks list the top card **last**; the stack lists its bottom frame first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cardlab.games.dreadnought import Dreadnought
from cardlab.games.dreadnought.cards import load_card_set

GAME = Dreadnought()
CARDS = load_card_set()
CASTER_HP = {card.id: card.hp for card in CARDS.casters()}
FILLER = "N01"
"""Wandering Golem: the card that pads decks and HP stacks (unit M 90, speed B, no abilities)."""
DEFAULT_DECK_SIZE = 8
DEFAULT_CASTERS = {"P1": ("X01", "X03"), "P2": ("X04", "X06")}
PHASE_FRAMES = ("speed_phase", "draw_phase", "cast_phase", "fast_phase", "action_phase", "end_phase")
OTHER = {"P1": "P2", "P2": "P1"}


def unit(
    card: str,
    *,
    checked: bool = False,
    dummy: bool = False,
    enchants: Iterable[Mapping[str, Any]] = (),
    attached: Iterable[str] = (),
    bp_mod: int = 0,
    shield: int = 0,
    moved: bool = False,
) -> dict[str, Any]:
    """A unit or idol on the field (for a dummy, `card` is the real card underneath)."""
    return {
        "card": card,
        "dummy": dummy,
        "checked": checked,
        "enchants": [dict(e) for e in enchants],
        "attached": list(attached),
        "bp_mod": bp_mod,
        "shield": shield,
        "moved": moved,
    }


def dummy(card: str = FILLER, *, checked: bool = True, known: bool = False, **kwargs: Any) -> dict[str, Any]:
    """A dummy (D15.1: closed and checked when cast) whose real card is `card`; `known`: the opponent saw
    the card (it was cast as a dummy from the open speed area)."""
    return {**unit(card, dummy=True, checked=checked, **kwargs), "known": known}


def enchant(kind: str, owner: str, card: str = FILLER, *, secret: bool = False) -> dict[str, Any]:
    """A boost or weaken enchant placed by `owner` (D14.2), made of `card`."""
    return {"kind": kind, "owner": owner, "card": card, "secret": secret}


def caster(card: str, *, checked: bool = False, arms: str | None = None, shield: int = 0) -> dict[str, Any]:
    return {"card": card, "checked": checked, "arms": arms, "shield": shield}


def piles(cards: int | Sequence[str] | Sequence[Mapping[str, Any]], checked: bool = False) -> list[dict[str, Any]]:
    """Bursts or engraves: a count of filler cards, or card ids, or ready-made entries."""
    if isinstance(cards, int):
        return [{"card": FILLER, "checked": checked} for _ in range(cards)]
    return [dict(c) if isinstance(c, Mapping) else {"card": c, "checked": checked} for c in cards]


def seat(
    seat_name: str = "P1",
    *,
    casters: tuple[str, str] | None = None,
    hp: tuple[int | Sequence[str], int | Sequence[str]] | None = None,
    ba1: Sequence[str | Mapping[str, Any]] = (),
    ba2: Sequence[str | Mapping[str, Any]] = (),
    idol: str | Mapping[str, Any] | None = None,
    checked: tuple[bool, bool] = (False, False),
    arms: tuple[str | None, str | None] = (None, None),
    caster_shield: tuple[int, int] = (0, 0),
    deck: Sequence[str] | None = None,
    hand: Sequence[str] = (),
    known_hand: Sequence[str] = (),
    discard: Sequence[str] = (),
    speed: Sequence[str] = (),
    gear: Sequence[str] = (),
    mulligan: Sequence[str] = (),
    limbo: Sequence[str] = (),
    bursts: int | Sequence[Any] = 0,
    engraves: int | Sequence[Any] = (),
    speed_shift: int = 0,
    geared: bool = False,
) -> dict[str, Any]:
    """One player's entry. Units are card ids or `unit(...)` dicts; `hp` per caster is a count of
    filler cards or a list of card ids (default: the caster's printed hp)."""
    pair = casters or DEFAULT_CASTERS[seat_name]
    stacks = hp or (CASTER_HP[pair[0]], CASTER_HP[pair[1]])
    areas = {}
    for i, (name, units) in enumerate((("BA1", ba1), ("BA2", ba2))):
        stack = stacks[i]
        areas[name] = {
            "caster": caster(pair[i], checked=checked[i], arms=arms[i], shield=caster_shield[i]),
            "hp": [FILLER] * stack if isinstance(stack, int) else list(stack),
            "units": [unit(u) if isinstance(u, str) else dict(u) for u in units],
        }
    return {
        "deck": [FILLER] * DEFAULT_DECK_SIZE if deck is None else list(deck),
        "hand": list(hand),
        "known_hand": list(known_hand),
        "discard": list(discard),
        "speed": list(speed),
        "gear": list(gear),
        "mulligan": list(mulligan),
        "limbo": list(limbo),
        "placement": [],
        "bursts": piles(bursts),
        "engraves": piles(engraves),
        **areas,
        "idol": unit(idol) if isinstance(idol, str) else (None if idol is None else dict(idol)),
        "speed_shift": speed_shift,
        "geared": geared,
    }


def rest_of_turn(after: str) -> list[list[Any]]:
    """The frames of the phases after `after` (speed, draw, cast, fast, action, end), bottom first."""
    later = PHASE_FRAMES[PHASE_FRAMES.index(f"{after}_phase") + 1 :]
    return [["turn"], *[[frame] for frame in reversed(later)]]


def window_stack(phase: str, player: str, first: str | None = None) -> list[list[Any]]:
    """A stack waiting for `player` in the sequential window of `phase` (speed, cast, fast) or at
    `player`'s first action turn (action). In speed, `first` means the faster player."""
    first = first or player
    second = OTHER[first]
    if phase == "action":
        return [*rest_of_turn("action"), ["aturn", player, 0, 0]]
    if phase == "speed":
        tail = [["decide"], ["win", second, "speed"], ["win", first, "speed"]]
        return rest_of_turn("speed") + (tail if player == first else tail[:2])
    if phase == "cast":
        tail = [["win", second, "cast"], ["upkeep", second], ["win", first, "cast"]]
        return rest_of_turn("cast") + (tail if player == first else tail[:1])
    tail = [["win", second, phase], ["win", first, phase]]
    return rest_of_turn(phase) + (tail if player == first else tail[:1])


def make_position(
    *,
    phase: str = "cast",
    turn: int = 3,
    first: str | None = "P1",
    token: str | None = None,
    p1: Mapping[str, Any] | None = None,
    p2: Mapping[str, Any] | None = None,
    stack: list[list[Any]] | None = None,
    to_move: str | None = None,
    attack: Mapping[str, Any] | None = None,
    triggers: Iterable[Mapping[str, Any]] = (),
    cost_reduction: int = 0,
) -> dict[str, Any]:
    """A full position. Without `stack`, it waits in `phase`'s window for `to_move` (default F).
    `p1`/`p2` are keyword dicts for `seat`. The token defaults to S (it passes to S at the end
    of every turn, D6.7, so S of this turn is usually also the previous turn's S)."""
    if stack is None:
        stack = window_stack(phase, to_move or first or "P1", first)
    return {
        "game": "dreadnought",
        "config": GAME.config_json(),
        "turn": turn,
        "phase": phase,
        "first": first,
        "token": token or (OTHER[first] if first else "P1"),
        "players": {"P1": seat("P1", **(p1 or {})), "P2": seat("P2", **(p2 or {}))},
        "attack": None if attack is None else dict(attack),
        "triggers": [dict(t) for t in triggers],
        "cost_reduction": cost_reduction,
        "stack": stack,
        "winner": None,
        "draw": False,
        "reason": "",
    }


def load(position: Mapping[str, Any] | None = None, **kwargs: Any):
    """Load a position (or `make_position(**kwargs)`); the state has advanced to a real choice."""
    return GAME.load_position(position if position is not None else make_position(**kwargs))


def legal(state) -> list[str]:
    """The legal actions as sorted strings."""
    return sorted(str(action) for action in state.legal_actions())


def apply_all(state, *actions: str):
    for action in actions:
        state.apply(action)
    return state


def player(state, name: str) -> dict[str, Any]:
    return state.position()["players"][name]


def seen(state, name: str, viewer: str | None = None) -> dict[str, Any]:
    """`name`'s entry in an observation for `viewer` (default: `name`), with derived BP and shields."""
    view = viewer or name
    return state.observation(0 if view == "P1" else 1)["players"][name]


def window(state) -> str:
    return state.observation(None)["window"]


def to_move(state) -> str | None:
    return state.observation(None)["to_move"]
