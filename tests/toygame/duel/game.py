"""Duel, a toy deck-building game for the tests of `cardlab meta` (issue #52): fast, with a known answer.

Rules (ids cited by the tests):
- T1 Cards: a deck card has a colour and a power; a champion (the deck's override, like a leader) has a power
  added to its owner's total at the end. The packaged cards all have power 3 and the champions 1, so no deck
  of them is stronger than another but by how its colours answer the opponent's.
- T2 Decks: exactly 12 cards (T2.1), deck cards only (T2.2), at most 4 of a name (T2.3), one champion (T2.4).
- T3 Play: each shuffles and draws 3 (T3.1); four rounds, P1 leading the odd ones and P2 the even ones, the
  leader plays a hand card face up, then the other (T3.2); a card scores its power, plus 2 where its colour
  beats the other's: red beats green beats blue beats red (T3.3); both then draw one (T3.4). After four
  rounds each adds their champion's power; the higher total wins, equal totals draw (T3.5).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardlab.core.actions import ActionSpace, IndexedAction
from cardlab.core.datacheck import DataRules
from cardlab.core.decks import CARD_FILES_OPTION, SeatDecks, read_deck_config, seat_decks_options
from cardlab.core.errors import PositionError
from cardlab.core.events import EventLog
from cardlab.core.game import PLAYER_NAMES, Action, Game, HiddenGroup, Outcome, Player, State
from cardlab.core.plugin import Choice, ConfigOption, OptionValue, seat_values
from cardlab.core.rng import make_rng
from tests.toygame.duel.cards import (
    BEATS,
    PACKAGED_DECKS,
    CardSet,
    Deck,
    load_card_set,
    load_deck,
    packaged_deck,
    validate_deck,
)

ACTIONS = ActionSpace(("PLAY0", "PLAY1", "PLAY2"))
ROUNDS = 4
HAND = 3


@dataclass(frozen=True)
class DuelConfig:
    decks: tuple[str, str] = ("dawn", "dusk")
    champions: tuple[str | None, str | None] = (None, None)
    cards: tuple[str, ...] | None = None


class Duel(SeatDecks[Deck], Game):
    name = "duel"
    title = "Duel"
    position_keys = ("game", "config", "round", "hands", "decks", "scores", "led")
    num_actions = len(ACTIONS)
    packaged_decks = PACKAGED_DECKS
    override_field = "config.champions"
    cards_module = "tests.toygame.duel.cards"
    data_rules = DataRules("T1", {"deck.cards": "T2", "deck.champion": "T2.4"})
    options = (
        ConfigOption(
            "decks",
            "P1,P2 decks: packaged ids or deck files",
            tuple(Choice(d) for d in PACKAGED_DECKS),
            open_choices=True,
            per_seat=True,
            default="dawn,dusk",
        ),
        ConfigOption(
            "champions",
            "P1,P2 champions replacing the decks' own",
            (Choice("C1"), Choice("C2")),
            open_choices=True,
            per_seat=True,
            optional=True,
        ),
        CARD_FILES_OPTION,
    )

    def __init__(self, config: DuelConfig | None = None) -> None:
        self.config = config = config or DuelConfig()
        extra = [Path(path) for path in config.cards] if config.cards else None
        self.card_set: CardSet = load_card_set(extra, with_sample_set=True)

    @classmethod
    def from_config(cls, data: Mapping[str, Any]) -> Duel:
        def check(seat: str, value: Any) -> None:
            if value is not None and (not isinstance(value, str) or not value):
                raise PositionError(f"config.champions.{seat}", "expected null or a champion id")

        keys = ("decks", "champions", "cards")
        decks, champions, cards = read_deck_config(data, keys, "champions", ("dawn", "dusk"), check)
        return cls(DuelConfig(decks, (champions["P1"], champions["P2"]), cards))

    @classmethod
    def from_options(cls, options: Mapping[str, OptionValue], rng: random.Random) -> Duel:
        decks, cards = seat_decks_options(options, ("dawn", "dusk"))
        champions = seat_values(options.get("champions"))
        return cls(DuelConfig(decks, (champions[0] or None, champions[1] or None), cards))

    def config_json(self) -> dict[str, Any]:
        return {
            "decks": dict(zip(PLAYER_NAMES, self.config.decks, strict=True)),
            "champions": dict(zip(PLAYER_NAMES, self.config.champions, strict=True)),
            "cards": None if self.config.cards is None else list(self.config.cards),
        }

    @classmethod
    def lab_config(
        cls, decks: tuple[str, str], overrides: tuple[str | None, str | None], cards: tuple[str, ...] | None
    ) -> dict[str, Any]:
        return {
            "decks": {"P1": decks[0], "P2": decks[1]},
            "champions": {"P1": overrides[0], "P2": overrides[1]},
            "cards": None if cards is None else list(cards),
        }

    def override_text(self, deck: Deck) -> str:
        return deck.champion

    def _read_deck(self, name: str) -> Deck:
        return packaged_deck(name) if name in PACKAGED_DECKS else load_deck(Path(name))

    def _seat_deck(self, seat: int, deck: Deck) -> Deck:
        champion = self.config.champions[seat]
        return deck if champion is None else Deck(deck.id, deck.name, champion, deck.cards)

    def _deck_problems(self, deck: Deck) -> list[tuple[str, str]]:
        return validate_deck(deck, self.card_set)  # T2

    def new_state(self, seed: int, *, record_events: bool = True) -> DuelState:
        rng = make_rng(seed)
        piles = []
        for deck in self.decks:
            pile = deck.card_list()
            rng.shuffle(pile)  # T3.1
            piles.append(pile)
        hands = [pile[:HAND] for pile in piles]
        return DuelState(self, [pile[HAND:] for pile in piles], hands, [0, 0], 1, None, record_events)

    def load_position(self, data: Mapping[str, Any]) -> DuelState:
        game = self.position_game(data)
        try:
            return DuelState(game, [list(d) for d in data["decks"]], [list(h) for h in data["hands"]],
                             list(data["scores"]), int(data["round"]), data["led"], False)  # fmt: skip
        except (KeyError, TypeError, ValueError) as error:
            raise PositionError("position", f"expected a Duel position: {error}") from None

    def parse_action(self, text: str) -> IndexedAction:
        return ACTIONS.parse(text.upper())


class DuelState(State):
    def __init__(
        self,
        game: Duel,
        decks: list[list[str]],
        hands: list[list[str]],
        scores: list[int],
        round_: int,
        led: str | None,
        record_events: bool,
    ) -> None:
        self._game, self.decks, self.hands, self.scores, self.round, self.led = game, decks, hands, scores, round_, led
        self.events = EventLog() if record_events else None

    @property
    def game(self) -> Duel:
        return self._game

    def leader(self) -> int:
        return (self.round - 1) % 2  # T3.2

    def current_player(self) -> Player | None:
        if self.round > ROUNDS:
            return None
        return self.leader() if self.led is None else 1 - self.leader()

    def legal_actions(self) -> Sequence[IndexedAction]:
        player = self.current_player()
        return () if player is None else tuple(ACTIONS[i] for i in range(len(self.hands[player])))

    def value(self, card: str, other: str) -> int:
        """T3.3: the card's power, plus 2 where its colour beats the other card's."""
        cards = self._game.card_set
        return cards[card].power + (2 if BEATS[cards[card].colour] == cards[other].colour else 0)

    def _apply_legal(self, action: Action) -> None:
        player = self.current_player()
        assert player is not None
        card = self.hands[player].pop(int(action))
        if self.led is None:
            self.led = card
            return
        leader = self.leader()
        self.scores[leader] += self.value(self.led, card)
        self.scores[player] += self.value(card, self.led)
        for seat in (0, 1):  # T3.4
            if self.decks[seat]:
                self.hands[seat].append(self.decks[seat].pop(0))
        self.round, self.led = self.round + 1, None

    def clone(self, *, record_events: bool = False) -> DuelState:
        return DuelState(self._game, [list(d) for d in self.decks], [list(h) for h in self.hands], list(self.scores),
                         self.round, self.led, False)  # fmt: skip

    def totals(self) -> tuple[int, int]:
        cards, decks = self._game.card_set, self._game.decks
        return self.scores[0] + cards[decks[0].champion].power, self.scores[1] + cards[decks[1].champion].power

    def outcome(self) -> Outcome | None:
        if self.round <= ROUNDS:
            return None
        first, second = self.totals()  # T3.5
        return Outcome(None if first == second else (0 if first > second else 1), "total")

    def position(self) -> dict[str, Any]:
        return {"game": "duel", "config": self._game.config_json(), "round": self.round, "hands": self.hands,
                "decks": self.decks, "scores": self.scores, "led": self.led}  # fmt: skip

    def observation(self, player: Player | None) -> dict[str, Any]:
        hands = {
            seat: (list(self.hands[p]) if p == player else len(self.hands[p])) for p, seat in enumerate(PLAYER_NAMES)
        }
        return {"round": self.round, "led": self.led, "scores": list(self.scores), "hands": hands}

    def turn_number(self) -> int:
        return self.round

    def card_zones(self) -> Mapping[str, list[int]]:
        return {}

    def hidden_cards(self, player: Player) -> list[HiddenGroup]:
        return []

    def _resync(self) -> bool:
        return True
