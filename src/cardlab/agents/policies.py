"""Fast policies (state, rng) -> action, used by agents and as MCTS rollouts.

A policy may read only what the player to move could know; it is given either a canonical
world (from an InfoSet) or a sampled world, so it cannot see more even if it tried. Each game
brings its own heuristic (`Game.heuristic()`) and, where it has one, a compiled rollout.
"""

from __future__ import annotations

import random

from cardlab.core.extras import needs_extra
from cardlab.core.game import Action, Policy, State
from cardlab.core.plugin import FastRollout
from cardlab.games import game_class

__all__ = ["FastRollout", "Policy", "fast_rollout", "heuristic_policy", "policy_by_name", "random_policy"]


def random_policy(state: State, rng: random.Random) -> Action:
    return rng.choice(state.legal_actions())


def heuristic_policy(game_name: str) -> Policy:
    """The game's documented heuristic; a clear error for a game that has none."""
    policy = game_class(game_name).heuristic()
    if policy is None:
        raise ValueError(f"{game_name} has no heuristic policy")
    return policy


def policy_by_name(game_name: str, name: str) -> Policy:
    if name == "random":
        return random_policy
    if name == "heuristic":
        return heuristic_policy(game_name)
    raise ValueError(f"unknown policy {name!r}; expected 'random' or 'heuristic'")


def fast_rollout(game_name: str) -> FastRollout:
    """The game's compiled whole-game rollout (state, policy name, seed) -> returns, where it has one."""
    try:
        rollout = game_class(game_name).fast_rollout()
    except ImportError:
        raise ValueError(needs_extra("rollout=fast", "fast")) from None
    if rollout is None:
        raise ValueError(f"no fast rollout for {game_name!r}: it has no compiled kernel")
    return rollout
