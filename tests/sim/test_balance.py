"""The balance lab: common-random-number seats, the summary's numbers, the database round trip."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardlab.cli import main
from cardlab.games.edelweiss.cards import CHARACTER_IDS
from cardlab.sim import balance
from cardlab.sim.balance import BalanceSetup, balance_tasks, matchups_for, pairings, store_as_played, summarize
from cardlab.sim.tasks import TaskResult
from cardlab.sim.tournament import run_tasks
from cardlab.store.games_db import StoredGame

SYMBOLIC = matchups_for("edelweiss", "symbolic")


def test_fifteen_pairings_and_six_mirrors() -> None:
    assert len(pairings(CHARACTER_IDS, False)) == 15
    assert len(pairings(CHARACTER_IDS, True)) == 21
    assert pairings(CHARACTER_IDS, False)[0] == ("GARU", "ACCELA")


def test_aterial_matchups_pair_every_deck_with_every_leader() -> None:
    matchups = matchups_for("aterial", None)
    assert len(matchups.entrants) == 10 and "D2/L03" in matchups.entrants
    assert matchups.config("D1/L02", "D2/L05") == {"decks": {"P1": "D1", "P2": "D2"},
                                                    "leaders": {"P1": "L02", "P2": "L05"}, "first": "P1",
                                                    "cards": None}  # fmt: skip


def test_tasks_swap_seats_on_the_same_deal() -> None:
    setup = BalanceSetup(matchups_for("edelweiss", "accel2"), "heuristic", games_per_cell=3, seed=5, mirrors=True)
    tasks = balance_tasks(setup, lambda cell: 10 if cell == "GARU-ACCELA" else 0)
    assert len(tasks) == 21 * 3 * 2
    first, second = tasks[0], tasks[1]
    assert first.labels == {"cell": "GARU-ACCELA", "index": 10, "seat": 0, "p1": "GARU", "p2": "ACCELA"}
    assert second.labels["seat"] == 1 and (second.labels["p1"], second.labels["p2"]) == ("ACCELA", "GARU")
    assert first.seed == second.seed  # common random numbers: the same shuffle for both seats
    assert first.config == {"deck": "skills", "standard": "accel2", "characters": {"P1": "GARU", "P2": "ACCELA"}}
    mirror = [task for task in tasks if task.labels["cell"] == "EAGLE-EAGLE"]
    assert mirror[0].seed != mirror[1].seed  # a mirror swap would replay the same game
    assert len({task.seed for task in tasks if task.labels["seat"] == 0}) == 21 * 3


def test_tasks_come_round_by_round_so_a_stopped_run_leaves_the_cells_even() -> None:
    setup = BalanceSetup(matchups_for("edelweiss", "accel2"), "heuristic", games_per_cell=3, seed=5)
    done = {("GARU-ACCELA", 10, 0), ("GARU-ACCELA", 10, 1)}  # an interrupted run stored this pair already
    tasks = balance_tasks(setup, lambda cell: 10 if cell == "GARU-ACCELA" else 0, done=done)
    first_round = tasks[: 14 * 2]  # every other cell's first game, both seats, before any cell's second
    assert len({(task.labels["cell"], task.labels["seat"]) for task in first_round}) == 14 * 2
    assert {task.labels["index"] for task in first_round} == {0}
    assert (tasks[28].labels["cell"], tasks[28].labels["index"]) == ("GARU-ACCELA", 11)
    assert [task.labels["index"] for task in tasks if task.labels["cell"] == "GARU-ACCELA"] == [11, 11, 12, 12]


def _game(cell: str, index: int, seat: int, winner: int) -> StoredGame:
    a, b = cell.split("-")
    p1, p2 = (a, b) if seat == 0 else (b, a)
    return StoredGame("edelweiss", "symbolic", "heuristic", "exp", cell, index, seat, p1, p2, index, winner,
                      "attack", 9, 12, ())  # fmt: skip


def test_summary_counts_and_intervals_on_known_games() -> None:
    # GARU-EAGLE: GARU first wins 8 of 10; GARU second wins 3 of 10 (P2 wins 3 times).
    games = [_game("GARU-EAGLE", i, 0, 0 if i < 8 else 1) for i in range(10)]
    games += [_game("GARU-EAGLE", i, 1, 1 if i < 3 else 0) for i in range(10)]
    summary = summarize(games, SYMBOLIC, "heuristic", bootstrap=50)
    (pairing,) = summary["pairings"]
    assert (pairing["a"], pairing["b"]) == ("GARU", "EAGLE")
    assert (pairing["a_first_wins"], pairing["a_first_games"]) == (8, 10)
    assert (pairing["a_second_wins"], pairing["a_second_games"]) == (3, 10)
    assert pairing["a_first_ci95"] == pytest.approx([0.4902, 0.9433], abs=1e-4)  # Wilson 8/10
    assert summary["first_player"]["wins"] == 8 + 7 and summary["first_player"]["games"] == 20
    assert summary["characters"]["GARU"] == {"wins": 11, "games": 20, "ci95": pytest.approx([0.3421, 0.7418], abs=1e-4)}
    assert summary["characters"]["EAGLE"]["wins"] == 9
    assert summary["bradley_terry"]["GARU"]["strength"] > summary["bradley_terry"]["EAGLE"]["strength"]
    assert summary["games_per_cell"] == 10
    assert summary["matrix"]["win_rate"][0][5] == pytest.approx(11 / 20)
    assert summary["matrix"]["win_rate"][5][0] == pytest.approx(9 / 20)


def test_significance_is_corrected_for_the_number_of_cells() -> None:
    lopsided = [_game("GARU-EAGLE", i, 0, 0) for i in range(40)] + [_game("GARU-EAGLE", i, 1, 0) for i in range(40)]
    borderline = [_game("RAIHA-VERDI", i, seat, 0 if i < 14 else 1) for i in range(20) for seat in (0, 1)]
    summary = summarize(lopsided + borderline, SYMBOLIC, "heuristic", bootstrap=20)
    cells = {(p["a"], p["b"]): p for p in summary["pairings"]}
    assert cells[("GARU", "EAGLE")]["a_first_significant"]  # 40/40
    # 14/20 has p = 0.115 on its own: not significant, with or without correction.
    assert not cells[("RAIHA", "VERDI")]["a_first_significant"]
    assert summary["significance"]["correction"] == "Holm-Bonferroni over 4 cells"
    assert "GARU vs EAGLE (GARU first)" in summary["significance"]["significant_cells"]


def test_balance_run_appends_to_the_database_and_report_rebuilds_it(tmp_path: Path, capsys) -> None:
    db, out, again = tmp_path / "games.sqlite", tmp_path / "run", tmp_path / "report"
    argv = ["balance", "edelweiss", "--standard", "accel2", "--games", "2", "--workers", "1", "--db", str(db),
            "--agent", "heuristic", "--engine", "reference"]  # fmt: skip
    assert main([*argv, "--out", str(out)]) == 0
    first = json.loads((out / "summary.json").read_text())
    assert first["games_per_cell"] == 2 and first["total_games"] == 60
    assert main([*argv, "--out", str(out)]) == 0  # a second run adds games, new seeds
    second = json.loads((out / "summary.json").read_text())
    assert second["games_per_cell"] == 4 and second["total_games"] == 120

    report = ["report", "edelweiss", "--standard", "accel2", "--agent", "heuristic", "--db", str(db)]
    assert main([*report, "--out", str(again)]) == 0
    assert json.loads((again / "summary.json").read_text()) == second
    assert (again / "results.csv").read_text() == (out / "results.csv").read_text()
    for name in ("heatmap.png", "report.html"):
        assert (again / name).stat().st_size > 1000
    assert (again / "heatmap.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    html = (again / "report.html").read_text()
    assert "data:image/png;base64," in html and "GARU vs ACCELA" in html
    assert len((out / "results.csv").read_text().splitlines()) == 1 + 120

    summary = second
    assert {"game", "standard", "agent", "games_per_cell", "pairings", "first_player", "characters",
            "bradley_terry"} <= set(summary)  # fmt: skip
    assert set(summary["pairings"][0]) >= {"a", "b", "a_first_wins", "a_first_games", "a_second_wins",
                                           "a_second_games", "a_first_ci95", "a_second_ci95"}  # fmt: skip
    assert set(summary["first_player"]) >= {"wins", "games", "ci95"}
    assert set(summary["characters"]["GARU"]) == {"wins", "games", "ci95"}
    assert set(summary["bradley_terry"]["GARU"]) == {"strength", "ci95"}
    printed = capsys.readouterr().out
    assert "GARU vs ACCELA" in printed and "First player:" in printed and "Bradley" in printed


def test_report_without_games_is_a_clear_error(tmp_path: Path, capsys) -> None:
    assert main(["report", "edelweiss", "--db", str(tmp_path / "empty.sqlite"), "--out", str(tmp_path / "o")]) == 2
    assert "no stored games" in capsys.readouterr().err


def test_the_default_table_agent_is_the_games_strong_one(tmp_path: Path, capsys, monkeypatch) -> None:
    """Edelweiss tables default to the compiled search on the kernel (docs/balance.md); without the
    fast extra they fall back to the heuristic and say what that table reflects."""
    import sys

    pytest.importorskip("numba")
    from cardlab.games.edelweiss.lab import STRONG_AGENT

    db, out = tmp_path / "g.sqlite", tmp_path / "out"
    assert main(["balance", "edelweiss", "--games", "1", "--db", str(db), "--out", str(out)]) == 0
    assert json.loads((out / "summary.json").read_text())["agent"] == STRONG_AGENT
    assert "cpu engine" in capsys.readouterr().out
    monkeypatch.setitem(sys.modules, "cardlab.games.edelweiss.fast.search", None)  # as if the extra were missing
    assert main(["balance", "edelweiss", "--games", "1", "--workers", "1", "--db", str(db), "--out", str(out)]) == 0
    assert json.loads((out / "summary.json").read_text())["agent"] == "heuristic"
    printed = capsys.readouterr().out
    assert "note: this table is played by the heuristic agent" in printed and "fast extra" in printed


class _Batches:
    """A games database that only records the size of each batch it is given."""

    def __init__(self) -> None:
        self.sizes: list[int] = []

    def add(self, games: list[StoredGame]) -> int:
        self.sizes.append(len(games))
        return len(games)


def test_slow_games_are_stored_every_half_minute_not_every_200(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under search a game takes ~20 s: 200 games are an hour that a killed run would lose."""
    setup = BalanceSetup(SYMBOLIC, "random", games_per_cell=1)
    clock = [0.0]
    monkeypatch.setattr(balance.time, "monotonic", lambda: clock[0])

    def slow(results: list[TaskResult]) -> Iterator[TaskResult]:
        for result in results:
            clock[0] += 20.0
            yield result

    db = _Batches()
    results = list(run_tasks(balance_tasks(setup, lambda cell: 0), workers=1))
    assert store_as_played(db, slow(results), setup) == 30  # type: ignore[arg-type]
    assert db.sizes == [2] * 15 + [0]
    fast = _Batches()
    assert store_as_played(fast, iter(results), setup, every=8) == 30  # type: ignore[arg-type]
    assert fast.sizes == [8, 8, 8, 6]
