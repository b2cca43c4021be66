"""The agent protocol, the canonical spec string, and the uniform random player: what every agent builds on
(the registry of agents by name is `cardlab.agents.registry`, above them all)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Protocol

from cardlab.core.game import Action, InfoSet


class Agent(Protocol):
    """Chooses a legal action from a player's information set, never the true state."""

    spec: str
    """The agent's normalised spec string (name plus `:key=value` parameters)."""

    def act(self, infoset: InfoSet, rng: random.Random) -> Action: ...


def cap_thinking(agent: Agent, seconds: float) -> None:
    """Bound the agent's thinking time per decision, if it searches (`max_seconds`); others are quick."""
    if hasattr(agent, "max_seconds"):
        agent.max_seconds = seconds


class RandomAgent:
    """Uniform over the legal actions: the baseline every other player must beat."""

    params: ClassVar[dict[str, type]] = {}
    spec = "random"

    def act(self, infoset: InfoSet, rng: random.Random) -> Action:
        return rng.choice(infoset.legal_actions)

    def chooser(self, rng: random.Random) -> Callable[[Sequence[Action]], Action]:
        """The same choice from the legal actions alone, bound to this game's stream: the match loop then
        needs no information set (and no call of its own per decision)."""
        return rng.choice


def format_spec(name: str, params: dict[str, Any], defaults: dict[str, Any]) -> str:
    """The canonical spec: the name, then parameters that differ from their defaults, in order."""
    changed = [f"{key}={value:g}" if isinstance(value, float) else f"{key}={value}"
               for key, value in params.items() if value != defaults.get(key)]  # fmt: skip
    return ":".join([name, *changed])
