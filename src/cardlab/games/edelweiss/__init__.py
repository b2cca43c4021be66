"""Arcana Fight! Edelweiss: the suit-only tactics game (rules: shared/rules/edelweiss.md)."""

from cardlab.games.edelweiss.actions import EdelweissAction
from cardlab.games.edelweiss.config import EdelweissConfig
from cardlab.games.edelweiss.game import Edelweiss
from cardlab.games.edelweiss.state import EdelweissState

__all__ = ["Edelweiss", "EdelweissAction", "EdelweissConfig", "EdelweissState"]
