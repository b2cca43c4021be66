"""The 21 suit-level actions of E14.1, with their stable ids and strings."""

from __future__ import annotations

from enum import IntEnum


class EdelweissAction(IntEnum):
    """An E14.1 action; the int value is the RL action id, `str()` the canonical text."""

    SUMMON_S = 0
    SUMMON_H = 1
    SUMMON_C = 2
    SPECIAL_SUMMON = 3
    ATTACK = 4
    END_TURN = 5
    LIONHEART = 6
    GUARD_S = 7
    GUARD_H = 8
    GUARD_C = 9
    GUARD_D = 10
    BLOCK = 11
    FIELD_GUARD_S = 12
    FIELD_GUARD_H = 13
    FIELD_GUARD_C = 14
    NO_DEFENSE = 15
    DISCARD_SPADE = 16
    DISCARD_CLUB = 17
    PROTECT = 18
    PURSUIT = 19
    PASS = 20

    def __str__(self) -> str:
        return _TEXT[self]

    def __format__(self, spec: str) -> str:
        return format(_TEXT[self], spec)

    @classmethod
    def parse(cls, text: str) -> EdelweissAction:
        """Inverse of `str()`; case and extra spaces are forgiven."""
        try:
            return _BY_TEXT[" ".join(text.split()).upper()]
        except (KeyError, AttributeError):
            raise ValueError(f"unknown action {text!r}") from None


_SUIT_PREFIXES = ("SUMMON_", "GUARD_", "FIELD_GUARD_")
_TEXT = {
    action: f"{action.name[:-2]} {action.name[-1]}" if action.name[:-1] in _SUIT_PREFIXES else action.name
    for action in EdelweissAction
}
_BY_TEXT = {text: action for action, text in _TEXT.items()}

N_ACTIONS = len(EdelweissAction)

SUMMON_BY_SUIT = (EdelweissAction.SUMMON_S, EdelweissAction.SUMMON_H, EdelweissAction.SUMMON_C)
GUARD_BY_SUIT = (EdelweissAction.GUARD_S, EdelweissAction.GUARD_H, EdelweissAction.GUARD_C, EdelweissAction.GUARD_D)
FIELD_GUARD_BY_SUIT = (EdelweissAction.FIELD_GUARD_S, EdelweissAction.FIELD_GUARD_H, EdelweissAction.FIELD_GUARD_C)
