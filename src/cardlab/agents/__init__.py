"""AI players. An agent sees only an InfoSet, never the true state."""

from cardlab.agents.base import Agent, AgentSpecError, RandomAgent, cap_thinking, make_agent, parse_spec

__all__ = ["Agent", "AgentSpecError", "RandomAgent", "cap_thinking", "make_agent", "parse_spec"]
