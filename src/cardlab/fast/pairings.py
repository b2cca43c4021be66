"""Many pairings in one kernel call, for any game (`cardlab meta`'s scoring, issue #52).

A one-pairing batch costs a kernel call (its thread start-up) and a table built from deck files; scoring
thousands of decks against a field of a few games each makes that fixed cost the whole run. A game's
`play_pairings` entry instead takes one table per pairing (stacked as rows of a 2-D array) and, per game,
the row it plays, its stream's seed and its index in that stream, all in one prange: game j of a pairing
is game j of `play_batch(table, ..., seed, 0)`, whatever the pairing's neighbours or the thread count.

What is the same for every game lives here: the per-game plan of a list of pairings, and the assembly of
a pairing's table from a template and per-card instance rows (the cards a deal holds, in deal order).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class GamePlan:
    """Per game of a many-pairings call: the table row it plays, its stream's seed and its index there."""

    table_of: Ints
    seed_of: Ints
    index_of: Ints

    @staticmethod
    def of(seeds: Sequence[int], games: int) -> GamePlan:
        """`games` games (0 .. games - 1 of each stream) for each pairing, pairing-major; seeds reduced below
        2**62 as the one-pairing batches reduce theirs."""
        count = len(seeds)
        table_of = np.repeat(np.arange(count, dtype=np.int64), games)
        seed_of = np.repeat(np.asarray([seed % 2**62 for seed in seeds], dtype=np.int64), games)
        index_of = np.tile(np.arange(games, dtype=np.int64), count)
        return GamePlan(table_of, seed_of, index_of)


def place_rows(table: Ints, base: int, rows: npt.NDArray[np.int64], sequence: Ints) -> None:
    """Write `rows[sequence]` (one row of a card per dealt instance, in deal order) from slot `base` on."""
    block = rows[sequence].ravel()
    table[base : base + len(block)] = block


def card_rows(table: Ints, base: int, width: int, count: int) -> Ints:
    """The `count` instance rows of `width` slots from slot `base` of a table (what `build_table` wrote)."""
    return table[base : base + count * width].reshape(count, width).copy()
