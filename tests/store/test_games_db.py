"""The SQLite games store: rows round-trip, indices continue, duplicates are refused."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from cardlab.store.games_db import GamesDB, StoredGame

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
            ]
        )
        symbolic = list(db.games("edelweiss", "symbolic", "heuristic"))
    assert symbolic == [GAME, replace(GAME, seat=1, p1="EAGLE", p2="GARU")]


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
