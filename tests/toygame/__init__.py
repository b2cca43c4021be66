"""A fourth game that lives outside cardlab: proof that a game plugs in through its own package alone."""

from tests.toygame.game import Kuhn

__all__ = ["Kuhn"]
