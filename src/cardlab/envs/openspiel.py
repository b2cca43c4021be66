"""OpenSpiel games for every cardlab game, and cardlab agents as OpenSpiel bots (`pip install -e '.[openspiel]'`).

    import pyspiel, cardlab.envs.openspiel       # importing registers python_cardlab_<game> for every game
    game = pyspiel.load_game(f"python_cardlab_{GAME}(rule_first_draw=no)")   # GAME: a name `cardlab games` lists
    state = game.new_initial_state()             # a chance node: which deal
    state.apply_action(7)                        # deal 7 of `deals`; then the players' decisions
    state.information_state_tensor(0)            # P1's encoding (`Game.encoding()`): only what P1 may know

The games themselves are `cardlab.adapters.openspiel`'s (below the agents, which search through them; names
re-exported here); this module adds what plays or trains agents: `CardlabBot`, any cardlab agent as an
OpenSpiel bot, and `save_policy`, an MCCFR solver's average policy as a file for `openspiel:policy=FILE`
(docs/openspiel.md).
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import numpy as np
import pyspiel

from cardlab.adapters.openspiel import (
    ADAPTER_PARAMETERS,
    PREFIX,
    Observer,
    OpenSpielGame,
    OpenSpielState,
    _load_deal,  # noqa: F401 (states pickled before the adapter moved name it here)
    cardlab_game,
    game_type_class,
    openspiel_state,
    parameters,
    register_all,
    short_name,
)
from cardlab.adapters.policy import POLICY_FORMAT, infostate_key
from cardlab.agents import Agent
from cardlab.core.errors import CardlabError

__all__ = [
    "ADAPTER_PARAMETERS",
    "POLICY_FORMAT",
    "PREFIX",
    "CardlabBot",
    "Observer",
    "OpenSpielGame",
    "OpenSpielState",
    "cardlab_game",
    "game_type_class",
    "infostate_key",
    "openspiel_state",
    "parameters",
    "register_all",
    "save_policy",
    "short_name",
]


class CardlabBot(pyspiel.Bot):
    """A cardlab agent as an OpenSpiel bot (for `evaluate_bots`): it acts on the seat's `InfoSet` only."""

    def __init__(self, agent: Agent, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self.agent, self.rng = agent, random.Random(seed)

    def step(self, state: OpenSpielState) -> int:
        world = state.cardlab
        if world is None:
            raise CardlabError("a bot does not choose the deal")
        player = world.current_player()
        assert player is not None
        return int(self.agent.act(world.infoset(player), self.rng))

    def restart_at(self, state: OpenSpielState) -> None:
        return None

    def inform_action(self, state: OpenSpielState, player_id: int, action: int) -> None:
        return None


def save_policy(solver: Any, game: OpenSpielGame, path: str | os.PathLike[str]) -> int:
    """Write an MCCFR solver's average policy (`open_spiel.python.algorithms.mccfr`) for `openspiel:policy=FILE`;
    returns how many information states it holds. Read from the solver's table (information state ->
    [regrets, summed average strategy]): its `average_policy()` answers only for states it is handed."""
    table: dict[str, list[float]] = {}
    for text, (_, average) in solver._infostates.items():
        total = float(np.sum(average))
        if total > 0:
            table[infostate_key(text)] = [float(value) / total for value in average]
    data = {
        "format": POLICY_FORMAT,
        "game": game.game_name,
        "config": game.cardlab.config_json(),
        "openspiel_game": str(game),
        "policy": table,
    }
    with open(path, "w", encoding="utf-8") as file:
        json.dump(data, file, separators=(",", ":"))
    return len(table)
