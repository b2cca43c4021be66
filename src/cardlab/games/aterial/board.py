"""The 2x3 field of each player (A3): squares, adjacency and attack geometry.

Squares are indexed 0..5 as F0 F1 F2 B0 B1 B2: row = index // 3 (0 front, 1 back), column =
index % 3. Columns are global (A3.2): column c of one field faces column c of the other.
"""

from __future__ import annotations

SQUARE_NAMES = ("F0", "F1", "F2", "B0", "B1", "B2")
SQUARE_INDEX = {name: index for index, name in enumerate(SQUARE_NAMES)}
LEADER_START = 1  # A6.5: the leader starts on F1


def column_of(square: int) -> int:
    return square % 3


def _orthogonal(square: int) -> tuple[int, ...]:
    row, col = divmod(square, 3)
    near = [(row, col - 1), (row, col + 1), (1 - row, col)]
    return tuple(r * 3 + c for r, c in near if 0 <= c <= 2)


def _diagonal(square: int) -> tuple[int, ...]:
    row, col = divmod(square, 3)
    return tuple((1 - row) * 3 + c for c in (col - 1, col + 1) if 0 <= c <= 2)


ORTHOGONAL: tuple[tuple[int, ...], ...] = tuple(_orthogonal(square) for square in range(6))
"""A3.4: orthogonal neighbours inside one field (movement, dominance, kinship)."""

DIAGONAL: tuple[tuple[int, ...], ...] = tuple(_diagonal(square) for square in range(6))
"""A3.4: diagonal neighbours inside one field (used only by wide_reach)."""


def attack_squares(column: int, engaged_row: int) -> tuple[int, tuple[int, ...]]:
    """A3.5: (facing square, diagonal squares) in the defender's engaged row for an attack column."""
    base = engaged_row * 3
    return base + column, tuple(base + c for c in (column - 1, column + 1) if 0 <= c <= 2)


ATTACK_SQUARES: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...] = tuple(
    tuple(attack_squares(column, row) for row in (0, 1)) for column in range(3)
)
"""ATTACK_SQUARES[column][engaged row] = (facing square, diagonal squares)."""
