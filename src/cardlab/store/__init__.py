"""Persistent storage of played games (SQLite), so that results accumulate across runs."""

from cardlab.store.games_db import GamesDB, default_db_path

__all__ = ["GamesDB", "default_db_path"]
