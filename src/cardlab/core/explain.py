"""Refusals in a player's words, shared by every game's `explain` module (#51 item 5): a choice made in the
wrong decision says what the player can do now, in the words of what each choice does, never in action codes
("DEPLOY is not a choice during the mulligan: choose KEEP or MULLIGAN")."""

from __future__ import annotations

from collections.abc import Sequence


def either(choices: Sequence[str]) -> str:
    """'god draw a burst, add an attacker or pass': choices in words, each once, in the order given."""
    said = list(dict.fromkeys(choices))
    return said[0] if len(said) == 1 else f"{', '.join(said[:-1])} or {said[-1]}"


def not_now(doing: str, during: str, choices: Sequence[str]) -> str:
    """Why a choice of another decision is refused: what it does, the decision at hand, what can be done now."""
    return f"you cannot {doing} during {during}; now you can {either(choices)}"
