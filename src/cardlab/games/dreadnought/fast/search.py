"""Compiled single-observer ISMCTS for Dreadnought, on the numba kernel's row (`cpu`).

The same search as the reference `cardlab.agents.ismcts` and Aterial's compiled one (`games/aterial/fast/
search.py`; Cowling, Powley & Whitehouse 2012): each iteration re-deals what the searching player cannot
know, descends one tree keyed by action histories with UCB over availability counts (the legal set of each
world's own position), expands one node, finishes the game with a rollout policy (both seats) and backs the
result up for the player who made each move (a draw, D21.1 or the D21.3 turn cap, as half a win). The final
choice is the most visited of the true position's legal moves (ties: the first legal one). The row's integer
table carries the config's cards, patches and rule options, so every world is searched under the game's rules.

What the searcher may not know is `DreadnoughtState.hidden_cards` (D1.5), two pools of cards that trade
places only within their pool:

- its own: deck order, bursts, both HP stacks (D1.2, D4.3) and enchants made unseen from its deck top
  (D14.2, the row's `SECRET` flag);
- the opponent's: the same, and their hand less the cards the searcher has seen go there (D15.2, the row's
  `KNOWN` counts), their closed speed card (D6.3), their mulligan set-aside and the real cards of their
  dummies not seen (D15.1); while the opponent's casters are not yet opened (D4.1), their placement is a
  pool of its own.

As `DreadnoughtState.forget_unseen` does (R-D9), the opponent's set-aside mulligan goes back to their hand
first, and their hand is put in a fixed order (the cards the searcher has seen first, by instance). Each pool
is collected *as a set* (ascending instance ids, so the true arrangement is forgotten), shuffled and dealt
back into the same slots; everything else of the row is public or the searcher's own, so two rows with the
same information set give the same search for the same seed (the twin-world test proves it).

The rollout policy is `_rollout_action`, the one place another policy plugs in (`ROLLOUTS`).

Entry points: `search_action` (one decision from a row and its table), `choose` (from a reference `InfoSet`'s
world, behind `ismcts:...:backend=cpu`), `play_batch_agents` / `play_agents` (whole games in parallel with
random and search seats), `kernel_agent` (a spec's seat, or a CardlabError saying why the kernel cannot
play it).
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from numba import njit, prange

from cardlab.fast import search as shared
from cardlab.fast.rng import below, new_rng, seed_rng
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
from cardlab.games.dreadnought.fast import cpu
from cardlab.games.dreadnought.fast.cpu import (
    CASTER,
    DKNOWN,
    DUMMY,
    EMPTY,
    ENCH,
    ENCH_CAP,
    HPS,
    KNOWN,
    LEN,
    NENCH,
    NHP,
    PH_OVER,
    PHASE,
    REASON,
    ROW_SIZE,
    SECRET,
    TURN,
    WINNER,
    Z_BURST,
    Z_DECK,
    Z_GEAR,
    Z_HAND,
    Z_MULL,
    Z_PLACED,
    Row,
    _zbase,
    apply,
    current_player,
    deal,
    legal_actions,
    load_row,
)
from cardlab.games.dreadnought.fast.heuristic import (
    POLICY_HEURISTIC,
    POLICY_RANDOM,
    evaluate,
    new_scratch,
    policy_action,
)
from cardlab.games.dreadnought.fast.tables import MAX_INSTANCES, N_ACTIONS, PER_PLAYER, build_table

ROLLOUTS = {"random": POLICY_RANDOM, "heuristic": POLICY_HEURISTIC}
"""Rollout policies by spec name (`_rollout_action` plays them)."""

DEFAULT_ROLLOUT = "random"
"""The rollout when a spec names none: the reference agent's default, so that one spec is one agent on both
engines."""

MAX_DEPTH = 2048  # tree nodes on one path (one node is added per iteration, so far fewer in practice)
TIME_CAPACITY = 1 << 17  # tree nodes kept for a time budget (one node per iteration)
INSTANCE_BITS = 255
"""A row slot's instance bits (`redeal`): an enchant's slot also holds its kind, placer and `SECRET` above them."""


@njit(cache=True)
def _zone_slots(row: Row, z: int, p: int, slots: Row, n: int) -> int:
    """Append the row offsets of zone `z` of player `p` to `slots[n:]`; returns the new count."""
    base = _zbase(z, p)
    for i in range(row[LEN + 2 * z + p]):
        slots[n] = base + i
        n += 1
    return n


@njit(cache=True)
def _owner_slots(row: Row, p: int, slots: Row, n: int) -> int:
    """What nobody sees of `p`'s cards wherever they are (D1.2, D4.3, D14.2): deck, bursts, both HP stacks and
    enchants `p` made unseen from the deck top."""
    n = _zone_slots(row, Z_DECK, p, slots, n)
    n = _zone_slots(row, Z_BURST, p, slots, n)
    for area in range(2):
        base = HPS + (2 * p + area) * PER_PLAYER
        for i in range(row[NHP + 2 * p + area]):
            slots[n] = base + i
            n += 1
    for host in range(MAX_INSTANCES):
        for i in range(row[NENCH + host]):
            at = ENCH + host * ENCH_CAP + i
            value = row[at]
            if value & SECRET and (value >> 10) & 1 == p:
                slots[n] = at
                n += 1
    return n


@njit(cache=True)
def _determinize(row: Row, root: Row, me: int, rng: np.ndarray, slots: Row, pool: Row, mark: Row) -> None:
    """`row` = `root` with what `me` cannot know re-dealt at random (`DreadnoughtState.hidden_cards`, D1.5)."""
    row[:] = root
    opp = 1 - me
    # R-D9 (`forget_unseen`): the opponent's set-aside mulligan goes back to their hand, unseen.
    hand = _zbase(Z_HAND, opp)
    n_hand = row[LEN + 2 * Z_HAND + opp]
    mull = _zbase(Z_MULL, opp)
    for i in range(row[LEN + 2 * Z_MULL + opp]):
        row[hand + n_hand] = row[mull + i]
        row[mull + i] = 0  # as a row loaded with an empty set-aside holds it
        n_hand += 1
    row[LEN + 2 * Z_HAND + opp] = n_hand
    row[LEN + 2 * Z_MULL + opp] = 0
    # Their hand in a fixed order: the cards `me` has seen go there (D15.2) first, by instance; the rest after.
    for i in range(n_hand):
        inst = row[hand + i]
        if root[KNOWN + inst] > 0:
            mark[inst] = 1
    n_known = 0
    for inst in range(MAX_INSTANCES):
        if mark[inst]:
            pool[n_known] = inst
            n_known += 1
    unseen = n_known
    for i in range(n_hand):
        inst = row[hand + i]
        if not mark[inst]:
            pool[unseen] = inst
            unseen += 1
    for i in range(n_hand):
        mark[pool[i]] = 0
        row[hand + i] = pool[i]
    # `me`'s own pool.
    n = _owner_slots(row, me, slots, 0)
    redeal(row, slots, n, rng, pool, mark, INSTANCE_BITS)
    # The opponent's placement before it is opened (D4.1): a pool of its own.
    if row[CASTER + 2 * opp] == EMPTY:
        n = _zone_slots(row, Z_PLACED, opp, slots, 0)
        redeal(row, slots, n, rng, pool, mark, INSTANCE_BITS)
    # The opponent's pool: theirs as `me`'s, plus the hand cards not seen, the closed speed card (D6.3) and
    # the real cards of dummies not seen (D15.1).
    n = _owner_slots(row, opp, slots, 0)
    for i in range(n_known, n_hand):
        slots[n] = hand + i
        n += 1
    n = _zone_slots(row, Z_GEAR, opp, slots, n)
    for k in range(4):
        if row[DUMMY + 4 * opp + k] != EMPTY and row[DKNOWN + 4 * opp + k] == 0:
            slots[n] = DUMMY + 4 * opp + k
            n += 1
    redeal(row, slots, n, rng, pool, mark, INSTANCE_BITS)


@njit(cache=True, inline="always")
def _rollout_action(row: Row, tab: Row, out: Row, n: int, rng: np.ndarray, policy: int, wi: Row,
                    wf: np.ndarray) -> int:  # fmt: skip
    """The rollout policy's move among the `n` legal actions in `out`: the one switch point for policies
    (`ROLLOUTS`: random, or the compiled heuristic for both seats)."""
    return policy_action(row, tab, out, n, policy, 0.0, rng, wi, wf)


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
    wi: Row,
    wf: np.ndarray,
) -> int:
    """One decision at the resting `root` for the player to move; returns its action id.

    Runs `iterations` (0: no limit) and stops at `deadline` (a cycle-counter time; 0: none), or when the tree
    is full. With `stop_early` it also stops once the choice is `decided`, which returns exactly the move the
    remaining iterations would have led to. The tree arrays have `capacity` entries; `slot` (one per action
    id, all -1) maps a node's children while it is visited; `log_table[n]` = log(n); `wi`, `wf` are the
    heuristic's scratch (`heuristic.new_scratch`).
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
        n = legal_actions(row, tab, out)  # this world's own choices (availability counts, ISMCTS)
        if n == 0:  # never expected: the searcher's choices depend on nothing re-dealt
            n = n_root
            out[:n] = root_out[:n]
        node = 0
        depth = 0
        # Selection and expansion: descend while every legal move has been tried.
        while row[PHASE] != PH_OVER and depth < MAX_DEPTH:
            actor = current_player(row)
            chosen, node, n_nodes, expanded = descend(first_child, sibling, move, visits, reward, avail, owner, slot,
                                                      node, n_nodes, out, n, actor, c, log_table, rng)  # fmt: skip
            n = apply(row, tab, chosen, rng, out)
            path[depth] = node
            depth += 1
            if expanded:
                break
        # Rollout to the end of the game (D21; the D21.3 turn cap ends every game), or for `rollout_depth`
        # actions and then the heuristic's estimate of the position.
        steps = 0
        while row[PHASE] != PH_OVER and (rollout_depth == 0 or steps < rollout_depth):
            n = apply(row, tab, _rollout_action(row, tab, out, n, rng, rollout, wi, wf), rng, out)
            steps += 1
        # A draw (or a world that outgrew the row) is half a win, as the reference backs it up.
        first_value = evaluate(row, tab, 0)
        back_up(visits, reward, owner, path, depth, first_value)
        done += 1
    return most_visited(first_child, sibling, move, visits, root_out, n_root)


class Tree(shared.Tree):
    """Reusable search buffers for one thread of decisions (`cardlab.fast.search.Tree` sized for Dreadnought)."""

    def __init__(self, capacity: int, n_actions: int = 512) -> None:
        super().__init__(capacity, n_actions, ROW_SIZE, MAX_INSTANCES, MAX_DEPTH)
        self.heuristic_scratch = new_scratch(n_actions)

    def buffers(self) -> tuple[np.ndarray, ...]:
        return (*super().buffers(), *self.heuristic_scratch)


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

    `iterations` 0 means "until `seconds` run out" (the reference's `time` budget); both given, the search
    stops at whichever comes first (a server's cap on thinking time).
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
    """The search's action id for the player to move in a reference `DreadnoughtState`.

    Given an InfoSet's canonical world, whose unknown cards are sorted, so the answer depends on nothing the
    player may not know (the search re-deals those cards anyway). The world's game carries its cards,
    patches and rule options into the table.
    """
    table = _world_table(world)
    return search_action(load_row(world), table, iterations, c, rollout, seed, seconds, tree, depth=depth)


_TABLES: dict[int, tuple[Any, Any, Any, Row]] = {}
"""Tables of the worlds searched lately, by their cards tuple (shared by a game's states and their clones)."""


def _world_table(world: Any) -> Row:
    """The kernel table of a reference state's game, cards and owners, built once per game played (a
    match asks for one decision after another from the same deal)."""
    hit = _TABLES.get(id(world.cards))
    if hit is not None and hit[0] is world.cards and hit[1] is world.owner and hit[2] is world.game:
        return hit[3]
    if len(_TABLES) >= 16:
        _TABLES.clear()
    table = build_table(world.game, world.cards, world.owner)
    _TABLES[id(world.cards)] = (world.cards, world.owner, world.game, table)
    return table


@njit(cache=True, parallel=True)
def play_batch_agents(
    tab: Row,
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
    """Play `n_games` games in parallel; each seat is random, the heuristic (a random action with probability
    `epsilons[p]`) or the search (`kinds[p]`).

    Game i draws its deal, random moves and searches from `seed_rng(seed, first_game + i)`, so results depend
    on nothing but (seed, first_game + i) (and on the clock only with a time budget, `budgets[p]` cycles > 0),
    whatever the threads. Searched games are handed to the threads one at a time. Returns per game: winner
    (-1 a draw), reason, final turn, decisions, decisions per seat (n, 2) and, when a seat searches, the
    cycle-counter ticks of each seat's decisions (n, 2; zeros otherwise).
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
        wi, wf = new_scratch(n_actions)
        for game in range(block * block_games, min(n_games, (block + 1) * block_games)):
            seed_rng(rng, seed, first_game + game)
            n = deal(row, tab, rng, out)
            count = 0
            while row[PHASE] != PH_OVER and n > 0:
                actor = current_player(row)
                start = cycles() if searching else 0
                if kinds[actor] == KIND_RANDOM:
                    action = out[below(rng, n)]
                elif kinds[actor] == KIND_HEURISTIC:
                    action = policy_action(row, tab, out, n, POLICY_HEURISTIC, epsilons[actor], rng, wi, wf)
                else:
                    deadline = start + budgets[actor] if budgets[actor] > 0 else 0
                    action = _search(row, tab, iterations[actor], deadline, cs[actor], rollouts[actor], depths[actor],
                                     True, rng, *tree, wi, wf)  # fmt: skip
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
    """`play_batch_agents` for a `Dreadnought` game (its cards, decks, patches and rule options) and two agent
    specs: games `first` .. `first + n_games - 1` of the stream `seed`."""
    return play_table_agents(cpu.game_table(game), spec_p1, spec_p2, n_games, seed, first)


def play_table_agents(table: Row, spec_p1: str, spec_p2: str, n_games: int, seed: int, first: int = 0) -> AgentBatch:
    """`play_agents` on a game's kernel table (`cpu.game_table`); a CardlabError if a game outgrew the row."""
    seats = (kernel_agent(spec_p1), kernel_agent(spec_p2))
    batch = play_seats(play_batch_agents, (table,), seats, TIME_CAPACITY, n_games, seed, first)
    cpu.check_overflow(batch.reason)
    return batch


flush_stale_cache(sys.modules[__name__])  # the search inlines the rules of `cpu` and its heuristic
