"""Persistent storage of played games (SQLite), so that results accumulate across runs."""

from cardlab.store.games_db import CellCount, GamesDB, StoredBatch, StoredGame, counts_of, default_db_path

__all__ = ["CellCount", "GamesDB", "StoredBatch", "StoredGame", "counts_of", "default_db_path"]
