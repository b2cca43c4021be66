"""Per-game fast policies (state, rng) -> action, used by agents and as MCTS rollouts.

A policy may read only what the player to move could know; it is given either a canonical
world (from an InfoSet) or a sampled world, so it cannot see more even if it tried.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from importlib import import_module

from cardlab.core.game import Action, State

Policy = Callable[[State, random.Random], Action]

_HEURISTICS = {
    "edelweiss": "cardlab.games.edelweiss.heuristic:choose",
    "aterial": "cardlab.games.aterial.heuristic:choose",
    "dreadnought": "cardlab.games.dreadnought.heuristic:choose",
}


def random_policy(state: State, rng: random.Random) -> Action:
    return rng.choice(state.legal_actions())


def heuristic_policy(game_name: str) -> Policy:
    """The game's documented heuristic; a clear error for a game that has none yet."""
    try:
        module, attr = _HEURISTICS[game_name].split(":")
    except KeyError:
        raise ValueError(f"no heuristic policy for {game_name!r}; available for: {', '.join(_HEURISTICS)}") from None
    policy: Policy = getattr(import_module(module), attr)
    return policy


def policy_by_name(game_name: str, name: str) -> Policy:
    if name == "random":
        return random_policy
    if name == "heuristic":
        return heuristic_policy(game_name)
    raise ValueError(f"unknown policy {name!r}; expected 'random' or 'heuristic'")


_FAST_ROLLOUTS = {"edelweiss": "cardlab.fast.edelweiss_cpu:rollout"}

FastRollout = Callable[[State, str, int], tuple[float, float]]


def fast_rollout(game_name: str) -> FastRollout:
    """A compiled whole-game rollout (state, policy name, seed) -> returns, where a game has one."""
    try:
        module, attr = _FAST_ROLLOUTS[game_name].split(":")
    except KeyError:
        raise ValueError(f"no fast rollout for {game_name!r}; available for: {', '.join(_FAST_ROLLOUTS)}") from None
    try:
        rollout: FastRollout = getattr(import_module(module), attr)
    except ImportError:
        raise ValueError("rollout=fast needs the fast extra: pip install -e '.[fast]'") from None
    return rollout
