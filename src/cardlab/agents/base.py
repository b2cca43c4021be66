"""The agent protocol, agent spec strings, and the uniform random player."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Protocol

from cardlab.core.game import Action, InfoSet
from cardlab.core.specs import AgentSpecError, split_spec


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


def _registry() -> dict[str, Callable[..., Agent]]:
    from cardlab.agents.heuristic import HeuristicAgent
    from cardlab.agents.ismcts import ISMCTSAgent
    from cardlab.agents.openspiel import OpenSpielAgent
    from cardlab.agents.pimc import PIMCAgent
    from cardlab.agents.policy import PolicyAgent

    return {
        "random": RandomAgent, "heuristic": HeuristicAgent, "ismcts": ISMCTSAgent, "pimc": PIMCAgent,
        "policy": PolicyAgent, "openspiel": OpenSpielAgent,
    }  # fmt: skip


def _convert(agent: str, key: str, text: str, kind: type) -> Any:
    try:
        value = kind(text)
    except ValueError:
        raise AgentSpecError(f"{agent}: {key}={text!r} is not a valid {kind.__name__}") from None
    if kind in (int, float) and value < 0:
        raise AgentSpecError(f"{agent}: {key} must not be negative")
    return value


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """'ismcts:iterations=400:rollout=heuristic' -> ('ismcts', {'iterations': 400, ...})."""
    name, fields = split_spec(spec)
    agents = _registry()
    if name not in agents:
        raise AgentSpecError(f"unknown agent {name!r} in {spec!r}; known agents: {', '.join(sorted(agents))}")
    params: dict[str, type] = getattr(agents[name], "params", {})
    kwargs: dict[str, Any] = {}
    for key, text in fields.items():
        if key not in params:
            known = ", ".join(f"{k}=<{t.__name__}>" for k, t in params.items()) or "none"
            raise AgentSpecError(f"{name}: bad parameter {f'{key}={text}'!r}; parameters: {known}")
        kwargs[key] = _convert(name, key, text, params[key])
    return name, kwargs


def make_agent(spec: str, game: str | None = None) -> Agent:
    """Build an agent from its spec string, e.g. `random`, `ismcts:iterations=400`.

    With `game`, also check that the agent can play that game (e.g. that a rollout policy it
    names exists there), so that a bad spec fails now and not at its first decision.
    """
    name, kwargs = parse_spec(spec)
    try:
        agent = _registry()[name](**kwargs)
        prepare = getattr(agent, "prepare", None)
        if game is not None and prepare is not None:
            prepare(game)
    except ValueError as exc:
        raise AgentSpecError(f"{spec}: {exc}") from None
    return agent


def format_spec(name: str, params: dict[str, Any], defaults: dict[str, Any]) -> str:
    """The canonical spec: the name, then parameters that differ from their defaults, in order."""
    changed = [f"{key}={value:g}" if isinstance(value, float) else f"{key}={value}"
               for key, value in params.items() if value != defaults.get(key)]  # fmt: skip
    return ":".join([name, *changed])
