"""Helpers to build small Aterial positions (docs/aterial-position.md) for the Aterial tests.

`make_position` fills in everything a test does not care about: both leaders on the field
(P1: L01 Marshal Odette Renn, P2: L04 Matriarch Greytusk, on F1 unless told otherwise), empty
squares null, each deck padded with a few Tin Scouts so that nobody decks out by accident, LP at
the leader's starting value, no pending choice and no triggers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardlab.games.aterial import Aterial, AterialConfig
from cardlab.games.aterial.board import SQUARE_NAMES
from cardlab.games.aterial.cards import load_card_set

GAME = Aterial(AterialConfig(decks=("D1", "D2"), leaders=(None, None), first="P1"))
CARDS = load_card_set()
LEADER_LP = {card.id: card.lp for card in CARDS.leaders()}
FILLER = "S01"
"""Tin Scout: the card that pads decks (cost 0, no abilities)."""
DEFAULT_DECK_SIZE = 5
DEFAULT_LEADERS = {"P1": "L01", "P2": "L04"}


def unit(card: str, *, ready: bool = True, damage: int = 0, moves: int = 0, devoured: bool = False,
         attack_bonus: int = 0) -> dict[str, Any]:  # fmt: skip
    """One unit on a square, in position JSON form."""
    return {"card": card, "ready": ready, "damage": damage, "moves": moves, "devoured": devoured,
            "attack_bonus": attack_bonus}  # fmt: skip


def seat(
    leader: str | None = None,
    *,
    field: Mapping[str, str | dict[str, Any]] | None = None,
    leader_at: str = "F1",
    hand: list[str] | tuple[str, ...] = (),
    deck: list[str] | None = None,
    discard: list[str] | tuple[str, ...] = (),
    removed: list[str] | tuple[str, ...] = (),
    lp: int | None = None,
    seat_name: str = "P1",
) -> dict[str, Any]:
    """One player's entry. `field` maps squares to card ids or `unit(...)` dicts; the leader is put
    on `leader_at` unless a leader card already stands in `field`."""
    leader = leader or DEFAULT_LEADERS[seat_name]
    squares: dict[str, Any] = dict.fromkeys(SQUARE_NAMES)
    for square, entry in (field or {}).items():
        squares[square] = unit(entry) if isinstance(entry, str) else dict(entry)
    if not any(entry is not None and entry["card"].startswith("L") for entry in squares.values()):
        assert squares[leader_at] is None, f"{leader_at} is taken; say where the leader stands"
        squares[leader_at] = unit(leader)
    else:
        leader = next(e["card"] for e in squares.values() if e is not None and e["card"].startswith("L"))
    return {
        "lp": LEADER_LP[leader] if lp is None else lp,
        "deck": [FILLER] * DEFAULT_DECK_SIZE if deck is None else list(deck),
        "hand": sorted(hand),
        "discard": list(discard),
        "removed": list(removed),
        "field": squares,
    }


def make_position(
    *,
    window: str = "action",
    turn: int = 5,
    active: str = "P1",
    first: str | None = None,
    chooser: str = "P1",
    pending: dict[str, Any] | None = None,
    triggers: list[dict[str, Any]] | None = None,
    shuffle_seed: int = 0,
    p1: dict[str, Any] | None = None,
    p2: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A full position dict; `p1` / `p2` are keyword dicts for `seat` (or ready-made entries)."""
    if first is None:  # turn 1 is the first player's (A6.6): odd turns are theirs
        other = "P2" if active == "P1" else "P1"
        first = "P1" if turn == 0 else (active if turn % 2 == 1 else other)
    players = {}
    for name, spec in (("P1", p1), ("P2", p2)):
        spec = dict(spec or {})
        ready_made = set(spec) == {"lp", "deck", "hand", "discard", "removed", "field"}
        players[name] = spec if ready_made else seat(seat_name=name, **spec)
    data: dict[str, Any] = {
        "game": "aterial",
        "config": GAME.config_json(),
        "turn": turn,
        "active": active,
        "first": first,
        "window": window,
        "chooser": chooser,
        "pending": pending,
        "triggers": list(triggers or []),
        "shuffle_seed": shuffle_seed,
        "players": players,
        "winner": None,
        "draw": False,
        "reason": None,
    }
    data.update(extra)
    return data


def load(**kwargs: Any):
    """Load `make_position(**kwargs)`; the state has already advanced to a real choice (A7.4)."""
    return GAME.load_position(make_position(**kwargs))


def legal(state) -> list[str]:
    """The legal actions as sorted strings."""
    return sorted(str(action) for action in state.legal_actions())


def player(state, name: str) -> dict[str, Any]:
    return state.position()["players"][name]


def at(state, name: str, square: str) -> dict[str, Any] | None:
    """The unit on `name`'s `square` (position JSON form), or None."""
    return player(state, name)["field"][square]


def inst_at(state, name: str, square: str) -> int:
    """The instance id standing on a square, for the effective-value API."""
    return state.field[0 if name == "P1" else 1][SQUARE_NAMES.index(square)]


def apply_all(state, *actions: str):
    for action in actions:
        state.apply(action)
    return state


def kinds(state, viewer: int | None = None) -> list[str]:
    return [event["kind"] for event in state.events.for_player(viewer)]
