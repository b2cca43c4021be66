"""Decision cost in head-to-heads: each agent's ms per decision, across the seat swap, on both engines."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from cardlab.agents import make_agent
from cardlab.cli import main
from cardlab.games.edelweiss import Edelweiss, EdelweissConfig
from cardlab.sim import engines
from cardlab.sim.engines import KernelGame, KernelRun
from cardlab.sim.headtohead import HeadToHead, pooled_decision_ms
from cardlab.sim.match import GameRecord, play_match


def _simulate(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["simulate", "edelweiss", "--json", "--workers", "1", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_play_match_times_each_seat_and_counts_its_decisions() -> None:
    game = Edelweiss(EdelweissConfig("skills", "symbolic", None))
    record = play_match(game, (make_agent("ismcts:iterations=15"), make_agent("random")), seed=4)
    assert sum(record.seat_decisions) == record.decisions and min(record.seat_decisions) > 0
    search, uniform = (
        seconds / count for seconds, count in zip(record.think_seconds, record.seat_decisions, strict=True)
    )
    # The search is clocked; random chooses from the legal actions alone and is not (`chooser`), so reads 0.
    assert search > 0 and uniform == 0


def test_records_stay_equal_whatever_their_timing() -> None:
    """Timing is a measurement: replays and worker-count checks compare games, not clocks."""
    one = GameRecord("edelweiss", {}, 1, ("random", "random"), ["A"], think_seconds=(0.1, 0.2))
    other = GameRecord("edelweiss", {}, 1, ("random", "random"), ["A"], think_seconds=(0.3, 0.4))
    assert one == other


def test_simulate_reports_each_agents_decision_cost_in_agent_order(capsys) -> None:
    """ismcts costs more per decision than heuristic whichever agent is named first (the seats swap every deal)."""
    first = _simulate(capsys, "--games", "6", "--agents", "ismcts:iterations=20,heuristic")
    second = _simulate(capsys, "--games", "6", "--agents", "heuristic,ismcts:iterations=20")
    assert len(first["decision_ms"]) == 2 and min(first["decision_ms"] + second["decision_ms"]) > 0
    assert first["decision_ms"][0] > 10 * first["decision_ms"][1]
    assert second["decision_ms"][1] > 10 * second["decision_ms"][0]


def test_random_is_not_clocked_and_reads_zero(capsys) -> None:
    """Random's choice is cheaper than the clock; it reads 0 while its opponent is still timed."""
    summary = _simulate(capsys, "--games", "4", "--agents", "random,heuristic")
    assert summary["decision_ms"][0] == 0 and summary["decision_ms"][1] > 0


def test_simulate_table_shows_ms_per_decision(capsys) -> None:
    assert main(["simulate", "edelweiss", "--games", "4", "--workers", "1", "--agents", "heuristic,random"]) == 0
    assert "ms/decision" in capsys.readouterr().out


def test_swapped_games_credit_each_seat_to_the_agent_in_it() -> None:
    tally = HeadToHead(("a", "b"))
    record = GameRecord("g", {}, 0, ("a", "b"), ["x"] * 4, winner=0, think_seconds=(0.004, 0.001))
    record.seat_decisions = (2, 2)
    tally.add_record(record, swapped=False)  # a in P1: 2 ms per decision, b 0.5
    swapped = GameRecord("g", {}, 0, ("b", "a"), ["x"] * 4, winner=0, think_seconds=(0.003, 0.008))
    swapped.seat_decisions = (1, 3)
    tally.add_record(swapped, swapped=True)  # b in P1 won: 1 decision of 3 ms; a in P2: 3 of 8/3 ms
    assert tally.wins == [1, 1] and tally.first_wins == 2 and tally.decisions == 8
    assert tally.decision_ms == pytest.approx([(4 + 8) / (2 + 3), (1 + 3) / (2 + 1)])


def test_kernel_batches_are_weighted_by_their_decisions() -> None:
    tally = HeadToHead(("a", "b"), "cpu")
    tally.add_kernel_run(KernelRun.of_games([KernelGame(0, "attack", 9, 100)], (1.0, 3.0), (50, 50)), swapped=False)
    tally.add_kernel_run(
        KernelRun.of_games([KernelGame(1, "attack", 9, 150)] * 2, (5.0, 2.0), (150, 150)), swapped=True
    )
    # a: 50 decisions at 1 ms (as P1), 150 at 2 ms (as P2); b: 50 at 3 ms, 150 at 5 ms.
    assert tally.decision_ms == pytest.approx([(50 + 300) / 200, (150 + 750) / 200])
    assert tally.wins == [3, 0] and tally.games == 3
    other = HeadToHead(("b", "c"), "cpu")
    other.add_kernel_run(KernelRun.of_games([KernelGame(0, "attack", 9, 200)], (9.0, 1.0), (100, 100)), swapped=False)
    pooled = pooled_decision_ms([tally, other], ["a", "b", "c"])
    assert pooled == pytest.approx({"a": 1.75, "b": (150 + 750 + 900) / 300, "c": 1.0})


def test_kernel_simulate_weights_both_seat_orders(capsys, monkeypatch) -> None:
    pytest.importorskip("numba")
    calls: list[tuple[tuple[str, str], int, int]] = []

    def fake_run(
        game: str,
        config: Mapping[str, Any],
        agents: tuple[str, str],
        games: int,
        seed: int,
        engine: str,
        **_: object,
    ) -> KernelRun:
        calls.append((agents, games, seed))
        ms = {"heuristic": 2.0, "random": 0.5}
        seat_decisions = (games * 5, games * 5)
        return KernelRun.of_games(
            [KernelGame(0, "attack", 9, 10)] * games, (ms[agents[0]] * len(calls), ms[agents[1]]), seat_decisions
        )

    monkeypatch.setattr(engines, "kernel_run", fake_run)
    summary = _simulate(capsys, "--games", "5", "--agents", "heuristic,random", "--engine", "cpu", "--seed", "7")
    assert calls == [(("heuristic", "random"), 3, 7), (("random", "heuristic"), 2, 7)]
    # heuristic: 15 decisions at 2 ms (batch 1, P1), 10 at 2 ms (batch 2, P2); random: 15 at 0.5, 10 at 1.0.
    assert summary["decision_ms"] == pytest.approx([2.0, (15 * 0.5 + 10 * 1.0) / 25])
    assert summary["wins"] == [3, 2]
