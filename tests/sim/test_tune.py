"""`cardlab tune` (issue #38) on the toy game, whose balancing edit is known: under random play P1 wins
9/16 of Kuhn poker, and exactly 1/2 when folding is forbidden (tests/toygame/game.py); the other rule,
who takes two checks, gives 11/16 or 7/16 and cannot reach 50 ± 5 alone."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardlab.cli import main
from cardlab.core.errors import CardlabError
from cardlab.games import REGISTRY, game_class
from cardlab.sim.tune import (
    Budget,
    Candidate,
    Entry,
    Score,
    _finalists,
    pareto_front,
    parse_targets,
    rung_sizes,
    score,
    tune_candidates,
    tune_dimensions,
    tune_verdict,
)
from cardlab.store.games_db import CellCount

TUNE = ["tune", "kuhn", "--agent", "random", "--workers", "1", "--target", "first=50:5"]


@pytest.fixture(autouse=True)
def kuhn() -> Iterator[None]:
    REGISTRY.register("kuhn", "tests.toygame:Kuhn")
    yield
    REGISTRY.unregister("kuhn")


def _tune(capsys: pytest.CaptureFixture[str], tmp_path: Path, *argv: str) -> tuple[dict, str]:
    out = tmp_path / "out"
    assert main([*TUNE, *argv, "--out", str(out), "--db", str(tmp_path / "lab.sqlite")]) == 0
    return json.loads((out / "tune.json").read_text()), capsys.readouterr().out


def test_tune_finds_the_known_balancing_edit(capsys, tmp_path: Path) -> None:
    tune, printed = _tune(capsys, tmp_path, "--rule", "folding", "--rule", "check_check", "--games", "1000")
    labels = [c["label"] for c in tune["candidates"]]
    assert "folding=forbidden" in labels and tune["space"] == 6
    found = next(c for c in tune["candidates"] if c["label"] == "folding=forbidden")
    assert found["confirmed"] and found["games_per_cell"] == 1000 and found["imbalance"] <= 0
    assert found["edits"] == ["folding=forbidden"] and found["rules"] == {"folding": "forbidden"}
    assert abs(found["first_player"]["rate"] - 0.5) < 0.05 and set(found["entrants"]) == {"A1", "A2"}
    assert tune["baseline"]["imbalance"] > found["imbalance"]  # 9/16 is 6.25 pp off 50
    assert tune["verdict"] == "meets the target with 1 edit(s): folding=forbidden"
    assert "meets the target with 1 edit(s): folding=forbidden" in printed
    games = tune["games"]
    assert games["total"] < games["every_candidate_at_confirmation"] == 6 * 2 * 1000
    dropped = [c for c in tune["evaluated"] if c["dropped"]]
    assert dropped and all(c["games_per_cell"] < 1000 for c in dropped)  # weak candidates stopped early
    assert (tmp_path / "out" / "report.html").read_text().count("<h2>") == 1


def test_nothing_in_a_space_that_cannot_meet_the_target(capsys, tmp_path: Path) -> None:
    tune, printed = _tune(capsys, tmp_path, "--rule", "check_check=p1_wins,p2_wins", "--games", "1000",
                          "--target", "first=50:1")  # fmt: skip
    assert tune["verdict"] == "nothing in this space meets the target" and not tune["meets_target"]
    assert "nothing in this space meets the target" in printed
    assert all(c["imbalance"] > 0 for c in tune["evaluated"])


def test_an_interval_across_the_target_is_not_called_a_verdict(capsys, tmp_path: Path) -> None:
    """Issue #51 through the CLI: 9/16 is 6.25 pp off 50, 1.25 beyond the tolerance, and 300 games per cell
    cannot tell it from on target, so neither "meets" nor "nothing meets" is said."""
    tune, printed = _tune(capsys, tmp_path, "--rule", "check_check=p1_wins,p2_wins", "--games", "300")
    low, high = tune["baseline"]["imbalance_ci"]
    assert low <= 0 < high and not tune["meets_target"]
    assert tune["verdict"].startswith("best found: as specified (0 edit(s)), not confirmed at this size (about ")
    assert tune["verdict"] in printed.replace("\n", " ")


def test_a_rerun_plays_nothing_new_and_a_larger_one_only_adds(capsys, tmp_path: Path) -> None:
    first, _ = _tune(capsys, tmp_path, "--rule", "folding", "--games", "100")
    again, _ = _tune(capsys, tmp_path, "--rule", "folding", "--games", "100")
    assert first["games"]["played_now"] > 0 and again["games"]["played_now"] == 0
    assert [c["imbalance"] for c in again["evaluated"]] == [c["imbalance"] for c in first["evaluated"]]
    more, _ = _tune(capsys, tmp_path, "--rule", "folding", "--games", "300")
    assert more["games"]["played_now"] == more["games"]["total"] - first["games"]["total"]


def test_every_candidate_plays_the_baselines_deals(tmp_path: Path) -> None:
    """Common random numbers: game i of a cell has the same seed (the same deal) under every candidate."""
    from cardlab.store import GamesDB

    db = tmp_path / "lab.sqlite"
    assert main([*TUNE, "--rule", "folding", "--games", "12", "--out", str(tmp_path / "o"), "--db", str(db)]) == 0
    with GamesDB(db) as games:
        seeds = [
            sorted((g.cell, g.game_index, g.seat, g.seed) for g in games.games("kuhn", variant, "random"))
            for variant in ("jqk", "jqk+folding=forbidden")
        ]
    baseline, candidate = seeds  # the candidate may stop at a rung: its games are the baseline's first ones
    assert len(baseline) == 2 * 12 and len(candidate) >= 2 * 4
    assert candidate == [game for game in baseline if game[1] < len(candidate) // 2]


def test_a_budget_stops_the_search_and_says_so(capsys, tmp_path: Path) -> None:
    tune, _ = _tune(capsys, tmp_path, "--rule", "folding", "--rule", "check_check", "--games", "300",
                    "--budget", "100")  # fmt: skip
    assert tune["out_of_budget"] and tune["games"]["total"] <= 100
    assert not any(c["confirmed"] for c in tune["evaluated"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rule", "folding", "--target", "cells=fifty:3"], "--target takes KIND=CENTER:TOLERANCE"),
        (["--rule", "folding", "--target", "seats=50:3"], "--target takes KIND=CENTER:TOLERANCE"),
        (["--rule", "bluffing=yes"], "--rule bluffing: unknown rule option"),
        (["--rule", "folding=sometimes"], "'sometimes' is not one of ['allowed', 'forbidden']"),
        (["--rule", "folding", "--budget", "soon"], "--budget takes a number of games"),
        (["--rule", "folding", "--max-edits", "0"], "--max-edits must be at least 1"),
        ([], "tune needs a space"),
    ],
)
def test_bad_input_is_refused_before_anything_is_played(capsys, tmp_path: Path, argv: list[str], message: str) -> None:
    assert main([*TUNE, *argv, "--out", str(tmp_path / "o"), "--db", str(tmp_path / "lab.sqlite")]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "lab.sqlite").exists()


def test_targets_and_budgets_parse() -> None:
    assert [t.text for t in parse_targets(["entrants=50:3", "first=52.5:2"])] == ["entrants=50:3", "first=52.5:2"]
    assert [t.text for t in parse_targets([])] == ["entrants=50:3"]
    assert Budget.parse("30m") == Budget(seconds=1800.0) and Budget.parse("2000") == Budget(games=2000)
    with pytest.raises(CardlabError):
        parse_targets(["first=150:2"])


def test_the_space_counts_edits_from_the_game_as_specified() -> None:
    options = game_class("kuhn").rule_options
    dimensions = tune_dimensions(options, ["folding=allowed,forbidden", "check_check"], [])
    assert [d.alternatives for d in dimensions] == [("forbidden",), ("p1_wins", "p2_wins")]  # defaults are no edit
    candidates = tune_candidates(dimensions, 1)
    assert [c.label for c in candidates] == ["as specified", "folding=forbidden", "check_check=p1_wins",
                                             "check_check=p2_wins"]  # fmt: skip
    assert len(tune_candidates(dimensions, 2)) == 6
    assert rung_sizes(300) == [11, 33, 100, 300] and rung_sizes(10) == [10]


def _count(cell: str, seat: int, p1_wins: int, games: int) -> CellCount:
    a, b = cell.split("-")
    p1, p2 = (a, b) if seat == 0 else (b, a)
    return CellCount(cell, seat, p1, p2, games, p1_wins, games - p1_wins, 0)


def test_imbalance_is_the_worst_target_beyond_its_tolerance() -> None:
    counts = [_count("A-B", 0, 70, 100), _count("A-B", 1, 50, 100)]  # P1 wins 60%, A wins 60%
    first = score(counts, parse_targets(["first=50:2"]), 0.95)
    assert first.imbalance == pytest.approx(8.0) and first.interval[0] < 8.0 < first.interval[1]
    cells = score(counts, parse_targets(["cells=50:10"]), 0.95)
    assert cells.imbalance == pytest.approx(10.0)  # the A-first cell: 70% is 20 pp off, 10 beyond
    both = score(counts, parse_targets(["first=50:2", "cells=50:10"]), 0.95)
    assert both.imbalance == pytest.approx(10.0) and set(both.deviations) == {"first=50:2", "cells=50:10"}
    assert score(counts, parse_targets(["first=60:2"]), 0.95).imbalance == pytest.approx(-2.0)  # on a 60% target


def test_the_front_keeps_only_what_no_candidate_beats_on_both() -> None:
    def entry(edits: tuple[str, ...], imbalance: float) -> Entry:
        made = Entry(Candidate(edits, (), ()), None)  # type: ignore[arg-type]
        made.score = Score(imbalance, (imbalance, imbalance), {}, 1)
        return made

    base, good, worse, best2, poor2 = (entry((), 5.0), entry(("a=1",), 1.0), entry(("a=2",), 3.0),
                                       entry(("a=1", "b=1"), -1.0), entry(("a=2", "b=1"), 2.0))  # fmt: skip
    assert pareto_front([base, good, worse, best2, poor2]) == [base, good, best2]


def test_only_what_can_join_the_front_goes_to_the_confirmation_rung() -> None:
    """The confirmation rung plays, of each edit count, the best, and only where it beats fewer edits."""

    def entry(edits: tuple[str, ...], imbalance: float) -> Entry:
        made = Entry(Candidate(edits, (), ()), None)  # type: ignore[arg-type]
        made.score = Score(imbalance, (imbalance, imbalance), {}, 1)
        return made

    base, good, worse, best2, poor3 = (entry((), 5.0), entry(("a=1",), 1.0), entry(("a=2",), 3.0),
                                       entry(("a=1", "b=1"), -1.0), entry(("a=1", "b=1", "c=1"), -1.0))  # fmt: skip
    _finalists([base, good, worse, best2, poor3], 2)
    assert [e for e in (base, good, worse, best2, poor3) if not e.dropped] == [base, good, best2]
    assert "a=1 is better" in worse.dropped and "fewer edits" in poor3.dropped
    lone = entry(("a=3",), 6.0)  # worse than the game as specified: off the front
    _finalists([entry((), 5.0), lone], 2)
    assert "fewer edits" in lone.dropped


def test_a_card_stat_range_on_a_tcg(capsys, tmp_path: Path) -> None:
    """`CARD.FIELD=LO..HI`: every value but the printed one (S14 costs 2) is a candidate; a bad card is named."""
    argv = ["tune", "aterial", "--patch", "S14.cost=1..4", "--agent", "random", "--games", "1", "--workers", "1",
            "--engine", "reference", "--target", "first=50:50"]  # fmt: skip
    out = tmp_path / "out"
    assert main([*argv, "--out", str(out), "--db", str(tmp_path / "lab.sqlite")]) == 0
    tune = json.loads((out / "tune.json").read_text())
    assert [c["label"] for c in tune["evaluated"]] == ["as specified", "S14.cost=1", "S14.cost=3", "S14.cost=4"]
    assert tune["evaluated"][1]["patches"] == ["S14.cost=1"] and tune["verdict"].startswith("the game as specified")
    capsys.readouterr()
    assert main([*argv[:3], "S99.cost=1..2", *argv[4:], "--out", str(out), "--db", str(tmp_path / "x.sqlite")]) == 2
    assert "S99" in capsys.readouterr().err


def _scored(edits: tuple[str, ...], imbalance: float, interval: tuple[float, float], games: int = 100) -> Entry:
    made = Entry(Candidate(edits, (), ()), None, games)  # type: ignore[arg-type]
    made.score = Score(imbalance, interval, {}, games)
    return made


def test_a_verdict_says_meets_only_when_the_whole_interval_is_on_target() -> None:
    """Issue #51: a candidate whose imbalance interval straddles the target is the best found, not a match."""
    base = _scored((), 6.0, (2.0, 10.0))
    straddles = _scored(("S90.attack=2", "S90.cost=1"), -1.0, (-3.0, 9.6))
    assert tune_verdict([base, straddles], [base, straddles], False) == (
        "best found: S90.attack=2+S90.cost=1 (2 edit(s)), not confirmed at this size "
        "(about 11,236 games per cell would decide)"  # the upper half-width 10.6 pp shrunk to 1 pp: 100 x 10.6^2
    )
    inside = _scored(("S90.attack=2", "S90.cost=1"), -2.0, (-3.0, -0.5))
    meets = "meets the target with 2 edit(s): S90.attack=2+S90.cost=1"
    assert tune_verdict([base, inside], [base, inside], False) == meets
    assert tune_verdict([base], [base], False) == "nothing in this space meets the target"
    above = _scored(("a=1",), 1.0, (-0.5, 4.0))  # off target by its estimate, but not beyond doubt
    assert tune_verdict([base, above], [base, above], False).startswith("best found: a=1 (1 edit(s)), not confirmed")
    edge = _scored((), 0.0, (-1.0, 1.0))
    assert tune_verdict([edge], [edge], False).endswith("(it sits on the target's edge)")


def test_balance_sweep_and_tune_give_the_same_baseline(capsys, tmp_path: Path) -> None:
    """Issue #51: the three commands' baseline is the balance table's games of the same seed, agent and
    entrants: played with the same seeds in separate databases, reused from a shared one."""
    common = ["--agent", "random", "--workers", "1", "--games", "36", "--seed", "7"]

    def run(command: list[str], db: str, out: str, name: str) -> dict:
        argv = [*command, *common, "--db", str(tmp_path / db), "--out", str(tmp_path / out)]
        assert main(argv) == 0
        capsys.readouterr()
        return json.loads((tmp_path / out / name).read_text())

    for dbs in (("b.sqlite", "s.sqlite", "t.sqlite"), ("lab.sqlite",) * 3):
        balance = run(["balance", "kuhn"], dbs[0], "b", "summary.json")
        sweep = run(["sweep", "kuhn", "--rule", "folding=allowed,forbidden"], dbs[1], "s", "sweep.json")
        tune = run(["tune", "kuhn", "--rule", "folding", "--target", "first=50:5"], dbs[2], "t", "tune.json")
        row, base = sweep["variants"][0], tune["baseline"]
        kind = balance["kind"]
        assert (
            row["first_player"]["wins"]
            == balance["first_player"]["wins"]
            == round(base["first_player"]["rate"] * base["first_player"]["games"])
        )
        assert {e: r["wins"] for e, r in row[kind].items()} == {e: r["wins"] for e, r in balance[kind].items()}
        assert {e: r["wins"] for e, r in base["entrants"].items()} == {e: r["wins"] for e, r in balance[kind].items()}
        assert balance["total_games"] == row["total_games"] == base["games"]
    assert (row["played"], row["reused"]) == (0, row["total_games"])  # the shared database: balance's games reused
    assert "`cardlab balance`'s games (seed 7" in sweep["plan"]["baseline"]
    assert "all stored already" in tune["baseline_source"]
