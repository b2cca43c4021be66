"""The Aterial Game: card set, decks and leaders, seeded set-up (A6) and notation parsing."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from cardlab.core.actions import IndexedAction
from cardlab.core.datacheck import DataRules
from cardlab.core.decks import CARD_FILES_OPTION, SeatDecks, read_deck_config, seat_decks_options
from cardlab.core.errors import PositionError
from cardlab.core.game import PLAYER_NAMES, Game, parse_player
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
from cardlab.games.aterial.actions import ACTIVATED_KEYS, HAND_KEYS, build_actions
from cardlab.games.aterial.board import LEADER_START
from cardlab.games.aterial.cards import (
    DECK_SIZE,
    PACKAGED_DECKS,
    Ability,
    CardDef,
    CardSet,
    Deck,
    load_card_set,
    load_deck,
    packaged_deck,
    validate_deck,
)
from cardlab.games.aterial.state import OPENING_HAND, POSITION_KEYS, W_MULLIGAN, AterialState
from cardlab.games.aterial.variants import RULE_OPTIONS, RuleFlags

_CONFIG_KEYS = ("decks", "leaders", "first", "cards", "rules", "patches")


@dataclass(frozen=True)
class AterialConfig(RuledConfig):
    """Decks by packaged id (`D1`) or file path; optional leader overrides; who plays first
    (None: drawn from the seed, A6.2); card files added to the packaged A21 set. `rules`: the rule
    options that differ from the spec's rulings (`variants.RULE_OPTIONS`); `patches`: card edits
    (`S14.cost=3`) applied to the card data before it is checked (issue #17)."""

    decks: tuple[str, str] = ("D1", "D2")
    leaders: tuple[str | None, str | None] = (None, None)
    first: str | None = None
    cards: tuple[str, ...] | None = None
    rules: Rules = ()
    patches: Patches = ()

    RULE_OPTIONS: ClassVar[Sequence[RuleOption]] = RULE_OPTIONS

    def __post_init__(self) -> None:
        self._check_rule_fields()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "decks": dict(zip(PLAYER_NAMES, self.decks, strict=True)),
            "leaders": dict(zip(PLAYER_NAMES, self.leaders, strict=True)),
            "first": self.first,
            "cards": None if self.cards is None else list(self.cards),
        }
        return data | self._rule_fields_json()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> AterialConfig:
        def check_leader(seat: str, leader: Any) -> None:
            if leader is not None and (not isinstance(leader, str) or not leader):
                raise PositionError(f"config.leaders.{seat}", "expected null or a leader card id")

        decks, leaders, cards = read_deck_config(data, _CONFIG_KEYS, "leaders", ("D1", "D2"), check_leader)
        first = data.get("first")
        if first is not None and first not in PLAYER_NAMES:
            raise PositionError("config.first", "expected null, 'P1' or 'P2'")
        rules, patches = check_rules(RULE_OPTIONS, data.get("rules")), check_patches(data.get("patches"))
        return cls(decks, (leaders["P1"], leaders["P2"]), first, cards, rules, patches)


class Aterial(SeatDecks[Deck], Game):
    """Soukoku no Aterial for one configuration; the action space follows the card set."""

    name = "aterial"
    title = "Soukoku no Aterial"
    credit = "Original sample card set."
    search_agent = "ismcts:iterations=200:rollout=heuristic:backend=cpu:depth=10"  # about 1 ms a decision
    max_turns = 2 * (DECK_SIZE - OPENING_HAND) + 3
    """A15.6: no card returns to a deck after set-up and every turn draws (A9; but P1's first under first_draw=no),
    so a player fails a draw (A15.2) by their 27th turn: global turn 53 at the latest (51 as specified)."""
    max_turn_decisions = 512
    """A turn's decisions: deployments (each takes a hand card), at most two moves and an attack or activation per
    unit (A10.4, A12), discards down to the hand limit; far fewer in play (the longest turn of 100 random games
    holds 20), and the OpenSpiel adapter stops a game that goes past it."""
    options = (
        ConfigOption(
            "decks",
            "P1,P2 decks (A5): packaged ids or deck files; default D1,D2",
            (Choice("D1", "D1 Vanguard of Dawn"), Choice("D2", "D2 Ashfang Pack")),
            open_choices=True,
            per_seat=True,
            default="D1,D2",
            example="D1,D2",
        ),
        ConfigOption(
            "leaders",
            "P1,P2 leader ids replacing the decks' own (A5.4), e.g. L02,L05",
            (
                Choice("L01", "L01 Marshal Odette Renn"),
                Choice("L02", "L02 Warden-Seraph Calyx"),
                Choice("L03", "L03 Duke Morvane"),
                Choice("L04", "L04 Matriarch Greytusk"),
                Choice("L05", "L05 Foundry Mind KR-7"),
            ),
            open_choices=True,
            per_seat=True,
            optional=True,
            example="L01,L04",
        ),
        ConfigOption(
            "first",
            "who plays first (A6.2; default: drawn from the seed)",
            (Choice("P1"), Choice("P2")),
            optional=True,
        ),
        CARD_FILES_OPTION,
    )
    position_keys = POSITION_KEYS

    rule_options = RULE_OPTIONS
    card_patches = True  # config.patches edit the card data before it is checked (cards.load_card_set)
    packaged_decks = PACKAGED_DECKS
    override_field = "config.leaders"
    cards_module = "cardlab.games.aterial.cards"
    data_rules = DataRules(
        "A21.1",
        {"type": "A4.1", "id": "A4.2", "name": "A4.2", "races": "A4.2", "dominance": "A4.2", "abilities": "A17",
         "leader.lp": "A4.3", "leader.attack": "A4.3", "leader.cost": "A4.3", "subordinate.cost": "A4.4",
         "subordinate.attack": "A4.4", "subordinate.hp": "A4.4", "deck.leader": "A5.4"},
    )  # fmt: skip

    def __init__(self, config: AterialConfig | None = None) -> None:
        self.config = config or AterialConfig()
        extra = None if self.config.cards is None else [Path(path) for path in self.config.cards]
        # Card edits (config.patches) are applied to the card data before it is checked (issue #17).
        self.card_set: CardSet = load_card_set(extra, with_sample_set=True, patches=self.config.patches)
        self.config = without_printed_edits(  # an edit to a card's printed value is no edit (R-V1)
            self.config, self.card_set.by_id, lambda: load_card_set(extra, with_sample_set=True).by_id
        )
        # Rule options (variants.RULE_OPTIONS), read by the engine as plain flags.
        rule = self.config.rule
        self.first_draw = rule("first_draw") == "yes"  # A9.2
        self.first_turn_deploy = rule("first_turn_deploy") == "both"  # A11.8
        self.upkeep_supply = rule("supply_check") == "upkeep"  # A11.6
        self.heal_capped = rule("heal_cap") == "starting_lp"  # A14.4
        limit = rule("hand_limit")  # A13.2
        self.hand_limit: int | None = None if limit == "none" else int(limit)
        self.flags = RuleFlags.of(self.config)  # the A19 rulings' options (issue #33)
        self.actions = build_actions(list(self.card_set.cards))
        self.num_actions = len(self.actions.space)
        # Per card id, what the rules read on every effective-value computation.
        self.keys: dict[str, frozenset[str]] = {
            i: frozenset(ability.key for ability in c.abilities) for i, c in self.card_set.cards.items()
        }
        # (printed dominance, rear_support amount, has wide_reach): all that supply reads (A11.2).
        self.dominance: dict[str, tuple[int, int, bool]] = {
            i: (c.dominance, c.amount("rear_support"), c.has("wide_reach")) for i, c in self.card_set.cards.items()
        }
        self.amounts: dict[str, dict[str, int]] = {
            i: {key: c.amount(key) for key in self.keys[i]} for i, c in self.card_set.cards.items()
        }
        self.auras: dict[str, tuple[Ability, ...]] = {i: c.abilities_of("aura") for i, c in self.card_set.cards.items()}
        self.kinships: dict[str, tuple[Ability, ...]] = {
            i: c.abilities_of("kinship") for i, c in self.card_set.cards.items()
        }
        # What a card can offer in the action window (A11.1, A16.4-A16.5), in action-id order.
        self.activated_keys: dict[str, tuple[str, ...]] = {
            i: tuple(key for key in ACTIVATED_KEYS if key in keys) for i, keys in self.keys.items()
        }
        self.hand_actions: dict[str, tuple[IndexedAction, ...]] = {
            i: tuple(self.actions.hand[(i, key)] for key in HAND_KEYS if key in keys) for i, keys in self.keys.items()
        }

    def __repr__(self) -> str:
        return f"Aterial({self.config!r})"

    @classmethod
    def from_config(cls, data: Mapping[str, Any]) -> Aterial:
        return cls(AterialConfig.from_json(data))

    @classmethod
    def from_options(cls, options: Mapping[str, OptionValue], rng: random.Random) -> Aterial:
        decks, cards = seat_decks_options(options, ("D1", "D2"))
        first = options.get("first")
        return cls(
            AterialConfig(decks, seat_values(options.get("leaders")), None if first is None else str(first), cards)
        )

    @classmethod
    def compiled_search(cls) -> CompiledSearch:
        return ModuleSearch("cardlab.games.aterial.fast.search", cuts_rollouts=True)

    @classmethod
    def kernels(cls) -> Kernels:
        from cardlab.games.aterial.kernels import AterialKernels

        return AterialKernels()

    def config_json(self) -> dict[str, Any]:
        return self.config.to_json()

    @classmethod
    def lab_config(
        cls, decks: tuple[str, str], overrides: tuple[str | None, str | None], cards: tuple[str, ...] | None
    ) -> dict[str, Any]:
        """A balance table's config: the decks with their leaders (None: the deck's own, A5.4), P1 first."""
        return {
            "decks": {"P1": decks[0], "P2": decks[1]},
            "leaders": {"P1": overrides[0], "P2": overrides[1]},
            "first": "P1",
            "cards": None if cards is None else list(cards),
        }

    def override_text(self, deck: Deck) -> str:
        return deck.leader

    def _read_deck(self, name: str) -> Deck:
        return packaged_deck(name) if name in PACKAGED_DECKS else load_deck(Path(name))

    def _seat_deck(self, seat: int, deck: Deck) -> Deck:
        leader = self.config.leaders[seat]
        return deck if leader is None else Deck(deck.id, deck.name, leader, deck.cards)

    def _deck_problems(self, deck: Deck) -> list[tuple[str, str]]:
        return validate_deck(deck, self.card_set)  # A5

    def new_state(self, seed: int, *, record_events: bool = True) -> AterialState:
        """A6: shuffle both decks, pick the first player, deal 5 each, then the mulligan decisions."""
        rng = make_rng(seed)
        decks = self.decks
        cards: list[CardDef] = []
        owner: list[int] = []
        leaders: list[int] = []
        piles: list[list[int]] = []
        for seat, deck in enumerate(decks):
            leaders.append(len(cards))
            cards.append(self.card_set[deck.leader])
            cards.extend(self.card_set[card_id] for card_id in deck.card_list())
            owner.extend([seat] * (len(cards) - leaders[seat]))
            piles.append(list(range(leaders[seat] + 1, len(cards))))
        state = AterialState(self, tuple(cards), tuple(owner), record_events)
        for seat, (leader, pile) in enumerate(zip(leaders, piles, strict=True)):
            rng.shuffle(pile)  # A6.1
            state.decks[seat][:] = pile
            state.leader[seat] = leader
            state.field[seat][LEADER_START] = leader  # A6.5
            state.square_of[leader] = LEADER_START
            state.lp[seat] = cards[leader].lp
        state.first = parse_player(self.config.first) if self.config.first else rng.randrange(2)  # A6.2
        state.shuffle_seed = rng.getrandbits(63)
        for seat in (0, 1):
            state._draw(seat, OPENING_HAND)  # A6.3
        state.window = W_MULLIGAN
        state.chooser = state.first  # A6.4: the first player decides first
        state._advance()
        return state

    def load_position(self, data: Mapping[str, Any]) -> AterialState:
        """Load a position; its own config (card set, decks) wins over this game's."""
        from cardlab.games.aterial.position import load_position

        return load_position(self.position_game(data), data)

    def parse_action(self, text: str) -> IndexedAction:
        return self.actions.space.parse(text)

    def parse_notation(self, text: str) -> AterialState:
        """The state of a one-line notation (docs/notation.md; its own config wins, as in `load_position`)."""
        from cardlab.games.aterial.notation import parse_notation

        return parse_notation(self, text)
