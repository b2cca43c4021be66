"""The metagame of a balance table (issue #52): the Nash mix of its entrants, its intervals, and its cycles."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from rich.console import Console

from cardlab.cli import main
from cardlab.games import REGISTRY
from cardlab.sim.equilibrium import cycles_line, equilibrium, nash_mix
from cardlab.sim.report import print_equilibrium

ROCK_PAPER_SCISSORS = np.array([[0.0, -0.5, 0.5], [0.5, 0.0, -0.5], [-0.5, 0.5, 0.0]])


def _summary(rates: dict[tuple[str, str], float], games: int, kind: str = "characters") -> dict[str, Any]:
    """A balance summary whose pairing (a, b) has a winning `rates[(a, b)]` of `games` games in each seat."""
    entrants = sorted({entrant for pair in rates for entrant in pair})
    rows = []
    for (a, b), rate in rates.items():
        wins = round(rate * games)
        rows.append({"a": a, "b": b, "draws": 0, "a_first_wins": wins, "a_first_games": games,
                     "a_second_wins": wins, "a_second_games": games})  # fmt: skip
    return {"game": "g", "variant": "v", "agent": "heuristic", "kind": kind, "pairings": rows,
            kind: {entrant: {} for entrant in entrants}}  # fmt: skip


def _cycle_table(games: int) -> dict[str, Any]:
    """A beats B, B beats C, C beats A, each 75% of the time."""
    return _summary({("A", "B"): 0.75, ("B", "C"): 0.75, ("A", "C"): 0.25}, games)


def test_rock_paper_scissors_is_mixed_uniformly() -> None:
    mix, value = nash_mix(ROCK_PAPER_SCISSORS)
    assert mix == pytest.approx([1 / 3] * 3, abs=1e-9)
    assert value == pytest.approx(0.0, abs=1e-9)


def test_a_weighted_rock_paper_scissors_is_mixed_by_its_stakes() -> None:
    # rock beats scissors by 0.2, paper beats rock by 0.1, scissors beats paper by 0.3: the mix is (3, 2, 1) / 6
    payoff = np.array([[0.0, -0.1, 0.2], [0.1, 0.0, -0.3], [-0.2, 0.3, 0.0]])
    assert nash_mix(payoff)[0] == pytest.approx([1 / 2, 1 / 3, 1 / 6], abs=1e-9)


def test_the_row_player_of_an_unfair_game_gets_its_value() -> None:
    """Not symmetric, so rows and columns (or signs) mixed up give another mix and value."""
    mix, value = nash_mix(np.array([[3.0, -1.0], [-2.0, 1.0]]))
    assert mix == pytest.approx([3 / 7, 4 / 7], abs=1e-9)
    assert value == pytest.approx(1 / 7, abs=1e-9)


def test_rock_paper_scissors_through_a_table() -> None:
    section = equilibrium(_cycle_table(400))
    weights = {entrant: w["weight"] for entrant, w in section["weights"].items()}
    assert weights == pytest.approx({"A": 1 / 3, "B": 1 / 3, "C": 1 / 3}, abs=1e-9)
    assert all(w["support_probability"] == 1.0 for w in section["weights"].values())
    assert all(w["ci95"][0] < 1 / 3 < w["ci95"][1] for w in section["weights"].values())


def test_a_dominant_entrant_is_played_alone() -> None:
    # B beats A and C; among A and C, A is ahead: only B is worth playing
    section = equilibrium(_summary({("A", "B"): 0.3, ("B", "C"): 0.8, ("A", "C"): 0.6}, 200))
    assert section["weights"]["B"]["weight"] == pytest.approx(1.0)
    assert section["weights"]["B"]["ci95"] == pytest.approx([1.0, 1.0])
    assert section["weights"]["A"]["weight"] == pytest.approx(0.0, abs=1e-9)
    assert section["weights"]["C"]["support_probability"] == 0.0
    assert section["cycles"] == []


def test_a_planted_cycle_is_claimed_only_when_its_intervals_say_so() -> None:
    assert equilibrium(_cycle_table(200))["cycles"] == [["A", "B", "C"]]
    few = equilibrium(_cycle_table(4))  # 6 of 8 games: the interval reaches below 50%
    assert few["cycles"] == [] and cycles_line(few).startswith("no cycle:")
    assert "A > B > C > A" in cycles_line(equilibrium(_cycle_table(200)))


def test_the_other_way_round_is_found_too() -> None:
    assert equilibrium(_summary({("A", "B"): 0.25, ("B", "C"): 0.25, ("A", "C"): 0.75}, 200))["cycles"] == [
        ["A", "C", "B"]
    ]


def test_the_same_seed_gives_the_same_section() -> None:
    table = _summary({("A", "B"): 0.55, ("B", "C"): 0.45, ("A", "C"): 0.5}, 30)
    first = json.dumps(equilibrium(table))
    assert json.dumps(equilibrium(table)) == first
    assert json.dumps(equilibrium(table, seed=1)) != first  # the intervals do come from the resamples


def test_the_printed_section_lists_the_mix_and_the_cycles() -> None:
    out = io.StringIO()
    print_equilibrium(
        {**_cycle_table(200), "equilibrium": equilibrium(_cycle_table(200))}, Console(file=out, width=100)
    )
    text = out.getvalue()
    assert "Metagame (Nash mix of the entrants)" in text and "33.3%" in text and "A > B > C > A" in text


@pytest.fixture
def kuhn() -> Iterator[None]:
    REGISTRY.register("kuhn", "tests.toygame:Kuhn")
    yield
    REGISTRY.unregister("kuhn")


@pytest.mark.usefixtures("kuhn")
def test_balance_and_report_give_the_metagame(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, out = str(tmp_path / "lab.sqlite"), tmp_path / "out"
    argv = ["balance", "kuhn", "--games", "10", "--workers", "1", "--db", db, "--out", str(out)]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    section = json.loads((out / "summary.json").read_text())["equilibrium"]
    assert sum(w["weight"] for w in section["weights"].values()) == pytest.approx(1.0)
    assert set(section["weights"]) == {"A1", "A2"} and section["resamples"] == 200
    assert "Metagame (Nash mix of the entrants)" in printed and "Cycles: no cycle" in printed
    assert "Metagame (Nash mix of the entrants)" in (out / "report.html").read_text()
    assert main(["report", "kuhn", "--db", db, "--out", str(out)]) == 0
    assert "Metagame (Nash mix of the entrants)" in capsys.readouterr().out
    assert json.loads((out / "summary.json").read_text())["equilibrium"] == section


def test_the_printed_section_fits_80_columns_with_long_names() -> None:
    table = _cycle_table(200)
    names = {entrant: f"A Very Long Deck Name {entrant} · Marshal Of The Long Title {entrant}" for entrant in "ABC"}
    console = Console(width=80, record=True, color_system=None)
    print_equilibrium({**table, "entrant_names": names, "equilibrium": equilibrium(table)}, console)
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80 and "…" not in text
    assert text.count("Marshal") == 3  # every name printed whole, wrapped at its spaces
