"""Reports a designer reads in an 80-column terminal (issue #16 item 5)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from rich.console import Console

from cardlab.cli import main
from cardlab.sim.balance import matchups_for, summarize
from cardlab.sim.report import config_words, label_color, plus_minus, print_balance
from cardlab.store import CellCount


def _summary() -> dict:
    """A mirror-free Accel 2 table with one lopsided cell, from counts."""
    matchups = matchups_for("edelweiss", "accel2")
    counts = []
    for index, (a, b) in enumerate((a, b) for i, a in enumerate(matchups.entrants) for b in matchups.entrants[i + 1 :]):
        wins = 950 if index == 0 else 500
        counts += [CellCount(f"{a}-{b}", 0, a, b, 1000, wins, 1000 - wins, 0),
                   CellCount(f"{a}-{b}", 1, b, a, 1000, 500, 500, 0)]  # fmt: skip
    return summarize(counts, matchups, "heuristic", bootstrap=20)


def test_the_balance_table_fits_80_columns_with_rates_as_plus_minus() -> None:
    console = Console(width=80, record=True, color_system=None)
    print_balance(_summary(), console, new=30_000)
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "VIRIDIAN vs EAGLE" in text  # the longest pairing is not wrapped
    assert re.search(r"950/1000\* +│ +95\.0 ±1\.\d", text) and "30000 new + 0 stored games" in text
    assert "Cells differing from 50%: 1 of 30, marked *" in text


def test_long_entrant_names_wrap_whole_in_80_columns_never_cut() -> None:
    """Dreadnought's entrants (deck/caster pair) make pairings wider than the column: the pairing wraps at its
    spaces and every entrant is printed whole, as the terminal is often a pipe of 80 columns."""
    matchups = matchups_for("dreadnought", None)
    counts = []
    for a, b in ((a, b) for i, a in enumerate(matchups.entrants) for b in matchups.entrants[i + 1 :]):
        counts += [CellCount(f"{a}-{b}", 0, a, b, 100, 60, 40, 0), CellCount(f"{a}-{b}", 1, b, a, 100, 50, 50, 0)]
    console = Console(width=80, record=True, color_system=None)
    print_balance(summarize(counts, matchups, "heuristic", bootstrap=20), console)
    text = console.export_text()
    assert max(len(line) for line in text.splitlines()) <= 80 and "…" not in text
    rows = text.split("Seat P1:")[0].splitlines()  # the first table: its pairing column read top to bottom
    column = [line.split("│")[1].strip() for line in rows if line.startswith("│ ")]
    assert any(cell.endswith(" vs") for cell in column)  # a pairing too wide for the column, wrapped
    for a, b in ((a, b) for i, a in enumerate(matchups.entrants) for b in matchups.entrants[i + 1 :]):
        assert f"{a} vs {b}" in " ".join(column), (a, b)


def test_plus_minus_is_the_rate_and_the_intervals_half_width() -> None:
    assert plus_minus(393, 1000, [0.363, 0.425]) == "39.3 ±3.1"
    assert plus_minus(0, 0, [0.0, 1.0]) == "-"


def test_config_words() -> None:
    config = {"deck": "skills", "standard": "accel2", "characters": {"P1": "VIRIDIAN", "P2": "EAGLE"}}
    assert config_words(config) == "deck skills, standard accel2, characters P1 VIRIDIAN / P2 EAGLE"
    tcg = {"decks": {"P1": "D1", "P2": "D2"}, "leaders": {"P1": None, "P2": None}, "first": None, "cards": None}
    assert config_words(tcg) == "decks P1 D1 / P2 D2"
    casters = {"casters": {"P1": ["X02", "X03"], "P2": None}}
    assert config_words(casters) == "casters P1 X02+X03" and config_words({"deck": None}) == "default config"


def test_heatmap_labels_are_white_on_dark_cells() -> None:
    assert [label_color(rate) for rate in (0.05, 0.3, 0.5, 0.7, 0.95)] == ["white", "black", "black", "black", "white"]


def test_simulate_titles_its_config_in_words(capsys) -> None:
    argv = ["simulate", "edelweiss", "--games", "4", "--standard", "accel2", "--characters", "GARU,EAGLE"]
    assert main(argv) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "characters P1 GARU / P2 EAGLE" in out and "{" not in out


def test_json_output_starts_with_a_brace_even_when_piped(tmp_path: Path) -> None:
    """Progress goes to stderr; stdout is the JSON alone."""
    cardlab = str(Path(sys.executable).with_name("cardlab"))
    for argv in (
        ["simulate", "aterial", "--games", "4", "--workers", "1", "--json"],
        ["ladder", "edelweiss", "--agents", "random,heuristic", "--games", "4", "--workers", "1", "--json",
         "--engine", "reference", "--out", str(tmp_path / "ladder")],
    ):  # fmt: skip
        done = subprocess.run([cardlab, *argv], capture_output=True, text=True, check=True, cwd=tmp_path)
        assert done.stdout.startswith("{") and json.loads(done.stdout)


def test_the_heatmap_outlines_and_stars_the_cells_that_differ_from_50_percent() -> None:
    """Issue #33: GARU vs EAGLE pools 1450/2000 (72.5%, its 95% interval excludes 50%), both ways round; every
    other cell is 1000/2000. Entrants are named in words where the table has names."""
    from matplotlib.patches import Rectangle

    from cardlab.sim.report import heatmap_figure

    summary = _summary()
    summary["entrant_names"] = {"GARU": "Garu of the North"}
    fig = heatmap_figure(summary)
    (ax, *_) = fig.axes
    starred = sorted(text.get_text() for text in ax.texts if text.get_text().endswith("*"))
    assert starred == ["28%*", "72%*"]
    assert len([patch for patch in ax.patches if isinstance(patch, Rectangle)]) == 2
    assert "Garu of the North (GARU)" in [label.get_text() for label in ax.get_yticklabels()]
    assert "EAGLE" in [label.get_text() for label in ax.get_xticklabels()]
    assert "excludes 50%" in ax.get_xlabel()


def test_a_kernel_tables_counts_are_in_table_csv(tmp_path: Path, capsys, monkeypatch) -> None:
    """Issue #33: a kernel run's results.csv has no game rows (its games are batches); table.csv holds every
    pairing and seat's counts whatever the engine, the same as a reference run's per-game rows add up to."""
    import csv

    import pytest

    pytest.importorskip("numba")
    monkeypatch.setenv("COLUMNS", "40")  # a narrow terminal: the printed paths still stay whole on their lines
    from cardlab.sim import engines
    from cardlab.sim.engines import KernelGame, KernelRun

    def fake_run(
        game: str, config: dict, agents: tuple[str, str], games: int, seed: int, engine: str, **_: object
    ) -> KernelRun:
        return KernelRun.of_games([KernelGame(i % 3 == 0, "attack", 9, 20) for i in range(games)], (0.01, 0.01),
                                  (games * 10,) * 2)  # fmt: skip

    monkeypatch.setattr(engines, "kernel_run", fake_run)
    common = ["--agent", "heuristic", "--games", "6", "--workers", "1", "--db", str(tmp_path / "lab.sqlite")]
    assert main(["balance", "edelweiss", "--engine", "cpu", "--out", str(tmp_path / "k"), *common]) == 0
    assert main(["balance", "edelweiss", "--engine", "reference", "--rule", "first_draw=no",
                 "--out", str(tmp_path / "r"), *common]) == 0  # fmt: skip
    assert f"wrote {tmp_path / 'r'}/table.csv, results.csv" in capsys.readouterr().out  # the path unbroken
    kernel = list(csv.DictReader((tmp_path / "k" / "table.csv").open()))
    assert len((tmp_path / "k" / "results.csv").read_text().splitlines()) == 1  # the header only
    assert len(kernel) == 30 and all(row["games"] == "6" for row in kernel)
    assert all((row["p1_wins"], row["p2_wins"], row["draws"]) == ("4", "2", "0") for row in kernel)  # i % 3 == 0
    garu = next(row for row in kernel if row["pairing"] == "GARU-EAGLE" and row["seat"] == "1")
    assert (garu["a"], garu["p1"], garu["a_sits"], garu["a_wins"], garu["a_rate"]) == (
        "GARU", "EAGLE", "second", "2", "0.333333"
    )  # fmt: skip
    reference = list(csv.DictReader((tmp_path / "r" / "table.csv").open()))
    games = list(csv.DictReader((tmp_path / "r" / "results.csv").open()))
    assert len(reference) == 30 and sum(int(row["games"]) for row in reference) == len(games) == 180
    for row in reference:
        cell = [g for g in games if g["pairing"] == row["pairing"] and g["seat"] == row["seat"]]
        assert int(row["p1_wins"]) == sum(g["winner_seat"] == "P1" for g in cell)
        assert int(row["p2_wins"]) == sum(g["winner_seat"] == "P2" for g in cell)
