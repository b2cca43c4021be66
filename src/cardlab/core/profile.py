"""A game's profile in the layout of a TCG catalog: one short line per basic rule, each with its rule id.

A game package defines one `GameProfile` (its `PROFILE`); tools print it as a table (`GameProfile.lines`)
or as JSON (`GameProfile.to_json`). Every entry cites the rule(s) of the game's specification that say it;
an entry with no rule is one the specification is silent on, and its note says what cardlab does and
points to docs/rulings.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

RULE_ID = re.compile(r"[A-Z]+\d+(?:\.\d+)*[a-z]?")
"""One rule id as the specifications write it: a section letter, a section number, then `.n` parts."""

NO_RULE = "—"
"""What `GameProfile.lines` shows in the rule column of an entry without a rule."""


@dataclass(frozen=True, slots=True)
class ProfileEntry:
    """One catalog line: the value in a few words, the rule id(s) that say it, and an optional short note.

    `rule` is one id (`"X3.1"`) or several joined by ", " (`"X5.1, X5.2"`); None only where the
    specification says nothing, and then `note` must say what cardlab does (see docs/rulings.md).
    """

    value: str
    rule: str | None
    note: str = ""

    def __post_init__(self) -> None:
        if not self.value.strip():
            raise ValueError("a profile entry needs a value")
        if self.rule is None:
            if not self.note.strip():
                raise ValueError(f"entry {self.value!r} cites no rule, so its note must say what cardlab does")
        elif not all(RULE_ID.fullmatch(part) for part in self.rule.split(", ")):
            raise ValueError(f"entry {self.value!r}: {self.rule!r} is not a ', '-separated list of rule ids")

    def rule_ids(self) -> tuple[str, ...]:
        """The ids cited in `rule`, in order (empty when there is none)."""
        return () if self.rule is None else tuple(self.rule.split(", "))

    def text(self) -> str:
        """The value, then " — " and the note if there is one."""
        return f"{self.value} — {self.note}" if self.note else self.value


@dataclass(frozen=True, slots=True)
class GameProfile:
    """A game's catalog profile: its title, a one-sentence summary and one entry per `FIELDS` line."""

    FIELDS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("players", "Players"),
        ("deck", "Deck"),
        ("starting_life", "Starting life"),
        ("opening_hand", "Opening hand"),
        ("hand_limit", "Hand limit"),
        ("mulligan", "Mulligan"),
        ("first_turn", "First-turn restriction"),
        ("library_out", "Library out"),
        ("summoning_sickness", "Summoning sickness"),
        ("damage_carried", "Damage carried between turns"),
        ("win_conditions", "Win conditions"),
    )
    """(field name, human label) of every entry, in catalog order."""

    title: str
    summary: str
    players: ProfileEntry
    deck: ProfileEntry
    """Deck size and construction rule."""
    starting_life: ProfileEntry
    opening_hand: ProfileEntry
    hand_limit: ProfileEntry
    """The limit and when it is enforced."""
    mulligan: ProfileEntry
    first_turn: ProfileEntry
    """Any restriction on the first turn(s) of the game."""
    library_out: ProfileEntry
    """What happens when a player must draw from an empty deck."""
    summoning_sickness: ProfileEntry
    damage_carried: ProfileEntry
    """Whether damage carries over from one turn to the next."""
    win_conditions: ProfileEntry

    def __post_init__(self) -> None:
        if not self.title.strip() or not self.summary.strip():
            raise ValueError("a game profile needs a title and a summary")
        for name, _label in self.FIELDS:
            if not isinstance(getattr(self, name), ProfileEntry):
                raise TypeError(f"profile field {name!r} must be a ProfileEntry")

    def entries(self) -> list[tuple[str, str, ProfileEntry]]:
        """(field name, label, entry) for every line, in `FIELDS` order."""
        return [(name, label, getattr(self, name)) for name, label in self.FIELDS]

    def rule_ids(self) -> list[str]:
        """Every rule id the entries cite, in order of first citation."""
        return list(dict.fromkeys(rule for _name, _label, entry in self.entries() for rule in entry.rule_ids()))

    def lines(self) -> list[tuple[str, str, str]]:
        """(label, value with note, rule or "—") for every line, in `FIELDS` order, for table printing."""
        return [(label, entry.text(), entry.rule or NO_RULE) for _name, label, entry in self.entries()]

    def to_json(self) -> dict[str, Any]:
        """The profile as JSON-able data; `entries` keeps `FIELDS` order."""
        return {
            "title": self.title,
            "summary": self.summary,
            "entries": {
                name: {"label": label, "value": entry.value, "rule": entry.rule, "note": entry.note}
                for name, label, entry in self.entries()
            },
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameProfile:
        """The profile `to_json` wrote (unknown or missing entries raise)."""
        entries = data["entries"]
        names = [name for name, _label in cls.FIELDS]
        if list(entries) != names:
            raise ValueError(f"profile entries must be exactly {names} in this order, got {list(entries)}")
        return cls(
            title=data["title"],
            summary=data["summary"],
            **{
                name: ProfileEntry(value=entries[name]["value"], rule=entries[name]["rule"], note=entries[name]["note"])
                for name in names
            },
        )
