"""One game between two agents, recorded so that it can be replayed from its seed."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardlab.agents.base import Agent
from cardlab.core.game import Action, Game, State
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
    An agent that chooses from the legal actions alone (`chooser`, e.g. random) gets just those and is
    not clocked: its choice costs well under a microsecond, less than reading the clock twice, so its
    think time reads 0.
    """
    state = game.new_state(seed, record_events=False)
    rngs = [make_rng(derive_seed(seed, "agent", seat)) for seat in (0, 1)]
    record = GameRecord(game.name, state.game.config_json(), seed, (agents[0].spec, agents[1].spec))
    choosers = [_chooser(agent, rng) for agent, rng in zip(agents, rngs, strict=True)]
    first, second = choosers
    if first is not None and second is not None and not keep_actions:
        record.seat_decisions = _play_choosers(state, first, second)
    else:
        record.think_seconds, record.seat_decisions = _play(state, agents, choosers, rngs, record.actions, keep_actions)
    outcome = state.outcome()
    assert outcome is not None
    record.winner, record.reason = outcome.winner, outcome.reason
    record.turns = state.turn_number()
    return record


Chooser = Callable[[Sequence[Action]], Action]


def _chooser(agent: Agent, rng: random.Random) -> Chooser | None:
    bind = getattr(agent, "chooser", None)
    return None if bind is None else bind(rng)


def _play_choosers(state: State, first: Chooser, second: Chooser) -> tuple[int, int]:
    """The loop for two choosers from the legal actions, untimed and unrecorded: a tally's fast path."""
    current, legal, apply = state.current_player, state.legal_actions, state.apply
    counts = [0, 0]
    while (player := current()) is not None:
        apply(second(legal()) if player else first(legal()))
        counts[player] += 1
    return counts[0], counts[1]


def _play(
    state: State,
    agents: Sequence[Agent],
    choosers: list[Chooser | None],
    rngs: list[random.Random],
    kept: list[str],
    keep_actions: bool,
) -> tuple[tuple[float, float], tuple[int, int]]:
    """The general loop: each `act` call is clocked; returns think seconds and decisions per seat."""
    seconds, counts = [0.0, 0.0], [0, 0]
    clock = time.perf_counter
    current, legal, apply = state.current_player, state.legal_actions, state.apply
    while (player := current()) is not None:
        choose = choosers[player]
        if choose is not None:
            action = choose(legal())
        else:
            start = clock()
            action = agents[player].act(state.infoset(player), rngs[player])
            seconds[player] += clock() - start
        counts[player] += 1
        apply(action)
        if keep_actions:
            kept.append(str(action))
    return (seconds[0], seconds[1]), (counts[0], counts[1])
