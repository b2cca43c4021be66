"""`cardlab compare`: two agents' balance tables cell by cell, the statistics, the stored validation."""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardlab.cli import main
from cardlab.sim import engines
from cardlab.sim.balance import matchups_for
from cardlab.sim.compare import (
    NO_DIFFERENCE,
    compare_tables,
    missing_games,
    resolution_pp,
    top_up,
    validation_for,
    verdict,
)
from cardlab.sim.engines import KernelGame, KernelRun
from cardlab.sim.stats import detectable_difference, holm_adjusted, newcombe_interval, two_proportion_z_test
from cardlab.sim.tournament import run_tasks
from cardlab.store.games_db import GamesDB, StoredGame
from tests.sim.runners import stopped_after

SYMBOLIC = matchups_for("edelweiss", "symbolic")
CELLS = 15 * 2


# --- statistics ---------------------------------------------------------------------------------------------


def test_newcombe_interval_matches_the_published_example() -> None:
    # Newcombe (1998), example (a): 56/70 vs 48/80, method 10: 0.0524 to 0.3339 for p1 - p2. By hand from the
    # Wilson intervals [0.6918, 0.8770] and [0.4905, 0.7004]: 0.2 - hypot(0.1082, 0.1004), 0.2 + hypot(0.0770, 0.1095).
    assert newcombe_interval(48, 80, 56, 70) == pytest.approx((0.0524, 0.3339), abs=1e-4)
    low, high = newcombe_interval(56, 70, 48, 80)  # the other way round: the interval for -diff
    assert (low, high) == pytest.approx((-0.3339, -0.0524), abs=1e-4)


def test_newcombe_interval_covers_the_true_difference_about_95_percent_of_the_time() -> None:
    rng = np.random.default_rng(11)
    for rate_a, rate_b, games_a, games_b in ((0.45, 0.55, 60, 80), (0.9, 0.97, 200, 150)):
        wins_a = rng.binomial(games_a, rate_a, size=3000)
        wins_b = rng.binomial(games_b, rate_b, size=3000)
        covered = [
            low <= rate_b - rate_a <= high
            for low, high in (
                newcombe_interval(int(a), games_a, int(b), games_b) for a, b in zip(wins_a, wins_b, strict=True)
            )
        ]
        assert 0.93 <= np.mean(covered) <= 0.975


def test_pooled_z_test_matches_a_hand_computation() -> None:
    # 15/50 vs 25/50: pooled 0.4, se = sqrt(0.4 * 0.6 * 2 / 50), z = 0.2 / se = 2.0412, p = 2 * (1 - Phi(z)).
    assert two_proportion_z_test(15, 50, 25, 50) == pytest.approx(0.04123, abs=1e-5)
    assert two_proportion_z_test(25, 50, 15, 50) == two_proportion_z_test(15, 50, 25, 50)
    assert two_proportion_z_test(7, 30, 7, 30) == 1.0
    assert two_proportion_z_test(0, 30, 0, 40) == 1.0  # no spread at all: nothing to test


def test_pooled_z_test_holds_its_level_under_the_null() -> None:
    rng = np.random.default_rng(5)
    wins_a, wins_b = rng.binomial(120, 0.4, size=4000), rng.binomial(90, 0.4, size=4000)
    rejected = np.mean(
        [two_proportion_z_test(int(a), 120, int(b), 90) < 0.05 for a, b in zip(wins_a, wins_b, strict=True)]
    )
    assert 0.035 <= rejected <= 0.065


def _games(agent: str, cell: str, seat: int, wins: int, played: int) -> list[StoredGame]:
    """`played` games of one cell and seat in which the first-named entrant wins `wins`."""
    a, b = cell.split("-")
    p1, p2 = (a, b) if seat == 0 else (b, a)
    template = StoredGame("edelweiss", "symbolic", agent, "exp", cell, 0, seat, p1, p2, 0, seat, "attack", 9, 12, ())
    return [replace(template, game_index=i, seed=i, winner=seat if i < wins else 1 - seat) for i in range(played)]


def _table(agent: str, changes: Mapping[tuple[str, int], int]) -> list[StoredGame]:
    """40 games per cell and seat, 20 won by the first-named entrant unless `changes` says otherwise."""
    games = []
    for a, b in [(a, b) for i, a in enumerate(SYMBOLIC.entrants) for b in SYMBOLIC.entrants[i + 1 :]]:
        for seat in (0, 1):
            games += _games(agent, f"{a}-{b}", seat, changes.get((f"{a}-{b}", seat), 20), 40)
    return games


def test_cells_are_tested_together_with_holm() -> None:
    """A difference significant on its own (p ~ 0.007) is not among 30 cells; a huge one is."""
    a = _table("x", {})
    b = _table("y", {("GARU-EAGLE", 0): 40, ("GARU-ACCELA", 1): 32})
    summary = compare_tables(a, b, SYMBOLIC, ("x", "y"))
    cells = {(cell["pairing"], cell["seat"]): cell for cell in summary["cells"]}
    assert len(cells) == CELLS
    lopsided, borderline = cells[("GARU-EAGLE", 0)], cells[("GARU-ACCELA", 1)]
    assert lopsided["diff"] == pytest.approx(0.5) and lopsided["significant"]
    assert borderline["diff"] == pytest.approx(0.3) and borderline["p_value"] < 0.01
    assert borderline["ci95"][0] > 0  # its own interval excludes 0 ...
    assert not borderline["significant"]  # ... but Holm over 30 cells does not reject it
    p_values = [cell["p_value"] for cell in summary["cells"]]
    assert [cell["p_holm"] for cell in summary["cells"]] == holm_adjusted(p_values)
    assert summary["significant_cells"] == 1 and summary["verdict"] == "1 cell differs: GARU vs EAGLE (GARU first)"
    assert summary["max_abs_diff"] == pytest.approx(0.5)
    assert summary["max_abs_diff_cell"] == {"pairing": "GARU-EAGLE", "seat": 0}
    assert lopsided["a_rate"] == 0.5 and lopsided["b_rate"] == 1.0 and lopsided["p1"] == "GARU"


def test_each_entrant_is_totalled_over_its_pairings_and_seats() -> None:
    """GARU wins every game of one cell under y: 40 more wins out of its 400, the others unchanged or down."""
    a = _table("x", {})
    b = _table("y", {("GARU-EAGLE", 0): 40})
    mirror = _games("y", "GARU-GARU", 0, 30, 30)  # a mirror is both a win and a loss: left out
    entrants = {row["entrant"]: row for row in compare_tables(a, b + mirror, SYMBOLIC, ("x", "y"))["entrants"]}
    assert set(entrants) == set(SYMBOLIC.entrants)
    garu, eagle, raiha = entrants["GARU"], entrants["EAGLE"], entrants["RAIHA"]
    assert (garu["a_wins"], garu["a_games"], garu["b_wins"], garu["b_games"]) == (200, 400, 220, 400)
    assert garu["diff"] == pytest.approx(0.05) and garu["ci95"][0] < 0.05 < garu["ci95"][1]
    assert (eagle["b_wins"], eagle["b_games"]) == (180, 400) and raiha["diff"] == 0.0
    assert garu["p_value"] == pytest.approx(two_proportion_z_test(200, 400, 220, 400))
    assert not any(row["significant"] for row in entrants.values())  # 5 points on 400 games is within noise
    # A cell only one agent played (a stopped run) counts in neither agent's totals.
    b_short = [game for game in b if (game.cell, game.seat) != ("RAIHA-VERDI", 0)]
    summary = compare_tables(a, b_short, SYMBOLIC, ("x", "y"))
    short = {row["entrant"]: row for row in summary["entrants"]}
    assert summary["unmatched_cells"] == [{"pairing": "RAIHA-VERDI", "seat": 0, "a_games": 40, "b_games": 0}]
    assert short["RAIHA"]["a_games"] == short["RAIHA"]["b_games"] == 360 and short["GARU"]["a_games"] == 400
    assert summary["first_player"][0]["games"] == summary["first_player"][1]["games"] == 1160
    first_a, first_b = compare_tables(a, b + mirror, SYMBOLIC, ("x", "y"))["first_player"]
    assert (first_a["wins"], first_a["games"], first_b["wins"], first_b["games"]) == (600, 1200, 620, 1200)
    ranked = compare_tables(a, b, SYMBOLIC, ("x", "y"))["entrants"]
    assert ranked[0]["entrant"] == "GARU" and ranked[-1]["entrant"] == "EAGLE"  # by the second agent's rate


def test_identical_tables_find_no_difference_and_say_the_tests_resolution() -> None:
    """40 games a cell and seat on each side, 30 cells: the Holm-corrected z-test cannot flag less than
    z(1 - 0.05/60) * sqrt(0.25 * 2/40) = 3.1440 * 0.1118 = 35.2 points, and the verdict says so, never 'converged'."""
    table = _table("x", {("RAIHA-VERDI", 0): 31})
    summary = compare_tables(table, table, SYMBOLIC, ("x", "x"))
    assert summary["resolution_pp"] == pytest.approx(35.15, abs=0.01)
    assert summary["verdict"] == "no difference found, resolution ±35.2 pp"
    assert summary["verdict"].startswith(NO_DIFFERENCE) and "converged" not in json.dumps(summary)
    assert summary["max_abs_diff"] == 0.0 and summary["significant_cells"] == 0
    assert all(cell["diff"] == 0.0 and cell["p_value"] == 1.0 for cell in summary["cells"])
    named = [f"C{i}" for i in range(6)]
    assert verdict(named[:1], 3.0) == "1 cell differs: C0"
    assert verdict(named, 3.0) == "6 cells differ: C0, C1, C2, C3 and 2 more"
    assert verdict([], 9.96) == "no difference found, resolution ±10.0 pp"


def test_the_resolution_is_the_smallest_difference_the_test_flags() -> None:
    """At 40 games a side over 30 cells the bound is 35.2 points: one cell 37.5 points apart (12/40 vs 27/40,
    near 50%) is flagged, one 35 points apart (13/40 vs 27/40) is not; the least-played cell sets the bound."""
    assert 100 * detectable_difference(40, 40, 30) == pytest.approx(35.15, abs=0.01)
    assert 100 * detectable_difference(10, 10, 30) == pytest.approx(70.3, abs=0.1)  # 10 games: no resolution
    assert 100 * detectable_difference(1000, 1000, 30) == pytest.approx(7.03, abs=0.01)
    base = _table("x", {("GARU-EAGLE", 0): 12})
    flagged = compare_tables(base, _table("y", {("GARU-EAGLE", 0): 27}), SYMBOLIC, ("x", "y"))
    missed = compare_tables(_table("x", {("GARU-EAGLE", 0): 13}), _table("y", {("GARU-EAGLE", 0): 27}), SYMBOLIC,
                            ("x", "y"))  # fmt: skip
    assert flagged["significant_cells"] == 1 and flagged["max_abs_diff"] == pytest.approx(0.375)
    assert missed["significant_cells"] == 0 and missed["max_abs_diff"] == pytest.approx(0.35)
    assert missed["verdict"] == "no difference found, resolution ±35.2 pp"
    short = [game for game in base if not (game.cell == "GARU-RAIHA" and game.seat == 1 and game.game_index >= 10)]
    assert compare_tables(short, base, SYMBOLIC, ("x", "x"))["resolution_pp"] == pytest.approx(
        100 * detectable_difference(10, 40, 30)
    )
    assert resolution_pp([]) is None


def test_missing_games_top_each_pairing_up_to_the_lower_seat() -> None:
    games = (
        _games("x", "GARU-EAGLE", 0, 3, 7) + _games("x", "GARU-EAGLE", 1, 3, 5) + _games("x", "GARU-RAIHA", 0, 1, 12)
    )
    missing = missing_games(games, SYMBOLIC, 10, mirrors=False)
    assert len(missing) == 15
    assert missing["GARU-EAGLE"] == 5 and missing["GARU-RAIHA"] == 10 and missing["VERDI-EAGLE"] == 10
    assert missing_games(games, SYMBOLIC, 4, mirrors=False)["GARU-EAGLE"] == 0


# --- the command --------------------------------------------------------------------------------------------


def _compare(capsys: pytest.CaptureFixture[str], db: Path, out: Path, agents: str, *argv: str) -> dict[str, Any]:
    base = ["compare", "edelweiss", "--agents", agents, "--workers", "1", "--db", str(db), "--out", str(out)]
    assert main([*base, *argv]) == 0
    capsys.readouterr()
    return json.loads((out / "comparison.json").read_text())


def _counts(db: Path, agent: str) -> dict[tuple[str, int], list[int]]:
    with GamesDB(db) as store:
        games = list(store.games("edelweiss", "symbolic", agent))
    counts: dict[tuple[str, int], list[int]] = {}
    for game in games:
        counts.setdefault((game.cell, game.seat), []).append(game.game_index)
    return counts


def test_an_agent_compared_with_itself_converges(tmp_path: Path, capsys) -> None:
    db, out = tmp_path / "g.sqlite", tmp_path / "self"
    summary = _compare(capsys, db, out, "heuristic,heuristic", "--games", "6")
    assert {"cells", "max_abs_diff", "significant_cells", "verdict", "agents", "game", "variant"} <= set(summary)
    assert summary["agents"] == ["heuristic", "heuristic"] and summary["variant"] == "symbolic"
    # 6 games a cell cannot resolve anything: the verdict says how little it can tell, not "converged"
    assert summary["verdict"] == f"no difference found, resolution ±{summary['resolution_pp']:.1f} pp"
    assert summary["resolution_pp"] > 50 and summary["significant_cells"] == 0
    assert summary["max_abs_diff"] == 0.0 and len(summary["cells"]) == CELLS
    for cell in summary["cells"]:
        assert {"pairing", "seat", "a_rate", "b_rate", "diff", "ci95", "significant"} <= set(cell)
        assert cell["diff"] == 0.0 and cell["a_games"] == cell["b_games"] == 6
        assert cell["ci95"][0] < 0 < cell["ci95"][1]
    assert all(len(indices) == 6 for indices in _counts(db, "heuristic").values())  # played once, not per side
    assert [row["diff"] for row in summary["entrants"]] == [0.0] * 6
    assert all(row["a_games"] == 5 * 2 * 6 for row in summary["entrants"])  # 5 opponents, 2 seats, 6 games
    page = (out / "comparison.html").read_text()
    assert "data:image/png;base64," in page and summary["verdict"] in page and "converged" not in page
    assert f"resolution ±{summary['resolution_pp']:.1f} pp: the smallest difference of a cell" in page
    assert "Each character overall" in page and "GARU" in page and "The player in P1 wins: heuristic" in page
    assert (out / "difference.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with GamesDB(db) as store:
        (stored,) = store.comparisons("edelweiss", "symbolic", "heuristic")
        assert stored.summary["verdict"] == summary["verdict"] and stored.created == summary["created"]
        assert validation_for(store, "edelweiss", "symbolic", "heuristic") is None  # itself validates nothing


def test_random_and_heuristic_tables_differ_and_the_report_says_so(tmp_path: Path, capsys) -> None:
    db, out = tmp_path / "g.sqlite", tmp_path / "cmp"
    summary = _compare(capsys, db, out, "random,heuristic", "--games", "80")
    count = summary["significant_cells"]
    differing = [cell for cell in summary["cells"] if cell["significant"]]
    a, b = differing[0]["pairing"].split("-")
    assert count >= 1 and summary["verdict"].startswith(f"{count} cell{'s differ' if count > 1 else ' differs'}: ")
    assert f"{a} vs {b} ({a} {'first' if differing[0]['seat'] == 0 else 'second'})" in summary["verdict"]
    assert count == sum(cell["significant"] for cell in summary["cells"])
    assert summary["max_abs_diff"] == max(abs(cell["diff"]) for cell in summary["cells"]) > 0.15
    for cell in summary["cells"]:
        assert cell["diff"] == pytest.approx(cell["b_rate"] - cell["a_rate"])
        assert cell["ci95"][0] <= cell["diff"] <= cell["ci95"][1]

    report = tmp_path / "report"
    assert main(["report", "edelweiss", "--agent", "heuristic", "--db", str(db), "--out", str(report)]) == 0
    printed = capsys.readouterr().out
    validation = json.loads((report / "summary.json").read_text())["validation"]
    assert validation["against"] == "random" and validation["verdict"] == summary["verdict"]
    assert re.fullmatch(
        rf"validated against random on \d{{4}}-\d\d-\d\d: {re.escape(summary['verdict'])} "
        rf"\(max \|diff\| \d+\.\d pp\)",
        validation["text"],
    )
    assert f"{100 * summary['max_abs_diff']:.1f} pp" in validation["text"]
    page = (report / "report.html").read_text()
    assert "— agent heuristic" in page and validation["text"] in page
    assert "agent heuristic" in printed and "validated against random" in printed.replace("\n", " ")

    # A later top-up plays only what is missing, continuing each cell's index sequence.
    _compare(capsys, db, out, "random,heuristic", "--games", "80")
    assert all(sorted(indices) == list(range(80)) for indices in _counts(db, "heuristic").values())
    _compare(capsys, db, out, "heuristic,random", "--games", "83")
    assert all(sorted(indices) == list(range(83)) for indices in _counts(db, "random").values())


def test_a_report_without_a_comparison_says_it_is_not_validated(tmp_path: Path, capsys) -> None:
    """An agent other than the game's declared default, with no stored comparison, is "not validated"."""
    db, out = tmp_path / "g.sqlite", tmp_path / "bal"
    argv = ["balance", "edelweiss", "--agent", "heuristic", "--games", "1", "--workers", "1", "--db", str(db),
            "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["validation"] is None and summary["default_agent_backing"] is None
    assert "not validated" in (out / "report.html").read_text()


def test_the_default_agent_says_what_backs_it_not_that_it_is_unvalidated() -> None:
    """Issue #51: the game's declared default table agent is backed by the convergence study (docs/balance.md),
    so its report says so rather than "not validated"; a stored comparison still comes first."""
    from cardlab.sim.balance import matchups_for
    from cardlab.sim.report import validation_line
    from cardlab.sim.table import default_agent_backing

    matchups = matchups_for("edelweiss", None)
    strong = "ismcts:iterations=1000:backend=cpu"
    assert matchups.strong_agent == strong and default_agent_backing(matchups, "heuristic") is None
    summary = {"agent": strong, "validation": None, "default_agent_backing": default_agent_backing(matchups, strong)}
    line = validation_line(summary)
    assert "not validated" not in line and "default agent" in line and "docs/balance.md" in line
    assert validation_line(summary | {"validation": {"text": "validated against heuristic"}}) == (
        "validated against heuristic"
    )


def test_old_databases_gain_the_comparisons_table(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as conn:  # the games table as it was before comparisons existed
        conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, variant TEXT NOT NULL, "
                     "agents TEXT NOT NULL, experiment TEXT NOT NULL, cell TEXT NOT NULL, game_index INTEGER NOT "
                     "NULL, seat INTEGER NOT NULL, p1 TEXT NOT NULL, p2 TEXT NOT NULL, seed INTEGER NOT NULL, "
                     "winner INTEGER NOT NULL, reason TEXT NOT NULL, turns INTEGER NOT NULL, decisions INTEGER "
                     "NOT NULL, actions TEXT NOT NULL, created TEXT NOT NULL DEFAULT (datetime('now')), "
                     "UNIQUE (experiment, cell, game_index, seat))")  # fmt: skip
    conn.close()
    with GamesDB(path) as db:
        assert db.comparisons("edelweiss", "symbolic") == []
        old = {"verdict": "converged: no cell differs", "max_abs_diff": 0.01, "significant_cells": 0, "cells": []}
        db.add_comparison("edelweiss", "symbolic", "a", "b", old)  # a comparison stored before issue #33
        validation = validation_for(db, "edelweiss", "symbolic", "b")
    assert validation is not None and validation["against"] == "a"
    assert validation["text"].endswith(": converged: no cell differs (max |diff| 1.0 pp)")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--agents", "random"], "two agent specs separated by a comma"),
        (["--agents", "random,heuristic"], "no stored games"),
        (["--agents", "random,heuristic", "--games", "0"], "--games must be at least 1"),
        (["--agents", "random,ismcts", "--games", "2", "--engine", "cpu"], "not 'ismcts'"),
    ],
)
def test_bad_compare_requests_get_a_clear_error(tmp_path: Path, capsys, argv: list[str], message: str) -> None:
    if "--engine" in argv:
        pytest.importorskip("numba")
    base = ["compare", "edelweiss", "--db", str(tmp_path / "g.sqlite"), "--out", str(tmp_path / "o")]
    assert main([*base, *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_kernel_top_up_plays_only_the_missing_count(tmp_path: Path, capsys, monkeypatch) -> None:
    pytest.importorskip("numba")
    sizes: list[int] = []

    def fake_run(
        game: str,
        config: Mapping[str, Any],
        agents: tuple[str, str],
        games: int,
        seed: int,
        engine: str,
        **_: object,
    ) -> KernelRun:
        sizes.append(games)
        return KernelRun.of_games(
            [KernelGame(i % 2, "attack", 9, 20) for i in range(games)], (0.01, 0.01), (games * 10,) * 2
        )

    monkeypatch.setattr(engines, "kernel_run", fake_run)
    db, out = tmp_path / "g.sqlite", tmp_path / "k"
    _compare(capsys, db, out, "heuristic,random", "--games", "4", "--engine", "cpu")
    assert sizes == [4] * (2 * CELLS)  # per agent, cell and seat one batch
    sizes.clear()
    summary = _compare(capsys, db, out, "heuristic,random", "--games", "6", "--engine", "cpu")
    assert sizes == [2] * (2 * CELLS)
    assert all(sorted(indices) == list(range(6)) for indices in _counts(db, "random").values())
    assert summary["verdict"].startswith(NO_DIFFERENCE)  # the fake kernel deals both agents the same results


def test_a_top_up_stopped_part_way_and_run_again_plays_the_games_of_one_sitting(tmp_path: Path) -> None:
    """Ctrl-C can land between the two seats of a pair: the next top-up plays the missing seat first
    (same deal, seats swapped), so the sittings store exactly the games one uninterrupted run stores."""

    def stored(path: Path) -> list[tuple[str, int, int, int]]:
        with GamesDB(path) as db:
            return sorted((g.cell, g.game_index, g.seat, g.winner) for g in db.games("edelweiss", "symbolic", "random"))

    whole, sittings = tmp_path / "whole.sqlite", tmp_path / "sittings.sqlite"
    with GamesDB(whole) as db:
        assert top_up(db, SYMBOLIC, "random", 3, 7, False, "reference", lambda tasks: run_tasks(tasks, workers=1)) == 90
    for stop in (31, 17):  # odd: each stop leaves a pair half played
        with GamesDB(sittings) as db, pytest.raises(KeyboardInterrupt):
            top_up(db, SYMBOLIC, "random", 3, 7, False, "reference", stopped_after(stop))
    with GamesDB(sittings) as db:
        assert top_up(db, SYMBOLIC, "random", 3, 7, False, "reference", lambda tasks: run_tasks(tasks, workers=1)) == 42
    assert stored(sittings) == stored(whole)


def test_without_the_plots_extra_reports_keep_their_tables(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` now raises ImportError
    db = tmp_path / "g.sqlite"
    _compare(capsys, db, tmp_path / "cmp", "heuristic,heuristic", "--games", "1")
    assert not (tmp_path / "cmp" / "difference.png").exists()
    assert "GARU vs EAGLE" in (tmp_path / "cmp" / "comparison.html").read_text()
    assert main(["report", "edelweiss", "--agent", "heuristic", "--db", str(db), "--out", str(tmp_path / "r")]) == 0
    assert "no heatmap: it needs the plots extra" in capsys.readouterr().out
    assert not (tmp_path / "r" / "heatmap.png").exists() and (tmp_path / "r" / "report.html").exists()


def test_a_kernel_top_up_reports_its_progress(tmp_path: Path, capsys, monkeypatch) -> None:
    """Kernel batches advance the progress as they are stored (plain lines on stderr when piped, #15)."""
    pytest.importorskip("numba")

    def fake_run(
        game: str,
        config: Mapping[str, Any],
        agents: tuple[str, str],
        games: int,
        seed: int,
        engine: str,
        **_: object,
    ) -> KernelRun:
        return KernelRun.of_games([KernelGame(i % 2, "attack", 9, 20) for i in range(games)], (0.01, 0.01), (9, 9))

    monkeypatch.setattr(engines, "kernel_run", fake_run)
    base = ["compare", "edelweiss", "--agents", "heuristic,random", "--games", "4", "--engine", "cpu"]
    assert main([*base, "--db", str(tmp_path / "g.sqlite"), "--out", str(tmp_path / "k")]) == 0
    err = capsys.readouterr().err
    for agent in ("heuristic", "random"):
        assert f"compare edelweiss symbolic · {agent}: {4 * CELLS:,}/{4 * CELLS:,} games" in err


def test_a_kept_comparison_is_restated_in_todays_words() -> None:
    """benchmarks/tcg_tables_study.py --write-only restates a comparison.json kept from before issue #33."""
    from cardlab.sim.compare import restated

    fresh = compare_tables(_table("x", {}), _table("y", {("GARU-EAGLE", 0): 40}), SYMBOLIC, ("x", "y"))
    kept = {key: value for key, value in fresh.items() if key != "resolution_pp"} | {"verdict": "1 cells differ"}
    assert restated(kept)["verdict"] == fresh["verdict"] == "1 cell differs: GARU vs EAGLE (GARU first)"
    assert restated(kept)["resolution_pp"] == fresh["resolution_pp"]
