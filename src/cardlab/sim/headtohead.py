"""Tallies of two agents over seat-swapped games: wins per agent, seat wins, and what their decisions cost.

`simulate` and `ladder` both play each deal twice with the seats swapped; a game played with the
seats swapped counts its P1 result for the second agent. Decision cost is pooled over both seats:
an agent's milliseconds per decision are its total think time over its total decisions.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cardlab.sim.match import GameRecord

if TYPE_CHECKING:
    from cardlab.sim.engines import KernelRun


@dataclass
class HeadToHead:
    """Running totals of one pairing of agents; `agents[0]` is P1 in unswapped games."""

    agents: tuple[str, str]
    engine: str = "reference"
    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    first_wins: int = 0
    decisions: int = 0
    think_ms: list[float] = field(default_factory=lambda: [0.0, 0.0])
    """Total milliseconds each agent spent deciding (kernel batches: from `KernelRun.decision_ms`)."""
    timed_decisions: list[float] = field(default_factory=lambda: [0.0, 0.0])
    """The decisions `think_ms` covers, per agent."""

    def add_game(self, winner_seat: int | None, decisions: int, swapped: bool) -> None:
        """Count one result; `winner_seat` None is a draw (a game for both, a win for neither)."""
        self.games += 1
        self.decisions += decisions
        if winner_seat is None:
            self.draws += 1
            return
        self.first_wins += winner_seat == 0
        self.wins[winner_seat ^ swapped] += 1

    def add_record(self, record: GameRecord, swapped: bool) -> None:
        """A reference-engine game, with each seat's timed `act` calls credited to the agent in it."""
        self.add_game(record.winner, record.decisions, swapped)
        for seat in (0, 1):
            self.think_ms[seat ^ swapped] += record.think_seconds[seat] * 1000.0
            self.timed_decisions[seat ^ swapped] += record.seat_decisions[seat]

    def add_kernel_run(self, run: KernelRun, swapped: bool) -> None:
        """A kernel batch, counted from its columns: each seat's mean ms weighted by that seat's decisions."""
        p1_wins, p2_wins = int((run.winner == 0).sum()), int((run.winner == 1).sum())
        self.games += len(run)
        self.decisions += int(run.decisions.sum())
        self.draws += len(run) - p1_wins - p2_wins
        self.first_wins += p1_wins
        self.wins[swapped] += p1_wins
        self.wins[1 - swapped] += p2_wins
        for seat in (0, 1):
            self.think_ms[seat ^ swapped] += run.decision_ms[seat] * run.seat_decisions[seat]
            self.timed_decisions[seat ^ swapped] += run.seat_decisions[seat]

    @property
    def decision_ms(self) -> list[float]:
        """Mean wall-clock ms per decision of each agent, both seats pooled (0.0 before any decision)."""
        return [ms / count if count else 0.0 for ms, count in zip(self.think_ms, self.timed_decisions, strict=True)]


def pooled_decision_ms(tallies: Iterable[HeadToHead], agents: Iterable[str]) -> dict[str, float]:
    """Each agent's ms per decision over all the pairings it played, weighted by decisions."""
    ms: dict[str, float] = dict.fromkeys(agents, 0.0)
    counts: dict[str, float] = dict.fromkeys(ms, 0.0)
    for tally in tallies:
        for index, agent in enumerate(tally.agents):
            ms[agent] += tally.think_ms[index]
            counts[agent] += tally.timed_decisions[index]
    return {agent: ms[agent] / counts[agent] if counts[agent] else 0.0 for agent in ms}
