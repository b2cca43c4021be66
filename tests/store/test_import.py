"""`cardlab import`: an export file back into a database, exactly, so that a table outlives its machine."""

from __future__ import annotations

import csv
import json
import sqlite3
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from cardlab.cli import main
from cardlab.core.extras import install_hint
from cardlab.sim.balance import matchups_for
from cardlab.sim.compare import top_up
from cardlab.sim.tournament import run_tasks
from cardlab.store.export import COLUMNS, export, load
from cardlab.store.games_db import GamesDB, StoredBatch, StoredGame
from tests.sim.runners import stopped_after

GAME = StoredGame("edelweiss", "symbolic", "heuristic", "balance/x", "GARU-EAGLE", 0, 0, "GARU", "EAGLE", 123, 1,
                  "deck_out", 27, 25, ("SUMMON S", "END_TURN"), "0.1.0", "f" * 16)  # fmt: skip
GAMES = [
    GAME,
    replace(GAME, seat=1, p1="EAGLE", p2="GARU", winner=0, reason="attack"),
    replace(GAME, game_index=1, winner=-1, reason="turn_limit"),  # a draw
    replace(GAME, experiment="balance/old", version="", fingerprint=""),  # played before schema version 2
]
BATCH = StoredBatch("edelweiss", "symbolic", "heuristic", "balance/x/engine=cpu", "GARU-EAGLE", 1, "EAGLE", "GARU",
                    77, 0, 1000, 580, 418, 2, {"attack": 900, "deck_out": 100}, 20_000, 19_000, "0.1.0",
                    "a" * 16)  # fmt: skip
BATCHES = [BATCH, replace(BATCH, first_index=1000, seed=78, p1_wins=500, p2_wins=500, draws=0)]


def _lab(path: Path, games: Sequence[StoredGame] = GAMES, batches: Sequence[StoredBatch] = BATCHES) -> Path:
    with GamesDB(path) as db:
        db.add(games)
        db.add_batches(batches)
    return path


def _table(path: Path, agent: str = "heuristic") -> tuple[Any, ...]:
    """What balance, report and compare read of a database: counts, stored keys, games and batches."""
    with GamesDB(path) as db:
        games = list(db.games("edelweiss", "symbolic", agent))
        experiments = {game.experiment for game in games} | {b.experiment for b in db.all_batches("edelweiss")}
        keys = {experiment: db.stored_keys(experiment) for experiment in experiments}
        without_actions = [replace(game, actions=()) for game in games]
        return (
            db.counts("edelweiss", "symbolic", agent),
            keys,
            without_actions,
            db.batches("edelweiss", "symbolic", agent),
        )


# --- the store: export's exact inverse ----------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_load_gives_back_every_stored_row_without_its_actions(tmp_path: Path, fmt: str) -> None:
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    path = tmp_path / f"x.{fmt}"
    with GamesDB(_lab(tmp_path / "a.sqlite")) as db:
        assert export(db, "edelweiss", fmt, path) == len(GAMES) + len(BATCHES)
    games, batches = load(path, "edelweiss")
    assert games == [replace(game, actions=()) for game in GAMES]
    assert batches == BATCHES


def test_a_second_import_adds_nothing(tmp_path: Path) -> None:
    with GamesDB(tmp_path / "b.sqlite") as db:
        assert db.add_new(GAMES, BATCHES) == (GAMES, BATCHES)
        assert db.add_new(GAMES, BATCHES) == ([], [])
        assert db.add_new([replace(GAME, game_index=7)], []) == ([replace(GAME, game_index=7)], [])
        assert len(list(db.all_games("edelweiss"))) == len(GAMES) + 1
        assert len(list(db.all_batches("edelweiss"))) == len(BATCHES)


def test_an_import_is_one_transaction(tmp_path: Path) -> None:
    with GamesDB(tmp_path / "b.sqlite") as db:
        broken = replace(BATCH, p1=None)  # NOT NULL fails after the games went in
        with pytest.raises(sqlite3.IntegrityError):
            db.add_new(GAMES, [broken])
        assert list(db.all_games("edelweiss")) == []


def test_export_can_keep_only_some_agents(tmp_path: Path) -> None:
    lab = _lab(tmp_path / "a.sqlite", [*GAMES, replace(GAME, agents="random", experiment="balance/r")])
    path = tmp_path / "x.csv"
    argv = ["export", "edelweiss", "--db", str(lab), "--format", "csv", "--out", str(path)]
    assert main([*argv, "--agent", "random"]) == 0
    assert [game.agents for game in load(path, "edelweiss")[0]] == ["random"]
    assert main([*argv, "--agent", "heuristic", "--agent", "random"]) == 0
    assert len(load(path, "edelweiss")[0]) == len(GAMES) + 1 and len(load(path, "edelweiss")[1]) == len(BATCHES)


# --- the command: a real table carried to another database --------------------------------------------------


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database holding a real table: 4 heuristic games per pairing and seat, on the reference engine."""
    db = tmp_path_factory.mktemp("lab") / "a.sqlite"
    argv = ["balance", "edelweiss", "--agent", "heuristic", "--games", "4", "--engine", "reference", "--workers", "1"]
    assert main([*argv, "--db", str(db), "--out", str(db.parent / "out")]) == 0
    return db


def _said(capsys: pytest.CaptureFixture[str]) -> str:
    """What a command printed, its lines as the terminal's width wrapped them joined again."""
    return " ".join(capsys.readouterr().out.split())


def _report(db: Path, out: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, dict[str, Any], str]:
    assert main(["report", "edelweiss", "--agent", "heuristic", "--db", str(db), "--out", str(out)]) == 0
    printed = capsys.readouterr().out.replace(str(out), "OUT")
    return printed, json.loads((out / "summary.json").read_text()), (out / "results.csv").read_text()


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_an_imported_table_is_the_exported_one(played: Path, tmp_path: Path, capsys, monkeypatch, fmt: str) -> None:
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    monkeypatch.setenv("COLUMNS", "40")  # a narrow terminal: a long temporary path still stays whole on its line
    path, b = tmp_path / f"table.{fmt}", tmp_path / "b.sqlite"
    assert main(["export", "edelweiss", "--db", str(played), "--format", fmt, "--out", str(path)]) == 0
    assert main(["import", "edelweiss", str(path), "--db", str(b)]) == 0
    assert f"{path}: 120 rows added to {b} (120 games), 0 already there (0 games)" in _said(capsys)
    assert _table(b) == _table(played)
    assert _report(b, tmp_path / "rb", capsys) == _report(played, tmp_path / "ra", capsys)
    again = tmp_path / f"again.{fmt}"  # and the import's export is the export, byte for byte in CSV
    assert main(["export", "edelweiss", "--db", str(b), "--format", fmt, "--out", str(again)]) == 0
    assert load(again, "edelweiss") == load(path, "edelweiss")
    if fmt == "csv":
        assert again.read_bytes() == path.read_bytes()

    assert main(["import", "edelweiss", str(path), "--db", str(b)]) == 0  # twice: nothing more
    assert ": 0 rows added" in _said(capsys) and _table(b) == _table(played)
    assert main(["import", "edelweiss", str(path), "--db", str(played)]) == 0  # into its own database: the same
    assert "0 rows added to" in _said(capsys)


SYMBOLIC = matchups_for("edelweiss", "symbolic")


def _stored(path: Path) -> list[tuple[str, int, int, int, int, str]]:
    with GamesDB(path) as db:
        games = db.games("edelweiss", "symbolic", "random")
        return sorted((g.cell, g.game_index, g.seat, g.seed, g.winner, g.fingerprint) for g in games)


def test_a_top_up_after_an_import_plays_only_the_missing_games(tmp_path: Path, capsys) -> None:
    """The lost-machine case: a table stopped part-way on machine A, exported, imported on machine B and
    topped up there holds exactly the games one uninterrupted run plays."""
    pytest.importorskip("pyarrow")
    whole, a, b = tmp_path / "whole.sqlite", tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    with GamesDB(whole) as db:
        assert top_up(db, SYMBOLIC, "random", 3, 7, False, "reference", lambda t: run_tasks(t, workers=1)) == 90
    with GamesDB(a) as db, pytest.raises(KeyboardInterrupt):
        top_up(db, SYMBOLIC, "random", 3, 7, False, "reference", stopped_after(31))  # odd: a pair half played
    carried = tmp_path / "a.parquet"
    assert main(["export", "edelweiss", "--db", str(a), "--out", str(carried)]) == 0
    assert main(["import", "edelweiss", str(carried), "--db", str(b)]) == 0
    compare = ["compare", "edelweiss", "--agents", "random,random", "--games", "3", "--seed", "7", "--workers", "1"]
    assert main([*compare, "--engine", "reference", "--db", str(b), "--out", str(tmp_path / "cmp")]) == 0
    assert "random: played 59 missing games" in _said(capsys)
    assert _stored(b) == _stored(whole)


# --- bad input: one line, exit 2, nothing written -----------------------------------------------------------


def _rows(played: Path, tmp_path: Path) -> list[dict[str, str]]:
    path = tmp_path / "good.csv"
    assert main(["export", "edelweiss", "--db", str(played), "--format", "csv", "--out", str(path)]) == 0
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def _write(path: Path, rows: Sequence[dict[str, str]], names: Sequence[str] = tuple(n for n, _ in COLUMNS)) -> Path:
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, list(names), extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    return path


def _bad(name: str, rows: list[dict[str, str]], tmp_path: Path) -> Path:
    """A file that is wrong in one way (`name`), its last row the bad one where a row is."""
    last = dict(rows[-1])
    if name == "missing":
        return tmp_path / "none.parquet"
    if name == "not an export":
        return _write(tmp_path / "x.csv", rows, [n for n, _ in COLUMNS if n not in ("seed", "fingerprint")])
    if name == "another game":
        return _write(tmp_path / "x.csv", [*rows[:-1], {**last, "game": "aterial"}])
    if name == "malformed integer":
        return _write(tmp_path / "x.csv", [*rows[:-1], {**last, "seat": "first"}])
    if name == "malformed reasons":
        return _write(tmp_path / "x.csv", [*rows[:-1], {**last, "reasons": "deck_out"}])
    if name == "a game of two reasons":
        return _write(tmp_path / "x.csv", [*rows[:-1], {**last, "reasons": '{"attack": 1, "deck_out": 1}'}])
    if name == "results do not add up":
        return _write(tmp_path / "x.csv", [*rows[:-1], {**last, "p1_wins": "1", "p2_wins": "1", "draws": "0"}])
    if name == "short row":
        path = _write(tmp_path / "x.csv", rows)
        path.write_text(path.read_text() + "game,edelweiss\n")
        return path
    if name == "not parquet":
        path = tmp_path / "x.parquet"
        path.write_text("kind,game\n")
        return path
    raise AssertionError(name)


BAD = {
    "missing": "none.parquet: no such file",
    "not an export": "x.csv is not a cardlab export: no column seed, fingerprint",
    "another game": "x.csv row 120: a result of 'aterial', not of 'edelweiss'",
    "malformed integer": "x.csv row 120, column seat: 'first' is not an integer",
    "malformed reasons": "x.csv row 120, column reasons: 'deck_out', expected a JSON object",
    "a game of two reasons": 'x.csv row 120, column reasons: \'{"attack": 1, "deck_out": 1}\', expected one',
    "results do not add up": "x.csv row 120, column draws: 0, expected count - p1_wins - p2_wins",
    "short row": "x.csv row 121: 2 fields, not the header's 20",
    "not parquet": "x.parquet: not a readable Parquet file",
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_input_is_refused_in_one_line_and_nothing_is_written(
    played: Path, tmp_path: Path, capsys, name: str
) -> None:
    if name == "not parquet":
        pytest.importorskip("pyarrow")
    bad = _bad(name, _rows(played, tmp_path), tmp_path)
    db = _lab(tmp_path / "b.sqlite", [replace(GAME, experiment="balance/other")], [])
    before = _table(db)
    capsys.readouterr()
    assert main(["import", "edelweiss", str(bad), "--db", str(db)]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"cardlab: error: {tmp_path}/{BAD[name]}") and captured.err.count("\n") == 1
    assert "Traceback" not in captured.err and captured.out == ""
    assert _table(db) == before
    fresh = tmp_path / "fresh.sqlite"
    assert main(["import", "edelweiss", str(bad), "--db", str(fresh)]) == 2 and not fresh.exists()


def test_a_database_that_is_not_one_is_named(played: Path, tmp_path: Path, capsys) -> None:
    path, db = tmp_path / "x.csv", tmp_path / "notes.txt"
    assert main(["export", "edelweiss", "--db", str(played), "--format", "csv", "--out", str(path)]) == 0
    db.write_text("not a database\n" * 100)
    assert main(["import", "edelweiss", str(path), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err == f"cardlab: error: --db {db}: file is not a database\n" and db.read_text().startswith("not a")


def test_parquet_without_pyarrow_says_which_extra(played: Path, tmp_path: Path, capsys, monkeypatch) -> None:
    path = _write(tmp_path / "x.parquet", [])
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # `import pyarrow` now raises ImportError
    assert main(["import", "edelweiss", str(path), "--db", str(tmp_path / "b.sqlite")]) == 2
    assert f"parquet import needs the data extra: {install_hint('data')}" in capsys.readouterr().err


# --- the TCG study keeps its games in games.parquet ---------------------------------------------------------


def test_the_tcg_study_carries_its_games_from_sitting_to_sitting(tmp_path: Path, monkeypatch) -> None:
    """Each sitting imports the kept games.parquet before it plays and exports the table after it, a stopped
    or failed one too, so that a sitting on a fresh database goes on where the last one stopped."""
    pytest.importorskip("pyarrow")
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2] / "benchmarks"))
    import tcg_tables_study as study

    search = study.STUDIES["aterial"][0]
    folder = tmp_path / "keep"
    folder.mkdir()
    sittings: list[dict[str, Any]] = []

    def fake_compare(argv: list[str], workers: int, backend: list[str]) -> tuple[float, bool]:
        """The compare command of one sitting: what it finds stored, then a few games of each agent played."""
        sitting = sittings[-1]
        db = Path(argv[argv.index("--db") + 1])
        with GamesDB(db) as store:
            if "--games" not in argv:  # the re-read after a stop plays nothing
                return 0.5, False
            sitting["found"] = sorted((g.agents, g.game_index) for g in store.all_games("aterial"))
            start = len(sittings) - 1
            store.add(replace(GAME, game="aterial", agents=agent, experiment=f"balance/aterial/{agent}", game_index=i)
                      for agent in ("heuristic", search, "random") for i in (start,))  # fmt: skip
        compare = folder / "compare"
        compare.mkdir(exist_ok=True)
        (compare / "comparison.json").write_text(json.dumps({"games": [len(sittings), len(sittings)]}))
        if sitting.get("fail"):
            raise SystemExit("the compare failed")
        return 1.0, sitting["stopped"]

    monkeypatch.setattr(study, "cardlab", fake_compare)

    def sit(db: Path, stopped: bool, fail: bool = False) -> bool:
        sittings.append({"stopped": stopped, "fail": fail})
        return study.run_game("aterial", 4, db, folder, 1, [], ladder=False)

    kept = folder / study.GAMES_FILE

    def kept_games() -> list[tuple[str, int]]:
        return sorted((g.agents, g.game_index) for g in load(kept, "aterial")[0])

    assert sit(tmp_path / "machine-a.sqlite", stopped=True)  # Ctrl-C'd: its games are kept all the same
    assert sittings[0]["found"] == [] and kept_games() == [("heuristic", 0), (search, 0)]  # no random: small
    assert not sit(tmp_path / "machine-b.sqlite", stopped=False)  # another machine, a fresh database
    assert sittings[1]["found"] == [("heuristic", 0), (search, 0)]
    assert kept_games() == [("heuristic", 0), ("heuristic", 1), (search, 0), (search, 1)]
    with pytest.raises(SystemExit):
        sit(tmp_path / "machine-a.sqlite", stopped=False, fail=True)  # back on A: imports B's, skips its own
    assert sittings[2]["found"] == sorted([("heuristic", 0), ("heuristic", 1), ("random", 0), (search, 0), (search, 1)])
    assert kept_games() == [(agent, i) for agent in ("heuristic", search) for i in range(3)]
    assert [run["stopped"] for run in json.loads((folder / "run.json").read_text())["runs"]] == [True, False]
    assert not (folder / f"{study.GAMES_FILE}.part").exists()
