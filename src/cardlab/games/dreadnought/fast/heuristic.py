"""`games/dreadnought/heuristic.choose` compiled on the kernel's row (`cpu`): the same action at every decision.

It reads what the reference reads, no more: the deciding player's observation (the decision frame and its
data, the attack, the pending `ACTION` item, HP, hand and speed-area cards of its own, hand, deck, burst and
engrave counts, speed grades, the token and F) and the field through the state's public methods (`cpu._bp`,
`_shields`, `_candidates`, `_payable`, `_fits`, `_log_sources`), plus, under rule reactions=stack, the
reactions waiting on the public stack. Never the opponent's hand or any deck's order.

Sameness. Scores are the reference's float64 expressions in the same order of operations, ties are broken as
the reference breaks them (the reference's legal order: options naming a card are sorted by card id, the
table's `H_RANK`; `min` over tuples ending in the action: the lowest id), and the reference's per-decision
caches are reproduced where they change results: the attack-plan delta is cached by (BP changes, objects
gone) only, as `_View.value` does, so a scenario differing only in shields reuses the first one's plans. The
reference is deterministic (its `rng` is unused), so no stream is shared. tests/games/dreadnought/fast/
test_heuristic.py plays both engines in lock step and compares every decision's choice.

Numba-callable entry points (a compiled search's rollout policy):

    decide(row, tab, out, n, wi, wf) -> int
        row: the kernel row (`cpu.new_row`, after `cpu.deal` / `cpu.apply`); tab: its table
        (`cpu.game_table` / `cpu.load_state`, which carry the `H_*` rows since this module);
        out[:n]: the legal action ids `cpu.legal_actions` / `cpu.apply` left there (n >= 1);
        wi, wf: the scratch it works in (`new_scratch(tab[N_ACTIONS])`, one per thread, reused).
        Returns the action id the reference heuristic would choose for the player to move; it reads
        only that seat's information. Never writes `row`, `tab` or `out`.
    heuristic_action(row, tab, out, n) -> int
        `decide` in a scratch of its own (allocated per call: for tests and one-off decisions).
    policy_action(row, tab, out, n, policy, epsilon, rng, wi, wf) -> int
        `POLICY_RANDOM` or `POLICY_HEURISTIC`, with probability `epsilon` a uniform random action instead
        (drawn from the splitmix64 stream `rng`, as `cpu.play_batch` draws).

`play_batch` plays whole games with a policy (and an epsilon) per seat.

Speed. A decision weighs its options on scenarios (what an option would change), copied for every option and
target tried; they live as short lists in a stack in the scratch, so a decision allocates nothing but a few
small arrays (1.30x the games per second of a scenario allocated per copy with a slot per instance).

Room: the plan cache holds `PLAN_CAP` scenarios per decision (the reference's is unbounded; a decision past it
would compute a later scenario's plans afresh, which differs only if it shares a cached one's key but not its
shields); a scenario holds `CHANGE_CAP` objects gone, BP changes and shield changes, more than a field's 14
objects; `LEVELS` scenarios are alive at once at most.
"""

from __future__ import annotations

import math
import sys

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from cardlab.fast.rng import below as _below
from cardlab.fast.rng import seed_rng
from cardlab.fast.search import flush_stale_cache
from cardlab.games.dreadnought.fast import cpu
from cardlab.games.dreadnought.fast.cpu import (
    _BLOCK_GAMES,
    ATT_MOD,
    ATT_PLAYER,
    ATTACKERS,
    BLOCKER,
    CASTER,
    CHK,
    D_ABUILD,
    D_ATURN,
    D_BLOCK,
    D_DEST,
    D_HPDECK,
    D_HPDRAW,
    D_LIMIT,
    D_MOVE_TO,
    D_MULL,
    D_ORDER,
    D_PAY_DISCARD,
    D_PAY_SRC,
    D_PICK,
    D_PLACE,
    D_REACT,
    D_SCRAP,
    D_TARGET,
    D_UPKEEP_IDOL,
    D_WIN,
    EMPTY,
    F_RESOLVE,
    FIRST,
    FW,
    IDOL,
    IDOL_AREA,
    NATT,
    P_ACTION,
    P_CARD,
    P_KIND,
    P_NT,
    P_REF,
    P_SOURCE,
    P_T,
    PH_CAST,
    PH_FAST,
    PH_OVER,
    PH_SPEED,
    PHASE,
    PK_ARMS,
    PK_IDOL,
    REASON,
    ROW_SIZE,
    SHIFT,
    SP,
    STACK,
    TOKEN,
    TURN,
    W_CAST,
    W_SPEED,
    WINNER,
    Z_BCHK,
    Z_DECK,
    Z_ECHK,
    Z_GEAR,
    Z_HAND,
    Z_MULL,
    Z_SPEED,
    _activated_ref,
    _bp,
    _candidates,
    _current_speed,
    _dec,
    _eff,
    _fits,
    _hp_len,
    _inst,
    _is_caster,
    _is_dummy,
    _is_group,
    _log_sources,
    _n_activated,
    _n_units,
    _normal,
    _object_at,
    _on_field,
    _owner,
    _payable,
    _ref,
    _shields,
    _stat,
    _unit,
    _units_of,
    _weight,
    _zget,
    _zlen,
    apply,
    deal,
)
from cardlab.games.dreadnought.fast.tables import (
    B_HEU,
    C_ACT,
    C_CODE_REF,
    C_N_ACT,
    C_SUB_DISCARD,
    C_SUB_ENGRAVE,
    C_SUB_LOG,
    C_SUB_REF,
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
    EF_ATTACH,
    EF_ATTACK_MOD,
    EF_BOUNCE,
    EF_BP_MOD,
    EF_BREAK,
    EF_BURST,
    EF_CHECK,
    EF_DAMAGE,
    EF_DRAW,
    EF_ENCHANT,
    EF_ENGRAVE,
    EF_HP_BREAK,
    EF_HP_GAIN,
    EF_KIND,
    EF_MOVE,
    EF_N_STATIC,
    EF_NAME,
    EF_NORMALIZE,
    EF_NUM,
    EF_SEL,
    EF_SHIELD,
    EF_SPEED_SHIFT,
    EF_STATIC,
    EF_STATIC_SHIELD,
    H_BP,
    H_COST,
    H_EX_DISCARD,
    H_EX_ENGRAVE,
    H_HP_EFFECT,
    H_OWN_ACT,
    H_RANK,
    H_SPEED,
    H_TIMING,
    H_TYPE,
    HCOLS,
    I_BP,
    I_CARD,
    I_HP_VALUE,
    I_SPEED,
    I_TYPE,
    I_UPKEEP,
    I_WEIGHT,
    M_ACTION,
    M_CAST,
    M_FAST,
    M_REACTION,
    M_SPEED,
    MAX_INSTANCES,
    N_ACTIONS,
    R_REACTION_STACK,
    RF_CHECK_SELF,
    RF_DISCARD,
    RF_EFF,
    RF_ENGRAVE,
    RF_LOG,
    RF_N_EFF,
    RF_REQUIRE,
    RF_TIMING,
    ST_AMOUNT,
    ST_NAME,
    T_ARMS,
    T_CODE,
    T_IDOL,
    T_UNIT,
    V_ATTACK,
    V_ATTACKER,
    V_BLOCK,
    V_CAST,
    V_DISCARD,
    V_DONE,
    V_DUMMY,
    V_GEAR,
    V_GODDRAW,
    V_KEEP,
    V_MATERIAL,
    V_MOVE,
    V_MULL,
    V_PASS,
    V_PAY,
    V_PLACE,
    V_PLAY,
    V_SUB,
    V_UPKEEP_CHECK,
    V_UPKEEP_PAY,
    V_USE,
    V_USE_S,
)
from cardlab.games.dreadnought.heuristic import (  # the reference's weights, read by numba as constants
    ATTACK_THRESHOLD,
    BURST_KEEP,
    CARD_COST,
    CHECK_COST,
    DUMMY_VALUE,
    ENGRAVE_COST,
    EVAL_SCALE,
    EXPOSE,
    GUARD_DISCOUNT,
    HAND_CAP,
    HP_VALUE,
    LOG_COST,
    MAX_MULLIGAN,
    PLAN_WEIGHT,
    PLAY_THRESHOLD,
    PUMP_RISK,
    SPEED_CARD_COST,
    WIN_BONUS,
)

Row = npt.NDArray[np.int64]
Defence = tuple[bool, int, float, int, int, int, int]
"""`heuristic._Defence`: has_units, breaks_all, lost_unit, caster_shields, hp_value, hp, total_hp."""


POLICY_RANDOM, POLICY_HEURISTIC = 0, 1
POLICIES = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC}

NI = MAX_INSTANCES
CHANGE_CAP = 32
"""Objects a scenario can touch of each kind (gone, BP changed, shields changed): a field holds 14."""
# A scenario (`heuristic._Scenario`): an int64 vector of its changes (the attack change, then three lists: the
# objects gone with their reasons, in insertion order; BP changes and shield changes by object, in the order first
# touched) and its float `misc`. A list is its count, CHANGE_CAP objects, then their values. Lists, not a slot per
# instance: a scenario is copied for every option and target the heuristic weighs.
LIST = 1 + 2 * CHANGE_CAP
SC_ATK = 0
SC_GONE = SC_ATK + 1
SC_BP = SC_GONE + LIST
SC_SH = SC_BP + LIST
SC_SIZE = SC_SH + LIST
GONE_BREAK, GONE_BOUNCE, GONE_MOVE = 1, 2, 3
# A decision's view (`heuristic._View`): who decides, the guard cache, the waiting and pending plays (as stack
# frame offsets), BP and shields read once (each marked with the decision's stamp, so a new decision forgets them
# without clearing), the attack-plan cache's fill.
CX_ME, CX_GUARD, CX_PENDING, CX_NWAIT, CX_STAMP, CX_WAIT = 0, 1, 2, 3, 4, 5
WAIT_CAP = 48
CX_BPK = CX_WAIT + WAIT_CAP
CX_BPV = CX_BPK + NI
CX_SHK = CX_BPV + NI
CX_SHV = CX_SHK + NI
CX_NPLAN = CX_SHV + NI
CX_SIZE = CX_NPLAN + 1
PLAN_CAP = 1024
KEY_W = 2 + 3 * 16
"""A plan-cache key: BP changes (object, value) sorted by object, then the objects gone sorted."""
LEVELS = 8
"""Scenarios alive at once in one decision: an item's, a target's trial, and the pending play resolved on it."""
# The scratch of one decision, allocated once per thread (`new_scratch`): the view, the scenario stack, the plan
# cache and key, the legal actions in the reference's order; floats: the scenarios' misc and the cached plans.
W_CX = 0
W_STACK = W_CX + CX_SIZE
W_PKEYS = W_STACK + LEVELS * SC_SIZE
W_PHASH = W_PKEYS + PLAN_CAP * KEY_W
W_KEY = W_PHASH + PLAN_CAP
W_FOUND = W_KEY + KEY_W  # `_apply_play`'s group targets, `_effects_value`'s candidates
W_CANDS = W_FOUND + 16
W_LEGAL = W_CANDS + 16
WF_MISC = 0
WF_PVAL = WF_MISC + LEVELS
WF_SIZE = WF_PVAL + PLAN_CAP


# -- table reads ---------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _h(tab: Row, card: int, col: int) -> int:
    return tab[tab[B_HEU] + card * HCOLS + col]


@njit(cache=True, inline="always")
def _c(tab: Row, card: int, col: int) -> int:
    return tab[CARD_BASE + card * CCOLS + col]


@njit(cache=True)
def card_value(tab: Row, card: int) -> float:
    """`_View.card_value`: how much a card in hand is worth keeping."""
    kind = _h(tab, card, H_TYPE)
    if kind in (T_UNIT, T_IDOL):
        return 1.0 + _h(tab, card, H_BP) / 100 - 0.1 * max(0, _h(tab, card, H_COST) - 2)
    if kind == T_ARMS:
        return 0.7
    value = 1.0
    if _h(tab, card, H_TIMING) & M_REACTION:
        value += 0.2
    if _h(tab, card, H_HP_EFFECT):
        value += 0.5
    return value


@njit(cache=True)
def _price(log: int, engrave: int, discard: int) -> float:
    return LOG_COST * log + ENGRAVE_COST * engrave + CARD_COST * discard


# -- the view ---------------------------------------------------------------------------------------


@njit(cache=True)
def _new_view(row: Row, tab: Row, me: int, wi: Row) -> Row:
    """The decision's view, in the scratch."""
    cx = wi[W_CX : W_CX + CX_SIZE]
    cx[CX_STAMP] += 1
    cx[CX_NWAIT] = 0
    cx[CX_NPLAN] = 0
    cx[CX_ME] = me
    cx[CX_GUARD] = -1
    cx[CX_PENDING] = -1
    for f in range(row[SP] - 1, -1, -1):  # `pending_action`: the newest ACTION item's resolve frame
        base = STACK + f * FW
        if row[base] == F_RESOLVE and row[base + P_ACTION]:
            cx[CX_PENDING] = base
            break
    if tab[R_REACTION_STACK]:  # rule reactions=stack (R-VD4): the reactions on the stack, next to resolve first
        n = 0
        for f in range(row[SP] - 1, -1, -1):
            base = STACK + f * FW
            if row[base] == F_RESOLVE and not row[base + P_ACTION] and n < WAIT_CAP:
                cx[CX_WAIT + n] = base
                n += 1
        cx[CX_NWAIT] = n
    return cx


@njit(cache=True)
def _vbp(row: Row, tab: Row, cx: Row, obj: int) -> int:
    if cx[CX_BPK + obj] != cx[CX_STAMP]:
        cx[CX_BPK + obj] = cx[CX_STAMP]
        cx[CX_BPV + obj] = _bp(row, tab, obj)
    return cx[CX_BPV + obj]


@njit(cache=True)
def _vsh(row: Row, tab: Row, cx: Row, obj: int) -> int:
    if cx[CX_SHK + obj] != cx[CX_STAMP]:
        cx[CX_SHK + obj] = cx[CX_STAMP]
        cx[CX_SHV + obj] = _shields(row, tab, obj)
    return cx[CX_SHV + obj]


@njit(cache=True, inline="always")
def _find(si: Row, count_at: int, obj: int) -> int:
    """Where `obj` is in the scenario's list at `count_at` (its count, CHANGE_CAP objects, their values); -1 if
    absent."""
    for k in range(si[count_at]):
        if si[count_at + 1 + k] == obj:
            return k
    return -1


@njit(cache=True, inline="always")
def _change(si: Row, count_at: int, obj: int) -> int:
    """`obj`'s value in the scenario's list at `count_at` (0 if absent)."""
    k = _find(si, count_at, obj)
    return si[count_at + 1 + CHANGE_CAP + k] if k >= 0 else 0


@njit(cache=True)
def _slot(si: Row, count_at: int, obj: int) -> int:
    """The offset of `obj`'s value in the scenario's list at `count_at`, appended with value 0 if absent."""
    k = _find(si, count_at, obj)
    if k < 0:
        k = si[count_at]
        si[count_at] = k + 1
        si[count_at + 1 + k] = obj
        si[count_at + 1 + CHANGE_CAP + k] = 0
    return count_at + 1 + CHANGE_CAP + k


@njit(cache=True, inline="always")
def _sbp(row: Row, tab: Row, cx: Row, obj: int, si: Row) -> int:
    return _vbp(row, tab, cx, obj) + _change(si, SC_BP, obj)


@njit(cache=True, inline="always")
def _ssh(row: Row, tab: Row, cx: Row, obj: int, si: Row) -> int:
    return _vsh(row, tab, cx, obj) + _change(si, SC_SH, obj)


@njit(cache=True, inline="always")
def _clear(si: Row, sf: npt.NDArray[np.float64]) -> None:
    """The empty scenario: no change."""
    si[SC_ATK] = 0
    si[SC_GONE] = 0
    si[SC_BP] = 0
    si[SC_SH] = 0
    sf[0] = 0.0


@njit(cache=True, inline="always")
def _copy(si: Row, sf: npt.NDArray[np.float64], into: Row, into_f: npt.NDArray[np.float64]) -> None:
    """`into` := `si` (the lists' filled parts only)."""
    into[SC_ATK] = si[SC_ATK]
    for count_at in (SC_GONE, SC_BP, SC_SH):  # each list: its count, objects, then values (CHANGE_CAP apart)
        count = si[count_at]
        into[count_at] = count
        for k in range(count_at + 1, count_at + 1 + count):
            into[k] = si[k]
            into[k + CHANGE_CAP] = si[k + CHANGE_CAP]
    into_f[0] = sf[0]


@njit(cache=True, inline="always")
def _level(wi: Row, wf: npt.NDArray[np.float64], lv: int) -> tuple[Row, npt.NDArray[np.float64]]:
    """Slot `lv` of the scratch's scenario stack: its int vector and its misc."""
    at = W_STACK + lv * SC_SIZE
    return wi[at : at + SC_SIZE], wf[WF_MISC + lv : WF_MISC + lv + 1]


@njit(cache=True, inline="always")
def _hp(row: Row, p: int, area: int) -> int:
    return _hp_len(row, p, area)


@njit(cache=True, inline="always")
def _total_hp(row: Row, p: int) -> int:
    return _hp_len(row, p, 0) + _hp_len(row, p, 1)


@njit(cache=True, inline="always")
def _sign(cx: Row, p: int) -> float:
    return 1.0 if p == cx[CX_ME] else -1.0


@njit(cache=True)
def _uval(row: Row, tab: Row, obj: int) -> float:
    """`unit_value`: 1 + BP/60 (printed), an idol 0.5 more, a dummy `DUMMY_VALUE`."""
    if _is_dummy(tab, obj):
        return DUMMY_VALUE
    return 1.0 + _inst(tab, obj, I_BP) / 60 + (0.5 if row[cpu.AREA + obj] == IDOL_AREA else 0.0)


@njit(cache=True)
def _hand_size(row: Row, cx: Row, p: int) -> int:
    """The observation's hand: a list of the decider's own cards, else a count (an unrevealed mulligan too, R-D9)."""
    if p == cx[CX_ME]:
        return _zlen(row, Z_HAND, p)
    return _zlen(row, Z_HAND, p) + _zlen(row, Z_MULL, p)


@njit(cache=True)
def _excess_bursts(row: Row, cx: Row) -> int:
    me = cx[CX_ME]
    return min(_normal(row, Z_BCHK, me), _zlen(row, Z_BCHK, me) - BURST_KEEP)


@njit(cache=True, inline="always")
def _is_gone(si: Row, obj: int) -> bool:
    return obj >= 0 and _find(si, SC_GONE, obj) >= 0


@njit(cache=True)
def _set_gone(si: Row, obj: int, reason: int) -> None:
    si[_slot(si, SC_GONE, obj)] = reason


@njit(cache=True)
def _add_bp(si: Row, obj: int, delta: int) -> None:
    si[_slot(si, SC_BP, obj)] += delta


@njit(cache=True)
def _area_units_left(row: Row, p: int, area: int, si: Row) -> int:
    """How many of `p`'s units in `area` the scenario leaves."""
    count = 0
    for i in range(_n_units(row, p, area)):
        if not _is_gone(si, _unit(row, p, area, i)):
            count += 1
    return count


# -- combat ---------------------------------------------------------------------------------------


@njit(cache=True)
def _block_loss(row: Row, tab: Row, cx: Row, blocker: int, damage: int, si: Row) -> float:
    """`_View.block_loss` (D10.7, D10.8)."""
    owner = _owner(tab, blocker)
    dealt = max(0, damage - _ssh(row, tab, cx, blocker, si))
    if _is_caster(tab, blocker):
        hp = _hp(row, owner, row[cpu.AREA + blocker])
        lost = min(dealt // _inst(tab, blocker, I_HP_VALUE), hp)
        loss = HP_VALUE * lost
        if lost and lost >= _total_hp(row, owner):
            loss += WIN_BONUS
        return loss
    if dealt < _sbp(row, tab, cx, blocker, si):
        return 0.0
    area = row[cpu.AREA + blocker]
    loss = _uval(row, tab, blocker)
    others = 0
    for i in range(_n_units(row, owner, area)):
        u = _unit(row, owner, area, i)
        if not _is_gone(si, u) and u != blocker:
            others += 1
    if not others and _hp(row, owner, area):
        loss += HP_VALUE
        if _total_hp(row, owner) == 1:
            loss += WIN_BONUS
    return loss


@njit(cache=True)
def _defence(row: Row, tab: Row, cx: Row, defender: int, area: int, si: Row) -> Defence:
    """`_View.defence`: (has_units, breaks_all, lost_unit, caster_shields, hp_value, hp, total_hp)."""
    hp = _hp(row, defender, area)
    total_hp = _total_hp(row, defender)
    count = _area_units_left(row, defender, area, si)
    lost_unit = math.inf
    breaks_all = 0
    first = True
    for i in range(_n_units(row, defender, area)):
        unit = _unit(row, defender, area, i)
        if _is_gone(si, unit):
            continue
        loss = _uval(row, tab, unit)
        if count == 1 and hp:
            loss += HP_VALUE + (WIN_BONUS if total_hp == 1 else 0.0)
        lost_unit = min(lost_unit, loss)
        value = _sbp(row, tab, cx, unit, si) + _ssh(row, tab, cx, unit, si)
        if first or value > breaks_all:
            breaks_all = value
            first = False
    caster = row[CASTER + 2 * defender + area]
    if not hp:
        return count > 0, breaks_all, lost_unit, 0, 1, 0, total_hp
    return (
        count > 0,
        breaks_all,
        lost_unit,
        _ssh(row, tab, cx, caster, si),
        _inst(tab, caster, I_HP_VALUE),
        hp,
        total_hp,
    )


@njit(cache=True)
def _dloss(d: Defence, damage: int) -> float:
    """`_Defence.loss`."""
    has_units, breaks_all, lost_unit, caster_shields, hp_value, hp, total_hp = d
    if has_units and damage < breaks_all:
        return 0.0
    loss = lost_unit
    if hp:
        lost = min(max(0, damage - caster_shields) // hp_value, hp)
        loss = min(loss, HP_VALUE * lost + (WIN_BONUS if lost and lost >= total_hp else 0.0))
    return loss if loss < math.inf else 0.0


@njit(cache=True)
def _plan_score(d: Defence, damage: int, count: int) -> float:
    """`_Defence.plan_score`."""
    loss = _dloss(d, damage)
    if loss <= 0:
        return 0.0
    return 0.7 * loss + 0.3 * _dloss(d, damage - PUMP_RISK) - 0.05 * count


@njit(cache=True)
def _plan_units(row: Row, p: int, si: Row, units: Row) -> int:
    """`_plan_inputs`' units: `p`'s normal battle-area units the scenario leaves, BA1 then BA2."""
    n = 0
    for area in range(2):
        for i in range(_n_units(row, p, area)):
            u = _unit(row, p, area, i)
            if not row[CHK + u] and not _is_gone(si, u):
                units[n] = u
                n += 1
    return n


@njit(cache=True)
def _plan_areas(row: Row, enemy: int, si: Row, areas: Row) -> int:
    m = 0
    for a in range(2):
        if _area_units_left(row, enemy, a, si) or _hp(row, enemy, a):
            areas[m] = a
            m += 1
    return m


@njit(cache=True)
def _best_attack(row: Row, tab: Row, cx: Row, p: int, si: Row, chosen: Row, n_chosen: int, area_ok: Row,
                 plan: Row) -> tuple[bool, float, int, int]:  # fmt: skip
    """`max(attack_plans(p, sc, required), key=score)` among the areas `area_ok` allows: (found, score, mask,
    area), the plan's units left in `plan` (by index into `_plan_units`' order)."""
    units = np.empty(8, dtype=np.int64)
    areas = np.empty(2, dtype=np.int64)
    n = _plan_units(row, p, si, units)
    m = _plan_areas(row, 1 - p, si, areas)
    for i in range(n):
        plan[i] = units[i]
    if n == 0 or m == 0:
        return False, 0.0, 0, 0
    need = 0
    for k in range(n_chosen):
        for i in range(n):
            if units[i] == chosen[k]:
                need |= 1 << i
    bps = np.empty(8, dtype=np.int64)
    for i in range(n):
        bps[i] = _sbp(row, tab, cx, units[i], si)
    d0 = _defence(row, tab, cx, 1 - p, areas[0], si)
    d1 = _defence(row, tab, cx, 1 - p, areas[m - 1], si)
    found = False
    best, best_mask, best_area = 0.0, 0, 0
    for mask in range(1, 1 << n):
        if mask & need != need:
            continue
        damage = 0
        count = 0
        for i in range(n):
            if mask >> i & 1:
                damage += bps[i]
                count += 1
        damage = max(0, damage)
        for j in range(m):
            area = areas[j]
            if not area_ok[area]:
                continue
            score = _plan_score(d0 if j == 0 else d1, damage, count)
            if not found or score > best:
                found, best, best_mask, best_area = True, score, mask, area
    return found, best, best_mask, best_area


@njit(cache=True)
def _best_plan(row: Row, tab: Row, cx: Row, p: int, si: Row) -> float:
    """`_View.best_plan`: the score of `p`'s best attack now (0 when none is worth anything). Its arrays are its
    own, not the scratch's: the compiler then knows they do not overlap (views of one scratch ran 7% slower)."""
    units = np.empty(8, dtype=np.int64)
    areas = np.empty(2, dtype=np.int64)
    n = _plan_units(row, p, si, units)
    m = _plan_areas(row, 1 - p, si, areas)
    if n == 0 or m == 0:
        return 0.0
    size = 1 << n
    sums = np.empty(size, dtype=np.int64)
    counts = np.empty(size, dtype=np.int64)
    sums[0] = counts[0] = 0
    bps = np.empty(8, dtype=np.int64)
    for i in range(n):
        bps[i] = _sbp(row, tab, cx, units[i], si)
    for mask in range(1, size):
        low = mask & -mask
        bit = 0
        while (1 << bit) != low:
            bit += 1
        sums[mask] = sums[mask ^ low] + bps[bit]
        counts[mask] = counts[mask ^ low] + 1
    # The reference scores each damage once, at the fewest attackers dealing it. A plan's score falls as its
    # attackers grow (`_plan_score` subtracts 0.05 per attacker; rounding keeps that order), so the best over
    # every mask is the same number, found without pairing masks.
    best = 0.0
    for j in range(m):
        d = _defence(row, tab, cx, 1 - p, areas[j], si)
        for mask in range(1, size):
            damage = sums[mask]
            if d[0] and damage < d[1]:
                continue  # below breaks_all every block survives
            score = _plan_score(d, damage, counts[mask])
            if score > best:
                best = score
    return best


# -- scenario values --------------------------------------------------------------------------------


@njit(cache=True)
def _loss_value(row: Row, tab: Row, obj: int, reason: int, si: Row) -> float:
    """`_View.loss_value`: the owner's loss when `obj` leaves (or, for a move, leaves its area)."""
    owner = _owner(tab, obj)
    if reason == GONE_BREAK:
        value = _uval(row, tab, obj)
    elif reason == GONE_BOUNCE:
        value = 0.0 if _is_dummy(tab, obj) else _uval(row, tab, obj) - CARD_COST - 0.2
    else:
        value = 0.0
    area = row[cpu.AREA + obj]
    if (area == 0 or area == 1) and _hp(row, owner, area) and not _area_units_left(row, owner, area, si):
        value += EXPOSE
    return value


@njit(cache=True)
def _attack_term(row: Row, tab: Row, cx: Row, si: Row) -> float:
    """`_View.attack_term`: the pending attack's result for me, plus when I attack, minus when I defend."""
    if row[ATT_PLAYER] == EMPTY:
        return 0.0
    blocker = row[BLOCKER]
    if not _on_field(row, blocker) or _is_gone(si, blocker):
        return 0.0
    alive = 0
    total = 0
    for i in range(row[NATT]):
        a = row[ATTACKERS + i]
        if not _on_field(row, a) or _is_gone(si, a):
            continue
        alive += 1
        total += _sbp(row, tab, cx, a, si)
    if not alive:
        return 0.0
    damage = max(0, total + row[ATT_MOD] + si[SC_ATK])
    loss = _block_loss(row, tab, cx, blocker, damage, si)
    return loss if row[ATT_PLAYER] == cx[CX_ME] else -loss


@njit(cache=True)
def _guard(row: Row, tab: Row, cx: Row) -> int:
    """`_View.guard`: the biggest shield the opponent can still add by a visible REACTION ability."""
    if cx[CX_GUARD] >= 0:
        return cx[CX_GUARD]
    enemy = 1 - cx[CX_ME]
    best = 0
    objects = np.empty(8, dtype=np.int64)
    objects[0] = row[CASTER + 2 * enemy]
    objects[1] = row[CASTER + 2 * enemy + 1]
    n = _units_of(row, enemy, objects, 2)
    for k in range(n):
        obj = objects[k]
        if obj == EMPTY or _is_dummy(tab, obj) or row[CHK + obj]:
            continue
        for j in range(_n_activated(row, tab, obj)):
            ref = _activated_ref(row, tab, obj, j)
            if not _ref(tab, ref, RF_TIMING) & M_REACTION or _ref(tab, ref, RF_REQUIRE):
                continue
            amount = 0
            for e in range(_ref(tab, ref, RF_N_EFF)):
                eff = _ref(tab, ref, RF_EFF + e)
                if _eff(tab, eff, EF_NAME) == EF_SHIELD:
                    amount += _eff(tab, eff, EF_NUM)
            if amount > best and _payable(row, tab, enemy, _ref(tab, ref, RF_LOG), _ref(tab, ref, RF_DISCARD), obj,
                                          _ref(tab, ref, RF_ENGRAVE), False, EMPTY, EMPTY):  # fmt: skip
                best = amount
    cx[CX_GUARD] = best
    return best


@njit(cache=True)
def _apply(row: Row, tab: Row, cx: Row, si: Row, sf: npt.NDArray[np.float64], eff: int, obj: int,
           controller: int) -> None:  # fmt: skip
    """`_View.apply`: one effect (D22.2) on the scenario, in place."""
    name = _eff(tab, eff, EF_NAME)
    number = _eff(tab, eff, EF_NUM)
    sign = _sign(cx, controller)
    me = cx[CX_ME]
    if name == EF_DAMAGE:
        dealt = number - _ssh(row, tab, cx, obj, si)
        if dealt >= _sbp(row, tab, cx, obj, si):
            _set_gone(si, obj, GONE_BREAK)
            foe = controller == me and _owner(tab, obj) != me
            if foe and dealt - _guard(row, tab, cx) < _sbp(row, tab, cx, obj, si):  # a visible shield may save it
                sf[0] -= GUARD_DISCOUNT * _loss_value(row, tab, obj, GONE_BREAK, si)
    elif name == EF_BREAK:
        _set_gone(si, obj, GONE_BREAK)
    elif name in (EF_ENCHANT, EF_BP_MOD):
        delta = 20 * number * (1 if _eff(tab, eff, EF_KIND) == 1 else -1) if name == EF_ENCHANT else number
        _add_bp(si, obj, delta)
        if _sbp(row, tab, cx, obj, si) <= 0:
            _set_gone(si, obj, GONE_BREAK)
    elif name == EF_SHIELD:
        si[_slot(si, SC_SH, obj)] += number
    elif name == EF_ATTACH:
        for k in range(_eff(tab, eff, EF_N_STATIC)):
            st = _eff(tab, eff, EF_STATIC + k)
            if _stat(tab, st, ST_NAME) == EF_STATIC_SHIELD:
                si[_slot(si, SC_SH, obj)] += _stat(tab, st, ST_AMOUNT)
            else:
                _add_bp(si, obj, _stat(tab, st, ST_AMOUNT))
    elif name == EF_ATTACK_MOD:
        if row[ATT_PLAYER] != EMPTY:
            si[SC_ATK] += number
    elif name == EF_DRAW:
        sf[0] += sign * 0.9 * number
    elif name == EF_BURST:
        sf[0] += sign * 0.4 * min(number, _zlen(row, Z_DECK, controller))
    elif name == EF_ENGRAVE:
        room = max(0, 3 - _zlen(row, Z_ECHK, controller))
        sf[0] += sign * 0.5 * min(number, room + 1)
    elif name == EF_NORMALIZE:
        if row[CHK + obj] and not _is_dummy(tab, obj) and not _is_gone(si, obj):
            sf[0] += _sign(cx, _owner(tab, obj)) * 0.8
    elif name == EF_CHECK:
        if not row[CHK + obj] and not _is_gone(si, obj) and not _is_caster(tab, obj):
            sf[0] -= _sign(cx, _owner(tab, obj)) * 0.4
    elif name == EF_BOUNCE:
        _set_gone(si, obj, GONE_BOUNCE)
    elif name == EF_MOVE:
        area = row[cpu.AREA + obj]
        if (area == 0 or area == 1) and _fits(row, tab, _owner(tab, obj), 1 - area, _weight(tab, obj)):
            _set_gone(si, obj, GONE_MOVE)
    elif name == EF_HP_BREAK:
        owner = _owner(tab, obj)
        lost = min(number, _hp(row, owner, row[cpu.AREA + obj]))
        sf[0] -= _sign(cx, owner) * HP_VALUE * lost
        if lost and lost >= _total_hp(row, owner):
            sf[0] -= _sign(cx, owner) * WIN_BONUS
    elif name == EF_HP_GAIN:
        owner = _owner(tab, obj)
        gained = min(number, _zlen(row, Z_DECK, owner))
        sf[0] += _sign(cx, owner) * HP_VALUE * gained


@njit(cache=True)
def _apply_play(row: Row, tab: Row, cx: Row, si: Row, sf: npt.NDArray[np.float64], base: int, wi: Row) -> None:
    """`_View.apply_play` in place (the caller copies): the play of the stack frame at `base` on its targets."""
    ref = row[base + P_REF]
    if ref < 0:
        return
    player = row[base + 1]
    source = row[base + P_SOURCE]
    found = wi[W_FOUND : W_FOUND + 16]
    j = 0
    for e in range(_ref(tab, ref, RF_N_EFF)):
        eff = _ref(tab, ref, RF_EFF + e)
        sel = _eff(tab, eff, EF_SEL)
        if sel >= 0 and not _is_group(tab, sel):
            obj = row[base + P_T + j] if j < row[base + P_NT] else EMPTY
            j += 1
            if obj != EMPTY and not _is_gone(si, obj) and (_on_field(row, obj) or _is_caster(tab, obj)):
                _apply(row, tab, cx, si, sf, eff, obj, player)
        elif sel >= 0:
            n = _candidates(row, tab, sel, player, source, found, True)
            for k in range(n):
                if not _is_gone(si, found[k]):
                    _apply(row, tab, cx, si, sf, eff, found[k], player)
        else:
            _apply(row, tab, cx, si, sf, eff, EMPTY, player)


@njit(cache=True)
def _sorted_into(si: Row, count_at: int, key: Row, at: int, stride: int, limit: int) -> None:
    """The first `limit` objects of one of the scenario's lists in ascending order into `key[at::stride]`, each
    followed by its value when `stride` is 2 (an insertion sort: the lists are short)."""
    filled = 0
    for k in range(si[count_at]):
        obj = si[count_at + 1 + k]
        value = si[count_at + 1 + CHANGE_CAP + k]
        j = filled
        while j > 0 and key[at + (j - 1) * stride] > obj:
            if j < limit:
                for w in range(stride):
                    key[at + j * stride + w] = key[at + (j - 1) * stride + w]
            j -= 1
        if j < limit:
            key[at + j * stride] = obj
            if stride == 2:
                key[at + j * stride + 1] = value
        filled = min(filled + 1, limit)


@njit(cache=True)
def _plan_key(si: Row, wi: Row) -> int:
    """The plan cache's key of a scenario (BP changes and objects gone, sorted), written at the scratch's `W_KEY`,
    and its hash."""
    for w in range(W_KEY, W_KEY + KEY_W):
        wi[w] = 0
    _sorted_into(si, SC_BP, wi, W_KEY + 2, 2, 16)
    _sorted_into(si, SC_GONE, wi, W_KEY + 34, 1, 16)
    wi[W_KEY] = si[SC_BP]
    wi[W_KEY + 1] = si[SC_GONE]
    h = 1469598103934665603
    for w in range(W_KEY, W_KEY + KEY_W):
        h = (h ^ wi[w]) * 1099511628211
    return h


@njit(cache=True)
def _value(
    row: Row,
    tab: Row,
    cx: Row,
    si0: Row,
    sf0: npt.NDArray[np.float64],
    plans: bool,
    wi: Row,
    wf: npt.NDArray[np.float64],
    lv: int,
) -> float:
    """`_View.value`: my value of the scenario once the waiting reactions and the pending item resolve (on a copy
    in the scratch's slot `lv`)."""
    si = si0
    sf = sf0
    if cx[CX_NWAIT] or cx[CX_PENDING] >= 0:
        si, sf = _level(wi, wf, lv)
        _copy(si0, sf0, si, sf)
        for k in range(cx[CX_NWAIT]):
            _apply_play(row, tab, cx, si, sf, cx[CX_WAIT + k], wi)
        if cx[CX_PENDING] >= 0:
            _apply_play(row, tab, cx, si, sf, cx[CX_PENDING], wi)
    v = sf[0] + _attack_term(row, tab, cx, si)
    for k in range(si[SC_GONE]):
        obj = si[SC_GONE + 1 + k]
        v -= _sign(cx, _owner(tab, obj)) * _loss_value(row, tab, obj, si[SC_GONE + 1 + CHANGE_CAP + k], si)
    if plans:  # the plan cache (keys, hashes and values in the scratch, read in place: views cost refcounts)
        h = _plan_key(si, wi)
        delta = 0.0
        hit = False
        for c in range(cx[CX_NPLAN]):
            if wi[W_PHASH + c] == h:
                at = W_PKEYS + c * KEY_W
                same = True
                for w in range(KEY_W):
                    if wi[at + w] != wi[W_KEY + w]:
                        same = False
                        break
                if same:
                    delta = wf[WF_PVAL + c]
                    hit = True
                    break
        if not hit:
            me = cx[CX_ME]
            delta = _best_plan(row, tab, cx, me, si) - _best_plan(row, tab, cx, 1 - me, si)
            c = cx[CX_NPLAN]
            if c < PLAN_CAP:
                wi[W_PHASH + c] = h
                at = W_PKEYS + c * KEY_W
                for w in range(KEY_W):
                    wi[at + w] = wi[W_KEY + w]
                wf[WF_PVAL + c] = delta
                cx[CX_NPLAN] = c + 1
        v += PLAN_WEIGHT * delta
    return v


@njit(cache=True)
def _helps(tab: Row, eff: int) -> bool:
    """`_helps`: whether an effect is good for the object it hits."""
    name = _eff(tab, eff, EF_NAME)
    if name == EF_ENCHANT:
        return _eff(tab, eff, EF_KIND) == 1
    if name == EF_BP_MOD:
        return _eff(tab, eff, EF_NUM) > 0
    return name in (EF_SHIELD, EF_NORMALIZE, EF_ATTACH, EF_HP_GAIN)


@njit(cache=True)
def _best_target(row: Row, tab: Row, cx: Row, si: Row, sf: npt.NDArray[np.float64], eff: int, cands: Row, n: int,
                 plans: bool, wi: Row, wf: npt.NDArray[np.float64], lv: int) -> int:  # fmt: skip
    """`_View.best_target`: the candidate whose effect leaves me best off (each tried in the scratch's slot `lv`)."""
    me = cx[CX_ME]
    best = 0.0
    chosen = EMPTY
    for k in range(n):
        obj = cands[k]
        ti, tf = _level(wi, wf, lv)
        _copy(si, sf, ti, tf)
        if obj != EMPTY:
            _apply(row, tab, cx, ti, tf, eff, obj, me)
        score = _value(row, tab, cx, ti, tf, plans, wi, wf, lv + 1)
        if obj != EMPTY and not _is_caster(tab, obj):
            score += 0.0001 * _vbp(row, tab, cx, obj) * (1 if _helps(tab, eff) == (_owner(tab, obj) == me) else -1)
        if obj != EMPTY and _is_caster(tab, obj):
            score -= 0.0001 * _hp(row, _owner(tab, obj), row[cpu.AREA + obj])
        if k == 0 or score > best:
            best = score
            chosen = obj
    return chosen


@njit(cache=True)
def _effects_value(row: Row, tab: Row, cx: Row, si: Row, sf: npt.NDArray[np.float64], ref: int, source: int,
                   plans: bool, wi: Row, wf: npt.NDArray[np.float64], lv: int) -> float:  # fmt: skip
    """`_View._effects_value`: the value after a ref's effects, in order (groups hit every match, single targets
    the best one), on `si`/`sf` in place; trials from the scratch's slot `lv` on."""
    me = cx[CX_ME]
    cands = wi[W_CANDS : W_CANDS + 16]
    if ref >= 0:
        for e in range(_ref(tab, ref, RF_N_EFF)):
            eff = _ref(tab, ref, RF_EFF + e)
            sel = _eff(tab, eff, EF_SEL)
            if sel < 0:
                _apply(row, tab, cx, si, sf, eff, EMPTY, me)
                continue
            n = _candidates(row, tab, sel, me, source, cands, True)
            if _is_group(tab, sel):
                for k in range(n):
                    _apply(row, tab, cx, si, sf, eff, cands[k], me)
            elif n:
                obj = _best_target(row, tab, cx, si, sf, eff, cands, n, plans, wi, wf, lv)
                _apply(row, tab, cx, si, sf, eff, obj, me)
    return _value(row, tab, cx, si, sf, plans, wi, wf, lv)


# -- items ---------------------------------------------------------------------------------------------


@njit(cache=True)
def _speed_card(row: Row, tab: Row, me: int, card: int) -> int:
    """My speed-area card with this card id, the newest copy."""
    for i in range(_zlen(row, Z_SPEED, me) - 1, -1, -1):
        inst = _zget(row, Z_SPEED, me, i)
        if _inst(tab, inst, I_CARD) == card:
            return inst
    return EMPTY


@njit(cache=True)
def _has_card(row: Row, tab: Row, me: int, card: int, from_speed: bool) -> bool:
    z = Z_SPEED if from_speed else Z_HAND
    for i in range(_zlen(row, z, me)):  # noqa: SIM110 (numba compiles no generator)
        if _inst(tab, _zget(row, z, me, i), I_CARD) == card:
            return True
    return False


@njit(cache=True)
def _item(row: Row, tab: Row, cx: Row, action: int) -> tuple[int, int, int, float, int]:
    """`_View.item`: (kind, ref, source, price, card) of a PLAY, SUB or USE action; kind 0: not an item, 1: effects
    of `ref`, 2: an arms' grants (card's activated refs past its own)."""
    verb = _dec(tab, action, D_VERB)
    me = cx[CX_ME]
    if verb in (V_PLAY, V_SUB):
        card = _dec(tab, action, D_CARD)
        from_speed = _dec(tab, action, D_SPEED) != 0
        if not _has_card(row, tab, me, card, from_speed):
            return 0, -1, EMPTY, 0.0, -1
        price = SPEED_CARD_COST if from_speed else CARD_COST
        if verb == V_SUB:
            cost = _price(_c(tab, card, C_SUB_LOG), _c(tab, card, C_SUB_ENGRAVE), _c(tab, card, C_SUB_DISCARD))
            return 1, _c(tab, card, C_SUB_REF), EMPTY, price + cost, card
        price += _price(_h(tab, card, H_COST), _h(tab, card, H_EX_ENGRAVE), _h(tab, card, H_EX_DISCARD))
        if _h(tab, card, H_TYPE) == T_ARMS:
            return 2, -1, EMPTY, price, card
        return 1, _c(tab, card, C_CODE_REF), EMPTY, price, card
    if verb == V_USE:
        obj = _object_at(row, me, _dec(tab, action, D_SLOT))
        ref = _activated_ref(row, tab, obj, _dec(tab, action, D_INDEX))
    elif verb == V_USE_S:
        card = _dec(tab, action, D_CARD)
        obj = _speed_card(row, tab, me, card)
        ref = _c(tab, card, C_ACT + _dec(tab, action, D_INDEX))
    else:
        return 0, -1, EMPTY, 0.0, -1
    price = _price(_ref(tab, ref, RF_LOG), _ref(tab, ref, RF_ENGRAVE), _ref(tab, ref, RF_DISCARD)) + (
        CHECK_COST if _ref(tab, ref, RF_CHECK_SELF) else 0.0
    )
    return 1, ref, obj, price, -1


@njit(cache=True)
def _item_gain(row: Row, tab: Row, cx: Row, kind: int, ref: int, source: int, price: float, card: int, plans: bool,
               wi: Row, wf: npt.NDArray[np.float64], lv: int) -> float:  # fmt: skip
    """`_View.item_gain`: my gain from using the item now, each target chosen greedily, less its price (scenarios
    from the scratch's slot `lv` on)."""
    si, sf = _level(wi, wf, lv)
    _clear(si, sf)
    before = _value(row, tab, cx, si, sf, plans, wi, wf, lv + 1)
    if kind == 2:  # arms (D2.8): its activated grants, this turn only (without any, value(base) - before is 0)
        own = _h(tab, card, H_OWN_ACT)
        gain = 0.0
        for k in range(_c(tab, card, C_N_ACT) - own):
            g = _c(tab, card, C_ACT + own + k)
            timing = _ref(tab, g, RF_TIMING)
            if timing & M_REACTION:
                gain = max(gain, 0.8)
            elif timing & M_ACTION:
                ti, tf = _level(wi, wf, lv + 1)
                _copy(si, sf, ti, tf)
                trial = _effects_value(row, tab, cx, ti, tf, g, EMPTY, plans, wi, wf, lv + 2) - before
                gain = max(gain, 0.5 + max(0.0, trial))
        return gain - price
    return _effects_value(row, tab, cx, si, sf, ref, source, plans, wi, wf, lv + 1) - before - price


# -- windows -----------------------------------------------------------------------------------------


@njit(cache=True)
def _named(tab: Row, out: Row, n: int, verb: int) -> int:
    """`_named`: the (last) legal action of this verb, else the last legal action."""
    for i in range(n - 1, -1, -1):
        if _dec(tab, out[i], D_VERB) == verb:
            return out[i]
    return out[n - 1]


@njit(cache=True)
def _reference_order(tab: Row, out: Row, n: int, kind: int, wi: Row) -> Row:
    """The legal actions in the reference's order (in the scratch): options naming a card (GEAR, MULL, MATERIAL,
    DISCARD at the hand limit, PLACE) the reference sorts by card id; the kernel lists them in zone order."""
    legal = wi[W_LEGAL : W_LEGAL + n]
    legal[:] = out[:n]
    start = 0
    while start < n:
        verb = _dec(tab, legal[start], D_VERB)
        end = start
        while end < n and _dec(tab, legal[end], D_VERB) == verb:
            end += 1
        by_id = verb in (V_GEAR, V_MULL, V_MATERIAL, V_PLACE) or (verb == V_DISCARD and kind == D_LIMIT)
        if end - start > 1 and by_id:
            for i in range(start + 1, end):  # insertion sort by the card's id rank
                a = legal[i]
                r = _h(tab, _dec(tab, a, D_CARD), H_RANK)
                j = i - 1
                while j >= start and _h(tab, _dec(tab, legal[j], D_CARD), H_RANK) > r:
                    legal[j + 1] = legal[j]
                    j -= 1
                legal[j + 1] = a
        start = end
    return legal


@njit(cache=True)
def _mulligan(row: Row, tab: Row, me: int, legal: Row, n: int) -> int:
    """`_mulligan` (D4.6)."""
    if _zlen(row, Z_MULL, me) >= MAX_MULLIGAN:
        return _named(tab, legal, n, V_KEEP)
    units = 0
    for i in range(_zlen(row, Z_HAND, me)):
        kind = _inst(tab, _zget(row, Z_HAND, me, i), I_TYPE)
        if kind in (T_UNIT, T_IDOL):
            units += 1
    if units >= 4:
        return _named(tab, legal, n, V_KEEP)
    worst = -1
    worst_score = 0.0
    for i in range(n):
        a = legal[i]
        if _dec(tab, a, D_VERB) != V_MULL:
            continue
        card = _dec(tab, a, D_CARD)
        kind = _h(tab, card, H_TYPE)
        cost = _h(tab, card, H_COST)
        expensive = cost >= 3 or (kind != T_UNIT and kind != T_IDOL and cost >= 2) or kind == T_ARMS
        if expensive:
            score = card_value(tab, card)
            if worst < 0 or score < worst_score:
                worst, worst_score = a, score
    return worst if worst >= 0 else _named(tab, legal, n, V_KEEP)


@njit(cache=True)
def _ahead(row: Row, me: int, mine: int, theirs: int) -> bool:
    return mine > theirs or (mine == theirs and row[TOKEN] == me)


@njit(cache=True)
def _speed(row: Row, tab: Row, cx: Row, legal: Row, n: int) -> int:
    """`_speed` (D6.3-D6.4)."""
    me = cx[CX_ME]
    done = _named(tab, legal, n, V_DONE)
    mine = _current_speed(row, tab, me)
    theirs = _current_speed(row, tab, 1 - me)
    shift = row[SHIFT + me]
    ng = _zlen(row, Z_GEAR, me)
    if ng:
        mine = min(5, _inst(tab, _zget(row, Z_GEAR, me, ng - 1), I_SPEED) + shift)
    if _ahead(row, me, mine, theirs):
        return done
    best = -1
    best_castable = False
    best_value = 0.0
    for i in range(n):
        a = legal[i]
        if _dec(tab, a, D_VERB) != V_GEAR:
            continue
        card = _dec(tab, a, D_CARD)
        if _ahead(row, me, min(5, _h(tab, card, H_SPEED) + shift), theirs):
            castable = _h(tab, card, H_TYPE) == T_UNIT and _h(tab, card, H_COST) == 0
            value = card_value(tab, card)
            # min by (not castable, value): the first of the least
            if best < 0 or (castable and not best_castable) or (castable == best_castable and value < best_value):
                best, best_castable, best_value = a, castable, value
    if best >= 0:
        return best
    for i in range(n):
        a = legal[i]
        kind, ref, _source, price, _card = _item(row, tab, cx, a)
        if kind == 0:
            continue
        steps = 0
        if kind == 1 and ref >= 0:
            for e in range(_ref(tab, ref, RF_N_EFF)):
                eff = _ref(tab, ref, RF_EFF + e)
                if _eff(tab, eff, EF_NAME) == EF_SPEED_SHIFT:
                    steps += _eff(tab, eff, EF_NUM)
        if steps and _ahead(row, me, min(5, mine + steps), theirs) and price <= CARD_COST + 0.01:
            return a
    return done


@njit(cache=True)
def _defence_needed(row: Row, cx: Row) -> bool:
    me = cx[CX_ME]
    enemy = 1 - me
    if _n_units(row, enemy, 0) or _n_units(row, enemy, 1):
        return True
    return row[FIRST] == me and bool(_hand_size(row, cx, enemy) or _zlen(row, Z_SPEED, enemy))


@njit(cache=True)
def _best_item(row: Row, tab: Row, cx: Row, legal: Row, n: int, plans: bool, wait_for_fast: bool,
               wi: Row, wf: npt.NDArray[np.float64], lv: int) -> int:  # fmt: skip
    """`_best_item`: the item whose gain beats its price by the most (more than PLAY_THRESHOLD), -1 if none."""
    best = -1
    best_gain = 0.0
    for i in range(n):
        a = legal[i]
        kind, ref, source, price, card = _item(row, tab, cx, a)
        if kind == 0:
            continue
        if wait_for_fast and card >= 0 and _h(tab, card, H_TIMING) & M_FAST and _h(tab, card, H_TYPE) == T_CODE:
            continue
        gain = _item_gain(row, tab, cx, kind, ref, source, price, card, plans, wi, wf, lv)
        if gain > PLAY_THRESHOLD and (best < 0 or gain > best_gain):
            best, best_gain = a, gain
    return best


@njit(cache=True)
def _cast(row: Row, tab: Row, cx: Row, legal: Row, n: int, wi: Row, wf: npt.NDArray[np.float64], lv: int) -> int:
    """`_cast` (D8.2)."""
    me = cx[CX_ME]
    goddraw = -1
    for i in range(n):
        if _dec(tab, legal[i], D_VERB) == V_GODDRAW:
            goddraw = legal[i]
            break
    if goddraw >= 0 and _excess_bursts(row, cx) > 0 and _hand_size(row, cx, me) < HAND_CAP:
        return goddraw
    best = -1
    bk0, bk1, bk2 = 0, 0, 0
    for i in range(n):
        a = legal[i]
        if _dec(tab, a, D_VERB) != V_CAST:
            continue
        card = _dec(tab, a, D_CARD)
        idol_first = _h(tab, card, H_TYPE) == T_IDOL and row[IDOL + me] == EMPTY
        k0 = 0 if idol_first else 1
        k1 = -_h(tab, card, H_BP)
        k2 = 0 if _dec(tab, a, D_SPEED) else 1
        if best < 0 or (k0, k1, k2, a) < (bk0, bk1, bk2, best):
            best, bk0, bk1, bk2 = a, k0, k1, k2
    if best >= 0:
        return best
    item = _best_item(row, tab, cx, legal, n, True, True, wi, wf, lv)
    if item >= 0:
        return item
    guard = _defence_needed(row, cx)
    open0 = _hp(row, me, 0) > 0 and _n_units(row, me, 0) == 0
    open1 = _hp(row, me, 1) > 0 and _n_units(row, me, 1) == 0
    if guard and (open0 or open1):
        for i in range(n):
            a = legal[i]
            if _dec(tab, a, D_VERB) != V_MOVE:
                continue
            obj = _object_at(row, me, _dec(tab, a, D_SLOT))
            area = row[cpu.AREA + obj]
            if area == IDOL_AREA or not _n_units(row, me, area):
                continue
            spare = _n_units(row, me, area) > 1 or not _hp(row, me, area)
            w = _weight(tab, obj)
            if spare and ((open0 and _fits(row, tab, me, 0, w)) or (open1 and _fits(row, tab, me, 1, w))):
                return a
    if guard:
        best = -1
        b0, b1, bv, bh = 0, 0, 0.0, 0
        any_dummy = False
        for i in range(n):
            a = legal[i]
            if _dec(tab, a, D_VERB) != V_DUMMY:
                continue
            any_dummy = True
            from_speed = _dec(tab, a, D_SPEED) != 0
            area = _dec(tab, a, D_AREA)
            is_open = open0 if area == 0 else open1
            single = _hp(row, me, area) > 0 and _n_units(row, me, area) == 1
            if is_open or (single and from_speed):
                k0 = 0 if is_open else 1
                k1 = 0 if from_speed else 1
                value = card_value(tab, _dec(tab, a, D_CARD))
                k3 = -_hp(row, me, area)
                better = best < 0 or k0 < b0 or (k0 == b0 and (k1 < b1 or (k1 == b1 and (
                    value < bv or (value == bv and k3 < bh)))))  # fmt: skip
                if better:
                    best, b0, b1, bv, bh = a, k0, k1, value, k3
        if best >= 0:
            return best
        if any_dummy and (open0 or open1) and goddraw >= 0 and not _hand_size(row, cx, me):
            return goddraw
    return _named(tab, legal, n, V_DONE)


@njit(cache=True)
def _area_pick(row: Row, tab: Row, me: int, legal: Row, n: int, weight: int) -> int:
    """`max(scored, key=_area_score)` over the non-idol destinations, the first of the best; -1 if none."""
    best = -1
    best_area = 0
    for i in range(n):
        area = _dec(tab, legal[i], D_AREA)
        if area == IDOL_AREA:
            continue
        if best < 0 or _score_gt(row, tab, me, area, best_area, weight):
            best, best_area = legal[i], area
    return best


@njit(cache=True)
def _score_gt(row: Row, tab: Row, me: int, area: int, other: int, weight: int) -> bool:
    a0 = 1 if _hp(row, me, area) else 0
    b0 = 1 if _hp(row, me, other) else 0
    if a0 != b0:
        return a0 > b0
    a1, b1 = -_n_units(row, me, area), -_n_units(row, me, other)
    if a1 != b1:
        return a1 > b1
    wa = 0
    for i in range(_n_units(row, me, area)):
        wa += _weight(tab, _unit(row, me, area, i))
    wb = 0
    for i in range(_n_units(row, me, other)):
        wb += _weight(tab, _unit(row, me, other, i))
    return -wa - weight > -wb - weight


@njit(cache=True)
def _target(
    row: Row, tab: Row, cx: Row, base: int, legal: Row, n: int, wi: Row, wf: npt.NDArray[np.float64], lv: int
) -> int:
    """`_target`: the target that leaves me best off by the scenario calculator (arms: a caster without
    activated abilities of its own, with the most HP)."""
    me = cx[CX_ME]
    objs = np.empty(n, dtype=np.int64)
    for i in range(n):
        a = legal[i]
        objs[i] = _object_at(row, _dec(tab, a, D_SEAT), _dec(tab, a, D_SLOT))
    if row[base + P_KIND] == PK_ARMS:
        best = 0
        for i in range(1, n):
            ka, kb = _n_activated(row, tab, objs[i]), _n_activated(row, tab, objs[best])
            ha = -_hp(row, me, row[cpu.AREA + objs[i]])
            hb = -_hp(row, me, row[cpu.AREA + objs[best]])
            if ka < kb or (ka == kb and ha < hb):
                best = i
        return legal[best]
    ref = row[base + P_REF]
    index = row[base + P_NT]
    eff = -1
    k = 0
    for e in range(_ref(tab, ref, RF_N_EFF)):
        candidate = _ref(tab, ref, RF_EFF + e)
        sel = _eff(tab, candidate, EF_SEL)
        if sel >= 0 and not _is_group(tab, sel):
            if k == index:
                eff = candidate
                break
            k += 1
    if eff < 0:
        return legal[0]
    in_combat = row[ATT_PLAYER] != EMPTY or cx[CX_PENDING] >= 0
    si, sf = _level(wi, wf, lv)
    _clear(si, sf)
    obj = _best_target(row, tab, cx, si, sf, eff, objs, n, not in_combat, wi, wf, lv + 1)
    for i in range(n):
        if objs[i] == obj:
            return legal[i]
    return legal[0]


@njit(cache=True)
def _still_useful(row: Row, tab: Row, caster: int) -> bool:
    """`_ability_still_useful`: a caster's activated ability usable later this turn."""
    phase = row[PHASE]
    if phase == PH_SPEED:
        later = M_SPEED | M_CAST | M_FAST | M_ACTION | M_REACTION
    elif phase == PH_CAST:
        later = M_CAST | M_FAST | M_ACTION | M_REACTION
    elif phase == PH_FAST:
        later = M_FAST | M_ACTION | M_REACTION
    else:
        later = M_ACTION | M_REACTION
    for k in range(_n_activated(row, tab, caster)):
        if _ref(tab, _activated_ref(row, tab, caster, k), RF_TIMING) & later:
            return True
    return False


@njit(cache=True)
def _pay_source(row: Row, tab: Row, me: int, legal: Row, n: int) -> int:
    """`_pay_source` (D12.1)."""
    best = -1
    best_rank = 0
    for i in range(n):
        a = legal[i]
        source = _dec(tab, a, D_SOURCE) if _dec(tab, a, D_VERB) == V_PAY else -1
        if source == 0:
            rank = 0
        elif source == 4:
            rank = 1
        elif source == 2 or source == 3:
            rank = 4 if _still_useful(row, tab, row[CASTER + 2 * me + source - 2]) else 2
        elif source == 1:
            rank = 3 if _zlen(row, Z_ECHK, me) >= 3 else 5
        else:
            rank = 6
        if best < 0 or rank < best_rank:
            best, best_rank = a, rank
    return best


@njit(cache=True)
def _action_turn(row: Row, tab: Row, cx: Row, legal: Row, n: int, wi: Row, wf: npt.NDArray[np.float64], lv: int) -> int:
    """`_action_turn` (D10.2)."""
    me = cx[CX_ME]
    si, sf = _level(wi, wf, lv)
    _clear(si, sf)
    none = np.empty(0, dtype=np.int64)
    both = np.ones(2, dtype=np.int64)
    plan = np.empty(8, dtype=np.int64)
    found, attack_score, mask, _area = _best_attack(row, tab, cx, me, si, none, 0, both, plan)
    best_item = -1
    item_score = 0.0
    for i in range(n):
        a = legal[i]
        kind, ref, source, price, card = _item(row, tab, cx, a)
        if kind == 0:
            continue
        gain = _item_gain(row, tab, cx, kind, ref, source, price, card, True, wi, wf, lv + 1)
        if best_item < 0 or gain > item_score:
            best_item, item_score = a, gain
    if not found:
        attack_score = 0.0
    if found and attack_score >= ATTACK_THRESHOLD and attack_score >= item_score:
        for b in range(8):
            if not mask >> b & 1:
                continue
            unit = plan[b]
            for i in range(n):
                a = legal[i]
                if _dec(tab, a, D_VERB) == V_ATTACKER and _object_at(row, me, _dec(tab, a, D_SLOT)) == unit:
                    return a
    if best_item >= 0 and item_score > PLAY_THRESHOLD:
        return best_item
    for i in range(n):
        surplus = _excess_bursts(row, cx) > 0 and _hand_size(row, cx, me) < HAND_CAP
        if _dec(tab, legal[i], D_VERB) == V_GODDRAW and surplus:
            return legal[i]
    return _named(tab, legal, n, V_PASS)


@njit(cache=True)
def _attack_build(
    row: Row, tab: Row, cx: Row, base: int, legal: Row, n: int, wi: Row, wf: npt.NDArray[np.float64], lv: int
) -> int:
    """`_attack_build` (D10.5): complete the best plan that contains the units already chosen."""
    me = cx[CX_ME]
    chosen = row[base + 3 : base + 3 + row[base + 2]].copy()
    area_ok = np.zeros(2, dtype=np.int64)
    first_attack = -1
    for i in range(n):
        a = legal[i]
        if _dec(tab, a, D_VERB) == V_ATTACK:
            area_ok[_dec(tab, a, D_AREA)] = 1
            if first_attack < 0:
                first_attack = a
    si, sf = _level(wi, wf, lv)
    _clear(si, sf)
    plan = np.empty(8, dtype=np.int64)
    found, _score, mask, area = _best_attack(row, tab, cx, me, si, chosen, len(chosen), area_ok, plan)
    if not found:
        return first_attack if first_attack >= 0 else legal[n - 1]
    for b in range(8):
        if not mask >> b & 1:
            continue
        unit = plan[b]
        already = False
        for k in range(len(chosen)):
            if chosen[k] == unit:
                already = True
        if already:
            continue
        for i in range(n):
            a = legal[i]
            if _dec(tab, a, D_VERB) == V_ATTACKER and _object_at(row, me, _dec(tab, a, D_SLOT)) == unit:
                return a
    for i in range(n - 1, -1, -1):  # `areas[area]`: the last ATTACK action of that area
        a = legal[i]
        if _dec(tab, a, D_VERB) == V_ATTACK and _dec(tab, a, D_AREA) == area:
            return a
    return legal[n - 1]


@njit(cache=True)
def _block(row: Row, tab: Row, cx: Row, legal: Row, n: int, wi: Row, wf: npt.NDArray[np.float64], lv: int) -> int:
    """`_block` (D10.6): the blocker that loses least, counting a possible pump."""
    me = cx[CX_ME]
    si, sf = _level(wi, wf, lv)
    _clear(si, sf)
    total = 0
    for i in range(row[NATT]):
        total += _vbp(row, tab, cx, row[ATTACKERS + i])
    damage = max(0, total + (row[ATT_MOD] if row[ATT_PLAYER] != EMPTY else 0))
    best = -1
    best_score = 0.0
    for i in range(n):
        a = legal[i]
        if _dec(tab, a, D_VERB) != V_BLOCK:
            continue
        obj = _object_at(row, me, _dec(tab, a, D_SLOT))
        pumped = _block_loss(row, tab, cx, obj, damage + PUMP_RISK, si)
        score = _block_loss(row, tab, cx, obj, damage, si) + 0.3 * pumped
        score += 0.01 * (_uval(row, tab, obj) if not _is_caster(tab, obj) else 0.5)
        if best < 0 or score < best_score:
            best, best_score = a, score
    return best if best >= 0 else legal[n - 1]


@njit(cache=True)
def new_scratch(n_actions: int) -> tuple[Row, npt.NDArray[np.float64]]:
    """The scratch `decide` works in for a table of `n_actions` actions: one per thread, reused for every
    decision."""
    return np.zeros(W_LEGAL + n_actions, dtype=np.int64), np.zeros(WF_SIZE, dtype=np.float64)


@njit(cache=True)
def heuristic_action(row: Row, tab: Row, out: Row, n: int) -> int:
    """`decide` in a scratch of its own."""
    wi, wf = new_scratch(tab[N_ACTIONS])
    return decide(row, tab, out, n, wi, wf)


@njit(cache=True)
def decide(row: Row, tab: Row, out: Row, n: int, wi: Row, wf: npt.NDArray[np.float64]) -> int:
    """The reference heuristic's choice among the `n` legal actions in `out` for the player to move, worked out in
    the scratch `wi`, `wf` (`new_scratch`)."""
    if n == 1:
        return out[0]
    base = STACK + (row[SP] - 1) * FW
    kind = row[base]
    me = row[base + 1]
    legal = _reference_order(tab, out, n, kind, wi)
    cx = _new_view(row, tab, me, wi)
    if kind in (D_PLACE, D_PICK, D_ORDER):
        return legal[0]
    if kind == D_MULL:
        return _mulligan(row, tab, me, legal, n)
    if kind == D_DEST:
        if row[base + P_KIND] == PK_IDOL:
            for i in range(n):
                if _dec(tab, legal[i], D_AREA) == IDOL_AREA:
                    return legal[i]
        picked = _area_pick(row, tab, me, legal, n, _inst(tab, row[base + P_CARD], I_WEIGHT))
        return picked if picked >= 0 else legal[0]
    if kind == D_MOVE_TO:
        picked = _area_pick(row, tab, me, legal, n, _weight(tab, row[base + 2]))
        return picked if picked >= 0 else legal[0]
    if kind == D_UPKEEP_IDOL:
        upkeep = _inst(tab, row[base + 2], I_UPKEEP)
        for i in range(n):
            if _dec(tab, legal[i], D_VERB) == V_UPKEEP_PAY and _log_sources(row, me, EMPTY, 0) - upkeep >= 1:
                return legal[i]
        return _named(tab, legal, n, V_UPKEEP_CHECK)
    if kind == D_PAY_DISCARD:
        best = -1
        b0, bv = 0, 0.0
        for i in range(n):
            a = legal[i]
            k0 = 0 if _dec(tab, a, D_SPEED) else 1
            value = card_value(tab, _dec(tab, a, D_CARD))
            if best < 0 or k0 < b0 or (k0 == b0 and value < bv):
                best, b0, bv = a, k0, value
        return best
    if kind == D_PAY_SRC:
        return _pay_source(row, tab, me, legal, n)
    if kind == D_BLOCK:
        return _block(row, tab, cx, legal, n, wi, wf, 0)
    if kind == D_ABUILD:
        return _attack_build(row, tab, cx, base, legal, n, wi, wf, 0)
    if kind == D_SCRAP:
        for i in range(n):
            index = _dec(tab, legal[i], D_INDEX)
            if index < _zlen(row, Z_ECHK, me) and _zget(row, Z_ECHK, me, index):
                return legal[i]
        return legal[0]
    if kind in (D_HPDRAW, D_HPDECK):
        best = 0
        for i in range(1, n):
            if _hp(row, me, _dec(tab, legal[i], D_AREA)) > _hp(row, me, _dec(tab, legal[best], D_AREA)):
                best = i
        return legal[best]
    if kind == D_LIMIT:
        best = 0
        bv = card_value(tab, _dec(tab, legal[0], D_CARD))
        for i in range(1, n):
            value = card_value(tab, _dec(tab, legal[i], D_CARD))
            if value < bv:
                best, bv = i, value
        return legal[best]
    if kind == D_TARGET:
        return _target(row, tab, cx, base, legal, n, wi, wf, 0)
    if kind == D_ATURN:
        return _action_turn(row, tab, cx, legal, n, wi, wf, 0)
    if kind == D_REACT:
        item = _best_item(row, tab, cx, legal, n, False, False, wi, wf, 0)
        return item if item >= 0 else _named(tab, legal, n, V_PASS)
    if kind == D_WIN:
        phase = row[base + 2]
        if phase == W_SPEED:
            return _speed(row, tab, cx, legal, n)
        if phase == W_CAST:
            return _cast(row, tab, cx, legal, n, wi, wf, 0)
        item = _best_item(row, tab, cx, legal, n, True, False, wi, wf, 0)
        return item if item >= 0 else _named(tab, legal, n, V_DONE)
    return legal[0]


@njit(cache=True)
def policy_action(row: Row, tab: Row, out: Row, n: int, policy: int, epsilon: float, rng: npt.NDArray[np.uint64],
                  wi: Row, wf: npt.NDArray[np.float64]) -> int:  # fmt: skip
    """A seat's action: uniform random for `POLICY_RANDOM`, else the heuristic (`decide` in the scratch `wi`,
    `wf`), with probability `epsilon` a uniform random action instead."""
    if policy == POLICY_RANDOM:
        return out[_below(rng, n)]
    if epsilon > 0.0 and _below(rng, 1 << 30) < epsilon * (1 << 30):
        return out[_below(rng, n)]
    return decide(row, tab, out, n, wi, wf)


@njit(cache=True)
def _material(row: Row, tab: Row, player: int) -> float:
    """`heuristic._material`: HP cards (`HP_VALUE` each), units on the field (`unit_value`), cards in hand."""
    value = HP_VALUE * _total_hp(row, player) + CARD_COST * _zlen(row, Z_HAND, player)
    for area in range(2):
        for i in range(_n_units(row, player, area)):
            value += _uval(row, tab, _unit(row, player, area, i))
    if row[IDOL + player] != EMPTY:
        value += _uval(row, tab, row[IDOL + player])
    return value


@njit(cache=True)
def evaluate(row: Row, tab: Row, player: int) -> float:
    """`heuristic.evaluate`: `player`'s chance of winning from public material and hand sizes (1, 0 or 0.5 once
    the game is over), where a search cuts a rollout short (`ismcts:depth=D`)."""
    if row[PHASE] == PH_OVER:
        if row[WINNER] < 0:
            return 0.5
        return 1.0 if row[WINNER] == player else 0.0
    lead = _material(row, tab, player) - _material(row, tab, 1 - player)
    return 1.0 / (1.0 + math.exp(-lead / EVAL_SCALE))


@njit(cache=True, parallel=True)
def play_batch(tab: Row, policies: Row, epsilons: npt.NDArray[np.float64], n_games: int, seed: int,
               first_game: int) -> tuple[Row, Row, Row, Row]:  # fmt: skip
    """`cpu.play_batch` with a policy (`POLICIES`) and an epsilon per seat: game i is dealt and played from
    `seed_rng(seed, first_game + i)` alone."""
    winner = np.empty(n_games, dtype=np.int64)
    reason = np.empty(n_games, dtype=np.int64)
    turns = np.empty(n_games, dtype=np.int64)
    decisions = np.empty(n_games, dtype=np.int64)
    n_blocks = (n_games + _BLOCK_GAMES - 1) // _BLOCK_GAMES
    for block in prange(n_blocks):
        row = np.zeros(ROW_SIZE, dtype=np.int64)
        out = np.empty(tab[N_ACTIONS], dtype=np.int64)
        rng = np.empty(1, dtype=np.uint64)
        wi, wf = new_scratch(tab[N_ACTIONS])
        for game in range(block * _BLOCK_GAMES, min(n_games, (block + 1) * _BLOCK_GAMES)):
            seed_rng(rng, seed, first_game + game)
            n = deal(row, tab, rng, out)
            count = 0
            while row[PHASE] != PH_OVER and n > 0:
                seat = row[STACK + (row[SP] - 1) * FW + 1]
                action = policy_action(row, tab, out, n, policies[seat], epsilons[seat], rng, wi, wf)
                n = apply(row, tab, action, rng, out)
                count += 1
            winner[game] = row[WINNER]
            reason[game] = row[REASON]
            turns[game] = row[TURN]
            decisions[game] = count
    return winner, reason, turns, decisions


def play_game(game: object, agents: tuple[str, str], n_games: int, seed: int, first_game: int = 0,
              epsilons: tuple[float, float] = (0.0, 0.0)) -> tuple[Row, Row, Row, Row]:  # fmt: skip
    """`play_batch` for a `Dreadnought` game and two agents of `POLICIES`."""
    policies = np.asarray([POLICIES[agent] for agent in agents], dtype=np.int64)
    columns = play_batch(
        cpu.game_table(game), policies, np.asarray(epsilons, dtype=np.float64), n_games, seed % 2**62, first_game
    )
    cpu.check_overflow(columns[1])
    return columns


flush_stale_cache(sys.modules[__name__])  # the policy kernel inlines `cpu` and the table layout
