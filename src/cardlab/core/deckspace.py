"""What `cardlab meta` asks of a deck-building game: its card pool as a deck builder sees it (issue #52).

A `DeckSpace` is declared by the game's own package (`Game.deck_space`, by default `deck_space(cls, card_files)`
of its `meta` module), so that the search (`cardlab.sim.meta`) names no game: which cards a deck may hold under
each override (a leader, a caster pair), how many copies of a name, the deck's size, the game's own validator
(every deck the search makes is checked by it, the rule ids its reasons), two traits a designer reads a deck by,
and how a deck is written as a deck file that `--entrants` and `play --decks` load unchanged.

`seat_deck_space` builds one for the games whose decks are a `SeatDecks` config (a deck file plus an override)
from the game's cards module, so that no two games copy it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from importlib import import_module
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Pick:
    """One entrant as the search holds it: the override (as an entrant writes it after `:`) and card id -> count."""

    override: str
    cards: tuple[tuple[str, int], ...]
    """Sorted by card id; every count above zero."""

    @staticmethod
    def of(override: str, counts: Mapping[str, int]) -> Pick:
        return Pick(override, tuple(sorted((card, n) for card, n in counts.items() if n > 0)))

    def counts(self) -> dict[str, int]:
        return dict(self.cards)

    @property
    def size(self) -> int:
        return sum(n for _, n in self.cards)

    @property
    def id(self) -> str:
        """A stable id from the contents (letters and digits only: a table's cell names split at `-`)."""
        text = self.override + "|" + ",".join(f"{card}={n}" for card, n in self.cards)
        return "m" + hashlib.sha256(text.encode()).hexdigest()[:10]


@dataclass(frozen=True)
class Trait:
    """One axis of the trait map: what a designer calls it, and its value for a deck within [low, high]."""

    name: str
    description: str
    low: float
    high: float
    value: Callable[[Pick], float]


@dataclass(frozen=True)
class PoolCard:
    """A card a deck may hold: its id, its name (copies count by name) and how many of that name a deck may hold."""

    id: str
    name: str
    limit: int


@dataclass(frozen=True)
class PackagedEntrant:
    """An entrant of the game's default table: its id there (`D1/L01`), its packaged deck id and its pick."""

    id: str
    deck: str
    pick: Pick


@dataclass(frozen=True)
class DeckSpace:
    """A game's deck space under a card pool (the packaged cards plus the designer's card files)."""

    game: str
    rule: str
    """The construction rule's id (A5, D3): what every deck the search makes obeys."""
    deck_size: int
    cards: tuple[PoolCard, ...]
    overrides: tuple[str, ...]
    packaged: tuple[PackagedEntrant, ...]
    traits: tuple[Trait, Trait]
    allowed: Callable[[str], frozenset[str]]
    """The card ids a deck with this override may hold (a caster pair's conditions, D3.4)."""
    problems: Callable[[Pick], list[tuple[str, str]]]
    """The game's own validator: every construction-rule violation of a pick as (rule id, reason)."""
    deck_text: Callable[[Pick, str, str], str]
    """The deck file (TOML) of a pick, given its id and name: loadable by `--entrants` and `play --decks`."""
    lab_config: Callable[[tuple[str, str], tuple[str | None, str | None], tuple[str, ...] | None], dict[str, Any]]
    """The config seating two decks (packaged ids or deck files) with their overrides, P1 first."""
    override_field: str
    """What meta.json calls the override: `leader`, `casters`."""
    override_json: Callable[[str], Any]
    """The override as meta.json writes it (`L01`, `["X02", "X03"]`)."""
    card_names: Mapping[str, str]
    """Every card's name by id, the overrides' included."""
    deck_of: Callable[[str, Pick], Any] | None = None
    """The game's deck object of an entrant (its packaged deck id or deck file, and its pick), as a config seats
    it: what a kernel that plays many pairings in one call builds its tables from, no deck file read (None: the
    search plays each pairing from its config)."""

    def card(self, card_id: str) -> PoolCard:
        return self._by_id[card_id]

    @cached_property
    def _by_id(self) -> dict[str, PoolCard]:
        return {card.id: card for card in self.cards}


def toml_deck(pick: Pick, deck_id: str, name: str, override_line: str) -> str:
    """A deck file's text: one `[[deck]]` table with `override_line` (e.g. `leader = "L01"`) and the cards."""
    cards = ", ".join(f"{card} = {n}" for card, n in pick.cards)
    return f'[[deck]]\nid = "{deck_id}"\nname = "{name}"\n{override_line}\ncards = {{ {cards} }}\n'


def seat_deck_space(
    cls: Any,
    card_files: Sequence[str],
    *,
    rule: str,
    deck_size: int,
    pool: Callable[[Any], Sequence[Any]],
    overrides: Callable[[Any], Sequence[str]],
    allowed: Callable[[Any, str], frozenset[str]],
    limit: Callable[[Any, Any], int],
    traits: Callable[[Any], tuple[Trait, Trait]],
    make_deck: Callable[[str, str, str, dict[str, int]], Any],
    override_of: Callable[[Any], str],
    override_line: Callable[[str], str],
    override_field: str,
    override_json: Callable[[str], Any],
) -> DeckSpace:
    """The deck space of a `SeatDecks` game from its cards module (`cls.cards_module`): `pool(cards)` the cards a
    deck may hold, `overrides(cards)` every legal override, `allowed(cards, override)` the cards legal with it,
    `limit(cards, card)` the copies of its name a deck may hold, `make_deck(id, name, override, counts)` the
    game's deck as written, `override_of(deck)` a written deck's override, `override_line` its deck-file line."""
    data = import_module(cls.cards_module)
    cards = data.load_card_set([Path(path) for path in card_files] or None, with_sample_set=True)
    members = list(pool(cards))
    pool_cards = tuple(PoolCard(card.id, card.name, limit(cards, card)) for card in members)
    packaged = []
    for entrant in cls.lab().matchups(None).entrants:
        deck_id, _, override = entrant.partition("/")
        deck = data.packaged_deck(deck_id)
        packaged.append(PackagedEntrant(entrant, deck_id, Pick.of(override or override_of(deck), deck.cards)))
    legal = {override: allowed(cards, override) for override in overrides(cards)}

    def problems(pick: Pick) -> list[tuple[str, str]]:
        found: list[tuple[str, str]] = data.validate_deck(
            make_deck("meta", "meta", pick.override, pick.counts()), cards
        )
        return found

    def deck_text(pick: Pick, deck_id: str, name: str) -> str:
        return toml_deck(pick, deck_id, name, override_line(pick.override))

    packaged_ids = {entrant.deck for entrant in packaged}

    def deck_of(deck: str, pick: Pick) -> Any:
        """A packaged deck keeps its own card order (the order it is dealt from); a generated deck's file lists
        its cards as `pick.cards` does, so its deck is built from the pick."""
        if deck in packaged_ids:
            own = data.packaged_deck(deck)
            return make_deck(own.id, own.name, pick.override, dict(own.cards))
        return make_deck(pick.id, pick.id, pick.override, pick.counts())

    return DeckSpace(
        game=cls.name,
        rule=rule,
        deck_size=deck_size,
        cards=pool_cards,
        overrides=tuple(legal),
        packaged=tuple(packaged),
        traits=traits(cards),
        allowed=lambda override: legal.get(override, frozenset()),
        problems=problems,
        deck_text=deck_text,
        lab_config=cls.lab_config,
        override_field=override_field,
        override_json=override_json,
        card_names={card_id: card.name for card_id, card in cards.by_id.items()},
        deck_of=deck_of,
    )
