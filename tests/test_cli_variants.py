"""What-if through the commands (issue #17): `cardlab rules`, `--rule` on play/simulate/balance, and `sweep`."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from cardlab.cli import main
from cardlab.games import game_class, game_names
from cardlab.store import GamesDB


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    assert main(list(argv)) == 0
    out = capsys.readouterr().out
    assert out.startswith(("{", "["))
    return json.loads(out)


@pytest.mark.parametrize("game", game_names())
def test_rules_lists_each_games_options(capsys, game: str) -> None:
    listed = _json(capsys, "rules", game, "--json")
    assert isinstance(listed, list)
    assert listed == [option.to_json() for option in game_class(game).rule_options]
    for option in listed:
        assert set(option) == {"name", "rule", "default", "values", "description"}
        assert option["default"] in option["values"]
    if game != "kuhn":
        assert len(listed) >= (5 if game == "edelweiss" else 3)


def test_rules_table_names_rule_ids(capsys) -> None:
    assert main(["rules", "edelweiss"]) == 0
    out = capsys.readouterr().out
    assert "first_draw" in out and "E3.2" in out and "deck_out_tie" in out


def test_simulate_plays_under_the_rules_it_is_given(capsys) -> None:
    base = ["simulate", "edelweiss", "--deck", "short", "--games", "2000", "--workers", "1", "--json"]
    default = _json(capsys, *base)
    variant = _json(capsys, *base, "--rule", "deck_out_tie=draw", "--rule", "first_draw=yes")
    assert "rules" not in default["config"]
    assert variant["config"]["rules"] == {"deck_out_tie": "draw"}  # a default value is no variant
    assert default["draws"] == 0 and variant["draws"] > 0  # equal-hand deck-outs are draws now (E6.2)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--rule", "first_draw=maybe"], "--rule first_draw: 'maybe' is not one of ['yes', 'no']"),
        (["--rule", "draw_two=yes"], "--rule draw_two: unknown rule option; this game's options: first_draw"),
        (["--rule", "first_draw"], "--rule takes NAME=VALUE, got 'first_draw'"),
    ],
)
def test_bad_rules_are_refused_before_anything_is_played(capsys, argv: list[str], message: str) -> None:
    assert main(["simulate", "edelweiss", "--games", "2", *argv]) == 2
    assert message in capsys.readouterr().err


def test_play_says_it_plays_a_variant_and_saves_its_rules(monkeypatch, capsys, tmp_path: Path) -> None:
    save = tmp_path / "save.json"
    monkeypatch.setattr("sys.stdin", io.StringIO(f"save {save}\nq\n"))
    assert main(["play", "edelweiss", "--seed", "3", "--rule", "first_draw=no"]) == 0
    assert "playing with first_draw=no" in capsys.readouterr().out
    assert json.loads(save.read_text())["config"]["rules"] == {"first_draw": "no"}


def test_a_variant_table_is_stored_apart_from_the_default(capsys, tmp_path: Path) -> None:
    """Same seeds, other rules: the variant's games are another variant name, never pooled with the default's."""
    db = tmp_path / "lab.sqlite"
    common = ["balance", "edelweiss", "--agent", "random", "--engine", "reference", "--games", "2", "--workers", "1"]
    assert main([*common, "--db", str(db), "--out", str(tmp_path / "a")]) == 0
    assert main([*common, "--db", str(db), "--out", str(tmp_path / "b"), "--rule", "opening_hand=6"]) == 0
    capsys.readouterr()
    default = json.loads((tmp_path / "a" / "summary.json").read_text())
    variant = json.loads((tmp_path / "b" / "summary.json").read_text())
    assert default["variant"] == "symbolic" and variant["variant"] == "symbolic+opening_hand=6"
    assert variant["rules"] == {"opening_hand": "6"} and "rules" not in default
    assert default["total_games"] == variant["total_games"] == 60  # 30 cells x 2 games each, not pooled
    with GamesDB(db) as store:
        stored = list(store.games("edelweiss", "symbolic+opening_hand=6", "random"))
    assert len(stored) == 60  # every stored game records its rules in its variant (and experiment) name
    assert all("opening_hand=6" in game.experiment for game in stored)


def test_sweep_prints_each_variant_beside_the_game_as_specified(capsys, tmp_path: Path) -> None:
    out, db = tmp_path / "sweep", tmp_path / "lab.sqlite"
    argv = ["sweep", "edelweiss", "--rule", "first_draw=yes,no", "--rule", "deck_out_tie=P2,draw", "--agent", "random",
            "--engine", "reference", "--games", "4", "--workers", "1", "--db", str(db), "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    printed = " ".join(capsys.readouterr().out.split())
    sweep = json.loads((out / "sweep.json").read_text())
    labels = [row["label"] for row in sweep["variants"]]
    assert labels == ["as specified", "deck_out_tie=draw", "first_draw=no", "deck_out_tie=draw+first_draw=no"]
    for row in sweep["variants"]:
        assert row["total_games"] == 120 and set(row["characters"]) == set(sweep["entrants"])
        assert row["vs_baseline"]["verdict"] and row["most_unbalanced"]["cell"]
        assert 0.0 <= row["first_player"]["rate"] <= 1.0
        assert row["label"] in printed
    assert sweep["variants"][0]["vs_baseline"]["max_abs_diff"] == 0.0  # the baseline against itself
    assert (out / "sweep.html").read_text().count("<figure") == 4
    assert main(argv) == 0  # a rerun tops up nothing: every table is stored already
    assert [row["played"] for row in json.loads((out / "sweep.json").read_text())["variants"]] == [0, 0, 0, 0]


def test_sweep_needs_a_dimension(capsys, tmp_path: Path) -> None:
    assert main(["sweep", "edelweiss", "--agent", "random", "--out", str(tmp_path / "o")]) == 2
    assert "a sweep needs at least one --rule NAME=V1,V2" in capsys.readouterr().err


def test_a_card_edit_to_its_printed_value_is_the_game_as_specified(capsys, tmp_path: Path) -> None:
    """S14 costs 2: `S14.cost=2` is no variant (R-V1), so a sweep over 2,3 plays the baseline and 3 only."""
    from cardlab.games.aterial import Aterial

    assert Aterial.from_config({"patches": ["S14.cost=2"]}).config_json() == Aterial().config_json()
    assert Aterial.from_config({"patches": ["S14.cost=3"]}).config_json()["patches"] == ["S14.cost=3"]
    out = tmp_path / "sweep"
    argv = ["sweep", "aterial", "--patch", "S14.cost=2,3", "--agent", "random", "--games", "1", "--workers", "1",
            "--db", str(tmp_path / "lab.sqlite"), "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    capsys.readouterr()
    assert [row["label"] for row in json.loads((out / "sweep.json").read_text())["variants"]] == [
        "as specified",
        "S14.cost=3",
    ]


def test_a_variant_plays_the_deals_of_the_game_as_specified(capsys, tmp_path: Path) -> None:
    """Common random numbers: game k of a cell and seat has the same seed under every variant, so a rule that
    only turns equal-hand deck-outs into draws (E6.2) changes exactly those games and no other."""
    db = tmp_path / "lab.sqlite"
    common = ["balance", "edelweiss", "--agent", "random", "--engine", "reference", "--games", "6", "--workers", "1",
              "--db", str(db)]  # fmt: skip
    assert main([*common, "--out", str(tmp_path / "a")]) == 0
    assert main([*common, "--out", str(tmp_path / "b"), "--rule", "deck_out_tie=draw"]) == 0
    capsys.readouterr()
    with GamesDB(db) as store:
        key = lambda g: (g.cell, g.seat, g.game_index)  # noqa: E731
        baseline = {key(g): g for g in store.games("edelweiss", "symbolic", "random")}
        variant = {key(g): g for g in store.games("edelweiss", "symbolic+deck_out_tie=draw", "random")}
    assert baseline.keys() == variant.keys() and len(baseline) == 180
    changed = 0
    for k, game in baseline.items():
        assert variant[k].seed == game.seed
        if variant[k].winner != game.winner:
            changed += 1
            assert game.reason == "deck_out" and variant[k].winner == -1
    assert 0 < changed < len(baseline) // 4
