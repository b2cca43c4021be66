"""A numba kernel that plays exactly the Dreadnought game of `cardlab.games.dreadnought.state`.

The reference engine is a frame interpreter (`frames.AUTO`, `decisions.OPTIONS`/`APPLY`); this module runs
the same frames, in the same order, on one int64 row per game, so that every decision point offers the same
actions (the reference's ids, from the table) and every game ends the same way. Every printed value, ability,
effect (D22), selector and rule option comes from the integer table of `tables.build_table`, which refuses
what is not compiled here (see `tables`), so a designer's card file needs no code.
`tests/games/dreadnought/fast/test_kernel.py` plays both engines in lock step and compares every legal set,
the whole position and every result.

It reads like the reference: each automatic frame, decision (its options and its effect) and effect has one
small helper named as the reference's function (`_f_settle`, `_o_win`, `_a_win`, `_e_damage`), which
`_auto`, `legal_actions`, `_decide` and `_do_effect` dispatch on the frame's `F_*`/`D_*` or the effect's
`EF_*` constant (`tests/games/dreadnought/fast/test_kernel_names.py` holds every reference entry to its
counterpart), and the rule constants are the reference's own (`frames`), frozen in by numba.

Row layout (offsets below; instances, dummy tokens, refs and action ids are the reference's own):

| offset | meaning |
|---|---|
| TURN, PHASE, FIRST, TOKEN | turn (D11.6), phase (`frames.PHASES`), this turn's F (-1 undecided), token (D4.7) |
| SHIFT + p, GEARED + p | speed shift this turn (D6.2), gear change made (D6.3) |
| ATT_PLAYER, ATT_AREA, BLOCKER, ATT_MOD, NATT, ATTACKERS + i | the attack in progress (D10.5-D10.7) |
| WINNER, DRAW, REASON | -1 / 0 / -1 until over; REASON indexes `REASON_NAMES` |
| COST_RED, NTRIG, TRIG + 3i | pending cost reduction (D18.3); trigger queue (controller, source, ref) (D5.5) |
| CASTER + 2p + a, IDOL + p | casters by battle area, the idol area (-1 empty) |
| DUMMY + 4p + k, DKNOWN + 4p + k | a dummy token's real card (D15) and whether it was seen |
| UNITS + 4p + 2a + i, NUNITS + 2p + a | battle-area units in the reference's list order |
| ZONE + (2z + p) * 64 + i, LEN + 2z + p | zone z of `ZONES` (a deck's top is its last card) |
| HPS + (2p + a) * 64 + i, NHP + 2p + a | HP stacks (D4.3) |
| AREA, CHK, BPMOD, SHIELD, ARMS + obj | per instance: field place, checked (D0.3), bp_mod, shield, a caster's arms |
| NENCH + obj, ENCH + obj * ENCH_CAP + i | enchants on a host (D14): card + 256 (kind + 1) + 1024 placer + 2048 secret |
| NATTC + obj, ATTC + obj * ATTC_CAP + i | codes attached to a host (D14.5) |
| MOVED + i, NMOVED | objects moved this cast phase (D8.2) |
| STACK + f * FW + k, SP | the frame stack (top last): `frames`' tuples as integers (`F_*` kinds) |
| KNOWN + inst | how often `inst` stands in its owner's `known_hand` (hand cards the opponent has seen, D15.2) |

A frame is `[kind, player, ...]`; a frame holding a `Play` keeps it at `P_*`. Randomness (the set-up
shuffle, the token's coin, random play) comes from the kernel's splitmix64 stream, a function of (seed, game
index) only; the reference's mulligan needs none (D4.6: set-aside cards go to the discard).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from cardlab.core.errors import CardlabError
from cardlab.fast.rng import below as _below
from cardlab.fast.rng import seed_rng
from cardlab.fast.search import flush_stale_cache
from cardlab.games.dreadnought.fast.tables import (
    A_ATTACK,
    A_DONE,
    A_FIRST,
    A_GODDRAW,
    A_HPDRAW,
    A_KEEP,
    A_PASS,
    A_PAY,
    A_SCRAP,
    A_TO,
    A_UPKEEP_CHECK,
    A_UPKEEP_PAY,
    B_DEC,
    B_EFF,
    B_REF,
    B_SEL,
    B_STAT,
    C_ACT,
    C_ATTACH,
    C_CAST,
    C_CAST_S,
    C_CLUSTER,
    C_CODE_REF,
    C_CODE_REQUIRE,
    C_CODE_TIMING,
    C_DISCARD,
    C_DISCARD_S,
    C_DUMMY,
    C_DUMMY_S,
    C_GEAR,
    C_MATERIAL,
    C_MULL,
    C_N_ACT,
    C_N_ATTACH,
    C_N_STATIC,
    C_N_TRIG,
    C_NAME,
    C_PLACE,
    C_PLAY,
    C_PLAY_S,
    C_SIZE,
    C_SUB,
    C_SUB_DISCARD,
    C_SUB_ENGRAVE,
    C_SUB_LOG,
    C_SUB_REDUCE,
    C_SUB_REF,
    C_SUB_REQUIRE,
    C_SUB_S,
    C_SUB_TIMING,
    C_TRIG,
    C_USE_S,
    CARD_BASE,
    CCOLS,
    D_AREA,
    D_CARD,
    D_INDEX,
    D_SEAT,
    D_SLOT,
    D_SOURCE,
    D_SPEED,
    D_VERB,
    DCOLS,
    E_END_OF_TURN,
    E_ON_ATTACK,
    E_ON_BLOCK,
    E_ON_BREAK,
    E_ON_CAST,
    E_ON_SPEED_REVEAL,
    E_START_OF_ACTION,
    ECOLS,
    EF_ATTACH,
    EF_ATTACK_MOD,
    EF_BOUNCE,
    EF_BP_MOD,
    EF_BREAK,
    EF_BURST,
    EF_CHECK,
    EF_COST_REDUCE,
    EF_DAMAGE,
    EF_DRAW,
    EF_ENCHANT,
    EF_ENGRAVE,
    EF_HP_BREAK,
    EF_HP_GAIN,
    EF_KIND,
    EF_MOVE,
    EF_NAME,
    EF_NORMALIZE,
    EF_NUM,
    EF_SEL,
    EF_SHIELD,
    EF_SPEED_SHIFT,
    EF_STATIC_BP,
    EF_STATIC_SHIELD,
    FK_BP,
    FK_CLUSTER,
    FK_NAME,
    FK_SIZE,
    FK_STATE,
    FK_ZONE,
    G_ATTACKER,
    G_BLOCK,
    G_MOVE,
    G_REMOVE,
    G_TARGET1,
    I_BP,
    I_CARD,
    I_COST,
    I_DISCARD,
    I_ENGRAVE,
    I_HP,
    I_HP_VALUE,
    I_OWNER,
    I_SPEED,
    I_TYPE,
    I_UPKEEP,
    I_WEIGHT,
    ICOLS,
    INST_BASE,
    M_ACTION,
    M_CAST,
    M_FAST,
    M_PAYMENT,
    M_REACTION,
    M_SPEED,
    MAX_INSTANCES,
    MAX_LIST,
    MAX_USES,
    N_ACTIONS,
    N_CARDS,
    N_INST,
    OP_LE,
    PER_PLAYER,
    R_ACTOR_REACTS_FIRST,
    R_BLOCKER_RECHOSEN,
    R_DRAW_BURSTS,
    R_EVERY_USE,
    R_F_DRAWS,
    R_GOD_DRAW_EVERYWHERE,
    R_HAS_STATICS,
    R_MULLIGAN_TO_DECK,
    R_NEGATIVE_STATICS,
    R_PRINTED_BP,
    R_REACTION_STACK,
    R_S_DRAWS,
    R_SECOND_TRIGGERS_FIRST,
    R_TIE_REVEALS,
    R_TOKEN_TO_FIRST,
    RCOLS,
    RF_CHECK_SELF,
    RF_DISCARD,
    RF_EFF,
    RF_ENGRAVE,
    RF_EVENT,
    RF_LOG,
    RF_N_EFF,
    RF_N_SINGLE,
    RF_REQUIRE,
    RF_TIMING,
    RF_ZONE,
    S_ALL_ENEMY,
    S_ALL_OWN,
    S_ANY_UNIT,
    S_ATTACKER,
    S_BEARER,
    S_BLOCKER,
    S_ENEMY_CASTER,
    S_ENEMY_UNIT,
    S_HOST,
    S_OWN_CASTER,
    S_OWN_UNIT,
    S_SELF,
    SCOLS,
    SLOT_BASE,
    ST_AMOUNT,
    ST_NAME,
    ST_SEL,
    STCOLS,
    T_ARMS,
    T_CASTER,
    T_CODE,
    T_IDOL,
    T_UNIT,
    USE_BASE,
    V_ATTACKER,
    V_CAST,
    V_DONE,
    V_DUMMY,
    V_GEAR,
    V_GODDRAW,
    V_KEEP,
    V_MOVE,
    V_PASS,
    V_REMOVE,
    V_SUB,
    V_UPKEEP_PAY,
    V_USE,
    V_USE_S,
    Z_BATTLE,
    Z_FIELD,
    Z_IDOL,
    Z_SPEEDZ,
    Table,
)
from cardlab.games.dreadnought.frames import (  # the rule constants, the reference's own (numba freezes them)
    ACTION_TURN_CAP,
    AREA_UNITS,
    AREA_WEIGHT,
    EMPTY,
    ENCHANT_BP,
    ENGRAVE,
    HAND_LIMIT,
    IDOL_AREA,
    MAX_ENGRAVES,
    OPENING_HAND,
    PHASES,
    TURN_CAP,
)

Row = npt.NDArray[np.int64]

PH_SETUP, PH_SPEED, PH_DRAW, PH_CAST, PH_FAST, PH_ACTION, PH_END, PH_OVER = range(len(PHASES))
REASON_NAMES = ("hp", "turn_limit", "concede")
OVERFLOW = len(REASON_NAMES)
"""The reason of a kernel game stopped because it outgrew the row (`_overflow`): never a result."""
WIN_PHASES = ("speed", "cast", "fast")
W_SPEED, W_CAST, W_FAST = range(3)
PLAY_KINDS = ("code", "arms", "ability", "sub", "trigger", "unit", "idol", "upkeep")
PK_CODE, PK_ARMS, PK_ABILITY, PK_SUB, PK_TRIGGER, PK_UNIT, PK_IDOL, PK_UPKEEP = range(len(PLAY_KINDS))

# Zones (per player, PER_PLAYER entries each).
ZONES = (
    "deck",
    "hand",
    "discard",
    "speed",
    "gear",
    "bursts",
    "burst_checked",
    "mull",
    "limbo",
    "placed",
    "engraves",
    "engrave_checked",
)
(Z_DECK, Z_HAND, Z_DISC, Z_SPEED, Z_GEAR, Z_BURST, Z_BCHK, Z_MULL, Z_LIMBO, Z_PLACED, Z_ENGR, Z_ECHK) = range(
    len(ZONES)
)

# Frame kinds: automatic ones first, then decisions (>= FIRST_DECISION), in `frames.AUTO` / `decisions.OPTIONS` words.
FRAMES = (
    "setup",
    "mull_done",
    "turn",
    "speed_phase",
    "speed_windows",
    "decide",
    "compare",
    "draw_phase",
    "draw_bursts",
    "draw1",
    "cast_phase",
    "upkeep",
    "fast_phase",
    "action_phase",
    "end_phase",
    "hand_limit",
    "cleanup",
    "settle",
    "next_trigger",
    "targets",
    "pay",
    "pay_log",
    "paid",
    "resolve",
    "finish",
    "effect",
    "material",
    "block_step",
    "attack_damage",
    "reveals",
    "place",
    "mull",
    "win",
    "dest",
    "move_to",
    "upkeep_idol",
    "target",
    "pay_discard",
    "pay_src",
    "aturn",
    "abuild",
    "block",
    "react",
    "pick",
    "scrap",
    "order",
    "limit",
    "hpdraw",
    "hpdeck",
)
(
    F_SETUP,
    F_MULL_DONE,
    F_TURN,
    F_SPEED_PHASE,
    F_SPEED_WINDOWS,
    F_DECIDE,
    F_COMPARE,
    F_DRAW_PHASE,
    F_DRAW_BURSTS,
    F_DRAW1,
    F_CAST_PHASE,
    F_UPKEEP,
    F_FAST_PHASE,
    F_ACTION_PHASE,
    F_END_PHASE,
    F_HAND_LIMIT,
    F_CLEANUP,
    F_SETTLE,
    F_NEXT_TRIGGER,
    F_TARGETS,
    F_PAY,
    F_PAY_LOG,
    F_PAID,
    F_RESOLVE,
    F_FINISH,
    F_EFFECT,
    F_MATERIAL,
    F_BLOCK_STEP,
    F_ATTACK_DAMAGE,
    F_REVEALS,
    D_PLACE,
    D_MULL,
    D_WIN,
    D_DEST,
    D_MOVE_TO,
    D_UPKEEP_IDOL,
    D_TARGET,
    D_PAY_DISCARD,
    D_PAY_SRC,
    D_ATURN,
    D_ABUILD,
    D_BLOCK,
    D_REACT,
    D_PICK,
    D_SCRAP,
    D_ORDER,
    D_LIMIT,
    D_HPDRAW,
    D_HPDECK,
) = range(len(FRAMES))
FIRST_DECISION = D_PLACE
PLAY_FRAMES = frozenset(
    {"targets", "pay", "pay_log", "paid", "resolve", "finish", "effect", "dest", "target", "pay_discard", "pay_src"}
)
"""Frames whose data is a `Play` (after the player, for decisions; `effect` adds the effect index)."""

# Play fields inside a frame.
P_KIND, P_CARD, P_SOURCE, P_REF, P_LOG, P_DISCARD, P_ACTION, P_DEST, P_NT, P_T = 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
MAX_TARGETS = 4
P_INDEX = P_T + MAX_TARGETS
FW = P_INDEX + 1
STACK_CAP = 160
ENCH_CAP = 24
ATTC_CAP = 4
TRIG_CAP = 48

# Row layout.
TURN, PHASE, FIRST, TOKEN = 0, 1, 2, 3
SHIFT, GEARED = 4, 6
ATT_PLAYER, ATT_AREA, BLOCKER, ATT_MOD, NATT, ATTACKERS = 8, 9, 10, 11, 12, 13  # ATTACKERS: 4
WINNER, DRAW, REASON, SP, NMOVED, COST_RED, NTRIG, N_ATTACHED = 17, 18, 19, 20, 21, 22, 23, 24
CASTER, IDOL, DUMMY, DKNOWN = 26, 30, 32, 40
NUNITS, UNITS, NHP = 48, 52, 60
LEN = 64
ZONE = LEN + 2 * len(ZONES)
HPS = ZONE + 2 * len(ZONES) * PER_PLAYER
AREA = HPS + 4 * PER_PLAYER
CHK = AREA + MAX_INSTANCES
BPMOD = CHK + MAX_INSTANCES
SHIELD = BPMOD + MAX_INSTANCES
ARMS = SHIELD + MAX_INSTANCES
NENCH = ARMS + MAX_INSTANCES
ENCH = NENCH + MAX_INSTANCES
NATTC = ENCH + MAX_INSTANCES * ENCH_CAP
ATTC = NATTC + MAX_INSTANCES
MOVED = ATTC + MAX_INSTANCES * ATTC_CAP
TRIG = MOVED + 16
STACK = TRIG + 3 * TRIG_CAP
SCRATCH = STACK + STACK_CAP * FW
"""Working lists, one region per user so that no call overwrites its caller's (no allocation on the hot path)."""
SCR_AUTO = SCRATCH  # automatic frames: 2 * (7 + PER_PLAYER)
SCR_TE = SCR_AUTO + 2 * (7 + PER_PLAYER)  # `_targets_exist`: 16
SCR_EF = SCR_TE + 16  # `_f_effect`: 2 * 16
SCR_ONE = SCR_EF + 32  # `_queue_one`: 1
SCR_LEG = SCR_ONE + 1  # decisions' options and `_decide`: TRIG_CAP
SCR_CAST = SCR_LEG + TRIG_CAP  # `_cast_options`: 4
SCR_FRAME = SCR_CAST + 4  # the frame being run or decided: FW
FORCE_N = SCR_FRAME + FW  # + p: a deck order the next mulligan_to=deck shuffle takes instead (`force_shuffle`)
FORCE = FORCE_N + 2  # + p * PER_PLAYER + i
KNOWN = FORCE + 2 * PER_PLAYER  # + inst: its count in the owner's `known_hand` (what the searcher may know, D1.5)
ROW_SIZE = KNOWN + MAX_INSTANCES
SECRET = 2048
"""An enchant's flag: its material was taken unseen from the deck top (`ench_secret`, D14.2)."""
SLOT_COUNT = 7

_BLOCK_GAMES = 32  # games per prange work item; results never depend on it or on the thread count


def new_row() -> Row:
    return np.zeros(ROW_SIZE, dtype=np.int64)


# -- table reads -------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _inst(tab: Row, inst: int, col: int) -> int:
    return tab[INST_BASE + inst * ICOLS + col]


@njit(cache=True, inline="always")
def _card(tab: Row, card: int, col: int) -> int:
    return tab[CARD_BASE + card * CCOLS + col]


@njit(cache=True, inline="always")
def _icard(tab: Row, inst: int, col: int) -> int:
    """A column of the card row of instance `inst` (never a dummy token)."""
    return tab[CARD_BASE + tab[INST_BASE + inst * ICOLS + I_CARD] * CCOLS + col]


@njit(cache=True, inline="always")
def _dec(tab: Row, action: int, col: int) -> int:
    return tab[tab[B_DEC] + action * DCOLS + col]


@njit(cache=True, inline="always")
def _slot_action(tab: Row, group: int, slot: int) -> int:
    return tab[SLOT_BASE + group * SLOT_COUNT + slot]


@njit(cache=True, inline="always")
def _ref(tab: Row, ref: int, col: int) -> int:
    return tab[tab[B_REF] + ref * RCOLS + col]


@njit(cache=True, inline="always")
def _eff(tab: Row, eff: int, col: int) -> int:
    return tab[tab[B_EFF] + eff * ECOLS + col]


@njit(cache=True, inline="always")
def _sel(tab: Row, sel: int, col: int) -> int:
    return tab[tab[B_SEL] + sel * SCOLS + col]


@njit(cache=True, inline="always")
def _stat(tab: Row, st: int, col: int) -> int:
    return tab[tab[B_STAT] + st * STCOLS + col]


@njit(cache=True, inline="always")
def _is_group(tab: Row, sel: int) -> bool:
    base = _sel(tab, sel, 0)
    return base in (S_ALL_OWN, S_ALL_ENEMY)


# -- zones (lists in the reference's order) ------------------------------------------------------


@njit(cache=True, inline="always")
def _zlen(row: Row, z: int, p: int) -> int:
    return row[LEN + 2 * z + p]


@njit(cache=True, inline="always")
def _zbase(z: int, p: int) -> int:
    return ZONE + (2 * z + p) * PER_PLAYER


@njit(cache=True, inline="always")
def _zget(row: Row, z: int, p: int, i: int) -> int:
    return row[ZONE + (2 * z + p) * PER_PLAYER + i]


@njit(cache=True, inline="always")
def _zpush(row: Row, z: int, p: int, value: int) -> None:
    n = row[LEN + 2 * z + p]
    row[ZONE + (2 * z + p) * PER_PLAYER + n] = value
    row[LEN + 2 * z + p] = n + 1


@njit(cache=True, inline="always")
def _zpop(row: Row, z: int, p: int) -> int:
    n = row[LEN + 2 * z + p] - 1
    row[LEN + 2 * z + p] = n
    return row[ZONE + (2 * z + p) * PER_PLAYER + n]


@njit(cache=True, inline="always")
def _zremove_at(row: Row, z: int, p: int, index: int) -> int:
    """A list's `pop(index)`."""
    base = ZONE + (2 * z + p) * PER_PLAYER
    value = row[base + index]
    n = row[LEN + 2 * z + p]
    for i in range(index, n - 1):
        row[base + i] = row[base + i + 1]
    row[LEN + 2 * z + p] = n - 1
    return value


@njit(cache=True, inline="always")
def _zfind(row: Row, z: int, p: int, value: int) -> int:
    base = ZONE + (2 * z + p) * PER_PLAYER
    for i in range(row[LEN + 2 * z + p]):
        if row[base + i] == value:
            return i
    return -1


@njit(cache=True, inline="always")
def _zremove(row: Row, z: int, p: int, value: int) -> None:
    """A list's `remove(value)` (its first occurrence)."""
    _zremove_at(row, z, p, _zfind(row, z, p, value))


@njit(cache=True, inline="always")
def _zlast_card(row: Row, tab: Row, z: int, p: int, card: int) -> int:
    """The last instance of card `card` in the zone (`state._hand_or_speed`), -1 none."""
    base = ZONE + (2 * z + p) * PER_PLAYER
    for i in range(row[LEN + 2 * z + p] - 1, -1, -1):
        inst = row[base + i]
        if _inst(tab, inst, I_CARD) == card:
            return inst
    return -1


@njit(cache=True, inline="always")
def _first_of_card(row: Row, tab: Row, z: int, p: int, i: int) -> bool:
    """Entry i is the first of its card id in the zone (one option per card id, `decisions._distinct`)."""
    base = ZONE + (2 * z + p) * PER_PLAYER
    card = _inst(tab, row[base + i], I_CARD)
    for j in range(i):  # noqa: SIM110 (numba compiles no generator)
        if _inst(tab, row[base + j], I_CARD) == card:
            return False
    return True


@njit(cache=True, inline="always")
def _hp_len(row: Row, p: int, area: int) -> int:
    return row[NHP + 2 * p + area]


@njit(cache=True, inline="always")
def _n_units(row: Row, p: int, area: int) -> int:
    return row[NUNITS + 2 * p + area]


@njit(cache=True, inline="always")
def _unit(row: Row, p: int, area: int, i: int) -> int:
    return row[UNITS + 4 * p + 2 * area + i]


# -- the stack ---------------------------------------------------------------------------------


@njit(cache=True)
def _overflow(row: Row) -> None:
    """The game outgrew the row's room (frames, triggers, enchants or codes on one object): it stops at once with
    reason OVERFLOW, which `check_overflow` turns into a CardlabError, rather than write past its lists."""
    row[WINNER] = EMPTY
    row[REASON] = OVERFLOW
    row[PHASE] = PH_OVER
    row[SP] = 0
    row[NTRIG] = 0


@njit(cache=True, inline="always")
def _push(row: Row, kind: int, a: int, b: int, c: int, d: int) -> None:
    """Schedule a frame of up to four data values on top (callers push in reverse order, as `_then`)."""
    if row[SP] >= STACK_CAP:
        _overflow(row)
        return
    base = STACK + row[SP] * FW
    row[base] = kind
    row[base + 1] = a
    row[base + 2] = b
    row[base + 3] = c
    row[base + 4] = d
    for k in range(5, FW):
        row[base + k] = 0
    row[SP] += 1


@njit(cache=True, inline="always")
def _push_copy(row: Row, kind: int, frame: Row) -> None:
    """A frame with another frame's data (a `Play` carried on)."""
    if row[SP] >= STACK_CAP:
        _overflow(row)
        return
    base = STACK + row[SP] * FW
    for k in range(1, FW):
        row[base + k] = frame[k]
    row[base] = kind
    row[SP] += 1


@njit(cache=True)
def _new_play(frame: Row, player: int, pkind: int, card: int, source: int, ref: int, log: int, discard: int,
              action: int) -> None:  # fmt: skip
    """`Play(kind, player, card, source, ref, log=..., discard=..., action=...)` into `frame`."""
    frame[:] = 0
    frame[1] = player
    frame[P_KIND] = pkind
    frame[P_CARD] = card
    frame[P_SOURCE] = source
    frame[P_REF] = ref
    frame[P_LOG] = log
    frame[P_DISCARD] = discard
    frame[P_ACTION] = action
    frame[P_DEST] = EMPTY


# -- reading the field -------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _is_dummy(tab: Row, obj: int) -> bool:
    return obj >= tab[N_INST]


@njit(cache=True, inline="always")
def _is_caster(tab: Row, obj: int) -> bool:
    return _inst(tab, obj, I_TYPE) == T_CASTER


@njit(cache=True, inline="always")
def _owner(tab: Row, obj: int) -> int:
    return _inst(tab, obj, I_OWNER)


@njit(cache=True, inline="always")
def _on_field(row: Row, obj: int) -> bool:
    return obj != EMPTY and row[AREA + obj] != EMPTY


@njit(cache=True, inline="always")
def _weight(tab: Row, obj: int) -> int:
    return _inst(tab, obj, I_WEIGHT)


@njit(cache=True)
def _units_of(row: Row, p: int, out: Row, n: int) -> int:
    """`state.units_of`: BA1's units, BA2's, then the idol in the idol area (appended to `out` from `n`)."""
    for area in range(2):
        for i in range(_n_units(row, p, area)):
            out[n] = _unit(row, p, area, i)
            n += 1
    if row[IDOL + p] != EMPTY:
        out[n] = row[IDOL + p]
        n += 1
    return n


@njit(cache=True)
def _base_bp(row: Row, tab: Row, obj: int) -> int:
    """D13.1 without statics: printed (a dummy's 50) + enchants + BP changes until end of turn."""
    value = _inst(tab, obj, I_BP)
    for i in range(row[NENCH + obj]):
        value += ENCHANT_BP * (((row[ENCH + obj * ENCH_CAP + i] >> 8) & 3) - 1)
    return value + row[BPMOD + obj]


@njit(cache=True)
def _filters_ok(row: Row, tab: Row, obj: int, sel: int, bp: int, with_bp: bool) -> bool:
    """D22.6 filters of selector `sel` on `obj`; `bp` is the value `bp` filters read (skipped unless `with_bp`)."""
    dummy = _is_dummy(tab, obj)
    for k in range(_sel(tab, sel, 1)):
        key, op, value = _sel(tab, sel, 2 + 3 * k), _sel(tab, sel, 3 + 3 * k), _sel(tab, sel, 4 + 3 * k)
        if key == FK_BP:
            if with_bp and not (bp <= value if op == OP_LE else bp >= value):
                return False
        elif key == FK_SIZE:
            size = 0 if dummy else _icard(tab, obj, C_SIZE)
            if size != value:
                return False
        elif key == FK_NAME:
            if dummy or _icard(tab, obj, C_NAME) != value:
                return False
        elif key == FK_ZONE:
            if (1 if row[AREA + obj] == IDOL_AREA else 0) != value:
                return False
        elif key == FK_STATE:
            if row[CHK + obj] != value:
                return False
        elif key == FK_CLUSTER and (dummy or not (_icard(tab, obj, C_CLUSTER) >> value) & 1):
            return False
    return True


@njit(cache=True)
def _has_bp_filter(tab: Row, sel: int) -> bool:
    for k in range(_sel(tab, sel, 1)):  # noqa: SIM110 (numba compiles no generator)
        if _sel(tab, sel, 2 + 3 * k) == FK_BP:
            return True
    return False


@njit(cache=True)
def _applies(row: Row, tab: Row, obj: int, sel: int, controller: int, source: int) -> bool:
    """`state._static_applies`: a static's target, its filters read BP before statics."""
    base = _sel(tab, sel, 0)
    if base in (S_SELF, S_HOST, S_BEARER):
        hit = obj == source
    elif base == S_ALL_OWN:
        hit = _owner(tab, obj) == controller and not _is_caster(tab, obj)
    else:
        hit = _owner(tab, obj) != controller and not _is_caster(tab, obj)
    if not hit:
        return False
    if _sel(tab, sel, 1) == 0:
        return True
    bp = 0
    if _has_bp_filter(tab, sel):
        bp = _inst(tab, obj, I_BP) if tab[R_PRINTED_BP] else _base_bp(row, tab, obj)
    return _filters_ok(row, tab, obj, sel, bp, True)


@njit(cache=True)
def _card_statics(row: Row, tab: Row, obj: int, which: int, card: int, zone: int, controller: int, source: int) -> int:
    at = C_N_STATIC + zone * (1 + MAX_LIST)
    total = 0
    for k in range(_card(tab, card, at)):
        st = _card(tab, card, at + 1 + k)
        if _stat(tab, st, ST_NAME) == which and _applies(row, tab, obj, _stat(tab, st, ST_SEL), controller, source):
            total += _stat(tab, st, ST_AMOUNT)
    return total


@njit(cache=True)
def _static_total(row: Row, tab: Row, obj: int, which: int) -> int:
    """`state._static_total`: every static in force (D22.3, D19.3) of kind `which` on `obj`."""
    if not tab[R_HAS_STATICS]:
        return 0
    total = 0
    for p in range(2):
        for area in range(2):
            caster = row[CASTER + 2 * p + area]
            if caster == EMPTY:
                continue
            total += _card_statics(row, tab, obj, which, _inst(tab, caster, I_CARD), Z_FIELD, p, caster)
            arms = row[ARMS + caster]
            if arms != EMPTY:
                total += _card_statics(row, tab, obj, which, _inst(tab, arms, I_CARD), Z_FIELD, p, caster)
        for k in range(5):  # units_of(p): BA1's units, BA2's, the idol
            if k < 4:
                area, i = k // 2, k % 2
                if i >= _n_units(row, p, area):
                    continue
                u = _unit(row, p, area, i)
            else:
                u = row[IDOL + p]
                if u == EMPTY:
                    continue
            if _is_dummy(tab, u):
                continue
            card = _inst(tab, u, I_CARD)
            zone = Z_IDOL if row[AREA + u] == IDOL_AREA else Z_BATTLE
            total += _card_statics(row, tab, obj, which, card, zone, p, u)
            total += _card_statics(row, tab, obj, which, card, Z_FIELD, p, u)
        for i in range(_zlen(row, Z_SPEED, p)):
            inst = _zget(row, Z_SPEED, p, i)
            total += _card_statics(row, tab, obj, which, _inst(tab, inst, I_CARD), Z_SPEEDZ, p, inst)
    if row[N_ATTACHED]:
        for host in range(tab[N_CARDS]):
            for i in range(row[NATTC + host]):
                code = row[ATTC + host * ATTC_CAP + i]
                card = _inst(tab, code, I_CARD)
                for k in range(_card(tab, card, C_N_ATTACH)):
                    st = _card(tab, card, C_ATTACH + k)
                    sel = _stat(tab, st, ST_SEL)
                    if _stat(tab, st, ST_NAME) == which and _applies(row, tab, obj, sel, _owner(tab, code), host):
                        total += _stat(tab, st, ST_AMOUNT)
    return total


@njit(cache=True)
def _bp(row: Row, tab: Row, obj: int) -> int:
    """D13.1 current BP."""
    return _base_bp(row, tab, obj) + _static_total(row, tab, obj, EF_STATIC_BP)


@njit(cache=True)
def _shields(row: Row, tab: Row, obj: int) -> int:
    """D13.2: shields and static shields in force."""
    return row[SHIELD + obj] + _static_total(row, tab, obj, EF_STATIC_SHIELD)


@njit(cache=True)
def _passes(row: Row, tab: Row, obj: int, sel: int, with_bp: bool) -> bool:
    """`state._passes` with statics (`bp` filters read current BP; rule bp_filter=printed: printed BP)."""
    if _sel(tab, sel, 1) == 0:
        return True
    bp = 0
    if with_bp and _has_bp_filter(tab, sel):
        bp = _inst(tab, obj, I_BP) if tab[R_PRINTED_BP] else _bp(row, tab, obj)
    return _filters_ok(row, tab, obj, sel, bp, with_bp)


@njit(cache=True)
def _candidates(row: Row, tab: Row, sel: int, controller: int, source: int, out: Row, with_bp: bool) -> int:
    """`state.candidates`: objects a selector may pick now (without `with_bp`: its bp filters left out, D5.3)."""
    base = _sel(tab, sel, 0)
    n = 0
    if base in (S_SELF, S_BEARER):
        if _on_field(row, source):
            out[0] = source
            n = 1
    elif base == S_BLOCKER:
        if _on_field(row, row[BLOCKER]):
            out[0] = row[BLOCKER]
            n = 1
    elif base == S_ATTACKER:
        for i in range(row[NATT]):
            if _on_field(row, row[ATTACKERS + i]):
                out[n] = row[ATTACKERS + i]
                n += 1
    elif base in (S_OWN_UNIT, S_ALL_OWN):
        n = _units_of(row, controller, out, 0)
    elif base in (S_ENEMY_UNIT, S_ALL_ENEMY):
        n = _units_of(row, 1 - controller, out, 0)
    elif base == S_ANY_UNIT:
        n = _units_of(row, 1 - controller, out, _units_of(row, controller, out, 0))
    elif base in (S_OWN_CASTER, S_ENEMY_CASTER):
        p = controller if base == S_OWN_CASTER else 1 - controller
        out[0] = row[CASTER + 2 * p]
        out[1] = row[CASTER + 2 * p + 1]
        n = 2
    if n and _sel(tab, sel, 1):
        kept = 0
        for i in range(n):
            if _passes(row, tab, out[i], sel, with_bp):
                out[kept] = out[i]
                kept += 1
        n = kept
    return n


@njit(cache=True)
def _single_selector(tab: Row, ref: int, k: int) -> int:
    """The k-th single-target selector of a ref's effects, -1 none."""
    for i in range(_ref(tab, ref, RF_N_EFF)):
        sel = _eff(tab, _ref(tab, ref, RF_EFF + i), EF_SEL)
        if sel >= 0 and not _is_group(tab, sel):
            if k == 0:
                return sel
            k -= 1
    return -1


@njit(cache=True)
def _targets_exist(row: Row, tab: Row, p: int, source: int, ref: int) -> bool:
    """D5.3a: every single-target selector has a legal object now."""
    scratch = row[SCR_TE : SCR_TE + 16]
    for i in range(_ref(tab, ref, RF_N_EFF)):
        sel = _eff(tab, _ref(tab, ref, RF_EFF + i), EF_SEL)
        if sel >= 0 and not _is_group(tab, sel) and _candidates(row, tab, sel, p, source, scratch, True) == 0:
            return False
    return True


@njit(cache=True)
def _fits(row: Row, tab: Row, p: int, area: int, weight: int) -> bool:
    """D8.3: at most two units weighing at most 3."""
    n = _n_units(row, p, area)
    if n >= AREA_UNITS:
        return False
    total = weight
    for i in range(n):
        total += _weight(tab, _unit(row, p, area, i))
    return total <= AREA_WEIGHT


@njit(cache=True)
def _object_at(row: Row, p: int, slot: int) -> int:
    if slot == 6:
        return row[IDOL + p]
    area = slot // 3
    place = slot % 3
    if place == 0:
        return row[CASTER + 2 * p + area]
    if place - 1 < _n_units(row, p, area):
        return _unit(row, p, area, place - 1)
    return EMPTY


@njit(cache=True)
def _slot_of(row: Row, tab: Row, obj: int) -> int:
    area = row[AREA + obj]
    if area == IDOL_AREA:
        return 6
    if _is_caster(tab, obj):
        return 3 * area
    p = _owner(tab, obj)
    for i in range(_n_units(row, p, area)):
        if _unit(row, p, area, i) == obj:
            return 3 * area + 1 + i
    return -1


@njit(cache=True)
def _current_speed(row: Row, tab: Row, p: int) -> int:
    """D6.2."""
    n = _zlen(row, Z_SPEED, p)
    base = _inst(tab, _zget(row, Z_SPEED, p, n - 1), I_SPEED) if n else -1
    return min(5, base + row[SHIFT + p])


@njit(cache=True, inline="always")
def _order_first(row: Row) -> int:
    """F, or the token holder before F is decided (D5.5)."""
    return row[FIRST] if row[FIRST] != EMPTY else row[TOKEN]


@njit(cache=True)
def _normal(row: Row, z: int, p: int) -> int:
    """Normal entries of a checked-flags zone (bursts' or engraves')."""
    count = 0
    for i in range(_zlen(row, z, p)):
        if _zget(row, z, p, i) == 0:
            count += 1
    return count


@njit(cache=True)
def _check_first(row: Row, z: int, p: int, count: int) -> None:
    """Check the first `count` normal entries of a flags zone (`state._check_engraves`, a burst payment)."""
    for i in range(_zlen(row, z, p)):
        if count and _zget(row, z, p, i) == 0:
            row[_zbase(z, p) + i] = 1
            count -= 1


@njit(cache=True)
def _log_sources(row: Row, p: int, exclude: int, engraves_used: int) -> int:
    """D12.1: normal bursts, engraves, casters and the idol in the idol area."""
    total = _normal(row, Z_BCHK, p) + max(0, _normal(row, Z_ECHK, p) - engraves_used)
    for area in range(2):
        caster = row[CASTER + 2 * p + area]
        if caster != exclude and row[CHK + caster] == 0:
            total += 1
    idol = row[IDOL + p]
    if idol != EMPTY and idol != exclude and row[CHK + idol] == 0:
        total += 1
    return total


@njit(cache=True)
def _payable(row: Row, tab: Row, p: int, log: int, discard: int, exclude: int, engrave: int, code: bool, played: int,
             spent: int) -> bool:  # fmt: skip
    """D12.4, `state.payable`: can the whole cost still be paid (PAYMENT reducers for a code, D18.3)?"""
    if engrave and _normal(row, Z_ECHK, p) < engrave:
        return False
    sources = _log_sources(row, p, exclude, engrave)
    if log <= sources and discard <= 0:  # the common case: no card of the pool is needed
        return True
    zones = 2 if row[FIRST] != EMPTY else 1
    pool = 0
    for zi in range(zones):
        z = Z_HAND if zi == 0 else Z_SPEED
        pool += _zlen(row, z, p)
        if played != EMPTY and _zfind(row, z, p, played) >= 0:
            pool -= 1
        if spent != EMPTY and spent != played and _zfind(row, z, p, spent) >= 0:
            pool -= 1
    shortfall = max(0, log - sources)
    if shortfall == 0:
        return pool >= discard
    if not code:
        return False
    amounts = np.empty(2 * PER_PLAYER, dtype=np.int64)  # PAYMENT reducers in the pool (D18.3), largest first
    n_red = 0
    for zi in range(zones):
        z = Z_HAND if zi == 0 else Z_SPEED
        for i in range(_zlen(row, z, p)):
            inst = _zget(row, z, p, i)
            if inst in (played, spent):
                continue
            card = _inst(tab, inst, I_CARD)
            if (
                _card(tab, card, C_SUB_REF) >= 0
                and _card(tab, card, C_SUB_LOG) == 0
                and _card(tab, card, C_SUB_DISCARD) == 0
                and _card(tab, card, C_SUB_ENGRAVE) == 0
                and _card(tab, card, C_SUB_TIMING) & M_PAYMENT
            ):
                amounts[n_red] = _card(tab, card, C_SUB_REDUCE)
                n_red += 1
    used = 0
    if n_red:
        ordered = np.sort(amounts[:n_red])[::-1]
        for i in range(n_red):
            if shortfall <= 0:
                break
            shortfall -= ordered[i]
            used += 1
    return shortfall <= 0 and pool - used >= discard


@njit(cache=True)
def _require_ok(row: Row, p: int, require: int) -> bool:
    """D22.5 (1 own_attack, 2 enemy_attack, 3 attack)."""
    if require == 0:
        return True
    if row[ATT_PLAYER] == EMPTY:
        return False
    return require == 3 or (require == 1) == (row[ATT_PLAYER] == p)


@njit(cache=True)
def _n_activated(row: Row, tab: Row, obj: int) -> int:
    """An object's activated abilities: its own, then (casters) its arms' (D2.9)."""
    n = _icard(tab, obj, C_N_ACT)
    if _is_caster(tab, obj) and row[ARMS + obj] != EMPTY:
        n += _icard(tab, row[ARMS + obj], C_N_ACT)
    return n


@njit(cache=True)
def _activated_ref(row: Row, tab: Row, obj: int, k: int) -> int:
    own = _icard(tab, obj, C_N_ACT)
    if k < own:
        return _icard(tab, obj, C_ACT + k)
    return _icard(tab, row[ARMS + obj], C_ACT + k - own)


# -- zone moves ---------------------------------------------------------------------------------


@njit(cache=True)
def _take(row: Row, p: int, inst: int) -> None:
    """From hand, else the speed area (`state._take`)."""
    i = _zfind(row, Z_HAND, p, inst)
    if i >= 0:
        _zremove_at(row, Z_HAND, p, i)
        if row[KNOWN + inst] > 0:
            row[KNOWN + inst] -= 1
    else:
        _zremove(row, Z_SPEED, p, inst)


@njit(cache=True, inline="always")
def _to_discard(row: Row, tab: Row, inst: int) -> None:
    _zpush(row, Z_DISC, _owner(tab, inst), inst)


@njit(cache=True)
def _draw_card(row: Row, p: int) -> bool:
    if _zlen(row, Z_DECK, p) == 0:
        return False
    _zpush(row, Z_HAND, p, _zpop(row, Z_DECK, p))
    return True


@njit(cache=True, inline="always")
def _add_burst(row: Row, p: int, inst: int, checked: int) -> None:
    _zpush(row, Z_BURST, p, inst)
    _zpush(row, Z_BCHK, p, checked)


@njit(cache=True)
def _deck_to_burst(row: Row, p: int) -> None:
    if _zlen(row, Z_DECK, p):
        _add_burst(row, p, _zpop(row, Z_DECK, p), 0)


@njit(cache=True)
def _lose_hp(row: Row, tab: Row, caster: int, count: int) -> None:
    """D13.4: HP cards move closed and checked to the owner's burst area."""
    p = _owner(tab, caster)
    at = NHP + 2 * p + row[AREA + caster]
    base = HPS + (2 * p + row[AREA + caster]) * PER_PLAYER
    lost = min(count, row[at])
    for _ in range(lost):
        row[at] -= 1
        _add_burst(row, p, row[base + row[at]], 1)


@njit(cache=True)
def _take_hp(row: Row, p: int, area: int) -> None:
    """D20.1: the top HP card to hand."""
    row[NHP + 2 * p + area] -= 1
    _zpush(row, Z_HAND, p, row[HPS + (2 * p + area) * PER_PLAYER + row[NHP + 2 * p + area]])


@njit(cache=True)
def _remove_unit(row: Row, p: int, area: int, obj: int) -> None:
    n = _n_units(row, p, area)
    base = UNITS + 4 * p + 2 * area
    found = False
    for i in range(n):
        if found:
            row[base + i - 1] = row[base + i]
        elif row[base + i] == obj:
            found = True
    row[NUNITS + 2 * p + area] = n - 1


@njit(cache=True)
def _place(row: Row, obj: int, p: int, area: int) -> None:
    if area == IDOL_AREA:
        row[IDOL + p] = obj
    else:
        n = _n_units(row, p, area)
        row[UNITS + 4 * p + 2 * area + n] = obj
        row[NUNITS + 2 * p + area] = n + 1
    row[AREA + obj] = area


@njit(cache=True)
def _drop_enchants(row: Row, tab: Row, obj: int) -> None:
    """Boosts, weakens and attached codes go to their owners' discards (D14.4)."""
    for i in range(row[NENCH + obj]):
        _to_discard(row, tab, row[ENCH + obj * ENCH_CAP + i] & 255)
    row[NENCH + obj] = 0
    n = row[NATTC + obj]
    for i in range(n):
        _to_discard(row, tab, row[ATTC + obj * ATTC_CAP + i])
    row[NATTC + obj] = 0
    row[N_ATTACHED] -= n


@njit(cache=True)
def _leave_field(row: Row, tab: Row, obj: int) -> int:
    """Take a unit or idol off the field (`state._leave_field`); returns its real card (a dummy's closed card)."""
    p = _owner(tab, obj)
    area = row[AREA + obj]
    if area == IDOL_AREA:
        row[IDOL + p] = EMPTY
    else:
        _remove_unit(row, p, area, obj)
    row[AREA + obj] = EMPTY
    _drop_enchants(row, tab, obj)
    row[BPMOD + obj] = 0
    row[SHIELD + obj] = 0
    row[CHK + obj] = 0
    n = row[NMOVED]
    for i in range(n):
        if row[MOVED + i] == obj:
            for j in range(i, n - 1):
                row[MOVED + j] = row[MOVED + j + 1]
            row[NMOVED] = n - 1
            break
    n = row[NATT]
    for i in range(n):
        if row[ATTACKERS + i] == obj:
            for j in range(i, n - 1):
                row[ATTACKERS + j] = row[ATTACKERS + j + 1]
            row[NATT] = n - 1
            break
    if _is_dummy(tab, obj):
        slot = obj - tab[N_INST] - 4 * p
        real = row[DUMMY + 4 * p + slot]
        row[DUMMY + 4 * p + slot] = EMPTY
        row[DKNOWN + 4 * p + slot] = 0
        return real
    return obj


@njit(cache=True)
def _queue_trigger(row: Row, controller: int, source: int, ref: int) -> None:
    n = row[NTRIG]
    if n >= TRIG_CAP:
        _overflow(row)
        return
    row[TRIG + 3 * n] = controller
    row[TRIG + 3 * n + 1] = source
    row[TRIG + 3 * n + 2] = ref
    row[NTRIG] = n + 1


@njit(cache=True)
def _break(row: Row, tab: Row, obj: int) -> None:
    """D13.3: to the discard with its enchants; its on_break triggers fire from there."""
    zone = Z_IDOL if row[AREA + obj] == IDOL_AREA else Z_BATTLE
    dummy = _is_dummy(tab, obj)
    _to_discard(row, tab, _leave_field(row, tab, obj))
    if not dummy:
        card = _inst(tab, obj, I_CARD)
        for k in range(_card(tab, card, C_N_TRIG)):
            ref = _card(tab, card, C_TRIG + k)
            ability_zone = _ref(tab, ref, RF_ZONE)
            if _ref(tab, ref, RF_EVENT) == E_ON_BREAK and (ability_zone in (zone, Z_FIELD)):
                _queue_trigger(row, _owner(tab, obj), obj, ref)


@njit(cache=True)
def _queue_event(row: Row, tab: Row, event: int, objects: Row, n: int) -> None:
    """`state._queue_event`: the `event` triggers of objects (D5.5); casters include their arms' grants."""
    for i in range(n):
        obj = objects[i]
        if obj == EMPTY or _is_dummy(tab, obj):
            continue
        area = row[AREA + obj]
        zone = Z_SPEEDZ if area == EMPTY else (Z_IDOL if area == IDOL_AREA else Z_BATTLE)
        cards = 1
        if _is_caster(tab, obj):
            zone = Z_FIELD
            if row[ARMS + obj] != EMPTY:
                cards = 2
        for c in range(cards):
            card = _inst(tab, obj if c == 0 else row[ARMS + obj], I_CARD)
            for k in range(_card(tab, card, C_N_TRIG)):
                ref = _card(tab, card, C_TRIG + k)
                ability_zone = _ref(tab, ref, RF_ZONE)
                if _ref(tab, ref, RF_EVENT) == event and (
                    ability_zone == zone or (ability_zone == Z_FIELD and zone != Z_SPEEDZ)
                ):
                    _queue_trigger(row, _owner(tab, obj), obj, ref)


@njit(cache=True)
def _queue_one(row: Row, tab: Row, event: int, obj: int) -> None:
    one = row[SCR_ONE : SCR_ONE + 1]
    one[0] = obj
    _queue_event(row, tab, event, one, 1)


@njit(cache=True)
def _everything(row: Row, p: int, out: Row, n: int) -> int:
    """`state._everything`: casters, units, then speed cards."""
    out[n] = row[CASTER + 2 * p]
    out[n + 1] = row[CASTER + 2 * p + 1]
    n = _units_of(row, p, out, n + 2)
    for i in range(_zlen(row, Z_SPEED, p)):
        out[n] = _zget(row, Z_SPEED, p, i)
        n += 1
    return n


@njit(cache=True)
def _god_draw(row: Row, p: int) -> None:
    """D17.1: the first normal burst to hand (R-D3)."""
    for i in range(_zlen(row, Z_BCHK, p)):
        if _zget(row, Z_BCHK, p, i) == 0:
            _zremove_at(row, Z_BCHK, p, i)
            _zpush(row, Z_HAND, p, _zremove_at(row, Z_BURST, p, i))
            return


@njit(cache=True)
def _finish(row: Row, winner: int, reason: int) -> None:
    row[WINNER] = winner
    row[DRAW] = 1 if winner < 0 else 0
    row[REASON] = reason
    row[PHASE] = PH_OVER
    row[SP] = 0
    row[NTRIG] = 0


@njit(cache=True)
def _game_end(row: Row) -> bool:
    """D21.1: both casters at 0 HP loses; both players at once is a draw."""
    if row[PHASE] == PH_SETUP:
        return False
    out0 = _hp_len(row, 0, 0) == 0 and _hp_len(row, 0, 1) == 0
    out1 = _hp_len(row, 1, 0) == 0 and _hp_len(row, 1, 1) == 0
    if not (out0 or out1):
        return False
    _finish(row, -1 if out0 and out1 else (1 if out0 else 0), 0)
    return True


@njit(cache=True)
def _end_attack(row: Row) -> None:
    row[NATT] = 0
    row[ATT_PLAYER] = EMPTY
    row[ATT_AREA] = EMPTY
    row[BLOCKER] = EMPTY
    row[ATT_MOD] = 0


@njit(cache=True)
def _n_blockers(row: Row, out: Row) -> int:
    """D10.6: units in the attacked area, then its caster if it has HP."""
    defender = 1 - row[ATT_PLAYER]
    area = row[ATT_AREA]
    n = 0
    for i in range(_n_units(row, defender, area)):
        out[n] = _unit(row, defender, area, i)
        n += 1
    if _hp_len(row, defender, area):
        out[n] = row[CASTER + 2 * defender + area]
        n += 1
    return n


@njit(cache=True)
def _hp_for_deck(row: Row, p: int, needed: int) -> int:
    """Rule library_out=every_use (D20.2): whether a deck use of `needed` cards takes an HP card first: -1 no
    (enough deck, or no HP left), else 0 or 1 (the only caster with HP) or 2 (both: the player picks). The caller
    schedules its own frame again, then `_hp_to_deck_step` (`frames.hp_for_deck`)."""
    if not row[LEN + 2 * Z_DECK + p] < needed:
        return -1
    a, b = _hp_len(row, p, 0) > 0, _hp_len(row, p, 1) > 0
    if a and b:
        return 2
    if a:
        return 0
    return 1 if b else -1


@njit(cache=True)
def _hp_to_deck_step(row: Row, p: int, where: int) -> None:
    """After the resumed frame is scheduled: the player's choice (both casters with HP), or the only HP card."""
    if where == 2:
        _push(row, D_HPDECK, p, 0, 0, 0)
    else:
        _hp_to_deck(row, p, where)


@njit(cache=True)
def _hp_to_deck(row: Row, p: int, area: int) -> None:
    """`frames.hp_to_deck`: the top HP card of `area` goes, closed, under the deck."""
    row[NHP + 2 * p + area] -= 1
    card = row[HPS + (2 * p + area) * PER_PLAYER + row[NHP + 2 * p + area]]
    base = _zbase(Z_DECK, p)
    n = row[LEN + 2 * Z_DECK + p]
    for i in range(n, 0, -1):
        row[base + i] = row[base + i - 1]
    row[base] = card
    row[LEN + 2 * Z_DECK + p] = n + 1


@njit(cache=True)
def _can_reveal(row: Row, tab: Row, p: int) -> bool:
    """D6.6: a deck card, or (rule library_out=every_use) an HP card standing in for it."""
    if _zlen(row, Z_DECK, p):
        return True
    return tab[R_EVERY_USE] != 0 and (_hp_len(row, p, 0) > 0 or _hp_len(row, p, 1) > 0)


@njit(cache=True)
def _reveal(row: Row, p: int) -> bool:
    """D6.1."""
    if _zlen(row, Z_DECK, p) == 0:
        return False
    _zpush(row, Z_SPEED, p, _zpop(row, Z_DECK, p))
    return True


@njit(cache=True)
def _distinct_discard(row: Row, tab: Row, p: int) -> int:
    """How many card ids the discard holds (up to 2: `frames._f_material` asks only whether over one)."""
    n = _zlen(row, Z_DISC, p)
    if n == 0:
        return 0
    card = _inst(tab, _zget(row, Z_DISC, p, 0), I_CARD)
    for i in range(1, n):
        if _inst(tab, _zget(row, Z_DISC, p, i), I_CARD) != card:
            return 2
    return 1


@njit(cache=True)
def _add_material(row: Row, p: int, host: int, kind: int, card: int, secret: int) -> None:
    """`frames.add_material`: an engrave (D16.1; a fourth asks for a scrap, D16.3) or an enchant (D14.2)."""
    if kind == ENGRAVE:
        _zpush(row, Z_ENGR, p, card)
        _zpush(row, Z_ECHK, p, 0)
        if _zlen(row, Z_ENGR, p) > MAX_ENGRAVES:
            _push(row, D_SCRAP, p, 0, 0, 0)
        return
    n = row[NENCH + host]
    if n >= ENCH_CAP:
        _overflow(row)
        return
    row[ENCH + host * ENCH_CAP + n] = card + 256 * (kind + 1) + 1024 * p + SECRET * secret
    row[NENCH + host] = n + 1


@njit(cache=True)
def _start_trigger(row: Row, index: int, frame: Row) -> None:
    """Take trigger `index` off the queue and choose its targets (D5.5)."""
    base = TRIG + 3 * index
    controller, source, ref = row[base], row[base + 1], row[base + 2]
    n = row[NTRIG]
    for i in range(3 * index, 3 * (n - 1)):
        row[TRIG + i] = row[TRIG + i + 3]
    row[NTRIG] = n - 1
    _new_play(frame, controller, PK_TRIGGER, EMPTY, source, ref, 0, 0, 0)
    _push_copy(row, F_TARGETS, frame)


@njit(cache=True)
def _trigger_choices(row: Row, tab: Row, player: int, out: Row) -> int:
    """`frames.trigger_choices`: queue indices of `player`'s triggers, one per (source card, ability)."""
    n = 0
    for i in range(row[NTRIG]):
        if row[TRIG + 3 * i] != player:
            continue
        card = _inst(tab, row[TRIG + 3 * i + 1], I_CARD)
        ref = row[TRIG + 3 * i + 2]
        seen = False
        for j in range(n):
            k = out[j]
            if _inst(tab, row[TRIG + 3 * k + 1], I_CARD) == card and row[TRIG + 3 * k + 2] == ref:
                seen = True
                break
        if not seen:
            out[n] = i
            n += 1
    return n


# -- effects (`frames.EFFECTS`): one helper per effect, `(row, tab, frame, eff, obj)` as `(s, play, effect, obj)` --


@njit(cache=True)
def _e_damage(row: Row, tab: Row, frame: Row, eff: int, obj: int) -> None:
    """D13.2: one instance, less shields, against current BP; damage is never kept."""
    if max(0, _eff(tab, eff, EF_NUM) - _shields(row, tab, obj)) >= _bp(row, tab, obj):
        _break(row, tab, obj)


@njit(cache=True)
def _e_enchant(row: Row, tab: Row, frame: Row, eff: int, obj: int) -> None:
    """D14.2: boosts or weakens, one material at a time."""
    _push(row, F_MATERIAL, frame[1], obj, _eff(tab, eff, EF_KIND), _eff(tab, eff, EF_NUM))


@njit(cache=True)
def _e_bp_mod(row: Row, tab: Row, frame: Row, eff: int, obj: int) -> None:
    """D13.1: a BP change, until end of turn (D11.5)."""
    row[BPMOD + obj] += _eff(tab, eff, EF_NUM)


@njit(cache=True)
def _e_attack_mod(row: Row, tab: Row, frame: Row, eff: int, obj: int) -> None:
    """D10.7: only while an attack is in progress."""
    if row[ATT_PLAYER] != EMPTY:
        row[ATT_MOD] += _eff(tab, eff, EF_NUM)


@njit(cache=True)
def _e_draw(row: Row, tab: Row, frame: Row, eff: int, obj: int) -> None:
    """One `draw1` frame per card, so an empty deck draws HP (D20.1)."""
    for _ in range(_eff(tab, eff, EF_NUM)):
        _push(row, F_DRAW1, frame[1], 0, 0, 0)


@njit(cache=True)
def _e_burst(row: Row, tab: Row, frame: Row, eff: int, obj: int) -> None:
    """Deck tops to the burst area; none from an empty deck (D20.2)."""
    for _ in range(_eff(tab, eff, EF_NUM)):
        _deck_to_burst(row, frame[1])


@njit(cache=True)
def _e_engrave(row: Row, tab: Row, frame: Row, eff: int, obj: int) -> None:
    """D16.1: engraves, one material at a time."""
    _push(row, F_MATERIAL, frame[1], EMPTY, ENGRAVE, _eff(tab, eff, EF_NUM))


@njit(cache=True)
def _e_normalize(row: Row, tab: Row, frame: Row, eff: int, obj: int) -> None:
    """D0.3."""
    row[CHK + obj] = 0


@njit(cache=True)
def _e_check(row: Row, tab: Row, frame: Row, eff: int, obj: int) -> None:
    """D0.3."""
    row[CHK + obj] = 1


@njit(cache=True)
def _e_break(row: Row, tab: Row, frame: Row, eff: int, obj: int) -> None:
    """D13.3."""
    _break(row, tab, obj)


@njit(cache=True)
def _e_bounce(row: Row, tab: Row, frame: Row, eff: int, obj: int) -> None:
    """D15.2: to the owner's hand (a dummy's real card too; an open unit stays known there)."""
    owner = _owner(tab, obj)
    known = not _is_dummy(tab, obj) or row[DKNOWN + obj - tab[N_INST]] == 1
    card = _leave_field(row, tab, obj)
    _zpush(row, Z_HAND, owner, card)
    if known:
        row[KNOWN + card] += 1


@njit(cache=True)
def _e_move(row: Row, tab: Row, frame: Row, eff: int, obj: int) -> None:
    """To the owner's other battle area if it fits; a unit in the idol area stays (R-D7)."""
    area = row[AREA + obj]
    owner = _owner(tab, obj)
    if area == IDOL_AREA or not _fits(row, tab, owner, 1 - area, _weight(tab, obj)):
        return
    _remove_unit(row, owner, area, obj)
    _place(row, obj, owner, 1 - area)


@njit(cache=True)
def _e_hp_break(row: Row, tab: Row, frame: Row, eff: int, obj: int) -> None:
    """D13.4."""
    _lose_hp(row, tab, obj, _eff(tab, eff, EF_NUM))


@njit(cache=True)
def _e_hp_gain(row: Row, tab: Row, frame: Row, eff: int, obj: int) -> None:
    """D13.6: top deck cards under the caster, no upper limit; an empty deck gives nothing (D20.2)."""
    owner = _owner(tab, obj)
    for _ in range(_eff(tab, eff, EF_NUM)):
        _deck_to_hp(row, owner, row[AREA + obj])


@njit(cache=True)
def _e_shield(row: Row, tab: Row, frame: Row, eff: int, obj: int) -> None:
    """D13.2: shields until end of turn."""
    row[SHIELD + obj] += _eff(tab, eff, EF_NUM)


@njit(cache=True)
def _e_speed_shift(row: Row, tab: Row, frame: Row, eff: int, obj: int) -> None:
    """D6.2: the player's speed this turn."""
    row[SHIFT + frame[1]] += _eff(tab, eff, EF_NUM)


@njit(cache=True)
def _e_cost_reduce(row: Row, tab: Row, frame: Row, eff: int, obj: int) -> None:
    """D18.3: taken off the code being paid (`_f_pay_log`)."""
    row[COST_RED] += _eff(tab, eff, EF_NUM)


@njit(cache=True)
def _e_attach(row: Row, tab: Row, frame: Row, eff: int, obj: int) -> None:
    """D14.5: the code becomes an open enchant on its target instead of going to the discard."""
    p = frame[1]
    card = frame[P_CARD]
    if card != EMPTY and _zfind(row, Z_LIMBO, p, card) >= 0:
        n = row[NATTC + obj]
        if n >= ATTC_CAP:
            _overflow(row)
            return
        _zremove(row, Z_LIMBO, p, card)
        row[ATTC + obj * ATTC_CAP + n] = card
        row[NATTC + obj] = n + 1
        row[N_ATTACHED] += 1


@njit(cache=True)
def _do_effect(row: Row, tab: Row, frame: Row, eff: int, obj: int) -> None:
    """D22.2: one effect of the play in `frame` on `obj` (EMPTY for an effect without a target): `frames.EFFECTS`."""
    name = _eff(tab, eff, EF_NAME)
    if name == EF_DAMAGE:
        _e_damage(row, tab, frame, eff, obj)
    elif name == EF_ENCHANT:
        _e_enchant(row, tab, frame, eff, obj)
    elif name == EF_BP_MOD:
        _e_bp_mod(row, tab, frame, eff, obj)
    elif name == EF_ATTACK_MOD:
        _e_attack_mod(row, tab, frame, eff, obj)
    elif name == EF_DRAW:
        _e_draw(row, tab, frame, eff, obj)
    elif name == EF_BURST:
        _e_burst(row, tab, frame, eff, obj)
    elif name == EF_ENGRAVE:
        _e_engrave(row, tab, frame, eff, obj)
    elif name == EF_NORMALIZE:
        _e_normalize(row, tab, frame, eff, obj)
    elif name == EF_CHECK:
        _e_check(row, tab, frame, eff, obj)
    elif name == EF_BREAK:
        _e_break(row, tab, frame, eff, obj)
    elif name == EF_BOUNCE:
        _e_bounce(row, tab, frame, eff, obj)
    elif name == EF_MOVE:
        _e_move(row, tab, frame, eff, obj)
    elif name == EF_HP_BREAK:
        _e_hp_break(row, tab, frame, eff, obj)
    elif name == EF_HP_GAIN:
        _e_hp_gain(row, tab, frame, eff, obj)
    elif name == EF_SHIELD:
        _e_shield(row, tab, frame, eff, obj)
    elif name == EF_SPEED_SHIFT:
        _e_speed_shift(row, tab, frame, eff, obj)
    elif name == EF_COST_REDUCE:
        _e_cost_reduce(row, tab, frame, eff, obj)
    elif name == EF_ATTACH:
        _e_attach(row, tab, frame, eff, obj)


# -- automatic frames (`frames.AUTO`): one helper per frame, named as the reference's ------------------------


@njit(cache=True, inline="always")
def _auto_scratch(row: Row) -> Row:
    """The automatic frames' working list (`SCR_AUTO`): objects of both players, or trigger indices."""
    return row[SCR_AUTO : SCR_AUTO + 2 * (7 + PER_PLAYER)]


@njit(cache=True)
def _deck_to_hp(row: Row, p: int, area: int) -> None:
    """The deck's top card under the caster of `area` (D4.3, D13.6); none from an empty deck (D20.2)."""
    if _zlen(row, Z_DECK, p):
        at = NHP + 2 * p + area
        row[HPS + (2 * p + area) * PER_PLAYER + row[at]] = _zpop(row, Z_DECK, p)
        row[at] += 1


@njit(cache=True)
def _hp_for_decks(row: Row, tab: Row, needed: int, resume: int, data: int) -> bool:
    """Rule library_out=every_use (D20.2) for a deck use of both players in turn order: True if one of them first
    puts an HP card under their deck (`frames.hp_for_deck`), the frame `(resume, data)` scheduled to run it again."""
    if not tab[R_EVERY_USE]:
        return False
    first = _order_first(row)
    for p in (first, 1 - first):
        where = _hp_for_deck(row, p, needed)
        if where >= 0:
            _push(row, resume, data, 0, 0, 0)
            _hp_to_deck_step(row, p, where)
            return True
    return False


@njit(cache=True)
def _f_setup(row: Row, tab: Row) -> None:
    """D4.1 (casters opened together), D4.3 HP, D4.4 first burst, D4.5 hand; then the mulligans (D4.6)."""
    for p in range(2):
        for area in range(2):
            caster = _zget(row, Z_PLACED, p, area)
            row[CASTER + 2 * p + area] = caster
            row[AREA + caster] = area
            for _ in range(_inst(tab, caster, I_HP)):
                _deck_to_hp(row, p, area)
        row[LEN + 2 * Z_PLACED + p] = 0
        _deck_to_burst(row, p)
        for _ in range(OPENING_HAND):
            _draw_card(row, p)
    _push(row, F_MULL_DONE, 0, 0, 0, 0)
    _push(row, D_MULL, 1, 0, 0, 0)
    _push(row, D_MULL, 0, 0, 0, 0)


@njit(cache=True)
def _shuffle_deck(row: Row, p: int, rng: npt.NDArray[np.uint64]) -> None:
    """R-VD1: from the kernel's stream, or in the order the lock-step test handed over (`force_shuffle`)."""
    deck = _zlen(row, Z_DECK, p)
    if row[FORCE_N + p] == deck:
        row[_zbase(Z_DECK, p) : _zbase(Z_DECK, p) + deck] = row[FORCE + p * PER_PLAYER : FORCE + p * PER_PLAYER + deck]
        row[FORCE_N + p] = 0
    else:
        _shuffle(row, _zbase(Z_DECK, p), deck, rng)


@njit(cache=True)
def _f_mull_done(row: Row, tab: Row, rng: npt.NDArray[np.uint64]) -> None:
    """D4.6: the set-aside cards go to the discard (rule mulligan_to=deck: shuffled back into the deck, R-VD1)
    and as many are drawn, then turn 1."""
    _push(row, F_TURN, 0, 0, 0, 0)
    for p in range(1, -1, -1):
        for _ in range(_zlen(row, Z_MULL, p)):
            _push(row, F_DRAW1, p, 0, 0, 0)
    for p in range(2):
        n = _zlen(row, Z_MULL, p)
        zone = Z_DECK if tab[R_MULLIGAN_TO_DECK] and n else Z_DISC
        for i in range(n):
            _zpush(row, zone, p, _zget(row, Z_MULL, p, i))
        row[LEN + 2 * Z_MULL + p] = 0
        if zone == Z_DECK:
            _shuffle_deck(row, p, rng)


@njit(cache=True)
def _f_turn(row: Row) -> None:
    """D11.6: a new turn, F undecided, no speed shift (D6.2) or gear change (D6.3) yet; then its phases."""
    row[TURN] += 1
    row[FIRST] = EMPTY
    row[SHIFT] = row[SHIFT + 1] = 0
    row[GEARED] = row[GEARED + 1] = 0
    for k in (F_TURN, F_END_PHASE, F_ACTION_PHASE, F_FAST_PHASE, F_CAST_PHASE, F_DRAW_PHASE, F_SPEED_PHASE):
        _push(row, k, 0, 0, 0, 0)


@njit(cache=True)
def _f_speed_phase(row: Row, tab: Row) -> None:
    """D6.1: the speed phase opens with both reveals."""
    row[PHASE] = PH_SPEED
    _f_reveals(row, tab)


@njit(cache=True)
def _f_reveals(row: Row, tab: Row) -> None:
    """D6.1: both players reveal (under rule library_out=every_use an empty deck first takes an HP card)."""
    if _hp_for_decks(row, tab, 1, F_REVEALS, 0):
        return
    first = _order_first(row)
    for p in (first, 1 - first):
        if _reveal(row, p):
            _queue_one(row, tab, E_ON_SPEED_REVEAL, _zget(row, Z_SPEED, p, _zlen(row, Z_SPEED, p) - 1))
    _push(row, F_SPEED_WINDOWS, 0, 0, 0, 0)
    _push(row, F_SETTLE, 0, 0, 0, 0)


@njit(cache=True)
def _f_speed_windows(row: Row, tab: Row) -> None:
    """D6.2-D6.4: the faster player (token holder on a tie) acts first."""
    s0, s1 = _current_speed(row, tab, 0), _current_speed(row, tab, 1)
    faster = row[TOKEN] if s0 == s1 else (0 if s0 > s1 else 1)
    _push(row, F_DECIDE, 0, 0, 0, 0)
    _push(row, D_WIN, 1 - faster, W_SPEED, 0, 0)
    _push(row, D_WIN, faster, W_SPEED, 0, 0)


@njit(cache=True)
def _f_decide(row: Row, tab: Row) -> None:
    """D6.5: closed speed cards open; their reveal triggers resolve before the comparison."""
    first = _order_first(row)
    for p in (first, 1 - first):
        if _zlen(row, Z_GEAR, p):
            card = _zpop(row, Z_GEAR, p)
            _zpush(row, Z_SPEED, p, card)
            _queue_one(row, tab, E_ON_SPEED_REVEAL, card)
    _push(row, F_COMPARE, 0, 0, 0, 0)
    _push(row, F_SETTLE, 0, 0, 0, 0)


@njit(cache=True)
def _f_compare(row: Row, tab: Row, reveals: int) -> None:
    """D6.5-D6.6: higher speed is F; ties re-reveal up to three times (rule tie_reveals), then the token decides."""
    s0, s1 = _current_speed(row, tab, 0), _current_speed(row, tab, 1)
    if s0 != s1:
        row[FIRST] = 0 if s0 > s1 else 1
    elif reveals < tab[R_TIE_REVEALS] and _can_reveal(row, tab, 0) and _can_reveal(row, tab, 1):
        if _hp_for_decks(row, tab, 1, F_COMPARE, reveals):
            return
        first = _order_first(row)
        for p in (first, 1 - first):
            _reveal(row, p)
            _queue_one(row, tab, E_ON_SPEED_REVEAL, _zget(row, Z_SPEED, p, _zlen(row, Z_SPEED, p) - 1))
        _push(row, F_COMPARE, reveals + 1, 0, 0, 0)
        _push(row, F_SETTLE, 0, 0, 0, 0)
    else:
        row[FIRST] = row[TOKEN]


@njit(cache=True)
def _f_draw_phase(row: Row, tab: Row) -> None:
    """D7.1: F draws 1 and S draws 2 as one step (rule draw_counts); D7.2: one burst each from the deck."""
    row[PHASE] = PH_DRAW
    first = _order_first(row)
    _push(row, F_DRAW_BURSTS, 0, 0, 0, 0)
    for _ in range(tab[R_S_DRAWS]):
        _push(row, F_DRAW1, 1 - first, 0, 0, 0)
    for _ in range(tab[R_F_DRAWS]):
        _push(row, F_DRAW1, first, 0, 0, 0)


@njit(cache=True)
def _f_draw_bursts(row: Row, tab: Row) -> None:
    """D7.2: one burst each from the deck (rule draw_bursts), none from an empty deck (D20.2)."""
    if _hp_for_decks(row, tab, tab[R_DRAW_BURSTS], F_DRAW_BURSTS, 0):
        return
    first = _order_first(row)
    for p in (first, 1 - first):
        for _ in range(tab[R_DRAW_BURSTS]):
            _deck_to_burst(row, p)
    _push(row, F_SETTLE, 0, 0, 0, 0)


@njit(cache=True)
def _f_draw1(row: Row, p: int) -> None:
    """D20.1, D20.3: an empty deck draws an HP card instead (the player picks the caster)."""
    if _draw_card(row, p):
        return
    a, b = _hp_len(row, p, 0) > 0, _hp_len(row, p, 1) > 0
    if a and b:
        _push(row, D_HPDRAW, p, 0, 0, 0)
    elif a:
        _take_hp(row, p, 0)
    elif b:
        _take_hp(row, p, 1)


@njit(cache=True)
def _f_cast_phase(row: Row) -> None:
    """D8.1: F's upkeep and cast actions, then S's."""
    row[PHASE] = PH_CAST
    row[NMOVED] = 0
    first = _order_first(row)
    _push(row, D_WIN, 1 - first, W_CAST, 0, 0)
    _push(row, F_UPKEEP, 1 - first, 0, 0, 0)
    _push(row, D_WIN, first, W_CAST, 0, 0)
    _push(row, F_UPKEEP, first, 0, 0, 0)


@njit(cache=True)
def _f_upkeep(row: Row, tab: Row, p: int) -> None:
    """D19.4: every idol in a battle area is paid for or checked, one decision each."""
    for area in range(1, -1, -1):
        for i in range(_n_units(row, p, area) - 1, -1, -1):
            u = _unit(row, p, area, i)
            if not _is_dummy(tab, u) and _inst(tab, u, I_TYPE) == T_IDOL:
                _push(row, D_UPKEEP_IDOL, p, u, 0, 0)


@njit(cache=True)
def _f_fast_phase(row: Row) -> None:
    """D9.1: F's fast window, then S's."""
    row[PHASE] = PH_FAST
    first = _order_first(row)
    _push(row, D_WIN, 1 - first, W_FAST, 0, 0)
    _push(row, D_WIN, first, W_FAST, 0, 0)


@njit(cache=True)
def _f_action_phase(row: Row, tab: Row) -> None:
    """D10.1: start_of_action_phase triggers (F's first), then F's first action turn."""
    row[PHASE] = PH_ACTION
    first = _order_first(row)
    scratch = _auto_scratch(row)
    n = _everything(row, 1 - first, scratch, _everything(row, first, scratch, 0))
    _queue_event(row, tab, E_START_OF_ACTION, scratch, n)
    _push(row, D_ATURN, first, 0, 0, 0)
    _push(row, F_SETTLE, 0, 0, 0, 0)


@njit(cache=True)
def _f_end_phase(row: Row, tab: Row) -> None:
    """D11.1 end_of_turn triggers, D11.2 hand limits, then cleanup."""
    row[PHASE] = PH_END
    first = _order_first(row)
    scratch = _auto_scratch(row)
    n = _everything(row, 1 - first, scratch, _everything(row, first, scratch, 0))
    _queue_event(row, tab, E_END_OF_TURN, scratch, n)
    _push(row, F_CLEANUP, 0, 0, 0, 0)
    _push(row, F_HAND_LIMIT, 1 - first, 0, 0, 0)
    _push(row, F_HAND_LIMIT, first, 0, 0, 0)
    _push(row, F_SETTLE, 0, 0, 0, 0)


@njit(cache=True)
def _f_hand_limit(row: Row, p: int) -> None:
    """D11.2: one discard at a time while over the limit."""
    if _zlen(row, Z_HAND, p) > HAND_LIMIT:
        _push(row, F_HAND_LIMIT, p, 0, 0, 0)
        _push(row, D_LIMIT, p, 0, 0, 0)


@njit(cache=True)
def _cleanup_engraves(row: Row, p: int) -> None:
    """D16.4: checked engraves go to the discard; the rest stay, normal."""
    kept = 0
    for i in range(_zlen(row, Z_ENGR, p)):
        card = _zget(row, Z_ENGR, p, i)
        if _zget(row, Z_ECHK, p, i):
            _zpush(row, Z_DISC, p, card)
        else:
            row[_zbase(Z_ENGR, p) + kept] = card
            kept += 1
    row[LEN + 2 * Z_ENGR + p] = kept
    row[LEN + 2 * Z_ECHK + p] = kept
    row[_zbase(Z_ECHK, p) : _zbase(Z_ECHK, p) + kept] = 0


@njit(cache=True)
def _cleanup_player(row: Row, tab: Row, p: int) -> None:
    """D11.3 one player's cleanup: speed cards, arms and enchants (D14.4), dummies (D15.3), checked engraves
    (D16.4); then D11.4 refresh."""
    scratch = _auto_scratch(row)
    for i in range(_zlen(row, Z_SPEED, p)):
        _zpush(row, Z_DISC, p, _zget(row, Z_SPEED, p, i))
    row[LEN + 2 * Z_SPEED + p] = 0
    for area in range(2):
        caster = row[CASTER + 2 * p + area]
        if row[ARMS + caster] != EMPTY:
            _to_discard(row, tab, row[ARMS + caster])
            row[ARMS + caster] = EMPTY
    for i in range(_units_of(row, p, scratch, 0)):
        if _is_dummy(tab, scratch[i]):
            _to_discard(row, tab, _leave_field(row, tab, scratch[i]))
        else:
            _drop_enchants(row, tab, scratch[i])
    _cleanup_engraves(row, p)
    for i in range(_zlen(row, Z_BCHK, p)):
        row[_zbase(Z_BCHK, p) + i] = 0
    row[CHK + row[CASTER + 2 * p]] = 0
    row[CHK + row[CASTER + 2 * p + 1]] = 0
    for i in range(_units_of(row, p, scratch, 0)):
        row[CHK + scratch[i]] = 0


@njit(cache=True)
def _f_cleanup(row: Row, tab: Row) -> None:
    """D11.3 cleanup, D11.4 refresh, D11.5 end of turn effects, D11.6 token (D6.7) and turn cap (D21.3)."""
    for p in range(2):
        _cleanup_player(row, tab, p)
    row[BPMOD : BPMOD + MAX_INSTANCES] = 0
    row[SHIELD : SHIELD + MAX_INSTANCES] = 0
    row[SHIFT] = row[SHIFT + 1] = 0
    if row[FIRST] != EMPTY:  # D6.7: to this turn's S (rule token_to=first: to F)
        row[TOKEN] = row[FIRST] if tab[R_TOKEN_TO_FIRST] else 1 - row[FIRST]
    if row[TURN] >= TURN_CAP:
        _finish(row, -1, 1)


@njit(cache=True)
def _break_doomed(row: Row, tab: Row) -> None:
    """D5.6: units at BP <= 0 break together, until none is left (statics only ever add BP unless the card set
    has a negative one, so base BP > 0 is enough then)."""
    exact = tab[R_NEGATIVE_STATICS]
    scratch = _auto_scratch(row)
    while True:
        n = _units_of(row, 1, scratch, _units_of(row, 0, scratch, 0))
        doomed = 0
        for i in range(n):
            u = scratch[i]
            if (exact or _base_bp(row, tab, u) <= 0) and _bp(row, tab, u) <= 0:
                scratch[doomed] = u
                doomed += 1
        if doomed == 0:
            return
        for i in range(doomed):
            if _on_field(row, scratch[i]):
                _break(row, tab, scratch[i])


@njit(cache=True)
def _f_settle(row: Row, tab: Row) -> None:
    """D5.6 rule check: break units at BP <= 0, trim engraves (D16.3), check the end (D21.1); then triggers (D5.5)."""
    _break_doomed(row, tab)
    first = _order_first(row)
    for p in (first, 1 - first):
        if _zlen(row, Z_ENGR, p) > MAX_ENGRAVES:
            _push(row, F_SETTLE, 0, 0, 0, 0)
            _push(row, D_SCRAP, p, 0, 0, 0)
            return
    if _game_end(row):
        return
    if row[NTRIG]:
        _push(row, F_SETTLE, 0, 0, 0, 0)
        _push(row, F_NEXT_TRIGGER, 0, 0, 0, 0)


@njit(cache=True)
def _f_next_trigger(row: Row, tab: Row, frame: Row) -> None:
    """D5.5: F's triggers first, in the order F picks, then S's (rule trigger_order=second: S's first)."""
    first = _order_first(row)
    if tab[R_SECOND_TRIGGERS_FIRST]:
        first = 1 - first
    player = 1 - first
    for i in range(row[NTRIG]):
        if row[TRIG + 3 * i] == first:
            player = first
            break
    scratch = _auto_scratch(row)
    n = _trigger_choices(row, tab, player, scratch)
    if n > 1:
        _push(row, D_ORDER, player, 0, 0, 0)
    else:
        _start_trigger(row, scratch[0], frame)


@njit(cache=True)
def _f_targets(row: Row, tab: Row, frame: Row) -> None:
    """D5.3, D5.3a: each single-target selector in turn; one candidate of self/bearer/blocker (or none) is taken,
    the rest are chosen; then a trigger resolves and anything else is paid for."""
    ref = frame[P_REF]
    nt = frame[P_NT]
    if nt == _ref(tab, ref, RF_N_SINGLE):
        _push_copy(row, F_RESOLVE if frame[P_KIND] == PK_TRIGGER else F_PAY, frame)
        return
    sel = _single_selector(tab, ref, nt)
    scratch = _auto_scratch(row)
    n = _candidates(row, tab, sel, frame[1], frame[P_SOURCE], scratch, True)
    if _sel(tab, sel, 0) in (S_SELF, S_BEARER, S_BLOCKER) or n == 0:
        frame[P_T + nt] = EMPTY if n == 0 else scratch[0]
        frame[P_NT] = nt + 1
        _push_copy(row, F_TARGETS, frame)
    else:
        _push_copy(row, D_TARGET, frame)


@njit(cache=True)
def _extra_engrave(tab: Row, frame: Row) -> int:
    """D12.3: the engraves a play's cost checks (an ability's, a sub-effect's, else the played card's)."""
    pkind = frame[P_KIND]
    if pkind == PK_ABILITY:
        return _ref(tab, frame[P_REF], RF_ENGRAVE)
    if pkind == PK_SUB:
        return _icard(tab, frame[P_CARD], C_SUB_ENGRAVE)
    if pkind in (PK_CODE, PK_ARMS, PK_UNIT, PK_IDOL):
        return _inst(tab, frame[P_CARD], I_ENGRAVE)
    return 0


@njit(cache=True)
def _f_pay(row: Row, tab: Row, frame: Row) -> None:
    """D12.3: check the source and the engraves, then discards, then log."""
    if frame[P_KIND] == PK_ABILITY and _ref(tab, frame[P_REF], RF_CHECK_SELF):
        row[CHK + frame[P_SOURCE]] = 1
    engrave = _extra_engrave(tab, frame)
    if engrave:
        _check_first(row, Z_ECHK, frame[1], engrave)
    _push_copy(row, D_PAY_DISCARD if frame[P_DISCARD] else F_PAY_LOG, frame)


@njit(cache=True)
def _f_pay_log(row: Row, frame: Row) -> None:
    """D12.1: the log cost, less a pending cost_reduce (D22.2, D18.3), one source at a time."""
    log = frame[P_LOG]
    if row[COST_RED]:
        log = max(0, log - row[COST_RED])
        row[COST_RED] = 0
    if log:
        frame[P_LOG] = log
        _push_copy(row, D_PAY_SRC, frame)
    else:
        _push_copy(row, F_PAID, frame)
        _push(row, F_SETTLE, 0, 0, 0, 0)


@njit(cache=True)
def _enter(row: Row, tab: Row, frame: Row) -> None:
    """D8.2(1), D19.1: the cast card enters open and normal; its on_cast triggers resolve."""
    p = frame[1]
    _zremove(row, Z_LIMBO, p, frame[P_CARD])
    _place(row, frame[P_CARD], p, frame[P_DEST])
    _queue_one(row, tab, E_ON_CAST, frame[P_CARD])
    _push(row, F_SETTLE, 0, 0, 0, 0)


@njit(cache=True)
def _f_paid(row: Row, tab: Row, frame: Row) -> None:
    """Paid for: a unit enters, an arms is equipped (D2.8), an action waits for the reaction window (D10.4: the
    other player first; rule reaction_first=actor: the actor), anything else resolves."""
    p = frame[1]
    pkind = frame[P_KIND]
    if pkind in (PK_UNIT, PK_IDOL):
        _enter(row, tab, frame)
    elif pkind == PK_ARMS:
        _zremove(row, Z_LIMBO, p, frame[P_CARD])
        row[ARMS + frame[P_T]] = frame[P_CARD]
    elif frame[P_ACTION]:
        _push_copy(row, F_RESOLVE, frame)
        _push(row, D_REACT, p if tab[R_ACTOR_REACTS_FIRST] else 1 - p, 0, 0, 0)
    elif pkind != PK_UPKEEP:
        top = STACK + (row[SP] - 1) * FW
        if tab[R_REACTION_STACK] and row[SP] > 0 and row[top] == D_REACT:
            # rule reactions=stack (R-VD4): a reaction waits below the window, on the ones played before it
            saved = row[top : top + FW].copy()
            row[SP] -= 1
            _push_copy(row, F_RESOLVE, frame)
            _push_copy(row, D_REACT, saved)
        else:
            _push_copy(row, F_RESOLVE, frame)


@njit(cache=True)
def _f_resolve(row: Row, tab: Row, frame: Row) -> None:
    """D22.2: the play's effects in order, then its card's fate, then a rule check."""
    _push(row, F_SETTLE, 0, 0, 0, 0)
    _push_copy(row, F_FINISH, frame)
    for i in range(_ref(tab, frame[P_REF], RF_N_EFF) - 1, -1, -1):
        frame[P_INDEX] = i
        _push_copy(row, F_EFFECT, frame)


@njit(cache=True)
def _f_finish(row: Row, tab: Row, frame: Row) -> None:
    """A played code goes to the discard unless attached (D2.7); a used sub's card too (D18.2)."""
    card = frame[P_CARD]
    if card != EMPTY and _zfind(row, Z_LIMBO, frame[1], card) >= 0:
        _zremove(row, Z_LIMBO, frame[1], card)
        _to_discard(row, tab, card)


@njit(cache=True)
def _target_of(tab: Row, frame: Row) -> int:
    """The object chosen for effect `P_INDEX` (a group's objects are found at resolution)."""
    ref = frame[P_REF]
    j = 0
    for i in range(frame[P_INDEX]):
        s = _eff(tab, _ref(tab, ref, RF_EFF + i), EF_SEL)
        if s >= 0 and not _is_group(tab, s):
            j += 1
    return frame[P_T + j]


@njit(cache=True)
def _f_effect(row: Row, tab: Row, frame: Row) -> None:
    """D22.2: one effect; a target no longer legal is skipped (D5.3)."""
    eff = _ref(tab, frame[P_REF], RF_EFF + frame[P_INDEX])
    name = _eff(tab, eff, EF_NAME)
    if tab[R_EVERY_USE] and name in (EF_BURST, EF_HP_GAIN):  # rule library_out=every_use (D20.2)
        where = _hp_for_deck(row, frame[1], _eff(tab, eff, EF_NUM))
        if where >= 0:
            _push_copy(row, F_EFFECT, frame)
            _hp_to_deck_step(row, frame[1], where)
            return
    sel = _eff(tab, eff, EF_SEL)
    if sel < 0:
        _do_effect(row, tab, frame, eff, EMPTY)
        return
    targets = row[SCR_EF : SCR_EF + 16]
    if _is_group(tab, sel):
        n = _candidates(row, tab, sel, frame[1], frame[P_SOURCE], targets, True)
    else:  # bp filters were read when the target was chosen (D22.6); the rest must still hold (D5.3)
        target = _target_of(tab, frame)
        n = 0
        if target != EMPTY:
            found = row[SCR_EF + 16 : SCR_EF + 32]
            for i in range(_candidates(row, tab, sel, frame[1], frame[P_SOURCE], found, False)):
                if found[i] == target:
                    targets[0] = target
                    n = 1
                    break
    for i in range(n):
        _do_effect(row, tab, frame, eff, targets[i])


@njit(cache=True)
def _f_material(row: Row, tab: Row, p: int, host: int, mkind: int, count: int) -> None:
    """D14.2, D16.1: each enchant or engrave takes a card of the player's discard (their pick among distinct ids),
    else the deck top; an enchant whose host has left the field is not made."""
    if count <= 0 or (mkind != ENGRAVE and not _on_field(row, host)):
        return
    if _distinct_discard(row, tab, p) > 1:
        _push(row, F_MATERIAL, p, host, mkind, count - 1)
        _push(row, D_PICK, p, host, mkind, 0)
        return
    secret = 0
    if _zlen(row, Z_DISC, p):
        card = _zpop(row, Z_DISC, p)
    elif _zlen(row, Z_DECK, p):
        card = _zpop(row, Z_DECK, p)
        secret = 1 if mkind != ENGRAVE else 0  # a closed enchant nobody has seen
    else:
        where = _hp_for_deck(row, p, 1) if tab[R_EVERY_USE] else -1
        if where >= 0:  # rule library_out=every_use: an HP card stands in for the deck's top card
            _push(row, F_MATERIAL, p, host, mkind, count)
            _hp_to_deck_step(row, p, where)
        return  # D14.2: nothing to make it from
    _push(row, F_MATERIAL, p, host, mkind, count - 1)
    _add_material(row, p, host, mkind, card, secret)


@njit(cache=True)
def _f_block_step(row: Row) -> None:
    """D10.6: no legal blocker left after on_attack triggers ends the attack without damage."""
    if _n_blockers(row, _auto_scratch(row)):
        _push(row, D_BLOCK, 1 - row[ATT_PLAYER], 0, 0, 0)
    else:
        _end_attack(row)


@njit(cache=True)
def _f_attack_damage(row: Row, tab: Row) -> None:
    """D10.7 attack damage, D10.8 attack bonus. Rule blocker=rechosen: a blocker that left is chosen again (R-VD5)."""
    blocker, area, defender = row[BLOCKER], row[ATT_AREA], 1 - row[ATT_PLAYER]
    attackers = row[NATT]  # attackers that left are gone from the list (`_leave_field`)
    left = blocker == EMPTY or not _on_field(row, blocker) or row[AREA + blocker] != area
    if attackers and left and tab[R_BLOCKER_RECHOSEN] and _n_blockers(row, _auto_scratch(row)):
        row[BLOCKER] = EMPTY
        _push(row, D_BLOCK, defender, 0, 0, 0)
        return
    if attackers and not left:
        damage = row[ATT_MOD]
        for i in range(attackers):
            damage += _bp(row, tab, row[ATTACKERS + i])
        dealt = max(0, max(0, damage) - _shields(row, tab, blocker))
        if _is_caster(tab, blocker):
            _lose_hp(row, tab, blocker, dealt // _inst(tab, blocker, I_HP_VALUE))
        elif dealt >= _bp(row, tab, blocker):
            _break(row, tab, blocker)
            if _n_units(row, defender, area) == 0:
                _lose_hp(row, tab, row[CASTER + 2 * defender + area], 1)
    _end_attack(row)
    _push(row, F_SETTLE, 0, 0, 0, 0)


@njit(cache=True)
def _auto(row: Row, tab: Row, frame: Row, rng: npt.NDArray[np.uint64]) -> None:
    """Run one automatic frame, already popped (its data in `frame`): `frames.AUTO[kind]`."""
    kind = frame[0]
    if kind == F_SETUP:
        _f_setup(row, tab)
    elif kind == F_MULL_DONE:
        _f_mull_done(row, tab, rng)
    elif kind == F_TURN:
        _f_turn(row)
    elif kind == F_SPEED_PHASE:
        _f_speed_phase(row, tab)
    elif kind == F_REVEALS:
        _f_reveals(row, tab)
    elif kind == F_SPEED_WINDOWS:
        _f_speed_windows(row, tab)
    elif kind == F_DECIDE:
        _f_decide(row, tab)
    elif kind == F_COMPARE:
        _f_compare(row, tab, frame[1])
    elif kind == F_DRAW_PHASE:
        _f_draw_phase(row, tab)
    elif kind == F_DRAW_BURSTS:
        _f_draw_bursts(row, tab)
    elif kind == F_DRAW1:
        _f_draw1(row, frame[1])
    elif kind == F_CAST_PHASE:
        _f_cast_phase(row)
    elif kind == F_UPKEEP:
        _f_upkeep(row, tab, frame[1])
    elif kind == F_FAST_PHASE:
        _f_fast_phase(row)
    elif kind == F_ACTION_PHASE:
        _f_action_phase(row, tab)
    elif kind == F_END_PHASE:
        _f_end_phase(row, tab)
    elif kind == F_HAND_LIMIT:
        _f_hand_limit(row, frame[1])
    elif kind == F_CLEANUP:
        _f_cleanup(row, tab)
    elif kind == F_SETTLE:
        _f_settle(row, tab)
    elif kind == F_NEXT_TRIGGER:
        _f_next_trigger(row, tab, frame)
    elif kind == F_TARGETS:
        _f_targets(row, tab, frame)
    elif kind == F_PAY:
        _f_pay(row, tab, frame)
    elif kind == F_PAY_LOG:
        _f_pay_log(row, frame)
    elif kind == F_PAID:
        _f_paid(row, tab, frame)
    elif kind == F_RESOLVE:
        _f_resolve(row, tab, frame)
    elif kind == F_FINISH:
        _f_finish(row, tab, frame)
    elif kind == F_EFFECT:
        _f_effect(row, tab, frame)
    elif kind == F_MATERIAL:
        _f_material(row, tab, frame[1], frame[2], frame[3], frame[4])
    elif kind == F_BLOCK_STEP:
        _f_block_step(row)
    elif kind == F_ATTACK_DAMAGE:
        _f_attack_damage(row, tab)


@njit(cache=True)
def _run(row: Row, tab: Row, frame: Row, rng: npt.NDArray[np.uint64]) -> None:
    """Run automatic frames until a decision frame is on top or the game is over (`state._run`)."""
    while row[SP] > 0 and row[PHASE] != PH_OVER:
        base = STACK + (row[SP] - 1) * FW
        if row[base] >= FIRST_DECISION:
            return
        for k in range(FW):
            frame[k] = row[base + k]
        row[SP] -= 1
        _auto(row, tab, frame, rng)


# -- decisions (`decisions.OPTIONS`) --------------------------------------------------------------


@njit(cache=True)
def _dest_options(row: Row, tab: Row, p: int, inst: int, out: Row, n: int) -> int:
    """`decisions._unit_destinations` as TO actions."""
    weight = _weight(tab, inst)
    for area in range(2):
        if _fits(row, tab, p, area, weight):
            out[n] = tab[A_TO + area]
            n += 1
    if _inst(tab, inst, I_TYPE) == T_IDOL and row[IDOL + p] == EMPTY:
        out[n] = tab[A_TO + IDOL_AREA]
        n += 1
    return n


@njit(cache=True)
def _move_options(row: Row, tab: Row, p: int, obj: int, out: Row, n: int) -> int:
    """`decisions._move_destinations` as TO actions (D8.2(3), D19.5)."""
    for i in range(row[NMOVED]):
        if row[MOVED + i] == obj:
            return n
    area = row[AREA + obj]
    weight = _weight(tab, obj)
    if area == IDOL_AREA:
        for a in range(2):
            if _fits(row, tab, p, a, weight):
                out[n] = tab[A_TO + a]
                n += 1
        return n
    if _fits(row, tab, p, 1 - area, weight):
        out[n] = tab[A_TO + 1 - area]
        n += 1
    if not _is_dummy(tab, obj) and _inst(tab, obj, I_TYPE) == T_IDOL and row[IDOL + p] == EMPTY:
        out[n] = tab[A_TO + IDOL_AREA]
        n += 1
    return n


@njit(cache=True)
def _castable(row: Row, tab: Row, p: int, inst: int, scratch: Row) -> bool:
    """D8.2(1): a unit or idol with somewhere to go (D8.3, D19.1) and its cost payable (D12.4)."""
    if _inst(tab, inst, I_TYPE) not in (T_UNIT, T_IDOL) or _dest_options(row, tab, p, inst, scratch, 0) == 0:
        return False
    cost, discard, engrave = _inst(tab, inst, I_COST), _inst(tab, inst, I_DISCARD), _inst(tab, inst, I_ENGRAVE)
    return _payable(row, tab, p, cost, discard, EMPTY, engrave, False, inst, EMPTY)


@njit(cache=True)
def _cast_options(row: Row, tab: Row, p: int, out: Row, n: int) -> int:
    """D8.2: casts, dummies, moves and removals (`decisions._cast_options`)."""
    scratch = row[SCR_CAST : SCR_CAST + 4]
    dummy0 = _fits(row, tab, p, 0, 1)
    dummy1 = _fits(row, tab, p, 1, 1)
    zones = 2 if row[FIRST] != EMPTY else 1
    for zi in range(zones):
        z = Z_HAND if zi == 0 else Z_SPEED
        speed = zi == 1
        for i in range(_zlen(row, z, p)):
            if not _first_of_card(row, tab, z, p, i):
                continue
            inst = _zget(row, z, p, i)
            card = _inst(tab, inst, I_CARD)
            if _castable(row, tab, p, inst, scratch):
                out[n] = _card(tab, card, C_CAST_S if speed else C_CAST)
                n += 1
            col = C_DUMMY_S if speed else C_DUMMY
            if dummy0:
                out[n] = _card(tab, card, col)
                n += 1
            if dummy1:
                out[n] = _card(tab, card, col + 1)
                n += 1
    for slot in (1, 2, 4, 5, 6):
        obj = _object_at(row, p, slot)
        if obj == EMPTY:
            continue
        if _move_options(row, tab, p, obj, scratch, 0) > 0:
            out[n] = _slot_action(tab, G_MOVE, slot)
            n += 1
        out[n] = _slot_action(tab, G_REMOVE, slot)
        n += 1
    return n


@njit(cache=True)
def _zone_ok(row: Row, tab: Row, obj: int, zone: int) -> bool:
    """D19.3: an ability works only where its zone tag says."""
    if _is_caster(tab, obj) or zone == Z_FIELD:
        return True
    return zone == (Z_IDOL if row[AREA + obj] == IDOL_AREA else Z_BATTLE)


@njit(cache=True)
def _ability_ok(row: Row, tab: Row, p: int, obj: int, ref: int, timing: int, in_speed: bool) -> bool:
    """`decisions._ability_ok`."""
    if not (_ref(tab, ref, RF_TIMING) & timing) or not _require_ok(row, p, _ref(tab, ref, RF_REQUIRE)):
        return False
    if not in_speed and not _zone_ok(row, tab, obj, _ref(tab, ref, RF_ZONE)):
        return False
    check_self = _ref(tab, ref, RF_CHECK_SELF)
    if check_self and row[CHK + obj]:
        return False
    exclude = obj if check_self else EMPTY
    log, discard, engrave = _ref(tab, ref, RF_LOG), _ref(tab, ref, RF_DISCARD), _ref(tab, ref, RF_ENGRAVE)
    if not _payable(row, tab, p, log, discard, exclude, engrave, False, EMPTY, EMPTY):
        return False
    return _targets_exist(row, tab, p, obj, ref)


@njit(cache=True)
def _card_items(row: Row, tab: Row, p: int, inst: int, speed: bool, timing: int, out: Row, n: int) -> int:
    """A hand or speed-area card's items at `timing`: a code (D2.7, D5.3a), an arms in the fast phase (D9.2), its
    sub-effect (D18.1)."""
    card = _inst(tab, inst, I_CARD)
    kind = _inst(tab, inst, I_TYPE)
    cost, discard, engrave = _inst(tab, inst, I_COST), _inst(tab, inst, I_DISCARD), _inst(tab, inst, I_ENGRAVE)
    if kind == T_CODE and _card(tab, card, C_CODE_TIMING) & timing:
        if (
            _require_ok(row, p, _card(tab, card, C_CODE_REQUIRE))
            and _targets_exist(row, tab, p, EMPTY, _card(tab, card, C_CODE_REF))
            and _payable(row, tab, p, cost, discard, EMPTY, engrave, True, inst, EMPTY)
        ):
            out[n] = _card(tab, card, C_PLAY_S if speed else C_PLAY)
            n += 1
    elif (
        kind == T_ARMS
        and timing == M_FAST
        and (row[ARMS + row[CASTER + 2 * p]] == EMPTY or row[ARMS + row[CASTER + 2 * p + 1]] == EMPTY)
        and _payable(row, tab, p, cost, discard, EMPTY, engrave, False, inst, EMPTY)
    ):
        out[n] = _card(tab, card, C_PLAY_S if speed else C_PLAY)
        n += 1
    sub = _card(tab, card, C_SUB_REF)
    if (
        sub >= 0
        and _card(tab, card, C_SUB_TIMING) & timing
        and _require_ok(row, p, _card(tab, card, C_SUB_REQUIRE))
        and _targets_exist(row, tab, p, EMPTY, sub)
    ):
        log, sub_discard = _card(tab, card, C_SUB_LOG), _card(tab, card, C_SUB_DISCARD)
        if _payable(row, tab, p, log, sub_discard, EMPTY, _card(tab, card, C_SUB_ENGRAVE), False, inst, EMPTY):
            out[n] = _card(tab, card, C_SUB_S if speed else C_SUB)
            n += 1
    return n


@njit(cache=True)
def _field_uses(row: Row, tab: Row, p: int, timing: int, out: Row, n: int) -> int:
    """Activated abilities of the player's field objects, a caster's arms' grants included (D2.9, D19.3)."""
    for slot in range(SLOT_COUNT):
        obj = _object_at(row, p, slot)
        if obj == EMPTY or _is_dummy(tab, obj):
            continue
        for k in range(_n_activated(row, tab, obj)):
            if _ability_ok(row, tab, p, obj, _activated_ref(row, tab, obj, k), timing, False):
                out[n] = tab[USE_BASE + slot * MAX_USES + k]
                n += 1
    return n


@njit(cache=True)
def _speed_uses(row: Row, tab: Row, p: int, timing: int, out: Row, n: int) -> int:
    """Speed-tagged activated abilities of the player's speed-area cards, one action per card id (D19.3)."""
    start = n
    for i in range(_zlen(row, Z_SPEED, p)):
        inst = _zget(row, Z_SPEED, p, i)
        card = _inst(tab, inst, I_CARD)
        for k in range(_card(tab, card, C_N_ACT)):
            ref = _card(tab, card, C_ACT + k)
            if _ref(tab, ref, RF_ZONE) == Z_SPEEDZ and _ability_ok(row, tab, p, inst, ref, timing, True):
                action = _card(tab, card, C_USE_S + k)
                seen = False
                for j in range(start, n):
                    if out[j] == action:
                        seen = True
                if not seen:
                    out[n] = action
                    n += 1
    return n


@njit(cache=True)
def _item_options(row: Row, tab: Row, p: int, timing: int, out: Row, n: int) -> int:
    """`decisions.item_options`: codes, arms, activated abilities and sub-effects usable now at `timing` (D5.4),
    from hand, then (once F is decided, D5.7) the speed area."""
    for zi in range(2 if row[FIRST] != EMPTY else 1):
        z = Z_HAND if zi == 0 else Z_SPEED
        for i in range(_zlen(row, z, p)):
            if _first_of_card(row, tab, z, p, i):
                n = _card_items(row, tab, p, _zget(row, z, p, i), zi == 1, timing, out, n)
    n = _field_uses(row, tab, p, timing, out, n)
    return _speed_uses(row, tab, p, timing, out, n)


@njit(cache=True)
def _apply_item(row: Row, tab: Row, p: int, action: int, timing: int, frame: Row) -> None:
    """`decisions._apply_item`: announce the item (D5.3) and schedule its targets and payment."""
    verb = _dec(tab, action, D_VERB)
    is_action = 1 if timing == M_ACTION else 0
    if verb in (V_USE, V_USE_S):
        k = _dec(tab, action, D_INDEX)
        if verb == V_USE:
            obj = _object_at(row, p, _dec(tab, action, D_SLOT))
            ref = _activated_ref(row, tab, obj, k)
        else:
            obj = _zlast_card(row, tab, Z_SPEED, p, _dec(tab, action, D_CARD))
            ref = _card(tab, _dec(tab, action, D_CARD), C_ACT + k)
        log, discard = _ref(tab, ref, RF_LOG), _ref(tab, ref, RF_DISCARD)
        _new_play(frame, p, PK_ABILITY, EMPTY, obj, ref, log, discard, is_action)
    else:  # PLAY, SUB
        card = _dec(tab, action, D_CARD)
        inst = _zlast_card(row, tab, Z_SPEED if _dec(tab, action, D_SPEED) else Z_HAND, p, card)
        _take(row, p, inst)
        _zpush(row, Z_LIMBO, p, inst)
        if verb == V_SUB:
            ref = _card(tab, card, C_SUB_REF)
            log, discard = _card(tab, card, C_SUB_LOG), _card(tab, card, C_SUB_DISCARD)
            _new_play(frame, p, PK_SUB, inst, EMPTY, ref, log, discard, is_action)
        elif _inst(tab, inst, I_TYPE) == T_ARMS:
            _new_play(frame, p, PK_ARMS, inst, EMPTY, EMPTY, _inst(tab, inst, I_COST), _inst(tab, inst, I_DISCARD), 0)
            _push_copy(row, D_TARGET, frame)
            return
        else:
            ref = _card(tab, card, C_CODE_REF)
            cost, discard = _inst(tab, inst, I_COST), _inst(tab, inst, I_DISCARD)
            _new_play(frame, p, PK_CODE, inst, EMPTY, ref, cost, discard, is_action)
    _push_copy(row, F_TARGETS, frame)


@njit(cache=True)
def _attack_area_ok(row: Row, p: int, area: int) -> bool:
    """D10.5(2): an enemy battle area with a unit or a caster with HP."""
    return _n_units(row, 1 - p, area) > 0 or _hp_len(row, 1 - p, area) > 0


@njit(cache=True)
def _attackers_options(row: Row, tab: Row, p: int, frame_base: int, out: Row, n: int) -> int:
    """D10.5(1): own normal units in own battle areas, not already chosen (`frame_base` < 0: none chosen)."""
    for area in range(2):
        for i in range(_n_units(row, p, area)):
            u = _unit(row, p, area, i)
            if row[CHK + u]:
                continue
            chosen = False
            if frame_base >= 0:
                for k in range(row[frame_base + 2]):
                    if row[frame_base + 3 + k] == u:
                        chosen = True
            if not chosen:
                out[n] = _slot_action(tab, G_ATTACKER, 3 * area + 1 + i)
                n += 1
    return n


@njit(cache=True)
def _source_options(row: Row, tab: Row, p: int, col: int, col_speed: int, out: Row, n: int) -> int:
    """One action per card id in hand (`col`), then in the speed area (`col_speed`, once F is decided)."""
    zones = 2 if row[FIRST] != EMPTY and col_speed >= 0 else 1
    for zi in range(zones):
        z = Z_HAND if zi == 0 else Z_SPEED
        for i in range(_zlen(row, z, p)):
            if _first_of_card(row, tab, z, p, i):
                out[n] = _card(tab, _inst(tab, _zget(row, z, p, i), I_CARD), col if zi == 0 else col_speed)
                n += 1
    return n


@njit(cache=True)
def _can_god_draw(row: Row, p: int) -> bool:
    """D17.1: a normal burst to take."""
    return _normal(row, Z_BCHK, p) > 0


@njit(cache=True)
def _card_options(row: Row, tab: Row, z: int, p: int, col: int, out: Row, n: int) -> int:
    """One action (card column `col`) per card id of zone `z`, in its order (`decisions._distinct`)."""
    for i in range(_zlen(row, z, p)):
        if _first_of_card(row, tab, z, p, i):
            out[n] = _card(tab, _inst(tab, _zget(row, z, p, i), I_CARD), col)
            n += 1
    return n


# -- decision options (`decisions.OPTIONS`): `(row, tab, p, base, out)`, the frame's data at `row[base:]` ----


@njit(cache=True)
def _o_place(row: Row, tab: Row, p: int, base: int, out: Row) -> int:
    """D4.1: which caster goes to BA1."""
    n = 0
    for i in range(_zlen(row, Z_PLACED, p)):
        out[n] = _card(tab, _inst(tab, _zget(row, Z_PLACED, p, i), I_CARD), C_PLACE)
        n += 1
    return n


@njit(cache=True)
def _o_mull(row: Row, tab: Row, p: int, base: int, out: Row) -> int:
    """D4.6: set a card aside, or keep."""
    n = _source_options(row, tab, p, C_MULL, -1, out, 0)
    out[n] = tab[A_KEEP]
    return n + 1


@njit(cache=True)
def _o_win(row: Row, tab: Row, p: int, base: int, out: Row) -> int:
    """D6.3 (gear change), D8.2 and D9.2 windows with their timing's items (D5.4); D17.2 god draw (rule
    god_draw_windows); DONE closes the window."""
    phase = row[base + 2]
    n = 0
    if phase == W_SPEED:
        if not row[GEARED + p]:
            n = _card_options(row, tab, Z_HAND, p, C_GEAR, out, n)
        n = _item_options(row, tab, p, M_SPEED, out, n)
    elif phase == W_CAST:
        n = _cast_options(row, tab, p, out, n)
        n = _item_options(row, tab, p, M_CAST, out, n)
    else:
        n = _item_options(row, tab, p, M_FAST, out, n)
    if (phase == W_CAST or tab[R_GOD_DRAW_EVERYWHERE]) and _can_god_draw(row, p):
        out[n] = tab[A_GODDRAW]
        n += 1
    out[n] = tab[A_DONE]
    return n + 1


@njit(cache=True)
def _o_dest(row: Row, tab: Row, p: int, base: int, out: Row) -> int:
    """D8.3, D19.1: where the cast unit fits."""
    return _dest_options(row, tab, p, row[base + P_CARD], out, 0)


@njit(cache=True)
def _o_move_to(row: Row, tab: Row, p: int, base: int, out: Row) -> int:
    """D8.2(3), D19.5: where the moved unit or idol fits."""
    return _move_options(row, tab, p, row[base + 2], out, 0)


@njit(cache=True)
def _o_upkeep(row: Row, tab: Row, p: int, base: int, out: Row) -> int:
    """D19.4: pay the upkeep (a normal idol whose log is payable), or check the idol."""
    idol = row[base + 2]
    n = 0
    if not row[CHK + idol] and _payable(row, tab, p, _inst(tab, idol, I_UPKEEP), 0, EMPTY, 0, False, EMPTY, EMPTY):
        out[n] = tab[A_UPKEEP_PAY]
        n += 1
    out[n] = tab[A_UPKEEP_CHECK]
    return n + 1


@njit(cache=True)
def _target_candidates(row: Row, tab: Row, p: int, base: int, out: Row) -> int:
    """D5.3: an arms' casters without arms (D2.8), else the next single-target selector's candidates (D22.6)."""
    if row[base + P_KIND] != PK_ARMS:
        sel = _single_selector(tab, row[base + P_REF], row[base + P_NT])
        return _candidates(row, tab, sel, p, row[base + P_SOURCE], out, True)
    m = 0
    for area in range(2):
        caster = row[CASTER + 2 * p + area]
        if row[ARMS + caster] == EMPTY:
            out[m] = caster
            m += 1
    return m


@njit(cache=True)
def _o_target(row: Row, tab: Row, p: int, base: int, out: Row) -> int:
    """D5.3: one TARGET per candidate, by seat and slot."""
    scratch = row[SCR_LEG : SCR_LEG + 16]
    n = 0
    for i in range(_target_candidates(row, tab, p, base, scratch)):
        obj = scratch[i]
        out[n] = _slot_action(tab, G_TARGET1 + _owner(tab, obj), _slot_of(row, tab, obj))
        n += 1
    return n


@njit(cache=True)
def _o_pay_discard(row: Row, tab: Row, p: int, base: int, out: Row) -> int:
    """D12.3 discard costs, never discarding a card the rest of the payment needs."""
    code = row[base + P_KIND] == PK_CODE
    log, discard, played = row[base + P_LOG], row[base + P_DISCARD], row[base + P_CARD]
    n = 0
    for zi in range(2 if row[FIRST] != EMPTY else 1):
        z = Z_HAND if zi == 0 else Z_SPEED
        for i in range(_zlen(row, z, p)):
            if not _first_of_card(row, tab, z, p, i):
                continue
            inst = _zget(row, z, p, i)
            if _payable(row, tab, p, log, discard - 1, EMPTY, 0, code, played, inst):
                out[n] = _card(tab, _inst(tab, inst, I_CARD), C_DISCARD if zi == 0 else C_DISCARD_S)
                n += 1
    return n


@njit(cache=True)
def _payment_subs(row: Row, tab: Row, p: int, base: int, out: Row, n: int) -> int:
    """D18.3: PAYMENT sub-effects usable while paying for a code, if the sources still cover the rest."""
    log, played = row[base + P_LOG], row[base + P_CARD]
    for zi in range(2 if row[FIRST] != EMPTY else 1):
        z = Z_HAND if zi == 0 else Z_SPEED
        for i in range(_zlen(row, z, p)):
            if not _first_of_card(row, tab, z, p, i):
                continue
            inst = _zget(row, z, p, i)
            card = _inst(tab, inst, I_CARD)
            if _card(tab, card, C_SUB_REF) < 0 or not _card(tab, card, C_SUB_TIMING) & M_PAYMENT:
                continue
            rest = max(0, log - _card(tab, card, C_SUB_REDUCE)) + _card(tab, card, C_SUB_LOG)
            sub_discard, sub_engrave = _card(tab, card, C_SUB_DISCARD), _card(tab, card, C_SUB_ENGRAVE)
            if _payable(row, tab, p, rest, sub_discard, EMPTY, sub_engrave, True, played, inst):
                out[n] = _card(tab, card, C_SUB if zi == 0 else C_SUB_S)
                n += 1
    return n


@njit(cache=True)
def _o_pay_src(row: Row, tab: Row, p: int, base: int, out: Row) -> int:
    """D12.1 log sources by kind; D18.3 PAYMENT sub-effects while paying for a code."""
    n = 0
    if _can_god_draw(row, p):  # a normal burst
        out[n] = tab[A_PAY]
        n += 1
    if _normal(row, Z_ECHK, p):
        out[n] = tab[A_PAY + 1]
        n += 1
    for area in range(2):
        if not row[CHK + row[CASTER + 2 * p + area]]:
            out[n] = tab[A_PAY + 2 + area]
            n += 1
    idol = row[IDOL + p]
    if idol != EMPTY and not row[CHK + idol]:
        out[n] = tab[A_PAY + 4]
        n += 1
    if row[base + P_KIND] == PK_CODE:
        n = _payment_subs(row, tab, p, base, out, n)
    return n


@njit(cache=True)
def _o_aturn(row: Row, tab: Row, p: int, base: int, out: Row) -> int:
    """D10.2: god draws, an attacker (when an enemy area can be attacked, D10.5), ACTION items, or pass."""
    n = 0
    if _can_god_draw(row, p):
        out[n] = tab[A_GODDRAW]
        n += 1
    if _attack_area_ok(row, p, 0) or _attack_area_ok(row, p, 1):
        n = _attackers_options(row, tab, p, -1, out, n)
    n = _item_options(row, tab, p, M_ACTION, out, n)
    out[n] = tab[A_PASS]
    return n + 1


@njit(cache=True)
def _o_abuild(row: Row, tab: Row, p: int, base: int, out: Row) -> int:
    """D10.5: another attacker, or the enemy battle area to attack."""
    n = _attackers_options(row, tab, p, base, out, 0)
    for area in range(2):
        if _attack_area_ok(row, p, area):
            out[n] = tab[A_ATTACK + area]
            n += 1
    return n


@njit(cache=True)
def _o_block(row: Row, tab: Row, p: int, base: int, out: Row) -> int:
    """D10.6: god draws, then a blocker (the area's units, its caster if it has HP)."""
    n = 0
    if _can_god_draw(row, p):
        out[n] = tab[A_GODDRAW]
        n += 1
    scratch = row[SCR_LEG : SCR_LEG + 4]
    for i in range(_n_blockers(row, scratch)):
        out[n] = _slot_action(tab, G_BLOCK, _slot_of(row, tab, scratch[i]))
        n += 1
    return n


@njit(cache=True)
def _o_react(row: Row, tab: Row, p: int, base: int, out: Row) -> int:
    """D10.4: god draws, REACTION items, or pass."""
    n = 0
    if _can_god_draw(row, p):
        out[n] = tab[A_GODDRAW]
        n += 1
    n = _item_options(row, tab, p, M_REACTION, out, n)
    out[n] = tab[A_PASS]
    return n + 1


@njit(cache=True)
def _o_pick(row: Row, tab: Row, p: int, base: int, out: Row) -> int:
    """D14.2, D16.1: a material card id of the discard."""
    return _card_options(row, tab, Z_DISC, p, C_MATERIAL, out, 0)


@njit(cache=True)
def _o_scrap(row: Row, tab: Row, p: int, base: int, out: Row) -> int:
    """D16.3: one engrave to discard, one choice per (card id, checked)."""
    n = 0
    for i in range(_zlen(row, Z_ENGR, p)):
        card = _inst(tab, _zget(row, Z_ENGR, p, i), I_CARD)
        checked = _zget(row, Z_ECHK, p, i)
        seen = False
        for j in range(i):
            if _inst(tab, _zget(row, Z_ENGR, p, j), I_CARD) == card and _zget(row, Z_ECHK, p, j) == checked:
                seen = True
                break
        if not seen:
            out[n] = tab[A_SCRAP + i]
            n += 1
    return n


@njit(cache=True)
def _o_order(row: Row, tab: Row, p: int, base: int, out: Row) -> int:
    """D5.5: which of the player's simultaneous triggers resolves next."""
    scratch = row[SCR_LEG : SCR_LEG + TRIG_CAP]
    n = 0
    for j in range(_trigger_choices(row, tab, p, scratch)):
        out[n] = tab[A_FIRST + j]
        n += 1
    return n


@njit(cache=True)
def _o_hpdraw(row: Row, tab: Row, p: int, base: int, out: Row) -> int:
    """D20.1 (and rule library_out=every_use, D20.2): which caster's HP card stands in for the deck card."""
    n = 0
    for area in range(2):
        if _hp_len(row, p, area):
            out[n] = tab[A_HPDRAW + area]
            n += 1
    return n


@njit(cache=True)
def _o_limit(row: Row, tab: Row, p: int, base: int, out: Row) -> int:
    """D11.2: a hand card id to discard."""
    return _card_options(row, tab, Z_HAND, p, C_DISCARD, out, 0)


@njit(cache=True)
def legal_actions(row: Row, tab: Row, out: Row) -> int:
    """The legal action ids at the top decision frame, written to `out` (at least `tab[N_ACTIONS]` long):
    `decisions.OPTIONS[kind]`."""
    if row[PHASE] == PH_OVER or row[SP] == 0:
        return 0
    base = STACK + (row[SP] - 1) * FW
    kind = row[base]
    p = row[base + 1]
    if kind == D_PLACE:
        return _o_place(row, tab, p, base, out)
    if kind == D_MULL:
        return _o_mull(row, tab, p, base, out)
    if kind == D_WIN:
        return _o_win(row, tab, p, base, out)
    if kind == D_DEST:
        return _o_dest(row, tab, p, base, out)
    if kind == D_MOVE_TO:
        return _o_move_to(row, tab, p, base, out)
    if kind == D_UPKEEP_IDOL:
        return _o_upkeep(row, tab, p, base, out)
    if kind == D_TARGET:
        return _o_target(row, tab, p, base, out)
    if kind == D_PAY_DISCARD:
        return _o_pay_discard(row, tab, p, base, out)
    if kind == D_PAY_SRC:
        return _o_pay_src(row, tab, p, base, out)
    if kind == D_ATURN:
        return _o_aturn(row, tab, p, base, out)
    if kind == D_ABUILD:
        return _o_abuild(row, tab, p, base, out)
    if kind == D_BLOCK:
        return _o_block(row, tab, p, base, out)
    if kind == D_REACT:
        return _o_react(row, tab, p, base, out)
    if kind == D_PICK:
        return _o_pick(row, tab, p, base, out)
    if kind == D_SCRAP:
        return _o_scrap(row, tab, p, base, out)
    if kind == D_ORDER:
        return _o_order(row, tab, p, base, out)
    if kind == D_HPDRAW:
        return _o_hpdraw(row, tab, p, base, out)
    if kind == D_HPDECK:
        return _o_hpdraw(row, tab, p, base, out)
    if kind == D_LIMIT:
        return _o_limit(row, tab, p, base, out)
    return 0


# -- decision effects (`decisions.APPLY`): `(row, tab, action, p, frame)`, the popped frame in `frame` ------


@njit(cache=True)
def _a_place(row: Row, tab: Row, action: int, p: int, frame: Row) -> None:
    """D4.1: the chosen caster goes to BA1, the other to BA2."""
    card = _dec(tab, action, D_CARD)
    a, b = _zget(row, Z_PLACED, p, 0), _zget(row, Z_PLACED, p, 1)
    if _inst(tab, a, I_CARD) != card and _inst(tab, b, I_CARD) == card:
        row[_zbase(Z_PLACED, p)] = b
        row[_zbase(Z_PLACED, p) + 1] = a


@njit(cache=True)
def _a_mull(row: Row, tab: Row, action: int, p: int, frame: Row) -> None:
    """D4.6: set cards aside one at a time (secretly), then KEEP."""
    if _dec(tab, action, D_VERB) == V_KEEP:
        return
    inst = _zlast_card(row, tab, Z_HAND, p, _dec(tab, action, D_CARD))
    _zremove(row, Z_HAND, p, inst)
    _zpush(row, Z_MULL, p, inst)
    _push(row, D_MULL, p, 0, 0, 0)


@njit(cache=True)
def _cast_dummy(row: Row, tab: Row, p: int, inst: int, area: int) -> None:
    """D15.1: closed and checked, size S, BP 50; a card taken from the open speed area stays known (R-D11)."""
    known = _zfind(row, Z_SPEED, p, inst) >= 0
    _take(row, p, inst)
    slot = 0
    while row[DUMMY + 4 * p + slot] != EMPTY:
        slot += 1
    row[DUMMY + 4 * p + slot] = inst
    row[DKNOWN + 4 * p + slot] = 1 if known else 0
    token = tab[N_INST] + 4 * p + slot
    _place(row, token, p, area)
    row[CHK + token] = 1


@njit(cache=True)
def _a_win(row: Row, tab: Row, action: int, p: int, frame: Row) -> None:
    """D6.3 gear change, D8.2 cast actions (cast, dummy, move, remove), D17 god draw or an item (D5.3); the window
    stays open until DONE."""
    verb = _dec(tab, action, D_VERB)
    if verb == V_DONE:
        return
    phase = frame[2]
    _push(row, D_WIN, p, phase, 0, 0)
    card = _dec(tab, action, D_CARD)
    zone = Z_SPEED if _dec(tab, action, D_SPEED) else Z_HAND
    if verb == V_GODDRAW:
        _god_draw(row, p)
    elif verb == V_GEAR:
        inst = _zlast_card(row, tab, Z_HAND, p, card)
        _take(row, p, inst)
        _zpush(row, Z_GEAR, p, inst)
        row[GEARED + p] = 1
    elif verb == V_DUMMY:
        _cast_dummy(row, tab, p, _zlast_card(row, tab, zone, p, card), _dec(tab, action, D_AREA))
    elif verb == V_CAST:  # D8.2(1): to limbo, then its destination and payment
        inst = _zlast_card(row, tab, zone, p, card)
        _take(row, p, inst)
        _zpush(row, Z_LIMBO, p, inst)
        pkind = PK_IDOL if _inst(tab, inst, I_TYPE) == T_IDOL else PK_UNIT
        _new_play(frame, p, pkind, inst, EMPTY, EMPTY, _inst(tab, inst, I_COST), _inst(tab, inst, I_DISCARD), 0)
        _push_copy(row, D_DEST, frame)
    elif verb == V_MOVE:
        _push(row, D_MOVE_TO, p, _object_at(row, p, _dec(tab, action, D_SLOT)), 0, 0)
    elif verb == V_REMOVE:  # D8.2(4): not a break
        obj = _object_at(row, p, _dec(tab, action, D_SLOT))
        _to_discard(row, tab, _leave_field(row, tab, obj))
    else:
        timing = M_SPEED if phase == W_SPEED else (M_CAST if phase == W_CAST else M_FAST)
        _apply_item(row, tab, p, action, timing, frame)


@njit(cache=True)
def _a_dest(row: Row, tab: Row, action: int, p: int, frame: Row) -> None:
    """D8.2(1): the cast unit's destination; then its payment."""
    frame[P_DEST] = _dec(tab, action, D_AREA)
    _push_copy(row, F_PAY, frame)


@njit(cache=True)
def _a_move_to(row: Row, tab: Row, action: int, p: int, frame: Row) -> None:
    """D8.2(3), D19.5: once per object and cast phase."""
    obj = frame[2]
    area = row[AREA + obj]
    if area == IDOL_AREA:
        row[IDOL + p] = EMPTY
    else:
        _remove_unit(row, p, area, obj)
    _place(row, obj, p, _dec(tab, action, D_AREA))
    row[MOVED + row[NMOVED]] = obj
    row[NMOVED] += 1


@njit(cache=True)
def _a_upkeep(row: Row, tab: Row, action: int, p: int, frame: Row) -> None:
    """D19.4: pay the upkeep in log, or the idol is checked."""
    idol = frame[2]
    if _dec(tab, action, D_VERB) == V_UPKEEP_PAY:
        _new_play(frame, p, PK_UPKEEP, EMPTY, idol, EMPTY, _inst(tab, idol, I_UPKEEP), 0, 0)
        _push_copy(row, F_PAY, frame)
    else:
        row[CHK + idol] = 1


@njit(cache=True)
def _a_target(row: Row, tab: Row, action: int, p: int, frame: Row) -> None:
    """D5.3: the chosen object; then the next target, or an arms' payment."""
    obj = _object_at(row, _dec(tab, action, D_SEAT), _dec(tab, action, D_SLOT))
    frame[P_T + frame[P_NT]] = obj
    frame[P_NT] += 1
    _push_copy(row, F_PAY if frame[P_KIND] == PK_ARMS else F_TARGETS, frame)


@njit(cache=True)
def _a_pay_discard(row: Row, tab: Row, action: int, p: int, frame: Row) -> None:
    """D12.3: one card discarded; then the next discard, or the log."""
    inst = _zlast_card(row, tab, Z_SPEED if _dec(tab, action, D_SPEED) else Z_HAND, p, _dec(tab, action, D_CARD))
    _take(row, p, inst)
    _to_discard(row, tab, inst)
    frame[P_DISCARD] -= 1
    _push_copy(row, D_PAY_DISCARD if frame[P_DISCARD] else F_PAY_LOG, frame)


@njit(cache=True)
def _a_pay_src(row: Row, tab: Row, action: int, p: int, frame: Row) -> None:
    """D12.1: one log source checked; D18.3: a PAYMENT sub-effect resolves, then the payment goes on."""
    if _dec(tab, action, D_VERB) == V_SUB:
        _push_copy(row, F_PAY_LOG, frame)
        _apply_item(row, tab, p, action, M_PAYMENT, frame)
        return
    source = _dec(tab, action, D_SOURCE)  # `actions.PAY_SOURCES` order
    if source == 0:
        _check_first(row, Z_BCHK, p, 1)
    elif source == 1:
        _check_first(row, Z_ECHK, p, 1)
    elif source == 4:
        row[CHK + row[IDOL + p]] = 1
    else:
        row[CHK + row[CASTER + 2 * p + source - 2]] = 1
    frame[P_LOG] -= 1
    _push_copy(row, F_PAY_LOG, frame)


@njit(cache=True)
def _a_aturn(row: Row, tab: Row, action: int, p: int, frame: Row) -> None:
    """D10.2-D10.3: god draws keep the turn; pass twice in a row ends the phase; 200 turns cap it."""
    verb = _dec(tab, action, D_VERB)
    passes, count = frame[2], frame[3]
    if verb == V_GODDRAW:
        _god_draw(row, p)
        _push(row, D_ATURN, p, passes, count, 0)
        return
    if verb == V_PASS and passes:
        return
    if count + 1 < ACTION_TURN_CAP:
        _push(row, D_ATURN, 1 - p, 1 if verb == V_PASS else 0, count + 1, 0)
    if verb == V_ATTACKER:
        _push(row, D_ABUILD, p, 1, _object_at(row, p, _dec(tab, action, D_SLOT)), 0)
    elif verb != V_PASS:
        _apply_item(row, tab, p, action, M_ACTION, frame)


@njit(cache=True)
def _a_abuild(row: Row, tab: Row, action: int, p: int, frame: Row) -> None:
    """D10.5: one attack by every chosen unit; checking them is its cost; on_attack triggers resolve."""
    if _dec(tab, action, D_VERB) == V_ATTACKER:
        frame[3 + frame[2]] = _object_at(row, p, _dec(tab, action, D_SLOT))
        frame[2] += 1
        _push_copy(row, D_ABUILD, frame)
        return
    row[NATT] = frame[2]
    for k in range(frame[2]):
        row[ATTACKERS + k] = frame[3 + k]
        row[CHK + frame[3 + k]] = 1
    row[ATT_PLAYER] = p
    row[ATT_AREA] = _dec(tab, action, D_AREA)
    row[BLOCKER] = EMPTY
    row[ATT_MOD] = 0
    _queue_event(row, tab, E_ON_ATTACK, frame[3:], frame[2])
    _push(row, F_BLOCK_STEP, 0, 0, 0, 0)
    _push(row, F_SETTLE, 0, 0, 0, 0)


@njit(cache=True)
def _a_block(row: Row, tab: Row, action: int, p: int, frame: Row) -> None:
    """D10.6: the blocker is fixed; on_block triggers, then the reaction window (D10.4, rule reaction_first)."""
    if _dec(tab, action, D_VERB) == V_GODDRAW:
        _god_draw(row, p)
        _push(row, D_BLOCK, p, 0, 0, 0)
        return
    row[BLOCKER] = _object_at(row, p, _dec(tab, action, D_SLOT))
    _queue_one(row, tab, E_ON_BLOCK, row[BLOCKER])
    _push(row, F_ATTACK_DAMAGE, 0, 0, 0, 0)
    _push(row, D_REACT, 1 - p if tab[R_ACTOR_REACTS_FIRST] else p, 0, 0, 0)
    _push(row, F_SETTLE, 0, 0, 0, 0)


@njit(cache=True)
def _a_react(row: Row, tab: Row, action: int, p: int, frame: Row) -> None:
    """D10.4: reactions resolve at once; the right alternates; two passes in a row close the window."""
    verb = _dec(tab, action, D_VERB)
    passes = frame[2]
    if verb == V_GODDRAW:
        _god_draw(row, p)
        _push(row, D_REACT, p, passes, 0, 0)
    elif verb == V_PASS:
        if not passes:
            _push(row, D_REACT, 1 - p, 1, 0, 0)
    else:
        _push(row, D_REACT, 1 - p, 0, 0, 0)
        _apply_item(row, tab, p, action, M_REACTION, frame)


@njit(cache=True)
def _a_pick(row: Row, tab: Row, action: int, p: int, frame: Row) -> None:
    """D14.2, D16.1: the material card is the player's choice from their discard."""
    inst = _zlast_card(row, tab, Z_DISC, p, _dec(tab, action, D_CARD))
    _zremove(row, Z_DISC, p, inst)
    _add_material(row, p, frame[2], frame[3], inst, 0)


@njit(cache=True)
def _a_scrap(row: Row, tab: Row, action: int, p: int, frame: Row) -> None:
    """D16.3: one engrave of the owner's choice to the discard (settle asks again while over 3)."""
    index = _dec(tab, action, D_INDEX)
    _zremove_at(row, Z_ECHK, p, index)
    _to_discard(row, tab, _zremove_at(row, Z_ENGR, p, index))


@njit(cache=True)
def _a_order(row: Row, tab: Row, action: int, p: int, frame: Row) -> None:
    """D5.5: the controller picks which of their simultaneous triggers resolves next."""
    scratch = row[SCR_LEG : SCR_LEG + TRIG_CAP]
    _trigger_choices(row, tab, p, scratch)
    _start_trigger(row, scratch[_dec(tab, action, D_INDEX)], frame)


@njit(cache=True)
def _a_hpdraw(row: Row, tab: Row, action: int, p: int, frame: Row) -> None:
    """D20.1: the player picks which caster's HP card replaces the draw."""
    _take_hp(row, p, _dec(tab, action, D_AREA))


@njit(cache=True)
def _a_hpdeck(row: Row, tab: Row, action: int, p: int, frame: Row) -> None:
    """Rule library_out=every_use (D20.2): the player picks which caster's HP card stands in for the deck card."""
    _hp_to_deck(row, p, _dec(tab, action, D_AREA))


@njit(cache=True)
def _a_limit(row: Row, tab: Row, action: int, p: int, frame: Row) -> None:
    """D11.2: discard down to 7, one card at a time."""
    inst = _zlast_card(row, tab, Z_HAND, p, _dec(tab, action, D_CARD))
    _take(row, p, inst)
    _to_discard(row, tab, inst)


@njit(cache=True)
def _decide(row: Row, tab: Row, action: int, frame: Row) -> None:
    """Apply `action` at the top decision frame: pop it, then `decisions.APPLY[kind]`."""
    base = STACK + (row[SP] - 1) * FW
    for k in range(FW):
        frame[k] = row[base + k]
    row[SP] -= 1
    kind = frame[0]
    p = frame[1]
    if kind == D_PLACE:
        _a_place(row, tab, action, p, frame)
    elif kind == D_MULL:
        _a_mull(row, tab, action, p, frame)
    elif kind == D_WIN:
        _a_win(row, tab, action, p, frame)
    elif kind == D_DEST:
        _a_dest(row, tab, action, p, frame)
    elif kind == D_MOVE_TO:
        _a_move_to(row, tab, action, p, frame)
    elif kind == D_UPKEEP_IDOL:
        _a_upkeep(row, tab, action, p, frame)
    elif kind == D_TARGET:
        _a_target(row, tab, action, p, frame)
    elif kind == D_PAY_DISCARD:
        _a_pay_discard(row, tab, action, p, frame)
    elif kind == D_PAY_SRC:
        _a_pay_src(row, tab, action, p, frame)
    elif kind == D_ATURN:
        _a_aturn(row, tab, action, p, frame)
    elif kind == D_ABUILD:
        _a_abuild(row, tab, action, p, frame)
    elif kind == D_BLOCK:
        _a_block(row, tab, action, p, frame)
    elif kind == D_REACT:
        _a_react(row, tab, action, p, frame)
    elif kind == D_PICK:
        _a_pick(row, tab, action, p, frame)
    elif kind == D_SCRAP:
        _a_scrap(row, tab, action, p, frame)
    elif kind == D_ORDER:
        _a_order(row, tab, action, p, frame)
    elif kind == D_HPDRAW:
        _a_hpdraw(row, tab, action, p, frame)
    elif kind == D_HPDECK:
        _a_hpdeck(row, tab, action, p, frame)
    elif kind == D_LIMIT:
        _a_limit(row, tab, action, p, frame)


@njit(cache=True)
def apply(row: Row, tab: Row, action: int, rng: npt.NDArray[np.uint64], out: Row) -> int:
    """Apply a legal action, then every automatic frame and single-option decision (`SteppingState._advance`);
    leaves the legal actions of the next decision in `out` and returns their count (0 once over)."""
    frame = row[SCR_FRAME : SCR_FRAME + FW]
    _decide(row, tab, action, frame)
    return _advance(row, tab, out, frame, rng)


@njit(cache=True)
def _advance(row: Row, tab: Row, out: Row, frame: Row, rng: npt.NDArray[np.uint64]) -> int:
    while True:
        _run(row, tab, frame, rng)
        if row[PHASE] == PH_OVER:
            return 0
        n = legal_actions(row, tab, out)
        if n != 1:
            return n
        _decide(row, tab, out[0], frame)


@njit(cache=True)
def current_player(row: Row) -> int:
    """Who decides now (the top frame's player); -1 once over."""
    if row[PHASE] == PH_OVER or row[SP] == 0:
        return -1
    return row[STACK + (row[SP] - 1) * FW + 1]


# -- whole games -------------------------------------------------------------------------------


@njit(cache=True)
def _shuffle(row: Row, base: int, n: int, rng: npt.NDArray[np.uint64]) -> None:
    for i in range(n - 1, 0, -1):
        j = _below(rng, i + 1)
        row[base + i], row[base + j] = row[base + j], row[base + i]


@njit(cache=True)
def _clear(row: Row) -> None:
    row[:] = 0
    for slot in (FIRST, ATT_PLAYER, ATT_AREA, BLOCKER, WINNER, REASON):
        row[slot] = EMPTY
    row[CASTER : CASTER + 4] = EMPTY
    row[IDOL : IDOL + 2] = EMPTY
    row[DUMMY : DUMMY + 8] = EMPTY
    row[AREA : AREA + MAX_INSTANCES] = EMPTY
    row[ARMS : ARMS + MAX_INSTANCES] = EMPTY


@njit(cache=True)
def deal(row: Row, tab: Row, rng: npt.NDArray[np.uint64], out: Row) -> int:
    """D4 set-up with the kernel's own RNG (`Dreadnought.new_state`): each seat's casters and shuffled deck
    (D4.2), the token's coin (D4.7), then the frames up to the first decision. Returns the legal count."""
    _clear(row)
    start = 0
    for p in range(2):
        _zpush(row, Z_PLACED, p, start)
        _zpush(row, Z_PLACED, p, start + 1)
        inst = start + 2
        while inst < tab[N_INST] and _inst(tab, inst, I_OWNER) == p:
            _zpush(row, Z_DECK, p, inst)
            inst += 1
        _shuffle(row, _zbase(Z_DECK, p), _zlen(row, Z_DECK, p), rng)
        start = inst
    row[TOKEN] = _below(rng, 2)
    # the reference's stack is [setup, place 1, place 0]: place 0 on top, then place 1, then set-up
    _push(row, F_SETUP, 0, 0, 0, 0)
    _push(row, D_PLACE, 1, 0, 0, 0)
    _push(row, D_PLACE, 0, 0, 0, 0)
    frame = row[SCR_FRAME : SCR_FRAME + FW]
    return _advance(row, tab, out, frame, rng)


@njit(cache=True, parallel=True)
def play_batch(tab: Row, n_games: int, seed: int, first_game: int) -> tuple[Row, Row, Row, Row]:
    """`n_games` random-vs-random games in parallel; game i is dealt and played from `seed_rng(seed,
    first_game + i)` alone. Per game: winner (0 P1, 1 P2, -1 a draw), reason (`REASON_NAMES`), the final
    turn number and the decisions taken."""
    winner = np.empty(n_games, dtype=np.int64)
    reason = np.empty(n_games, dtype=np.int64)
    turns = np.empty(n_games, dtype=np.int64)
    decisions = np.empty(n_games, dtype=np.int64)
    n_blocks = (n_games + _BLOCK_GAMES - 1) // _BLOCK_GAMES
    for block in prange(n_blocks):
        row = np.zeros(ROW_SIZE, dtype=np.int64)
        out = np.empty(tab[N_ACTIONS], dtype=np.int64)
        rng = np.empty(1, dtype=np.uint64)
        for game in range(block * _BLOCK_GAMES, min(n_games, (block + 1) * _BLOCK_GAMES)):
            seed_rng(rng, seed, first_game + game)
            n = deal(row, tab, rng, out)
            count = 0
            while row[PHASE] != PH_OVER and n > 0:
                n = apply(row, tab, out[_below(rng, n)], rng, out)
                count += 1
            winner[game] = row[WINNER]
            reason[game] = row[REASON]
            turns[game] = row[TURN]
            decisions[game] = count
    return winner, reason, turns, decisions


# -- Python side -------------------------------------------------------------------------------


def check_overflow(reason: Row) -> None:
    """A CardlabError if a game of the batch outgrew the kernel's room (`_overflow`), rather than a wrong count."""
    if (np.asarray(reason) == OVERFLOW).any():
        raise CardlabError(
            f"a game outgrew the cpu engine's room (over {STACK_CAP} pending steps, {TRIG_CAP} triggers, {ENCH_CAP} "
            f"enchants or {ATTC_CAP} attached codes on one object); play this config with --engine reference"
        )


def outcome(row: Row) -> tuple[int | None, str] | None:
    """(winner, reason) once over, the winner None for a draw (`DreadnoughtState.outcome`); None before."""
    if row[PHASE] != PH_OVER:
        return None
    check_overflow(row[REASON : REASON + 1])
    return (None if row[WINNER] < 0 else int(row[WINNER]), REASON_NAMES[int(row[REASON])])


def _ref_index(state: Any, ref: str) -> int:
    return -1 if not ref else list(state.game.effects).index(ref)


def encode_frame(state: Any, frame: tuple[Any, ...]) -> list[int]:
    """A reference frame as the kernel's integers (FW of them); a CardlabError for a frame it does not run."""
    name = frame[0]
    if name not in FRAMES:
        raise CardlabError(f"the cpu engine does not run the frame {name!r}")
    values = [FRAMES.index(name)] + [0] * (FW - 1)
    data = list(frame[1:])
    if name in PLAY_FRAMES:
        if name == "effect":
            values[P_INDEX] = int(data.pop())
        play = data.pop()
        if play.kind not in PLAY_KINDS or len(play.targets) > MAX_TARGETS:
            raise CardlabError(f"the cpu engine does not run the play {play!r}")
        values[1] = play.player
        values[P_KIND], values[P_CARD], values[P_SOURCE] = PLAY_KINDS.index(play.kind), play.card, play.source
        values[P_REF], values[P_LOG], values[P_DISCARD] = _ref_index(state, play.ref), play.log, play.discard
        values[P_ACTION], values[P_DEST], values[P_NT] = int(play.action), play.dest, len(play.targets)
        values[P_T : P_T + len(play.targets)] = play.targets
        return values
    if name == "win":
        data = [data[0], WIN_PHASES.index(data[1])]
    elif name == "abuild":
        data = [data[0], len(data[1]), *data[1]]
    for k, value in enumerate(data):
        values[1 + k] = int(value)
    return values


def reference_snapshot(state: Any) -> dict[str, Any]:
    """Everything that decides the rest of a reference game, in the kernel's terms (`snapshot`'s keys)."""
    n = len(state.cards)
    ench = {
        host: [(card, kind, owner, int(secret)) for card, kind, owner, secret in zip(
            cards, state.ench_kind[host], state.ench_owner[host], state.ench_secret[host], strict=True)]
        for host, cards in state.ench.items()
        if cards
    }  # fmt: skip
    return {
        "scalars": [
            state.turn,
            PHASES.index(state.phase),
            state.first,
            state.token,
            *state.speed_shift,
            *(int(g) for g in state.geared),
            state.attack_player,
            state.attack_area,
            state.blocker,
            state.attack_mod,
            state.cost_reduction,
        ],
        "attackers": list(state.attackers),
        "result": [
            -1 if state.winner is None else state.winner,
            int(state.draw),
            REASON_NAMES.index(state.reason) if state.reason else -1,
        ],
        "zones": [[[int(v) for v in getattr(state, name)[p]] for p in (0, 1)] for name in ZONES],
        "hp": [[list(state.hp[p][a]) for a in (0, 1)] for p in (0, 1)],
        "units": [[list(state.units[p][a]) for a in (0, 1)] for p in (0, 1)],
        "casters": [list(state.casters[p]) for p in (0, 1)],
        "idol": list(state.idol),
        "dummies": [list(state.dummy_cards[p]) + [int(k) for k in state.dummy_known[p]] for p in (0, 1)],
        "area": list(state.area_of[:n]),
        "checked": [int(c) for c in state.checked[:n]],
        "moved": list(state.moved),
        "bp_mod": {obj: value for obj, value in state.bp_mod.items() if value},
        "shield": {obj: value for obj, value in state.shield.items() if value},
        "arms": dict(state.arms),
        "ench": ench,
        "attached": {host: list(codes) for host, codes in state.attached.items() if codes},
        "triggers": [[c, s, _ref_index(state, r)] for c, s, r in state.triggers],
        "stack": [encode_frame(state, frame) for frame in state.stack],
        "known_hand": sorted(state.known_hand[0] + state.known_hand[1]),
    }


def snapshot(row: Row, count: int) -> dict[str, Any]:
    """The row as plain values (`count` instances and tokens), in `reference_snapshot`'s terms."""
    ints = lambda values: [int(v) for v in values]  # noqa: E731
    zone = lambda z, p: ints(row[_zbase(z, p) : _zbase(z, p) + row[LEN + 2 * z + p]])  # noqa: E731
    hp = lambda p, a: ints(row[HPS + (2 * p + a) * PER_PLAYER : HPS + (2 * p + a) * PER_PLAYER + row[NHP + 2 * p + a]])  # noqa: E731
    units = lambda p, a: ints(row[UNITS + 4 * p + 2 * a : UNITS + 4 * p + 2 * a + row[NUNITS + 2 * p + a]])  # noqa: E731
    return {
        "scalars": ints(
            [
                row[TURN],
                row[PHASE],
                row[FIRST],
                row[TOKEN],
                row[SHIFT],
                row[SHIFT + 1],
                row[GEARED],
                row[GEARED + 1],
                row[ATT_PLAYER],
                row[ATT_AREA],
                row[BLOCKER],
                row[ATT_MOD],
                row[COST_RED],
            ]
        ),
        "attackers": ints(row[ATTACKERS : ATTACKERS + row[NATT]]),
        "result": ints([row[WINNER], row[DRAW], row[REASON]]),
        "zones": [[zone(z, p) for p in (0, 1)] for z in range(len(ZONES))],
        "hp": [[hp(p, a) for a in (0, 1)] for p in (0, 1)],
        "units": [[units(p, a) for a in (0, 1)] for p in (0, 1)],
        "casters": [ints(row[CASTER + 2 * p : CASTER + 2 * p + 2]) for p in (0, 1)],
        "idol": ints(row[IDOL : IDOL + 2]),
        "dummies": [
            ints(row[DUMMY + 4 * p : DUMMY + 4 * p + 4]) + ints(row[DKNOWN + 4 * p : DKNOWN + 4 * p + 4])
            for p in (0, 1)
        ],
        "area": ints(row[AREA : AREA + count]),
        "checked": ints(row[CHK : CHK + count]),
        "moved": ints(row[MOVED : MOVED + row[NMOVED]]),
        "bp_mod": {obj: int(row[BPMOD + obj]) for obj in range(count) if row[BPMOD + obj]},
        "shield": {obj: int(row[SHIELD + obj]) for obj in range(count) if row[SHIELD + obj]},
        "arms": {obj: int(row[ARMS + obj]) for obj in range(count) if row[ARMS + obj] != EMPTY},
        "ench": {
            obj: [
                (int(v & 255), int(((v >> 8) & 3) - 1), int((v >> 10) & 1), int(v >> 11))
                for v in row[ENCH + obj * ENCH_CAP : ENCH + obj * ENCH_CAP + row[NENCH + obj]]
            ]
            for obj in range(count)
            if row[NENCH + obj]
        },
        "attached": {
            obj: ints(row[ATTC + obj * ATTC_CAP : ATTC + obj * ATTC_CAP + row[NATTC + obj]])
            for obj in range(count)
            if row[NATTC + obj]
        },
        "triggers": [ints(row[TRIG + 3 * i : TRIG + 3 * i + 3]) for i in range(int(row[NTRIG]))],
        "stack": [ints(row[STACK + f * FW : STACK + (f + 1) * FW]) for f in range(int(row[SP]))],
        "known_hand": [inst for inst in range(count) for _ in range(int(row[KNOWN + inst]))],
    }


def load_state(state: Any) -> tuple[Row, Row]:
    """(row, table) of a reference `DreadnoughtState`: the same deal, stack and pending choices, so that both
    engines play on from one position. A CardlabError for what the kernel does not compile."""
    from cardlab.games.dreadnought.fast.tables import build_table

    return load_row(state), build_table(state.game, state.cards, state.owner)


def load_row(state: Any) -> Row:
    """`load_state`'s row alone (a caller holding the table of `state`'s game, cards and owners)."""
    row = new_row()
    _clear(row)
    snap = reference_snapshot(state)
    scalars = snap["scalars"]
    row[TURN], row[PHASE], row[FIRST], row[TOKEN] = scalars[:4]
    row[SHIFT], row[SHIFT + 1], row[GEARED], row[GEARED + 1] = scalars[4:8]
    row[ATT_PLAYER], row[ATT_AREA], row[BLOCKER], row[ATT_MOD], row[COST_RED] = scalars[8:13]
    row[NATT] = len(state.attackers)
    row[ATTACKERS : ATTACKERS + len(state.attackers)] = state.attackers
    row[WINNER], row[DRAW], row[REASON] = snap["result"]
    for z, _ in enumerate(ZONES):
        for p in (0, 1):
            values = snap["zones"][z][p]
            row[LEN + 2 * z + p] = len(values)
            row[_zbase(z, p) : _zbase(z, p) + len(values)] = values
    for p in (0, 1):
        for a in (0, 1):
            hp = snap["hp"][p][a]
            row[NHP + 2 * p + a] = len(hp)
            row[HPS + (2 * p + a) * PER_PLAYER : HPS + (2 * p + a) * PER_PLAYER + len(hp)] = hp
            units = snap["units"][p][a]
            row[NUNITS + 2 * p + a] = len(units)
            row[UNITS + 4 * p + 2 * a : UNITS + 4 * p + 2 * a + len(units)] = units
        row[CASTER + 2 * p : CASTER + 2 * p + 2] = snap["casters"][p]
        row[DUMMY + 4 * p : DUMMY + 4 * p + 4] = snap["dummies"][p][:4]
        row[DKNOWN + 4 * p : DKNOWN + 4 * p + 4] = snap["dummies"][p][4:]
    row[IDOL : IDOL + 2] = snap["idol"]
    count = len(state.cards)
    row[AREA : AREA + count] = snap["area"]
    row[CHK : CHK + count] = snap["checked"]
    row[NMOVED] = len(state.moved)
    row[MOVED : MOVED + len(state.moved)] = state.moved
    for obj, value in snap["bp_mod"].items():
        row[BPMOD + obj] = value
    for obj, value in snap["shield"].items():
        row[SHIELD + obj] = value
    for obj, value in snap["arms"].items():
        row[ARMS + obj] = value
    for obj, entries in snap["ench"].items():
        if len(entries) > ENCH_CAP:
            raise CardlabError(f"the cpu engine holds at most {ENCH_CAP} enchants per object")
        row[NENCH + obj] = len(entries)
        for i, (card, kind, owner, secret) in enumerate(entries):
            row[ENCH + obj * ENCH_CAP + i] = card + 256 * (kind + 1) + 1024 * owner + SECRET * secret
    for obj, codes in snap["attached"].items():
        row[NATTC + obj] = len(codes)
        row[ATTC + obj * ATTC_CAP : ATTC + obj * ATTC_CAP + len(codes)] = codes
        row[N_ATTACHED] += len(codes)
    for inst in snap["known_hand"]:
        row[KNOWN + inst] += 1
    row[NTRIG] = len(snap["triggers"])
    for i, trigger in enumerate(snap["triggers"]):
        row[TRIG + 3 * i : TRIG + 3 * i + 3] = trigger
    if len(snap["stack"]) > STACK_CAP:
        raise CardlabError(f"the cpu engine holds at most {STACK_CAP} frames")
    row[SP] = len(snap["stack"])
    for f, frame in enumerate(snap["stack"]):
        row[STACK + f * FW : STACK + (f + 1) * FW] = frame
    return row


def force_shuffle(row: Row, player: int, deck: list[int]) -> None:
    """Hand the kernel the deck order the reference's next mulligan_to=deck shuffle gives `player` (R-VD1):
    the reference seeds it with the cards' ids, which the kernel does not reproduce (it draws from its own
    stream), so the lock-step test computes it and the kernel takes it instead, once."""
    row[FORCE_N + player] = len(deck)
    row[FORCE + player * PER_PLAYER : FORCE + player * PER_PLAYER + len(deck)] = deck


def game_table(game: Any) -> Table:
    """The table of a `Dreadnought` game's own deal (`tables.dealt_cards`)."""
    from cardlab.games.dreadnought.fast.tables import build_table

    cards, owner = game.instances(game.decks)
    return build_table(game, cards, owner)


def play_game(game: Any, n_games: int, seed: int, first_game: int = 0) -> tuple[Row, Row, Row, Row]:
    """`play_batch` for a `Dreadnought` game (its cards, decks and rule options)."""
    columns = play_batch(game_table(game), n_games, seed % 2**62, first_game)
    check_overflow(columns[1])
    return columns


__all__ = [
    "N_CARDS",
    "Table",
    "apply",
    "check_overflow",
    "current_player",
    "deal",
    "legal_actions",
    "load_state",
    "outcome",
    "play_batch",
    "play_game",
    "snapshot",
]


flush_stale_cache(sys.modules[__name__])  # it compiles in `tables` and `cardlab.fast.rng`
