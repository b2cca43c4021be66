"""`cardlab export`: stored games and kernel batches as one table, read back with DuckDB (issue #15)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from cardlab.cli import main
from cardlab.store.export import COLUMNS


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with 60 reference games and, where the kernel is installed, 30 batches of 20."""
    db = tmp_path_factory.mktemp("lab") / "lab.sqlite"
    table = ["balance", "edelweiss", "--standard", "accel2", "--agent", "heuristic", "--db", str(db)]
    out = ["--out", str(db.parent / "out")]
    assert main([*table, "--games", "2", "--workers", "1", "--engine", "reference", *out]) == 0
    try:
        import numba  # noqa: F401

        assert main([*table, "--games", "20", "--engine", "cpu", *out]) == 0
    except ImportError:
        pass
    return db


def _expected_games(lab: Path) -> int:
    import importlib.util

    return 60 + (600 if importlib.util.find_spec("numba") else 0)


def test_parquet_reads_back_with_duckdb(lab: Path, tmp_path: Path) -> None:
    duckdb = pytest.importorskip("duckdb")
    pytest.importorskip("pyarrow")
    path = tmp_path / "edelweiss.parquet"
    assert main(["export", "edelweiss", "--db", str(lab), "--format", "parquet", "--out", str(path)]) == 0
    described = duckdb.sql(f"DESCRIBE SELECT * FROM '{path}'").fetchall()
    assert [(row[0], row[1]) for row in described] == [
        (name, "VARCHAR" if kind == "string" else "BIGINT") for name, kind in COLUMNS
    ]
    [(games, wins)] = duckdb.sql(f"SELECT SUM(count), SUM(p1_wins + p2_wins + draws) FROM '{path}'").fetchall()
    assert games == wins == _expected_games(lab)
    per_cell = duckdb.sql(f"SELECT cell, seat, SUM(count) FROM '{path}' GROUP BY ALL ORDER BY ALL").fetchall()
    assert len(per_cell) == 30 and {row[2] for row in per_cell} == {_expected_games(lab) // 30}


def test_csv_has_the_same_rows(lab: Path, tmp_path: Path) -> None:
    path = tmp_path / "edelweiss.csv"
    assert main(["export", "edelweiss", "--db", str(lab), "--format", "csv", "--out", str(path)]) == 0
    with path.open() as handle:
        rows = list(csv.DictReader(handle))
    assert list(rows[0]) == [name for name, _ in COLUMNS]
    assert sum(int(row["count"]) for row in rows) == _expected_games(lab)
    assert {row["kind"] for row in rows if row["count"] == "1"} >= {"game"}


def test_a_missing_database_is_an_error_not_a_new_file(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "none.sqlite"
    assert main(["export", "edelweiss", "--db", str(missing), "--out", str(tmp_path / "x.csv")]) == 2
    assert "no such database" in capsys.readouterr().err and not missing.exists()
