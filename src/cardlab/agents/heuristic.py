"""The game's documented rule-of-thumb player, as an agent."""

from __future__ import annotations

import random
from typing import ClassVar

from cardlab.agents.policies import heuristic_policy
from cardlab.core.game import Action, InfoSet


class HeuristicAgent:
    """Plays the game's heuristic policy on the canonical world of its information set."""

    params: ClassVar[dict[str, type]] = {}
    spec = "heuristic"

    def act(self, infoset: InfoSet, rng: random.Random) -> Action:
        return heuristic_policy(infoset.game.name)(infoset.canonical_world, rng)
