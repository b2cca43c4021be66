"""Balance-lab matchups for Dreadnought: each starter deck with every legal caster pair (D3, D23)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from cardlab.core.plugin import Matchups
from cardlab.games.dreadnought.cards import PACKAGED_DECKS, Deck, load_card_set, packaged_deck, validate_deck


def entrants() -> tuple[str, ...]:
    """`ember_spark/X01+X03` ...: every packaged deck with each pair of sample casters it is legal with (D3.4)."""
    cards = load_card_set()
    casters = [card.id for card in cards.casters()]
    found = []
    for deck_id in PACKAGED_DECKS:
        deck = packaged_deck(deck_id)
        for pair in combinations(casters, 2):
            if not validate_deck(Deck(deck.id, deck.name, pair, deck.cards), cards):
                found.append(f"{deck_id}/{'+'.join(pair)}")
    return tuple(found)


def matchups(variant: str | None) -> Matchups:
    """The only variant is `starter`: the packaged D23 set, its two starter decks and seven casters."""
    if variant not in (None, "starter"):
        raise ValueError(f"unknown Dreadnought balance variant {variant!r}; the only one is 'starter'")

    def config(first: str, second: str) -> dict[str, Any]:
        (deck_1, pair_1), (deck_2, pair_2) = first.split("/"), second.split("/")
        return {
            "decks": {"P1": deck_1, "P2": deck_2},
            "casters": {"P1": pair_1.split("+"), "P2": pair_2.split("+")},
            "cards": None,
        }

    return Matchups("dreadnought", "starter", entrants(), "entrants", config)
