"""The lab's storage through the commands (issue #15): a database beside the output, tables that say
how many games are new, kernel games stored as batches, and no pooling across code versions unasked."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from cardlab.cli import main

TABLE = ["edelweiss", "--standard", "accel2", "--agent", "heuristic"]


def _balance(tmp_path: Path, *extra: str) -> list[str]:
    return ["balance", *TABLE, "--games", "2", "--workers", "1", "--engine", "reference", *extra]


def test_the_database_lives_beside_the_output_and_tables_say_what_is_new(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(_balance(tmp_path, "--out", "tables/run")) == 0
    assert (tmp_path / "tables" / "lab.sqlite").is_file()
    assert "60 new + 0 stored games" in capsys.readouterr().out
    assert main(_balance(tmp_path, "--out", "tables/run")) == 0
    out = capsys.readouterr().out
    assert "60 new + 60 stored games" in out
    assert "60 new + 60 stored games" in (tmp_path / "tables" / "run" / "report.html").read_text()
    assert main(["report", *TABLE, "--out", "tables/again"]) == 0
    assert "0 new + 120 stored games" in capsys.readouterr().out
    assert main(_balance(tmp_path)) == 0  # no --out: the default folder, and lab.sqlite in the current one
    assert (tmp_path / "lab.sqlite").is_file() and (tmp_path / "balance-edelweiss-accel2" / "summary.json").is_file()


def test_games_of_other_code_are_left_out_unless_pooled(tmp_path: Path, capsys) -> None:
    db, out = tmp_path / "lab.sqlite", tmp_path / "out"
    assert main(_balance(tmp_path, "--db", str(db), "--out", str(out))) == 0
    with sqlite3.connect(db) as conn:  # as if an older cardlab (other rules or heuristic) had played them
        conn.execute("UPDATE games SET fingerprint = 'older-code-0000'")
    capsys.readouterr()
    assert main(["report", *TABLE, "--db", str(db), "--out", str(out)]) == 2
    assert "left out 60 stored games played by other code" in capsys.readouterr().err
    assert main(_balance(tmp_path, "--db", str(db), "--out", str(out))) == 0
    printed = capsys.readouterr().out
    assert "left out 60 stored games played by other code" in printed and "60 new + 0 stored" in printed
    assert json.loads((out / "summary.json").read_text())["total_games"] == 60
    assert main(["report", *TABLE, "--db", str(db), "--out", str(out), "--pool"]) == 0
    assert "pooled games of 2 code fingerprints" in capsys.readouterr().out
    summary = json.loads((out / "summary.json").read_text())
    assert summary["total_games"] == 120 and len(summary["fingerprints"]) == 2


def test_kernel_tables_are_stored_as_batches(tmp_path: Path, capsys) -> None:
    pytest.importorskip("numba")
    db, out = tmp_path / "lab.sqlite", tmp_path / "out"
    argv = ["balance", *TABLE, "--games", "50", "--engine", "cpu", "--db", str(db), "--out", str(out)]
    assert main(argv) == 0 and main(argv) == 0
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*), SUM(count) FROM batches").fetchone() == (60, 3000)
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games_per_cell"] == 100 and summary["total_games"] == 3000
    rows = (out / "batches.csv").read_text().splitlines()
    assert len(rows) == 61 and rows[0].startswith("pairing,seat,p1,p2,seed,first_index,count")
    assert "1500 new + 1500 stored games" in capsys.readouterr().out


def _interrupt_after(monkeypatch: pytest.MonkeyPatch, module: object, name: str, calls: int) -> None:
    """Make `module.name` raise KeyboardInterrupt (as Ctrl-C would) once it has run `calls` times."""
    real = getattr(module, name)
    seen = [0]

    def flaky(*args: object, **kwargs: object) -> object:
        seen[0] += 1
        if seen[0] > calls:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, flaky)


@pytest.mark.parametrize(("engine", "target", "calls"), [("reference", "run_task", 45), ("cpu", "kernel_run", 7)])
def test_an_interrupted_run_keeps_its_games_and_the_same_command_finishes_it(
    tmp_path: Path, capsys, monkeypatch, engine: str, target: str, calls: int
) -> None:
    if engine == "cpu":
        pytest.importorskip("numba")
    from cardlab.sim import engines, tournament

    argv = ["balance", *TABLE, "--games", "3", "--workers", "1", "--engine", engine]
    whole, split = tmp_path / "whole", tmp_path / "split"
    assert main([*argv, "--db", str(whole / "lab.sqlite"), "--out", str(whole / "out")]) == 0
    with monkeypatch.context() as patch:
        _interrupt_after(patch, tournament if target == "run_task" else engines, target, calls)
        assert main([*argv, "--db", str(split / "lab.sqlite"), "--out", str(split / "out")]) == 130
    assert "run the command again to finish" in capsys.readouterr().out
    with sqlite3.connect(split / "lab.sqlite") as conn:
        kept = conn.execute("SELECT (SELECT COUNT(*) FROM games) + (SELECT COALESCE(SUM(count), 0) FROM batches)")
        assert kept.fetchone()[0] == calls * (1 if engine == "reference" else 3)
    assert main([*argv, "--db", str(split / "lab.sqlite"), "--out", str(split / "out")]) == 0
    assert "resuming an interrupted run" in capsys.readouterr().out
    finished, uninterrupted = (json.loads((d / "out" / "summary.json").read_text()) for d in (split, whole))
    assert finished == uninterrupted and finished["total_games"] == 90
    assert main([*argv, "--db", str(split / "lab.sqlite"), "--out", str(split / "out")]) == 0  # a new run now
    assert json.loads((split / "out" / "summary.json").read_text())["total_games"] == 180


def test_an_interrupted_compare_top_up_keeps_its_games_and_the_same_command_finishes_it(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    from cardlab.sim import tournament

    db, out = tmp_path / "lab.sqlite", tmp_path / "out"
    argv = ["compare", "edelweiss", "--standard", "accel2", "--agents", "heuristic,random", "--games", "2",
            "--workers", "1", "--engine", "reference", "--db", str(db), "--out", str(out)]  # fmt: skip
    with monkeypatch.context() as patch:
        _interrupt_after(patch, tournament, "run_task", 70)
        assert main(argv) == 130
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone() == (70,)
    assert main(argv) == 0
    with sqlite3.connect(db) as conn:  # 60 games per agent: only the missing ones were played
        assert conn.execute("SELECT agents, COUNT(*) FROM games GROUP BY agents ORDER BY agents").fetchall() == [
            ("heuristic", 60),
            ("random", 60),
        ]
