"""The game-agnostic protocol every cardlab game and agent speaks."""

from cardlab.core.errors import CardlabError, IllegalActionError, PositionError
from cardlab.core.events import Event, EventLog
from cardlab.core.game import (
    PLAYER_NAMES,
    Action,
    Game,
    HiddenGroup,
    InfoSet,
    Outcome,
    Player,
    StaleInfoSetError,
    State,
    canonical_world,
    parse_player,
    player_name,
    sample_world,
)
from cardlab.core.rng import derive_seed, make_rng

__all__ = [
    "PLAYER_NAMES",
    "Action",
    "CardlabError",
    "Event",
    "EventLog",
    "Game",
    "HiddenGroup",
    "IllegalActionError",
    "InfoSet",
    "Outcome",
    "Player",
    "PositionError",
    "StaleInfoSetError",
    "State",
    "canonical_world",
    "derive_seed",
    "make_rng",
    "parse_player",
    "player_name",
    "sample_world",
]
