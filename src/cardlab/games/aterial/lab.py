"""Balance-lab matchups for Aterial: both starter decks with every leader (A21.5, A5.4), or the designer's
own decks and leaders (`--entrants my_deck.toml:L01,D2:L04 --cards my_cards.toml`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardlab.core.entrants import deck_matchups
from cardlab.core.plugin import ConfigOption, Matchups
from cardlab.games.aterial.cards import PACKAGED_DECKS, Deck, deck_title, load_card_set, packaged_deck

STRONG_AGENT = "ismcts:iterations=50:rollout=heuristic:backend=cpu:depth=10:c=0.15"
"""The default table agent (docs/balance.md, "Aterial under the compiled search"): the compiled search with
heuristic rollouts cut after 10 actions, which beats the full-rollout search at a fraction of its cost, and a
small UCB constant, which beats the default c = 0.7 at equal iterations and stops sooner; its table is compared
there with the ones at twice the iterations and under the heuristic."""

ENTRANTS_OPTION = ConfigOption(
    "entrants",
    "the table's entrants, each a deck (packaged id or deck file) and ':' its leader (A5.4; the deck's own "
    "when left out), e.g. my_deck.toml:L01,D2:L04",
    example="my_deck.toml:L01,D2:L04",
)
"""`--entrants` of balance, report, compare and sweep (with `--cards FILE`): the designer's own table."""


def entrants() -> tuple[str, ...]:
    """`D1/L01` ... `D2/L05`: each packaged deck paired with each packaged leader."""
    leaders = [card.id for card in load_card_set().leaders()]
    return tuple(f"{deck}/{leader}" for deck in PACKAGED_DECKS for leader in leaders)


def _names(ids: Sequence[str]) -> dict[str, str]:
    """Each entrant in words: the deck's name and the leader's (`Vanguard of Dawn · Matriarch Greytusk`)."""
    cards = load_card_set()
    names = {}
    for entrant in ids:
        deck_id, leader = entrant.split("/")
        deck = packaged_deck(deck_id)
        names[entrant] = deck_title(Deck(deck.id, deck.name, leader, deck.cards), cards)
    return names


def matchups(variant: str | None) -> Matchups:
    """The only variant is `starter`: the packaged A21 set and its two starter decks."""
    from cardlab.games.aterial.game import Aterial

    if variant not in (None, "starter"):
        raise ValueError(f"unknown Aterial balance variant {variant!r}; the only one is 'starter'")

    def config(first: str, second: str) -> dict[str, Any]:
        (deck_1, leader_1), (deck_2, leader_2) = first.split("/"), second.split("/")
        return Aterial.lab_config((deck_1, deck_2), (leader_1, leader_2), None)

    ids = entrants()
    names = {"entrant_names": _names(ids)}
    return Matchups("aterial", "starter", ids, "entrants", config, STRONG_AGENT, summary_fields=names)


def own_matchups(base: Matchups, entrants: Sequence[str], cards: Sequence[str]) -> Matchups:
    """`base` with the designer's entrants (all of base's when none) and card files (`cardlab.core.entrants`)."""
    from cardlab.games.aterial.game import Aterial

    return deck_matchups(Aterial, base, entrants, cards)
