"""Aterial's deck space for `cardlab meta` (issue #52): decks of 30 subordinates, at most 4 of a name, with any
leader (A5.1-A5.4), read by two traits a designer knows: the deck's mean cost and the share of its main race."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from cardlab.core.deckspace import DeckSpace, Pick, Trait, seat_deck_space
from cardlab.games.aterial.cards import DECK_SIZE, MAX_COPIES, CardSet, Deck


def _traits(cards: CardSet) -> tuple[Trait, Trait]:
    costs = [card.cost for card in cards.subordinates()]

    def mean_cost(pick: Pick) -> float:
        return sum(cards[card].cost * n for card, n in pick.cards) / max(pick.size, 1)

    def main_race(pick: Pick) -> float:
        races: Counter[str] = Counter()
        for card, n in pick.cards:
            for race in cards[card].races:
                races[race] += n
        return max(races.values(), default=0) / max(pick.size, 1)

    return (
        Trait("mean cost", "the deck's mean placement cost (A4.4)", min(costs), max(costs), mean_cost),
        Trait("main race share", "the share of the deck's cards of its most common race (A4.7)", 0.0, 1.0, main_race),
    )


def deck_space(cls: Any, card_files: Sequence[str]) -> DeckSpace:
    """Any subordinate, 4 of a name (A5.2, A5.3), 30 cards (A5.1), any leader with any deck (A5.4's ruling)."""
    return seat_deck_space(
        cls,
        card_files,
        rule="A5",
        deck_size=DECK_SIZE,
        pool=lambda cards: cards.subordinates(),
        overrides=lambda cards: [card.id for card in cards.leaders()],
        allowed=lambda cards, leader: frozenset(card.id for card in cards.subordinates()),
        limit=lambda cards, card: MAX_COPIES,
        traits=_traits,
        make_deck=lambda deck_id, name, leader, counts: Deck(deck_id, name, leader, counts),
        override_of=lambda deck: deck.leader,
        override_line=lambda leader: f'leader = "{leader}"',
        override_field="leader",
        override_json=lambda leader: leader,
    )
