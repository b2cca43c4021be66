"""The two seats, by index and by name: the one thing every layer of cardlab agrees on, so it sits below
them all (the game protocol and the plugin interface both use it)."""

from __future__ import annotations

Player = int
"""Seat index: 0 is P1 (the first player), 1 is P2."""

PLAYER_NAMES: tuple[str, str] = ("P1", "P2")


def player_name(player: Player) -> str:
    return PLAYER_NAMES[player]


def parse_player(name: str) -> Player:
    try:
        return PLAYER_NAMES.index(name)
    except ValueError:
        raise ValueError(f"unknown player {name!r}; expected 'P1' or 'P2'") from None
