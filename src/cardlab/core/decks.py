"""Seat decks of the deck-building games (Aterial, Dreadnought): named in the config, read once,
checked against the game's deck rules, and every failure reported against the config field."""

from __future__ import annotations

from abc import abstractmethod
from functools import cached_property
from typing import Any, Generic, TypeVar

from cardlab.core.errors import PositionError
from cardlab.core.game import PLAYER_NAMES

DeckT = TypeVar("DeckT")


class SeatDecks(Generic[DeckT]):
    """Mixin for a `Game` whose `config.decks` names one deck per seat (a packaged id or a file)."""

    config: Any

    @abstractmethod
    def _read_deck(self, name: str) -> DeckT:
        """The deck `name` as written (a packaged deck id or a deck file path)."""

    @abstractmethod
    def _seat_deck(self, seat: int, deck: DeckT) -> DeckT:
        """`deck` with the config's per-seat override applied (a leader, a caster pair)."""

    @abstractmethod
    def _deck_problems(self, deck: DeckT) -> list[tuple[str, str]]:
        """Every deck-rule violation as (rule id, reason), in rule order."""

    @cached_property
    def decks(self) -> tuple[DeckT, DeckT]:
        """Both seats' checked decks, read once: a game's config is fixed, and reading the deck
        files for every new state cost about a tenth of a random game."""
        return (self.deck(0), self.deck(1))

    def deck(self, seat: int) -> DeckT:
        """The seat's deck, checked; a missing or malformed file or a broken deck rule is a
        PositionError naming the config field and, for a rule, its id."""
        where = f"config.decks.{PLAYER_NAMES[seat]}"
        try:
            deck = self._read_deck(self.config.decks[seat])
        except (OSError, ValueError) as error:  # a missing file; CardDataError and TOML errors are ValueErrors
            raise PositionError(where, str(error)) from None
        deck = self._seat_deck(seat, deck)
        problems = self._deck_problems(deck)
        if problems:
            rule, message = problems[0]
            raise PositionError(where, f"{rule}: {message}")
        return deck
