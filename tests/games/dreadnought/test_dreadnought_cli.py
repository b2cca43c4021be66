"""`cardlab simulate|balance|report dreadnought`: caster pairs, decks and the balance lab (D3, D23)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardlab.cli import main
from cardlab.games.dreadnought.lab import entrants, matchups


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_simulate_dreadnought_counts_every_game_and_is_reproducible(capsys) -> None:
    argv = ["simulate", "dreadnought", "--games", "12", "--seed", "5", "--json"]
    first = _json(capsys, [*argv, "--workers", "1"])
    second = _json(capsys, [*argv, "--workers", "2"])
    assert first["game"] == "dreadnought" and first["games"] == 12
    assert sum(first["wins"]) + first["draws"] == 12
    assert first["decisions"] > 12 * 50  # a Dreadnought game asks many small questions (R-D1)
    assert [first[k] for k in ("wins", "decisions", "draws")] == [second[k] for k in ("wins", "decisions", "draws")]


def test_simulate_dreadnought_caster_pairs_and_decks(capsys) -> None:
    summary = _json(
        capsys,
        ["simulate", "dreadnought", "--games", "2", "--decks", "tide_grove,ember_spark", "--casters",
         "X04+X07,X02+X03", "--json"],
    )  # fmt: skip
    assert summary["config"]["decks"] == {"P1": "tide_grove", "P2": "ember_spark"}
    assert summary["config"]["casters"] == {"P1": ["X04", "X07"], "P2": ["X02", "X03"]}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "dreadnought", "--casters", "X01+X03"], "--casters takes two values"),
        (["simulate", "dreadnought", "--casters", "X01,X04+X06"], "joined by '+'"),
        (["simulate", "dreadnought", "--casters", "X01+X02,X04+X06"], "D3.4"),  # red+red: N05 needs red+yellow
        (["simulate", "dreadnought", "--decks", "ember_spark,nowhere.toml"], "nowhere.toml"),
        (["simulate", "dreadnought", "--leaders", "L01,L02"], "--leaders is not an option of `simulate dreadnought`"),
        (["simulate", "aterial", "--casters", "X01+X03,X04+X06"], "--casters is not an option of `simulate aterial`"),
        (["balance", "dreadnought", "--standard", "accel2"], "--standard is not an option of `balance dreadnought`"),
    ],
)
def test_bad_dreadnought_options_get_a_clear_error(capsys, argv: list[str], message: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_balance_entrants_are_the_legal_caster_pairs_of_each_starter_deck() -> None:
    """D3.4: Ember & Spark holds red+yellow cards (N05), Tide & Grove blue+green ones (N06)."""
    assert entrants() == ("ember_spark/X01+X03", "ember_spark/X02+X03", "tide_grove/X04+X06", "tide_grove/X04+X07")
    config = matchups(None).config("ember_spark/X02+X03", "tide_grove/X04+X07")
    assert config == {"decks": {"P1": "ember_spark", "P2": "tide_grove"},
                      "casters": {"P1": ["X02", "X03"], "P2": ["X04", "X07"]}, "cards": None}  # fmt: skip
    with pytest.raises(ValueError, match="starter"):
        matchups("accel2")


def test_balance_and_report_dreadnought(tmp_path: Path, capsys) -> None:
    out, db = tmp_path / "out", tmp_path / "lab.sqlite"
    argv = ["--agent", "random", "--out", str(out), "--db", str(db)]
    assert main(["balance", "dreadnought", "--games", "2", "--workers", "1", *argv]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["game"] == "dreadnought"
    assert len(summary["pairings"]) == 6  # 4 entrants, every pair once
    assert all(row["a_first_games"] == row["a_second_games"] == 2 for row in summary["pairings"])
    assert summary["total_games"] == 24
    capsys.readouterr()
    assert main(["report", "dreadnought", *argv]) == 0
    assert json.loads((out / "summary.json").read_text())["pairings"] == summary["pairings"]
