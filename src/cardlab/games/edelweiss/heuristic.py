"""A documented rule-of-thumb player for Edelweiss (see docs/agents.md).

`choose(state, rng)` reads only what the player to move may know — both fields, hand sizes,
the own hand, the open attack — so it is safe on a canonical or sampled world, and fast enough
to serve as an MCTS rollout policy.
"""

from __future__ import annotations

import random

from cardlab.games.edelweiss.actions import FIELD_GUARD_BY_SUIT, GUARD_BY_SUIT, SUMMON_BY_SUIT
from cardlab.games.edelweiss.actions import EdelweissAction as A
from cardlab.games.edelweiss.cards import CLUB, HEART, SPADE, TAPPED
from cardlab.games.edelweiss.state import (
    W_ATTACK,
    W_COUNTER,
    W_DEFENSE,
    W_INTERCEPT,
    W_MAIN,
    W_PURSUIT,
    W_SPECIAL_SUMMON,
    EdelweissState,
)


def _count(field: list[int], suit: int) -> int:
    """Cards of `suit` on a field, regardless of orientation (E11 counts them so)."""
    return sum(1 for entry in field if (entry >> 1) & 3 == suit)


def _upright(field: list[int], suit: int) -> int:
    return sum(1 for entry in field if (entry >> 1) & 3 == suit and not entry & TAPPED)


def summon_choice(state: EdelweissState) -> A:
    """E11: defend with a heart when the opponent threatens, support with a club, else a spade."""
    me = state.turn_player
    mine, theirs = state.fields[me], state.fields[1 - me]
    hand_suits = {card & 3 for card in state.hands[me]}
    opp_s, opp_c, opp_h = _count(theirs, SPADE), _count(theirs, CLUB), _count(theirs, HEART)
    my_s, my_h = _count(mine, SPADE), _count(mine, HEART)
    if opp_s >= 1 and opp_s + opp_c >= my_h:
        preference = (HEART, SPADE, CLUB)  # E11.2 defend
    elif (my_h >= opp_s + opp_c + 1 and opp_h <= 1) or (my_s >= 1 and SPADE not in hand_suits):
        preference = (CLUB, SPADE, HEART)  # E11.3 support
    else:
        preference = (SPADE, HEART, CLUB)  # E11.4 default
    suit = next(suit for suit in preference if suit in hand_suits)  # E11.5 fallback order
    return SUMMON_BY_SUIT[suit]


def _defense_choice(state: EdelweissState, legal: tuple[A, ...]) -> A:
    """Keep the game alive as cheaply as possible; a counter when it hurts the attacker."""
    attacker = state.turn_player
    attacker_clubs = _upright(state.fields[attacker], CLUB)
    hand = state.hands[1 - attacker]
    # A block costs no card unless the attacker can break it with a pursuit club.
    if A.BLOCK in legal and (attacker_clubs == 0 or A.GUARD_D not in legal):
        return A.BLOCK
    if A.GUARD_D in legal:
        return A.GUARD_D  # a counter costs the attacker a spade or a club
    for suit in (SPADE, HEART, CLUB):  # a field guard counters without spending a hand card
        if FIELD_GUARD_BY_SUIT[suit] in legal:
            return FIELD_GUARD_BY_SUIT[suit]
    if A.BLOCK in legal:
        return A.BLOCK
    guards = [action for action in GUARD_BY_SUIT if action in legal]
    if guards:
        # Give up the suit held most often: the rarest suits keep the most summon options.
        return max(guards, key=lambda action: (sum(1 for c in hand if c & 3 == action - A.GUARD_S), -action))
    return A.NO_DEFENSE


def choose(state: EdelweissState, rng: random.Random) -> A:
    """The heuristic's action at the current window (deterministic; `rng` is unused)."""
    legal = state.legal_actions()
    window = state.window
    me = state.turn_player
    if window == W_MAIN:
        return summon_choice(state)
    if window == W_SPECIAL_SUMMON:
        # Accel 2 hearts enter upright (a ready blocker); Symbolic ones only if the hand stays deep.
        return A.SPECIAL_SUMMON if state.game.accel2 or len(state.hands[me]) > 2 else A.PASS
    if window == W_ATTACK:
        return A.ATTACK  # every attack costs the defender a card, a heart tap, or the game
    if window == W_INTERCEPT:
        # Untap a heart only when none is upright: the club comes back at our own draw step anyway.
        return A.LIONHEART if _upright(state.fields[1 - me], HEART) == 0 else A.PASS
    if window == W_DEFENSE:
        return _defense_choice(state, legal)
    if window == W_COUNTER:
        # Protect unless it still costs a club (rule accel2_protection=club_still_owed) and we have two:
        # then paying with one club is cheaper than tapping one and losing another.
        if A.PROTECT in legal and not (state.game.protection_owes_club and _upright(state.fields[me], CLUB) > 1):
            return A.PROTECT
        mine = state.fields[me]  # pay with the suit we have more of (the attacking spade counts)
        return A.DISCARD_CLUB if _count(mine, CLUB) >= _count(mine, SPADE) else A.DISCARD_SPADE
    if window == W_PURSUIT:
        return A.PURSUIT  # a free second attack; after a block it trades our club for their heart
    raise ValueError(f"no decision at window {window} in {state!r}")
