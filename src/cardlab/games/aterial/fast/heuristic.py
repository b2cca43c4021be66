"""`games/aterial/heuristic.choose` compiled on the kernel's row (`cpu`): the same action at every decision.

It reads only what the player to move may know, as the reference does: both fields and their units, LP,
deck sizes, its own hand (the chooser's at the mulligan), never the opponent's hand or any deck's order.
Ties are broken as the reference breaks them (legal order; card ids as text, the table's C_ID_RANK), and
scores are the same float64 sums, so the choices are identical (tests/games/aterial/fast/test_kernel.py).
`play_batch` plays whole games with a policy per seat (random or heuristic).
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit, prange

from cardlab.fast.search import flush_stale_cache
from cardlab.games.aterial.fast.cpu import (
    _BLOCK_GAMES,
    A_ACTIVATE,
    A_ATTACK,
    A_BLOCK,
    A_END_ACTION,
    A_END_ATTACK,
    A_END_MOVE,
    A_KEEP,
    A_MOVE,
    A_MULLIGAN,
    A_NO_BLOCK,
    A_TARGET,
    A_TO,
    ACTIVE,
    ATTACKER,
    CHOOSER,
    DAMAGE,
    EMPTY,
    FIELD,
    HAND,
    LEADER,
    LP,
    NDECK,
    NHAND,
    PENDING,
    REASON,
    ROW_SIZE,
    SELECTED,
    SKEY,
    SQ,
    TARGET,
    TURN,
    WINDOW,
    WINNER,
    Row,
    _attack_value,
    _below,
    _can_attack,
    _engaged_row,
    _hp_value,
    _inst,
    apply,
    current_player,
    deal,
    seed_rng,
)
from cardlab.games.aterial.fast.tables import (
    B_DEPLOY,
    B_DISCARD,
    B_HAND,
    C_COST,
    C_DEPLOY_DRAW,
    C_ID_RANK,
    CARD_BASE,
    CCOLS,
    I_ARMOR,
    I_ATTACK,
    I_CARD,
    I_COST,
    I_DOMINANCE,
    I_KEYS,
    I_LP,
    I_OWNER,
    I_SIEGE,
    I_TAP_SNIPE,
    K_CANNOT_ATTACK,
    K_HAND_RALLY,
    K_PIERCE,
    K_RANGED,
    K_REAR_SUPPORT,
    K_WIDE_REACH,
    N_ACTIONS,
    R_BLOCKED_SIDE,
    R_DECK_OUT_EMPTY,
    R_HEAL_CAPPED,
    R_RETALIATION,
    R_SIEGE_PIERCE,
)
from cardlab.games.aterial.heuristic import EVAL_SCALE
from cardlab.games.aterial.state import (
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

POLICY_RANDOM, POLICY_HEURISTIC = 0, 1
POLICIES = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC}
_SUPPORT = (1 << K_RANGED) | (1 << K_REAR_SUPPORT) | (1 << K_WIDE_REACH) | (1 << K_CANNOT_ATTACK)
"""`heuristic._SUPPORT_KEYS` as a key bit set."""


@njit(cache=True)
def _card(tab: Row, card: int, col: int) -> int:
    return tab[CARD_BASE + card * CCOLS + col]


@njit(cache=True)
def _remaining(row: Row, tab: Row, inst: int) -> int:
    return _hp_value(row, tab, inst) - row[DAMAGE + inst]


@njit(cache=True)
def _hit_score(row: Row, tab: Row, attacker: int, target: int, side: bool) -> float:
    enemy = _inst(tab, target, I_OWNER)
    siege = _inst(tab, attacker, I_SIEGE)
    if target == row[LEADER + enemy]:
        return 2.0 * (_inst(tab, attacker, I_COST) + siege)
    dealt = max(0, _attack_value(row, tab, attacker, side) - _inst(tab, target, I_ARMOR))
    left = _remaining(row, tab, target)
    if dealt >= left:
        excess = dealt - left if (_inst(tab, attacker, I_KEYS) >> K_PIERCE) & 1 else 0
        if excess and tab[R_SIEGE_PIERCE]:
            excess += siege
        return 1.0 + _inst(tab, target, I_COST) + excess
    return 0.25 * dealt


@njit(cache=True)
def _attack_score(row: Row, tab: Row, attacker: int, target: int, side: bool) -> float:
    """`heuristic._attack_score`: the hit, less the attacker's worth when retaliation (rule) destroys it."""
    score = _hit_score(row, tab, attacker, target, side)
    if tab[R_RETALIATION] and attacker != row[LEADER + _inst(tab, attacker, I_OWNER)]:
        back = max(0, _attack_value(row, tab, target, False) - _inst(tab, attacker, I_ARMOR))
        if back >= _remaining(row, tab, attacker):
            score -= 1.0 + _inst(tab, attacker, I_COST)
    return score


@njit(cache=True)
def _best_attack(row: Row, tab: Row, square: int) -> tuple[float, int]:
    """(score, target square) of the best attack of the active player's unit on `square`; ties: lowest square."""
    if not _can_attack(row, tab, square):
        return 0.0, 0
    me = row[ACTIVE]
    enemy = 1 - me
    base = _engaged_row(row, enemy) * 3
    col = square % 3
    attacker = row[FIELD + 6 * me + square]
    best, best_sq, found = 0.0, 0, False
    for c in (col, col - 1, col + 1):
        if c < 0 or c > 2:
            continue
        target = row[FIELD + 6 * enemy + base + c]
        if target == EMPTY:
            continue
        score = _attack_score(row, tab, attacker, target, c != col)
        if not found or score > best or (score == best and base + c < best_sq):
            best, best_sq, found = score, base + c, True
    return best, best_sq


@njit(cache=True)
def _snipe_target(row: Row, tab: Row, amount: int) -> int:
    """The enemy subordinate square a damage ability hits: a kill if possible, else the strongest; -1 none."""
    enemy = 1 - row[ACTIVE]
    best, best_sq = 0.0, -1
    for sq in range(6):
        inst = row[FIELD + 6 * enemy + sq]
        if inst == EMPTY or inst == row[LEADER + enemy]:
            continue
        dealt = max(0, amount - _inst(tab, inst, I_ARMOR))
        if dealt >= _remaining(row, tab, inst):
            score = 10.0 + _inst(tab, inst, I_COST)
        else:
            score = _attack_value(row, tab, inst, False) / 10
        if best_sq < 0 or score > best:
            best, best_sq = score, sq
    return best_sq


@njit(cache=True)
def _offered(out: Row, n: int, action: int) -> bool:
    for i in range(n):  # noqa: SIM110 (a loop numba compiles)
        if out[i] == action:
            return True
    return False


@njit(cache=True)
def _step_forward(row: Row, tab: Row, out: Row, n: int) -> int:
    """`MOVE sq` of a back-row attacker (no leader, no support unit) whose front square is empty; -1 none."""
    me = row[ACTIVE]
    for sq in (3, 4, 5):
        inst = row[FIELD + 6 * me + sq]
        if inst == EMPTY or inst == row[LEADER + me] or not _offered(out, n, A_MOVE + sq):
            continue
        if not _inst(tab, inst, I_KEYS) & _SUPPORT and row[FIELD + 6 * me + sq - 3] == EMPTY:
            return A_MOVE + sq
    return -1


@njit(cache=True)
def _action(row: Row, tab: Row, out: Row, n: int) -> int:
    """`heuristic._action`: a useful ability, else the dearest deployment, else a cycle, a step, END_ACTION."""
    me = row[ACTIVE]
    lp, cap = row[LP + me], _inst(tab, row[LEADER + me], I_LP)
    for i in range(n):
        action = out[i]
        if action < A_ACTIVATE or action >= tab[B_DEPLOY]:
            continue
        offset = action - A_ACTIVATE
        k = offset % 3
        if k == 2 or (k == 0 and (lp < cap or not tab[R_HEAL_CAPPED])):  # devour; tap_heal when it heals (A14.4)
            return action
        source = row[FIELD + 6 * me + offset // 3]
        if k == 1 and _snipe_target(row, tab, _inst(tab, source, I_TAP_SNIPE)) >= 0:
            return action
    safe = row[NDECK + me] - tab[R_DECK_OUT_EMPTY]
    best, best_cost, best_rank = -1, -1, -1
    cycle, cycle_rank = -1, -1
    for i in range(n):
        action = out[i]
        if tab[B_DEPLOY] <= action < tab[B_HAND]:
            card = action - tab[B_DEPLOY]
            if tab[R_DECK_OUT_EMPTY] and _card(tab, card, C_DEPLOY_DRAW) > safe:
                continue  # rule deck_out=empty: no deploy_draw that would empty the deck
            cost, rank = _card(tab, card, C_COST), _card(tab, card, C_ID_RANK)
            if cost > best_cost or (cost == best_cost and rank > best_rank):
                best, best_cost, best_rank = action, cost, rank
        elif tab[B_HAND] <= action < tab[B_DISCARD] and (action - tab[B_HAND]) % 2 == 1:
            rank = _card(tab, (action - tab[B_HAND]) // 2, C_ID_RANK)
            if cycle < 0 or rank < cycle_rank:
                cycle, cycle_rank = action, rank
    if best >= 0:
        return best
    if cycle >= 0 and row[NHAND + me] >= 4 and (not tab[R_DECK_OUT_EMPTY] or safe >= 1):
        return cycle
    step = _step_forward(row, tab, out, n)  # offered only under rule deployed_move=yes (A10.8)
    return step if step >= 0 else A_END_ACTION


@njit(cache=True)
def heuristic_action(row: Row, tab: Row, out: Row, n: int) -> int:
    """The heuristic's choice among the `n` legal actions in `out` (as `legal_actions` or `apply` left them)."""
    window = row[WINDOW]
    me = row[ACTIVE]
    if window == W_MULLIGAN:  # keep a hand that can put two cheap cards down
        p = row[CHOOSER]
        cheap = 0
        for i in range(row[NHAND + p]):
            cheap += _inst(tab, row[HAND + 64 * p + i], I_COST) <= 2
        return A_KEEP if cheap >= 2 else A_MULLIGAN
    if window == W_MOVE:
        step = _step_forward(row, tab, out, n)
        return A_END_MOVE if step < 0 else step
    if window == W_MOVE_TO:
        for i in range(n):
            if out[i] - A_TO < 3:
                return out[i]
        return out[0]
    if window == W_ACTION:
        return _action(row, tab, out, n)
    if window == W_DEPLOY_TO:  # support units go back, others front
        inst = row[SELECTED]
        keys = _inst(tab, inst, I_KEYS)
        support = keys & _SUPPORT != 0 or (_inst(tab, inst, I_DOMINANCE) >= 2 and _inst(tab, inst, I_ATTACK) <= 1)
        for i in range(n):
            if (out[i] - A_TO >= 3) == support:
                return out[i]
        return out[0]
    if window == W_ATTACK:
        best, chosen = 0.0, -1
        for i in range(n):
            if out[i] == A_END_ATTACK:
                continue
            score = _best_attack(row, tab, out[i] - A_ATTACK)[0]
            if chosen < 0 or score > best:
                best, chosen = score, out[i]
        return chosen if chosen >= 0 and best > 0 else A_END_ATTACK
    if window == W_ATTACK_TARGET:
        return A_TARGET + 6 * (1 - me) + _best_attack(row, tab, row[SELECTED])[1]
    if window == W_BLOCK:  # block when the blocker survives, or to save LP from an expensive attacker
        defender = 1 - me
        attacker = row[ATTACKER]
        blocker = row[FIELD + 6 * defender + _engaged_row(row, defender) * 3 + row[SQ + attacker] % 3]
        dealt = max(0, _attack_value(row, tab, attacker, tab[R_BLOCKED_SIDE] == 1) - _inst(tab, blocker, I_ARMOR))
        on_leader = row[TARGET] == row[LEADER + defender]
        survives = dealt < _remaining(row, tab, blocker)
        return A_BLOCK if survives or (on_leader and _inst(tab, attacker, I_COST) >= 3) else A_NO_BLOCK
    if window in (W_ABILITY_TARGET, W_TRIGGER_TARGET):
        if row[SKEY] == K_HAND_RALLY:
            return out[0]
        target = _snipe_target(row, tab, row[PENDING])
        return A_TARGET + 6 * (1 - me) + target if target >= 0 else out[0]
    if window == W_DISCARD:  # drop the cheapest card (ties: the lowest card id)
        best_cost, best_rank, best_card = -1, -1, -1
        for i in range(row[NHAND + me]):
            card = _inst(tab, row[HAND + 64 * me + i], I_CARD)
            cost, rank = _card(tab, card, C_COST), _card(tab, card, C_ID_RANK)
            if best_card < 0 or cost < best_cost or (cost == best_cost and rank < best_rank):
                best_cost, best_rank, best_card = cost, rank, card
        return tab[B_DISCARD] + best_card
    return -1


@njit(cache=True)
def _material(row: Row, tab: Row, player: int) -> float:
    """`heuristic._material`: LP count double, a unit its cost + 1 scaled by the HP it has left, a hand card 0.3."""
    value = 2.0 * row[LP + player] + 0.3 * row[NHAND + player]
    leader = row[LEADER + player]
    for sq in range(6):
        inst = row[FIELD + 6 * player + sq]
        if inst != EMPTY and inst != leader:
            left = max(0, _remaining(row, tab, inst))
            value += (_inst(tab, inst, I_COST) + 1.0) * left / max(1, _hp_value(row, tab, inst))
    return value


@njit(cache=True)
def evaluate(row: Row, tab: Row, player: int) -> float:
    """`heuristic.evaluate`: `player`'s chance of winning from public material and hand sizes (1, 0 or 0.5
    once the game is over), where a search cuts a rollout short (`ismcts:depth=D`)."""
    if row[WINDOW] == W_OVER:
        if row[WINNER] < 0:
            return 0.5
        return 1.0 if row[WINNER] == player else 0.0
    lead = _material(row, tab, player) - _material(row, tab, 1 - player)
    return 1.0 / (1.0 + np.exp(-lead / EVAL_SCALE))


@njit(cache=True, parallel=True)
def play_batch(
    tab: Row, first: int, policy_p1: int, policy_p2: int, n_games: int, seed: int, first_game: int
) -> tuple[Row, Row, Row, Row]:
    """`cpu.play_batch` with a policy per seat (`POLICIES`): game i depends on (seed, first_game + i) only."""
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
            decisions[game] = play_one(row, tab, first, policy_p1, policy_p2, rng, out)
            winner[game] = row[WINNER]
            reason[game] = row[REASON]
            turns[game] = row[TURN]
    return winner, reason, turns, decisions


@njit(cache=True, inline="always")
def play_one(row: Row, tab: Row, first: int, policy_p1: int, policy_p2: int, rng: np.ndarray, out: Row) -> int:
    """One game dealt and played from `rng` with a policy per seat, in `row` (left at its end): the decisions
    taken. Every batch of the compiled heuristic plays its games so (`play_batch`, the meta search's pairings)."""
    n = deal(row, tab, first, rng, out)
    count = 0
    while row[WINDOW] != W_OVER:
        policy = policy_p1 if current_player(row) == 0 else policy_p2
        action = heuristic_action(row, tab, out, n) if policy == POLICY_HEURISTIC else out[_below(rng, n)]
        n = apply(row, tab, action, rng, out)
        count += 1
    return count


def play_game(
    game: object, policies: tuple[str, str], n_games: int, seed: int, first_game: int = 0
) -> tuple[Row, Row, Row, Row]:
    """`play_batch` for an `Aterial` game and policy names ("random", "heuristic") of P1 and P2."""
    from cardlab.games.aterial.fast.tables import build_table, dealt_cards
    from cardlab.games.aterial.game import Aterial

    assert isinstance(game, Aterial)
    first = -1 if game.config.first is None else ("P1", "P2").index(game.config.first)
    table = build_table(game, dealt_cards(game))
    codes = POLICIES[policies[0]], POLICIES[policies[1]]
    return play_batch(table, first, *codes, n_games, seed % 2**62, first_game)


flush_stale_cache(sys.modules[__name__])  # the policy kernel inlines the rules of `cpu`
