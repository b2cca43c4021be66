"""Many Aterial pairings in one kernel call (`cardlab meta`'s scoring, issue #52; `cardlab.fast.pairings`).

`PairingTables` builds a pairing's kernel table from its two decks' card ids: the config's table once
(header, card section), then per pairing the dealt instances' rows copied from per-card rows that
`tables.build_table` itself wrote, so a pairing's table is the one `build_table` makes for that deal
(tests/games/aterial/fast/test_pairings.py) without reading a deck file or building a game. `play_pairings`
plays every game of many such tables in one prange, each from its own stream: game j of a pairing is game j
of `heuristic.play_batch` on that pairing's table, whatever the other pairings or the thread count.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import njit, prange

from cardlab.core.errors import CardlabError
from cardlab.fast.pairings import GamePlan, Ints, card_rows, place_rows
from cardlab.fast.search import flush_stale_cache
from cardlab.games.aterial.fast.cpu import (
    _BLOCK_GAMES,
    REASON,
    ROW_SIZE,
    TURN,
    WINNER,
    seed_rng,
)
from cardlab.games.aterial.fast.heuristic import POLICIES, play_one
from cardlab.games.aterial.fast.tables import (
    AB_BASE,
    ACOLS,
    CARD_BASE,
    I_OWNER,
    ICOLS,
    INST_BASE,
    MAX_ABILITIES,
    MAX_INSTANCES,
    N_ACTIONS,
    N_INST,
    build_table,
    dealt_cards,
)

AB_WIDTH = MAX_ABILITIES * ACOLS
"""Slots of one instance's abilities."""


class PairingTables:
    """The kernel tables of any two decks under one config (its card set and rule options)."""

    def __init__(self, game: Any) -> None:
        from cardlab.games.aterial.game import Aterial

        assert isinstance(game, Aterial)
        self.game = game
        self.first = -1 if game.config.first is None else ("P1", "P2").index(game.config.first)
        template = build_table(game, dealt_cards(game))
        template[INST_BASE:CARD_BASE] = 0  # the config's own deal cleared: each pairing writes its own
        self.template = template
        cards = list(game.card_set.cards.values())
        self.index = {card.id: i for i, card in enumerate(cards)}
        inst, abilities = [], []
        for start in range(0, len(cards), MAX_INSTANCES):  # build_table deals at most MAX_INSTANCES cards
            chunk = tuple(cards[start : start + MAX_INSTANCES])
            table = build_table(game, chunk)
            inst.append(card_rows(table, INST_BASE, ICOLS, len(chunk)))
            abilities.append(card_rows(table, AB_BASE, AB_WIDTH, len(chunk)))
        self.inst_rows = np.concatenate(inst)
        self.inst_rows[:, I_OWNER] = 0
        self.ability_rows = np.concatenate(abilities)

    def table(self, decks: tuple[Any, Any]) -> Ints:
        """The table of P1's and P2's decks (`cards.Deck`: its leader, its cards in file order)."""
        sequence: list[int] = []
        owners: list[int] = []
        for seat, deck in enumerate(decks):
            listed = [deck.leader, *deck.card_list()]
            sequence.extend(self.index[card_id] for card_id in listed)
            owners.extend([seat] * len(listed))
        if len(sequence) > MAX_INSTANCES:
            raise CardlabError(f"the cpu engine deals at most {MAX_INSTANCES} cards, this game {len(sequence)}")
        table = self.template.copy()
        order = np.asarray(sequence, dtype=np.int64)
        place_rows(table, INST_BASE, self.inst_rows, order)
        table[INST_BASE + I_OWNER + ICOLS * np.arange(len(order))] = owners
        place_rows(table, AB_BASE, self.ability_rows, order)
        table[N_INST] = len(order)
        return table


@njit(cache=True, parallel=True)
def play_pairings(
    tables: Ints, first: int, policy_p1: int, policy_p2: int, table_of: Ints, seed_of: Ints, index_of: Ints
) -> tuple[Ints, Ints, Ints, Ints]:
    """`heuristic.play_batch` over many tables: game g plays `tables[table_of[g]]` from the stream
    `seed_rng(seed_of[g], index_of[g])` alone (its result never depends on the other games or the threads)."""
    n_games = len(table_of)
    winner = np.empty(n_games, dtype=np.int64)
    reason = np.empty(n_games, dtype=np.int64)
    turns = np.empty(n_games, dtype=np.int64)
    decisions = np.empty(n_games, dtype=np.int64)
    n_blocks = (n_games + _BLOCK_GAMES - 1) // _BLOCK_GAMES
    for block in prange(n_blocks):
        row = np.zeros(ROW_SIZE, dtype=np.int64)
        out = np.empty(tables[0, N_ACTIONS], dtype=np.int64)  # the action space is the card set's, not a deal's
        rng = np.empty(1, dtype=np.uint64)
        for game in range(block * _BLOCK_GAMES, min(n_games, (block + 1) * _BLOCK_GAMES)):
            tab = tables[table_of[game]]
            seed_rng(rng, seed_of[game], index_of[game])
            decisions[game] = play_one(row, tab, first, policy_p1, policy_p2, rng, out)
            winner[game] = row[WINNER]
            reason[game] = row[REASON]
            turns[game] = row[TURN]
    return winner, reason, turns, decisions


def play_decks(
    tables: PairingTables,
    pairs: Sequence[tuple[Any, Any]],
    policies: tuple[str, str],
    games: int,
    seeds: Sequence[int],
) -> tuple[Ints, Ints, Ints, Ints]:
    """Games 0 .. games - 1 of each pairing (P1's deck, P2's deck) from its seed, pairing-major, in one call."""
    if not pairs:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, empty
    stacked = np.stack([tables.table(pair) for pair in pairs])
    plan = GamePlan.of(seeds, games)
    codes = POLICIES[policies[0]], POLICIES[policies[1]]
    return play_pairings(stacked, tables.first, *codes, plan.table_of, plan.seed_of, plan.index_of)


flush_stale_cache(sys.modules[__name__])  # the entry inlines the rules of `cpu` and the heuristic
