"""What the PettingZoo and Gymnasium adapters share: building a game from keyword config, the spaces,
and one seat's observation with its action mask (the first and a legal action by id from `cardlab.adapters.common`,
which the OpenSpiel game shares too)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from cardlab.adapters.common import SEATS, legal_by_id, make_game
from cardlab.core.encoding import Encoding
from cardlab.core.game import Player, State

__all__ = ["SEATS", "action_mask", "legal_by_id", "make_game", "returns", "spaces"]


def spaces(encoding: Encoding, actions: int) -> tuple[Any, Any]:
    """(observation Box, action Discrete): values are unbounded floats (counts are scaled, not clipped)."""
    from gymnasium import spaces as gym_spaces

    box = gym_spaces.Box(low=-np.inf, high=np.inf, shape=encoding.shape, dtype=np.float32)
    return box, gym_spaces.Discrete(actions)


def action_mask(state: State, player: Player, actions: int) -> npt.NDArray[np.int8]:
    """1 for each legal action id when `player` is to move; all 0 otherwise."""
    mask = np.zeros(actions, dtype=np.int8)
    if state.current_player() == player:
        mask[[int(action) for action in state.legal_actions()]] = 1
    return mask


def returns(state: State) -> tuple[float, float]:
    """+1 / -1 for a win and a loss, 0 each for a draw; (0, 0) while the game runs."""
    return state.returns() if state.outcome() is not None else (0.0, 0.0)
