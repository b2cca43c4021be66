"""The game's documented rule-of-thumb player, as an agent."""

from __future__ import annotations

import random
from typing import ClassVar

from cardlab.agents.base import format_spec
from cardlab.agents.policies import heuristic_policy
from cardlab.core.game import Action, InfoSet


class HeuristicAgent:
    """Plays the game's heuristic policy on the canonical world of its information set.

    With `epsilon` > 0 it plays a uniformly random legal action with that probability instead. The
    pure heuristic is deterministic, so its self-play replays one line per deal and its balance
    tables are far from strong play (docs/balance.md); a little randomness brings them much closer
    at the heuristic's cost.
    """

    params: ClassVar[dict[str, type]] = {"epsilon": float}

    def __init__(self, epsilon: float = 0.0) -> None:
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be between 0 and 1, not {epsilon:g}")
        self.epsilon = epsilon
        self.spec = format_spec("heuristic", {"epsilon": epsilon}, {"epsilon": 0.0})

    def act(self, infoset: InfoSet, rng: random.Random) -> Action:
        if self.epsilon > 0.0 and rng.random() < self.epsilon:
            return rng.choice(infoset.legal_actions)
        return heuristic_policy(infoset.game.name)(infoset.canonical_world, rng)
