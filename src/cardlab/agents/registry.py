"""Agents by name, and agent spec strings read against them: `make_agent("ismcts:iterations=400")`.

It imports every agent, so it sits above them: an agent module imports `cardlab.agents.base`, never this.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardlab.agents.base import Agent, RandomAgent
from cardlab.agents.heuristic import HeuristicAgent
from cardlab.agents.ismcts import ISMCTSAgent
from cardlab.agents.openspiel import OpenSpielAgent
from cardlab.agents.pimc import PIMCAgent
from cardlab.agents.policy import PolicyAgent
from cardlab.core.specs import AgentSpecError, split_spec

AGENTS: dict[str, Callable[..., Agent]] = {
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
    agents = AGENTS
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
        agent = AGENTS[name](**kwargs)
        prepare = getattr(agent, "prepare", None)
        if game is not None and prepare is not None:
            prepare(game)
    except ValueError as exc:
        raise AgentSpecError(f"{spec}: {exc}") from None
    return agent
