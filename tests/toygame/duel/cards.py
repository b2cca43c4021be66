"""Duel's card and deck files (T1, T2), read with cardlab's card-data helpers like every deck game's."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from cardlab.core.carddata import (
    CardIndex,
    DataTable,
    check_fields,
    load_cards,
    load_deck_table,
    require_int,
    require_int_map,
    require_str,
)

COLOURS = ("red", "green", "blue")
BEATS = {"red": "green", "green": "blue", "blue": "red"}
"""T3.3: a card beats the colour it names here (red beats green beats blue beats red)."""
DECK_SIZE = 12
MAX_COPIES = 4
PACKAGED_DECKS = ("dawn", "dusk")


@dataclass(frozen=True, slots=True)
class CardDef:
    """A card (T1.1): a deck card's `power`, or a champion's bonus to its owner's total (also `power`)."""

    id: str
    name: str
    type: str
    colour: str
    power: int


class CardSet(CardIndex[CardDef]):
    def champions(self) -> list[CardDef]:
        return [card for card in self.by_id.values() if card.type == "champion"]

    def deck_cards(self) -> list[CardDef]:
        return [card for card in self.by_id.values() if card.type == "card"]


@dataclass(frozen=True)
class Deck:
    id: str
    name: str
    champion: str
    cards: dict[str, int]

    def card_list(self) -> list[str]:
        return [card for card, count in self.cards.items() for _ in range(count)]


def parse_card(table: DataTable) -> CardDef:
    check_fields(table, ("id", "name", "type", "colour", "power"))
    return CardDef(
        require_str(table, "id"),
        require_str(table, "name"),
        require_str(table, "type", ("card", "champion")),
        require_str(table, "colour", COLOURS),
        require_int(table, "power", 0),
    )


def _data(*parts: str) -> Traversable:
    return resources.files("tests.toygame.duel").joinpath("data", *parts)


def sample_cards() -> Traversable:
    return _data("cards.toml")


def load_card_set(paths: Sequence[Path] | None = None, *, with_sample_set: bool = False) -> CardSet:
    return CardSet(load_cards(paths, sample_cards(), parse_card, with_sample_set=with_sample_set))


def parse_deck(table: DataTable) -> Deck:
    check_fields(table, ("id", "name", "champion", "cards"))
    return Deck(
        require_str(table, "id"),
        require_str(table, "name"),
        require_str(table, "champion"),
        require_int_map(table, "cards", 1),
    )


def load_deck(path: Path) -> Deck:
    return parse_deck(load_deck_table(path))


def packaged_deck_file(deck_id: str) -> Traversable:
    return _data("decks", f"{deck_id}.toml")


def packaged_deck(deck_id: str) -> Deck:
    with resources.as_file(packaged_deck_file(deck_id)) as path:
        return load_deck(path)


def deck_title(deck: Deck, cards: CardSet) -> str:
    champion = cards.by_id.get(deck.champion)
    return f"{deck.name} · {champion.name if champion is not None else deck.champion}"


def validate_deck(deck: Deck, cards: CardSet) -> list[tuple[str, str]]:
    """Every T2 violation: size 12 (T2.1), deck cards only (T2.2), 4 of a name (T2.3), one champion (T2.4)."""
    problems = []
    size = sum(deck.cards.values())
    if size != DECK_SIZE:
        problems.append(("T2.1", f"the deck has {size} cards; it must have exactly {DECK_SIZE}"))
    names: Counter[str] = Counter()
    for card_id, count in deck.cards.items():
        if card_id not in cards:
            problems.append(("T2.2", f"unknown card id {card_id!r} in the deck"))
        elif cards[card_id].type != "card":
            problems.append(("T2.2", f"{card_id} is a champion; champions stay outside the deck"))
        else:
            names[cards[card_id].name] += count
    for name, count in names.items():
        if count > MAX_COPIES:
            problems.append(("T2.3", f"{count} cards named {name!r}; at most {MAX_COPIES} per name"))
    if deck.champion not in cards or cards[deck.champion].type != "champion":
        problems.append(("T2.4", f"{deck.champion!r} is not a champion"))
    return problems
