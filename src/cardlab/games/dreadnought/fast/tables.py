"""Dreadnought's card data and rule options compiled to one integer table that the numba kernel interprets.

Every printed value of the cards a game deals (the packaged D23 set, a designer's file, `--patch` edits)
and every compiled rule option becomes numbers here, and so does the action space (`actions.build_actions`,
which follows the card set): the kernel reads ids and their decoded parts from the table, never assumes a
layout. Plain Python and numpy, run once per config.

**What the kernel plays: all of D4-D22.** Set-up and mulligan (D4), the speed phase with gear changes,
SPEED items and tie re-reveals (D6), draw (D7), cast (D8: units, idols, dummies, moves, removals, upkeep),
fast (D9: arms), the action phase's attacks, blocks, ACTION items and reaction windows (D10), the end phase
(D11), log, engrave, discard and check_self costs with PAYMENT reducers (D12, D18.3), damage, breaks and
HP (D13), enchants and their material picks (D14), dummies (D15), engraves and their overflow (D16), god draw
(D17), sub-effects (D18), idols (D19), library-out (D20), the end of the game (D21), and every effect,
static, trigger event, zone tag, `require` and selector filter of D22, for any card file, under every value of
every rule option (`mulligan_to=deck` shuffles from the kernel's own stream, as the set-up does: the
reference's shuffle is seeded by the cards' ids). **What it refuses** (`build_table` raises CardlabError
naming it): a rule option it does not know (`COMPILED_RULES`), and a card whose lists outrun the table's
room (`MAX_LIST` abilities of a kind or statics per zone, `MAX_EFFECTS` effects per ability, code or
sub-effect, `MAX_FILTERS` filters, `MAX_STATICS` attached statics).

Layout of the int64 vector (offsets below; the sections after CARD_BASE start where the header says):

| slots | meaning |
|---|---|
| 0 .. HEADER - 1 | rule options, counts, fixed action ids and section bases (`R_*`, `N_*`, `A_*`, `B_*`) |
| SLOT_BASE + group * 7 + slot | per `actions.SLOTS` index: ATTACKER, BLOCK, MOVE, REMOVE, TARGET ids (-1 none) |
| USE_BASE + slot * MAX_USES + k | `USE <slot> <k>` |
| INST_BASE + inst * ICOLS + col | per dealt instance (`I_*`): card index, owner and printed values |
| CARD_BASE + card * CCOLS + col | per card of the set, `card_set.by_id` order (`C_*`): action ids naming it, name, |
| | cluster and size (for filters), its code, sub-effect, activated and trigger refs, statics by zone |
| B_DEC + action * DCOLS + col | per action id (`D_*`): its verb and parts, as `actions.decode` reads them |
| B_SEL + sel * SCOLS | a selector: base, filters as (key, op, value) |
| B_EFF + eff * ECOLS | an effect: name, selector, number, enchant kind, attached statics |
| B_STAT + st * STCOLS | a static effect: name, selector, amount |
| B_REF + ref * RCOLS | a ref of `Dreadnought.effects` (its order): effects, single-target count, its ability |

The kernels compile these constants in; a change here recompiles them (`flush_stale_cache` keys numba's
cache on every module a kernel imports).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from cardlab.core.errors import CardlabError
from cardlab.games.dreadnought.actions import (
    DESTINATIONS,
    MAX_ENGRAVE_SLOTS,
    MAX_TRIGGER_CHOICES,
    PAY_SOURCES,
    SLOTS,
    UNIT_SLOTS,
)
from cardlab.games.dreadnought.cards import (
    CLUSTERS,
    EFFECT_PARAMS,
    EVENTS,
    GROUP_SELECTORS,
    SINGLE_SELECTORS,
    SIZES,
    STATIC_EFFECT_PARAMS,
    TIMINGS,
    ZONES,
    CardDef,
    Effect,
    Selector,
)
from cardlab.games.dreadnought.frames import BOOST, DUMMY_BP, DUMMY_SLOTS, WEAKEN

MAX_INSTANCES = 128
"""Card instances and dummy tokens a game may hold: two 50-card decks, four casters and eight tokens fit."""
PER_PLAYER = 64
"""Room for one player's cards in any zone (D3.2: 50 cards and 2 casters)."""

VERBS = (
    "DONE", "PASS", "KEEP", "GODDRAW", "UPKEEP PAY", "UPKEEP CHECK", "PAY", "TO", "ATTACK", "HPDRAW", "TARGET",
    "ATTACKER", "BLOCK", "MOVE", "REMOVE", "USE", "USE@S", "SCRAP", "FIRST", "PLACE", "GEAR", "MULL", "MATERIAL",
    "CAST", "PLAY", "SUB", "DISCARD", "DUMMY",
)  # fmt: skip
VERB = {verb: code for code, verb in enumerate(VERBS)}
(V_DONE, V_PASS, V_KEEP, V_GODDRAW, V_UPKEEP_PAY, V_UPKEEP_CHECK, V_PAY, V_TO, V_ATTACK, V_HPDRAW, V_TARGET,
 V_ATTACKER, V_BLOCK, V_MOVE, V_REMOVE, V_USE, V_USE_S, V_SCRAP, V_FIRST, V_PLACE, V_GEAR, V_MULL, V_MATERIAL,
 V_CAST, V_PLAY, V_SUB, V_DISCARD, V_DUMMY) = range(len(VERBS))  # fmt: skip

TYPES = ("caster", "unit", "idol", "code", "arms")
T_CASTER, T_UNIT, T_IDOL, T_CODE, T_ARMS = range(5)
TIMING_BIT = {timing: 1 << i for i, timing in enumerate(TIMINGS)}
M_SPEED, M_CAST, M_FAST, M_ACTION, M_REACTION, M_PAYMENT = (1 << i for i in range(len(TIMINGS)))
ZONE_CODE = {zone: i for i, zone in enumerate(ZONES)}
Z_BATTLE, Z_IDOL, Z_FIELD, Z_SPEEDZ = range(len(ZONES))
EVENT_CODE = {event: i for i, event in enumerate(EVENTS)}
E_ON_CAST, E_ON_ATTACK, E_ON_BLOCK, E_ON_BREAK, E_ON_SPEED_REVEAL, E_START_OF_ACTION, E_END_OF_TURN = range(7)
REQUIRE_CODE = {"": 0, "own_attack": 1, "enemy_attack": 2, "attack": 3}
KIND_CODE = {"activated": 0, "trigger": 1, "static": 2}
EFFECT_NAMES = (*EFFECT_PARAMS, *STATIC_EFFECT_PARAMS)
EFFECT_CODE = {name: i for i, name in enumerate(EFFECT_NAMES)}
(EF_DAMAGE, EF_ENCHANT, EF_BP_MOD, EF_ATTACK_MOD, EF_DRAW, EF_BURST, EF_ENGRAVE, EF_NORMALIZE, EF_CHECK, EF_BREAK,
 EF_BOUNCE, EF_MOVE, EF_HP_BREAK, EF_HP_GAIN, EF_SHIELD, EF_SPEED_SHIFT, EF_COST_REDUCE, EF_ATTACH, EF_STATIC_BP,
 EF_STATIC_SHIELD) = range(len(EFFECT_NAMES))  # fmt: skip
BASES = (*SINGLE_SELECTORS, *GROUP_SELECTORS)
BASE_CODE = {base: i for i, base in enumerate(BASES)}
(S_SELF, S_OWN_UNIT, S_ENEMY_UNIT, S_ANY_UNIT, S_OWN_CASTER, S_ENEMY_CASTER, S_BEARER, S_HOST, S_ATTACKER, S_BLOCKER,
 S_ALL_OWN, S_ALL_ENEMY) = range(len(BASES))  # fmt: skip
FILTER_KEYS = ("bp", "size", "name", "zone", "state", "cluster")
FK_BP, FK_SIZE, FK_NAME, FK_ZONE, FK_STATE, FK_CLUSTER = range(len(FILTER_KEYS))
OP_LE, OP_GE, OP_EQ = range(3)

MAX_FILTERS = 4
MAX_EFFECTS = 6
MAX_STATICS = 4
MAX_LIST = 8
"""Entries per card in each of its lists (activated and trigger abilities, statics per zone, attach statics)."""
MAX_USES = 8

# Header: rule options, counts, fixed action ids, section bases.
(
    R_F_DRAWS,
    R_S_DRAWS,
    R_DRAW_BURSTS,
    R_GOD_DRAW_EVERYWHERE,
    R_TOKEN_TO_FIRST,
    R_TIE_REVEALS,
    R_ACTOR_REACTS_FIRST,
    R_BLOCKER_RECHOSEN,
    R_SECOND_TRIGGERS_FIRST,
    R_REACTION_STACK,
    R_PRINTED_BP,
    R_HAS_STATICS,
    R_NEGATIVE_STATICS,
    R_EVERY_USE,
    R_MULLIGAN_TO_DECK,
    N_INST,
    N_CARDS,
    N_ACTIONS,
    N_CARD_SET,
    N_USES,
    A_DONE,
    A_PASS,
    A_KEEP,
    A_GODDRAW,
    A_UPKEEP_PAY,
    A_UPKEEP_CHECK,
    A_PAY,  # 5 ids, PAY_SOURCES order
) = range(27)
A_TO = A_PAY + 5  # 3 ids, DESTINATIONS order
A_ATTACK = A_TO + 3  # 2 ids, by battle area
A_HPDRAW = A_ATTACK + 2  # 2 ids
A_SCRAP = A_HPDRAW + 2  # MAX_ENGRAVE_SLOTS ids
A_FIRST = A_SCRAP + MAX_ENGRAVE_SLOTS  # MAX_TRIGGER_CHOICES ids
B_DEC = A_FIRST + MAX_TRIGGER_CHOICES  # where the per-action rows start
B_SEL, B_EFF, B_STAT, B_REF = B_DEC + 1, B_DEC + 2, B_DEC + 3, B_DEC + 4
B_HEU = B_DEC + 5  # where the per-card rows the heuristic reads start (`H_*`)
HEADER = 64

G_ATTACKER, G_BLOCK, G_MOVE, G_REMOVE, G_TARGET1, G_TARGET2 = range(6)
"""Slot groups: action ids by `actions.SLOTS` index (TARGET by the target's seat)."""
SLOT_BASE = HEADER
USE_BASE = SLOT_BASE + 6 * len(SLOTS)
"""USE <slot> <k>: USE_BASE + slot * MAX_USES + k."""

# Per instance.
(I_CARD, I_OWNER, I_TYPE, I_SPEED, I_COST, I_ENGRAVE, I_WEIGHT, I_BP, I_HP, I_HP_VALUE, I_UPKEEP,
 I_DISCARD) = range(12)  # fmt: skip
ICOLS = 12
INST_BASE = USE_BASE + len(SLOTS) * MAX_USES
CARD_BASE = INST_BASE + MAX_INSTANCES * ICOLS

# Per card of the set: the action ids naming it (-1 where the verb does not apply), then what it does.
(C_GEAR, C_MULL, C_MATERIAL, C_CAST, C_CAST_S, C_PLAY, C_PLAY_S, C_SUB, C_SUB_S, C_DISCARD, C_DISCARD_S,
 C_DUMMY, _C_DUMMY1, C_DUMMY_S, _C_DUMMY_S1, C_PLACE, C_USE_S) = range(17)  # fmt: skip
C_NAME = C_USE_S + MAX_USES
(C_CLUSTER, C_SIZE, C_CODE_REF, C_CODE_TIMING, C_CODE_REQUIRE, C_SUB_REF, C_SUB_TIMING, C_SUB_REQUIRE, C_SUB_LOG,
 C_SUB_DISCARD, C_SUB_ENGRAVE, C_SUB_REDUCE, C_N_ACT) = range(C_NAME + 1, C_NAME + 14)  # fmt: skip
C_ACT = C_N_ACT + 1
C_N_TRIG = C_ACT + MAX_LIST
C_TRIG = C_N_TRIG + 1
C_N_STATIC = C_TRIG + MAX_LIST  # per zone (ZONES order): a count, then MAX_LIST static indices
C_N_ATTACH = C_N_STATIC + len(ZONES) * (1 + MAX_LIST)
C_ATTACH = C_N_ATTACH + 1
CCOLS = C_ATTACH + MAX_LIST

# Per card of the set, for the kernel heuristic (`fast.heuristic`): printed values a card in hand or an action
# naming a card needs, and its rank among the card ids as text (the reference sorts such options by id).
(H_RANK, H_TYPE, H_BP, H_COST, H_SPEED, H_WEIGHT, H_UPKEEP, H_TIMING, H_EX_ENGRAVE, H_EX_DISCARD, H_HP_EFFECT,
 H_OWN_ACT) = range(12)  # fmt: skip
HCOLS = 12

# Per action id.
D_VERB, D_CARD, D_SPEED, D_SLOT, D_SEAT, D_AREA, D_SOURCE, D_INDEX = range(8)
DCOLS = 8

# Selectors, effects, static effects and refs (effect lists with their ability's data).
SCOLS = 2 + 3 * MAX_FILTERS  # base, filter count, then (key, op, value) per filter
EF_NAME, EF_SEL, EF_NUM, EF_KIND, EF_N_STATIC, EF_STATIC = range(6)
ECOLS = EF_STATIC + MAX_STATICS
ST_NAME, ST_SEL, ST_AMOUNT = range(3)
STCOLS = 3
(RF_N_EFF, RF_EFF) = (0, 1)
RF_N_SINGLE = RF_EFF + MAX_EFFECTS
(RF_KIND, RF_TIMING, RF_ZONE, RF_LOG, RF_CHECK_SELF, RF_ENGRAVE, RF_DISCARD, RF_REQUIRE,
 RF_EVENT) = range(RF_N_SINGLE + 1, RF_N_SINGLE + 10)  # fmt: skip
RCOLS = RF_EVENT + 1

COMPILED_RULES: dict[str, tuple[str, ...] | None] = {
    "draw_counts": None,
    "draw_bursts": None,
    "god_draw_windows": None,
    "token_to": None,
    "tie_reveals": None,
    "reaction_first": None,
    "blocker": None,
    "trigger_order": None,
    "reactions": None,
    "bp_filter": None,
    "library_out": None,
    "mulligan_to": None,
}
"""Rule options by name; None: every value compiled, else the values compiled. An option missing here (one
added to `variants.RULE_OPTIONS` after the kernel) is refused at any value but its default."""

Table = npt.NDArray[np.int64]


def unsupported(card: CardDef) -> str | None:
    """Why the kernel cannot hold `card` (a list longer than its table has room for), in words; None if it can."""
    lists = {
        "abilities and grants": len(card.abilities) + len(card.grants),
        "effects of one ability, code or sub-effect": max(
            [len(card.effects), len(card.sub.effects) if card.sub else 0]
            + [len(ability.effects) for ability in (*card.abilities, *card.grants)]
        ),
    }
    limits = {"abilities and grants": MAX_LIST, "effects of one ability, code or sub-effect": MAX_EFFECTS}
    for what, count in lists.items():
        if count > limits[what]:
            return f"card {card.id} has {count} {what}; the kernel holds at most {limits[what]}"
    for effect in _all_effects(card):
        for value in effect.args.values():
            if isinstance(value, Selector) and len(value.filters) > MAX_FILTERS:
                return f"card {card.id}'s {effect} has over {MAX_FILTERS} filters"
            if isinstance(value, tuple) and len(value) > MAX_STATICS:
                return f"card {card.id}'s {effect} attaches over {MAX_STATICS} statics"
    return None


def _all_effects(card: CardDef) -> list[Effect]:
    found = list(card.effects) + (list(card.sub.effects) if card.sub else [])
    for ability in (*card.abilities, *card.grants):
        found += ability.effects
    return found + [static for effect in found if effect.name == "attach" for static in effect.statics]


def check_game(game: Any) -> None:
    """A CardlabError naming the first rule option value or dealt card the kernel does not compile."""
    from cardlab.games.dreadnought.game import Dreadnought

    assert isinstance(game, Dreadnought)
    for name, value in game.config.rules:
        allowed = COMPILED_RULES.get(name, ())
        if allowed is not None and value not in allowed:
            raise CardlabError(f"the cpu engine does not compile the rule value {name}={value}")
    for deck in game.decks:
        for card_id in (*deck.casters, *deck.cards):
            problem = unsupported(game.card_set[card_id])
            if problem:
                raise CardlabError(f"the cpu engine cannot play deck {deck.id!r}: {problem}")


class _Interned:
    """Selectors, effects and statics numbered in first-seen order, each kept as its table row."""

    def __init__(self, names: dict[str, int]) -> None:
        self.names = names
        self.selectors: dict[Selector, int] = {}
        self.sel_rows: list[list[int]] = []
        self.statics: dict[Effect, int] = {}
        self.static_rows: list[list[int]] = []
        self.effect_rows: list[list[int]] = []

    def selector(self, selector: Selector) -> int:
        if selector not in self.selectors:
            row = [BASE_CODE[selector.base], len(selector.filters)] + [0] * (3 * MAX_FILTERS)
            for k, item in enumerate(selector.filters):
                op = {"<=": OP_LE, ">=": OP_GE}.get(item.op, OP_EQ)
                value = item.value
                if item.key == "size":
                    number = SIZES.index(str(value))
                elif item.key == "name":
                    number = self.names.get(str(value), -2)  # a name no card has matches nothing
                elif item.key == "zone":
                    number = ("battle", "idol").index(str(value))
                elif item.key == "state":
                    number = ("normal", "checked").index(str(value))
                elif item.key == "cluster":
                    number = CLUSTERS.index(str(value))
                else:
                    assert isinstance(value, int)
                    number = value
                row[2 + 3 * k : 5 + 3 * k] = [FILTER_KEYS.index(item.key), op, number]
            self.selectors[selector] = len(self.sel_rows)
            self.sel_rows.append(row)
        return self.selectors[selector]

    def static(self, effect: Effect) -> int:
        if effect not in self.statics:
            target = effect.args["target"]
            assert isinstance(target, Selector)
            row = [EFFECT_CODE[effect.name], self.selector(target), effect.number("amount")]
            self.statics[effect] = len(self.static_rows)
            self.static_rows.append(row)
        return self.statics[effect]

    def effect(self, effect: Effect) -> int:
        target = effect.args.get("target")
        number = 0
        for key in ("amount", "n", "count", "steps"):
            if key in effect.args:
                number = effect.number(key)
        statics = effect.args.get("statics", ())
        assert isinstance(statics, tuple)
        row = [
            EFFECT_CODE[effect.name],
            self.selector(target) if isinstance(target, Selector) else -1,
            number,
            BOOST if effect.args.get("kind") == "boost" else WEAKEN,
            len(statics),
        ] + [0] * MAX_STATICS
        for k, static in enumerate(statics):
            row[EF_STATIC + k] = self.static(static)
        self.effect_rows.append(row)
        return len(self.effect_rows) - 1


def _mask(timings: tuple[str, ...]) -> int:
    return sum(TIMING_BIT[timing] for timing in timings)


def dealt_cards(game: Any) -> tuple[CardDef, ...]:
    """The instances `Dreadnought.new_state` deals (casters, deck lists, then the dummy tokens)."""
    return tuple(game.instances(game.decks)[0])


def build_table(game: Any, cards: tuple[CardDef, ...], owner: tuple[int, ...]) -> Table:
    """The kernel's table for `game` (a `Dreadnought`) dealing `cards` (a reference state's `cards`, the
    dummy tokens last) owned by `owner`; a CardlabError for what the kernel does not compile (module doc)."""
    from cardlab.games.dreadnought.game import Dreadnought

    assert isinstance(game, Dreadnought)
    check_game(game)
    if len(cards) > MAX_INSTANCES:
        raise CardlabError(f"the cpu engine deals at most {MAX_INSTANCES} cards and tokens, this game {len(cards)}")
    n_cards = len(cards) - 2 * DUMMY_SLOTS
    if any(owner.count(p) - DUMMY_SLOTS > PER_PLAYER for p in (0, 1)):
        raise CardlabError(f"the cpu engine deals at most {PER_PLAYER} cards per player")
    for card in cards[:n_cards]:
        problem = unsupported(card)
        if problem:
            raise CardlabError(f"the cpu engine cannot play this deal: {problem}")
    acts = game.actions
    if len(acts.use) // len(SLOTS) > MAX_USES:
        raise CardlabError(f"the cpu engine holds at most {MAX_USES} activated abilities per object")
    card_ids = list(game.card_set.by_id)
    index = {card_id: i for i, card_id in enumerate(card_ids)}
    names: dict[str, int] = {}
    for card in game.card_set.by_id.values():
        names.setdefault(card.name, len(names))
    interned = _Interned(names)
    refs = {ref: i for i, ref in enumerate(game.effects)}
    ref_rows: list[list[int]] = []
    for ref, effects in game.effects.items():
        row = [0] * RCOLS
        row[RF_N_EFF] = len(effects)
        for k, effect in enumerate(effects):
            row[RF_EFF + k] = interned.effect(effect)
        targets = [effect.args.get("target") for effect in effects]
        row[RF_N_SINGLE] = sum(1 for t in targets if isinstance(t, Selector) and not t.is_group)
        ability = game.ability_of.get(ref)
        if ability is not None:
            row[RF_KIND] = KIND_CODE[ability.kind]
            row[RF_TIMING] = _mask(ability.timing)
            row[RF_ZONE] = ZONE_CODE[ability.zone]
            row[RF_LOG], row[RF_CHECK_SELF] = ability.cost.log, int(ability.cost.check_self)
            row[RF_ENGRAVE], row[RF_DISCARD] = ability.cost.engrave, ability.cost.discard
            row[RF_REQUIRE] = REQUIRE_CODE[ability.require]
            row[RF_EVENT] = EVENT_CODE[ability.event] if ability.event else -1
        ref_rows.append(row)
    n_actions = len(acts.space)
    card_rows = np.full((len(card_ids), CCOLS), -1, dtype=np.int64)
    for card_id, i in index.items():
        card = game.card_set[card_id]
        row = card_rows[i]
        row[C_NAME] = names[card.name]
        row[C_CLUSTER] = sum(1 << CLUSTERS.index(c) for c in card.cluster)
        row[C_SIZE] = SIZES.index(card.size) if card.size else -1
        if card_id in acts.place:
            row[C_PLACE] = int(acts.place[card_id])
        else:
            for col, verb in ((C_GEAR, "GEAR"), (C_MULL, "MULL"), (C_MATERIAL, "MATERIAL"), (C_CAST, "CAST"),
                              (C_PLAY, "PLAY"), (C_SUB, "SUB"), (C_DISCARD, "DISCARD")):  # fmt: skip
                row[col] = int(acts.card[verb, card_id])
            for col, verb in ((C_CAST_S, "CAST"), (C_PLAY_S, "PLAY"), (C_SUB_S, "SUB"), (C_DISCARD_S, "DISCARD")):
                row[col] = int(acts.speed_card[verb, card_id])
            for area in (0, 1):
                row[C_DUMMY + area] = int(acts.dummy[card_id, False, area])
                row[C_DUMMY_S + area] = int(acts.dummy[card_id, True, area])
        for k in range(MAX_USES):
            if (card_id, k) in acts.use_speed:
                row[C_USE_S + k] = int(acts.use_speed[card_id, k])
        if card.type == "code":
            row[C_CODE_REF] = refs[f"C:{card_id}"]
            row[C_CODE_TIMING] = _mask(card.timing)
            row[C_CODE_REQUIRE] = REQUIRE_CODE[card.require]
        if card.sub is not None:
            sub = card.sub
            row[C_SUB_REF] = refs[f"S:{card_id}"]
            row[C_SUB_TIMING] = _mask(sub.timing)
            row[C_SUB_REQUIRE] = REQUIRE_CODE[sub.require]
            row[C_SUB_LOG], row[C_SUB_DISCARD], row[C_SUB_ENGRAVE] = sub.cost.log, sub.cost.discard, sub.cost.engrave
            row[C_SUB_REDUCE] = sum(e.number("n") for e in sub.effects if e.name == "cost_reduce")
        activated = game.activated.get(card_id, [])
        triggers = game.triggers.get(card_id, [])
        if len(activated) > MAX_LIST or len(triggers) > MAX_LIST:
            raise CardlabError(f"the cpu engine holds at most {MAX_LIST} abilities of a kind per card, not {card_id}")
        row[C_N_ACT] = len(activated)
        for k, (ref, _) in enumerate(activated):
            row[C_ACT + k] = refs[ref]
        row[C_N_TRIG] = len(triggers)
        for k, (ref, _) in enumerate(triggers):
            row[C_TRIG + k] = refs[ref]
        for z, zone in enumerate(ZONES):
            found = game.statics.get(card_id, {}).get(zone, [])
            if len(found) > MAX_LIST:
                raise CardlabError(f"the cpu engine holds at most {MAX_LIST} statics per zone, not {card_id}'s")
            at = C_N_STATIC + z * (1 + MAX_LIST)
            row[at] = len(found)
            for k, effect in enumerate(found):
                row[at + 1 + k] = interned.static(effect)
        attach = game.attach_statics.get(card_id, ())
        if len(attach) > MAX_LIST:
            raise CardlabError(f"the cpu engine holds at most {MAX_LIST} attached statics per code, not {card_id}'s")
        row[C_N_ATTACH] = len(attach)
        for k, effect in enumerate(attach):
            row[C_ATTACH + k] = interned.static(effect)
    sections = [
        card_rows.ravel(),
        np.full(n_actions * DCOLS, -1, dtype=np.int64),
        np.asarray(interned.sel_rows, dtype=np.int64).reshape(-1),
        np.asarray(interned.effect_rows, dtype=np.int64).reshape(-1),
        np.asarray(interned.static_rows, dtype=np.int64).reshape(-1),
        np.asarray(ref_rows, dtype=np.int64).reshape(-1),
        _heuristic_rows(game, card_ids).ravel(),
    ]
    bases = [CARD_BASE]
    for section in sections[:-1]:
        bases.append(bases[-1] + len(section))
    table = np.full(CARD_BASE, -1, dtype=np.int64)
    table[:HEADER] = 0
    table = np.concatenate([table, *sections])
    f_draws, s_draws = game.draws
    header = {
        R_F_DRAWS: f_draws,
        R_S_DRAWS: s_draws,
        R_DRAW_BURSTS: game.draw_bursts,
        R_GOD_DRAW_EVERYWHERE: game.god_draw_everywhere,
        R_TOKEN_TO_FIRST: game.token_to_first,
        R_TIE_REVEALS: min(game.tie_reveals, 2**40),
        R_ACTOR_REACTS_FIRST: game.actor_reacts_first,
        R_BLOCKER_RECHOSEN: game.blocker_rechosen,
        R_SECOND_TRIGGERS_FIRST: game.second_triggers_first,
        R_REACTION_STACK: game.reaction_stack,
        R_PRINTED_BP: game.printed_bp_filters,
        R_HAS_STATICS: game.has_statics,
        R_NEGATIVE_STATICS: game.negative_statics,
        R_EVERY_USE: game.hp_for_every_use,
        R_MULLIGAN_TO_DECK: game.mulligan_to_deck,
        N_INST: n_cards,
        N_CARDS: len(cards),
        N_ACTIONS: n_actions,
        N_CARD_SET: len(card_ids),
        N_USES: len(acts.use) // len(SLOTS),
        A_DONE: acts.fixed["DONE"],
        A_PASS: acts.fixed["PASS"],
        A_KEEP: acts.fixed["KEEP"],
        A_GODDRAW: acts.fixed["GODDRAW"],
        A_UPKEEP_PAY: acts.fixed["UPKEEP PAY"],
        A_UPKEEP_CHECK: acts.fixed["UPKEEP CHECK"],
        B_DEC: bases[1],
        B_SEL: bases[2],
        B_EFF: bases[3],
        B_STAT: bases[4],
        B_REF: bases[5],
        B_HEU: bases[6],
    }
    header |= {A_PAY + i: acts.fixed[f"PAY {source}"] for i, source in enumerate(PAY_SOURCES)}
    header |= {A_TO + i: acts.fixed[f"TO {dest}"] for i, dest in enumerate(DESTINATIONS)}
    header |= {A_ATTACK + i: acts.fixed[f"ATTACK {area}"] for i, area in enumerate(("BA1", "BA2"))}
    header |= {A_HPDRAW + i: acts.fixed[f"HPDRAW {area}"] for i, area in enumerate(("BA1", "BA2"))}
    header |= {A_SCRAP + i: action for i, action in enumerate(acts.scrap)}
    header |= {A_FIRST + i: action for i, action in enumerate(acts.first)}
    for slot, value in header.items():
        table[slot] = int(value)
    groups = ((G_ATTACKER, acts.attacker), (G_BLOCK, acts.block), (G_MOVE, acts.move), (G_REMOVE, acts.remove))
    for group, by_slot in groups:
        for name, action in by_slot.items():
            table[SLOT_BASE + group * len(SLOTS) + SLOTS.index(name)] = int(action)
    for seat in (0, 1):
        for slot, action in enumerate(acts.target[seat]):
            table[SLOT_BASE + (G_TARGET1 + seat) * len(SLOTS) + slot] = int(action)
    for (name, k), action in acts.use.items():
        table[USE_BASE + SLOTS.index(name) * MAX_USES + k] = int(action)
    for inst, card in enumerate(cards):
        base = INST_BASE + inst * ICOLS
        dummy = inst >= n_cards
        row_values = {
            I_CARD: -1 if dummy else index[card.id],
            I_OWNER: owner[inst],
            I_TYPE: TYPES.index(card.type),
            I_SPEED: card.speed_index if card.speed else -1,
            I_COST: card.cost,
            I_ENGRAVE: card.extra.engrave,
            I_WEIGHT: 1 if dummy else (card.weight if card.size else 0),
            I_BP: DUMMY_BP if dummy else card.bp,
            I_HP: card.hp,
            I_HP_VALUE: card.hp_value,
            I_UPKEEP: card.upkeep,
            I_DISCARD: card.extra.discard,
        }
        for col, value in row_values.items():
            table[base + col] = int(value)
    for action in acts.space:
        decoded = acts.decode(action)
        base = bases[1] + int(action) * DCOLS
        table[base + D_VERB] = VERB[decoded.verb]
        table[base + D_CARD] = index.get(decoded.card, -1)
        table[base + D_SPEED] = int(decoded.from_speed)
        table[base + D_SLOT] = SLOTS.index(decoded.slot) if decoded.slot else -1
        table[base + D_SEAT] = decoded.seat
        table[base + D_AREA] = decoded.area
        table[base + D_SOURCE] = PAY_SOURCES.index(decoded.source) if decoded.source else -1
        table[base + D_INDEX] = decoded.index
    return table


def _heuristic_rows(game: Any, card_ids: list[str]) -> npt.NDArray[np.int64]:
    """The `H_*` rows: per card of the set, in `card_set.by_id` order."""
    rank = {card_id: r for r, card_id in enumerate(sorted(card_ids))}
    rows = np.zeros((len(card_ids), HCOLS), dtype=np.int64)
    for i, card_id in enumerate(card_ids):
        card = game.card_set[card_id]
        rows[i] = [
            rank[card_id],
            TYPES.index(card.type),
            card.bp,
            card.cost,
            card.speed_index if card.speed else -1,
            card.weight if card.size else 0,
            card.upkeep,
            _mask(card.timing),
            card.extra.engrave,
            card.extra.discard,
            int(any(e.name in ("hp_gain", "hp_break") for e in card.effects)),
            sum(1 for ability in card.abilities if ability.kind == "activated"),
        ]
    return rows


__all__ = ["UNIT_SLOTS", "Table", "build_table", "check_game", "dealt_cards", "unsupported"]
