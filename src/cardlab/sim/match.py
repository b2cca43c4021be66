"""One game between two agents, recorded so that it can be replayed from its seed."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardlab.agents.base import Agent
from cardlab.core.game import Game
from cardlab.core.rng import derive_seed, make_rng


@dataclass
class GameRecord:
    """Everything needed to replay a game: the game's seed and every real choice."""

    game: str
    config: dict[str, Any]
    seed: int
    agents: tuple[str, str]
    actions: list[str] = field(default_factory=list)
    winner: int | None = None
    reason: str = ""
    turns: int = 0
    think_seconds: tuple[float, float] = field(default=(0.0, 0.0), compare=False)
    """Wall-clock seconds in each seat's `act` calls, for decision cost; a measurement, so not part of equality."""
    seat_decisions: tuple[int, int] = (0, 0)
    """How many decisions each seat made (they sum to `decisions`)."""

    @property
    def decisions(self) -> int:
        """Every decision of the game, counted even when its actions were not kept (`keep_actions`)."""
        return sum(self.seat_decisions)


def play_match(game: Game, agents: Sequence[Agent], seed: int, keep_actions: bool = True) -> GameRecord:
    """Play `agents[0]` as P1 against `agents[1]` as P2; each agent gets its own RNG stream.

    `keep_actions=False` leaves `actions` empty: for tallies that count results and never replay them.
    """
    state = game.new_state(seed, record_events=False)
    rngs = [make_rng(derive_seed(seed, "agent", seat)) for seat in (0, 1)]
    record = GameRecord(game.name, state.game.config_json(), seed, (agents[0].spec, agents[1].spec))
    seconds, counts = [0.0, 0.0], [0, 0]
    clock = time.perf_counter
    # An agent that chooses from the legal actions alone (`act_legal`, e.g. random) gets just those.
    legal_only = [getattr(agent, "act_legal", None) for agent in agents]
    current, legal, apply, kept = state.current_player, state.legal_actions, state.apply, record.actions
    while (player := current()) is not None:
        start = clock()
        choose = legal_only[player]
        if choose is not None:
            action = choose(legal(), rngs[player])
        else:
            action = agents[player].act(state.infoset(player), rngs[player])
        seconds[player] += clock() - start
        counts[player] += 1
        apply(action)
        if keep_actions:
            kept.append(str(action))
    record.think_seconds, record.seat_decisions = (seconds[0], seconds[1]), (counts[0], counts[1])
    outcome = state.outcome()
    assert outcome is not None
    record.winner, record.reason = outcome.winner, outcome.reason
    record.turns = state.turn_number()
    return record
