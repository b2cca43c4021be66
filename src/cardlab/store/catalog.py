"""What a lab database holds, listed for a reader that did not play it (the web lab, issue #53): every stored
table (a game, variant and agent) with its games, dates, code fingerprints and the commands that played it,
the stored comparisons, and the games of one cell. Read-only: it opens the file without creating it."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardlab.store.games_db import _COLUMNS, StoredGame, _stored_game

KINDS = ("balance", "tune")
"""An experiment's first word: `balance/...` (balance, sweep rows, compare top-ups) or `tune/...`."""


@contextmanager
def read_only(path: Path) -> Iterator[sqlite3.Connection | None]:
    """The database opened read-only, or None where there is no database yet (nothing is created)."""
    if not path.is_file():
        yield None
        return
    with closing(sqlite3.connect(f"file:{path.resolve().as_posix()}?mode=ro", uri=True)) as conn:
        try:
            conn.execute("SELECT 1 FROM games LIMIT 1")
        except sqlite3.DatabaseError:  # not a lab database (or not SQLite at all)
            yield None
            return
        yield conn


@dataclass
class StoredTable:
    """One table the database can report: a game, its variant (rules and card edits in the name) and agent."""

    game: str
    variant: str
    agent: str
    games: int = 0
    kernel_games: int = 0
    first: str = ""
    last: str = ""
    fingerprints: set[str] = field(default_factory=set)
    kinds: set[str] = field(default_factory=set)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "variant": self.variant, "agent": self.agent, "games": self.games,
            "kernel_games": self.kernel_games, "first": self.first, "last": self.last,
            "fingerprints": sorted(f or "before version 2" for f in self.fingerprints), "kinds": sorted(self.kinds),
        }  # fmt: skip


def stored_tables(path: Path, game: str | None = None) -> list[StoredTable]:
    """Every (game, variant, agent) with stored games, newest first: reference games and kernel batches."""
    found: dict[tuple[str, str, str], StoredTable] = {}
    where, params = ("WHERE game = ?", (game,)) if game else ("", ())
    queries = (
        ("games", "COUNT(*)", "0"),
        ("batches", "SUM(count)", "SUM(count)"),
    )
    with read_only(path) as conn:
        if conn is None:
            return []
        for table, games, kernel in queries:
            rows = conn.execute(
                f"SELECT game, variant, agents, {games}, {kernel}, MIN(created), MAX(created), "
                f"GROUP_CONCAT(DISTINCT fingerprint), GROUP_CONCAT(DISTINCT substr(experiment, 1, "
                f"instr(experiment, '/') - 1)) FROM {table} {where} GROUP BY game, variant, agents",
                params,
            )
            for name, variant, agent, count, kernel_count, first, last, prints, kinds in rows:
                entry = found.setdefault((name, variant, agent), StoredTable(name, variant, agent))
                entry.games += int(count or 0)
                entry.kernel_games += int(kernel_count or 0)
                entry.first = min(filter(None, (entry.first, first)), default="")
                entry.last = max(entry.last, last or "")
                entry.fingerprints |= set((prints or "").split(",")) if prints is not None else set()
                entry.kinds |= {kind for kind in (kinds or "").split(",") if kind}
    return sorted(found.values(), key=lambda t: (t.last, t.game, t.variant, t.agent), reverse=True)


def stored_comparisons(path: Path, game: str | None = None) -> list[dict[str, Any]]:
    """The comparisons `cardlab compare` stored: id, game, variant, both agents, date and verdict; newest first."""
    where, params = ("WHERE game = ?", (game,)) if game else ("", ())
    with read_only(path) as conn:
        if conn is None:
            return []
        rows = conn.execute(
            "SELECT id, game, variant, agent_a, agent_b, created, json_extract(summary_json, '$.verdict') "
            f"FROM comparisons {where} ORDER BY created DESC, id DESC",
            params,
        ).fetchall()
    keys = ("id", "game", "variant", "agent_a", "agent_b", "created", "verdict")
    return [dict(zip(keys, row, strict=True)) for row in rows]


@dataclass(frozen=True)
class CellGame:
    """One stored reference game of a cell, as a list shows it (its actions stay in the database)."""

    id: int
    game_index: int
    seed: int
    winner: int
    reason: str
    turns: int
    p1: str
    p2: str
    fingerprint: str
    replayable: bool


def cell_games(
    path: Path, game: str, variant: str, agent: str, cell: str, seat: int, limit: int = 200
) -> tuple[list[CellGame], int]:
    """The stored reference games of one cell and seat (at most `limit`, in index order) and how many kernel
    games the cell also has (kernel batches keep counts, not games)."""
    with read_only(path) as conn:
        if conn is None:
            return [], 0
        rows = conn.execute(
            "SELECT id, game_index, seed, winner, reason, turns, p1, p2, fingerprint, actions != '[]' FROM games "
            "WHERE game = ? AND variant = ? AND agents = ? AND cell = ? AND seat = ? ORDER BY game_index, id LIMIT ?",
            (game, variant, agent, cell, seat, limit),
        ).fetchall()
        kernel = conn.execute(
            "SELECT COALESCE(SUM(count), 0) FROM batches WHERE game = ? AND variant = ? AND agents = ? AND cell = ? "
            "AND seat = ?",
            (game, variant, agent, cell, seat),
        ).fetchone()[0]
    fields = tuple(CellGame.__dataclass_fields__)
    return [CellGame(**dict(zip(fields, (*row[:9], bool(row[9])), strict=True))) for row in rows], int(kernel)


def stored_game(path: Path, row: int) -> StoredGame | None:
    """One stored reference game by its row id, with its actions (None: no such game)."""
    with read_only(path) as conn:
        if conn is None:
            return None
        found = conn.execute(f"SELECT {', '.join(_COLUMNS)} FROM games WHERE id = ?", (row,)).fetchone()
    return None if found is None else _stored_game(found)


def table_games(path: Path, game: str, variant: str, agent: str) -> int:
    """How many games (reference and kernel) the table holds now: a running job's progress, read from outside."""
    with read_only(path) as conn:
        if conn is None:
            return 0
        query = "SELECT (SELECT COUNT(*) FROM games WHERE game = ?1 AND variant = ?2 AND agents = ?3) + "
        query += "(SELECT COALESCE(SUM(count), 0) FROM batches WHERE game = ?1 AND variant = ?2 AND agents = ?3)"
        return int(conn.execute(query, (game, variant, agent)).fetchone()[0])
