"""Every simulated game in SQLite: reference games one row each, kernel games one row per batch.

Reference-engine games keep their actions (for replays; a game brought in by `cardlab import` has none,
as export files carry none), so they are stored a row each, keyed by
(experiment, cell, game_index, seat): re-running an experiment continues its game indices instead
of replaying (and double counting) the same seeds. A compiled kernel's games are stored as one
row per cell, seat and batch: its counts, and the seed and index range from which each of its
games can be replayed (game i is the kernel's stream (seed, i - first_index)), a few bytes per
game. Every row records the cardlab version and the fingerprint of the code that played it
(`cardlab.store.fingerprint`), so that reports never pool games of different code unasked.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
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
    winner      INTEGER NOT NULL,  -- 0: P1 won, 1: P2 won, -1: a draw
    reason      TEXT    NOT NULL,
    turns       INTEGER NOT NULL,
    decisions   INTEGER NOT NULL,
    actions     TEXT    NOT NULL,  -- JSON list of action strings, for replays
    created     TEXT    NOT NULL DEFAULT (datetime('now')),
    version     TEXT    NOT NULL DEFAULT '',  -- the cardlab version that played it ('' before version 2)
    fingerprint TEXT    NOT NULL DEFAULT '',  -- of the code deciding its outcome ('' before version 2)
    UNIQUE (experiment, cell, game_index, seat)
);
CREATE INDEX IF NOT EXISTS games_by_variant ON games (game, variant, agents);
CREATE TABLE IF NOT EXISTS batches (  -- kernel games: one row per cell, seat and batch
    id          INTEGER PRIMARY KEY,
    game        TEXT    NOT NULL,
    variant     TEXT    NOT NULL,
    agents      TEXT    NOT NULL,
    experiment  TEXT    NOT NULL,
    cell        TEXT    NOT NULL,
    seat        INTEGER NOT NULL,
    p1          TEXT    NOT NULL,
    p2          TEXT    NOT NULL,
    seed        INTEGER NOT NULL,  -- game i of the batch is the kernel's stream (seed, i - first_index)
    first_index INTEGER NOT NULL,
    count       INTEGER NOT NULL,
    p1_wins     INTEGER NOT NULL,
    p2_wins     INTEGER NOT NULL,
    draws       INTEGER NOT NULL,
    reasons     TEXT    NOT NULL,  -- JSON object: win reason -> games
    turns       INTEGER NOT NULL,  -- summed over the batch's games
    decisions   INTEGER NOT NULL,
    created     TEXT    NOT NULL DEFAULT (datetime('now')),
    version     TEXT    NOT NULL,
    fingerprint TEXT    NOT NULL,
    UNIQUE (experiment, cell, seat, first_index)
);
CREATE INDEX IF NOT EXISTS batches_by_variant ON batches (game, variant, agents);
CREATE TABLE IF NOT EXISTS runs (  -- a balance run's plan, so that an interrupted run can be finished
    id          INTEGER PRIMARY KEY,
    experiment  TEXT    NOT NULL,
    plan        TEXT    NOT NULL,  -- JSON object: cell -> [first game index, games per seat]
    finished    INTEGER NOT NULL DEFAULT 0,
    created     TEXT    NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS rung_counts (  -- `cardlab tune`: a candidate's counts when a rung had played them
    experiment  TEXT    NOT NULL,
    size        INTEGER NOT NULL,  -- games per cell and seat at that rung
    counts      TEXT    NOT NULL,  -- JSON list of CellCount fields
    PRIMARY KEY (experiment, size)
);
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
SCHEMA_VERSION = 2
"""1: games and comparisons (no version, no fingerprint, no batches); 2: this schema."""


def default_db_path(out: Path | None = None) -> Path:
    """The lab's database beside its output folder (`lab.sqlite` next to `out`), or in the current
    directory: results live with the work that made them, not in a folder every checkout shares."""
    return (out.parent if out is not None else Path()) / "lab.sqlite"


def legacy_db_path() -> Path:
    """Where cardlab before schema version 2 kept one database per user (still readable with --db)."""
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
    version: str = ""
    fingerprint: str = ""


@dataclass(frozen=True)
class StoredBatch:
    """Kernel games of one cell and seat: counts, and the index range replayable from `seed`."""

    game: str
    variant: str
    agents: str
    experiment: str
    cell: str
    seat: int
    p1: str
    p2: str
    seed: int
    first_index: int
    count: int
    p1_wins: int
    p2_wins: int
    draws: int
    reasons: Mapping[str, int]
    turns: int
    decisions: int
    version: str
    fingerprint: str


@dataclass(frozen=True)
class CellCount:
    """The games of one cell and seat under one fingerprint, however they were stored."""

    cell: str
    seat: int
    p1: str
    p2: str
    games: int
    p1_wins: int
    p2_wins: int
    draws: int
    fingerprint: str = ""
    reasons: Mapping[str, int] = field(default_factory=dict)

    @property
    def first_named_wins(self) -> int:
        """Wins of the cell's first-named entrant (seat 0: it sits in P1)."""
        return self.p1_wins if self.seat == 0 else self.p2_wins


def counts_of(games: Iterable[StoredGame | CellCount]) -> list[CellCount]:
    """Stored games (or counts already) as counts per cell, seat and fingerprint."""
    tallies: dict[tuple[str, int, str, str, str], list[int]] = {}
    reasons: dict[tuple[str, int, str, str, str], dict[str, int]] = {}
    counts: list[CellCount] = []
    for item in games:
        if isinstance(item, CellCount):
            counts.append(item)
            continue
        key = (item.cell, item.seat, item.p1, item.p2, item.fingerprint)
        tally = tallies.setdefault(key, [0, 0, 0, 0])
        tally[0] += 1
        tally[1 + (item.winner if item.winner in (0, 1) else 2)] += 1
        by_reason = reasons.setdefault(key, {})
        by_reason[item.reason] = by_reason.get(item.reason, 0) + 1
    for (cell, seat, p1, p2, fingerprint), (games_, p1_wins, p2_wins, draws) in tallies.items():
        key = (cell, seat, p1, p2, fingerprint)
        counts.append(CellCount(cell, seat, p1, p2, games_, p1_wins, p2_wins, draws, fingerprint, reasons[key]))
    return counts


_COLUMNS = tuple(StoredGame.__dataclass_fields__)
_BATCH_COLUMNS = tuple(StoredBatch.__dataclass_fields__)


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
        self._migrate()
        self._conn.executescript(SCHEMA)
        self._conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _migrate(self) -> None:
        """Bring a version-1 database up to date in place: its games keep their rows, with an empty
        version and fingerprint (code unknown), so reports keep them apart from new games."""
        columns = {row[1] for row in self._conn.execute("PRAGMA table_info(games)")}
        if columns and "fingerprint" not in columns:
            with self._conn:
                self._conn.execute("ALTER TABLE games ADD COLUMN version TEXT NOT NULL DEFAULT ''")
                self._conn.execute("ALTER TABLE games ADD COLUMN fingerprint TEXT NOT NULL DEFAULT ''")

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> GamesDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def next_index(self, experiment: str, cell: str) -> int:
        """The first game index of `cell` not yet stored for `experiment` (in games or batches)."""
        row = self._conn.execute(
            "SELECT MAX(COALESCE((SELECT MAX(game_index) + 1 FROM games WHERE experiment = ? AND cell = ?), 0), "
            "COALESCE((SELECT MAX(first_index + count) FROM batches WHERE experiment = ? AND cell = ?), 0))",
            (experiment, cell, experiment, cell),
        ).fetchone()
        return int(row[0])

    def add(self, games: Iterable[StoredGame]) -> int:
        """Insert games in one transaction; returns how many were added."""
        rows = [_row(game) for game in games]
        with self._conn:
            self._conn.executemany(_insert("games", _COLUMNS), rows)
        return len(rows)

    def add_new(
        self, games: Iterable[StoredGame], batches: Iterable[StoredBatch]
    ) -> tuple[list[StoredGame], list[StoredBatch]]:
        """Insert the games and batches whose key is not stored yet, all in one transaction (so that an
        import stops whole or not at all, and one run twice adds nothing); returns those added."""
        game_sql = f"{_insert('games', _COLUMNS)} ON CONFLICT (experiment, cell, game_index, seat) DO NOTHING"
        batch_sql = f"{_insert('batches', _BATCH_COLUMNS)} ON CONFLICT (experiment, cell, seat, first_index) DO NOTHING"
        with self._conn:
            added = [game for game in games if self._conn.execute(game_sql, _row(game)).rowcount]
            added_batches = [batch for batch in batches if self._conn.execute(batch_sql, _batch_row(batch)).rowcount]
        return added, added_batches

    def add_batches(self, batches: Iterable[StoredBatch]) -> int:
        """Insert kernel batches in one transaction; returns how many games they hold."""
        batches = list(batches)
        with self._conn:
            self._conn.executemany(_insert("batches", _BATCH_COLUMNS), [_batch_row(batch) for batch in batches])
        return sum(batch.count for batch in batches)

    def put_batches(self, batches: Iterable[StoredBatch]) -> int:
        """Insert kernel batches, or grow stored ones: a batch whose key (experiment, cell, seat, first index)
        is stored already replaces it (an interrupted batch, stored with the games it finished, played on
        to its end). One transaction; returns how many games were added."""
        batches = list(batches)
        columns = [name for name in _BATCH_COLUMNS if name not in ("experiment", "cell", "seat", "first_index")]
        update = ", ".join(f"{name} = excluded.{name}" for name in columns)
        conflict = "ON CONFLICT (experiment, cell, seat, first_index) DO UPDATE SET"
        sql = f"{_insert('batches', _BATCH_COLUMNS)} {conflict} {update}"
        key = "SELECT count FROM batches WHERE experiment = ? AND cell = ? AND seat = ? AND first_index = ?"
        added = 0
        with self._conn:
            for batch in batches:
                before = self._conn.execute(key, (batch.experiment, batch.cell, batch.seat, batch.first_index))
                row = before.fetchone()
                added += batch.count - (int(row[0]) if row else 0)
                self._conn.execute(sql, _batch_row(batch))
        return added

    def stored_batches(self, experiment: str) -> dict[tuple[str, int, int], StoredBatch]:
        """The kernel batches of `experiment` by (cell, first index, seat): what an interrupted run played."""
        query = f"SELECT {', '.join(_BATCH_COLUMNS)} FROM batches WHERE experiment = ?"
        cursor = self._conn.execute(query, (experiment,))
        return {(batch.cell, batch.first_index, batch.seat): batch for batch in map(_stored_batch, cursor)}

    def batches(self, game: str, variant: str, agents: str) -> list[StoredBatch]:
        """All stored kernel batches of one game/variant/agent setting, in a stable order."""
        cursor = self._conn.execute(
            f"SELECT {', '.join(_BATCH_COLUMNS)} FROM batches WHERE game = ? AND variant = ? AND agents = ? "
            "ORDER BY experiment, cell, seat, first_index",
            (game, variant, agents),
        )
        return [_stored_batch(row) for row in cursor]

    def all_games(self, game: str) -> Iterator[StoredGame]:
        """Every stored reference game of `game`, whatever its variant and agents."""
        cursor = self._conn.execute(f"SELECT {', '.join(_COLUMNS)} FROM games WHERE game = ? ORDER BY id", (game,))
        for row in cursor:
            yield _stored_game(row)

    def all_batches(self, game: str) -> Iterator[StoredBatch]:
        """Every stored kernel batch of `game`."""
        cursor = self._conn.execute(
            f"SELECT {', '.join(_BATCH_COLUMNS)} FROM batches WHERE game = ? ORDER BY id", (game,)
        )
        for row in cursor:
            yield _stored_batch(row)

    def counts(self, game: str, variant: str, agents: str) -> list[CellCount]:
        """Every stored game of the setting, as counts per cell, seat and fingerprint (games and batches)."""
        rows = self._conn.execute(
            "SELECT cell, seat, p1, p2, fingerprint, COUNT(*), SUM(winner = 0), SUM(winner = 1), "
            "SUM(winner NOT IN (0, 1)) FROM games WHERE game = ? AND variant = ? AND agents = ? "
            "GROUP BY cell, seat, p1, p2, fingerprint ORDER BY cell, seat, p1, p2, fingerprint",
            (game, variant, agents),
        ).fetchall()
        counts = [CellCount(c, s, p1, p2, n, w1, w2, d, f) for c, s, p1, p2, f, n, w1, w2, d in rows]
        for b in self.batches(game, variant, agents):
            counts.append(CellCount(b.cell, b.seat, b.p1, b.p2, b.count, b.p1_wins, b.p2_wins, b.draws,
                                    b.fingerprint, b.reasons))  # fmt: skip
        return counts

    def agents(self, game: str, variant: str | None = None) -> dict[str, int]:
        """The agent specs with stored games of `game` (of one `variant` if given) -> their games, most first."""
        where, params = ("game = ?", (game,)) if variant is None else ("game = ? AND variant = ?", (game, variant))
        found: dict[str, int] = {}
        for query in (f"SELECT agents, COUNT(*) FROM games WHERE {where} GROUP BY agents",
                      f"SELECT agents, SUM(count) FROM batches WHERE {where} GROUP BY agents"):  # fmt: skip
            for agent, games in self._conn.execute(query, params):
                found[agent] = found.get(agent, 0) + int(games)
        return dict(sorted(found.items(), key=lambda item: (-item[1], item[0])))

    def rung_counts(self, experiment: str, size: int) -> list[CellCount] | None:
        """The counts `put_rung_counts` kept for this experiment at `size` games per cell, if any."""
        row = self._conn.execute(
            "SELECT counts FROM rung_counts WHERE experiment = ? AND size = ?", (experiment, size)
        ).fetchone()
        return None if row is None else [CellCount(**fields) for fields in json.loads(row[0])]

    def put_rung_counts(self, experiment: str, size: int, counts: Sequence[CellCount]) -> None:
        """Keep an experiment's counts as they stood at `size` games per cell: kernel batches grow in place,
        so a later, larger run cannot give back the first `size` games' counts, and a rerun of a search that
        decides on them must see what the first run saw."""
        text = json.dumps([asdict(count) for count in counts])
        with self._conn:
            self._conn.execute("INSERT OR REPLACE INTO rung_counts VALUES (?, ?, ?)", (experiment, size, text))

    def experiment_counts(self, experiment: str, below: int | None = None) -> list[CellCount]:
        """The stored games of one experiment (reference games and kernel batches) as counts per cell,
        seat and fingerprint: a sweep's plan reads only its own games. With `below`, only games (and
        batches) from index 0 to below - 1: a sweep's baseline row is the first N games of a balance
        table that may hold more (a kernel batch is kept whole: it cannot be cut)."""
        limit = 2**62 if below is None else below
        rows = self._conn.execute(
            "SELECT cell, seat, p1, p2, fingerprint, COUNT(*), SUM(winner = 0), SUM(winner = 1), "
            "SUM(winner NOT IN (0, 1)) FROM games WHERE experiment = ? AND game_index < ? "
            "GROUP BY cell, seat, p1, p2, fingerprint ORDER BY cell, seat, p1, p2, fingerprint",
            (experiment, limit),
        ).fetchall()
        counts = [CellCount(c, s, p1, p2, n, w1, w2, d, f) for c, s, p1, p2, f, n, w1, w2, d in rows]
        cursor = self._conn.execute(
            f"SELECT {', '.join(_BATCH_COLUMNS)} FROM batches WHERE experiment = ? AND first_index < ? "
            "ORDER BY cell, seat, first_index",
            (experiment, limit),
        )
        for b in map(_stored_batch, cursor):
            counts.append(CellCount(b.cell, b.seat, b.p1, b.p2, b.count, b.p1_wins, b.p2_wins, b.draws,
                                    b.fingerprint, b.reasons))  # fmt: skip
        return counts

    def open_run(self, experiment: str) -> tuple[int, dict[str, tuple[int, int]]] | None:
        """The unfinished run of `experiment` (its id and plan), if one was interrupted."""
        row = self._conn.execute(
            "SELECT id, plan FROM runs WHERE experiment = ? AND finished = 0 ORDER BY id DESC LIMIT 1", (experiment,)
        ).fetchone()
        if row is None:
            return None
        return int(row[0]), {cell: (int(start), int(count)) for cell, (start, count) in json.loads(row[1]).items()}

    def start_run(self, experiment: str, plan: Mapping[str, tuple[int, int]]) -> int:
        """Record a run's plan before its first game is played; abandons an older unfinished one."""
        with self._conn:
            self._conn.execute("UPDATE runs SET finished = 1 WHERE experiment = ? AND finished = 0", (experiment,))
            cursor = self._conn.execute(
                "INSERT INTO runs (experiment, plan) VALUES (?, ?)", (experiment, json.dumps(dict(plan)))
            )
        return int(cursor.lastrowid or 0)

    def finish_run(self, run: int) -> None:
        with self._conn:
            self._conn.execute("UPDATE runs SET finished = 1 WHERE id = ?", (run,))

    def stored_keys(self, experiment: str) -> set[tuple[str, int, int]]:
        """(cell, game index, seat) of every game of `experiment` stored so far; for kernel batches,
        (cell, first index, seat) of each batch."""
        games = "SELECT cell, game_index, seat FROM games WHERE experiment = ?"
        batches = "SELECT cell, first_index, seat FROM batches WHERE experiment = ?"
        found = self._conn.execute(f"{games} UNION ALL {batches}", (experiment, experiment))
        return {(cell, index, seat) for cell, index, seat in found}

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
            yield _stored_game(row)


def _stored_game(row: tuple[Any, ...]) -> StoredGame:
    values: dict[str, Any] = dict(zip(_COLUMNS, row, strict=True))
    values["actions"] = tuple(json.loads(values["actions"]))
    return StoredGame(**values)


def _stored_batch(row: tuple[Any, ...]) -> StoredBatch:
    values: dict[str, Any] = dict(zip(_BATCH_COLUMNS, row, strict=True))
    values["reasons"] = json.loads(values["reasons"])
    return StoredBatch(**values)


def _insert(table: str, columns: tuple[str, ...]) -> str:
    return f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


def _batch_row(batch: StoredBatch) -> tuple[Any, ...]:
    return tuple(
        json.dumps(dict(batch.reasons), sort_keys=True) if name == "reasons" else getattr(batch, name)
        for name in _BATCH_COLUMNS
    )


def _row(game: StoredGame) -> tuple[Any, ...]:
    return tuple(json.dumps(list(game.actions)) if name == "actions" else getattr(game, name) for name in _COLUMNS)
