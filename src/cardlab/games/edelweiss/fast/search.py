"""Compiled single-observer ISMCTS for Edelweiss, on the numba kernel's row (`cpu`).

The same search as the reference `cardlab.agents.ismcts` (Cowling, Powley & Whitehouse 2012):
each iteration re-deals what the searching player cannot know, descends one tree keyed by action
histories with UCB over availability counts, expands one node, finishes the game with a rollout
policy (random or the compiled heuristic, both seats) and backs the result up for the player who
made each move (a draw, rule deck_out_tie, as half a win). The final choice is the most visited
legal move (ties: the lowest action id). Rows carry their config's rule options (RULES,
OPENING_HAND), so every world is searched under the game's rules.

What the searcher may know (E2.5, `EdelweissState.hidden_cards`): its own hand, both fields, the
discard pile, hand and deck sizes, and the opponent's Diamond-Dust reveals. Each iteration pools
the opponent's other hand cards with the deck *as a set* (a bit mask, so the true arrangement is
forgotten), shuffles the pool and deals it back: a hand of the same size and a deck in a new
order. Nothing else of the row is hidden, so two rows with the same information set give the same
search for the same seed (the twin-world test proves it).

Entry points: `search_action` (one decision from a row), `choose` (from a reference `InfoSet`,
behind `ismcts:...:backend=cpu`), `play_batch_agents` / `play_agents` (whole games in parallel
with any mix of random, heuristic and search seats), `cycles_per_ms` (the clock of the kernel's
decision timing).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit, prange

from cardlab.core.specs import split_spec
from cardlab.fast.search import (
    AgentBatch,
    agent_batch,
    cycles,
    cycles_per_ms,
    flush_stale_cache,
    read_cycles,
    seat_budgets,
    seat_columns,
    ucb_log_table,
)
from cardlab.games.edelweiss.config import EdelweissConfig
from cardlab.games.edelweiss.fast.cpu import (
    _BLOCK_GAMES,
    _GOLDEN,
    DECK,
    DECK_LEN,
    HAND,
    N_ACTIONS,
    POLICY_HEURISTIC,
    POLICY_RANDOM,
    REASON,
    REVEALED,
    ROW_SIZE,
    TURN,
    TURN_PLAYER,
    W_DEFENSE,
    W_INTERCEPT,
    W_OVER,
    WINDOW,
    WINNER,
    _advance_bits,
    _below,
    _cttz,
    _do,
    _heuristic_choice,
    _legal_bits,
    _mix,
    _popcount,
    _random_bit,
    _seed_rng,
    config_codes,
    deal,
    from_position,
    game_rng,
    rule_codes,
)

KIND_RANDOM, KIND_HEURISTIC, KIND_SEARCH = 0, 1, 2
ROLLOUTS = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC, "fast": POLICY_HEURISTIC}
"""Rollout policies; `fast` (the reference's kernel rollouts) is the compiled heuristic here too."""

MAX_DEPTH = 1024  # decisions from a root to the end of a game: Edelweiss games are far shorter
TIME_CAPACITY = 1 << 17  # tree nodes kept for a time budget (one node per iteration)


@njit(cache=True, inline="always")
def _actor(row: np.ndarray) -> int:
    window = row[WINDOW]
    tp = row[TURN_PLAYER] & 1
    return tp ^ 1 if window in (W_INTERCEPT, W_DEFENSE) else tp


@njit(cache=True)
def _determinize(row: np.ndarray, root: np.ndarray, me: int, rng: np.ndarray, pool: np.ndarray) -> None:
    """`row` = `root` with the cards `me` cannot know re-dealt at random (opponent's hand and deck)."""
    row[:] = root
    opp = me ^ 1
    mask = 0
    hand_cards = 0
    for suit in range(4):
        revealed = root[REVEALED + 4 * opp + suit]
        hidden = root[HAND + 4 * opp + suit] & ~revealed
        hand_cards += _popcount(hidden)
        row[HAND + 4 * opp + suit] = revealed
        while hidden != 0:
            rank = _cttz(hidden)
            hidden &= hidden - 1
            mask |= 1 << (rank * 4 + suit)
    deck_len = root[DECK_LEN]
    for i in range(deck_len):
        mask |= 1 << root[DECK + i]
    n = 0
    while mask != 0:  # ascending card ids: the pool forgets where each card really was
        pool[n] = _cttz(mask)
        mask &= mask - 1
        n += 1
    state = rng[0]  # Fisher-Yates, two 32-bit draws from each splitmix64 output (as `deal` does)
    draw = np.uint64(0)
    fresh = True
    for i in range(n - 1, 0, -1):
        if fresh:
            state += _GOLDEN
            draw = _mix(state)
            high = draw >> np.uint64(32)
        else:
            high = draw & np.uint64(0xFFFFFFFF)
        fresh = not fresh
        j = np.int64((high * np.uint64(i + 1)) >> np.uint64(32))
        pool[i], pool[j] = pool[j], pool[i]
    rng[0] = state
    for i in range(hand_cards):
        card = pool[i]
        row[HAND + 4 * opp + (card & 3)] |= 1 << (card >> 2)
    for i in range(n - hand_cards):
        row[DECK + i] = pool[hand_cards + i]


@njit(cache=True)
def _decided(child: np.ndarray, visits: np.ndarray, root_bits: int, remaining: int) -> bool:
    """Whether the most visited root move leads by more than the iterations left: then no later
    iteration can change the choice, and stopping early returns exactly the full search's move."""
    first, second = 0, 0
    rest = root_bits
    while rest != 0:
        action = _cttz(rest)
        rest &= rest - 1
        below = child[0, action]
        count = visits[below] if below >= 0 else 0
        if count > first:
            first, second = count, first
        elif count > second:
            second = count
    return first - second > remaining


@njit(cache=True)
def _search(
    root: np.ndarray,
    iterations: int,
    deadline: int,
    c: float,
    rollout: int,
    stop_early: bool,
    rng: np.ndarray,
    child: np.ndarray,
    visits: np.ndarray,
    reward: np.ndarray,
    avail: np.ndarray,
    owner: np.ndarray,
    row: np.ndarray,
    pool: np.ndarray,
    path: np.ndarray,
    log_table: np.ndarray,
) -> int:
    """One decision at the resting `root` for the player to move.

    Runs `iterations` (0: no limit) and stops at `deadline` (a cycle-counter time; 0: none), or
    when the tree is full. With `stop_early` it also stops once the choice is `_decided`, which
    returns exactly the move the remaining iterations would have led to.

    `child` is int32[capacity, N_ACTIONS]; the other tree arrays have `capacity` entries;
    `log_table[n]` = log(n) (availability counts never exceed the node count).
    """
    me = _actor(root)
    root_bits = _legal_bits(root)
    if root_bits & (root_bits - 1) == 0:
        return _cttz(root_bits)
    capacity = visits.shape[0]
    child[0, :] = -1
    visits[0] = 0
    n_nodes = 1
    done = 0
    while True:
        if (iterations > 0 and done >= iterations) or n_nodes >= capacity:
            break
        if deadline > 0 and cycles() >= deadline:
            break
        _determinize(row, root, me, rng, pool)
        bits = root_bits
        node = 0
        depth = 0
        # Selection and expansion: descend while every legal move has been tried.
        while row[WINDOW] != W_OVER:
            actor = _actor(row)
            untried = 0
            rest = bits
            while rest != 0:
                action = _cttz(rest)
                rest &= rest - 1
                below = child[node, action]
                if below < 0:
                    untried |= 1 << action
                else:
                    avail[below] += 1
            if untried != 0:
                action = _random_bit(untried, rng)
                new = n_nodes
                n_nodes += 1
                child[new, :] = -1
                visits[new] = 0
                reward[new] = 0.0
                avail[new] = 1
                owner[new] = actor
                child[node, action] = new
                _do(row, action)
                bits = _advance_bits(row)
                path[depth] = new
                depth += 1
                break
            best, best_value = -1, -np.inf
            rest = bits
            while rest != 0:
                action = _cttz(rest)
                rest &= rest - 1
                below = child[node, action]
                value = reward[below] / visits[below] + c * np.sqrt(log_table[avail[below]] / visits[below])
                if value > best_value:
                    best, best_value = action, value
            node = child[node, best]
            _do(row, best)
            bits = _advance_bits(row)
            path[depth] = node
            depth += 1
        # Rollout to the end of the game.
        while row[WINDOW] != W_OVER:
            action = _heuristic_choice(row, bits) if rollout == POLICY_HEURISTIC else _random_bit(bits, rng)
            _do(row, action)
            bits = _advance_bits(row)
        winner = row[WINNER]
        visits[0] += 1
        for i in range(depth):
            visited = path[i]
            visits[visited] += 1
            if owner[visited] == winner:
                reward[visited] += 1.0
            elif winner < 0:  # a draw (rule deck_out_tie): returns 0, half a win, as the reference backs it up
                reward[visited] += 0.5
        done += 1
        if stop_early and iterations > 0 and (done & 15) == 0 and _decided(child, visits, root_bits, iterations - done):
            break
    best, most = -1, -1
    rest = root_bits
    while rest != 0:  # the most visited move; ties go to the lowest action id
        action = _cttz(rest)
        rest &= rest - 1
        below = child[0, action]
        if below >= 0 and visits[below] > most:
            best, most = action, visits[below]
    return best if best >= 0 else _cttz(root_bits)


class Tree:
    """Reusable search buffers for one thread of decisions."""

    def __init__(self, capacity: int) -> None:
        self.child = np.empty((capacity, N_ACTIONS), dtype=np.int32)
        self.visits = np.zeros(capacity, dtype=np.int64)
        self.reward = np.zeros(capacity, dtype=np.float64)
        self.avail = np.zeros(capacity, dtype=np.int64)
        self.owner = np.zeros(capacity, dtype=np.int8)
        self.row = np.zeros(ROW_SIZE, dtype=np.int64)
        self.pool = np.zeros(64, dtype=np.int64)
        self.path = np.zeros(MAX_DEPTH, dtype=np.int64)
        self.log_table = ucb_log_table(capacity)

    def buffers(self) -> tuple[np.ndarray, ...]:
        """`_search`'s tree and scratch arguments, in its order."""
        tree = (self.child, self.visits, self.reward, self.avail, self.owner)
        return (*tree, self.row, self.pool, self.path, self.log_table)


def search_action(
    root: np.ndarray,
    iterations: int = 1000,
    c: float = 0.7,
    rollout: str = "random",
    seed: int = 0,
    seconds: float = 0.0,
    tree: Tree | None = None,
    *,
    stop_early: bool = True,
) -> int:
    """The search's action id at a resting kernel row (the player to move searches).

    `iterations` 0 means "until `seconds` run out" (the reference's `time` budget); both given,
    the search stops at whichever comes first (a server's cap on thinking time).
    """
    if rollout not in ROLLOUTS:
        raise ValueError(f"rollout must be one of {sorted(ROLLOUTS)}, not {rollout!r}")
    capacity = TIME_CAPACITY if iterations <= 0 else iterations + 1
    if tree is None or tree.visits.shape[0] < capacity:
        tree = Tree(capacity)
    deadline = read_cycles() + int(seconds * 1000.0 * cycles_per_ms()) if seconds > 0 else 0
    rng = game_rng(seed % 2**62, 0)
    return int(_search(root, iterations, deadline, c, ROLLOUTS[rollout], stop_early, rng, *tree.buffers()))


def choose(
    world: Any, iterations: int, c: float, rollout: str, seed: int, seconds: float = 0.0, tree: Tree | None = None
) -> int:
    """The search's action id for the player to move in a reference state.

    Given an InfoSet's canonical world, whose unknown cards are sorted, so the answer depends on
    nothing the player may not know (the search re-deals those cards anyway). The world's config
    carries its rule options into the row, so the search plays every world under them.
    """
    root = from_position(world.position(), validate=False)
    return search_action(root, iterations, c, rollout, seed, seconds, tree)


@njit(cache=True, parallel=True)
def play_batch_agents(
    deck_kind: int,
    standard: int,
    characters: np.ndarray,
    kinds: np.ndarray,
    iterations: np.ndarray,
    cs: np.ndarray,
    rollouts: np.ndarray,
    budgets: np.ndarray,
    epsilons: np.ndarray,
    capacity: int,
    n_games: int,
    seed: int,
    rules: int = 0,
    opening_hand: int = 0,
    first: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Play `n_games` games in parallel; each seat is random, heuristic or the search (`kinds[p]`).

    `rules` / `opening_hand` are the config's rule options (`cpu.rule_codes`): the games and
    every search's worlds are played under them (a drawn game has winner -1).

    A heuristic seat plays a random legal action with probability `epsilons[p]` (`heuristic:epsilon=E`).

    Game i draws its deal, random moves and searches from `game_rng(seed, first + i)`, so results depend
    on nothing but (seed, first + i) (and on the clock only with a time budget, `budgets[p]` cycles > 0):
    a long run played in pieces (`first` = the games played before) holds exactly the games of one call.
    Searched games are handed to the threads one at a time (a game takes milliseconds or more, so a
    piece of a few games still keeps every thread busy); the compiled policies' in blocks.
    Returns per game: winner, reason, final turn, decisions, decisions per seat (n, 2) and, when a
    seat searches, the cycle-counter ticks each seat's decisions took (n, 2; zeros otherwise: a
    clock read would cost as much as a compiled policy's decision).
    """
    winner = np.empty(n_games, dtype=np.int8)
    reason = np.empty(n_games, dtype=np.int8)
    turns = np.empty(n_games, dtype=np.int16)
    decisions = np.empty(n_games, dtype=np.int32)
    seat_decisions = np.zeros((n_games, 2), dtype=np.int32)
    search_cycles = np.zeros((n_games, 2), dtype=np.int64)
    searching = kinds[0] == KIND_SEARCH or kinds[1] == KIND_SEARCH
    block_games = 1 if searching else _BLOCK_GAMES
    n_blocks = (n_games + block_games - 1) // block_games
    for block in prange(n_blocks):
        row = np.zeros(ROW_SIZE, dtype=np.int64)
        rng = np.empty(1, dtype=np.uint64)
        size = capacity if searching else 1
        child = np.empty((size, N_ACTIONS), dtype=np.int32)
        visits = np.zeros(size, dtype=np.int64)
        reward = np.zeros(size, dtype=np.float64)
        avail = np.zeros(size, dtype=np.int64)
        owner = np.zeros(size, dtype=np.int8)
        scratch = np.zeros(ROW_SIZE, dtype=np.int64)
        pool = np.zeros(64, dtype=np.int64)
        path = np.zeros(MAX_DEPTH, dtype=np.int64)
        log_table = ucb_log_table(size)
        for game in range(block * block_games, min(n_games, (block + 1) * block_games)):
            _seed_rng(rng, seed, first + game)
            deal(row, deck_kind, standard, characters, rng, rules, opening_hand)
            bits = _legal_bits(row)
            count = 0
            while row[WINDOW] != W_OVER:
                actor = _actor(row)
                kind = kinds[actor]
                start = cycles() if searching else 0
                if kind == KIND_HEURISTIC:
                    if epsilons[actor] > 0.0 and _below(rng, 1 << 30) < epsilons[actor] * (1 << 30):
                        action = _random_bit(bits, rng)
                    else:
                        action = _heuristic_choice(row, bits)
                elif kind == KIND_RANDOM:
                    action = _random_bit(bits, rng)
                else:
                    deadline = start + budgets[actor] if budgets[actor] > 0 else 0
                    action = _search(
                        row, iterations[actor], deadline, cs[actor], rollouts[actor], True, rng,
                        child, visits, reward, avail, owner, scratch, pool, path, log_table,
                    )  # fmt: skip
                if searching:
                    search_cycles[game, actor] += cycles() - start
                seat_decisions[game, actor] += 1
                _do(row, action)
                count += 1
                bits = _advance_bits(row)
            decisions[game] = count
            winner[game] = row[WINNER]
            reason[game] = row[REASON]
            turns[game] = row[TURN]
    return winner, reason, turns, decisions, seat_decisions, search_cycles


@dataclass(frozen=True)
class KernelAgent:
    """A seat the kernel can play: random, heuristic, or the search with its parameters."""

    kind: int
    iterations: int = 0
    c: float = 0.7
    rollout: int = POLICY_RANDOM
    seconds: float = 0.0
    epsilon: float = 0.0


def kernel_agent(spec: str) -> KernelAgent:
    """The kernel seat of an agent spec; a ValueError for one the kernel cannot play."""
    name, params = split_spec(spec)  # the values were checked by the agents (`make_agent`) already
    if name == "random" and not params:
        return KernelAgent(KIND_RANDOM)
    if name == "heuristic":
        return KernelAgent(KIND_HEURISTIC, epsilon=float(params.get("epsilon", 0.0)))
    if name == "ismcts" and params.get("backend") == "cpu":
        seconds = float(params.get("time", 0.0))
        iterations = 0 if seconds > 0 else int(params.get("iterations", 1000))  # a time budget replaces them
        rollout = str(params.get("rollout", "random"))
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {sorted(ROLLOUTS)}, not {rollout!r}")
        if iterations < 1 and seconds <= 0:
            raise ValueError("give iterations >= 1 or time > 0")  # the agent refuses it too
        return KernelAgent(KIND_SEARCH, iterations, float(params.get("c", 0.7)), ROLLOUTS[rollout], seconds)
    raise ValueError(f"the cpu kernel plays random, heuristic[:epsilon=E] and ismcts:...:backend=cpu, not {spec!r}")


def play_agents(
    config: EdelweissConfig, spec_p1: str, spec_p2: str, n_games: int, seed: int, first: int = 0
) -> AgentBatch:
    """`play_batch_agents` for an `EdelweissConfig` (its rule options included) and two agent specs:
    games `first` .. `first + n_games - 1` of the stream `seed`."""
    seats = (kernel_agent(spec_p1), kernel_agent(spec_p2))
    deck_kind, standard, characters = config_codes(config)
    rules, opening_hand = rule_codes(config)
    budgets, capacity = seat_budgets(seats, TIME_CAPACITY)
    columns = play_batch_agents(
        deck_kind,
        standard,
        characters,
        *seat_columns(seats, "kind", "iterations", "c", "rollout"),
        budgets,
        *seat_columns(seats, "epsilon"),
        capacity,
        n_games,
        seed,
        rules,
        opening_hand,
        first,
    )
    return agent_batch(*columns)


flush_stale_cache(sys.modules[__name__])  # the search inlines the rules of `cpu`
