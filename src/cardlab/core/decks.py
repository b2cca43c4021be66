"""Seat decks of the deck-building games (Aterial, Dreadnought): named in the config, read once,
checked against the game's deck rules, and every failure reported against the config field to fix."""

from __future__ import annotations

from abc import abstractmethod
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from cardlab.core.errors import PositionError
from cardlab.core.game import PLAYER_NAMES

DeckT = TypeVar("DeckT")


class SeatDecks(Generic[DeckT]):
    """Mixin for a `Game` whose `config.decks` names one deck per seat (a packaged id or a file), and whose
    config may replace part of each seat's deck (Aterial's leader, Dreadnought's caster pair)."""

    config: Any
    packaged_decks: ClassVar[tuple[str, ...]]
    """The ids of the decks shipped with the game, listed when a deck name is neither one nor a file."""
    override_field: ClassVar[str]
    """The config field of the per-seat replacement, e.g. `config.leaders`: a deck-rule violation that only the
    replacement causes is reported there, not against the deck."""

    @abstractmethod
    def _read_deck(self, name: str) -> DeckT:
        """The deck `name` as written (a packaged deck id or a deck file path)."""

    @abstractmethod
    def _seat_deck(self, seat: int, deck: DeckT) -> DeckT:
        """`deck` with the config's per-seat override applied (a leader, a caster pair); `deck` if none."""

    @abstractmethod
    def _deck_problems(self, deck: DeckT) -> list[tuple[str, str]]:
        """Every deck-rule violation as (rule id, reason), in rule order."""

    @cached_property
    def decks(self) -> tuple[DeckT, DeckT]:
        """Both seats' checked decks, read once: a game's config is fixed, and reading the deck
        files for every new state cost about a tenth of a random game."""
        return (self.deck(0), self.deck(1))

    def deck(self, seat: int) -> DeckT:
        """The seat's deck, checked; a missing or malformed file or a broken deck rule is a PositionError
        naming the config field (the override's field if only the override breaks the rule) and, for a rule,
        its id."""
        seat_name = PLAYER_NAMES[seat]
        where = f"config.decks.{seat_name}"
        name = self.config.decks[seat]
        if not isinstance(name, str) or not name:
            raise PositionError(where, f"expected a packaged deck id or a deck file path, got {name!r}")
        if name not in self.packaged_decks and not _exists(name):
            packaged = ", ".join(self.packaged_decks)
            raise PositionError(
                where, f"{name!r} is neither a packaged deck nor a deck file; packaged decks: {packaged}"
            )
        try:
            written = self._read_deck(name)
        except (OSError, ValueError) as error:  # an unreadable file; CardDataError is a ValueError
            raise PositionError(where, str(error)) from None
        deck = self._seat_deck(seat, written)
        problems = self._deck_problems(deck)
        if problems:
            rule, message = problems[0]
            if deck is not written and (rule, message) not in self._deck_problems(written):
                raise PositionError(f"{self.override_field}.{seat_name}", f"{rule}: {message}")
            raise PositionError(where, f"{name}: {rule}: {message}")
        return deck


def _exists(name: str) -> bool:
    """Whether a file or folder of that name exists; a name no file can have (too long, a NUL) is none."""
    try:
        return Path(name).exists()
    except (OSError, ValueError):
        return False
