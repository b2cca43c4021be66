"""Dreadnought: the two-caster TCG (rules: ../shared/rules/dreadnought.md, D0-D24)."""

from cardlab.games.dreadnought.game import Dreadnought, DreadnoughtConfig
from cardlab.games.dreadnought.state import DreadnoughtState

__all__ = ["Dreadnought", "DreadnoughtConfig", "DreadnoughtState"]
