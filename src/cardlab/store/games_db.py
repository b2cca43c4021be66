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
