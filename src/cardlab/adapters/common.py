"""What the interfaces to outside libraries share: the seats, a game built from keyword config with its
encoding and action count, and a legal action by its id."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardlab.core.encoding import Encoding
from cardlab.core.errors import CardlabError
from cardlab.core.game import PLAYER_NAMES, Game, State
from cardlab.games import game_class

SEATS = PLAYER_NAMES


def make_game(game: str, config: Mapping[str, Any]) -> tuple[Game, Encoding, int]:
    """The game named `game` with `config` on top of its default config JSON, its encoding and action count;
    a CardlabError when the game has no encoding or no fixed action space."""
    cls = game_class(game)
    built = cls.from_config({**cls().config_json(), **config}) if config else cls()
    encoding = built.encoding()
    if encoding is None or built.num_actions is None:
        raise CardlabError(f"{game} has no observation encoding or no fixed action space for learning agents")
    return built, encoding, int(built.num_actions)


def legal_by_id(state: State, action_id: int) -> Any | None:
    """The legal action with this id, or None."""
    for action in state.legal_actions():
        if int(action) == int(action_id):
            return action
    return None
