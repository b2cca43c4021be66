"""The agent protocol and the uniform random player."""

from __future__ import annotations

import random
from typing import Protocol

from cardlab.core.game import Action, InfoSet


class Agent(Protocol):
    """Chooses a legal action from a player's information set."""

    spec: str
    """The agent's spec string (name plus `:key=value` parameters), for records and reports."""

    def act(self, infoset: InfoSet, rng: random.Random) -> Action: ...


class RandomAgent:
    """Uniform over the legal actions: the baseline every other player must beat."""

    spec = "random"

    def act(self, infoset: InfoSet, rng: random.Random) -> Action:
        return rng.choice(infoset.legal_actions)


_AGENTS: dict[str, type] = {"random": RandomAgent}


def make_agent(spec: str) -> Agent:
    """Build an agent from its spec string, e.g. `random`."""
    name = spec.split(":", 1)[0]
    if name not in _AGENTS:
        raise ValueError(f"unknown agent {spec!r}; known agents: {', '.join(sorted(_AGENTS))}")
    agent: Agent = _AGENTS[name]()
    return agent
