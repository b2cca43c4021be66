"""Balance-lab matchups for Dreadnought: each starter deck with every legal caster pair (D3, D23), or the
designer's own decks and caster pairs (`--entrants ember_spark:X02+X03,my_deck.toml:X04+X07 --cards FILE`)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from cardlab.core.entrants import deck_matchups
from cardlab.core.plugin import ConfigOption, Matchups
from cardlab.games.dreadnought.cards import (
    PACKAGED_DECKS,
    Deck,
    deck_title,
    load_card_set,
    packaged_deck,
    validate_deck,
)

STRONG_AGENT = "ismcts:iterations=40:rollout=heuristic:backend=cpu:depth=30:c=0.15"
"""The default table agent (docs/balance.md, "Dreadnought under the compiled search"): the compiled search with
heuristic rollouts cut after 30 actions and a small exploration constant, 65% against the heuristic. The cut
estimate sits near one half, so UCB's default c = 0.7 spreads 100 iterations almost evenly (69%); c = 0.15 spends
40 on the moves that look best. Whole heuristic rollouts cost more and win less, random ones lose almost every
game."""

ENTRANTS_OPTION = ConfigOption(
    "entrants",
    "the table's entrants, each a deck (packaged id or deck file) and ':' its caster pair joined by '+' (D3.1, "
    "D3.4; the deck's own when left out), e.g. ember_spark:X02+X03,my_deck.toml:X04+X07",
    example="ember_spark:X02+X03,my_deck.toml:X04+X07",
)
"""`--entrants` of balance, report, compare and sweep (with `--cards FILE`): the designer's own table."""


def entrants() -> tuple[str, ...]:
    """`ember_spark/X01+X03` ...: every packaged deck with each pair of sample casters it is legal with (D3.4)."""
    return tuple(_legal())


def _legal() -> dict[str, str]:
    """Every packaged deck with each legal pair of sample casters, in words (`Ember & Spark · Ignis Varga + ...`)."""
    cards = load_card_set()
    casters = [card.id for card in cards.casters()]
    found = {}
    for deck_id in PACKAGED_DECKS:
        deck = packaged_deck(deck_id)
        for pair in combinations(casters, 2):
            seat = Deck(deck.id, deck.name, pair, deck.cards)
            if not validate_deck(seat, cards):
                found[f"{deck_id}/{'+'.join(pair)}"] = deck_title(seat, cards)
    return found


def matchups(variant: str | None) -> Matchups:
    """The only variant is `starter`: the packaged D23 set, its two starter decks and seven casters."""
    from cardlab.games.dreadnought.game import Dreadnought

    if variant not in (None, "starter"):
        raise ValueError(f"unknown Dreadnought balance variant {variant!r}; the only one is 'starter'")

    def config(first: str, second: str) -> dict[str, Any]:
        (deck_1, pair_1), (deck_2, pair_2) = first.split("/"), second.split("/")
        return Dreadnought.lab_config((deck_1, deck_2), (pair_1, pair_2), None)

    names = _legal()
    return Matchups("dreadnought", "starter", tuple(names), "entrants", config, STRONG_AGENT, {"entrant_names": names})


def own_matchups(base: Matchups, entrants: Sequence[str], cards: Sequence[str]) -> Matchups:
    """`base` with the designer's entrants (all of base's when none) and card files (`cardlab.core.entrants`)."""
    from cardlab.games.dreadnought.game import Dreadnought

    return deck_matchups(Dreadnought, base, entrants, cards)
