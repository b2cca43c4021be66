"""A numba kernel that plays exactly the Aterial game of `cardlab.games.aterial.state`.

The reference engine is the readable source of truth; this module mirrors its `_do` + `_advance`
step for step on one int64 row per game, reading every card and rule option from the integer table
of `tables.build_table` (so a designer's card file, `--patch` and `--rule` need no code here).
`tests/games/aterial/fast/test_kernel.py` plays both engines in lock step and compares every legal
set and every result.

Row layout (offsets below; instances, windows and action ids are the reference's own):

| offset | meaning |
|---|---|
| TURN, ACTIVE, FIRST, WINDOW, CHOOSER | turn number (A7), active and first player, window (`state.WINDOWS`), chooser |
| SELECTED | the square (MOVE, ATTACK) or instance (DEPLOY) a compound choice began with, -1 none |
| SKEY, PENDING | the ability (`tables.KEY` code, -1 none) whose target is chosen, and its amount |
| ATTACKER, TARGET, SIDE | the attack being resolved (A12.4) |
| WINNER, DRAW, REASON | -1 / 0 / -1 until over; REASON indexes `REASON_NAMES` |
| LOST + p, LP + p, LEADER + p | A15 loss pending, life points, leader instance |
| NTRIG, NDECK + p, NHAND + p, NDISC + p, NREM + p | lengths of the trigger queue and the zones |
| FIELD + 6p + sq | instance on square sq (F0 F1 F2 B0 B1 B2) of player p, -1 empty |
| SQ, READY, DAMAGE, MOVES, DEVOURED, TEMP + inst | per-instance unit state (A2.3) |
| DECK, HAND, DISC, REM + 64p + i | zones in the reference's list order (a deck's top is its last card) |
| TRIG + i | the A16.3 queue, one packed trigger each: controller, key << 1, source << 8, amount << 16 |
| SCRATCH + i | room for the kernel's working lists (no allocation on the hot path) |

Randomness (the set-up shuffle, the first player, a mulligan's shuffle, random play) comes from the
kernel's own splitmix64 stream, a function of (seed, game index) only. `play_batch` plays random games;
`heuristic.play_batch` a policy per seat.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from cardlab.fast.rng import below as _below
from cardlab.fast.rng import seed_rng
from cardlab.fast.search import flush_stale_cache
from cardlab.games.aterial.fast.tables import (
    AB_AMOUNT,
    AB_ATTACK,
    AB_BASE,
    AB_HP,
    AB_KEY,
    AB_RACE,
    ACOLS,
    B_DEPLOY,
    B_DISCARD,
    B_HAND,
    C_HAND_KEYS,
    C_NEEDED,
    C_SUB,
    CARD_BASE,
    CCOLS,
    I_ARMOR,
    I_ATTACK,
    I_CARD,
    I_COST,
    I_DEVOUR,
    I_DOMINANCE,
    I_FLANK,
    I_HAND_RALLY,
    I_HP,
    I_KEYS,
    I_LP,
    I_MOVE_LIMIT,
    I_N_ABILITIES,
    I_NEEDED,
    I_OWNER,
    I_RACES,
    I_REAR,
    I_SIEGE,
    I_SUB,
    I_TAP_HEAL,
    I_TAP_SNIPE,
    I_WIDE,
    ICOLS,
    INST_BASE,
    K_AURA,
    K_CANNOT_ATTACK,
    K_DEPLOY_DRAW,
    K_DEPLOY_HEAL,
    K_DEPLOY_STRIKE,
    K_DEVOUR,
    K_EVASIVE,
    K_FAREWELL_HEAL,
    K_HAND_RALLY,
    K_KINSHIP,
    K_PIERCE,
    K_RANGED,
    K_TAP_HEAL,
    K_TAP_SNIPE,
    KEY,
    MAX_ABILITIES,
    MAX_INSTANCES,
    N_ACTIONS,
    N_INST,
    R_ACTION_MOVES,
    R_BACK_ROW,
    R_BLOCKED_SIDE,
    R_BLOCKER_READY,
    R_DECK_OUT_EMPTY,
    R_DRAW_COUNT,
    R_FIRST_DRAW,
    R_FIRST_TURN_DEPLOY,
    R_HAND_LIMIT,
    R_HEAL_CAPPED,
    R_LEADER_ATTACKS,
    R_LEADER_SUPPLIES,
    R_RETALIATION,
    R_SHUFFLE_FIRST,
    R_SIEGE_PIERCE,
    R_UPKEEP,
)
from cardlab.games.aterial.state import (
    OPENING_HAND,
    W_ABILITY_TARGET,
    W_ACTION,
    W_ATTACK,
    W_ATTACK_TARGET,
    W_BLOCK,
    W_DEPLOY_TO,
    W_DISCARD,
    W_MOVE,
    W_MOVE_TO,
    W_MULLIGAN,
    W_OVER,
    W_TRIGGER_TARGET,
)

Row = npt.NDArray[np.int64]

# -- layout ------------------------------------------------------------------------------------

TURN, ACTIVE, FIRST, WINDOW, CHOOSER, SELECTED, SKEY, PENDING = 0, 1, 2, 3, 4, 5, 6, 7
ATTACKER, TARGET, SIDE, WINNER, DRAW, REASON = 8, 9, 10, 11, 12, 13
LOST, LP, LEADER, NTRIG, NDECK, NHAND, NDISC, NREM = 14, 16, 18, 20, 21, 23, 25, 27
FIELD = 32
SQ = FIELD + 12
READY = SQ + MAX_INSTANCES
DAMAGE = READY + MAX_INSTANCES
MOVES = DAMAGE + MAX_INSTANCES
DEVOURED = MOVES + MAX_INSTANCES
TEMP = DEVOURED + MAX_INSTANCES
DECK = TEMP + MAX_INSTANCES
HAND = DECK + 2 * MAX_INSTANCES
DISC = HAND + 2 * MAX_INSTANCES
REM = DISC + 2 * MAX_INSTANCES
TRIG = REM + 2 * MAX_INSTANCES
TRIG_CAP = 256
SCRATCH = TRIG + TRIG_CAP
ROW_SIZE = SCRATCH + TRIG_CAP

EMPTY = -1
REASON_NAMES = ("lp", "deck_out", "simultaneous_loss")
REASON_LP, REASON_DECK_OUT, REASON_SIMULTANEOUS = 0, 1, 2

# Action ids (checked against `actions.build_actions` by `tables.build_table`).
A_KEEP, A_MULLIGAN, A_END_MOVE, A_END_ACTION, A_END_ATTACK, A_BLOCK, A_NO_BLOCK = range(7)
A_MOVE, A_TO, A_ATTACK, A_TARGET, A_ACTIVATE = 7, 13, 19, 25, 37
ACTIVATED = np.array([K_TAP_HEAL, K_TAP_SNIPE, K_DEVOUR], dtype=np.int64)  # `actions.ACTIVATED_KEYS` order

# A3.4 neighbours (padded with -1).
ORTHO = np.array([[1, 3, -1], [0, 2, 4], [1, 5, -1], [4, 0, -1], [3, 5, 1], [4, 2, -1]], dtype=np.int64)
DIAG = np.array([[4, -1], [3, 5], [4, -1], [1, -1], [0, 2], [1, -1]], dtype=np.int64)

_BLOCK_GAMES = 32  # games per prange work item; results never depend on it or on the thread count


def new_row() -> Row:
    return np.zeros(ROW_SIZE, dtype=np.int64)


# -- table reads -------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _inst(tab: Row, inst: int, col: int) -> int:
    return tab[INST_BASE + inst * ICOLS + col]


@njit(cache=True, inline="always")
def _ab(tab: Row, inst: int, k: int, col: int) -> int:
    return tab[AB_BASE + (inst * MAX_ABILITIES + k) * ACOLS + col]


@njit(cache=True, inline="always")
def _has(tab: Row, inst: int, key: int) -> bool:
    return (tab[INST_BASE + inst * ICOLS + I_KEYS] >> key) & 1 == 1


# -- zones ---------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _push(row: Row, base: int, length: int, value: int) -> None:
    row[base + row[length]] = value
    row[length] += 1


@njit(cache=True, inline="always")
def _remove_at(row: Row, base: int, length: int, index: int) -> int:
    """Remove and return entry `index`, keeping the others' order (a list's `pop(index)`)."""
    value = row[base + index]
    n = row[length]
    for i in range(index, n - 1):
        row[base + i] = row[base + i + 1]
    row[length] = n - 1
    return value


@njit(cache=True, inline="always")
def _take_from_hand(row: Row, tab: Row, p: int, card: int) -> int:
    """The lowest instance of `card` in p's hand, taken out (the reference's `min(...)` then `remove`)."""
    best = -1
    at = -1
    for i in range(row[NHAND + p]):
        inst = row[HAND + 64 * p + i]
        if _inst(tab, inst, I_CARD) == card and (best < 0 or inst < best):
            best, at = inst, i
    _remove_at(row, HAND + 64 * p, NHAND + p, at)
    return best


@njit(cache=True, inline="always")
def _draw(row: Row, p: int, count: int) -> None:
    """A9 / A16.8: a required draw from an empty deck loses (A15.2)."""
    for _ in range(count):
        n = row[NDECK + p]
        if n == 0:
            row[LOST + p] = 1
            return
        row[NDECK + p] = n - 1
        _push(row, HAND + 64 * p, NHAND + p, row[DECK + 64 * p + n - 1])


@njit(cache=True)
def _shuffle(row: Row, base: int, n: int, rng: npt.NDArray[np.uint64]) -> None:
    for i in range(n - 1, 0, -1):
        j = _below(rng, i + 1)
        row[base + i], row[base + j] = row[base + j], row[base + i]


# -- effective values (A4.6, A11.2, A16.2) ---------------------------------------------------------


@njit(cache=True)
def _aura(row: Row, tab: Row, inst: int, col: int) -> int:
    """A17.9: the attack (col AB_ATTACK) or HP (AB_HP) other friendly units' auras give `inst`."""
    p = _inst(tab, inst, I_OWNER)
    races = _inst(tab, inst, I_RACES)
    total = 0
    for sq in range(6):
        other = row[FIELD + 6 * p + sq]
        if other in (EMPTY, inst):
            continue
        for k in range(_inst(tab, other, I_N_ABILITIES)):
            if _ab(tab, other, k, AB_KEY) == K_AURA:
                race = _ab(tab, other, k, AB_RACE)
                if race < 0 or (races >> race) & 1:
                    total += _ab(tab, other, k, col)
    return total


@njit(cache=True)
def _attack_value(row: Row, tab: Row, inst: int, side: bool) -> int:
    """Printed + until end of turn + auras (subordinates) + kinship (A17.8) + flank on a side attack (A17.6)."""
    value = _inst(tab, inst, I_ATTACK) + row[TEMP + inst]
    if _inst(tab, inst, I_SUB):
        value += _aura(row, tab, inst, AB_ATTACK)
    p = _inst(tab, inst, I_OWNER)
    square = row[SQ + inst]
    for k in range(_inst(tab, inst, I_N_ABILITIES)):
        if _ab(tab, inst, k, AB_KEY) != K_KINSHIP:
            continue
        race = _ab(tab, inst, k, AB_RACE)
        for j in range(3):
            n = ORTHO[square, j]
            if n < 0:
                break
            other = row[FIELD + 6 * p + n]
            if other != EMPTY and (_inst(tab, other, I_RACES) >> race) & 1:
                value += _ab(tab, inst, k, AB_AMOUNT)
                break
    if side:
        value += _inst(tab, inst, I_FLANK)
    return max(0, value)


@njit(cache=True, inline="always")
def _hp_value(row: Row, tab: Row, inst: int) -> int:
    return _inst(tab, inst, I_HP) + _aura(row, tab, inst, AB_HP)


@njit(cache=True, inline="always")
def _supply_of(tab: Row, inst: int, n: int) -> int:
    return _inst(tab, inst, I_DOMINANCE) + (_inst(tab, inst, I_REAR) if n >= 3 else 0)


@njit(cache=True, inline="always")
def _supply(row: Row, tab: Row, p: int, square: int) -> int:
    """A11.2: dominance of orthogonal neighbours, diagonal ones with wide_reach (rule leader_supplies)."""
    silent = EMPTY if tab[R_LEADER_SUPPLIES] else row[LEADER + p]
    total = 0
    for j in range(3):
        n = ORTHO[square, j]
        if n < 0:
            break
        inst = row[FIELD + 6 * p + n]
        if inst != EMPTY and inst != silent:
            total += _supply_of(tab, inst, n)
    for j in range(2):
        n = DIAG[square, j]
        if n < 0:
            break
        inst = row[FIELD + 6 * p + n]
        if inst != EMPTY and inst != silent and _inst(tab, inst, I_WIDE):
            total += _supply_of(tab, inst, n)
    return total


@njit(cache=True, inline="always")
def _engaged_row(row: Row, p: int) -> int:
    """A12.4: the defender's front row if it holds a unit, else the back row."""
    base = FIELD + 6 * p
    return 0 if row[base] != EMPTY or row[base + 1] != EMPTY or row[base + 2] != EMPTY else 1


@njit(cache=True, inline="always")
def _has_subordinate(row: Row, p: int) -> bool:
    """Whether p's field holds a unit other than its leader (targets of tap_snipe and deploy_strike)."""
    for sq in range(6):
        inst = row[FIELD + 6 * p + sq]
        if inst != EMPTY and inst != row[LEADER + p]:
            return True
    return False


@njit(cache=True, inline="always")
def _can_attack(row: Row, tab: Row, square: int) -> bool:
    """A12.3, rules engaged_row (A12.4) and leader_attacks (A12.10)."""
    me = row[ACTIVE]
    inst = row[FIELD + 6 * me + square]
    if inst == EMPTY or not row[READY + inst] or _has(tab, inst, K_CANNOT_ATTACK):
        return False
    if not tab[R_LEADER_ATTACKS] and inst == row[LEADER + me]:
        return False
    if square >= 3 and not _has(tab, inst, K_RANGED):
        return tab[R_BACK_ROW] == 1 and _engaged_row(row, me) == 1
    return True


# -- state changes -----------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _leave_field(row: Row, tab: Row, inst: int) -> None:
    """A2.3: a card leaving the field loses damage, state and modifiers."""
    p = _inst(tab, inst, I_OWNER)
    row[FIELD + 6 * p + row[SQ + inst]] = EMPTY
    row[SQ + inst] = EMPTY
    row[READY + inst] = 1
    row[DAMAGE + inst] = 0
    row[MOVES + inst] = 0
    row[DEVOURED + inst] = 0
    row[TEMP + inst] = 0


@njit(cache=True, inline="always")
def _heal(row: Row, tab: Row, p: int, amount: int) -> None:
    """A14.4 (rule heal_cap)."""
    lp = row[LP + p] + amount
    if tab[R_HEAL_CAPPED]:
        lp = min(lp, _inst(tab, row[LEADER + p], I_LP))
    row[LP + p] = lp


@njit(cache=True, inline="always")
def _deal_damage(row: Row, tab: Row, inst: int, amount: int) -> int:
    """A14.2, A17.4 armor; the damage dealt."""
    dealt = max(0, amount - _inst(tab, inst, I_ARMOR))
    row[DAMAGE + inst] += dealt
    return dealt


@njit(cache=True, inline="always")
def _push_trigger(row: Row, controller: int, key: int, amount: int, source: int) -> None:
    row[TRIG + row[NTRIG]] = controller | (key << 1) | (source << 8) | (amount << 16)
    row[NTRIG] += 1


@njit(cache=True, inline="always")
def _finish(row: Row, winner: int, reason: int) -> None:
    row[WINNER] = winner
    row[DRAW] = 1 if winner < 0 else 0
    row[REASON] = reason
    row[WINDOW] = W_OVER
    row[NTRIG] = 0


@njit(cache=True)
def _state_check(row: Row, tab: Row) -> bool:
    """A15.4: destroy (simultaneously, until none), queue farewells, check losses; True if the game ended."""
    while True:
        count = 0
        for slot in range(12):
            inst = row[FIELD + slot]
            if inst != EMPTY and row[DAMAGE + inst] > 0 and row[DAMAGE + inst] >= _hp_value(row, tab, inst):
                row[SCRATCH + count] = inst
                count += 1
        if count == 0:
            break
        for i in range(count):
            inst = row[SCRATCH + i]
            p = _inst(tab, inst, I_OWNER)
            _leave_field(row, tab, inst)
            _push(row, DISC + 64 * p, NDISC + p, inst)
            for k in range(_inst(tab, inst, I_N_ABILITIES)):
                if _ab(tab, inst, k, AB_KEY) == K_FAREWELL_HEAL:
                    _push_trigger(row, p, K_FAREWELL_HEAL, _ab(tab, inst, k, AB_AMOUNT), inst)
    for p in range(2):
        if row[LP + p] <= 0 or (tab[R_DECK_OUT_EMPTY] and row[NDECK + p] == 0):
            row[LOST + p] = 1
    if row[LOST] or row[LOST + 1]:
        if row[LOST] and row[LOST + 1]:
            _finish(row, -1, REASON_SIMULTANEOUS)  # A15.5
        else:
            loser = 0 if row[LOST] else 1
            _finish(row, 1 - loser, REASON_LP if row[LP + loser] <= 0 else REASON_DECK_OUT)
        return True
    return False


@njit(cache=True)
def _resolve_triggers(row: Row, tab: Row, then: int) -> None:
    """A16.3: the active player's triggers first (a stable sort), then in order; stop at a target choice."""
    n = row[NTRIG]
    count = 0
    for mine in (True, False):
        for i in range(n):
            if ((row[TRIG + i] & 1) == row[ACTIVE]) == mine:
                row[SCRATCH + count] = row[TRIG + i]
                count += 1
    row[TRIG : TRIG + n] = row[SCRATCH : SCRATCH + n]
    while row[NTRIG] > 0 and row[WINDOW] != W_OVER:
        trigger = row[TRIG]
        controller, key, amount = trigger & 1, (trigger >> 1) & 127, trigger >> 16
        if key == K_DEPLOY_STRIKE:
            if _has_subordinate(row, 1 - controller):
                row[SKEY] = key
                row[PENDING] = amount
                row[WINDOW] = W_TRIGGER_TARGET
                return
            _remove_at(row, TRIG, NTRIG, 0)  # no legal target: the ability does nothing
            continue
        _remove_at(row, TRIG, NTRIG, 0)
        if key in (K_DEPLOY_HEAL, K_FAREWELL_HEAL):
            _heal(row, tab, controller, amount)
        elif key == K_DEPLOY_DRAW:
            _draw(row, controller, amount)
        if _state_check(row, tab):
            return
    if row[WINDOW] != W_OVER:
        row[WINDOW] = then


@njit(cache=True)
def _start_turn(row: Row, tab: Row) -> None:
    """A7.3, A8, A9 (rules supply_check, first_draw, draw_count, deployed_move)."""
    row[TURN] += 1
    if row[TURN] > 1:
        row[ACTIVE] = 1 - row[ACTIVE]
    me = row[ACTIVE]
    for sq in range(6):
        inst = row[FIELD + 6 * me + sq]
        if inst != EMPTY:
            row[DAMAGE + inst] = 0
            row[READY + inst] = 1
            row[MOVES + inst] = 0
            row[DEVOURED + inst] = 0
    if tab[R_UPKEEP]:  # A11.6 upkeep: every under-supplied subordinate at once, against the field as it stands
        count = 0
        for sq in range(6):
            inst = row[FIELD + 6 * me + sq]
            if inst != EMPTY and inst != row[LEADER + me] and _supply(row, tab, me, sq) < _inst(tab, inst, I_NEEDED):
                row[SCRATCH + count] = inst
                count += 1
        for i in range(count):
            _leave_field(row, tab, row[SCRATCH + i])
            _push(row, DISC + 64 * me, NDISC + me, row[SCRATCH + i])
    if row[TURN] > 1 or tab[R_FIRST_DRAW]:
        _draw(row, me, tab[R_DRAW_COUNT])
    if not _state_check(row, tab):
        row[WINDOW] = W_ACTION if tab[R_ACTION_MOVES] else W_MOVE


@njit(cache=True)
def _end_turn(row: Row, tab: Row) -> None:
    """A13.1-A13.2 (rule hand_limit)."""
    for slot in range(12):
        inst = row[FIELD + slot]
        if inst != EMPTY:
            row[TEMP + inst] = 0
    if _state_check(row, tab):
        return
    limit = tab[R_HAND_LIMIT]
    if limit >= 0 and row[NHAND + row[ACTIVE]] > limit:
        row[WINDOW] = W_DISCARD
    else:
        _start_turn(row, tab)


@njit(cache=True)
def _combat(row: Row, tab: Row) -> None:
    """A12.7-A12.8 (rules retaliation, siege_pierce)."""
    me = row[ACTIVE]
    enemy = 1 - me
    attacker, target = row[ATTACKER], row[TARGET]
    back = 0
    if tab[R_RETALIATION] and attacker != row[LEADER + me]:
        back = _attack_value(row, tab, target, False)
    if target == row[LEADER + enemy]:
        row[LP + enemy] -= _inst(tab, attacker, I_COST) + _inst(tab, attacker, I_SIEGE)  # A12.7, A17.7
    else:
        left = _hp_value(row, tab, target) - row[DAMAGE + target]
        dealt = _deal_damage(row, tab, target, _attack_value(row, tab, attacker, row[SIDE] == 1))
        if _has(tab, attacker, K_PIERCE) and dealt > left:  # A17.5
            excess = dealt - left
            if tab[R_SIEGE_PIERCE]:
                excess += _inst(tab, attacker, I_SIEGE)
            row[LP + enemy] -= excess
    if back:
        _deal_damage(row, tab, attacker, back)
    row[ATTACKER] = EMPTY
    row[TARGET] = EMPTY
    row[SIDE] = 0
    if not _state_check(row, tab):
        _resolve_triggers(row, tab, W_ATTACK)


@njit(cache=True)
def _activate(row: Row, tab: Row, inst: int, key: int) -> None:
    """A16.4: tap_heal (A17.17), tap_snipe then its target (A17.18), devour (A17.19)."""
    me = row[ACTIVE]
    if key == K_TAP_HEAL:
        amount = _inst(tab, inst, I_TAP_HEAL)
    elif key == K_TAP_SNIPE:
        amount = _inst(tab, inst, I_TAP_SNIPE)
    else:
        amount = _inst(tab, inst, I_DEVOUR)
    if key != K_TAP_HEAL and key != K_TAP_SNIPE:  # devour: no tap, once per turn
        row[DEVOURED + inst] = 1
        _push(row, REM + 64 * me, NREM + me, _remove_at(row, DISC + 64 * me, NDISC + me, 0))
        row[TEMP + inst] += amount
        row[WINDOW] = W_ACTION
        return
    row[READY + inst] = 0
    if key == K_TAP_HEAL:
        _heal(row, tab, me, amount)
        row[WINDOW] = W_ACTION
    else:
        row[SKEY] = key
        row[PENDING] = amount
        row[WINDOW] = W_ABILITY_TARGET


@njit(cache=True)
def _on_mulligan(row: Row, tab: Row, action: int, rng: npt.NDArray[np.uint64]) -> None:
    """A6.4: redraw 5, then shuffle the old 5 into the deck (rule mulligan=shuffle_first: shuffle first, then
    draw); the first player decides first."""
    p = row[CHOOSER]
    if action == A_MULLIGAN:
        n = row[NHAND + p]
        row[SCRATCH : SCRATCH + n] = row[HAND + 64 * p : HAND + 64 * p + n]
        row[NHAND + p] = 0
        if tab[R_SHUFFLE_FIRST]:
            for i in range(n):
                _push(row, DECK + 64 * p, NDECK + p, row[SCRATCH + i])
            _shuffle(row, DECK + 64 * p, row[NDECK + p], rng)
            _draw(row, p, OPENING_HAND)
        else:
            _draw(row, p, OPENING_HAND)
            for i in range(n):
                _push(row, DECK + 64 * p, NDECK + p, row[SCRATCH + i])
            _shuffle(row, DECK + 64 * p, row[NDECK + p], rng)
    if p == row[FIRST]:
        row[CHOOSER] = 1 - p
    else:
        row[TURN] = 0
        row[ACTIVE] = row[FIRST]
        _start_turn(row, tab)


@njit(cache=True)
def _on_move(row: Row, action: int) -> None:
    """A10.2: a unit to move, or the end of the move phase."""
    if action == A_END_MOVE:
        row[WINDOW] = W_ACTION
    else:
        row[SELECTED] = action - A_MOVE
        row[WINDOW] = W_MOVE_TO


@njit(cache=True)
def _on_move_to(row: Row, tab: Row, action: int) -> None:
    """A10.3: the leader may step onto a friendly subordinate, which is retired first."""
    me = row[ACTIVE]
    destination = action - A_TO
    source = row[SELECTED]
    inst = row[FIELD + 6 * me + source]
    occupant = row[FIELD + 6 * me + destination]
    if occupant != EMPTY:
        _leave_field(row, tab, occupant)
        _push(row, DISC + 64 * me, NDISC + me, occupant)
    row[FIELD + 6 * me + source] = EMPTY
    row[FIELD + 6 * me + destination] = inst
    row[SQ + inst] = destination
    row[MOVES + inst] += 1
    row[WINDOW] = W_ACTION if tab[R_ACTION_MOVES] else W_MOVE


@njit(cache=True)
def _hand_key(row: Row, tab: Row, offset: int) -> None:
    """A16.5: a HAND card key, the card discarded as the cost: hand_cycle draws (A17.21), hand_rally picks a
    friendly unit next (A17.20)."""
    me = row[ACTIVE]
    inst = _take_from_hand(row, tab, me, offset // 2)
    _push(row, DISC + 64 * me, NDISC + me, inst)
    if offset % 2 == 1:
        _draw(row, me, 1)
        if not _state_check(row, tab):
            row[WINDOW] = W_ACTION
    else:
        row[SKEY] = K_HAND_RALLY
        row[PENDING] = _inst(tab, inst, I_HAND_RALLY)
        row[WINDOW] = W_ABILITY_TARGET


@njit(cache=True)
def _on_action(row: Row, tab: Row, action: int) -> None:
    """A11: end the action phase, move (rule deployed_move), ACTIVATE a square's ability (A16.4), DEPLOY a card
    (its lowest instance in hand, then a square) or a HAND card key (A16.5)."""
    me = row[ACTIVE]
    if action == A_END_ACTION:
        row[WINDOW] = W_ATTACK
    elif action < A_TO:
        row[SELECTED] = action - A_MOVE
        row[WINDOW] = W_MOVE_TO
    elif action < tab[B_DEPLOY]:
        offset = action - A_ACTIVATE
        _activate(row, tab, row[FIELD + 6 * me + offset // 3], ACTIVATED[offset % 3])
    elif action < tab[B_HAND]:
        card = action - tab[B_DEPLOY]
        best = -1
        for i in range(row[NHAND + me]):
            inst = row[HAND + 64 * me + i]
            if _inst(tab, inst, I_CARD) == card and (best < 0 or inst < best):
                best = inst
        row[SELECTED] = best
        row[WINDOW] = W_DEPLOY_TO
    else:
        _hand_key(row, tab, action - tab[B_HAND])


@njit(cache=True)
def _on_deploy_to(row: Row, tab: Row, action: int) -> None:
    """A11.4: enters ready with no damage; then its deploy triggers resolve."""
    me = row[ACTIVE]
    square = action - A_TO
    inst = row[SELECTED]
    for i in range(row[NHAND + me]):
        if row[HAND + 64 * me + i] == inst:
            _remove_at(row, HAND + 64 * me, NHAND + me, i)
            break
    row[FIELD + 6 * me + square] = inst
    row[SQ + inst] = square
    for k in range(_inst(tab, inst, I_N_ABILITIES)):
        key = _ab(tab, inst, k, AB_KEY)
        if key in (K_DEPLOY_DRAW, K_DEPLOY_STRIKE, K_DEPLOY_HEAL):
            _push_trigger(row, me, key, _ab(tab, inst, k, AB_AMOUNT), inst)
    if not _state_check(row, tab):
        _resolve_triggers(row, tab, W_ACTION)


@njit(cache=True)
def _on_target(row: Row, tab: Row, action: int) -> None:
    """The target of tap_snipe, hand_rally (ability window) or deploy_strike (trigger window)."""
    me = row[ACTIVE]
    window = row[WINDOW]
    key = row[SKEY]
    seat = me if key == K_HAND_RALLY else 1 - me
    target = row[FIELD + 6 * seat + action - A_TARGET - 6 * seat]
    if key == K_HAND_RALLY:
        row[TEMP + target] += row[PENDING]
    else:  # tap_snipe, deploy_strike
        _deal_damage(row, tab, target, row[PENDING])
    resume = window == W_TRIGGER_TARGET
    if resume:
        _remove_at(row, TRIG, NTRIG, 0)
    row[SKEY] = -1
    row[PENDING] = 0
    if _state_check(row, tab):
        return
    if resume or row[NTRIG] > 0:
        _resolve_triggers(row, tab, W_ACTION)
    else:
        row[WINDOW] = W_ACTION


@njit(cache=True)
def _on_attack(row: Row, tab: Row, action: int) -> None:
    """A12.4: an attacker, or the end of the attack phase (and of the turn)."""
    if action == A_END_ATTACK:
        _end_turn(row, tab)
    else:
        row[SELECTED] = action - A_ATTACK
        row[WINDOW] = W_ATTACK_TARGET


@njit(cache=True)
def _on_attack_target(row: Row, tab: Row, action: int) -> None:
    """A12.4 step 5a: the attacker becomes acted; then a block window if one is possible (A12.5)."""
    me = row[ACTIVE]
    enemy = 1 - me
    square = action - A_TARGET - 6 * enemy
    facing = _engaged_row(row, enemy) * 3 + row[SELECTED] % 3
    attacker = row[FIELD + 6 * me + row[SELECTED]]
    row[ATTACKER] = attacker
    row[TARGET] = row[FIELD + 6 * enemy + square]
    row[SIDE] = 1 if square != facing else 0
    row[READY + attacker] = 0
    blocker = row[FIELD + 6 * enemy + facing]
    if (
        row[SIDE]
        and not _has(tab, attacker, K_EVASIVE)
        and blocker != EMPTY
        and blocker != row[LEADER + enemy]
        and (row[READY + blocker] or not tab[R_BLOCKER_READY])
    ):
        row[WINDOW] = W_BLOCK
    else:
        _combat(row, tab)


@njit(cache=True)
def _on_block(row: Row, tab: Row, action: int) -> None:
    """A12.5: a block redirects the attack to the facing subordinate (rules blocker_state, blocked_attack)."""
    if action == A_BLOCK:
        enemy = 1 - row[ACTIVE]
        target = row[FIELD + 6 * enemy + _engaged_row(row, enemy) * 3 + row[SQ + row[ATTACKER]] % 3]
        row[TARGET] = target
        row[SIDE] = tab[R_BLOCKED_SIDE]
        if tab[R_BLOCKER_READY]:
            row[READY + target] = 0
    _combat(row, tab)


@njit(cache=True)
def _on_discard(row: Row, tab: Row, action: int) -> None:
    """A13.2: discard down to the hand limit (rule hand_limit), one card at a time."""
    me = row[ACTIVE]
    inst = _take_from_hand(row, tab, me, action - tab[B_DISCARD])
    _push(row, DISC + 64 * me, NDISC + me, inst)
    limit = tab[R_HAND_LIMIT]
    if limit < 0 or row[NHAND + me] <= limit:
        _start_turn(row, tab)


@njit(cache=True)
def _do(row: Row, tab: Row, action: int, rng: npt.NDArray[np.uint64]) -> None:
    """One legal action at the current window (`AterialState._do`: its `_HANDLERS[window]`)."""
    window = row[WINDOW]
    if window == W_MULLIGAN:
        _on_mulligan(row, tab, action, rng)
    elif window == W_MOVE:
        _on_move(row, action)
    elif window == W_MOVE_TO:
        _on_move_to(row, tab, action)
    elif window == W_ACTION:
        _on_action(row, tab, action)
    elif window == W_DEPLOY_TO:
        _on_deploy_to(row, tab, action)
    elif window in (W_ABILITY_TARGET, W_TRIGGER_TARGET):
        _on_target(row, tab, action)
    elif window == W_ATTACK:
        _on_attack(row, tab, action)
    elif window == W_ATTACK_TARGET:
        _on_attack_target(row, tab, action)
    elif window == W_BLOCK:
        _on_block(row, tab, action)
    elif window == W_DISCARD:
        _on_discard(row, tab, action)


# -- legal actions -------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _unit_moves(row: Row, tab: Row, out: Row, n: int) -> int:
    """A10.1-A10.4: `MOVE sq` for every unit with a move left and somewhere to go."""
    me = row[ACTIVE]
    for sq in range(6):
        inst = row[FIELD + 6 * me + sq]
        if inst == EMPTY or row[MOVES + inst] >= _inst(tab, inst, I_MOVE_LIMIT):
            continue
        free = inst == row[LEADER + me]
        for j in range(3):
            neighbour = ORTHO[sq, j]
            if neighbour >= 0 and row[FIELD + 6 * me + neighbour] == EMPTY:
                free = True
        if free:
            out[n] = A_MOVE + sq
            n += 1
    return n


@njit(cache=True, inline="always")
def _first_in_hand(row: Row, tab: Row, p: int, i: int) -> bool:
    """Whether hand entry i is the first of its card in p's hand (each card id is offered once)."""
    card = _inst(tab, row[HAND + 64 * p + i], I_CARD)
    for j in range(i):  # noqa: SIM110 (a loop numba compiles)
        if _inst(tab, row[HAND + 64 * p + j], I_CARD) == card:
            return False
    return True


@njit(cache=True)
def _action_options(row: Row, tab: Row, out: Row) -> int:
    """A11.1: deployments, activated and hand abilities, moves under rule deployed_move, END_ACTION."""
    me = row[ACTIVE]
    n = 0
    best = -1
    if row[TURN] != 1 or tab[R_FIRST_TURN_DEPLOY]:  # rule first_turn_deploy (A11.8)
        for sq in range(6):
            if row[FIELD + 6 * me + sq] == EMPTY:
                best = max(best, _supply(row, tab, me, sq))
    hand = row[NHAND + me]
    for i in range(hand):
        card = _inst(tab, row[HAND + 64 * me + i], I_CARD)
        at = CARD_BASE + card * CCOLS
        if tab[at + C_SUB] and tab[at + C_NEEDED] <= best and _first_in_hand(row, tab, me, i):
            out[n] = tab[B_DEPLOY] + card
            n += 1
    for sq in range(6):
        inst = row[FIELD + 6 * me + sq]
        if inst == EMPTY:
            continue
        for k in range(3):
            key = ACTIVATED[k]
            if not _has(tab, inst, key):
                continue
            if k == 2:
                ok = not row[DEVOURED + inst] and row[NDISC + me] > 0
            else:
                ok = row[READY + inst] == 1 and (key == K_TAP_HEAL or _has_subordinate(row, 1 - me))
            if ok:
                out[n] = A_ACTIVATE + sq * 3 + k
                n += 1
    for i in range(hand):
        card = _inst(tab, row[HAND + 64 * me + i], I_CARD)
        keys = tab[CARD_BASE + card * CCOLS + C_HAND_KEYS]
        if keys and _first_in_hand(row, tab, me, i):
            for k in range(2):
                if (keys >> k) & 1:
                    out[n] = tab[B_HAND] + card * 2 + k
                    n += 1
    if tab[R_ACTION_MOVES]:
        n = _unit_moves(row, tab, out, n)
    out[n] = A_END_ACTION
    return n + 1


@njit(cache=True)
def legal_actions(row: Row, tab: Row, out: Row) -> int:
    """The legal action ids at the current window, written to `out` (at least `tab[N_ACTIONS]` long); their count."""
    window = row[WINDOW]
    me = row[ACTIVE]
    n = 0
    if window == W_MULLIGAN:
        out[0] = A_KEEP
        out[1] = A_MULLIGAN
        return 2
    if window == W_BLOCK:
        out[0] = A_BLOCK
        out[1] = A_NO_BLOCK
        return 2
    if window == W_MOVE:
        n = _unit_moves(row, tab, out, 0)
        out[n] = A_END_MOVE
        return n + 1
    if window == W_MOVE_TO:  # A10.2-A10.3
        source = row[SELECTED]
        inst = row[FIELD + 6 * me + source]
        if inst == EMPTY or row[MOVES + inst] >= _inst(tab, inst, I_MOVE_LIMIT):
            return 0
        for j in range(3):
            sq = ORTHO[source, j]
            if sq >= 0 and (row[FIELD + 6 * me + sq] == EMPTY or inst == row[LEADER + me]):
                out[n] = A_TO + sq
                n += 1
        return n
    if window == W_ACTION:
        return _action_options(row, tab, out)
    if window == W_DEPLOY_TO:  # A11.3
        needed = _inst(tab, row[SELECTED], I_NEEDED)
        for sq in range(6):
            if row[FIELD + 6 * me + sq] == EMPTY and _supply(row, tab, me, sq) >= needed:
                out[n] = A_TO + sq
                n += 1
        return n
    if window in (W_ABILITY_TARGET, W_TRIGGER_TARGET):
        seat = me if row[SKEY] == K_HAND_RALLY else 1 - me
        for sq in range(6):
            inst = row[FIELD + 6 * seat + sq]
            if inst != EMPTY and (seat == me or inst != row[LEADER + seat]):
                out[n] = A_TARGET + 6 * seat + sq
                n += 1
        return n
    if window in (W_ATTACK, W_ATTACK_TARGET):  # A12.1, A12.3-A12.4
        if window == W_ATTACK and row[TURN] == 1:
            out[0] = A_END_ATTACK
            return 1
        enemy = 1 - me
        base = FIELD + 6 * enemy + _engaged_row(row, enemy) * 3
        first, last = (0, 6) if window == W_ATTACK else (row[SELECTED], row[SELECTED] + 1)
        for sq in range(first, last):
            if not _can_attack(row, tab, sq):
                continue
            col = sq % 3
            for c in (col, col - 1, col + 1):
                if 0 <= c <= 2 and row[base + c] != EMPTY:
                    if window == W_ATTACK:
                        out[n] = A_ATTACK + sq
                        n += 1
                        break
                    out[n] = A_TARGET + 6 * enemy + (base - FIELD - 6 * enemy) + c
                    n += 1
        if window == W_ATTACK:
            out[n] = A_END_ATTACK
            n += 1
        return n
    if window == W_DISCARD:
        for i in range(row[NHAND + me]):
            if _first_in_hand(row, tab, me, i):
                out[n] = tab[B_DISCARD] + _inst(tab, row[HAND + 64 * me + i], I_CARD)
                n += 1
        return n
    return 0


@njit(cache=True)
def apply(row: Row, tab: Row, action: int, rng: npt.NDArray[np.uint64], out: Row) -> int:
    """Apply a legal action, then every automatic step and single-option window (A7.4), as the reference's
    `SteppingState._advance`; leaves the legal actions of the next decision in `out` and returns their count."""
    _do(row, tab, action, rng)
    while True:
        n = legal_actions(row, tab, out)
        if n != 1:
            return n
        _do(row, tab, out[0], rng)


@njit(cache=True)
def current_player(row: Row) -> int:
    """Who decides now: the chooser at the mulligan, the defender at a block, else the active player; -1 over."""
    window = row[WINDOW]
    if window == W_OVER:
        return -1
    if window == W_MULLIGAN:
        return row[CHOOSER]
    if window == W_BLOCK:
        return 1 - row[ACTIVE]
    return row[ACTIVE]


# -- whole games -------------------------------------------------------------------------------


@njit(cache=True)
def deal(row: Row, tab: Row, first: int, rng: npt.NDArray[np.uint64], out: Row) -> int:
    """A6 set-up with the kernel's own RNG: shuffle both decks, the first player (`first` -1: drawn),
    five cards each, the mulligan window. Returns the legal count (2)."""
    row[:] = 0
    row[FIELD : FIELD + 12] = EMPTY
    row[SQ : SQ + MAX_INSTANCES] = EMPTY
    row[READY : READY + MAX_INSTANCES] = 1
    for slot in (SELECTED, SKEY, ATTACKER, TARGET, WINNER, REASON):
        row[slot] = -1
    count = tab[N_INST]
    for inst in range(count):
        p = _inst(tab, inst, I_OWNER)
        if inst == 0 or (p == 1 and _inst(tab, inst - 1, I_OWNER) == 0):  # the first card of a seat: its leader
            row[LEADER + p] = inst
            row[FIELD + 6 * p + 1] = inst  # A6.5: F1
            row[SQ + inst] = 1
            row[LP + p] = _inst(tab, inst, I_LP)
        else:
            _push(row, DECK + 64 * p, NDECK + p, inst)
    for p in range(2):
        _shuffle(row, DECK + 64 * p, row[NDECK + p], rng)  # A6.1
    row[FIRST] = first if first >= 0 else _below(rng, 2)  # A6.2
    for p in range(2):
        _draw(row, p, OPENING_HAND)  # A6.3
    row[WINDOW] = W_MULLIGAN
    row[CHOOSER] = row[FIRST]
    return legal_actions(row, tab, out)


@njit(cache=True, parallel=True)
def play_batch(tab: Row, first: int, n_games: int, seed: int, first_game: int) -> tuple[Row, Row, Row, Row]:
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
            n = deal(row, tab, first, rng, out)
            count = 0
            while row[WINDOW] != W_OVER:
                n = apply(row, tab, out[_below(rng, n)], rng, out)
                count += 1
            winner[game] = row[WINNER]
            reason[game] = row[REASON]
            turns[game] = row[TURN]
            decisions[game] = count
    return winner, reason, turns, decisions


# -- Python side -------------------------------------------------------------------------------


ZONES, ZONE_LENGTHS = (DECK, HAND, DISC, REM), (NDECK, NHAND, NDISC, NREM)

SKEY_CODES = {"tap_snipe": K_TAP_SNIPE, "hand_rally": K_HAND_RALLY, "deploy_strike": K_DEPLOY_STRIKE}
"""The abilities whose target a window asks for, as the SKEY slot holds them."""


def outcome(row: Row) -> tuple[int | None, str] | None:
    """(winner, reason) once over, the winner None for a draw (`AterialState.outcome`); None before."""
    if row[WINDOW] != W_OVER:
        return None
    return (None if row[WINNER] < 0 else int(row[WINNER]), REASON_NAMES[int(row[REASON])])


def load_state(state: Any) -> tuple[Row, Row]:
    """(row, table) of a reference `AterialState`: the same deal, window and pending choices, so that both
    engines play on from one position."""
    from cardlab.games.aterial.fast.tables import build_table

    tab = build_table(state.game, state.cards)
    row = new_row()
    names = {"": -1} | SKEY_CODES
    reasons = {"": -1} | {name: i for i, name in enumerate(REASON_NAMES)}
    scalars = {
        TURN: state.turn,
        ACTIVE: state.active,
        FIRST: state.first,
        WINDOW: state.window,
        CHOOSER: state.chooser,
        SELECTED: state.selected,
        SKEY: names[state.selected_key],
        PENDING: state.pending_amount,
        ATTACKER: state.attacker,
        TARGET: state.target,
        SIDE: state.side,
        WINNER: -1 if state.winner is None else state.winner,
        DRAW: state.draw,
        REASON: reasons[state.reason],
        NTRIG: len(state.triggers),
    }
    for slot, value in scalars.items():
        row[slot] = int(value)
    for p in (0, 1):
        row[LOST + p], row[LP + p], row[LEADER + p] = int(state.lost[p]), state.lp[p], state.leader[p]
        for base, length, zone in (
            (DECK, NDECK, state.decks),
            (HAND, NHAND, state.hands),
            (DISC, NDISC, state.discards),
            (REM, NREM, state.removed),
        ):
            row[length + p] = len(zone[p])
            row[base + 64 * p : base + 64 * p + len(zone[p])] = zone[p]
        row[FIELD + 6 * p : FIELD + 6 * p + 6] = state.field[p]
    row[SQ : SQ + MAX_INSTANCES] = EMPTY
    n = len(state.cards)
    for base, values in (
        (SQ, state.square_of),
        (READY, state.ready),
        (DAMAGE, state.damage),
        (MOVES, state.moves),
        (DEVOURED, state.devoured),
        (TEMP, state.temp_attack),
    ):
        row[base : base + n] = [int(value) for value in values]
    row[READY + n : READY + MAX_INSTANCES] = 1
    for i, trigger in enumerate(state.triggers):
        row[TRIG + i] = trigger.controller | (KEY[trigger.key] << 1) | (trigger.source << 8) | (trigger.amount << 16)
    return row, tab


def play_game(game: Any, n_games: int, seed: int, first_game: int = 0) -> tuple[Row, Row, Row, Row]:
    """`play_batch` for an `Aterial` game (its cards, decks, rule options and `first`)."""
    from cardlab.games.aterial.fast.tables import build_table, dealt_cards

    first = -1 if game.config.first is None else ("P1", "P2").index(game.config.first)
    return play_batch(build_table(game, dealt_cards(game)), first, n_games, seed % 2**62, first_game)


def snapshot(row: Row, count: int) -> dict[str, Any]:
    """The row as plain values (`count` instances), in the terms of the differential test's reference snapshot."""
    zone = lambda base, length, p: [int(v) for v in row[base + 64 * p : base + 64 * p + row[length + p]]]  # noqa: E731
    return {
        "turn": int(row[TURN]),
        "active": int(row[ACTIVE]),
        "first": int(row[FIRST]),
        "window": int(row[WINDOW]),
        "chooser": int(row[CHOOSER]),
        "selected": int(row[SELECTED]),
        "ability": int(row[SKEY]),
        "pending": int(row[PENDING]),
        "attack": (int(row[ATTACKER]), int(row[TARGET]), int(row[SIDE])),
        "lost": [int(row[LOST]), int(row[LOST + 1])],
        "lp": [int(row[LP]), int(row[LP + 1])],
        "leader": [int(row[LEADER]), int(row[LEADER + 1])],
        "field": [[int(v) for v in row[FIELD + 6 * p : FIELD + 6 * p + 6]] for p in (0, 1)],
        "zones": [[zone(base, length, p) for p in (0, 1)] for base, length in zip(ZONES, ZONE_LENGTHS, strict=True)],
        "units": [[int(row[base + i]) for base in (SQ, READY, DAMAGE, MOVES, DEVOURED, TEMP)] for i in range(count)],
        "triggers": [
            (int(t & 1), int((t >> 1) & 127), int(t >> 16), int((t >> 8) & 255)) for t in row[TRIG : TRIG + row[NTRIG]]
        ],
    }


def sync_mulligan(row: Row, player: int, deck: list[int], hand: list[int], shuffle_first: bool) -> str | None:
    """After a mulligan (A6.4), which each engine shuffles from its own randomness: check that the kernel holds
    the reference's cards in `player`'s deck and hand (the very hand unless rule mulligan=shuffle_first), then
    take the reference's order. A mismatch in words, else None."""
    kernel_deck = [int(v) for v in row[DECK + 64 * player : DECK + 64 * player + row[NDECK + player]]]
    kernel_hand = [int(v) for v in row[HAND + 64 * player : HAND + 64 * player + row[NHAND + player]]]
    if sorted(kernel_deck + kernel_hand) != sorted(deck + hand) or len(kernel_hand) != len(hand):
        kernel, reference = f"deck {kernel_deck} and hand {kernel_hand}", f"deck {deck} and hand {hand}"
        return f"after the mulligan the kernel holds {kernel}, the reference {reference}"
    if not shuffle_first and kernel_hand != hand:
        return f"the mulligan's new hand is {kernel_hand} in the kernel, {hand} in the reference"
    row[DECK + 64 * player : DECK + 64 * player + len(deck)] = deck
    row[HAND + 64 * player : HAND + 64 * player + len(hand)] = hand
    return None


flush_stale_cache(sys.modules[__name__])  # it compiles in `tables` and `cardlab.fast.rng`
