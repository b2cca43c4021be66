"""A numba CPU kernel for Edelweiss that plays exactly the game of `cardlab.games.edelweiss`.

The reference engine (`games/edelweiss/state.py`) is the readable source of truth; this module
mirrors its `_do` + `_advance` step for step on a flat int64 row, so that millions of games can be
played for the balance lab. `tests/games/edelweiss/fast/test_cpu.py` proves the two equal: legal action
sets and E14.5 positions after every step, heuristic decisions, and game-level statistics.

State layout: one int64 row of `ROW_SIZE` per game (`new_row()`), offsets below. The first
`CORE_SIZE` slots are the game itself, its rule options included (shared with the JAX kernel); the
field index after them is derived from the fields and kept in step with them, so that finding "the
oldest upright club" (E14.2) is one count-trailing-zeros instead of a scan.

| offset | name | meaning |
|---|---|---|
| 0 | DECK_KIND | 0 full (52), 1 short (36), 2 skills (36) (E1.1) |
| 1 | STANDARD | 0 none, 1 Symbolic, 2 Accel 2 (E7.4) |
| 2, 3 | CHAR | character index of P1, P2 into `CHARACTER_IDS` (E9); -1 without skills |
| 4, 5 | SKILLS | skill bit set of P1, P2 (E7.2: 1 Guardian, 2 Buddy Summoner, 4 Wizard, 8 Poison Bind) |
| 6 | TURN | 1 for P1's first turn (E14.5) |
| 7 | TURN_PLAYER | 0 = P1, 1 = P2 (E0.1) |
| 8 | WINDOW | `Window`: 0 draw, 1 main, 2 special, 3 attack, 4 intercept, 5 defense, 6 counter, 7 pursuit, 8 over |
| 9 | SPADE | attacking spade card (E5.0), -1 none |
| 10 | DEFENSE | 0 none yet, 1 guard, 2 block, 3 field guard (E5.3) |
| 11 | GUARD_CARD | guard card (hand or field guard), -1 none |
| 12 | BLOCKER | blocking heart, -1 none |
| 13 | COUNTER | 1 when a counter was caused (E5.4) |
| 14 | PURSUIT_CLUB | pursuit club (E5.5), -1 none |
| 15 | WINNER | -1 none (or a drawn deck-out: WINDOW over, REASON deck_out), 0 P1, 1 P2 (E6) |
| 16 | REASON | -1 none, 0 attack (E6.1), 1 deck_out (E6.2) |
| 17 | DECK_LEN | cards in the deck |
| 18 | DISCARD_LEN | cards in the discard pile |
| 19, 20 | FIELD_LEN | cards on P1's, P2's field |
| 21..28 | HAND | hand of player p, suit s at 21 + 4p + s: bit r set = card of rank index r held |
| 29..36 | REVEALED | same layout: hand cards shown by Diamond Dust (E4.3, E2.5); always a subset of the hand |
| 37..88 | DECK | 52 slots, bottom first: the top card is DECK[DECK_LEN - 1] (as the reference list) |
| 89..140 | DISCARD | 52 slots, oldest first (E2.4) |
| 141..220 | FIELD | 2 x 40 slots, arrival order (E14.2), entry = card * 2 + tapped (E2.3) |
| 221 | RULES | rule options (`variants.RULE_OPTIONS`) as bits, 0 at the defaults: 1 first_draw=no (E3.2), \
2 accel2_guardian=symbolic_too (E8.1), 4 symbolic_field_guard=spades (E8.1), 8 deck_out_tie=draw (E6.2), \
16/32/64 accel2_protection=none/club_still_owed/defender (E8.5), 128 poison_bind_trigger=diamond_guard (E8.4), \
256 poison_bind_timing=after_counter (E8.4) |
| 222 | OPENING_HAND | rule opening_hand (E1.4): 0 standard (4, or 5 in a skills game), else the cards per hand, 3..6 |
| 223..238 | FIELD_INDEX | player p, pattern suit * 2 + tapped at 223 + 8p + pattern: bit i set = field entry i has it |

A card id is `rank_index * 4 + suit` (suits S, H, C, D = 0..3), as in `games/edelweiss/cards.py`.
Hands as per-suit rank bit sets make E14.2 ("lowest rank of the suit") a lowest-set-bit, and the
canonical hand order of E14.5 falls out of walking ranks then suits.

Entry points: `legal_mask`, `apply_action`, `advance`, `current_player`, `random_action`, `heuristic_action`,
`deal`, `play_from`, `play_batch` (all `@njit`), the Python converters `from_position` / `to_position`,
`config_codes` / `rule_codes` (an `EdelweissConfig` as kernel arguments), and `play_config` (a `play_batch`
wrapper taking an `EdelweissConfig`). Every rule option of `variants.RULE_OPTIONS` is honoured: RULES and
OPENING_HAND are set by `deal` / `from_position` and written back by `to_position`; the draw step reads
first_draw and deck_out_tie, the deal opening_hand, the defense window's legal bits the two field-guard
rules, the counter window's legal bits and PROTECT accel2_protection. A drawn game (deck_out_tie=draw)
ends with WINNER -1 and REASON deck_out.

Speed notes (each measured, see BENCHMARKS.md): the per-step functions are inlined into their
callers at numba IR level (`inline="always"`): numba passes an array argument as seven machine
words and, here, did not inline across `@njit` functions on its own. Bit counts use LLVM's
ctpop/cttz; legal actions travel as an int bit set; random numbers need no division; indices are
built from values masked to their range (`_turn_player`), which lets LLVM drop the negative-index
wraparound on array accesses.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.extending import intrinsic

from cardlab.fast.search import flush_stale_cache
from cardlab.games.edelweiss.cards import (
    CARD_NAMES,
    CHARACTER_IDS,
    CHARACTERS,
    WINDOW_BY_NAME,
    Window,
    field_entry_name,
    parse_card,
    parse_field_entry,
)
from cardlab.games.edelweiss.config import EdelweissConfig

# -- layout ------------------------------------------------------------------------------------

DECK_KIND, STANDARD, CHAR, SKILLS, TURN, TURN_PLAYER, WINDOW = 0, 1, 2, 4, 6, 7, 8
SPADE_CARD, DEFENSE, GUARD_CARD, BLOCKER, COUNTER, PURSUIT_CLUB, WINNER, REASON = 9, 10, 11, 12, 13, 14, 15, 16
DECK_LEN, DISCARD_LEN, FIELD_LEN = 17, 18, 19
HAND, REVEALED = 21, 29
DECK, DECK_CAP = 37, 52
DISCARD, DISCARD_CAP = 89, 52
FIELD, FIELD_CAP = 141, 40  # at most 39 non-diamonds exist (E2.2), so a field never overflows
RULES = FIELD + 2 * FIELD_CAP
OPENING_HAND = RULES + 1
CORE_SIZE = OPENING_HAND + 1
FIELD_INDEX = CORE_SIZE
ROW_SIZE = FIELD_INDEX + 2 * 8

DECK_KINDS = ("full", "short", "skills")
STANDARDS = (None, "symbolic", "accel2")
DECK_SIZE_OF_KIND = (52, 36, 36)  # E1.1
HAND_SIZE_OF_KIND = (4, 4, 5)  # E1.4

RULE_NO_FIRST_DRAW, RULE_ACCEL2_SYMBOLIC_GUARD, RULE_GUARD_SPADES_ONLY, RULE_TIE_DRAW = 1, 2, 4, 8
RULE_NO_PROTECTION, RULE_PROTECTION_OWES_CLUB, RULE_PROTECTION_TO_DEFENDER = 16, 32, 64
RULE_POISON_DIAMOND_ONLY, RULE_POISON_AFTER_COUNTER = 128, 256
RULE_BITS = (
    ("first_draw", "no", RULE_NO_FIRST_DRAW),
    ("accel2_guardian", "symbolic_too", RULE_ACCEL2_SYMBOLIC_GUARD),
    ("symbolic_field_guard", "spades", RULE_GUARD_SPADES_ONLY),
    ("deck_out_tie", "draw", RULE_TIE_DRAW),
    ("accel2_protection", "none", RULE_NO_PROTECTION),
    ("accel2_protection", "club_still_owed", RULE_PROTECTION_OWES_CLUB),
    ("accel2_protection", "defender", RULE_PROTECTION_TO_DEFENDER),
    ("poison_bind_trigger", "diamond_guard", RULE_POISON_DIAMOND_ONLY),
    ("poison_bind_timing", "after_counter", RULE_POISON_AFTER_COUNTER),
)
"""(rule option, its non-default value, its bit in the RULES slot); opening_hand has a slot of its own."""

POLICY_RANDOM, POLICY_HEURISTIC = 0, 1
POLICIES = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC}

W_DRAW, W_MAIN, W_SPECIAL_SUMMON, W_ATTACK, W_INTERCEPT, W_DEFENSE, W_COUNTER, W_PURSUIT, W_OVER = (
    int(w) for w in Window
)
S, H, C, D = 0, 1, 2, 3
NO_CARD = -1
DEF_NONE, DEF_GUARD, DEF_BLOCK, DEF_FIELD_GUARD = 0, 1, 2, 3
DEFENSE_NAMES = (None, "guard", "block", "field_guard")
REASON_ATTACK, REASON_DECK_OUT = 0, 1
REASON_NAMES = ("attack", "deck_out")
GUARDIAN, BUDDY_SUMMONER, WIZARD, POISON_BIND = 1, 2, 4, 8
PROTECTORS = GUARDIAN | POISON_BIND  # E8.5: Accel 2 Guardian and Poison Bind protect

# Field-entry patterns (entry & 7): suit * 2 + tapped.
UPRIGHT_SPADE, UPRIGHT_HEART, UPRIGHT_CLUB, TAPPED_HEART = 0, 2, 4, 3

# E14.1 action ids.
A_SUMMON_S, A_SUMMON_H, A_SUMMON_C, A_SPECIAL_SUMMON, A_ATTACK, A_END_TURN, A_LIONHEART = 0, 1, 2, 3, 4, 5, 6
A_GUARD_S, A_GUARD_D, A_BLOCK, A_FIELD_GUARD_S, A_NO_DEFENSE = 7, 10, 11, 12, 15
A_DISCARD_SPADE, A_DISCARD_CLUB, A_PROTECT, A_PURSUIT, A_PASS = 16, 17, 18, 19, 20
N_ACTIONS = 21

CHARACTER_SKILLS = np.array([int(CHARACTERS[char_id].skills) for char_id in CHARACTER_IDS], dtype=np.int32)
"""E9: skill bit set per character index (the order of `CHARACTER_IDS`)."""

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_BLOCK_GAMES = 64  # games per prange work item; results never depend on it or on the thread count


def new_row() -> np.ndarray:
    """An empty state row (not a legal position until filled)."""
    return np.zeros(ROW_SIZE, dtype=np.int64)


# -- small helpers -----------------------------------------------------------------------------


@intrinsic
def _ctpop(typingctx: Any, bits: Any) -> Any:
    """LLVM's population count (one instruction where the CPU has it)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


@intrinsic
def _cttz(typingctx: Any, bits: Any) -> Any:
    """LLVM's count of trailing zeros (undefined for 0: callers never pass 0)."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.int64), codegen


@njit(cache=True, inline="always")
def _popcount(bits: int) -> int:
    return _ctpop(np.int64(bits))


@njit(cache=True, inline="always")
def _lowest_bit(bits: int) -> int:
    """Index of the lowest set bit of a non-zero bit set."""
    return _cttz(np.int64(bits))


@njit(cache=True, inline="always")
def _turn_player(row: np.ndarray) -> int:
    """0 or 1. Masked so that LLVM can prove every index built from it non-negative and drop the
    negative-index wraparound numba puts on each array access (about a tenth of the kernel's time);
    lengths used as indices are masked with 63 for the same reason."""
    return row[TURN_PLAYER] & 1


@njit(cache=True, inline="always")
def _has(bits: int, action: int) -> bool:
    return (bits >> action) & 1 == 1


@njit(cache=True)
def _hand_size(row: np.ndarray, player: int) -> int:
    player &= 1  # see _turn_player
    base = HAND + 4 * player
    return _popcount(row[base]) + _popcount(row[base + 1]) + _popcount(row[base + 2]) + _popcount(row[base + 3])


@njit(cache=True)
def _take_from_hand(row: np.ndarray, player: int, suit: int) -> int:
    """E14.2: the lowest-ranked card of `suit` leaves the hand (and the revealed set)."""
    player &= 1  # see _turn_player
    slot = HAND + 4 * player + suit
    rank = _lowest_bit(row[slot])
    row[slot] &= ~(1 << rank)
    row[REVEALED + 4 * player + suit] &= ~(1 << rank)
    return rank * 4 + suit


@njit(cache=True)
def _find(row: np.ndarray, player: int, pattern: int) -> int:
    """E14.2: index of the oldest field entry with this suit/orientation pattern, or -1."""
    player &= 1  # see _turn_player
    slots = row[FIELD_INDEX + 8 * player + pattern]
    return _lowest_bit(slots) if slots != 0 else -1


@njit(cache=True)
def _index_of(row: np.ndarray, player: int, card: int) -> int:
    """Index of `card` on a field, or -1; only the slots holding its suit are looked at."""
    player &= 1  # see _turn_player
    base = FIELD + FIELD_CAP * player
    suit_slots = FIELD_INDEX + 8 * player + 2 * (card & 3)
    slots = row[suit_slots] | row[suit_slots + 1]
    while slots != 0:
        index = _lowest_bit(slots)
        if row[base + index] >> 1 == card:
            return index
        slots &= slots - 1
    return -1


@njit(cache=True)
def _set_tapped(row: np.ndarray, player: int, index: int, tapped: int) -> int:
    player &= 1  # see _turn_player
    slot = FIELD + FIELD_CAP * player + index
    old = row[slot]
    new = (old & ~1) | tapped
    row[slot] = new
    bit = np.int64(1) << index
    row[FIELD_INDEX + 8 * player + (old & 7)] &= ~bit
    row[FIELD_INDEX + 8 * player + (new & 7)] |= bit
    return new >> 1


@njit(cache=True)
def _field_append(row: np.ndarray, player: int, card: int, tapped: int) -> None:
    player &= 1  # see _turn_player
    length = row[FIELD_LEN + player] & 63
    entry = card * 2 + tapped
    row[FIELD + FIELD_CAP * player + length] = entry
    row[FIELD_LEN + player] = length + 1
    row[FIELD_INDEX + 8 * player + (entry & 7)] |= np.int64(1) << length


@njit(cache=True)
def _discard_push(row: np.ndarray, card: int) -> None:
    row[DISCARD + (row[DISCARD_LEN] & 63)] = card
    row[DISCARD_LEN] += 1


@njit(cache=True)
def _discard_from_field(row: np.ndarray, player: int, index: int) -> int:
    """Remove field entry `index` (later entries move up, keeping arrival order) onto the discard pile."""
    player &= 1  # see _turn_player
    base = FIELD + FIELD_CAP * player
    length = row[FIELD_LEN + player] & 63
    card = row[base + index] >> 1
    for i in range(index, length - 1):
        row[base + i] = row[base + i + 1]
    row[FIELD_LEN + player] = length - 1
    below = (np.int64(1) << index) - 1
    for pattern in range(6):  # close the gap in every pattern's slot set
        slots = row[FIELD_INDEX + 8 * player + pattern]
        row[FIELD_INDEX + 8 * player + pattern] = (slots & below) | ((slots >> (index + 1)) << index)
    _discard_push(row, card)
    return card


@njit(cache=True)
def _count(row: np.ndarray, player: int, suit: int) -> int:
    """Cards of `suit` on a field regardless of orientation (E11 counts them so)."""
    player &= 1  # see _turn_player
    index = FIELD_INDEX + 8 * player + 2 * suit
    return _popcount(row[index] | row[index + 1])


@njit(cache=True)
def _clear_attack(row: np.ndarray) -> None:
    row[SPADE_CARD] = NO_CARD
    row[DEFENSE] = DEF_NONE
    row[GUARD_CARD] = NO_CARD
    row[BLOCKER] = NO_CARD
    row[COUNTER] = 0
    row[PURSUIT_CLUB] = NO_CARD


@njit(cache=True)
def _finish(row: np.ndarray, winner: int, reason: int) -> None:
    row[WINNER] = winner
    row[REASON] = reason
    row[WINDOW] = W_OVER
    _clear_attack(row)


# -- automatic steps ---------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _draw_step(row: np.ndarray) -> None:
    """E3.2: deck-out check (E6.2, a tie goes to P2), draw the top card, untap the turn player's field.

    Rule options: deck_out_tie=draw makes a tie a draw (WINNER -1); first_draw=no skips turn 1's draw
    and untap, going straight to the main step."""
    tp = _turn_player(row)
    if row[DECK_LEN] == 0:
        p1, p2 = _hand_size(row, 0), _hand_size(row, 1)
        tie_draw = p1 == p2 and (row[RULES] & RULE_TIE_DRAW) != 0
        _finish(row, -1 if tie_draw else (0 if p1 > p2 else 1), REASON_DECK_OUT)
        return
    if row[TURN] == 1 and (row[RULES] & RULE_NO_FIRST_DRAW) != 0:
        row[WINDOW] = W_MAIN
        return
    row[DECK_LEN] -= 1
    card = row[DECK + (row[DECK_LEN] & 63)]
    row[HAND + 4 * tp + (card & 3)] |= 1 << (card >> 2)
    base = FIELD + FIELD_CAP * tp
    for suit in range(3):  # untap: only the tapped entries are visited
        upright = FIELD_INDEX + 8 * tp + 2 * suit
        tapped = row[upright + 1]
        row[upright] |= tapped
        row[upright + 1] = 0
        while tapped != 0:
            row[base + _lowest_bit(tapped)] &= ~1
            tapped &= tapped - 1
    row[WINDOW] = W_MAIN


@njit(cache=True)
def _after_defense(row: np.ndarray, counter: int) -> None:
    """E8.4: Poison Bind resolves after a counter is caused, before the counter phase (rule
    poison_bind_timing=after_counter: once the counter is paid, `_counter_paid`)."""
    row[COUNTER] = counter
    if not counter:
        row[WINDOW] = W_PURSUIT
        return
    if (row[RULES] & RULE_POISON_AFTER_COUNTER) == 0:
        _poison_bind(row)
    row[WINDOW] = W_COUNTER


@njit(cache=True, inline="always")
def _poison_bind(row: np.ndarray) -> None:
    """E8.4: the defender's Poison Bind taps the attacker's oldest upright club (rule
    poison_bind_trigger=diamond_guard: not after a field guard)."""
    tp = _turn_player(row)
    if (row[SKILLS + (tp ^ 1)] & POISON_BIND) == 0:
        return
    if row[DEFENSE] == DEF_FIELD_GUARD and (row[RULES] & RULE_POISON_DIAMOND_ONLY) != 0:
        return
    index = _find(row, tp, UPRIGHT_CLUB)
    if index >= 0:
        _set_tapped(row, tp, index, 1)


@njit(cache=True, inline="always")
def _counter_paid(row: np.ndarray) -> None:
    """The counter phase is over: Poison Bind now under rule poison_bind_timing=after_counter (E8.4)."""
    if (row[RULES] & RULE_POISON_AFTER_COUNTER) != 0:
        _poison_bind(row)
    row[WINDOW] = W_PURSUIT


@njit(cache=True)
def _break_phase(row: np.ndarray) -> None:
    """E5.6: block + pursuit discards the pursuit club, then the blocking heart."""
    if row[DEFENSE] == DEF_BLOCK and row[PURSUIT_CLUB] != NO_CARD:
        tp = _turn_player(row)
        _discard_from_field(row, tp, _index_of(row, tp, row[PURSUIT_CLUB]))
        _discard_from_field(row, tp ^ 1, _index_of(row, tp ^ 1, row[BLOCKER]))
    _clear_attack(row)
    row[WINDOW] = W_ATTACK


# -- actions -----------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _do(row: np.ndarray, action: int) -> None:
    """Apply one legal E14.1 action and move to the next window (no advancing), as the reference `_do`."""
    tp = _turn_player(row)
    defender = tp ^ 1
    accel2 = row[STANDARD] == 2
    if action <= A_SUMMON_C:  # E4.1/E4.2 (+ E8.3 Wizard, E8.2 trigger); the action id is the suit
        suit = action
        card = _take_from_hand(row, tp, suit)
        tapped = 1 if suit == S or (suit == C and (row[SKILLS + tp] & WIZARD) == 0) else 0
        _field_append(row, tp, card, tapped)
        buddy = suit != H and (row[SKILLS + tp] & BUDDY_SUMMONER) != 0
        row[WINDOW] = W_SPECIAL_SUMMON if buddy and row[HAND + 4 * tp + H] != 0 else W_ATTACK
    elif action == A_SPECIAL_SUMMON:  # E8.2: tapped under Symbolic, upright under Accel 2
        card = _take_from_hand(row, tp, H)
        _field_append(row, tp, card, 0 if accel2 else 1)
        row[WINDOW] = W_ATTACK
    elif action == A_ATTACK:  # E5.1 a: the oldest upright spade
        _clear_attack(row)
        row[SPADE_CARD] = _set_tapped(row, tp, _find(row, tp, UPRIGHT_SPADE), 1)
        row[WINDOW] = W_INTERCEPT
    elif action == A_END_TURN:  # E5.1 b
        row[TURN] += 1
        row[TURN_PLAYER] = defender
        row[WINDOW] = W_DRAW
    elif action == A_LIONHEART:  # E5.2
        _set_tapped(row, defender, _find(row, defender, UPRIGHT_CLUB), 1)
        _set_tapped(row, defender, _find(row, defender, TAPPED_HEART), 0)
        row[WINDOW] = W_DEFENSE
    elif action <= A_GUARD_D:  # E5.3 a: a diamond causes a counter
        suit = action - A_GUARD_S
        card = _take_from_hand(row, defender, suit)
        _discard_push(row, card)
        row[GUARD_CARD] = card
        row[DEFENSE] = DEF_GUARD
        _after_defense(row, 1 if suit == D else 0)
    elif action == A_BLOCK:  # E5.3 b
        row[BLOCKER] = _set_tapped(row, defender, _find(row, defender, UPRIGHT_HEART), 1)
        row[DEFENSE] = DEF_BLOCK
        _after_defense(row, 0)
    elif action < A_NO_DEFENSE:  # E5.3 c / E8.1 field guard: a tapped field card, counter
        suit = action - A_FIELD_GUARD_S
        row[GUARD_CARD] = _discard_from_field(row, defender, _find(row, defender, suit * 2 + 1))
        row[DEFENSE] = DEF_FIELD_GUARD
        _after_defense(row, 1)
    elif action == A_NO_DEFENSE:  # E5.3 d / E6.1
        _finish(row, tp, REASON_ATTACK)
    elif action == A_DISCARD_SPADE:  # E5.4 a
        _discard_from_field(row, tp, _index_of(row, tp, row[SPADE_CARD]))
        _counter_paid(row)
    elif action == A_DISCARD_CLUB:  # E5.4 b
        _discard_from_field(row, tp, _find(row, tp, UPRIGHT_CLUB))
        _counter_paid(row)
    elif action == A_PROTECT:  # E8.5 (rule accel2_protection=club_still_owed: another club is still paid)
        _set_tapped(row, tp, _find(row, tp, UPRIGHT_CLUB), 1)
        if (row[RULES] & RULE_PROTECTION_OWES_CLUB) != 0:
            owed = _find(row, tp, UPRIGHT_CLUB)
            if owed >= 0:
                _discard_from_field(row, tp, owed)
        _counter_paid(row)
    elif action == A_PURSUIT:  # E5.5, then the break phase
        row[PURSUIT_CLUB] = _set_tapped(row, tp, _find(row, tp, UPRIGHT_CLUB), 1)
        _set_tapped(row, tp, _index_of(row, tp, row[SPADE_CARD]), 0)
        _break_phase(row)
    else:  # A_PASS at the intercept, pursuit or special summon window
        window = row[WINDOW]
        if window == W_INTERCEPT:
            row[WINDOW] = W_DEFENSE
        elif window == W_PURSUIT:
            _break_phase(row)
        else:
            row[WINDOW] = W_ATTACK


# -- legal actions and advancing ---------------------------------------------------------------


@njit(cache=True, inline="always")
def _legal_bits(row: np.ndarray) -> int:
    """The legal actions at a resting window as a bit set (bit a = action a), E10, E14.1.

    Pure: the automatic steps (draw, Diamond Dust) are `advance`'s job, so at "draw", or at "main"
    with no non-diamond in hand, this reports no action. A bit set keeps the hot loop free of
    array writes and scans.
    """
    window = row[WINDOW]
    tp = _turn_player(row)
    defender = tp ^ 1
    if window == W_MAIN:  # E4.1
        bits = 0
        for suit in range(3):
            if row[HAND + 4 * tp + suit] != 0:
                bits |= 1 << suit
        return bits
    if window == W_ATTACK:  # E5.1: END_TURN is always legal
        if _find(row, tp, UPRIGHT_SPADE) >= 0:
            return (1 << A_END_TURN) | (1 << A_ATTACK)
        return 1 << A_END_TURN
    if window == W_DEFENSE:  # E5.3, E8.1
        bits = 1 << A_NO_DEFENSE
        empty_hand = True
        for suit in range(4):
            if row[HAND + 4 * defender + suit] != 0:
                bits |= 1 << (A_GUARD_S + suit)
                empty_hand = False
        if _find(row, defender, UPRIGHT_HEART) >= 0:
            bits |= 1 << A_BLOCK
        if row[SKILLS + defender] & GUARDIAN:
            rules = row[RULES]
            # Symbolic: empty hand, any tapped card (rule symbolic_field_guard=spades: tapped spades only).
            symbolic = 0
            if empty_hand:
                symbolic = 1 if (rules & RULE_GUARD_SPADES_ONLY) != 0 else 7
            suits = symbolic
            if row[STANDARD] == 2:  # Accel 2: tapped spades, any hand size (+ Symbolic's by rule accel2_guardian)
                suits = 1 | (symbolic if (rules & RULE_ACCEL2_SYMBOLIC_GUARD) != 0 else 0)
            index = FIELD_INDEX + 8 * defender + 1  # the tapped patterns: suit * 2 + 1
            tapped = (row[index] != 0) * 1 | (row[index + 2] != 0) * 2 | (row[index + 4] != 0) * 4
            bits |= (tapped & suits) << A_FIELD_GUARD_S  # suits: bit s = a tapped s may be field-guarded
        return bits
    if window == W_INTERCEPT:  # E5.2 ruling: Lionheart needs a tapped heart
        if _find(row, defender, UPRIGHT_CLUB) >= 0 and _find(row, defender, TAPPED_HEART) >= 0:
            return (1 << A_PASS) | (1 << A_LIONHEART)
        return 1 << A_PASS
    if window == W_COUNTER:  # E5.4, E8.5
        if _find(row, tp, UPRIGHT_CLUB) < 0:
            return 1 << A_DISCARD_SPADE
        bits = (1 << A_DISCARD_SPADE) | (1 << A_DISCARD_CLUB)
        rules = row[RULES]
        if row[STANDARD] == 2 and (rules & RULE_NO_PROTECTION) == 0:  # rule accel2_protection
            holder = defender if (rules & RULE_PROTECTION_TO_DEFENDER) != 0 else tp
            if (row[SKILLS + holder] & PROTECTORS) != 0:
                bits |= 1 << A_PROTECT
        return bits
    if window == W_PURSUIT:  # E5.5
        if _find(row, tp, UPRIGHT_CLUB) >= 0 and _index_of(row, tp, row[SPADE_CARD]) >= 0:
            return (1 << A_PASS) | (1 << A_PURSUIT)
        return 1 << A_PASS
    if window == W_SPECIAL_SUMMON:  # E8.2
        if row[HAND + 4 * tp + H] != 0 and (row[SKILLS + tp] & BUDDY_SUMMONER) != 0:
            return (1 << A_PASS) | (1 << A_SPECIAL_SUMMON)
        return 1 << A_PASS
    return 0  # draw (not resting) and over


@njit(cache=True, inline="always")
def _advance_bits(row: np.ndarray) -> int:
    """Run automatic steps and single-option windows (E14.3) until a real choice or the end.

    Returns the legal actions at the resting point as a bit set (0 when over).
    """
    while True:
        window = row[WINDOW]
        tp = _turn_player(row)
        if window == W_DRAW:
            _draw_step(row)
            continue
        if window == W_MAIN:
            base = HAND + 4 * tp
            if row[base + S] == 0 and row[base + H] == 0 and row[base + C] == 0:
                # E4.3 Diamond Dust reveals the all-diamond hand; E4.4 an empty hand does nothing.
                row[REVEALED + 4 * tp + D] |= row[base + D]
                row[WINDOW] = W_ATTACK
                continue
        bits = _legal_bits(row)
        if bits == 0 or bits & (bits - 1) != 0:  # none (over) or a real choice
            return bits
        _do(row, _lowest_bit(bits))


@njit(cache=True)
def legal_mask(row: np.ndarray) -> np.ndarray:
    """bool[21] of the legal E14.1 actions at a resting decision point (all False once over)."""
    bits = _legal_bits(row)
    mask = np.zeros(N_ACTIONS, dtype=np.bool_)
    for action in range(N_ACTIONS):
        mask[action] = _has(bits, action)
    return mask


@njit(cache=True)
def advance(row: np.ndarray) -> int:
    """Bring a freshly filled row (e.g. a loaded position) to its resting point; returns the legal count."""
    return _popcount(_advance_bits(row))


@njit(cache=True)
def apply_action(row: np.ndarray, action: int) -> bool:
    """Apply a legal action and advance to the next real choice, like the reference `apply`.

    An illegal action returns False and leaves the row untouched.
    """
    if action < 0 or action >= N_ACTIONS:
        return False
    bits = _legal_bits(row)
    if bits & (bits - 1) == 0 or not _has(bits, action):  # no real choice here, or not among them
        return False
    _do(row, action)
    _advance_bits(row)
    return True


@njit(cache=True)
def current_player(row: np.ndarray) -> int:
    """The player to choose now: the defender at intercept/defense, else the turn player; -1 once over."""
    window = row[WINDOW]
    if window == W_OVER:
        return -1
    if window in (W_INTERCEPT, W_DEFENSE):
        return _turn_player(row) ^ 1
    return _turn_player(row)


# -- policies ----------------------------------------------------------------------------------


@njit(cache=True)
def _summon_choice(row: np.ndarray) -> int:
    """E11 (heuristic.summon_choice): defend with a heart, support with a club, else a spade."""
    me = _turn_player(row)
    them = me ^ 1
    opp_s, opp_c, opp_h = _count(row, them, S), _count(row, them, C), _count(row, them, H)
    my_s, my_h = _count(row, me, S), _count(row, me, H)
    hand = HAND + 4 * me
    if opp_s >= 1 and opp_s + opp_c >= my_h:
        first, second, third = H, S, C  # E11.2 defend
    elif (my_h >= opp_s + opp_c + 1 and opp_h <= 1) or (my_s >= 1 and row[hand + S] == 0):
        first, second, third = C, S, H  # E11.3 support
    else:
        first, second, third = S, H, C  # E11.4 default
    if row[hand + first] != 0:  # E11.5 fallback order
        return first
    if row[hand + second] != 0:
        return second
    return third


@njit(cache=True)
def _heuristic_choice(row: np.ndarray, bits: int) -> int:
    """The action `heuristic.choose` picks at this resting window (`bits` = the legal actions)."""
    window = row[WINDOW]
    me = _turn_player(row)
    if window == W_MAIN:
        return _summon_choice(row)
    if window == W_SPECIAL_SUMMON:
        return A_SPECIAL_SUMMON if row[STANDARD] == 2 or _hand_size(row, me) > 2 else A_PASS
    if window == W_ATTACK:
        return A_ATTACK
    if window == W_INTERCEPT:
        return A_LIONHEART if _find(row, me ^ 1, UPRIGHT_HEART) < 0 else A_PASS
    if window == W_DEFENSE:
        attacker_clubs = _find(row, me, UPRIGHT_CLUB) >= 0
        if _has(bits, A_BLOCK) and (not attacker_clubs or not _has(bits, A_GUARD_D)):
            return A_BLOCK
        if _has(bits, A_GUARD_D):
            return A_GUARD_D
        for suit in range(3):
            if _has(bits, A_FIELD_GUARD_S + suit):
                return A_FIELD_GUARD_S + suit
        if _has(bits, A_BLOCK):
            return A_BLOCK
        best, best_count = -1, -1
        for suit in range(4):  # the most-held suit; ties go to the lowest action id
            if _has(bits, A_GUARD_S + suit):
                held = _popcount(row[HAND + 4 * (me ^ 1) + suit])
                if held > best_count:
                    best, best_count = A_GUARD_S + suit, held
        return best if best >= 0 else A_NO_DEFENSE
    if window == W_COUNTER:
        owes = (row[RULES] & RULE_PROTECTION_OWES_CLUB) != 0  # then two clubs make a plain club payment cheaper
        if _has(bits, A_PROTECT) and not (owes and _popcount(row[FIELD_INDEX + 8 * me + UPRIGHT_CLUB]) > 1):
            return A_PROTECT
        return A_DISCARD_CLUB if _count(row, me, C) >= _count(row, me, S) else A_DISCARD_SPADE
    return A_PURSUIT  # W_PURSUIT


@njit(cache=True)
def heuristic_action(row: np.ndarray) -> int:
    """`heuristic.choose` compiled: the same action at every resting decision point."""
    return _heuristic_choice(row, _legal_bits(row))


@njit(cache=True, inline="always")
def _next_u64(rng: np.ndarray) -> np.uint64:
    """splitmix64: small, fast, and good enough for shuffles and uniform choices."""
    rng[0] += _GOLDEN
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _below(rng: np.ndarray, n: int) -> np.int64:
    """Uniform in [0, n): the high 32 bits scaled by n, no division (the bias is below n / 2**32)."""
    return np.int64(((_next_u64(rng) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def _random_bit(bits: int, rng: np.ndarray) -> int:
    """A uniformly random action of a bit set: the pick-th lowest set bit."""
    pick = _below(rng, _popcount(bits))
    for _ in range(pick):
        bits &= bits - 1
    return _lowest_bit(bits)


@njit(cache=True)
def random_action(row: np.ndarray, rng: np.ndarray) -> int:
    """A uniformly random legal action; `rng` is a uint64[1] splitmix64 state (see `game_rng`)."""
    return _random_bit(_legal_bits(row), rng)


@njit(cache=True, inline="always")
def _mix(value: np.uint64) -> np.uint64:
    z = value
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def game_rng(seed: int, game: int) -> np.ndarray:
    """The RNG stream of game `game` of a batch: a function of (seed, game) only, never of threads."""
    rng = np.empty(1, dtype=np.uint64)
    _seed_rng(rng, seed, game)
    return rng


@njit(cache=True, inline="always")
def _seed_rng(rng: np.ndarray, seed: int, game: int) -> None:
    rng[0] = _mix(_mix(np.uint64(seed) + _GOLDEN) ^ (np.uint64(game) * _MIX2 + _GOLDEN))


# -- whole games -------------------------------------------------------------------------------


@njit(cache=True)
def deal(
    row: np.ndarray,
    deck_kind: int,
    standard: int,
    characters: np.ndarray,
    rng: np.ndarray,
    rules: int = 0,
    opening_hand: int = 0,
) -> int:
    """Set up a new game (E1, E7.1) with the kernel's own RNG and advance to the first choice.

    `characters` is int[2] of character indices; -1 (skills deck) picks P1's then P2's at random,
    before the shuffle, as the reference does. `rules` and `opening_hand` are the RULES and
    OPENING_HAND slots (`rule_codes`). Returns the legal count at the first resting point.
    """
    row[:] = 0
    row[DECK_KIND] = deck_kind
    row[STANDARD] = standard
    row[RULES] = rules
    row[OPENING_HAND] = opening_hand
    for p in range(2):
        char = characters[p]
        if deck_kind == 2 and char < 0:
            char = _below(rng, CHARACTER_SKILLS.shape[0])
        if deck_kind != 2:
            char = -1
        row[CHAR + p] = char
        row[SKILLS + p] = CHARACTER_SKILLS[char] if char >= 0 else 0
    row[TURN] = 1
    row[WINDOW] = W_DRAW
    row[WINNER] = -1
    row[REASON] = -1
    _clear_attack(row)
    size = DECK_SIZE_OF_KIND[deck_kind]
    hand = opening_hand if opening_hand > 0 else HAND_SIZE_OF_KIND[deck_kind]  # E1.4 (rule opening_hand)
    # The shuffle runs in place in the deck slots (bottom first); the hands come off the top.
    for i in range(size):
        row[DECK + i] = i
    state = rng[0]  # the stream, held in a register: two 32-bit draws from each 64-bit output
    draw = np.uint64(0)
    for i in range(size - 1, 0, -1):  # Fisher-Yates
        if i & 1:
            state += _GOLDEN
            draw = _mix(state)
            high = draw >> np.uint64(32)
        else:
            high = draw & np.uint64(0xFFFFFFFF)
        j = np.int64((high * np.uint64(i + 1)) >> np.uint64(32))
        row[DECK + i], row[DECK + j] = row[DECK + j], row[DECK + i]
    rng[0] = state
    rest = size - 2 * hand
    for i in range(2 * hand):  # E1.4: P1's whole hand first, then P2's
        top = DECK + size - 1 - i
        card = row[top]
        row[top] = 0
        row[HAND + (0 if i < hand else 4) + (card & 3)] |= 1 << (card >> 2)
    row[DECK_LEN] = rest
    return _popcount(_advance_bits(row))


@njit(cache=True)
def _play_one(row: np.ndarray, policy_p1: int, policy_p2: int, rng: np.ndarray) -> int:
    """Play from a resting row to the end; returns the number of decisions taken."""
    bits = _legal_bits(row)
    decisions = 0
    while row[WINDOW] != W_OVER:
        window = row[WINDOW]
        actor = _turn_player(row) ^ 1 if window in (W_INTERCEPT, W_DEFENSE) else _turn_player(row)
        if (policy_p1 if actor == 0 else policy_p2) == POLICY_HEURISTIC:
            action = _heuristic_choice(row, bits)
        else:
            action = _random_bit(bits, rng)
        _do(row, action)
        decisions += 1
        bits = _advance_bits(row)
    return decisions


@njit(cache=True)
def play_from(row: np.ndarray, policy_p1: int, policy_p2: int, rng: np.ndarray) -> int:
    """Play a resting row (e.g. `from_position` of a reference deal) to the end; returns the decisions taken."""
    return _play_one(row, policy_p1, policy_p2, rng)


@njit(cache=True, parallel=True)
def play_batch(
    deck_kind: int,
    standard: int,
    characters: np.ndarray,
    policy_p1: int,
    policy_p2: int,
    n_games: int,
    seed: int,
    rules: int = 0,
    opening_hand: int = 0,
    first: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Play `n_games` games in parallel; game i uses `game_rng(seed, first + i)` for its deal and random
    moves (a long run played in pieces, `first` = the games played before, holds the games of one call).

    `deck_kind` 0/1/2 (full/short/skills), `standard` 0/1/2 (none/symbolic/accel2), `characters`
    int[2] (-1: random per game), policies 0 random / 1 heuristic, `rules` / `opening_hand` the rule
    options (`rule_codes`). Returns per game: winner (0 P1, 1 P2, -1 a draw: rule deck_out_tie),
    reason (0 attack, 1 deck_out), the final turn number and the number of decisions.
    """
    winner = np.empty(n_games, dtype=np.int8)
    reason = np.empty(n_games, dtype=np.int8)
    turns = np.empty(n_games, dtype=np.int16)
    decisions = np.empty(n_games, dtype=np.int32)
    n_blocks = (n_games + _BLOCK_GAMES - 1) // _BLOCK_GAMES
    for block in prange(n_blocks):
        row = np.zeros(ROW_SIZE, dtype=np.int64)
        rng = np.empty(1, dtype=np.uint64)
        for game in range(block * _BLOCK_GAMES, min(n_games, (block + 1) * _BLOCK_GAMES)):
            _seed_rng(rng, seed, first + game)
            deal(row, deck_kind, standard, characters, rng, rules, opening_hand)
            decisions[game] = _play_one(row, policy_p1, policy_p2, rng)
            winner[game] = row[WINNER]
            reason[game] = row[REASON]
            turns[game] = row[TURN]
    return winner, reason, turns, decisions


def config_codes(config: EdelweissConfig) -> tuple[int, int, np.ndarray]:
    """(deck_kind, standard, characters int[2]) of a config; characters None in a skills game -> -1, -1."""
    deck_kind = DECK_KINDS.index(config.deck)
    standard = STANDARDS.index(config.standard)
    chars = config.characters
    characters = np.array([-1, -1] if chars is None else [CHARACTER_IDS.index(c) for c in chars], dtype=np.int64)
    return deck_kind, standard, characters


def rule_codes(config: EdelweissConfig) -> tuple[int, int]:
    """(RULES bit set, OPENING_HAND) of a config's rule options; (0, 0) at the defaults."""
    bits = sum(bit for name, value, bit in RULE_BITS if config.rule(name) == value)
    hand = config.rule("opening_hand")
    return bits, 0 if hand == "standard" else int(hand)


def rules_of(rules: int, opening_hand: int) -> dict[str, str]:
    """The config `rules` (non-default values only) of a row's RULES and OPENING_HAND slots."""
    out = {name: value for name, value, bit in RULE_BITS if rules & bit}
    if opening_hand:
        out["opening_hand"] = str(opening_hand)
    return out


def play_config(
    config: EdelweissConfig, policy_p1: str, policy_p2: str, n_games: int, seed: int, first: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`play_batch` for an `EdelweissConfig` (its rule options included) and policy names ("random", "heuristic")."""
    deck_kind, standard, characters = config_codes(config)
    rules, opening_hand = rule_codes(config)
    policies = POLICIES[policy_p1], POLICIES[policy_p2]
    return play_batch(deck_kind, standard, characters, *policies, n_games, seed, rules, opening_hand, first)


# -- E14.5 position converters -----------------------------------------------------------------


def _card_or_none(card: int) -> str | None:
    return None if card == NO_CARD else CARD_NAMES[card]


def _parse_optional(text: str | None) -> int:
    return NO_CARD if text is None else parse_card(text)


def from_position(position: Mapping[str, Any], *, validate: bool = True) -> np.ndarray:
    """A kernel row for an E14.5 position, advanced like the reference loader (automatic steps run).

    With `validate` the reference loader checks the position first and raises its PositionError,
    so the kernel never has to handle a malformed one.
    """
    if validate:
        from cardlab.games.edelweiss.position import load_position

        load_position(position)
    config = EdelweissConfig.from_json(position["config"])
    deck_kind, standard, characters = config_codes(config)
    row = new_row()
    row[DECK_KIND] = deck_kind
    row[STANDARD] = standard
    row[RULES], row[OPENING_HAND] = rule_codes(config)
    for p in range(2):
        row[CHAR + p] = characters[p] if config.skills else -1
        row[SKILLS + p] = CHARACTER_SKILLS[characters[p]] if config.skills else 0
    row[TURN] = position["turn"]
    row[TURN_PLAYER] = ("P1", "P2").index(position["turn_player"])
    row[WINDOW] = int(WINDOW_BY_NAME[position["window"]])
    deck = [parse_card(text) for text in reversed(position["deck"])]  # bottom first: top card last
    row[DECK_LEN] = len(deck)
    row[DECK : DECK + len(deck)] = deck
    discard = [parse_card(text) for text in position["discard"]]
    row[DISCARD_LEN] = len(discard)
    row[DISCARD : DISCARD + len(discard)] = discard
    for p, name in enumerate(("P1", "P2")):
        seat = position["players"][name]
        for card in map(parse_card, seat["hand"]):
            row[HAND + 4 * p + (card & 3)] |= 1 << (card >> 2)
        field = [parse_field_entry(text) for text in seat["field"]]
        row[FIELD_LEN + p] = len(field)
        row[FIELD + FIELD_CAP * p : FIELD + FIELD_CAP * p + len(field)] = field
        for index, entry in enumerate(field):
            row[FIELD_INDEX + 8 * p + (entry & 7)] |= 1 << index
        for card in map(parse_card, (position.get("revealed") or {}).get(name, [])):
            row[REVEALED + 4 * p + (card & 3)] |= 1 << (card >> 2)
    attack = position.get("attack")
    row[SPADE_CARD : PURSUIT_CLUB + 1] = (NO_CARD, DEF_NONE, NO_CARD, NO_CARD, 0, NO_CARD)
    if attack is not None and row[WINDOW] in (W_INTERCEPT, W_DEFENSE, W_COUNTER, W_PURSUIT):
        row[SPADE_CARD] = _parse_optional(attack.get("spade"))
        row[DEFENSE] = DEFENSE_NAMES.index(attack.get("defense"))
        row[GUARD_CARD] = _parse_optional(attack.get("guard_card"))
        row[BLOCKER] = _parse_optional(attack.get("blocker"))
        row[COUNTER] = bool(attack.get("counter", False))
        row[PURSUIT_CLUB] = _parse_optional(attack.get("pursuit_club"))
    winner, reason = position.get("winner"), position.get("win_reason")  # over without a winner: a drawn deck-out
    row[WINNER] = -1 if winner is None else ("P1", "P2").index(winner)
    row[REASON] = -1 if reason is None or row[WINDOW] != W_OVER else REASON_NAMES.index(reason)
    if row[WINDOW] != W_OVER:
        advance(row)
    return row


def _cards_of(row: np.ndarray, base: int) -> list[str]:
    """The cards of a per-suit rank bit set, in canonical order (rank, then suit S, H, C, D: E14.5)."""
    return [CARD_NAMES[rank * 4 + suit] for rank in range(13) for suit in range(4) if (row[base + suit] >> rank) & 1]


def to_position(row: np.ndarray, config: EdelweissConfig | None = None) -> dict[str, Any]:
    """The E14.5 position of a row, equal to the reference `state.position()` (incl. `revealed`).

    `config` defaults to the one the row encodes (a skills game names its dealt characters).
    """
    if config is None or (config.skills and config.characters is None):
        chars = None if row[DECK_KIND] != 2 else (CHARACTER_IDS[row[CHAR]], CHARACTER_IDS[row[CHAR + 1]])
        rules = rules_of(int(row[RULES]), int(row[OPENING_HAND]))
        config = EdelweissConfig(DECK_KINDS[row[DECK_KIND]], STANDARDS[row[STANDARD]], chars, tuple(rules.items()))
    window = int(row[WINDOW])
    data: dict[str, Any] = {
        "game": "edelweiss",
        "config": config.to_json(),
        "turn": int(row[TURN]),
        "turn_player": ("P1", "P2")[row[TURN_PLAYER]],
        "window": str(Window(window)),
        "deck": [CARD_NAMES[row[DECK + i]] for i in range(row[DECK_LEN] - 1, -1, -1)],
        "discard": [CARD_NAMES[row[DISCARD + i]] for i in range(row[DISCARD_LEN])],
        "players": {
            name: {
                "hand": _cards_of(row, HAND + 4 * p),
                "field": [field_entry_name(int(row[FIELD + FIELD_CAP * p + i])) for i in range(row[FIELD_LEN + p])],
            }
            for p, name in enumerate(("P1", "P2"))
        },
    }
    if window in (W_INTERCEPT, W_DEFENSE, W_COUNTER, W_PURSUIT):
        data["attack"] = {
            "spade": CARD_NAMES[row[SPADE_CARD]],
            "defense": DEFENSE_NAMES[row[DEFENSE]],
            "guard_card": _card_or_none(row[GUARD_CARD]),
            "blocker": _card_or_none(row[BLOCKER]),
            "counter": bool(row[COUNTER]),
            "pursuit_club": _card_or_none(row[PURSUIT_CLUB]),
        }
    else:
        data["attack"] = None
    data["winner"] = None if row[WINNER] < 0 else ("P1", "P2")[row[WINNER]]
    if window == W_OVER:  # a drawn deck-out (rule deck_out_tie) is over without a winner
        data["win_reason"] = REASON_NAMES[row[REASON]]
    if any(row[REVEALED : REVEALED + 8]):
        data["revealed"] = {name: _cards_of(row, REVEALED + 4 * p) for p, name in enumerate(("P1", "P2"))}
    return data


def legal_ids(row: np.ndarray) -> list[int]:
    """The legal action ids at a resting row, sorted (convenience for tests and tools)."""
    return [int(action) for action in np.flatnonzero(legal_mask(row))]


def rollout(state: Any, policy: str, seed: int) -> tuple[float, float]:
    """Finish a reference state's game in the kernel (ISMCTS `rollout=fast`); returns its returns.

    The state is converted through its position JSON without re-validation (it is already a
    valid state); the kernel then plays both seats with `policy` from the RNG stream (seed, 0).
    A draw (rule deck_out_tie) returns (0, 0), as `State.returns`.
    """
    row = from_position(state.position(), validate=False)
    play_from(row, POLICIES[policy], POLICIES[policy], game_rng(seed, 0))
    winner = row[WINNER]
    return (0.0, 0.0) if winner < 0 else (1.0, -1.0) if winner == 0 else (-1.0, 1.0)


flush_stale_cache(sys.modules[__name__])  # it compiles in the card tables of `cards`
