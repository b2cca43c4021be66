"""The Edelweiss Game: configuration, seeded set-up (E1, E7.1) and notation parsing."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from cardlab.core.game import Game
from cardlab.core.rng import make_rng
from cardlab.games.edelweiss.actions import N_ACTIONS, EdelweissAction
from cardlab.games.edelweiss.cards import CHARACTER_IDS, CHARACTERS, HAND_SIZES, Skill, deck_cards
from cardlab.games.edelweiss.config import EdelweissConfig
from cardlab.games.edelweiss.state import EdelweissState


class Edelweiss(Game):
    """Arcana Fight! Edelweiss with one configuration (deck, standard, characters)."""

    name = "edelweiss"
    num_actions = N_ACTIONS
    position_keys = ("game", "config", "turn", "turn_player", "window", "deck", "discard", "players", "attack",
                     "winner", "win_reason", "revealed")  # fmt: skip

    def __init__(self, config: EdelweissConfig | None = None) -> None:
        self.config = config or EdelweissConfig()
        self.accel2 = self.config.standard == "accel2"

    def __repr__(self) -> str:
        return f"Edelweiss({self.config!r})"

    @classmethod
    def from_config(cls, data: Mapping[str, Any]) -> Edelweiss:
        return cls(EdelweissConfig.from_json(data))

    def config_json(self) -> dict[str, Any]:
        return self.config.to_json()

    @staticmethod
    def skills_of(characters: tuple[str, str] | None) -> tuple[Skill, Skill]:
        if characters is None:
            return (Skill(0), Skill(0))
        return (CHARACTERS[characters[0]].skills, CHARACTERS[characters[1]].skills)

    def new_state(self, seed: int, *, record_events: bool = True) -> EdelweissState:
        """Shuffle, pick characters if unset (before seating, E7.1), deal P1 then P2 (E1.4)."""
        rng = make_rng(seed)
        game = self
        if self.config.skills and self.config.characters is None:
            picked = (rng.choice(CHARACTER_IDS), rng.choice(CHARACTER_IDS))
            game = Edelweiss(replace(self.config, characters=picked))
        order = deck_cards(self.config.deck)
        rng.shuffle(order)  # order[0] is the top card
        size = HAND_SIZES[self.config.deck]
        state = EdelweissState(game, record_events)
        state.hands[0].extend(order[:size])
        state.hands[1].extend(order[size : 2 * size])
        state.deck.extend(reversed(order[2 * size :]))
        state._advance()
        return state

    def load_position(self, data: Mapping[str, Any]) -> EdelweissState:
        """Load an E14.5 position (its own config wins over this game's)."""
        from cardlab.games.edelweiss.position import load_position

        return load_position(data)

    def parse_action(self, text: str) -> EdelweissAction:
        return EdelweissAction.parse(text)
