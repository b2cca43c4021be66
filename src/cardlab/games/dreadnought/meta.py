"""Dreadnought's deck space for `cardlab meta` (issue #52): 50 cards with two casters of different names, at
most `max_copies` of a name, every card's condition met by the casters' clusters (D3.1-D3.4), read by two traits
a designer knows: the deck's mean cost and its share of units."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from cardlab.core.deckspace import DeckSpace, Pick, Trait, seat_deck_space
from cardlab.games.dreadnought.cards import DECK_SIZE, CardDef, CardSet, Deck, condition_met


def _traits(cards: CardSet) -> tuple[Trait, Trait]:
    costs = [card.cost for card in cards.cards()]

    def mean_cost(pick: Pick) -> float:
        return sum(cards[card].cost * n for card, n in pick.cards) / max(pick.size, 1)

    def units(pick: Pick) -> float:
        return sum(n for card, n in pick.cards if cards[card].type == "unit") / max(pick.size, 1)

    return (
        Trait("mean cost", "the deck's mean cost (D2)", min(costs), max(costs), mean_cost),
        Trait("unit share", "the share of the deck's cards that are units (D2)", 0.0, 1.0, units),
    )


def _pairs(cards: CardSet) -> list[str]:
    """Every pair of casters with different names (D3.1), as an entrant writes it: `X01+X03`."""
    casters = cards.casters()
    return [f"{a.id}+{b.id}" for a, b in combinations(casters, 2) if a.name != b.name]


def _allowed(cards: CardSet, pair: str) -> frozenset[str]:
    """The cards whose condition the pair's clusters meet (D3.4)."""
    clusters = [cluster for caster in pair.split("+") for cluster in cards[caster].cluster]
    return frozenset(card.id for card in cards.cards() if condition_met(card.cond, clusters))


def _limit(cards: CardSet, card: CardDef) -> int:
    """The copies of the card's name a deck may hold: the smallest `max_copies` of that name (D3.3)."""
    return min(other.max_copies for other in cards.cards() if other.name == card.name)


def deck_space(cls: Any, card_files: Sequence[str]) -> DeckSpace:
    return seat_deck_space(
        cls,
        card_files,
        rule="D3",
        deck_size=DECK_SIZE,
        pool=lambda cards: cards.cards(),
        overrides=_pairs,
        allowed=_allowed,
        limit=_limit,
        traits=_traits,
        make_deck=lambda deck_id, name, pair, counts: Deck(deck_id, name, tuple(pair.split("+")), counts),
        override_of=lambda deck: "+".join(deck.casters),
        override_line=lambda pair: "casters = [" + ", ".join(f'"{c}"' for c in pair.split("+")) + "]",
        override_field="casters",
        override_json=lambda pair: pair.split("+"),
    )
