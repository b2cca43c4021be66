"""What-if through the commands (issue #17): `cardlab rules`, `--rule` on play/simulate/balance, and `sweep`."""

from __future__ import annotations

import io
import json
import sqlite3
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
    assert labels == ["first_draw=yes+deck_out_tie=P2 (as specified)", "first_draw=yes+deck_out_tie=draw",
                      "first_draw=no+deck_out_tie=P2", "first_draw=no+deck_out_tie=draw"]  # fmt: skip
    assert sweep["baseline"] == labels[0] and [row["as_specified"] for row in sweep["variants"]] == [1, 0, 0, 0]
    assert [row["rules"] for row in sweep["variants"]][1:] == [
        {"deck_out_tie": "draw"}, {"first_draw": "no"}, {"deck_out_tie": "draw", "first_draw": "no"}
    ]  # fmt: skip
    for row in sweep["variants"]:
        assert row["total_games"] == 120 and set(row["characters"]) == set(sweep["entrants"])
        assert row["games_per_cell"] == 4 and row["played"] == 120 and row["reused"] == 0
        assert row["vs_baseline"]["verdict"] and row["most_unbalanced"]["cell"]
        assert 0.0 <= row["first_player"]["rate"] <= 1.0
        assert row["label"] in printed
    assert sweep["variants"][0]["vs_baseline"]["max_abs_diff"] == 0.0  # the baseline against itself
    assert (out / "sweep.html").read_text().count("<figure") == 4
    assert "4 games per cell and seat in every row" in printed and "all played by this run" in printed
    assert main(argv) == 0  # a rerun tops up nothing: every table is stored already
    printed = " ".join(capsys.readouterr().out.split())
    rerun = json.loads((out / "sweep.json").read_text())
    assert [(row["played"], row["reused"]) for row in rerun["variants"]] == [(0, 120)] * 4
    assert "all games stored by an earlier run of this same plan" in printed


def test_every_row_of_a_sweep_is_its_own_plan_of_games(capsys, tmp_path: Path) -> None:
    """Issue #33: every row holds exactly --games per pairing and seat and the rows share their deals; since
    issue #51 a row is the first --games of its variant's balance table (a larger one's are not counted)."""
    db = tmp_path / "lab.sqlite"
    balance = ["balance", "edelweiss", "--agent", "random", "--engine", "reference", "--games", "6", "--workers", "1",
               "--db", str(db), "--out", str(tmp_path / "b")]  # fmt: skip
    assert main(balance) == 0

    def sweep(games: int) -> dict:
        argv = ["sweep", "edelweiss", "--rule", "deck_out_tie=P2,draw", "--agent", "random", "--engine", "reference",
                "--games", str(games), "--workers", "1", "--db", str(db), "--out", str(tmp_path / "s")]  # fmt: skip
        assert main(argv) == 0
        return json.loads((tmp_path / "s" / "sweep.json").read_text())

    for games in (4, 3, 4):
        rows = sweep(games)["variants"]
        assert [row["total_games"] for row in rows] == [30 * games] * 2
        assert all(row["games_per_cell"] == games for row in rows)
    assert [(row["played"], row["reused"]) for row in rows] == [(0, 120)] * 2  # the same plan again: reused
    capsys.readouterr()
    with GamesDB(db) as store:
        games = list(store.games("edelweiss", "symbolic", "random"))
        variant = list(store.games("edelweiss", "symbolic+deck_out_tie=draw", "random"))
    assert {g.experiment for g in games + variant} == {  # every row is its variant's balance table
        "balance/edelweiss/symbolic/random/seed=0", "balance/edelweiss/symbolic+deck_out_tie=draw/random/seed=0"
    }  # fmt: skip
    assert len(games) == 2 * 15 * 6 and len(variant) == 2 * 15 * 4  # balance's 6, reused; the variant's 4
    plan = {g.seed for g in games if g.game_index < 4}
    assert len(plan) == 60  # a deal per cell and index, both seats
    assert plan == {g.seed for g in variant}  # common random numbers


def test_a_rule_named_alone_sweeps_every_value(capsys, tmp_path: Path) -> None:
    """`--rule NAME` means every value of the option, as in `tune` (issue #54; one parser for both)."""
    argv = ["sweep", "edelweiss", "--rule", "opening_hand", "--rule", "first_draw=no", "--agent", "random",
            "--engine", "reference", "--games", "1", "--workers", "1", "--db", str(tmp_path / "lab.sqlite"),
            "--out", str(tmp_path / "sweep")]  # fmt: skip
    assert main(argv) == 0
    capsys.readouterr()
    sweep = json.loads((tmp_path / "sweep" / "sweep.json").read_text())
    values = ("standard", "3", "4", "5", "6")
    assert [row["label"] for row in sweep["variants"]] == ["as specified"] + [
        f"opening_hand={value}+first_draw=no" for value in values
    ]
    assert main([*argv, "--rule", "first_draw="]) == 2
    assert "--rule takes NAME or NAME=VALUE[,VALUE...], got 'first_draw='" in capsys.readouterr().err


def test_sweep_needs_a_dimension(capsys, tmp_path: Path) -> None:
    assert main(["sweep", "edelweiss", "--agent", "random", "--out", str(tmp_path / "o")]) == 2
    assert "a sweep needs at least one --rule NAME=V1,V2" in capsys.readouterr().err


def test_a_card_edit_to_its_printed_value_is_the_game_as_specified(capsys, monkeypatch, tmp_path: Path) -> None:
    """S14 costs 2: `S14.cost=2` is no variant (R-V1), so a sweep over 2,3 plays the baseline, labelled
    `S14.cost=2 (as specified)`, and 3 only."""
    from cardlab.games.aterial import Aterial

    assert Aterial.from_config({"patches": ["S14.cost=2"]}).config_json() == Aterial().config_json()
    assert Aterial.from_config({"patches": ["S14.cost=3"]}).config_json()["patches"] == ["S14.cost=3"]
    monkeypatch.setenv("COLUMNS", "400")  # table rows on one line each
    out = tmp_path / "sweep"
    argv = ["sweep", "aterial", "--patch", "S14.cost=2,3", "--agent", "random", "--games", "1", "--workers", "1",
            "--db", str(tmp_path / "lab.sqlite"), "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    printed = " ".join(capsys.readouterr().out.split())
    sweep = json.loads((out / "sweep.json").read_text())
    assert [row["label"] for row in sweep["variants"]] == ["S14.cost=2 (as specified)", "S14.cost=3"]
    assert [row["patches"] for row in sweep["variants"]] == [[], ["S14.cost=3"]]
    assert sweep["baseline"] == "S14.cost=2 (as specified)" and "S14.cost=2 (as specified)" in printed
    # One game a cell and seat resolves nothing: the verdict says so, with the resolution, never "converged".
    verdict = sweep["variants"][1]["vs_baseline"]["verdict"]
    resolution = sweep["variants"][1]["vs_baseline"]["resolution_pp"]
    assert resolution > 100 and verdict == (
        f"no difference found, resolution ±{resolution:.1f} pp: too few games for any difference to be flagged"
    )
    assert verdict in printed and sweep["resolution_pp"] == resolution
    assert "converged" not in printed and "converged" not in (out / "sweep.html").read_text()
    assert "1 games per cell and seat in every row" in printed
    assert f"about {sweep['games_for_10_pp']:,} games per pairing and seat would resolve 10 pp" in printed


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


def test_a_kernel_sweep_plays_one_batch_per_cell_and_seat_of_its_plan(capsys, monkeypatch, tmp_path: Path) -> None:
    """The same plan on a kernel (`--engine cpu`): N games per cell and seat in one batch each, stored under the
    plan's own experiment, so a rerun plays nothing and a sweep of another size plays its own."""
    pytest.importorskip("numba")
    from cardlab.sim import engines
    from cardlab.sim.engines import KernelGame, KernelRun

    sizes: list[int] = []

    def fake_run(
        game: str, config: dict, agents: tuple[str, str], games: int, seed: int, engine: str, **_: object
    ) -> KernelRun:
        sizes.append(games)
        return KernelRun.of_games([KernelGame(i % 2, "attack", 9, 20) for i in range(games)], (0.01, 0.01),
                                  (games * 10,) * 2)  # fmt: skip

    monkeypatch.setattr(engines, "kernel_run", fake_run)
    db = tmp_path / "lab.sqlite"

    def sweep(games: int) -> dict:
        argv = ["sweep", "edelweiss", "--rule", "first_draw=yes,no", "--agent", "heuristic", "--engine", "cpu",
                "--games", str(games), "--db", str(db), "--out", str(tmp_path / "s")]  # fmt: skip
        assert main(argv) == 0
        capsys.readouterr()
        return json.loads((tmp_path / "s" / "sweep.json").read_text())

    rows = sweep(4)["variants"]
    assert sizes == [4] * (2 * 15 * 2)  # per variant, pairing and seat one batch
    assert [(row["label"], row["games_per_cell"], row["played"]) for row in rows] == [
        ("first_draw=yes (as specified)", 4, 120), ("first_draw=no", 4, 120)
    ]  # fmt: skip
    sizes.clear()
    assert [row["reused"] for row in sweep(4)["variants"]] == [120, 120] and sizes == []
    with sqlite3.connect(db) as conn:  # a batch Ctrl-C stopped after 1 of its 4 games: the next sweep plays on
        conn.execute("UPDATE batches SET count = 1, p1_wins = 1, p2_wins = 0 WHERE cell = 'GARU-EAGLE' AND seat = 1 "
                     "AND variant = 'symbolic'")  # fmt: skip
    conn.close()
    rows = sweep(4)["variants"]
    assert sizes == [3] and [(row["played"], row["total_games"]) for row in rows] == [(3, 120), (0, 120)]
    sizes.clear()  # a larger sweep plays each batch on (a row is its variant's balance table, issue #51)
    assert [row["total_games"] for row in sweep(6)["variants"]] == [180, 180] and sizes == [2] * 60
    with GamesDB(db) as store:
        experiments = {b.experiment for b in store.batches("edelweiss", "symbolic", "heuristic")}
    assert experiments == {"balance/edelweiss/symbolic/heuristic/seed=0/engine=cpu"}


def test_rules_marks_each_options_default_among_its_values(capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "400")
    assert main(["rules", "aterial"]) == 0
    out = capsys.readouterr().out
    for option in game_class("aterial").rule_options:
        listed = ", ".join(f"{v} (default)" if v == option.default else v for v in option.values)
        assert f"│ {listed} " in out
    assert "│ yes (default), no " in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["balance", "edelweiss", "--agents", "a,b"],
         "--agents is not an option of `balance edelweiss`; it is taken by: simulate, ladder, compare "
         "(see: cardlab balance edelweiss --help)"),
        (["simulate", "aterial", "--standard=accel2"],
         "--standard is not an option of `simulate aterial`, nor of any other command for aterial; it is taken for "
         "edelweiss by play, simulate, balance, report, ladder, compare, sweep"),
        (["report", "edelweiss", "--nonsense"], "--nonsense is not an option of `report edelweiss`: no cardlab"),
    ],
)  # fmt: skip
def test_an_option_the_command_does_not_take_names_the_commands_that_do(capsys, argv, message) -> None:
    assert main(argv) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert message in err and "is not an option of edelweiss" not in err


def test_report_without_games_of_its_agent_lists_the_agents_it_holds(capsys, tmp_path: Path) -> None:
    """Issue #33: `cardlab report` with the default agent on a database of heuristic games names what it holds."""
    db = tmp_path / "lab.sqlite"
    common = ["--db", str(db), "--out", str(tmp_path / "o")]
    assert main(["balance", "edelweiss", "--agent", "random", "--engine", "reference", "--games", "1",
                 "--workers", "1", *common]) == 0  # fmt: skip
    capsys.readouterr()
    assert main(["report", "edelweiss", *common]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "no stored games for edelweiss symbolic with agent 'ismcts" in err
    assert "the database holds games of edelweiss symbolic by: random (30 games); name one with --agent" in err
    assert main(["report", "edelweiss", "--standard", "accel2", *common]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "holds no games of edelweiss accel2 (games of other variants by: random)" in err
    assert main(["compare", "edelweiss", "--agents", "random,heuristic", *common]) == 2
    assert "by: random (30 games); name one with --agents A,B" in " ".join(capsys.readouterr().err.split())
