"""AI players. An agent sees only an InfoSet, never the true state."""

from cardlab.agents.base import Agent, RandomAgent, cap_thinking
from cardlab.agents.registry import make_agent, parse_spec
from cardlab.core.specs import AgentSpecError

__all__ = ["Agent", "AgentSpecError", "RandomAgent", "cap_thinking", "make_agent", "parse_spec"]
