"""Helpers to build small E14.5 positions for Edelweiss tests."""

from __future__ import annotations

from typing import Any

from cardlab.games.edelweiss import Edelweiss, EdelweissConfig
from cardlab.games.edelweiss.cards import CARD_NAMES, CHARACTER_IDS, DECK_SIZES

ALL_CONFIGS = [EdelweissConfig("full"), EdelweissConfig("short")] + [
    EdelweissConfig("skills", standard, (first, second))
    for standard in ("symbolic", "accel2")
    for first in CHARACTER_IDS
    for second in CHARACTER_IDS
]
"""Every configuration: both plain decks and every character pairing under both standards."""

GAME = Edelweiss(EdelweissConfig())


def _used(*zones: Any) -> set[str]:
    used = set()
    for zone in zones:
        for text in zone:
            used.add(text.split(":")[0])
    return used


def make_position(
    *,
    window: str = "main",
    turn: int = 5,
    turn_player: str = "P1",
    p1_hand: tuple[str, ...] | list[str] = (),
    p1_field: tuple[str, ...] | list[str] = (),
    p2_hand: tuple[str, ...] | list[str] = (),
    p2_field: tuple[str, ...] | list[str] = (),
    deck: list[str] | None = None,
    deck_size: int = 10,
    discard: tuple[str, ...] | list[str] = (),
    attack: dict[str, Any] | None = None,
    deck_kind: str = "full",
    standard: str | None = None,
    characters: tuple[str, str] | None = None,
    rules: dict[str, str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A position dict with sensible defaults.

    Without an explicit `deck`, the deck holds `deck_size` cards that appear nowhere else,
    taken from the end of the card order (aces/kings first, or 10s/9s for 36-card decks) so
    that they rarely matter to a test.
    """
    if deck is None:
        used = _used(p1_hand, p1_field, p2_hand, p2_field, discard)
        spare = [name for name in CARD_NAMES[: DECK_SIZES[deck_kind]] if name not in used]
        deck = list(reversed(spare))[:deck_size]
    data: dict[str, Any] = {
        "game": "edelweiss",
        "config": {
            "deck": deck_kind,
            "standard": standard,
            "characters": None if characters is None else {"P1": characters[0], "P2": characters[1]},
        },
        "turn": turn,
        "turn_player": turn_player,
        "window": window,
        "deck": list(deck),
        "discard": list(discard),
        "players": {
            "P1": {"hand": list(p1_hand), "field": list(p1_field)},
            "P2": {"hand": list(p2_hand), "field": list(p2_field)},
        },
        "attack": attack,
        "winner": None,
    }
    if rules:
        data["config"]["rules"] = rules
    data.update(extra)
    return data


def load(**kwargs: Any):
    """Load `make_position(**kwargs)`; the state has already advanced to a real choice."""
    return GAME.load_position(make_position(**kwargs))


def skills(characters: tuple[str, str], standard: str = "symbolic", **kwargs: Any):
    """Load a skills-game position (36-card deck)."""
    return load(deck_kind="skills", standard=standard, characters=characters, **kwargs)


def attack_obj(spade: str, **fields: Any) -> dict[str, Any]:
    data = {"spade": spade, "defense": None, "guard_card": None, "blocker": None, "counter": False,
            "pursuit_club": None}  # fmt: skip
    data.update(fields)
    return data


def legal(state) -> list[str]:
    """The legal actions as sorted strings (E14.5 `legal`)."""
    return sorted(str(action) for action in state.legal_actions())


def seat(state, player: str) -> dict[str, list[str]]:
    return state.position()["players"][player]


def field(state, player: str) -> list[str]:
    return seat(state, player)["field"]


def hand(state, player: str) -> list[str]:
    return seat(state, player)["hand"]


def kinds(state, player: int | None = None) -> list[str]:
    return [event["kind"] for event in state.events.for_player(player)]
