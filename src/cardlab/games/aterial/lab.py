"""Balance-lab matchups for Aterial: both starter decks with every leader (A21.5, A5.4)."""

from __future__ import annotations

from typing import Any

from cardlab.core.plugin import Matchups
from cardlab.games.aterial.cards import PACKAGED_DECKS, load_card_set


def entrants() -> tuple[str, ...]:
    """`D1/L01` ... `D2/L05`: each packaged deck paired with each packaged leader."""
    leaders = [card.id for card in load_card_set().leaders()]
    return tuple(f"{deck}/{leader}" for deck in PACKAGED_DECKS for leader in leaders)


def matchups(variant: str | None) -> Matchups:
    """The only variant is `starter`: the packaged A21 set and its two starter decks."""
    if variant not in (None, "starter"):
        raise ValueError(f"unknown Aterial balance variant {variant!r}; the only one is 'starter'")

    def config(first: str, second: str) -> dict[str, Any]:
        (deck_1, leader_1), (deck_2, leader_2) = first.split("/"), second.split("/")
        return {
            "decks": {"P1": deck_1, "P2": deck_2},
            "leaders": {"P1": leader_1, "P2": leader_2},
            "first": "P1",
            "cards": None,
        }

    return Matchups("aterial", "starter", entrants(), "entrants", config)
