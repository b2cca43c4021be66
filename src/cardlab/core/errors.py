"""Errors shared by every game: they carry enough context to fix the input."""

from __future__ import annotations

from collections.abc import Sequence


class CardlabError(Exception):
    """Base class for every error cardlab raises on purpose."""


class IllegalActionError(CardlabError, ValueError):
    """An action that is not legal now; the state it was applied to is unchanged."""

    def __init__(self, action: object, legal: Sequence[object], reason: str = "") -> None:
        self.action = action
        self.legal = tuple(legal)
        self.reason = reason
        legal_text = ", ".join(str(a) for a in self.legal) or "none (the game is over)"
        detail = f": {reason}" if reason else ""
        super().__init__(f"illegal action {str(action)!r}{detail}; legal actions: [{legal_text}]")

    def __reduce__(self) -> tuple[type[IllegalActionError], tuple[object, tuple[object, ...], str]]:
        return (IllegalActionError, (self.action, self.legal, self.reason))


class PositionError(CardlabError, ValueError):
    """A position or config that cannot be loaded; `field` names the offending key."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")

    def __reduce__(self) -> tuple[type[PositionError], tuple[str, str]]:
        return (PositionError, (self.field, self.problem))
