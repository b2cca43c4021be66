"""The SQLite games store: rows round-trip, indices continue, duplicates are refused."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from cardlab.store.games_db import SCHEMA_VERSION, GamesDB, StoredBatch, StoredGame, counts_of

GAME = StoredGame(game="edelweiss", variant="symbolic", agents="heuristic", experiment="balance/x", cell="GARU-EAGLE",
                  game_index=0, seat=0, p1="GARU", p2="EAGLE", seed=123, winner=1, reason="deck_out", turns=27,
                  decisions=25, actions=("SUMMON S", "END_TURN"))  # fmt: skip


def test_rows_round_trip_and_filter(tmp_path: Path) -> None:
    with GamesDB(tmp_path / "g.sqlite") as db:
        db.add(
            [
                GAME,
                replace(GAME, seat=1, p1="EAGLE", p2="GARU"),
                replace(GAME, variant="accel2", experiment="balance/y"),
                replace(GAME, agents="random", experiment="balance/z"),
                replace(GAME, game="aterial", experiment="balance/w"),
            ]
        )
        symbolic = list(db.games("edelweiss", "symbolic", "heuristic"))
        by_random = list(db.games("edelweiss", "symbolic", "random"))
        counted = {agents: sum(c.games for c in db.counts("edelweiss", "symbolic", agents))
                   for agents in ("heuristic", "random", "ismcts")}  # fmt: skip
    assert symbolic == [GAME, replace(GAME, seat=1, p1="EAGLE", p2="GARU")]  # one game, variant and agent only
    assert by_random == [replace(GAME, agents="random", experiment="balance/z")]
    assert counted == {"heuristic": 2, "random": 1, "ismcts": 0}


def test_next_index_continues_each_cell(tmp_path: Path) -> None:
    with GamesDB(tmp_path / "g.sqlite") as db:
        assert db.next_index("balance/x", "GARU-EAGLE") == 0
        db.add(replace(GAME, game_index=i) for i in range(3))
        assert db.next_index("balance/x", "GARU-EAGLE") == 3
        assert db.next_index("balance/x", "GARU-RAIHA") == 0
        assert db.next_index("balance/y", "GARU-EAGLE") == 0


def test_the_same_game_cannot_be_stored_twice(tmp_path: Path) -> None:
    with GamesDB(tmp_path / "g.sqlite") as db:
        db.add([GAME])
        with pytest.raises(sqlite3.IntegrityError):
            db.add([GAME])
        assert len(list(db.games("edelweiss", "symbolic", "heuristic"))) == 1


def test_data_survives_reopening(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "g.sqlite"
    with GamesDB(path) as db:
        db.add([GAME])
    with GamesDB(path) as db:
        assert list(db.games("edelweiss", "symbolic", "heuristic")) == [GAME]


V1_SCHEMA = """
CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, variant TEXT NOT NULL, agents TEXT NOT NULL,
    experiment TEXT NOT NULL, cell TEXT NOT NULL, game_index INTEGER NOT NULL, seat INTEGER NOT NULL,
    p1 TEXT NOT NULL, p2 TEXT NOT NULL, seed INTEGER NOT NULL, winner INTEGER NOT NULL, reason TEXT NOT NULL,
    turns INTEGER NOT NULL, decisions INTEGER NOT NULL, actions TEXT NOT NULL,
    created TEXT NOT NULL DEFAULT (datetime('now')), UNIQUE (experiment, cell, game_index, seat));
CREATE TABLE comparisons (id INTEGER PRIMARY KEY, game TEXT NOT NULL, variant TEXT NOT NULL,
    agent_a TEXT NOT NULL, agent_b TEXT NOT NULL, created TEXT NOT NULL DEFAULT (datetime('now')),
    summary_json TEXT NOT NULL);
"""
"""The schema cardlab wrote before version 2 (no version, fingerprint or batches)."""


def test_a_version_1_database_is_migrated_in_place(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as conn:
        conn.executescript(V1_SCHEMA)
        conn.execute(
            "INSERT INTO games (game, variant, agents, experiment, cell, game_index, seat, p1, p2, seed, winner, "
            "reason, turns, decisions, actions) VALUES ('edelweiss', 'symbolic', 'heuristic', 'balance/x', "
            "'GARU-EAGLE', 0, 0, 'GARU', 'EAGLE', 123, 1, 'deck_out', 27, 25, '[\"SUMMON S\", \"END_TURN\"]')"
        )
    with GamesDB(path) as db:
        assert list(db.games("edelweiss", "symbolic", "heuristic")) == [GAME]  # version and fingerprint ''
        db.add([replace(GAME, game_index=1, fingerprint="f" * 16, version="0.1.0")])
        counts = db.counts("edelweiss", "symbolic", "heuristic")
        assert db.next_index("balance/x", "GARU-EAGLE") == 2
    assert {(c.fingerprint, c.games, c.p2_wins) for c in counts} == {("", 1, 1), ("f" * 16, 1, 1)}
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


BATCH = StoredBatch("edelweiss", "symbolic", "heuristic", "balance/x/engine=cpu", "GARU-EAGLE", 1, "EAGLE", "GARU",
                    77, 0, 100_000, 58_000, 42_000, 0, {"attack": 90_000, "deck_out": 10_000}, 2_000_000,
                    1_900_000, "0.1.0", "a" * 16)  # fmt: skip


def test_kernel_batches_are_one_row_and_continue_the_indices(tmp_path: Path) -> None:
    with GamesDB(tmp_path / "g.sqlite") as db:
        assert db.add_batches([BATCH]) == 100_000
        assert db.batches("edelweiss", "symbolic", "heuristic") == [BATCH]
        assert db.next_index("balance/x/engine=cpu", "GARU-EAGLE") == 100_000
        [count] = db.counts("edelweiss", "symbolic", "heuristic")
        assert (count.games, count.first_named_wins, count.reasons["attack"]) == (100_000, 42_000, 90_000)
        with pytest.raises(sqlite3.IntegrityError):
            db.add_batches([BATCH])


def test_kernel_games_cost_a_few_bytes_each(tmp_path: Path) -> None:
    """Issue #15: at most 16 bytes per kernel game once batches are of a realistic size."""
    path = tmp_path / "g.sqlite"
    with GamesDB(path) as db:
        empty = path.stat().st_size
        db.add_batches(replace(BATCH, cell=f"C{i}-D{i}", count=1000) for i in range(600))  # 600,000 games
    assert (path.stat().st_size - empty) / 600_000 <= 16


def test_counts_agree_with_the_games_they_count(tmp_path: Path) -> None:
    games = [replace(GAME, game_index=i, seat=i % 2, winner=(i // 3) % 2, reason="attack") for i in range(12)]
    with GamesDB(tmp_path / "g.sqlite") as db:
        db.add(games)
        stored = db.counts("edelweiss", "symbolic", "heuristic")
    assert sorted(stored, key=lambda c: c.seat) == sorted(
        [replace(c, reasons={}) for c in counts_of(games)], key=lambda c: c.seat
    )


def test_counts_keep_variants_apart_and_name_the_winners_seat(tmp_path: Path) -> None:
    """A P1 win, a P2 win and a draw land in their own columns, one variant only; the first-named
    entrant's wins follow its seat (P1 in seat 0, P2 in seat 1)."""
    games = [
        replace(GAME, game_index=0, winner=0),
        replace(GAME, game_index=1, winner=1),
        replace(GAME, game_index=2, winner=1),
        replace(GAME, game_index=3, winner=-1, reason="deck_out"),
        replace(GAME, game_index=0, seat=1, p1="EAGLE", p2="GARU", winner=1),
        replace(GAME, game_index=0, variant="accel2", experiment="balance/y", winner=0),
    ]
    with GamesDB(tmp_path / "g.sqlite") as db:
        db.add(games)
        stored = {c.seat: c for c in db.counts("edelweiss", "symbolic", "heuristic")}
    assert (stored[0].games, stored[0].p1_wins, stored[0].p2_wins, stored[0].draws) == (4, 1, 2, 1)
    assert (stored[1].games, stored[1].p1_wins, stored[1].p2_wins, stored[1].draws) == (1, 0, 1, 0)
    assert (stored[0].first_named_wins, stored[1].first_named_wins) == (1, 1)
    tallied = {c.seat: c for c in counts_of(games[:5])}
    assert (tallied[0].p1_wins, tallied[0].p2_wins, tallied[0].draws) == (1, 2, 1)


def test_agents_are_listed_most_games_first(tmp_path: Path) -> None:
    with GamesDB(tmp_path / "g.sqlite") as db:
        db.add([replace(GAME, agents="random", experiment="balance/r", game_index=i) for i in range(3)])
        db.add([GAME])
        assert list(db.agents("edelweiss").items()) == [("random", 3), ("heuristic", 1)]


def test_comparisons_come_newest_first(tmp_path: Path) -> None:
    with GamesDB(tmp_path / "g.sqlite") as db:
        for created in ("2026-01-01T00:00:00", "2026-03-01T00:00:00", "2026-02-01T00:00:00"):
            db.add_comparison("edelweiss", "symbolic", "heuristic", "random", {"when": created}, created)
        found = [c.created for c in db.comparisons("edelweiss", "symbolic")]
    assert found == ["2026-03-01T00:00:00", "2026-02-01T00:00:00", "2026-01-01T00:00:00"]


def test_only_an_unfinished_run_is_resumed(tmp_path: Path) -> None:
    with GamesDB(tmp_path / "g.sqlite") as db:
        run = db.start_run("balance/x", {"GARU-EAGLE": (0, 10)})
        assert db.open_run("balance/x") == (run, {"GARU-EAGLE": (0, 10)})
        db.finish_run(run)
        assert db.open_run("balance/x") is None


def test_rung_counts_are_kept_per_experiment_and_size(tmp_path: Path) -> None:
    """`cardlab tune` decides on a rung's counts; a rerun reads them back, not the grown batches'."""
    from cardlab.store.games_db import CellCount

    counts = [CellCount("A-B", 0, "A", "B", 11, 6, 5, 0, "f1", {"lp": 11}), CellCount("A-B", 1, "B", "A", 11, 4, 7, 0)]
    with GamesDB(tmp_path / "lab.sqlite") as db:
        assert db.rung_counts("tune/x", 11) is None
        db.put_rung_counts("tune/x", 11, counts)
    with GamesDB(tmp_path / "lab.sqlite") as db:
        assert db.rung_counts("tune/x", 11) == counts
        assert db.rung_counts("tune/x", 33) is None and db.rung_counts("tune/y", 11) is None
