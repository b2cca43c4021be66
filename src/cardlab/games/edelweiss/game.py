"""The Edelweiss Game: configuration, seeded set-up (E1, E7.1) and notation parsing."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from cardlab.core.game import Game
from cardlab.core.plugin import (
    RANDOM,
    Choice,
    CompiledSearch,
    ConfigOption,
    FastRollout,
    Kernels,
    ModuleSearch,
    OptionValue,
    draw_random_seats,
)
from cardlab.core.rng import make_rng
from cardlab.games.edelweiss.actions import N_ACTIONS, EdelweissAction
from cardlab.games.edelweiss.cards import (
    CHARACTER_IDS,
    CHARACTERS,
    CLUB,
    DECK_SIZES,
    HAND_SIZES,
    HEART,
    SPADE,
    Skill,
    deck_cards,
)
from cardlab.games.edelweiss.config import EdelweissConfig
from cardlab.games.edelweiss.lab import VARIANT_OPTION
from cardlab.games.edelweiss.state import POSITION_KEYS, EdelweissState
from cardlab.games.edelweiss.variants import RULE_OPTIONS


def _skills_text(skills: Skill) -> str:
    return " + ".join((skill.name or "").replace("_", " ").title() for skill in Skill if skill & skills)


_CHARACTER_CHOICES = tuple(
    Choice(char_id, f"{char.name} ({_skills_text(char.skills)})") for char_id, char in CHARACTERS.items()
)
_STANDARD_CHOICES = VARIANT_OPTION.choices  # the game's standards are the lab's table variants
_SKILLS_ONLY = ("deck", ("skills",))


class Edelweiss(Game):
    """Arcana Fight! Edelweiss with one configuration (deck, standard, characters)."""

    name = "edelweiss"
    title = "Arcana Fight! Edelweiss"
    credit = "Game mechanics based on Arcana Fight! Edelweiss."
    options = (
        ConfigOption(
            "deck",
            "deck variant (E1.1); default full",
            (
                Choice("full", "full deck (52 cards)"),
                Choice("short", "short deck (36 cards)"),
                Choice("skills", "skills game (36 cards + characters)"),
            ),
            default="full",
        ),
        ConfigOption(
            "standard",
            "skill standard (E7.4; implies --deck skills)",
            _STANDARD_CHOICES,
            default="symbolic",
            shown_when=_SKILLS_ONLY,
        ),
        ConfigOption(
            "characters",
            "P1,P2 character IDs (E9), either may be random (implies --deck skills)",
            _CHARACTER_CHOICES,
            per_seat=True,
            random_choice=True,
            default=RANDOM,
            shown_when=_SKILLS_ONLY,
            example="VIRIDIAN,EAGLE",
        ),
    )
    rule_options = RULE_OPTIONS
    num_actions = N_ACTIONS
    position_keys = POSITION_KEYS
    max_turn_decisions = 256
    """A turn is a summon and attack sequences of at most six decisions each (E3.1), one per upright spade,
    and a spade attacks again only once pursuit stance has tapped a club for it (E5.5): under 26 sequences
    with the full deck's 13 spades and 13 clubs, skills' choices included (the longest turn of 100 random
    games holds 14 decisions)."""

    def __init__(self, config: EdelweissConfig | None = None) -> None:
        self.config = config or EdelweissConfig()
        self.accel2 = self.config.standard == "accel2"
        rule = self.config.rule
        self.first_draw = rule("first_draw") == "yes"  # E3.2
        hand = rule("opening_hand")
        self.opening_hand = HAND_SIZES[self.config.deck] if hand == "standard" else int(hand)  # E1.4
        # E6.3: every turn draws one card from the shared deck (but P1's first, under first_draw=no), none comes
        # back, and the draw step that finds it empty ends the game (E6.2).
        self.max_turns = DECK_SIZES[self.config.deck] - 2 * self.opening_hand + 2
        self.symbolic_guard_suits = (SPADE,) if rule("symbolic_field_guard") == "spades" else (SPADE, HEART, CLUB)
        self.accel2_keeps_symbolic_guard = rule("accel2_guardian") == "symbolic_too"  # E8.1
        self.deck_out_tie_is_draw = rule("deck_out_tie") == "draw"  # E6.2
        protection = rule("accel2_protection") if self.accel2 else "none"  # E8.5: Accel 2 only
        # Whose skills grant protection to the attacker: 0 its own (E8.5), 1 the defender's (rule
        # accel2_protection=defender), -1 nobody's (none, and every Symbolic game).
        self.protection_holder = {"none": -1, "defender": 1}.get(protection, 0)
        self.protection_owes_club = protection == "club_still_owed"  # the counter still takes a club
        self.poison_bind_on_field_guard = rule("poison_bind_trigger") == "any_counter"  # E8.4
        self.poison_bind_before_counter = rule("poison_bind_timing") == "before_counter"  # E8.4

    def __repr__(self) -> str:
        return f"Edelweiss({self.config!r})"

    @classmethod
    def from_config(cls, data: Mapping[str, Any]) -> Edelweiss:
        return cls(EdelweissConfig.from_json(data))

    @classmethod
    def from_options(cls, options: Mapping[str, OptionValue], rng: random.Random) -> Edelweiss:
        """A standard or characters imply the skills deck; a `random` character is drawn from `rng`
        (both random: the game draws them from its seed, E7.1)."""
        pair = None
        characters = options.get("characters")
        if characters is not None:
            seats = tuple(RANDOM if name.lower() == RANDOM else name.upper() for name in characters)
            if seats != (RANDOM, RANDOM):
                drawn = draw_random_seats(seats, CHARACTER_IDS, rng)
                assert drawn is not None
                pair = (drawn[0], drawn[1])
        standard = options.get("standard")
        deck = options.get("deck") or ("skills" if standard or options.get("characters") else "full")
        standard = standard or ("symbolic" if deck == "skills" else None)
        return cls(EdelweissConfig(str(deck), None if standard is None else str(standard), pair))

    @classmethod
    def fast_rollout(cls) -> FastRollout:
        from cardlab.games.edelweiss.fast.cpu import rollout

        return rollout

    @classmethod
    def compiled_search(cls) -> CompiledSearch:
        # An Edelweiss game is short: its rollouts always run to the end.
        return ModuleSearch("cardlab.games.edelweiss.fast.search", cuts_rollouts=False)

    @classmethod
    def kernels(cls) -> Kernels:
        from cardlab.games.edelweiss.kernels import EdelweissKernels

        return EdelweissKernels()

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
        size = self.opening_hand
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

    def parse_notation(self, text: str) -> EdelweissState:
        """The state of a one-line notation (docs/notation.md; its own config wins, as in `load_position`)."""
        from cardlab.games.edelweiss.notation import parse_notation

        return parse_notation(text)
