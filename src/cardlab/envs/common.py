"""What the PettingZoo and Gymnasium adapters share: building a game from keyword config, the spaces,
and one seat's observation with its action mask."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from cardlab.core.encoding import Encoding
from cardlab.core.errors import CardlabError
from cardlab.core.game import Game, Player, State
from cardlab.games import game_class

SEATS = ("P1", "P2")


def make_game(game: str, config: Mapping[str, Any]) -> tuple[Game, Encoding, int]:
    """The game named `game` with `config` on top of its default config JSON, its encoding and action count;
    a CardlabError when the game has no encoding or no fixed action space."""
    cls = game_class(game)
    built = cls.from_config({**cls().config_json(), **config}) if config else cls()
    encoding = built.encoding()
    if encoding is None or built.num_actions is None:
        raise CardlabError(f"{game} has no observation encoding or no fixed action space for learning agents")
    return built, encoding, int(built.num_actions)


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


def legal_by_id(state: State, action_id: int) -> Any | None:
    """The legal action with this id, or None."""
    for action in state.legal_actions():
        if int(action) == int(action_id):
            return action
    return None


def returns(state: State) -> tuple[float, float]:
    """+1 / -1 for a win and a loss, 0 each for a draw; (0, 0) while the game runs."""
    return state.returns() if state.outcome() is not None else (0.0, 0.0)
