"""A JAX kernel for Edelweiss: the numba kernel's game as pure, batched array functions (CPU or GPU).

`cardlab.games.edelweiss.fast.cpu` mirrors the reference engine step for step on a flat int row; this
module plays the same game on the same layout's first `CORE_SIZE` slots (the numba row appends a
field index of its own), so `cpu.to_position` reads JAX rows too and a numba row's
`[:CORE_SIZE]` is a JAX row. Everything is a pure function of arrays, free of Python branching on
values, so it can be `jax.jit`-ed and `jax.vmap`-ed over millions of games on an accelerator.
`tests/games/edelweiss/fast/test_gpu.py` proves it equal to the numba kernel and the reference: rows,
legal masks, positions and heuristic decisions step by step, and game-level statistics.

Why a struct inside: a one-hot update of the whole 223-slot row costs 223 selects per game, so
the functions unpack the row into its parts (`State`: header scalars, 2x4 hand bit sets, deck,
discard, 2x40 fields, the rule options), update those with small masked selects, and pack it
back at the API edge.

Why one generic `_apply` instead of `lax.switch` over 21 actions: under `vmap` a switch on a
per-game index evaluates every branch, so `_apply` is written as one pipeline of masked primitive
operations (take a hand card, append to a field, two taps, two field discards, draw, Diamond
Dust) whose arguments are selected from the action. The automatic steps are the pseudo-actions
`A_DRAW_STEP` (E3.2/E6.2) and `A_DIAMOND_DUST` (E4.3), so advancing (E14.3) and playing are loops
of the same body. `play_one` runs a single `lax.while_loop` over automatic steps, forced windows
and decisions alike (a nested advance loop would, under vmap, run to the batch's slowest game
inside every outer iteration).

Entry points (row level, jit/vmap-able): `step`, `advance`, `legal_mask`, `current_player`,
`random_action`, `heuristic_action`, `deal`; games: `play_one`, `play_codes` (one configuration per
game), `play_batch` (an `EdelweissConfig` and policy names, like `cpu.play_config`), and
`benchmark` for games/s per batch size. The configuration (`config_array`) is traced, not static,
so one compilation per policy pair serves every deck, standard, character pair and rule option
(`variants.RULE_OPTIONS`: the draw step reads first_draw and deck_out_tie, the deal opening_hand,
the defense mask the two field-guard rules; a drawn game has winner -1).
Random streams come from `jax.random` and differ from the numba kernel's splitmix64: batches agree
with it in distribution, not game by game.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.typing import ArrayLike

from cardlab.games.edelweiss.config import EdelweissConfig
from cardlab.games.edelweiss.fast.cpu import (
    A_ATTACK,
    A_BLOCK,
    A_DISCARD_CLUB,
    A_DISCARD_SPADE,
    A_END_TURN,
    A_FIELD_GUARD_S,
    A_GUARD_D,
    A_GUARD_S,
    A_LIONHEART,
    A_NO_DEFENSE,
    A_PASS,
    A_PROTECT,
    A_PURSUIT,
    A_SPECIAL_SUMMON,
    A_SUMMON_C,
    BUDDY_SUMMONER,
    CHARACTER_SKILLS,
    CORE_SIZE,
    DECK,
    DECK_CAP,
    DECK_SIZE_OF_KIND,
    DEF_BLOCK,
    DEF_FIELD_GUARD,
    DEF_GUARD,
    DEF_NONE,
    DISCARD,
    DISCARD_CAP,
    FIELD,
    FIELD_CAP,
    GUARDIAN,
    HAND,
    HAND_SIZE_OF_KIND,
    N_ACTIONS,
    NO_CARD,
    OPENING_HAND,
    POISON_BIND,
    POLICIES,
    POLICY_HEURISTIC,
    POLICY_RANDOM,
    PROTECTORS,
    REASON_ATTACK,
    REASON_DECK_OUT,
    REVEALED,
    RULE_ACCEL2_SYMBOLIC_GUARD,
    RULE_GUARD_SPADES_ONLY,
    RULE_NO_FIRST_DRAW,
    RULE_NO_PROTECTION,
    RULE_POISON_AFTER_COUNTER,
    RULE_POISON_DIAMOND_ONLY,
    RULE_PROTECTION_OWES_CLUB,
    RULE_PROTECTION_TO_DEFENDER,
    RULE_TIE_DRAW,
    RULES,
    TAPPED_HEART,
    UPRIGHT_CLUB,
    UPRIGHT_HEART,
    UPRIGHT_SPADE,
    W_ATTACK,
    W_COUNTER,
    W_DEFENSE,
    W_DRAW,
    W_INTERCEPT,
    W_MAIN,
    W_OVER,
    W_PURSUIT,
    W_SPECIAL_SUMMON,
    WIZARD,
    C,
    D,
    H,
    S,
    config_codes,
    rule_codes,
)

A_DRAW_STEP, A_DIAMOND_DUST = N_ACTIONS, N_ACTIONS + 1
"""Pseudo-actions for the automatic steps, applied by the same `_apply` as real actions."""

N_CODES = 6
"""Length of a `config_array`: deck kind, standard, P1's and P2's character, RULES, OPENING_HAND."""

Array = jax.Array

GPU_BATCH_SIZES = tuple(2**e for e in range(12, 23))
"""The batch sizes a GPU session measures with `benchmark()`: 2^12 .. 2^22."""


class State(NamedTuple):
    """A row unpacked into its parts (see the `cpu` layout table); scalars are int32[]."""

    deck_kind: Array
    standard: Array
    char: Array  # int32[2]
    skills: Array  # int32[2]
    turn: Array
    tp: Array
    window: Array
    spade: Array
    defense: Array
    guard: Array
    blocker: Array
    counter: Array
    pursuit: Array
    winner: Array
    reason: Array
    deck_len: Array
    discard_len: Array
    field_len: Array  # int32[2]
    hand: Array  # int32[2, 4] rank bit sets
    revealed: Array  # int32[2, 4]
    deck: Array  # int32[52] bottom first
    discard: Array  # int32[52] oldest first
    field: Array  # int32[2, 40] entries card * 2 + tapped, arrival order
    rules: Array  # the RULES bit set (rule options)
    opening_hand: Array  # the OPENING_HAND rule (0: standard)


def unpack(row: Array) -> State:
    """The parts of a kernel row (any int array of at least `CORE_SIZE` slots; a numba row's field
    index beyond them is not read)."""
    row = jnp.asarray(row[:CORE_SIZE], dtype=jnp.int32)
    return State._make(
        [
            row[0],
            row[1],
            row[2:4],
            row[4:6],
            *(row[i] for i in range(6, 19)),
            row[19:21],
            row[HAND : HAND + 8].reshape(2, 4),
            row[REVEALED : REVEALED + 8].reshape(2, 4),
            row[DECK : DECK + DECK_CAP],
            row[DISCARD : DISCARD + DISCARD_CAP],
            row[FIELD : FIELD + 2 * FIELD_CAP].reshape(2, FIELD_CAP),
            row[RULES],
            row[OPENING_HAND],
        ]
    )


def pack(s: State) -> Array:
    """The kernel row of a `State` (inverse of `unpack`)."""
    head = jnp.stack([s.deck_kind, s.standard, *s.char, *s.skills, *s[4:17], *s.field_len])
    tail = jnp.stack([s.rules, s.opening_hand])
    return jnp.concatenate(
        [head, s.hand.reshape(8), s.revealed.reshape(8), s.deck, s.discard, s.field.reshape(2 * FIELD_CAP), tail]
    ).astype(jnp.int32)


# -- small helpers -----------------------------------------------------------------------------


def _iota(n: int) -> Array:
    return jnp.arange(n, dtype=jnp.int32)


def _of(pair: Array, p: ArrayLike) -> Array:
    """`pair[p]` for a leading axis of 2, as a select (vectorizes better than a gather)."""
    return jnp.where(p == 0, pair[0], pair[1])


def _at(p: Array, i: ArrayLike, n: int) -> Array:
    """bool[2, n], true at (p, i) only."""
    return (_iota(2) == p)[:, None] & (_iota(n) == i)[None, :]


def _i32(x: Array) -> Array:
    return jnp.asarray(x).astype(jnp.int32)


def _popcount(bits: Array) -> Array:
    return lax.population_count(bits)


def _valid(s: State) -> Array:
    """bool[2, 40]: which field slots hold a card."""
    return _iota(FIELD_CAP)[None, :] < s.field_len[:, None]


def _present(s: State) -> Array:
    """bool[2, 8]: field p holds an entry with pattern suit * 2 + tapped (E14.2 lookups)."""
    match = (s.field & 7)[:, :, None] == _iota(8)[None, None, :]
    return (match & _valid(s)[:, :, None]).any(axis=1)


def _suit_counts(s: State) -> Array:
    """int32[2, 4]: cards per suit on each field regardless of orientation (E11 counts them so)."""
    match = ((s.field >> 1) & 3)[:, :, None] == _iota(4)[None, None, :]
    return (match & _valid(s)[:, :, None]).sum(axis=1, dtype=jnp.int32)


def _find(s: State, p: Array, target: Array, by_card: ArrayLike) -> Array:
    """E14.2: index of the oldest entry of field p with this pattern (or this card), else -1."""
    entries = _of(s.field, p)
    key = jnp.where(by_card, entries >> 1, entries & 7)
    match = (key == target) & (_iota(FIELD_CAP) < _of(s.field_len, p))
    return jnp.where(match.any(), jnp.argmax(match).astype(jnp.int32), -1)


def _hand_size(s: State, p: ArrayLike) -> Array:
    return _popcount(_of(s.hand, p)).sum()


# -- primitive updates (each a no-op where `on` is false) -----------------------------------------


def _take(s: State, p: Array, suit: Array, on: Array) -> tuple[State, Array]:
    """E14.2: the lowest-ranked card of `suit` leaves hand p (and its revealed set)."""
    bits = _of(s.hand, p)[suit]
    low = bits & -bits
    at = _at(p, suit, 4) & on
    s = s._replace(hand=jnp.where(at, s.hand & ~low, s.hand), revealed=jnp.where(at, s.revealed & ~low, s.revealed))
    return s, _popcount(low - 1) * 4 + suit


def _append(s: State, p: Array, card: Array, tapped: Array, on: Array) -> State:
    at = _at(p, _of(s.field_len, p), FIELD_CAP) & on
    return s._replace(
        field=jnp.where(at, card * 2 + tapped, s.field), field_len=s.field_len + _i32((_iota(2) == p) & on)
    )


def _push(s: State, card: Array, on: Array) -> State:
    """E2.4: onto the discard pile."""
    at = (_iota(DISCARD_CAP) == s.discard_len) & on
    return s._replace(discard=jnp.where(at, card, s.discard), discard_len=s.discard_len + _i32(on))


def _tap(s: State, p: Array, index: Array, tapped: Array | int, on: Array) -> tuple[State, Array]:
    """Set the orientation of field entry `index` (skipped when -1); returns its card."""
    entry = _of(s.field, p)[jnp.maximum(index, 0)]
    at = _at(p, index, FIELD_CAP) & on & (index >= 0)
    return s._replace(field=jnp.where(at, (entry & ~1) | tapped, s.field)), entry >> 1


def _discard_from_field(s: State, p: Array, index: Array, on: Array) -> tuple[State, Array]:
    """Field entry `index` goes to the discard pile; later entries move up (arrival order kept)."""
    entry = _of(s.field, p)[jnp.maximum(index, 0)]
    length = _of(s.field_len, p)
    slot = _iota(FIELD_CAP)[None, :]
    move = (_iota(2) == p)[:, None] & (slot >= index) & (slot < length - 1) & on
    shifted = jnp.concatenate([s.field[:, 1:], s.field[:, :1]], axis=1)
    s = s._replace(field=jnp.where(move, shifted, s.field), field_len=s.field_len - _i32((_iota(2) == p) & on))
    return _push(s, entry >> 1, on), entry >> 1


# -- legal actions, the heuristic, advancing ---------------------------------------------------


def _legal(s: State) -> Array:
    """bool[21] of the legal E14.1 actions at a resting window (E10); none at draw / over."""
    w, tp = s.window, s.tp
    df = 1 - tp
    h_tp, h_df = _of(s.hand, tp), _of(s.hand, df)
    present = _present(s)
    pt, pd = _of(present, tp), _of(present, df)
    sk_tp, sk_df = _of(s.skills, tp), _of(s.skills, df)
    accel2 = s.standard == 2
    defense, counter, pursuit = w == W_DEFENSE, w == W_COUNTER, w == W_PURSUIT
    spade_on_field = (((_of(s.field, tp) >> 1) == s.spade) & _of(_valid(s), tp)).any()
    summon = (w == W_MAIN) & (h_tp[:3] != 0)  # E4.1
    special = (w == W_SPECIAL_SUMMON) & (h_tp[H] != 0) & ((sk_tp & BUDDY_SUMMONER) != 0)  # E8.2
    attack = (w == W_ATTACK) & pt[UPRIGHT_SPADE]  # E5.1
    lionheart = (w == W_INTERCEPT) & pd[UPRIGHT_CLUB] & pd[TAPPED_HEART]  # E5.2 ruling
    guard = defense & (h_df != 0)  # E5.3 a
    block = defense & pd[UPRIGHT_HEART]  # E5.3 b
    guardian = defense & ((sk_df & GUARDIAN) != 0)  # E8.1
    tapped_present = jnp.stack([pd[S * 2 + 1], pd[H * 2 + 1], pd[C * 2 + 1]])
    spade_only = jnp.array([True, False, False])
    # Symbolic: an empty hand, any tapped card (rule symbolic_field_guard=spades: tapped spades only).
    symbolic_suits = (h_df == 0).all() & (((s.rules & RULE_GUARD_SPADES_ONLY) == 0) | spade_only)
    # Accel 2: tapped spades, any hand size (rule accel2_guardian=symbolic_too: Symbolic's as well).
    accel_suits = spade_only | (symbolic_suits & ((s.rules & RULE_ACCEL2_SYMBOLIC_GUARD) != 0))
    field_guard = guardian & jnp.where(accel2, accel_suits, symbolic_suits) & tapped_present
    club = counter & pt[UPRIGHT_CLUB]
    # E8.5: the attacker's own Guardian or Poison Bind grants protection (rule accel2_protection: nobody's,
    # or the defender's).
    holder_skills = jnp.where((s.rules & RULE_PROTECTION_TO_DEFENDER) != 0, sk_df, sk_tp)
    protect = club & accel2 & ((s.rules & RULE_NO_PROTECTION) == 0) & ((holder_skills & PROTECTORS) != 0)
    parts = [
        summon,
        special[None],
        attack[None],
        (w == W_ATTACK)[None],  # END_TURN
        lionheart[None],
        guard,
        block[None],
        field_guard,
        defense[None],  # NO_DEFENSE
        counter[None],  # DISCARD_SPADE (E5.4)
        club[None],
        protect[None],
        (pursuit & pt[UPRIGHT_CLUB] & spade_on_field)[None],  # E5.5
        ((w == W_INTERCEPT) | pursuit | (w == W_SPECIAL_SUMMON))[None],  # PASS
    ]
    return jnp.concatenate(parts)


def _auto(s: State, mask: Array) -> tuple[Array, Array]:
    """E14.3: (is this an automatic point?, the action to take there): draw, Diamond Dust, one option."""
    h = _of(s.hand, s.tp)
    draw = s.window == W_DRAW
    dust = (s.window == W_MAIN) & (h[S] == 0) & (h[H] == 0) & (h[C] == 0)  # E4.3 / E4.4
    forced = mask.sum() == 1
    action = jnp.where(draw, A_DRAW_STEP, jnp.where(dust, A_DIAMOND_DUST, jnp.argmax(mask).astype(jnp.int32)))
    return (draw | dust | forced) & (s.window != W_OVER), action


def _heuristic(s: State, mask: Array) -> Array:
    """`heuristic.choose` at a resting window (`mask` = its legal actions)."""
    w, me = s.window, s.tp
    them = 1 - me
    counts = _suit_counts(s)
    mine, theirs = _of(counts, me), _of(counts, them)
    opp_s, opp_c, opp_h, my_s, my_h = theirs[S], theirs[C], theirs[H], mine[S], mine[H]
    hand = _of(s.hand, me)
    present = _present(s)
    # E11 summon choice.
    defend = (opp_s >= 1) & (opp_s + opp_c >= my_h)  # E11.2
    support = ((my_h >= opp_s + opp_c + 1) & (opp_h <= 1)) | ((my_s >= 1) & (hand[S] == 0))  # E11.3
    order = jnp.where(defend, jnp.array([H, S, C]), jnp.where(support, jnp.array([C, S, H]), jnp.array([S, H, C])))
    held = hand[order] != 0
    summon = jnp.where(held[0], order[0], jnp.where(held[1], order[1], order[2]))  # E11.5 fallback
    special = jnp.where((s.standard == 2) | (_hand_size(s, me) > 2), A_SPECIAL_SUMMON, A_PASS)
    intercept = jnp.where(_of(present, them)[UPRIGHT_HEART], A_PASS, A_LIONHEART)
    # Defense: block when cheap, a diamond counter, a field guard, a block, the most-held suit, give up.
    clubs = _of(present, me)[UPRIGHT_CLUB]
    field_guards = mask[A_FIELD_GUARD_S : A_FIELD_GUARD_S + 3]
    guards = mask[A_GUARD_S : A_GUARD_D + 1]
    held_by_suit = jnp.where(guards, _popcount(_of(s.hand, them)), -1)
    defense = jnp.where(
        mask[A_BLOCK] & (~clubs | ~mask[A_GUARD_D]),
        A_BLOCK,
        jnp.where(
            mask[A_GUARD_D],
            A_GUARD_D,
            jnp.where(
                field_guards.any(),
                A_FIELD_GUARD_S + jnp.argmax(field_guards),
                jnp.where(
                    mask[A_BLOCK],
                    A_BLOCK,
                    jnp.where(guards.any(), A_GUARD_S + jnp.argmax(held_by_suit), A_NO_DEFENSE),
                ),
            ),
        ),
    )
    # Protect unless it still costs a club (rule accel2_protection=club_still_owed) and two are upright.
    upright_clubs = (((s.field & 7) == UPRIGHT_CLUB) & _valid(s))[me].sum()
    owes = (s.rules & RULE_PROTECTION_OWES_CLUB) != 0
    protect = mask[A_PROTECT] & ~(owes & (upright_clubs > 1))
    counter = jnp.where(protect, A_PROTECT, jnp.where(mine[C] >= mine[S], A_DISCARD_CLUB, A_DISCARD_SPADE))
    choice = jnp.select(
        [w == W_MAIN, w == W_SPECIAL_SUMMON, w == W_ATTACK, w == W_INTERCEPT, w == W_DEFENSE, w == W_COUNTER],
        [summon, special, A_ATTACK, intercept, defense, counter],
        A_PURSUIT,
    )
    return choice.astype(jnp.int32)


def _random(mask: Array, key: Array) -> Array:
    """A uniformly random legal action."""
    pick = jax.random.randint(key, (), 0, jnp.maximum(mask.sum(), 1))
    return jnp.argmax(mask & (jnp.cumsum(mask) == pick + 1)).astype(jnp.int32)


# -- applying an action ------------------------------------------------------------------------


def _apply(s: State, action: Array) -> State:
    """One legal action or pseudo-action, then the next window (no advancing): the numba `_do`,
    `_draw_step` and Diamond Dust as one pipeline of masked primitives."""
    tp, w = s.tp, s.window
    df = 1 - tp
    accel2 = s.standard == 2
    sk_tp, sk_df = _of(s.skills, tp), _of(s.skills, df)
    is_summon = action <= A_SUMMON_C
    is_special = action == A_SPECIAL_SUMMON
    is_guard = (action >= A_GUARD_S) & (action <= A_GUARD_D)
    is_block = action == A_BLOCK
    is_field_guard = (action >= A_FIELD_GUARD_S) & (action < A_NO_DEFENSE)
    is_attack, is_lionheart, is_pursuit = action == A_ATTACK, action == A_LIONHEART, action == A_PURSUIT
    is_pass, is_draw = action == A_PASS, action == A_DRAW_STEP
    breaks = is_pursuit | (is_pass & (w == W_PURSUIT))  # E5.6 break phase follows

    # A hand card: summons E4.1/E4.2, special summon E8.2 (a heart), hand guard E5.3 a.
    take_p = jnp.where(is_guard, df, tp)
    suit = jnp.where(is_summon, action, jnp.where(is_special, H, action - A_GUARD_S))
    s, card = _take(s, take_p, suit, is_summon | is_special | is_guard)
    wizard = (sk_tp & WIZARD) != 0  # E8.3: Wizard clubs enter upright
    summon_tapped = (suit == S) | ((suit == C) & ~wizard)
    tapped = jnp.where(is_special, _i32(~accel2), _i32(summon_tapped))  # E8.2: upright under Accel 2
    s = _append(s, tp, card, tapped, is_summon | is_special)
    s = _push(s, card, is_guard)

    # First tap: the attacking spade (E5.1 a), Lionheart's club (E5.2), the block (E5.3 b),
    # Protect (E8.5) and the pursuit club (E5.5).
    tap1_p = jnp.where(is_lionheart | is_block, df, tp)
    tap1_pattern = jnp.where(is_attack, UPRIGHT_SPADE, jnp.where(is_block, UPRIGHT_HEART, UPRIGHT_CLUB))
    tap1_on = is_attack | is_lionheart | is_block | (action == A_PROTECT) | is_pursuit
    s, tap1_card = _tap(s, tap1_p, _find(s, tap1_p, tap1_pattern, False), 1, tap1_on)

    # Second tap: Lionheart untaps a heart (E5.2), pursuit untaps the spade (E5.5), Poison Bind taps
    # the attacker's oldest upright club after a counter (E8.4; rule poison_bind_trigger=diamond_guard: not
    # after a field guard; rule poison_bind_timing=after_counter: the third tap below instead).
    counter = (is_guard & (suit == D)) | is_field_guard  # E5.3: a diamond or a field guard counters
    binds = (sk_df & POISON_BIND) != 0
    poison_after = (s.rules & RULE_POISON_AFTER_COUNTER) != 0
    diamond_only = (s.rules & RULE_POISON_DIAMOND_ONLY) != 0
    poison = counter & binds & ~poison_after & ~(diamond_only & is_field_guard)
    tap2_p = jnp.where(is_lionheart, df, tp)
    tap2_target = jnp.where(is_lionheart, TAPPED_HEART, jnp.where(is_pursuit, s.spade, UPRIGHT_CLUB))
    tap2_index = _find(s, tap2_p, tap2_target, is_pursuit)
    s, _ = _tap(s, tap2_p, tap2_index, _i32(poison), is_lionheart | is_pursuit | poison)

    # First field discard: field guard (E5.3 c / E8.1), counter payment (E5.4), pursuit club (E5.6).
    pursuit_club = jnp.where(is_pursuit, tap1_card, s.pursuit)
    break_on = breaks & (s.defense == DEF_BLOCK) & (pursuit_club != NO_CARD)
    d1_p = jnp.where(is_field_guard, df, tp)
    # Rule accel2_protection=club_still_owed: after Protect's tap another upright club, if any, pays.
    owed = (action == A_PROTECT) & ((s.rules & RULE_PROTECTION_OWES_CLUB) != 0)
    club_paid = (action == A_DISCARD_CLUB) | owed
    d1_target = jnp.where(
        is_field_guard,
        (action - A_FIELD_GUARD_S) * 2 + 1,
        jnp.where(club_paid, UPRIGHT_CLUB, jnp.where(action == A_DISCARD_SPADE, s.spade, pursuit_club)),
    )
    d1_by_card = (action == A_DISCARD_SPADE) | break_on
    d1_index = _find(s, d1_p, d1_target, d1_by_card)
    d1_on = is_field_guard | (action == A_DISCARD_SPADE) | club_paid & (d1_index >= 0) | break_on
    s, d1_card = _discard_from_field(s, d1_p, d1_index, d1_on)
    # Second field discard: the blocking heart (E5.6).
    s, _ = _discard_from_field(s, df, _find(s, df, s.blocker, True), break_on)
    # Third tap, rule poison_bind_timing=after_counter: Poison Bind once the counter is paid (E8.4).
    paid = (action >= A_DISCARD_SPADE) & (action <= A_PROTECT)
    late = paid & binds & poison_after & ~(diamond_only & (s.defense == DEF_FIELD_GUARD))
    s, _ = _tap(s, tp, _find(s, tp, jnp.int32(UPRIGHT_CLUB), False), 1, late)

    # E3.2 draw step: deck-out (E6.2, a tie goes to P2), else draw the top card and untap; rule
    # first_draw=no skips both on turn 1.
    deck_out = is_draw & (s.deck_len == 0)
    skipped = (s.turn == 1) & ((s.rules & RULE_NO_FIRST_DRAW) != 0)
    draws = is_draw & (s.deck_len > 0) & ~skipped
    top = s.deck[jnp.maximum(s.deck_len - 1, 0)]
    hand = s.hand | jnp.where(_at(tp, top & 3, 4) & draws, 1 << (top >> 2), 0)
    untap = (_iota(2) == tp)[:, None] & _valid(s) & draws
    s = s._replace(hand=hand, deck_len=s.deck_len - _i32(draws), field=jnp.where(untap, s.field & ~1, s.field))
    # E4.3 Diamond Dust reveals the all-diamond hand.
    dust = action == A_DIAMOND_DUST
    s = s._replace(revealed=s.revealed | jnp.where(_at(tp, D, 4) & dust, s.hand, 0))

    # The header: winner (E6), the attack record, turn and window.
    over = (action == A_NO_DEFENSE) | deck_out
    p1_hand, p2_hand = _hand_size(s, 0), _hand_size(s, 1)
    tie_draw = (p1_hand == p2_hand) & ((s.rules & RULE_TIE_DRAW) != 0)  # rule deck_out_tie=draw: winner -1
    deck_out_winner = jnp.where(tie_draw, -1, jnp.where(p1_hand > p2_hand, 0, 1))
    clear = is_attack | over | breaks
    defending = is_guard | is_block | is_field_guard
    buddy = (suit != H) & ((sk_tp & BUDDY_SUMMONER) != 0) & (_of(s.hand, tp)[H] != 0)
    window = jnp.select(
        [
            is_summon,
            is_attack,
            action == A_END_TURN,
            is_lionheart,
            defending,
            (action >= A_DISCARD_SPADE) & (action <= A_PROTECT),
            over,
            is_pass & (w == W_INTERCEPT),
            is_draw,
            breaks | is_special | is_pass | dust,
        ],
        [
            jnp.where(buddy, W_SPECIAL_SUMMON, W_ATTACK),
            W_INTERCEPT,
            W_DRAW,
            W_DEFENSE,
            jnp.where(counter, W_COUNTER, W_PURSUIT),
            W_PURSUIT,
            W_OVER,
            W_DEFENSE,
            W_MAIN,
            W_ATTACK,
        ],
        w,
    )
    return s._replace(
        turn=s.turn + _i32(action == A_END_TURN),
        tp=jnp.where(action == A_END_TURN, df, tp),
        window=_i32(window),
        spade=jnp.where(is_attack, tap1_card, jnp.where(clear, NO_CARD, s.spade)),
        defense=jnp.select(
            [is_guard, is_block, is_field_guard, clear], [DEF_GUARD, DEF_BLOCK, DEF_FIELD_GUARD, DEF_NONE], s.defense
        ),
        guard=jnp.where(is_guard, card, jnp.where(is_field_guard, d1_card, jnp.where(clear, NO_CARD, s.guard))),
        blocker=jnp.where(is_block, tap1_card, jnp.where(clear, NO_CARD, s.blocker)),
        counter=jnp.where(defending, _i32(counter), jnp.where(clear, 0, s.counter)),
        pursuit=jnp.where(clear, NO_CARD, s.pursuit),
        winner=jnp.where(over, jnp.where(deck_out, deck_out_winner, tp), s.winner),
        reason=jnp.where(over, jnp.where(deck_out, REASON_DECK_OUT, REASON_ATTACK), s.reason),
    )


def _advance(s: State) -> State:
    """E14.3: run automatic steps and single-option windows until a real choice or the end."""

    def cond(s: State) -> Array:
        return _auto(s, _legal(s))[0]

    def body(s: State) -> State:
        return _apply(s, _auto(s, _legal(s))[1])

    return lax.while_loop(cond, body, s)


# -- the row-level API -------------------------------------------------------------------------


def legal_mask(row: Array) -> Array:
    """bool[21] of the legal E14.1 actions at a resting row (all False once over)."""
    return _legal(unpack(row))


def step(row: Array, action: Array | int) -> Array:
    """Apply a legal action and advance to the next real choice (the reference `apply`).

    An illegal action (or any action once over) leaves the row unchanged, like the numba
    `apply_action` returning False.
    """
    s = unpack(row)
    action = jnp.asarray(action, dtype=jnp.int32)
    mask = _legal(s)
    legal = (action >= 0) & (action < N_ACTIONS) & (mask.sum() >= 2) & mask[jnp.clip(action, 0, N_ACTIONS - 1)]
    moved = pack(_advance(_apply(s, action)))
    return jnp.where(legal, moved, jnp.asarray(row, dtype=jnp.int32))


def advance(row: Array) -> Array:
    """Bring a freshly filled row (e.g. a loaded position) to its resting point."""
    return pack(_advance(unpack(row)))


def current_player(row: Array) -> Array:
    """The player to choose now: the defender at intercept/defense, else the turn player; -1 once over."""
    s = unpack(row)
    defending = (s.window == W_INTERCEPT) | (s.window == W_DEFENSE)
    return jnp.where(s.window == W_OVER, -1, jnp.where(defending, 1 - s.tp, s.tp))


def random_action(row: Array, key: Array) -> Array:
    """A uniformly random legal action at a resting row."""
    return _random(legal_mask(row), key)


def heuristic_action(row: Array) -> Array:
    """`heuristic.choose` as an array function: the same action at every resting decision point."""
    s = unpack(row)
    return _heuristic(s, _legal(s))


def config_array(config: EdelweissConfig) -> Array:
    """int32[N_CODES] (deck_kind, standard, P1's character, P2's character, RULES, OPENING_HAND) of a
    config; -1 characters are drawn per game. Traced, not static, so one compiled kernel serves every
    configuration, rule options included."""
    deck_kind, standard, characters = config_codes(config)
    rules, opening_hand = rule_codes(config)
    return jnp.array([deck_kind, standard, *(int(c) for c in characters), rules, opening_hand], dtype=jnp.int32)


def _deal_raw(key: Array, codes: Array) -> State:
    """E1, E7.1: a shuffled game at its first draw step (not advanced); `codes` as `config_array`."""
    deck_kind, standard = codes[0], codes[1]
    size = jnp.asarray(DECK_SIZE_OF_KIND, dtype=jnp.int32)[deck_kind]  # E1.1
    opening_hand = codes[5]
    standard_hand = jnp.asarray(HAND_SIZE_OF_KIND, dtype=jnp.int32)[deck_kind]
    hand_size = jnp.where(opening_hand > 0, opening_hand, standard_hand)  # E1.4 (rule opening_hand)
    char_key, shuffle_key = jax.random.split(key)
    skills_game = deck_kind == 2
    drawn = jax.random.randint(char_key, (2,), 0, len(CHARACTER_SKILLS), dtype=jnp.int32)
    char = jnp.where(skills_game, jnp.where(codes[2:4] < 0, drawn, codes[2:4]), -1)
    skills = jnp.where(char >= 0, jnp.asarray(CHARACTER_SKILLS)[jnp.maximum(char, 0)], 0)
    # A uniform permutation of 0..51, stably filtered to the ids below `size` (E1.1: the short
    # decks are exactly ids 0..35): `order[:size]` is uniform over the deck; order[0] is the top card.
    perm = jax.random.permutation(shuffle_key, DECK_CAP).astype(jnp.int32)
    order = perm[jnp.argsort(perm >= size, stable=True)]
    slot = _iota(DECK_CAP)
    owner = jnp.where(slot < hand_size, 0, jnp.where(slot < 2 * hand_size, 1, -1))  # E1.4: P1's hand first
    dealt = (owner[:, None, None] == _iota(2)[None, :, None]) & ((order & 3)[:, None, None] == _iota(4)[None, None, :])
    hand = jnp.where(dealt, (1 << (order >> 2))[:, None, None], 0).sum(axis=0, dtype=jnp.int32)
    deck_len = size - 2 * hand_size
    deck = jnp.where(slot < deck_len, order[jnp.clip(size - 1 - slot, 0, DECK_CAP - 1)], 0)  # bottom first
    zero = jnp.int32(0)
    return State(
        deck_kind=deck_kind,
        standard=standard,
        char=char.astype(jnp.int32),
        skills=skills.astype(jnp.int32),
        turn=jnp.int32(1),
        tp=zero,
        window=jnp.int32(W_DRAW),
        spade=jnp.int32(NO_CARD),
        defense=jnp.int32(DEF_NONE),
        guard=jnp.int32(NO_CARD),
        blocker=jnp.int32(NO_CARD),
        counter=zero,
        pursuit=jnp.int32(NO_CARD),
        winner=jnp.int32(-1),
        reason=jnp.int32(-1),
        deck_len=deck_len,
        discard_len=zero,
        field_len=jnp.zeros(2, dtype=jnp.int32),
        hand=hand,
        revealed=jnp.zeros((2, 4), dtype=jnp.int32),
        deck=deck,
        discard=jnp.zeros(DISCARD_CAP, dtype=jnp.int32),
        field=jnp.zeros((2, FIELD_CAP), dtype=jnp.int32),
        rules=codes[4],
        opening_hand=opening_hand,
    )


def deal(key: Array, codes: Array) -> Array:
    """A new game's row at its first resting point; `codes` from `config_array`."""
    return pack(_advance(_deal_raw(key, jnp.asarray(codes, dtype=jnp.int32))))


# -- whole games -------------------------------------------------------------------------------


def play_one(key: Array, codes: Array, policy_p1: int, policy_p2: int) -> tuple[Array, Array, Array, Array]:
    """Deal and play one game; returns (winner, reason, final turn, decisions), as the numba kernel.

    One `while_loop` iteration is one automatic step, forced window or decision, so a vmapped batch
    never waits in a nested loop. `codes` from `config_array`; policies are static: 0 random, 1 heuristic.
    """
    deal_key, play_key = jax.random.split(key)
    policies = (policy_p1, policy_p2)

    def body(carry: tuple[State, Array, Array]) -> tuple[State, Array, Array]:
        s, decisions, steps = carry
        mask = _legal(s)
        automatic, forced_action = _auto(s, mask)
        actor = jnp.where((s.window == W_INTERCEPT) | (s.window == W_DEFENSE), 1 - s.tp, s.tp)
        chosen = []
        for policy in policies:
            if policy == POLICY_HEURISTIC:
                chosen.append(_heuristic(s, mask))
            else:
                chosen.append(_random(mask, jax.random.fold_in(play_key, steps)))
        action = jnp.where(automatic, forced_action, jnp.where(actor == 0, chosen[0], chosen[1]))
        return _apply(s, action), decisions + _i32(~automatic), steps + 1

    start = (_deal_raw(deal_key, codes), jnp.int32(0), jnp.int32(0))
    s, decisions, _ = lax.while_loop(lambda carry: carry[0].window != W_OVER, body, start)
    return s.winner, s.reason, s.turn, decisions


@lru_cache(maxsize=8)
def _compiled_batch(policy_p1: int, policy_p2: int) -> Callable[[Array, Array], tuple[Array, Array, Array, Array]]:
    """One jitted, vmapped `play_one` per policy pair (jit caches per batch size); configs are traced."""

    def one(key: Array, codes: Array) -> tuple[Array, Array, Array, Array]:
        return play_one(key, codes, policy_p1, policy_p2)

    return jax.jit(jax.vmap(one))


def _policy_code(policy: str | int) -> int:
    code = POLICIES[policy] if isinstance(policy, str) else int(policy)
    if code not in (POLICY_RANDOM, POLICY_HEURISTIC):
        raise ValueError(f"unknown policy {policy!r}; one of {sorted(POLICIES)}")
    return code


def play_codes(
    keys: Array, codes: Array, policy_p1: str | int, policy_p2: str | int
) -> tuple[Array, Array, Array, Array]:
    """Play one game per key, game i under `codes[i]` (int32[n, N_CODES], rows of `config_array`), so
    one batch may mix configurations (rule options too). Results stay on the device (jax int32 arrays)."""
    return _compiled_batch(_policy_code(policy_p1), _policy_code(policy_p2))(keys, jnp.asarray(codes, jnp.int32))


def play_batch_device(
    config: EdelweissConfig, policy_p1: str | int, policy_p2: str | int, n_games: int, seed: int, first: int = 0
) -> tuple[Array, Array, Array, Array]:
    """`play_batch` leaving the results on the device (jax int32 arrays): for timing and chaining."""
    keys = jax.random.split(jax.random.key(seed), first + n_games)[first:]
    return play_codes(keys, jnp.broadcast_to(config_array(config), (n_games, N_CODES)), policy_p1, policy_p2)


def play_batch(
    config: EdelweissConfig, policy_p1: str | int, policy_p2: str | int, n_games: int, seed: int, first: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Play `n_games` games; game i uses key `first + i` of `jax.random.split(jax.random.key(seed), n)`, which
    is the same key whatever `n` (JAX's partitionable threefry, its default), so a long run played in pieces
    (`first` = the games played before) holds exactly the games of one call.

    Policies are "random" / "heuristic" (or 0 / 1). Returns numpy arrays like the numba
    `play_batch`: winner (0 P1, 1 P2, -1 a draw: rule deck_out_tie) int8, reason (0 attack,
    1 deck_out) int8, final turn int16, decisions int32.
    """
    winner, reason, turns, decisions = play_batch_device(config, policy_p1, policy_p2, n_games, seed, first)
    return (
        np.asarray(winner, dtype=np.int8),
        np.asarray(reason, dtype=np.int8),
        np.asarray(turns, dtype=np.int16),
        np.asarray(decisions, dtype=np.int32),
    )


def benchmark(
    batch_sizes: list[int] | tuple[int, ...] = GPU_BATCH_SIZES,
    config: EdelweissConfig | None = None,
    policy_p1: str = "random",
    policy_p2: str = "random",
    seed: int = 0,
    verbose: bool = True,
) -> list[dict[str, float]]:
    """Games/s of `play_batch` per batch size on the default JAX device (compile excluded).

    Each size is compiled and warmed once, then timed on a fresh seed with `block_until_ready`.
    A GPU session can call `benchmark([2**e for e in range(12, 23)])`.
    """
    config = config or EdelweissConfig("full")
    results = []
    for n in batch_sizes:
        start = time.perf_counter()
        jax.block_until_ready(play_batch_device(config, policy_p1, policy_p2, n, seed))
        compile_s = time.perf_counter() - start
        start = time.perf_counter()
        out = jax.block_until_ready(play_batch_device(config, policy_p1, policy_p2, n, seed + 1))
        run_s = time.perf_counter() - start
        decisions = float(np.asarray(out[3]).sum())
        row = {
            "batch": n,
            "seconds": run_s,
            "games_per_s": n / run_s,
            "decisions_per_s": decisions / run_s,
            "first_call_s": compile_s,
        }
        results.append(row)
        if verbose:
            print(
                f"{jax.default_backend()} batch {n:>8}: {row['games_per_s']:>12,.0f} games/s "
                f"{row['decisions_per_s']:>14,.0f} decisions/s ({run_s:.3f} s; first call {compile_s:.2f} s)",
                flush=True,
            )
    return results


__all__ = [
    "A_DIAMOND_DUST",
    "A_DRAW_STEP",
    "CORE_SIZE",
    "N_CODES",
    "State",
    "advance",
    "benchmark",
    "config_array",
    "current_player",
    "deal",
    "heuristic_action",
    "legal_mask",
    "pack",
    "play_batch",
    "play_batch_device",
    "play_codes",
    "play_one",
    "random_action",
    "step",
    "unpack",
]
