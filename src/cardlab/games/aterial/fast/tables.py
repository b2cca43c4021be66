"""Aterial's card data and rule options compiled to one integer table that the numba kernel interprets.

Nothing about a card is written in the kernel: every printed value and every A17 ability of the
cards a game deals (the packaged set, a designer's file, `--patch` edits) becomes numbers here, and
every rule option of `variants.RULE_OPTIONS` a slot of the header. The kernel (`cpu`) only reads
this table, so a new card file or rule value needs no code change. Plain Python and numpy: it runs
once per config, off the hot path.

Layout of the int64 vector `build_table(game)` returns (offsets below):

| slots | meaning |
|---|---|
| 0 .. HEADER - 1 | rule options and action-id bases (`R_*`, `B_*`) |
| INST_BASE + inst * ICOLS + col | per dealt instance (`I_*`): card, owner, printed values, summed amounts |
| AB_BASE + (inst * MAX_ABILITIES + k) * ACOLS + col | its k-th ability in file order (`AB_*`): key, amount, race... |
| CARD_BASE + card * CCOLS + col | per card of the set, in file order (`C_*`): what the action window reads |

The kernels compile these constants in; a change here recompiles them (`flush_stale_cache` keys numba's
cache on every module a kernel imports).

Instances are numbered as the reference deals them (`Aterial.new_state`): P1's leader, P1's deck
list, P2's leader, P2's deck list. Races become bit indices (a mask per card); `aura` of race `any`
is the race bit -1.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from cardlab.core.errors import CardlabError
from cardlab.games.aterial.actions import ACTIVATED_KEYS, HAND_KEYS
from cardlab.games.aterial.cards import ANY_RACE, CardDef

MAX_INSTANCES = 64
"""Card instances a game may deal: two leaders and two 30-card decks (A5.1) fit with room to spare."""
MAX_ABILITIES = 16
"""Abilities one card may carry in the kernel."""
MAX_RACES = 62

# Ability key codes (A17), in `cards.ABILITY_KINDS` order.
KEYS = (
    "cannot_attack",
    "evasive",
    "ranged",
    "armor",
    "pierce",
    "flank",
    "siege",
    "kinship",
    "aura",
    "wide_reach",
    "rear_support",
    "nimble",
    "deploy_draw",
    "deploy_strike",
    "deploy_heal",
    "farewell_heal",
    "tap_heal",
    "tap_snipe",
    "devour",
    "hand_rally",
    "hand_cycle",
)
KEY = {key: code for code, key in enumerate(KEYS)}
K_CANNOT_ATTACK, K_EVASIVE, K_RANGED, K_PIERCE = (KEY[k] for k in ("cannot_attack", "evasive", "ranged", "pierce"))
K_WIDE_REACH, K_REAR_SUPPORT = KEY["wide_reach"], KEY["rear_support"]
K_KINSHIP, K_AURA = KEY["kinship"], KEY["aura"]
K_DEPLOY_DRAW, K_DEPLOY_STRIKE, K_DEPLOY_HEAL, K_FAREWELL_HEAL = (
    KEY[k] for k in ("deploy_draw", "deploy_strike", "deploy_heal", "farewell_heal")
)
K_TAP_HEAL, K_TAP_SNIPE, K_DEVOUR, K_HAND_RALLY, K_HAND_CYCLE = (
    KEY[k] for k in ("tap_heal", "tap_snipe", "devour", "hand_rally", "hand_cycle")
)

# Header: rule options (A-ids in variants.py) and the first id of each action group.
(
    R_FIRST_DRAW,
    R_FIRST_TURN_DEPLOY,
    R_UPKEEP,
    R_HEAL_CAPPED,
    R_HAND_LIMIT,
    R_SHUFFLE_FIRST,
    R_DRAW_COUNT,
    R_ACTION_MOVES,
    R_LEADER_SUPPLIES,
    R_MIN_SUPPLY,
    R_BACK_ROW,
    R_BLOCKER_READY,
    R_BLOCKED_SIDE,
    R_RETALIATION,
    R_LEADER_ATTACKS,
    R_DECK_OUT_EMPTY,
    R_SIEGE_PIERCE,
    N_INST,
    N_CARDS,
    N_ACTIONS,
    B_DEPLOY,
    B_HAND,
    B_DISCARD,
) = range(23)
HEADER = 32

# Per instance.
(
    I_CARD,
    I_OWNER,
    I_SUB,
    I_COST,
    I_ATTACK,
    I_HP,
    I_LP,
    I_DOMINANCE,
    I_REAR,
    I_WIDE,
    I_KEYS,
    I_ARMOR,
    I_FLANK,
    I_SIEGE,
    I_TAP_HEAL,
    I_TAP_SNIPE,
    I_DEVOUR,
    I_HAND_RALLY,
    I_RACES,
    I_MOVE_LIMIT,
    I_NEEDED,
    I_N_ABILITIES,
) = range(22)
ICOLS = 22
AB_KEY, AB_AMOUNT, AB_RACE, AB_ATTACK, AB_HP = range(5)
ACOLS = 5
C_SUB, C_NEEDED, C_HAND_KEYS, C_COST, C_ID_RANK, C_DEPLOY_DRAW = range(6)
CCOLS = 6
INST_BASE = HEADER
AB_BASE = INST_BASE + MAX_INSTANCES * ICOLS
CARD_BASE = AB_BASE + MAX_INSTANCES * MAX_ABILITIES * ACOLS

Table = npt.NDArray[np.int64]


def _bit(key: str) -> int:
    return 1 << KEY[key]


def build_table(game: object, cards: tuple[CardDef, ...]) -> Table:
    """The kernel's table for `game` (an `Aterial`) dealing the instances `cards` (the reference state's
    `cards`, or `dealt_cards(game)`); a CardlabError for a card or deal the kernel cannot hold."""
    from cardlab.games.aterial.game import Aterial

    assert isinstance(game, Aterial)
    card_ids = list(game.card_set.cards)
    index = {card_id: i for i, card_id in enumerate(card_ids)}
    if len(cards) > MAX_INSTANCES:
        raise CardlabError(f"the cpu engine deals at most {MAX_INSTANCES} cards, this game {len(cards)}")
    races = sorted({race for card in game.card_set.cards.values() for race in card.races})
    races += sorted({a.race for c in game.card_set.cards.values() for a in c.abilities if a.race} - {ANY_RACE, *races})
    if len(races) > MAX_RACES:
        raise CardlabError(f"the cpu engine knows at most {MAX_RACES} races, this card set {len(races)}")
    race_bit = {race: i for i, race in enumerate(races)} | {ANY_RACE: -1}
    flags = game.flags
    table = np.zeros(CARD_BASE + len(card_ids) * CCOLS, dtype=np.int64)
    acts = game.actions
    header = {
        R_FIRST_DRAW: game.first_draw,
        R_FIRST_TURN_DEPLOY: game.first_turn_deploy,
        R_UPKEEP: game.upkeep_supply,
        R_HEAL_CAPPED: game.heal_capped,
        R_HAND_LIMIT: -1 if game.hand_limit is None else game.hand_limit,
        R_SHUFFLE_FIRST: flags.shuffle_first,
        R_DRAW_COUNT: flags.draw_count,
        R_ACTION_MOVES: flags.action_moves,
        R_LEADER_SUPPLIES: flags.leader_supplies,
        R_MIN_SUPPLY: flags.min_supply,
        R_BACK_ROW: flags.back_row_attacks,
        R_BLOCKER_READY: flags.blocker_ready,
        R_BLOCKED_SIDE: flags.blocked_side,
        R_RETALIATION: flags.retaliation,
        R_LEADER_ATTACKS: flags.leader_attacks,
        R_DECK_OUT_EMPTY: flags.deck_out_empty,
        R_SIEGE_PIERCE: flags.siege_pierce,
        N_INST: len(cards),
        N_CARDS: len(card_ids),
        N_ACTIONS: game.num_actions,
        B_DEPLOY: acts.deploy[card_ids[0]],
        B_HAND: acts.hand[(card_ids[0], HAND_KEYS[0])],
        B_DISCARD: acts.discard[card_ids[0]],
    }
    for slot, value in header.items():
        table[slot] = int(value)
    _check_action_ids(game, card_ids, table)
    id_rank = {card_id: rank for rank, card_id in enumerate(sorted(card_ids))}
    for card_id, card in game.card_set.cards.items():
        base = CARD_BASE + index[card_id] * CCOLS
        table[base + C_SUB] = card.type == "subordinate"
        table[base + C_NEEDED] = max(card.cost, flags.min_supply)  # A11.3, A11.7
        table[base + C_HAND_KEYS] = sum(1 << k for k, key in enumerate(HAND_KEYS) if card.has(key))
        table[base + C_COST] = card.cost
        table[base + C_ID_RANK] = id_rank[card_id]  # the heuristic breaks ties by card id, as text
        table[base + C_DEPLOY_DRAW] = card.amount("deploy_draw")
    owners = _owners(game, len(cards))
    for inst, card in enumerate(cards):
        if len(card.abilities) > MAX_ABILITIES:
            raise CardlabError(f"the cpu engine plays cards of at most {MAX_ABILITIES} abilities, not {card.id}")
        base = INST_BASE + inst * ICOLS
        row = {
            I_CARD: index[card.id],
            I_OWNER: owners[inst],
            I_SUB: card.type == "subordinate",
            I_COST: card.cost,
            I_ATTACK: card.attack,
            I_HP: card.hp,
            I_LP: card.lp,
            I_DOMINANCE: card.dominance,
            I_REAR: card.amount("rear_support"),
            I_WIDE: card.has("wide_reach"),
            I_KEYS: sum(_bit(ability.key) for ability in {a.key: a for a in card.abilities}.values()),
            I_ARMOR: card.amount("armor"),
            I_FLANK: card.amount("flank"),
            I_SIEGE: card.amount("siege"),
            I_TAP_HEAL: card.amount("tap_heal"),
            I_TAP_SNIPE: card.amount("tap_snipe"),
            I_DEVOUR: card.amount("devour"),
            I_HAND_RALLY: card.amount("hand_rally"),
            I_RACES: sum(1 << race_bit[race] for race in card.races),
            I_MOVE_LIMIT: 2 if card.has("nimble") else 1,  # A10.4, A17.12
            I_NEEDED: max(card.cost, flags.min_supply),
            I_N_ABILITIES: len(card.abilities),
        }
        for col, value in row.items():
            table[base + col] = int(value)
        for k, ability in enumerate(card.abilities):
            at = AB_BASE + (inst * MAX_ABILITIES + k) * ACOLS
            table[at + AB_KEY] = KEY[ability.key]
            table[at + AB_AMOUNT] = ability.amount
            table[at + AB_RACE] = race_bit[ability.race] if ability.race else -1
            table[at + AB_ATTACK] = ability.attack
            table[at + AB_HP] = ability.hp
    return table


def _owners(game: object, count: int) -> list[int]:
    """P1 owns its leader and deck (the first half of the deal), P2 the rest (`Aterial.new_state`)."""
    from cardlab.games.aterial.game import Aterial

    assert isinstance(game, Aterial)
    first = 1 + sum(game.decks[0].cards.values())
    return [0 if inst < first else 1 for inst in range(count)]


def dealt_cards(game: object) -> tuple[CardDef, ...]:
    """The instances a game of `game` deals, in the reference's order (`Aterial.new_state`)."""
    from cardlab.games.aterial.game import Aterial

    assert isinstance(game, Aterial)
    cards: list[CardDef] = []
    for deck in game.decks:
        cards.append(game.card_set[deck.leader])
        cards.extend(game.card_set[card_id] for card_id in deck.card_list())
    return tuple(cards)


def _check_action_ids(game: object, card_ids: list[str], table: Table) -> None:
    """The kernel computes action ids from group bases; make sure `actions.build_actions` lays them out so."""
    from cardlab.games.aterial.game import Aterial

    assert isinstance(game, Aterial)
    acts = game.actions
    fixed = [acts.keep, acts.mulligan, acts.end_move, acts.end_action, acts.end_attack, acts.block, acts.no_block]
    expected = {
        **{a: i for i, a in enumerate(fixed)},
        **{acts.move[sq]: 7 + sq for sq in range(6)},
        **{acts.to[sq]: 13 + sq for sq in range(6)},
        **{acts.attack[sq]: 19 + sq for sq in range(6)},
        **{acts.target[seat][sq]: 25 + seat * 6 + sq for seat in (0, 1) for sq in range(6)},
        **{acts.activate[(sq, key)]: 37 + sq * 3 + k for sq in range(6) for k, key in enumerate(ACTIVATED_KEYS)},
        **{acts.deploy[c]: int(table[B_DEPLOY]) + i for i, c in enumerate(card_ids)},
        **{
            acts.hand[(c, key)]: int(table[B_HAND]) + i * 2 + k
            for i, c in enumerate(card_ids)
            for k, key in enumerate(HAND_KEYS)
        },
        **{acts.discard[c]: int(table[B_DISCARD]) + i for i, c in enumerate(card_ids)},
    }
    if any(int(action) != expected_id for action, expected_id in expected.items()) or len(expected) != game.num_actions:
        raise CardlabError("the cpu engine does not know this action layout (cardlab.games.aterial.actions changed)")
