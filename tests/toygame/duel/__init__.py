"""Duel, a toy deck-building game for the tests of `cardlab meta` (issue #52): see `game`."""

from tests.toygame.duel.game import Duel

__all__ = ["Duel"]
