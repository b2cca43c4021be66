"""The Dreadnought Game: card set, decks and casters, seeded set-up (D4) and notation parsing."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from cardlab.core.actions import IndexedAction
from cardlab.core.datacheck import DataRules
from cardlab.core.decks import CARD_FILES_OPTION, SeatDecks, read_deck_config, seat_decks_options
from cardlab.core.errors import CardlabError, PositionError
from cardlab.core.game import PLAYER_NAMES, Game
from cardlab.core.plugin import Choice, CompiledSearch, ConfigOption, Kernels, ModuleSearch, OptionValue, seat_values
from cardlab.core.rng import make_rng
from cardlab.core.rules import (
    Patches,
    RuledConfig,
    RuleOption,
    Rules,
    check_patches,
    check_rules,
    without_printed_edits,
)
from cardlab.games.dreadnought.actions import Decoded, build_actions
from cardlab.games.dreadnought.cards import (
    PACKAGED_DECKS,
    Ability,
    CardDef,
    CardSet,
    Deck,
    Effect,
    Sub,
    load_card_set,
    load_deck,
    packaged_deck,
    validate_deck,
)
from cardlab.games.dreadnought.lab import STRONG_AGENT
from cardlab.games.dreadnought.state import ACTION_TURN_CAP, DUMMY_SLOTS, POSITION_KEYS, TURN_CAP, DreadnoughtState
from cardlab.games.dreadnought.variants import DRAW_COUNTS, RULE_OPTIONS, TIE_REVEAL_COUNTS

DUMMY_CARD = CardDef(id="dummy", type="unit", name="", cluster=(), size="S", bp=50)
"""What a dummy is on the field (D15.1): the token's card; its real card stays closed."""

_CONFIG_KEYS = ("decks", "casters", "cards", "rules", "patches")


@dataclass(frozen=True)
class DreadnoughtConfig(RuledConfig):
    """Decks by packaged id (`ember_spark`) or file path; optional caster pairs replacing the
    decks' own (each a pair of caster ids); card files added to the packaged D23 set. `rules`: the
    rule options that differ from the spec's rulings (`variants.RULE_OPTIONS`); `patches`: card edits
    (`R05.cost=2`) applied to the card data before it is checked (`cards.load_card_set`)."""

    decks: tuple[str, str] = ("ember_spark", "tide_grove")
    casters: tuple[tuple[str, str] | None, tuple[str, str] | None] = (None, None)
    cards: tuple[str, ...] | None = None
    rules: Rules = ()
    patches: Patches = ()

    RULE_OPTIONS: ClassVar[Sequence[RuleOption]] = RULE_OPTIONS

    def __post_init__(self) -> None:
        self._check_rule_fields()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "decks": dict(zip(PLAYER_NAMES, self.decks, strict=True)),
            "casters": {
                seat: None if pair is None else list(pair)
                for seat, pair in zip(PLAYER_NAMES, self.casters, strict=True)
            },
            "cards": None if self.cards is None else list(self.cards),
        }
        return data | self._rule_fields_json()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DreadnoughtConfig:
        def check_pair(seat: str, pair: Any) -> None:
            if pair is not None and not (
                isinstance(pair, list) and len(pair) == 2 and all(isinstance(c, str) for c in pair)
            ):
                raise PositionError(f"config.casters.{seat}", "expected null or a list of two caster ids")

        default = ("ember_spark", "tide_grove")
        decks, casters, cards = read_deck_config(data, _CONFIG_KEYS, "casters", default, check_pair)
        p1, p2 = (None if casters[seat] is None else (casters[seat][0], casters[seat][1]) for seat in PLAYER_NAMES)
        rules = check_rules(RULE_OPTIONS, data.get("rules"))
        patches = check_patches(data.get("patches"))
        return cls(decks, (p1, p2), cards, rules, patches)


def caster_pair(text: str) -> tuple[str, str] | None:
    """`X02+X03` as a pair of caster ids; None when it is not written as two ids joined by '+'."""
    parts = [part.strip() for part in text.split("+")]
    return (parts[0], parts[1]) if len(parts) == 2 and all(parts) else None


class Dreadnought(SeatDecks[Deck], Game):
    """Dreadnought for one configuration; the action space follows the card set."""

    name = "dreadnought"
    title = "Dreadnought"
    credit = "Original sample card set."
    search_agent = STRONG_AGENT  # the table agent: 65% against the heuristic
    fixed_first_player = False  # speed decides who acts first, anew every turn (D6)
    max_turns = TURN_CAP
    """D21.3: a game with no result when turn 100 ends is a draw."""
    max_turn_decisions = 20 * ACTION_TURN_CAP
    """D10.3 ends an action phase after 200 action turns; an action turn is a few decisions (god draws, a play
    with its targets and payment, the reaction window's plays), taken to be under 20: not proven, so the OpenSpiel
    adapter stops a game that goes past it (the longest turn of 100 random games holds 62 decisions in all)."""
    options = (
        ConfigOption(
            "decks",
            "P1,P2 decks (D3): packaged ids or deck files; default ember_spark,tide_grove",
            (
                Choice("ember_spark", "Ember & Spark (red + yellow)"),
                Choice("tide_grove", "Tide & Grove (blue + green)"),
            ),
            open_choices=True,
            per_seat=True,
            default="ember_spark,tide_grove",
            example="ember_spark,tide_grove",
        ),
        ConfigOption(
            "casters",
            "P1,P2 caster pairs replacing the decks' own (D3.4), e.g. X02+X03,X04+X07",
            (
                Choice("X01+X03", "X01 Ignis Varga + X03 Oren Quill (red + yellow)"),
                Choice("X02+X03", "X02 Sable Kurenai + X03 Oren Quill (red + yellow)"),
                Choice("X04+X06", "X04 Mira Tidewell + X06 Fen Larkspur (blue + green)"),
                Choice("X04+X07", "X04 Mira Tidewell + X07 Tala Greenward (blue + green)"),
            ),
            open_choices=True,
            per_seat=True,
            optional=True,
            example="X02+X03,X04+X07",
        ),
        CARD_FILES_OPTION,
    )
    position_keys = POSITION_KEYS

    rule_options = RULE_OPTIONS
    card_patches = True

    packaged_decks = PACKAGED_DECKS
    override_field = "config.casters"
    cards_module = "cardlab.games.dreadnought.cards"
    data_rules = DataRules(
        "D22.1",
        {"type": "D2.1", "cluster": "D2.2", "cond": "D2.2", "speed": "D2.2", "cost": "D2.2", "extra": "D12",
         "abilities": "D22.4", "grants": "D2.8", "sub": "D18", "max_copies": "D3.3", "caster.cluster": "D2.4",
         "caster.hp": "D2.4", "caster.hp_value": "D2.4", "size": "D2.5", "bp": "D2.5", "upkeep": "D2.6",
         "timing": "D5.4", "require": "D22.5", "effects": "D22.2", "deck.casters": "D3.1"},
    )  # fmt: skip

    def __init__(self, config: DreadnoughtConfig | None = None) -> None:
        self.config = config or DreadnoughtConfig()
        rule = self.config.rule
        self.draws = DRAW_COUNTS[rule("draw_counts")]  # D7.1: (F's, S's)
        self.draw_bursts = int(rule("draw_bursts"))  # D7.2
        self.hp_for_every_use = rule("library_out") == "every_use"  # D20.2
        self.god_draw_everywhere = rule("god_draw_windows") == "every_window"  # D17.2
        self.token_to_first = rule("token_to") == "first"  # D6.7
        self.mulligan_to_deck = rule("mulligan_to") == "deck"  # D4.6
        self.tie_reveals = TIE_REVEAL_COUNTS[rule("tie_reveals")]  # D6.6
        self.second_triggers_first = rule("trigger_order") == "second"  # D5.5
        self.actor_reacts_first = rule("reaction_first") == "actor"  # D10.4
        self.reaction_stack = rule("reactions") == "stack"  # D10.4
        self.blocker_rechosen = rule("blocker") == "rechosen"  # D10.7
        self.printed_bp_filters = rule("bp_filter") == "printed"  # D22.6
        extra = None if self.config.cards is None else [Path(path) for path in self.config.cards]
        self.card_set: CardSet = load_card_set(extra, with_sample_set=True, patches=self.config.patches)
        self.config = without_printed_edits(  # an edit to a card's printed value is no edit (R-V1)
            self.config, self.card_set.by_id, lambda: load_card_set(extra, with_sample_set=True).by_id
        )
        self.effects: dict[str, tuple[Effect, ...]] = {}
        self.ability_of: dict[str, Ability] = {}
        self.sub_of: dict[str, Sub] = {}
        self.activated: dict[str, list[tuple[str, Ability]]] = {}
        self.triggers: dict[str, list[tuple[str, Ability]]] = {}
        self.statics: dict[str, dict[str, list[Effect]]] = {}
        self.attach_statics: dict[str, tuple[Effect, ...]] = {}
        for card in self.card_set.by_id.values():
            self._index(card)
        self.has_statics = bool(self.statics or self.attach_statics)
        every_static = [e for zones in self.statics.values() for found in zones.values() for e in found]
        every_static += [e for found in self.attach_statics.values() for e in found]
        self.negative_statics = any(e.name == "static_bp" and e.number("amount") < 0 for e in every_static)
        casters = [c.id for c in self.card_set.casters()]
        cards = [c.id for c in self.card_set.cards()]
        arms_uses = max(
            (len(self.activated.get(c.id, ())) for c in self.card_set.cards() if c.type == "arms"), default=0
        )
        own_uses = max((len(self.activated.get(c.id, ())) for c in self.card_set.by_id.values() if c.type != "arms"),
                       default=0)  # fmt: skip
        speed_uses = {
            c.id: len(self.activated[c.id])
            for c in self.card_set.cards()
            if any(ability.zone == "speed" for _, ability in self.activated.get(c.id, ()))
        }
        self.actions = build_actions(casters, cards, max(1, own_uses + arms_uses), speed_uses)
        self.num_actions = len(self.actions.space)
        self.decode: tuple[Decoded, ...] = self.actions.decoded  # by action id: its parts by name

    def _index(self, card: CardDef) -> None:
        """Per card, the abilities the engine looks up on the hot path, by kind; effects by reference."""
        listed = [(f"A:{card.id}:{i}", ability) for i, ability in enumerate(card.abilities)]
        listed += [(f"G:{card.id}:{i}", ability) for i, ability in enumerate(card.grants)]
        for ref, ability in listed:
            self.effects[ref] = ability.effects
            self.ability_of[ref] = ability
            if ability.kind == "activated":
                self.activated.setdefault(card.id, []).append((ref, ability))
            elif ability.kind == "trigger":
                self.triggers.setdefault(card.id, []).append((ref, ability))
            else:
                self.statics.setdefault(card.id, {}).setdefault(ability.zone, []).extend(ability.effects)
        if card.type == "code":
            self.effects[f"C:{card.id}"] = card.effects
            statics = tuple(s for e in card.effects if e.name == "attach" for s in e.statics)
            if statics:
                self.attach_statics[card.id] = statics
        if card.sub is not None:
            self.effects[f"S:{card.id}"] = card.sub.effects
            self.sub_of[f"S:{card.id}"] = card.sub

    def __repr__(self) -> str:
        return f"Dreadnought({self.config!r})"

    @classmethod
    def from_config(cls, data: Mapping[str, Any]) -> Dreadnought:
        return cls(DreadnoughtConfig.from_json(data))

    @classmethod
    def from_options(cls, options: Mapping[str, OptionValue], rng: random.Random) -> Dreadnought:
        decks, cards = seat_decks_options(options, ("ember_spark", "tide_grove"))
        casters: list[tuple[str, str] | None] = []
        for pair in seat_values(options.get("casters")):
            if pair is not None and caster_pair(pair) is None:
                raise CardlabError(f"--casters takes two caster ids joined by '+' per seat, e.g. X02+X03, got {pair!r}")
            casters.append(None if pair is None else caster_pair(pair))
        return cls(DreadnoughtConfig(decks, (casters[0], casters[1]), cards))

    @classmethod
    def compiled_search(cls) -> CompiledSearch:
        """`ismcts:...:backend=cpu`: the compiled information-set search on the kernel's row (`fast/search.py`)."""
        return ModuleSearch("cardlab.games.dreadnought.fast.search", cuts_rollouts=True)

    @classmethod
    def kernels(cls) -> Kernels:
        """`--engine cpu`: the numba kernel (`fast/`), for the configs its table compiles (`fast.tables`)."""
        from cardlab.games.dreadnought.kernels import DreadnoughtKernels

        return DreadnoughtKernels()

    @classmethod
    def lab_config(
        cls, decks: tuple[str, str], overrides: tuple[str | None, str | None], cards: tuple[str, ...] | None
    ) -> dict[str, Any]:
        """A balance table's config: the decks with their caster pairs (`X02+X03`; None: the deck's own, D3.4)."""
        casters: dict[str, list[str] | None] = {}
        for seat, text in zip(PLAYER_NAMES, overrides, strict=True):
            pair = None if text is None else caster_pair(text)
            if text is not None and pair is None:
                raise ValueError(f"a caster pair is two caster ids joined by '+', e.g. X02+X03, got {text!r}")
            casters[seat] = None if pair is None else list(pair)
        return {
            "decks": {"P1": decks[0], "P2": decks[1]},
            "casters": casters,
            "cards": None if cards is None else list(cards),
        }

    def override_text(self, deck: Deck) -> str:
        return "+".join(deck.casters)

    def config_json(self) -> dict[str, Any]:
        return self.config.to_json()

    def _read_deck(self, name: str) -> Deck:
        return packaged_deck(name) if name in PACKAGED_DECKS else load_deck(Path(name))

    def _seat_deck(self, seat: int, deck: Deck) -> Deck:
        pair = self.config.casters[seat]
        return deck if pair is None else Deck(deck.id, deck.name, tuple(pair), deck.cards)

    def _deck_problems(self, deck: Deck) -> list[tuple[str, str]]:
        return validate_deck(deck, self.card_set)  # D3

    def instances(self, decks: Sequence[Deck]) -> tuple[tuple[CardDef, ...], tuple[int, ...]]:
        """Per player: two casters, then the deck's cards; then the dummy tokens (D15)."""
        cards: list[CardDef] = []
        owner: list[int] = []
        for seat, deck in enumerate(decks):
            listed = [*deck.casters, *deck.card_list()]
            cards.extend(self.card_set[card_id] for card_id in listed)
            owner.extend([seat] * len(listed))
        for seat in (0, 1):
            cards.extend([DUMMY_CARD] * DUMMY_SLOTS)
            owner.extend([seat] * DUMMY_SLOTS)
        return tuple(cards), tuple(owner)

    def new_state(self, seed: int, *, record_events: bool = True) -> DreadnoughtState:
        """D4: shuffle both decks (D4.2), flip the tiebreak token (D4.7), then the casters' placement."""
        rng = make_rng(seed)
        decks = self.decks
        cards, owner = self.instances(decks)
        state = DreadnoughtState(self, cards, owner, record_events)
        start = 0
        for seat, deck in enumerate(decks):
            state.placed[seat][:] = [start, start + 1]
            pile = list(range(start + 2, start + 2 + sum(deck.cards.values())))
            rng.shuffle(pile)
            state.deck[seat][:] = pile
            start += 2 + len(pile)
        state.token = rng.randrange(2)
        state.stack[:] = [("setup",), ("place", 1), ("place", 0)]
        state.start()
        return state

    def load_position(self, data: Mapping[str, Any]) -> DreadnoughtState:
        """Load a position; its own config (card set, decks) wins over this game's."""
        from cardlab.games.dreadnought.position import load_position

        return load_position(self.position_game(data), data)

    def parse_action(self, text: str) -> IndexedAction:
        return self.actions.space.parse(text)

    def parse_notation(self, text: str) -> DreadnoughtState:
        """The state of a one-line notation (docs/notation.md; its own config wins, as in `load_position`)."""
        from cardlab.games.dreadnought.notation import parse_notation

        return parse_notation(self, text)
