"""Every simulated game, one row each, in SQLite.

Rows are keyed by (experiment, cell, game_index, seat): re-running an experiment continues
its game indices instead of replaying (and double counting) the same seeds.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from platformdirs import user_data_path

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY,
    game        TEXT    NOT NULL,
    variant     TEXT    NOT NULL,  -- what a report groups by, e.g. the standard
    agents      TEXT    NOT NULL,  -- agent spec(s), as the experiment names them
    experiment  TEXT    NOT NULL,
    cell        TEXT    NOT NULL,  -- e.g. 'GARU-EAGLE'
    game_index  INTEGER NOT NULL,
    seat        INTEGER NOT NULL,  -- 0: the cell's first-named side plays first
    p1          TEXT    NOT NULL,  -- who sat in P1 (a character or an agent)
    p2          TEXT    NOT NULL,
    seed        INTEGER NOT NULL,
    winner      INTEGER NOT NULL,  -- 0: P1 won, 1: P2 won
    reason      TEXT    NOT NULL,
    turns       INTEGER NOT NULL,
    decisions   INTEGER NOT NULL,
    actions     TEXT    NOT NULL,  -- JSON list of action strings, for replays
    created     TEXT    NOT NULL DEFAULT (datetime('now')),
    UNIQUE (experiment, cell, game_index, seat)
);
CREATE INDEX IF NOT EXISTS games_by_variant ON games (game, variant, agents);
CREATE TABLE IF NOT EXISTS comparisons (  -- `cardlab compare`: two agents' balance tables side by side
    id           INTEGER PRIMARY KEY,
    game         TEXT    NOT NULL,
    variant      TEXT    NOT NULL,
    agent_a      TEXT    NOT NULL,
    agent_b      TEXT    NOT NULL,
    created      TEXT    NOT NULL DEFAULT (datetime('now')),  -- UTC, 'YYYY-MM-DD HH:MM:SS'
    summary_json TEXT    NOT NULL  -- the comparison.json object
);
"""


def default_db_path() -> Path:
    """The database in the user's data directory (e.g. ~/.local/share/cardlab/games.sqlite)."""
    return user_data_path("cardlab") / "games.sqlite"


@dataclass(frozen=True)
class StoredGame:
    game: str
    variant: str
    agents: str
    experiment: str
    cell: str
    game_index: int
    seat: int
    p1: str
    p2: str
    seed: int
    winner: int
    reason: str
    turns: int
    decisions: int
    actions: tuple[str, ...]


_COLUMNS = tuple(StoredGame.__dataclass_fields__)


@dataclass(frozen=True)
class StoredComparison:
    """One stored `cardlab compare` result."""

    id: int
    game: str
    variant: str
    agent_a: str
    agent_b: str
    created: str
    summary: dict[str, Any]


class GamesDB:
    """A thin, typed wrapper over the games table."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(self.path)
        self._conn.executescript(SCHEMA)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> GamesDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def next_index(self, experiment: str, cell: str) -> int:
        """The first game index of `cell` not yet stored for `experiment`."""
        row = self._conn.execute(
            "SELECT COALESCE(MAX(game_index) + 1, 0) FROM games WHERE experiment = ? AND cell = ?", (experiment, cell)
        ).fetchone()
        return int(row[0])

    def add(self, games: Iterable[StoredGame]) -> int:
        """Insert games in one transaction; returns how many were added."""
        placeholders = ", ".join("?" for _ in _COLUMNS)
        rows = [_row(game) for game in games]
        with self._conn:
            self._conn.executemany(f"INSERT INTO games ({', '.join(_COLUMNS)}) VALUES ({placeholders})", rows)
        return len(rows)

    def add_comparison(
        self, game: str, variant: str, agent_a: str, agent_b: str, summary: dict[str, Any], created: str | None = None
    ) -> int:
        """Store a comparison of two agents' tables; returns its id. `created` defaults to SQLite's UTC now."""
        with self._conn:
            cursor = self._conn.execute(
                "INSERT INTO comparisons (game, variant, agent_a, agent_b, created, summary_json) "
                "VALUES (?, ?, ?, ?, COALESCE(?, datetime('now')), ?)",
                (game, variant, agent_a, agent_b, created, json.dumps(summary)),
            )
        return int(cursor.lastrowid or 0)

    def comparisons(self, game: str, variant: str, agent: str | None = None) -> list[StoredComparison]:
        """Stored comparisons of one game/variant (those involving `agent` if given), newest first."""
        query = "SELECT id, game, variant, agent_a, agent_b, created, summary_json FROM comparisons "
        query += "WHERE game = ? AND variant = ?"
        params: tuple[str, ...] = (game, variant)
        if agent is not None:
            query += " AND ? IN (agent_a, agent_b)"
            params += (agent,)
        rows = self._conn.execute(query + " ORDER BY created DESC, id DESC", params).fetchall()
        return [StoredComparison(int(id_), game, variant, a, b, created, json.loads(summary))
                for id_, game, variant, a, b, created, summary in rows]  # fmt: skip

    def games(self, game: str, variant: str, agents: str) -> Iterator[StoredGame]:
        """All stored games of one game/variant/agent setting, in a stable order."""
        cursor = self._conn.execute(
            f"SELECT {', '.join(_COLUMNS)} FROM games WHERE game = ? AND variant = ? AND agents = ? "
            "ORDER BY experiment, cell, game_index, seat",
            (game, variant, agents),
        )
        for row in cursor:
            values: dict[str, Any] = dict(zip(_COLUMNS, row, strict=True))
            values["actions"] = tuple(json.loads(values["actions"]))
            yield StoredGame(**values)


def _row(game: StoredGame) -> tuple[Any, ...]:
    return tuple(json.dumps(list(game.actions)) if name == "actions" else getattr(game, name) for name in _COLUMNS)
