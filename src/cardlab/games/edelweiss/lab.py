"""Balance-lab matchups for Edelweiss: the six characters (E9), skills deck, one standard."""

from __future__ import annotations

from typing import Any

from cardlab.core.plugin import Choice, ConfigOption, Matchups
from cardlab.games.edelweiss.cards import CHARACTER_IDS
from cardlab.games.edelweiss.config import STANDARDS

STRONG_AGENT = "ismcts:iterations=1000:backend=cpu"
"""The default table agent (docs/balance.md): under Symbolic the cheapest search whose table agrees
with the one at 4,000 iterations, cell by cell and in the character totals; under Accel 2 tables
still move up to 4,000 iterations, which the README says plainly."""


VARIANT_OPTION = ConfigOption(
    "standard",
    "Edelweiss standard (E7.4; default symbolic)",
    (Choice("symbolic", "Symbolic"), Choice("accel2", "Accel 2")),
)
"""Tables are per standard: `cardlab balance edelweiss --standard accel2`."""


def matchups(variant: str | None) -> Matchups:
    """`variant` is the standard (E7.4); the first-named character of a config plays first."""
    standard = variant or "symbolic"
    if standard not in STANDARDS:
        raise ValueError(f"unknown standard {standard!r}; one of {list(STANDARDS)}")

    def config(first: str, second: str) -> dict[str, Any]:
        return {"deck": "skills", "standard": standard, "characters": {"P1": first, "P2": second}}

    return Matchups("edelweiss", standard, CHARACTER_IDS, "characters", config, STRONG_AGENT, {"standard": standard})
