"""Duel's deck space for `cardlab meta`: 12 deck cards, 4 of a name, any champion (T2), read by the deck's mean
power and the share of its main colour (T1)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from cardlab.core.deckspace import DeckSpace, Pick, Trait, seat_deck_space
from tests.toygame.duel.cards import DECK_SIZE, MAX_COPIES, CardSet, Deck


def _traits(cards: CardSet) -> tuple[Trait, Trait]:
    powers = [card.power for card in cards.deck_cards()]

    def mean_power(pick: Pick) -> float:
        return sum(cards[card].power * n for card, n in pick.cards) / max(pick.size, 1)

    def main_colour(pick: Pick) -> float:
        colours: Counter[str] = Counter()
        for card, n in pick.cards:
            colours[cards[card].colour] += n
        return max(colours.values(), default=0) / max(pick.size, 1)

    return (
        Trait("mean power", "the deck's mean power (T1)", min(powers), max(powers), mean_power),
        Trait("main colour share", "the share of the deck's most common colour (T3.3)", 0.0, 1.0, main_colour),
    )


def deck_space(cls: Any, card_files: Sequence[str]) -> DeckSpace:
    return seat_deck_space(
        cls,
        card_files,
        rule="T2",
        deck_size=DECK_SIZE,
        pool=lambda cards: cards.deck_cards(),
        overrides=lambda cards: [card.id for card in cards.champions()],
        allowed=lambda cards, champion: frozenset(card.id for card in cards.deck_cards()),
        limit=lambda cards, card: MAX_COPIES,
        traits=_traits,
        make_deck=lambda deck_id, name, champion, counts: Deck(deck_id, name, champion, counts),
        override_of=lambda deck: deck.champion,
        override_line=lambda champion: f'champion = "{champion}"',
        override_field="champion",
        override_json=lambda champion: champion,
    )
