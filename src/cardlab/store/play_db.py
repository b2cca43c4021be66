"""Games played through the web app: seats, hashed tokens and every applied action.

An action is committed here before the server acknowledges it, so a restarted server rebuilds
every game exactly from its config, seed and action list (the engine is deterministic).
Only token hashes are stored: a leaked database hands out no seat.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS play_games (
    id       TEXT PRIMARY KEY,
    game     TEXT NOT NULL,
    config   TEXT NOT NULL,      -- the game's config JSON
    seed     INTEGER NOT NULL,
    seats    TEXT NOT NULL,      -- {"P1": "human" | agent spec, "P2": ...}
    created  TEXT NOT NULL DEFAULT (datetime('now')),
    finished INTEGER NOT NULL DEFAULT 0,  -- 1 once the game is over (agents need not resume it)
    rematch  TEXT                         -- id of the rematch game, once one was asked for
);
CREATE TABLE IF NOT EXISTS play_tokens (
    game_id    TEXT NOT NULL REFERENCES play_games(id),
    seat       TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS play_actions (
    game_id  TEXT NOT NULL REFERENCES play_games(id),
    idx      INTEGER NOT NULL,
    action   TEXT NOT NULL,
    created  TEXT NOT NULL DEFAULT (datetime('now')),
    PRIMARY KEY (game_id, idx)
);
"""


def hash_token(token: str) -> str:
    """Tokens are stored hashed: a leaked database does not hand out seats."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class PlayRecord:
    id: str
    game: str
    config: dict[str, Any]
    seed: int
    seats: dict[str, str]
    actions: list[str]


class PlayDB:
    """Thread-safe (one connection, one lock): the web server calls it from its event loop."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(self.path, check_same_thread=False)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.executescript(SCHEMA)
        self._migrate()

    def _migrate(self) -> None:
        """Add the columns that databases written by earlier versions lack."""
        columns = {row[1] for row in self._conn.execute("PRAGMA table_info(play_games)")}
        with self._conn:
            if "finished" not in columns:
                self._conn.execute("ALTER TABLE play_games ADD COLUMN finished INTEGER NOT NULL DEFAULT 0")
            if "rematch" not in columns:
                self._conn.execute("ALTER TABLE play_games ADD COLUMN rematch TEXT")

    def close(self) -> None:
        self._conn.close()

    def create(
        self,
        game_id: str,
        game: str,
        config: Mapping[str, Any],
        seed: int,
        seats: Mapping[str, str],
        tokens: Mapping[str, str],
    ) -> None:
        with self._lock, self._conn:
            self._conn.execute(
                "INSERT INTO play_games (id, game, config, seed, seats) VALUES (?, ?, ?, ?, ?)",
                (game_id, game, json.dumps(config), seed, json.dumps(dict(seats))),
            )
            self._conn.executemany(
                "INSERT INTO play_tokens (game_id, seat, token_hash) VALUES (?, ?, ?)",
                [(game_id, seat, hash_token(token)) for seat, token in tokens.items()],
            )

    def append_action(self, game_id: str, index: int, action: str) -> None:
        """Commit one action; the primary key refuses a second action with the same index."""
        with self._lock, self._conn:
            self._conn.execute(
                "INSERT INTO play_actions (game_id, idx, action) VALUES (?, ?, ?)", (game_id, index, action)
            )

    def add_token(self, game_id: str, seat: str, token: str) -> None:
        """Give `seat` a token unless it has one (a rematch seat is claimed when first asked for)."""
        with self._lock, self._conn:
            self._conn.execute(
                "INSERT OR IGNORE INTO play_tokens (game_id, seat, token_hash) VALUES (?, ?, ?)",
                (game_id, seat, hash_token(token)),
            )

    def mark_finished(self, game_id: str) -> None:
        with self._lock, self._conn:
            self._conn.execute("UPDATE play_games SET finished = 1 WHERE id = ?", (game_id,))

    def unfinished_with_agents(self) -> list[str]:
        """Ids of games not known to be over that have an agent seat (to resume after a restart)."""
        with self._lock:
            rows = self._conn.execute("SELECT id, seats FROM play_games WHERE finished = 0 ORDER BY created").fetchall()
        return [game_id for game_id, seats in rows if any(who != "human" for who in json.loads(seats).values())]

    def rematch_of(self, game_id: str) -> str | None:
        with self._lock:
            row = self._conn.execute("SELECT rematch FROM play_games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def set_rematch(self, game_id: str, rematch_id: str) -> str:
        """Record the rematch unless one is recorded already; returns the one that holds."""
        with self._lock, self._conn:
            self._conn.execute(
                "UPDATE play_games SET rematch = ? WHERE id = ? AND rematch IS NULL", (rematch_id, game_id)
            )
            row = self._conn.execute("SELECT rematch FROM play_games WHERE id = ?", (game_id,)).fetchone()
        return str(row[0])

    def seat_of(self, game_id: str, token: str) -> str | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT seat FROM play_tokens WHERE game_id = ? AND token_hash = ?", (game_id, hash_token(token))
            ).fetchone()
        return None if row is None else str(row[0])

    def load(self, game_id: str) -> PlayRecord | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT game, config, seed, seats FROM play_games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None:
                return None
            actions = [
                a
                for (a,) in self._conn.execute(
                    "SELECT action FROM play_actions WHERE game_id = ? ORDER BY idx", (game_id,)
                )
            ]
        return PlayRecord(game_id, row[0], json.loads(row[1]), int(row[2]), json.loads(row[3]), actions)
