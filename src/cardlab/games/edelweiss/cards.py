"""Cards, decks, skills and characters of Edelweiss, encoded as small ints.

A card id is `rank_index * 4 + suit` (ranks 2..A as 0..12, suits S, H, C, D as 0..3), so
sorting ids gives the canonical hand order of E14.5 (rank, then suit) and the lowest id of a
suit is the card E14.2 takes from a hand. A field entry is `card * 2 + tapped`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import IntEnum, IntFlag
from importlib import resources

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = "SHCD"
SPADE, HEART, CLUB, DIAMOND = range(4)

CARD_NAMES: tuple[str, ...] = tuple(rank + suit for rank in RANKS for suit in SUITS)
_CARD_IDS = {name: card for card, name in enumerate(CARD_NAMES)}

TAPPED = 1
"""Low bit of a field entry: set when the card is tapped (E2.3)."""

DECK_SIZES = {"full": 52, "short": 36, "skills": 36}
"""E1.1: full deck, short deck of 2-10, skills game draw pile of 2-10."""

HAND_SIZES = {"full": 4, "short": 4, "skills": 5}
"""E1.4: opening hand sizes."""


class Window(IntEnum):
    """Decision points of E10 plus the resting points `draw` and `over` of E14.5."""

    DRAW = 0
    MAIN = 1
    SPECIAL_SUMMON = 2
    ATTACK = 3
    INTERCEPT = 4
    DEFENSE = 5
    COUNTER = 6
    PURSUIT = 7
    OVER = 8

    def __str__(self) -> str:
        return self.name.lower()


WINDOW_BY_NAME = {str(window): window for window in Window}


class Skill(IntFlag):
    """E7.2: a player's skills as a bit set."""

    GUARDIAN = 1
    BUDDY_SUMMONER = 2
    WIZARD = 4
    POISON_BIND = 8


@dataclass(frozen=True, slots=True)
class Character:
    id: str
    name: str
    suits: str
    skills: Skill


def _load_characters() -> dict[str, Character]:
    data = json.loads(resources.files(__package__).joinpath("data/characters.json").read_text())
    skill_of_suit = {suit: Skill[name] for suit, name in data["skills"].items()}
    characters = {}
    for char_id, entry in data["characters"].items():
        skills = Skill(0)
        for suit in entry["suits"]:
            skills |= skill_of_suit[suit]
        characters[char_id] = Character(char_id, entry["name"], entry["suits"], skills)
    return characters


CHARACTERS: dict[str, Character] = _load_characters()
"""E9: the six characters, keyed by ID."""

CHARACTER_IDS: tuple[str, ...] = tuple(CHARACTERS)


def card_name(card: int) -> str:
    return CARD_NAMES[card]


def parse_card(text: str) -> int:
    """'10H' -> card id; raises ValueError naming the text."""
    try:
        return _CARD_IDS[text.strip().upper()]
    except (KeyError, AttributeError):
        raise ValueError(f"not a card: {text!r} (expected rank 2-10/J/Q/K/A + suit S/H/C/D)") from None


def field_entry_name(entry: int) -> str:
    return f"{CARD_NAMES[entry >> 1]}:{'T' if entry & TAPPED else 'U'}"


def parse_field_entry(text: str) -> int:
    """'7S:T' -> field entry; raises ValueError naming the text."""
    if not isinstance(text, str) or text[-2:] not in (":U", ":T"):
        raise ValueError(f"not a field card: {text!r} (expected e.g. '7S:T' or '4H:U')")
    return parse_card(text[:-2]) * 2 + (text[-1] == "T")


def deck_cards(deck: str) -> list[int]:
    """E1.1: the play cards of a deck variant, in id order."""
    return list(range(DECK_SIZES[deck]))  # ranks 2..10 are exactly the ids below 36
