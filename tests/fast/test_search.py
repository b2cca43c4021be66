"""The ISMCTS steps both TCG searches share (`cardlab.fast.search`), on a hand-made tree: no game needed."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from cardlab.fast import search as s
from cardlab.fast.rng import new_rng

N_ACTIONS = 8


def _tree(capacity: int = 32) -> tuple[np.ndarray, ...]:
    """first_child, sibling, move, visits, reward, avail, owner, slot, log_table of an empty root."""
    first_child, sibling, move, visits, reward, avail, owner = s.thread_buffers(capacity, N_ACTIONS, 4, 4, 8)[:7]
    first_child[0] = -1
    visits[0] = 0
    slot = np.full(N_ACTIONS, -1, dtype=np.int64)
    return first_child, sibling, move, visits, reward, avail, owner, slot, s.ucb_log_table(capacity)


def _descend(tree: tuple[np.ndarray, ...], node: int, n_nodes: int, legal: list[int], actor: int,
             rng: np.ndarray) -> tuple[int, int, int, bool]:  # fmt: skip
    first_child, sibling, move, visits, reward, avail, owner, slot, log_table = tree
    out = np.array(legal + [0] * (N_ACTIONS - len(legal)), dtype=np.int64)
    return s.descend(first_child, sibling, move, visits, reward, avail, owner, slot, node, n_nodes, out, len(legal),
                     actor, 0.7, log_table, rng)  # fmt: skip


def test_every_legal_move_is_tried_once_before_ucb_chooses_and_the_slot_map_is_left_clean() -> None:
    tree = _tree()
    _, _, move, visits, reward, avail, owner, slot, _ = tree
    rng = new_rng(3)
    n_nodes, tried = 1, []
    for _ in range(3):
        action, child, n_nodes, expanded = _descend(tree, 0, n_nodes, [2, 5, 7], 1, rng)
        assert expanded and move[child] == action and owner[child] == 1 and avail[child] == 1
        visits[child] += 1
        reward[child] += 1.0 if action == 5 else 0.0  # 5 wins for its mover, the others lose
        tried.append(action)
    assert sorted(tried) == [2, 5, 7] and n_nodes == 4
    assert (slot == -1).all()
    visits[0] = 3
    action, child, n_nodes, expanded = _descend(tree, 0, n_nodes, [2, 5, 7], 1, rng)
    assert (action, expanded, n_nodes) == (5, False, 4)  # the best UCB child, nothing added
    assert sorted(int(avail[c]) for c in range(1, 4)) == [2, 3, 4]  # 1 when added, +1 each later descent
    assert (slot == -1).all()


def test_availability_counts_only_the_moves_legal_in_this_world() -> None:
    tree = _tree()
    move, visits, avail = tree[2], tree[3], tree[5]
    rng = new_rng(5)
    n_nodes = 1
    for _ in range(2):
        _, child, n_nodes, _ = _descend(tree, 0, n_nodes, [1, 3], 0, rng)
        visits[child] += 1
    before = {int(move[c]): int(avail[c]) for c in range(1, n_nodes)}
    action, _, n_nodes, expanded = _descend(tree, 0, n_nodes, [3, 4], 0, rng)  # 1 is not legal in this world
    assert (action, expanded) == (4, True)
    after = {int(move[c]): int(avail[c]) for c in range(1, n_nodes)}
    assert after == {1: before[1], 3: before[3] + 1, 4: 1}


def test_back_up_credits_each_move_to_the_player_who_made_it() -> None:
    visits = np.zeros(4, dtype=np.int64)
    reward = np.zeros(4, dtype=np.float64)
    owner = np.array([0, 0, 1, 0], dtype=np.int64)
    path = np.array([1, 2, 3], dtype=np.int64)
    s.back_up(visits, reward, owner, path, 3, 1.0)  # the first player won
    s.back_up(visits, reward, owner, path, 2, 0.5)  # a draw, cut after two moves
    assert visits.tolist() == [2, 2, 2, 1]
    assert reward.tolist() == [0.0, 1.5, 0.5, 1.0]


def test_most_visited_breaks_ties_by_legal_order_and_ignores_moves_never_tried() -> None:
    first_child = np.array([3, -1, -1, -1], dtype=np.int64)
    sibling = np.array([-1, -1, 1, 2], dtype=np.int64)  # root's children: 3, 2, 1
    move = np.array([0, 6, 4, 2], dtype=np.int64)
    visits = np.array([9, 4, 4, 1], dtype=np.int64)
    legal = np.array([1, 2, 4, 6], dtype=np.int64)
    assert s.most_visited(first_child, sibling, move, visits, legal, 4) == 4  # 4 and 6 tie: 4 is legal first
    assert s.most_visited(first_child, sibling, move, visits, np.array([1, 6, 4]), 3) == 6
    assert s.most_visited(first_child, sibling, move, visits, np.array([1, 3]), 2) == 1  # none tried: the first


def test_more_iterations_stops_at_the_cap_a_full_tree_and_a_decided_choice() -> None:
    first_child = np.array([1, -1, -1, -1], dtype=np.int64)
    sibling = np.array([-1, 2, -1, -1], dtype=np.int64)
    visits = np.array([16, 14, 2, 0], dtype=np.int64)
    go = s.more_iterations
    assert go(15, 100, 0, 3, True, first_child, sibling, visits)
    assert not go(100, 100, 0, 3, False, first_child, sibling, visits)  # the cap
    assert not go(5, 100, 0, 4, False, first_child, sibling, visits)  # the tree is full
    assert not go(16, 20, 0, 3, True, first_child, sibling, visits)  # 14 - 2 > 4 left: decided
    assert go(16, 20, 0, 3, False, first_child, sibling, visits)  # not without stop_early
    assert go(16, 40, 0, 3, True, first_child, sibling, visits)  # 12 < 24 left: not decided
    assert go(17, 20, 0, 3, True, first_child, sibling, visits)  # checked every 16 iterations only
    assert go(16, 0, 0, 3, True, first_child, sibling, visits)  # a time budget never stops early
    assert not go(0, 0, 1, 3, False, first_child, sibling, visits)  # a deadline long past


def test_seat_columns_take_their_dtype_from_the_field() -> None:
    seats = (s.KernelAgent(s.KIND_SEARCH, 50, 1, 1, 30), s.KernelAgent(s.KIND_HEURISTIC, epsilon=0))
    kinds, iterations, c, epsilon = s.seat_columns(seats, "kind", "iterations", "c", "epsilon")
    assert kinds.tolist() == [2, 1] and iterations.dtype == np.int64
    assert c.dtype == np.float64 and c.tolist() == [1.0, 0.7] and epsilon.dtype == np.float64
