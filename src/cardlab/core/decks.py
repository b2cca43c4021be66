"""Seat decks of the deck-building games (the trading card games): named in the config, read once,
checked against the game's deck rules, and every failure reported against the config field to fix."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Self, TypeVar

from cardlab.core.carddata import CardDataError
from cardlab.core.datacheck import DataRules
from cardlab.core.errors import PositionError
from cardlab.core.game import PLAYER_NAMES
from cardlab.core.plugin import ConfigOption

CARD_FILES_OPTION = ConfigOption(
    "cards", "card file added to the packaged set (repeatable)", repeatable=True, web=False
)
"""Deck-building games take extra card files on the command line; never from a browser."""

DeckT = TypeVar("DeckT")


class SeatDecks(Generic[DeckT]):
    """Mixin for a `Game` whose `config.decks` names one deck per seat (a packaged id or a file), and whose
    config may replace part of each seat's deck (e.g. a leader, or a pair of casters)."""

    config: Any
    packaged_decks: ClassVar[tuple[str, ...]]
    """The ids of the decks shipped with the game, listed when a deck name is neither one nor a file."""
    override_field: ClassVar[str]
    """The config field of the per-seat replacement, e.g. `config.leaders`: a deck-rule violation that only the
    replacement causes is reported there, not against the deck."""
    cards_module: ClassVar[str]
    """The game's card-data module: `load_card_set(files, with_sample_set=)`, `load_deck(path)`,
    `validate_deck(deck, cards)`; for the lab's own entrants (`cardlab.core.entrants`) also `parse_card(table)`,
    `parse_deck(table)`, `sample_cards()`, `packaged_deck_file(id)` and `deck_title(deck, cards)`."""
    data_rules: ClassVar[DataRules]
    """The rule ids that the fields of the game's card and deck files answer to, for the problems listed."""
    deck_files: ClassVar[bool] = True

    if TYPE_CHECKING:

        @classmethod
        def from_config(cls, data: Mapping[str, Any]) -> Self: ...

        def config_json(self) -> dict[str, Any]: ...

    def position_game(self, data: Mapping[str, Any]) -> Self:
        """The game a position JSON is played in (for `load_position`): this one when the position carries
        this game's config, else the game of the position's own config, which wins (its card set, its
        decks); a card file of that config that fails to load is a PositionError on `config.cards`."""
        if not isinstance(data, Mapping):
            raise PositionError("position", "expected a JSON object")
        if data.get("config") == self.config_json():
            return self
        try:
            return type(self).from_config(data.get("config", {}))
        except CardDataError as error:
            raise PositionError("config.cards", str(error)) from None

    @classmethod
    @abstractmethod
    def lab_config(
        cls, decks: tuple[str, str], overrides: tuple[str | None, str | None], cards: tuple[str, ...] | None
    ) -> dict[str, Any]:
        """The config JSON seating two balance-table entrants: their decks (packaged ids or files), their
        overrides as an entrant writes them after `:` (None: the deck's own) and the card files; P1 first.
        A ValueError for an override that is not written as one."""

    @abstractmethod
    def override_text(self, deck: DeckT) -> str:
        """The seat deck's replaceable part as an entrant writes it after `:` (a leader id, `X02+X03`)."""

    def deck_title(self, deck: DeckT) -> str:
        """The seat deck in words, as tables name an entrant: its name, and its leader's or casters' names."""
        title: str = import_module(self.cards_module).deck_title(deck, self.card_set)
        return title

    card_set: Any

    @classmethod
    def check_deck_file(cls, path: Path, card_files: Sequence[Path]) -> tuple[str, list[tuple[str, str]]]:
        """The deck file's (description, deck-rule violations as (rule id, reason))."""
        data = import_module(cls.cards_module)
        cards = data.load_card_set(list(card_files) or None, with_sample_set=True)
        deck = data.load_deck(path)
        problems: list[tuple[str, str]] = data.validate_deck(deck, cards)
        return f"deck {deck.id} ({deck.name})", problems

    @classmethod
    def check_web_config(cls, config: Mapping[str, Any]) -> None:
        """A browser may pick packaged decks only: a path would make the server open files of its choosing."""
        if config.get("cards") is not None:
            raise ValueError("config.cards: card files are not accepted over the web; use the packaged card set")
        decks = config.get("decks")
        if isinstance(decks, Mapping):
            for seat, deck in decks.items():
                if not isinstance(deck, str) or deck not in cls.packaged_decks:
                    choices = ", ".join(cls.packaged_decks)
                    raise ValueError(f"config.decks.{seat}: expected a packaged deck ({choices}), got {deck!r}")

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


def seat_decks_options(
    options: Mapping[str, Any], defaults: tuple[str, str]
) -> tuple[tuple[str, str], tuple[str, ...] | None]:
    """The decks (packaged ids or files, `defaults` where unset) and card files that options name."""
    decks = options.get("decks") or defaults
    first, second = (deck or default for deck, default in zip(decks, defaults, strict=True))
    cards = options.get("cards")
    return (first, second), None if not cards else tuple(cards)


def read_deck_config(
    data: object,
    known: Sequence[str],
    override: str,
    default_decks: tuple[str, str],
    check_override: Callable[[str, Any], None],
) -> tuple[tuple[str, str], Mapping[str, Any], tuple[str, ...] | None]:
    """The fields every deck game's config JSON has, checked, each error naming its field: the object
    (no field outside `known`), `decks` (per seat a packaged deck id or a deck file path, `default_decks`
    when absent), the per-seat `override` (null: none; `check_override(seat, value)` checks a seat's
    value) and `cards` (null or a list of card file paths). Returns (decks, overrides by seat, cards);
    the game reads `rules`, `patches` and its own fields."""
    if not isinstance(data, Mapping):
        raise PositionError("config", f"expected an object with decks, {override}, cards")
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise PositionError(f"config.{unknown[0]}", "unknown field")
    decks = data.get("decks", dict(zip(PLAYER_NAMES, default_decks, strict=True)))
    overrides = data.get(override) or dict.fromkeys(PLAYER_NAMES)
    for field, value in (("config.decks", decks), (f"config.{override}", overrides)):
        if not isinstance(value, Mapping) or set(value) != set(PLAYER_NAMES):
            raise PositionError(field, 'expected {"P1": ..., "P2": ...}')
    for seat in PLAYER_NAMES:
        if not isinstance(decks[seat], str) or not decks[seat]:
            raise PositionError(f"config.decks.{seat}", "expected a packaged deck id or a deck file path")
        check_override(seat, overrides[seat])
    cards = data.get("cards")
    if cards is not None and (not isinstance(cards, list) or not all(isinstance(c, str) for c in cards)):
        raise PositionError("config.cards", "expected null or a list of card file paths")
    return (decks["P1"], decks["P2"]), overrides, None if cards is None else tuple(cards)


def _exists(name: str) -> bool:
    """Whether a file or folder of that name exists; a name no file can have (too long, a NUL) is none."""
    try:
        return Path(name).exists()
    except (OSError, ValueError):
        return False
