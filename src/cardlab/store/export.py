"""`cardlab export`: a game's stored lab results as one flat table for pandas, polars or DuckDB; and
`cardlab import`, its exact inverse, so that results outlive the machine whose database played them.

One row per reference game and one per kernel batch, in one schema (`COLUMNS`; docs/export.md):
a game is a batch of one. Parquet needs the `data` extra (pyarrow); CSV needs nothing. An exported
game carries no actions: imported, it is stored with none (nothing replays a lab game from them).
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Collection, Iterator, Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

from cardlab.core.errors import CardlabError
from cardlab.core.extras import needs_extra
from cardlab.store.games_db import GamesDB, StoredBatch, StoredGame

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
DRAW = -1
"""A drawn game's stored winner (the games table's convention)."""
_INTEGER = re.compile(r"-?[0-9]+")


def rows(db: GamesDB, game: str, agents: Collection[str] | None = None) -> Iterator[dict[str, Any]]:
    """Every stored game and batch of `game` (of those `agents` only, if given), as export rows."""
    for stored in db.all_games(game):
        if agents is not None and stored.agents not in agents:
            continue
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
        if agents is not None and batch.agents not in agents:
            continue
        yield {
            "kind": "batch", "game": batch.game, "variant": batch.variant, "agents": batch.agents,
            "experiment": batch.experiment, "cell": batch.cell, "seat": batch.seat, "p1": batch.p1,
            "p2": batch.p2, "seed": batch.seed, "first_index": batch.first_index, "count": batch.count,
            "p1_wins": batch.p1_wins, "p2_wins": batch.p2_wins, "draws": batch.draws,
            "reasons": json.dumps(dict(batch.reasons), sort_keys=True), "turns": batch.turns,
            "decisions": batch.decisions, "version": batch.version, "fingerprint": batch.fingerprint,
        }  # fmt: skip


def _arrow(action: str) -> tuple[Any, Any]:
    """pyarrow and pyarrow.parquet, or the error saying which extra brings them."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise CardlabError(needs_extra(f"parquet {action}", "data")) from None
    return pa, pq


def export(db: GamesDB, game: str, fmt: str, path: Path, agents: Collection[str] | None = None) -> int:
    """Write the rows of `game` (of `agents` only, if given) to `path` as `fmt`; returns how many were written."""
    if fmt not in FORMATS:
        raise CardlabError(f"unknown format {fmt!r}; one of {list(FORMATS)}")
    names = [name for name, _ in COLUMNS]
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "csv":
        written = 0
        with path.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, names)
            writer.writeheader()
            for row in rows(db, game, agents):
                writer.writerow(row)
                written += 1
        return written
    pa, pq = _arrow("export")
    columns: dict[str, list[Any]] = {name: [] for name in names}
    for row in rows(db, game, agents):
        for name in names:
            columns[name].append(row[name])
    types = {"string": pa.string(), "int64": pa.int64()}
    schema = pa.schema([(name, types[kind]) for name, kind in COLUMNS])
    pq.write_table(pa.table(columns, schema=schema), path)
    return len(columns["kind"])


# --- import: the inverse --------------------------------------------------------------------------------------


def read(path: Path) -> list[dict[str, Any]]:
    """An export file's rows as written (CSV: texts; Parquet: typed values), with every column checked present."""
    fmt = path.suffix.lower().removeprefix(".")
    if not path.is_file():
        raise CardlabError(f"{path}: no such file")
    if fmt not in FORMATS:
        raise CardlabError(f"{path}: expected a .parquet or .csv file, as cardlab export writes")
    names = [name for name, _ in COLUMNS]
    if fmt == "parquet":
        pa, pq = _arrow("import")
        try:
            found = pq.ParquetFile(path).schema_arrow.names
            _check_columns(path, found)
            return list(pq.read_table(path, columns=names).to_pylist())
        except (pa.ArrowException, OSError) as exc:
            raise CardlabError(f"{path}: not a readable Parquet file ({exc})") from None
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            reader = csv.reader(handle)
            header = next(reader, [])
            _check_columns(path, header)
            read_rows = []
            for number, values in enumerate(reader, 1):
                if len(values) != len(header):
                    raise CardlabError(f"{path} row {number}: {len(values)} fields, not the header's {len(header)}")
                read_rows.append(dict(zip(header, values, strict=True)))
            return read_rows
    except (UnicodeDecodeError, csv.Error) as exc:
        raise CardlabError(f"{path}: not a readable CSV file ({exc})") from None


def _check_columns(path: Path, found: Collection[str]) -> None:
    missing = [name for name, _ in COLUMNS if name not in found]
    if missing:
        raise CardlabError(f"{path} is not a cardlab export: no column {', '.join(missing)} (docs/export.md)")


def load(path: Path, game: str) -> tuple[list[StoredGame], list[StoredBatch]]:
    """The reference games and kernel batches of `game` in an export file: `rows`'s exact inverse (an
    exported game comes back with no actions). Every row is checked before any is returned, so that a
    bad file is refused whole, with its first bad row and column named."""
    games: list[StoredGame] = []
    batches: list[StoredBatch] = []
    for number, raw in enumerate(read(path), 1):
        where = f"{path} row {number}"
        row = _typed(raw, where)
        if row["game"] != game:
            raise CardlabError(f"{where}: a result of {row['game']!r}, not of {game!r}")
        if row["kind"] == "game":
            games.append(_stored_game(row))
        else:
            batches.append(_stored_batch(row))
    return games, batches


def _typed(raw: Mapping[str, Any], where: str) -> dict[str, Any]:
    """A row's values as the columns' types, checked to be what `rows` writes."""
    row: dict[str, Any] = {}
    for name, kind in COLUMNS:
        value = raw[name]
        if kind == "int64" and isinstance(value, str) and _INTEGER.fullmatch(value):
            value = int(value)  # a CSV's text
        if kind == "int64" and (not isinstance(value, int) or isinstance(value, bool)):
            raise CardlabError(f"{where}, column {name}: {value!r} is not an integer")
        if kind == "string" and not isinstance(value, str):
            raise CardlabError(f"{where}, column {name}: {value!r} is not a text")
        row[name] = value
    checks = (
        ("kind", row["kind"] in ("game", "batch"), "'game' or 'batch'"),
        ("seat", row["seat"] in (0, 1), "0 or 1"),
        ("count", row["count"] == 1 if row["kind"] == "game" else row["count"] >= 1, "1 for a game, else positive"),
        *((name, row[name] >= 0, "not negative") for name in ("first_index", "p1_wins", "p2_wins", "draws")),
        ("draws", row["p1_wins"] + row["p2_wins"] + row["draws"] == row["count"], "count - p1_wins - p2_wins"),
        *((name, row[name] >= 0, "not negative") for name in ("turns", "decisions")),
    )
    for name, holds, expected in checks:
        if not holds:
            raise CardlabError(f"{where}, column {name}: {row[name]!r}, expected {expected}")
    row["reasons"] = _reasons(row["reasons"], row["count"] if row["kind"] == "game" else None, where)
    return row


def _reasons(text: str, games: int | None, where: str) -> dict[str, int]:
    """The reasons column's JSON object; a game row's (`games` 1) names exactly one reason."""
    try:
        reasons = json.loads(text)
    except ValueError:
        reasons = None
    counts = reasons.values() if isinstance(reasons, dict) else [-1]
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts):
        raise CardlabError(f"{where}, column reasons: {text!r}, expected a JSON object of win reason -> games")
    if games is not None and list(counts) != [games]:
        raise CardlabError(f"{where}, column reasons: {text!r}, expected one win reason of one game")
    return dict(reasons)


def _stored_game(row: Mapping[str, Any]) -> StoredGame:
    """A game row back as the stored game it was exported from (its winner from its one result)."""
    winner = 0 if row["p1_wins"] else 1 if row["p2_wins"] else DRAW
    derived = {"game_index": row["first_index"], "winner": winner, "reason": next(iter(row["reasons"])), "actions": ()}
    return StoredGame(**{field.name: derived[field.name] if field.name in derived else row[field.name]
                         for field in fields(StoredGame)})  # fmt: skip


def _stored_batch(row: Mapping[str, Any]) -> StoredBatch:
    return StoredBatch(**{field.name: row[field.name] for field in fields(StoredBatch)})
