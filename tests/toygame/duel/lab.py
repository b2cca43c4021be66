"""Duel's balance lab: each starter deck with each champion, or the designer's own (`--entrants`, `--cards`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardlab.core.entrants import deck_matchups
from cardlab.core.plugin import ConfigOption, Matchups

ENTRANTS_OPTION = ConfigOption(
    "entrants", "the table's entrants, each a deck (packaged id or deck file) and ':' its champion",
    example="my_deck.toml:C1,dawn:C2",
)  # fmt: skip


def matchups(variant: str | None) -> Matchups:
    from tests.toygame.duel.cards import PACKAGED_DECKS
    from tests.toygame.duel.game import Duel

    if variant not in (None, "starter"):
        raise ValueError(f"unknown Duel balance variant {variant!r}")

    def config(first: str, second: str) -> dict[str, Any]:
        (deck_1, champion_1), (deck_2, champion_2) = first.split("/"), second.split("/")
        return Duel.lab_config((deck_1, deck_2), (champion_1, champion_2), None)

    ids = tuple(f"{deck}/{champion}" for deck in PACKAGED_DECKS for champion in ("C1", "C2"))
    return Matchups("duel", "starter", ids, "entrants", config)


def own_matchups(base: Matchups, entrants: Sequence[str], cards: Sequence[str]) -> Matchups:
    from tests.toygame.duel.game import Duel

    return deck_matchups(Duel, base, entrants, cards)
