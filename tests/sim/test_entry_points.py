"""The commands' logic as library calls (`cardlab.sim.simulate.simulate`, `cardlab.sim.balance.play_balance`),
so a notebook gets the same numbers as `cardlab simulate --json` and the same stored games as `cardlab balance`."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from cardlab.cli import main
from cardlab.core.errors import CardlabError
from cardlab.games.edelweiss import Edelweiss, EdelweissConfig
from cardlab.sim.balance import BalanceSetup, Played, matchups_for, play_balance
from cardlab.sim.simulate import simulate
from cardlab.sim.tasks import GameTask, TaskResult
from cardlab.sim.tournament import run_tasks
from cardlab.store import GamesDB

TIMING = ("seconds", "games_per_second", "decision_ms")


def test_the_library_call_is_the_commands_json(capsys) -> None:
    argv = ["simulate", "edelweiss", "--deck", "short", "--agents", "heuristic,random", "--games", "30", "--seed", "4"]
    assert main([*argv, "--workers", "1", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    called = simulate(Edelweiss(EdelweissConfig(deck="short")), ("heuristic", "random"), 30, seed=4)
    assert {k: v for k, v in called.items() if k not in TIMING} == {k: v for k, v in printed.items() if k not in TIMING}
    assert sum(called["wins"]) + called["draws"] == 30 and called["wins"][0] > called["wins"][1]


def test_each_deal_is_played_with_the_seats_swapped() -> None:
    """Two games per deal: with the same agent in both seats, swapping them changes nothing, so every deal's
    two games have one result, and the first player's wins come in pairs."""
    summary = simulate(Edelweiss(EdelweissConfig(deck="short")), ("heuristic", "heuristic"), 40, seed=1)
    assert summary["seat_wins"]["P1"] % 2 == 0 and summary["wins"][0] == summary["wins"][1]


def test_no_games_is_refused() -> None:
    with pytest.raises(CardlabError, match="at least 1"):
        simulate(Edelweiss(), ("random", "random"), 0)


def test_play_balance_stores_what_the_command_stores(tmp_path: Path) -> None:
    argv = ["balance", "edelweiss", "--standard", "accel2", "--games", "3", "--workers", "1", "--engine", "reference",
            "--agent", "random"]  # fmt: skip
    assert main([*argv, "--db", str(tmp_path / "cli.sqlite"), "--out", str(tmp_path / "out")]) == 0
    setup = BalanceSetup(matchups_for("edelweiss", "accel2"), "random", 3)
    played = Played()
    with GamesDB(tmp_path / "lib.sqlite") as db:
        assert play_balance(db, setup, "reference", _serial, played=played) == 15 * 2 * 3 == played.games
        called = sorted(
            (g.cell, g.game_index, g.seat, g.seed, g.winner) for g in db.games("edelweiss", "accel2", "random")
        )
        assert play_balance(db, setup, "reference", _serial) == 90  # another run: new games, the next indices
    with GamesDB(tmp_path / "cli.sqlite") as db:
        stored = sorted(
            (g.cell, g.game_index, g.seat, g.seed, g.winner) for g in db.games("edelweiss", "accel2", "random")
        )
    assert called == stored


def _serial(tasks: Sequence[GameTask]) -> Iterator[TaskResult]:
    return run_tasks(tasks, workers=1)
