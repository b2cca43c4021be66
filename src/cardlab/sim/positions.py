"""Positions to measure or test a search at: real decisions reached by the game's heuristic."""

from __future__ import annotations

import random

from cardlab.core.game import State
from cardlab.games import game_class


def reached_positions(game: str, count: int, seed: int = 1, steps: tuple[int, int] = (10, 120)) -> list[State]:
    """`count` decisions, each from its own deal after a random number of heuristic moves in `steps`
    (low, high), each a real choice and none half-way through a decision (`continues_decision`)."""
    cls = game_class(game)
    policy = cls.heuristic()
    if policy is None:
        raise ValueError(f"{game} has no heuristic to play its positions")
    rules = cls()
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = rules.new_state(rng.getrandbits(32), record_events=False)
        for _ in range(rng.randrange(*steps)):
            if state.current_player() is None:
                break
            state.apply(policy(state, rng))
        if state.current_player() is not None and not state.continues_decision():
            found.append(state)
    return found
