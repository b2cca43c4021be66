"""`cardlab export`: a game's stored lab results as one flat table for pandas, polars or DuckDB.

One row per reference game and one per kernel batch, in one schema (`COLUMNS`; docs/export.md):
a game is a batch of one. Parquet needs the `data` extra (pyarrow); CSV needs nothing.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cardlab.core.errors import CardlabError
from cardlab.store.games_db import GamesDB

COLUMNS: tuple[tuple[str, str], ...] = (
    ("kind", "string"),  # 'game' (reference engine, one game) or 'batch' (a compiled kernel's games)
    ("game", "string"),
    ("variant", "string"),
    ("agents", "string"),
    ("experiment", "string"),
    ("cell", "string"),
    ("seat", "int64"),
    ("p1", "string"),
    ("p2", "string"),
    ("seed", "int64"),
    ("first_index", "int64"),
    ("count", "int64"),
    ("p1_wins", "int64"),
    ("p2_wins", "int64"),
    ("draws", "int64"),
    ("reasons", "string"),
    ("turns", "int64"),
    ("decisions", "int64"),
    ("version", "string"),
    ("fingerprint", "string"),
)
"""(column, type) of every exported row, in order."""
FORMATS = ("parquet", "csv")


def rows(db: GamesDB, game: str) -> Iterator[dict[str, Any]]:
    """Every stored game and batch of `game`, as export rows."""
    for stored in db.all_games(game):
        yield {
            "kind": "game", "game": stored.game, "variant": stored.variant, "agents": stored.agents,
            "experiment": stored.experiment, "cell": stored.cell, "seat": stored.seat, "p1": stored.p1,
            "p2": stored.p2, "seed": stored.seed, "first_index": stored.game_index, "count": 1,
            "p1_wins": int(stored.winner == 0), "p2_wins": int(stored.winner == 1),
            "draws": int(stored.winner not in (0, 1)), "reasons": json.dumps({stored.reason: 1}),
            "turns": stored.turns, "decisions": stored.decisions, "version": stored.version,
            "fingerprint": stored.fingerprint,
        }  # fmt: skip
    for batch in db.all_batches(game):
        yield {
            "kind": "batch", "game": batch.game, "variant": batch.variant, "agents": batch.agents,
            "experiment": batch.experiment, "cell": batch.cell, "seat": batch.seat, "p1": batch.p1,
            "p2": batch.p2, "seed": batch.seed, "first_index": batch.first_index, "count": batch.count,
            "p1_wins": batch.p1_wins, "p2_wins": batch.p2_wins, "draws": batch.draws,
            "reasons": json.dumps(dict(batch.reasons), sort_keys=True), "turns": batch.turns,
            "decisions": batch.decisions, "version": batch.version, "fingerprint": batch.fingerprint,
        }  # fmt: skip


def export(db: GamesDB, game: str, fmt: str, path: Path) -> int:
    """Write the rows of `game` to `path` as `fmt`; returns how many rows were written."""
    if fmt not in FORMATS:
        raise CardlabError(f"unknown format {fmt!r}; one of {list(FORMATS)}")
    names = [name for name, _ in COLUMNS]
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "csv":
        written = 0
        with path.open("w", newline="") as handle:
            writer = csv.DictWriter(handle, names)
            writer.writeheader()
            for row in rows(db, game):
                writer.writerow(row)
                written += 1
        return written
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise CardlabError("parquet export needs the data extra: pip install -e '.[data]'") from None
    columns: dict[str, list[Any]] = {name: [] for name in names}
    for row in rows(db, game):
        for name in names:
            columns[name].append(row[name])
    types = {"string": pa.string(), "int64": pa.int64()}
    schema = pa.schema([(name, types[kind]) for name, kind in COLUMNS])
    pq.write_table(pa.table(columns, schema=schema), path)
    return len(columns["kind"])
