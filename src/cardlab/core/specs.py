"""The agent spec grammar, `name:key=value:...`: here so that a game's own code (its compiled kernels,
which play some specs themselves) reads a spec without importing the agents that define the names."""

from __future__ import annotations

from cardlab.core.errors import CardlabError


class AgentSpecError(CardlabError, ValueError):
    """An agent spec string that names no agent or has a bad parameter."""


def split_spec(spec: str) -> tuple[str, dict[str, str]]:
    """'ismcts:iterations=400:backend=cpu' -> ('ismcts', {'iterations': '400', 'backend': 'cpu'}).

    Grammar only: which names and parameters exist, and their types, is the agents' business
    (`cardlab.agents.parse_spec`)."""
    name, *parts = spec.strip().split(":")
    fields: dict[str, str] = {}
    for part in parts:
        key, sep, text = part.partition("=")
        if not sep or not key:
            raise AgentSpecError(f"{name}: bad parameter {part!r} (write key=value)")
        fields[key] = text
    return name, fields
