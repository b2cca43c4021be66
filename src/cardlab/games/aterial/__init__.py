"""Soukoku no Aterial: the 3x2 grid TCG (rules: shared/rules/aterial.md)."""

from cardlab.games.aterial.game import Aterial, AterialConfig
from cardlab.games.aterial.state import AterialState

__all__ = ["Aterial", "AterialConfig", "AterialState"]
