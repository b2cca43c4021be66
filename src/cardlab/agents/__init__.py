"""AI players. An agent sees only an InfoSet, never the true state."""

from cardlab.agents.base import Agent, RandomAgent, make_agent

__all__ = ["Agent", "RandomAgent", "make_agent"]
