"""Compiled single-observer ISMCTS for Aterial, on the numba kernel's row (`cpu`).

The same search as the reference `cardlab.agents.ismcts` and Edelweiss's compiled one
(`games/edelweiss/fast/search.py`; Cowling, Powley & Whitehouse 2012): each iteration re-deals what
the searching player cannot know, descends one tree keyed by action histories with UCB over
availability counts, expands one node, finishes the game with a rollout policy (random or the
compiled heuristic, both seats) and backs the result up for the player who made each move (a draw,
A15.5, as half a win). With `depth=D` a rollout stops after D actions and the heuristic's estimate of
the position (`heuristic.evaluate`, the reference's `Game.evaluator`) is backed up instead: a far
cheaper iteration, and with the heuristic's rollouts a stronger search at equal time (BENCHMARKS.md,
aterial-search). The final choice is the most visited legal move (ties: the first legal one).
The row's integer table carries the config's cards and rule options, so every world is searched
under the game's rules.

What the searcher may not know (A18.4, `AterialState.hidden_cards`): its own deck's order, and the
opponent's hand pooled with the opponent's deck (a card the opponent has picked to deploy, window
deploy_to, is known and stays put). Each iteration collects each pool *as a set* (ascending
instance ids, so the true arrangement is forgotten), shuffles it and deals it back into the same
slots; everything else of the row (fields, discards, removed cards, LP, sizes, the searcher's hand)
is public or the searcher's own, so two rows with the same information set give the same search
for the same seed (the twin-world test proves it). A mulligan's shuffle inside a world draws from
the search's own stream.

Children are kept as sibling lists (Aterial has a few hundred action ids, of which a decision
offers about ten), so a tree node costs a few words whatever the card set.

Entry points: `search_action` (one decision from a row and its table), `choose` (from a reference
`InfoSet`'s world, behind `ismcts:...:backend=cpu`), `play_batch_agents` / `play_agents` (whole
games in parallel with any mix of random, heuristic and search seats), `kernel_agent` (a spec's
seat, or a CardlabError saying why the kernel cannot play it).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from numba import njit, prange

from cardlab.fast import search as shared
from cardlab.fast.rng import new_rng
from cardlab.fast.search import (
    KIND_HEURISTIC,
    KIND_RANDOM,
    KIND_SEARCH,
    AgentBatch,
    KernelAgent,
    back_up,
    cycles,
    cycles_per_ms,
    descend,
    flush_stale_cache,
    more_iterations,
    most_visited,
    play_seats,
    read_cycles,
    redeal,
    thread_buffers,
)
from cardlab.games.aterial.fast import cpu
from cardlab.games.aterial.fast.cpu import (
    ACTIVE,
    DECK,
    HAND,
    NDECK,
    NHAND,
    REASON,
    ROW_SIZE,
    SELECTED,
    TURN,
    WINDOW,
    WINNER,
    Row,
    _below,
    apply,
    current_player,
    deal,
    legal_actions,
    load_state,
    seed_rng,
)
from cardlab.games.aterial.fast.heuristic import POLICY_HEURISTIC, POLICY_RANDOM, evaluate, heuristic_action
from cardlab.games.aterial.fast.tables import MAX_INSTANCES, N_ACTIONS
from cardlab.games.aterial.state import W_DEPLOY_TO, W_OVER

ROLLOUTS = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC, "fast": POLICY_HEURISTIC}
"""Rollout policies; `fast` (the reference's kernel rollouts) is the compiled heuristic here too."""

DEFAULT_ROLLOUT = "random"
"""The rollout when a spec names none: the reference agent's default, so that one spec is one agent on
both engines. `rollout=heuristic` plays far stronger and faster here (Aterial's random games run about
three times as many decisions; BENCHMARKS.md, aterial-search): name it, as the benchmark does."""

MAX_DEPTH = 2048  # tree nodes on one path (one node is added per iteration, so far fewer in practice)
TIME_CAPACITY = 1 << 17  # tree nodes kept for a time budget (one node per iteration)


INSTANCE_BITS = (1 << 30) - 1
"""A hand or deck slot's instance bits (`redeal`): it holds an instance id and nothing else."""


@njit(cache=True)
def _determinize(row: Row, root: Row, me: int, rng: np.ndarray, slots: Row, pool: Row, mark: Row) -> None:
    """`row` = `root` with what `me` cannot know re-dealt at random (A18.4): `me`'s deck order; the
    opponent's hand and deck as one pool (but a card picked to deploy, window deploy_to, stays)."""
    row[:] = root
    n = 0
    for i in range(root[NDECK + me]):
        slots[n] = DECK + 64 * me + i
        n += 1
    redeal(row, slots, n, rng, pool, mark, INSTANCE_BITS)
    opp = 1 - me
    keep = root[SELECTED] if root[WINDOW] == W_DEPLOY_TO and root[ACTIVE] == opp else -1
    n = 0
    for i in range(root[NHAND + opp]):
        if root[HAND + 64 * opp + i] != keep:
            slots[n] = HAND + 64 * opp + i
            n += 1
    for i in range(root[NDECK + opp]):
        slots[n] = DECK + 64 * opp + i
        n += 1
    redeal(row, slots, n, rng, pool, mark, INSTANCE_BITS)


@njit(cache=True)
def _search(
    root: Row,
    tab: Row,
    iterations: int,
    deadline: int,
    c: float,
    rollout: int,
    rollout_depth: int,
    stop_early: bool,
    rng: np.ndarray,
    first_child: Row,
    sibling: Row,
    move: Row,
    visits: Row,
    reward: np.ndarray,
    avail: Row,
    owner: Row,
    row: Row,
    out: Row,
    root_out: Row,
    slot: Row,
    path: Row,
    slots: Row,
    pool: Row,
    mark: Row,
    log_table: np.ndarray,
) -> int:
    """One decision at the resting `root` for the player to move; returns its action id.

    Runs `iterations` (0: no limit) and stops at `deadline` (a cycle-counter time; 0: none), or when
    the tree is full. With `stop_early` it also stops once the choice is `decided`, which returns
    exactly the move the remaining iterations would have led to. The tree arrays have `capacity`
    entries; `slot` (one per action id, all -1) maps a node's children while it is visited;
    `log_table[n]` = log(n).
    """
    me = current_player(root)
    n_root = legal_actions(root, tab, root_out)
    if n_root <= 1:
        return root_out[0] if n_root == 1 else -1
    first_child[0] = -1
    visits[0] = 0
    n_nodes = 1
    done = 0
    while more_iterations(done, iterations, deadline, n_nodes, stop_early, first_child, sibling, visits):
        _determinize(row, root, me, rng, slots, pool, mark)
        n = n_root
        out[:n] = root_out[:n]
        node = 0
        depth = 0
        # Selection and expansion: descend while every legal move has been tried.
        while row[WINDOW] != W_OVER and depth < MAX_DEPTH:
            actor = current_player(row)
            chosen, node, n_nodes, expanded = descend(first_child, sibling, move, visits, reward, avail, owner, slot,
                                                      node, n_nodes, out, n, actor, c, log_table, rng)  # fmt: skip
            n = apply(row, tab, chosen, rng, out)
            path[depth] = node
            depth += 1
            if expanded:
                break
        # Rollout to the end of the game, or for `rollout_depth` actions and then the heuristic's estimate.
        steps = 0
        while row[WINDOW] != W_OVER and (rollout_depth == 0 or steps < rollout_depth):
            action = heuristic_action(row, tab, out, n) if rollout == POLICY_HEURISTIC else out[_below(rng, n)]
            n = apply(row, tab, action, rng, out)
            steps += 1
        first_value = evaluate(row, tab, 0)  # a draw (A15.5) is half a win, as the reference backs it up
        back_up(visits, reward, owner, path, depth, first_value)
        done += 1
    return most_visited(first_child, sibling, move, visits, root_out, n_root)


class Tree(shared.Tree):
    """Reusable search buffers for one thread of decisions (`cardlab.fast.search.Tree` sized for Aterial)."""

    def __init__(self, capacity: int, n_actions: int = 512) -> None:
        super().__init__(capacity, n_actions, ROW_SIZE, MAX_INSTANCES, MAX_DEPTH)


def search_action(
    root: Row,
    tab: Row,
    iterations: int = 1000,
    c: float = 0.7,
    rollout: str = DEFAULT_ROLLOUT,
    seed: int = 0,
    seconds: float = 0.0,
    tree: Tree | None = None,
    *,
    depth: int = 0,
    stop_early: bool = True,
) -> int:
    """The search's action id at a resting kernel row (the player to move searches).

    `iterations` 0 means "until `seconds` run out" (the reference's `time` budget); both given,
    the search stops at whichever comes first (a server's cap on thinking time).
    """
    if rollout not in ROLLOUTS:
        raise ValueError(f"rollout must be one of {sorted(ROLLOUTS)}, not {rollout!r}")
    capacity = TIME_CAPACITY if iterations <= 0 else iterations + 1
    n_actions = int(tab[N_ACTIONS])
    if tree is None or not tree.fits(capacity, n_actions):
        tree = Tree(capacity, max(512, n_actions))
    deadline = read_cycles() + int(seconds * 1000.0 * cycles_per_ms()) if seconds > 0 else 0
    rng = new_rng(seed, 0)
    action = _search(root, tab, iterations, deadline, c, ROLLOUTS[rollout], depth, stop_early, rng, *tree.buffers())
    return int(action)


def choose(
    world: Any,
    iterations: int,
    c: float,
    rollout: str,
    seed: int,
    seconds: float = 0.0,
    tree: Tree | None = None,
    depth: int = 0,
) -> int:
    """The search's action id for the player to move in a reference `AterialState`.

    Given an InfoSet's canonical world, whose unknown cards are sorted, so the answer depends on
    nothing the player may not know (the search re-deals those cards anyway). The world's game
    carries its cards and rule options into the table.
    """
    root, tab = load_state(world)
    return search_action(root, tab, iterations, c, rollout, seed, seconds, tree, depth=depth)


@njit(cache=True, parallel=True)
def play_batch_agents(
    tab: Row,
    first: int,
    kinds: Row,
    iterations: Row,
    cs: np.ndarray,
    rollouts: Row,
    depths: Row,
    budgets: Row,
    epsilons: np.ndarray,
    capacity: int,
    n_games: int,
    seed: int,
    first_game: int,
) -> tuple[Row, Row, Row, Row, Row, Row]:
    """Play `n_games` games in parallel; each seat is random, heuristic or the search (`kinds[p]`).

    A heuristic seat plays a random legal action with probability `epsilons[p]` (`heuristic:epsilon=E`).
    Game i draws its deal, random moves and searches from `seed_rng(seed, first_game + i)`, so results
    depend on nothing but (seed, first_game + i) (and on the clock only with a time budget, `budgets[p]`
    cycles > 0), whatever the threads. Searched games are handed to the threads one at a time, the
    compiled policies' in blocks. Returns per game: winner (-1 a draw), reason, final turn, decisions,
    decisions per seat (n, 2) and, when a seat searches, the cycle-counter ticks of each seat's
    decisions (n, 2; zeros otherwise: a clock read would cost as much as a compiled policy's decision).
    """
    winner = np.empty(n_games, dtype=np.int64)
    reason = np.empty(n_games, dtype=np.int64)
    turns = np.empty(n_games, dtype=np.int64)
    decisions = np.empty(n_games, dtype=np.int64)
    seat_decisions = np.zeros((n_games, 2), dtype=np.int64)
    search_cycles = np.zeros((n_games, 2), dtype=np.int64)
    searching = kinds[0] == KIND_SEARCH or kinds[1] == KIND_SEARCH
    block_games = 1 if searching else cpu._BLOCK_GAMES
    n_blocks = (n_games + block_games - 1) // block_games
    n_actions = tab[N_ACTIONS]
    for block in prange(n_blocks):
        row = np.zeros(ROW_SIZE, dtype=np.int64)
        out = np.empty(n_actions, dtype=np.int64)
        rng = np.empty(1, dtype=np.uint64)
        tree = thread_buffers(capacity if searching else 1, n_actions, ROW_SIZE, MAX_INSTANCES, MAX_DEPTH)
        for game in range(block * block_games, min(n_games, (block + 1) * block_games)):
            seed_rng(rng, seed, first_game + game)
            n = deal(row, tab, first, rng, out)
            count = 0
            while row[WINDOW] != W_OVER:
                actor = current_player(row)
                kind = kinds[actor]
                start = cycles() if searching else 0
                if kind == KIND_HEURISTIC:
                    if epsilons[actor] > 0.0 and _below(rng, 1 << 30) < epsilons[actor] * (1 << 30):
                        action = out[_below(rng, n)]
                    else:
                        action = heuristic_action(row, tab, out, n)
                elif kind == KIND_RANDOM:
                    action = out[_below(rng, n)]
                else:
                    deadline = start + budgets[actor] if budgets[actor] > 0 else 0
                    action = _search(row, tab, iterations[actor], deadline, cs[actor], rollouts[actor], depths[actor],
                                     True, rng, *tree)  # fmt: skip
                if searching:
                    search_cycles[game, actor] += cycles() - start
                seat_decisions[game, actor] += 1
                n = apply(row, tab, action, rng, out)
                count += 1
            winner[game] = row[WINNER]
            reason[game] = row[REASON]
            turns[game] = row[TURN]
            decisions[game] = count
    return winner, reason, turns, decisions, seat_decisions, search_cycles


def kernel_agent(spec: str) -> KernelAgent:
    """The kernel seat of an agent spec; an AgentSpecError (a CardlabError) naming what is wrong."""
    return shared.kernel_agent(spec, ROLLOUTS, DEFAULT_ROLLOUT)


def play_agents(game: Any, spec_p1: str, spec_p2: str, n_games: int, seed: int, first: int = 0) -> AgentBatch:
    """`play_batch_agents` for an `Aterial` game (its cards, decks, rule options and `first`) and two agent
    specs: games `first` .. `first + n_games - 1` of the stream `seed`."""
    from cardlab.games.aterial.fast.tables import build_table, dealt_cards

    seats = (kernel_agent(spec_p1), kernel_agent(spec_p2))
    first_player = -1 if game.config.first is None else ("P1", "P2").index(game.config.first)
    table = build_table(game, dealt_cards(game))
    return play_seats(play_batch_agents, (table, first_player), seats, TIME_CAPACITY, n_games, seed, first)


flush_stale_cache(sys.modules[__name__])  # the search inlines the rules of `cpu` and its heuristic
