"""What every game's compiled search shares, so that no game copies another's: the cycle clock that
times decisions inside numba code, UCB's logarithm table, the re-deal of a determinization, the early
stop, the steps of an ISMCTS iteration on a sibling-list tree (`descend`, `back_up`, `most_visited`),
the tree's buffers, the `ismcts:...:backend=cpu` spec's values, the batch result, and the guard
that keeps numba's cache from replaying machine code compiled against older rules.
"""

from __future__ import annotations

import hashlib
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.core.registry import CPUDispatcher
from numba.extending import intrinsic

from cardlab.core.sources import imported_sources
from cardlab.core.specs import AgentSpecError, split_spec
from cardlab.fast.rng import below

_CARDLAB = Path(__file__).resolve().parents[1]
"""cardlab's folder: the imports of a compiled module that `flush_stale_cache` follows lie in it."""


@intrinsic
def cycles(typingctx: Any) -> Any:
    """The CPU's cycle counter (`llvm.readcyclecounter`): a clock cheap enough to read per decision."""

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.IntType(64), []), "llvm.readcyclecounter"
        )
        return builder.call(fn, [])

    return types.int64(), codegen


@njit(cache=True)
def read_cycles() -> int:
    return cycles()


@cache
def cycles_per_ms() -> float:
    """Cycle-counter ticks per millisecond, measured once against the wall clock."""
    read_cycles()  # compile first
    start_wall, start = time.perf_counter(), read_cycles()
    while time.perf_counter() - start_wall < 0.05:
        pass
    ticks = read_cycles() - start
    return max(1.0, ticks / ((time.perf_counter() - start_wall) * 1000.0))


@njit(cache=True)
def ucb_log_table(capacity: int) -> np.ndarray:
    """log(n) for n <= capacity (log(0) is never read): UCB's logarithm as one load."""
    table = np.zeros(capacity + 1, dtype=np.float64)
    for n in range(1, capacity + 1):
        table[n] = np.log(n)
    return table


@njit(cache=True)
def redeal(row: np.ndarray, slots: np.ndarray, n: int, rng: np.ndarray, pool: np.ndarray, mark: np.ndarray,
           mask: int) -> None:  # fmt: skip
    """Shuffle the instances at row[slots[:n]] among those slots, starting from their ascending order (so the
    result depends on which instances the slots hold, never on where each one was).

    A slot holds an instance in its bits `mask` (a power of two less one) above flags that stay with the slot;
    `mark` (zeros, one entry per instance) is left as found."""
    for i in range(n):
        mark[row[slots[i]] & mask] = 1
    count = 0
    for inst in range(mark.shape[0]):
        if mark[inst]:
            pool[count] = inst
            count += 1
            mark[inst] = 0
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    for i in range(n):
        value = row[slots[i]]
        row[slots[i]] = value - (value & mask) + pool[i]


@njit(cache=True)
def decided(first_child: np.ndarray, sibling: np.ndarray, visits: np.ndarray, remaining: int) -> bool:
    """Whether the most visited root move leads by more than the iterations left: then no later
    iteration can change the choice, and stopping early returns exactly the full search's move."""
    first, second = 0, 0
    node = first_child[0]
    while node >= 0:
        count = visits[node]
        if count > first:
            first, second = count, first
        elif count > second:
            second = count
        node = sibling[node]
    return first - second > remaining


@njit(cache=True)
def more_iterations(done: int, iterations: int, deadline: int, n_nodes: int, stop_early: bool,
                    first_child: np.ndarray, sibling: np.ndarray, visits: np.ndarray) -> bool:  # fmt: skip
    """Whether a search's next iteration runs: not after `iterations` (0: no limit), past `deadline` (a
    cycle-counter time; 0: none) or once the tree is full, nor, with `stop_early`, once the choice is
    `decided` (checked every 16 iterations)."""
    if (iterations > 0 and done >= iterations) or n_nodes >= visits.shape[0]:
        return False
    if deadline > 0 and cycles() >= deadline:
        return False
    return not (
        stop_early and iterations > 0 and done > 0 and (done & 15) == 0
        and decided(first_child, sibling, visits, iterations - done)
    )  # fmt: skip


@njit(cache=True)
def descend(
    first_child: np.ndarray,
    sibling: np.ndarray,
    move: np.ndarray,
    visits: np.ndarray,
    reward: np.ndarray,
    avail: np.ndarray,
    owner: np.ndarray,
    slot: np.ndarray,
    node: int,
    n_nodes: int,
    out: np.ndarray,
    n: int,
    actor: int,
    c: float,
    log_table: np.ndarray,
    rng: np.ndarray,
) -> tuple[int, int, int, bool]:
    """One step of an ISMCTS selection at `node` of a sibling-list tree, among the `n` legal actions in
    `out` of this iteration's world (their availability counts go up): an untried action at random, added
    as a child of `actor`'s, or else the child of highest UCB. Returns (action, its child, the new node
    count, whether the child was just added: the selection ends there). `slot` (one per action id, all
    -1) maps the node's children while it is visited and is left as found."""
    below_node = first_child[node]
    while below_node >= 0:
        slot[move[below_node]] = below_node
        below_node = sibling[below_node]
    untried = 0
    for i in range(n):
        below_node = slot[out[i]]
        if below_node < 0:
            untried += 1
        else:
            avail[below_node] += 1
    chosen, chosen_node = -1, -1
    if untried > 0:
        pick = below(rng, untried)
        for i in range(n):
            if slot[out[i]] < 0:
                if pick == 0:
                    chosen = out[i]
                    break
                pick -= 1
    else:
        logs = log_table.shape[0]
        best_value = -np.inf
        for i in range(n):
            below_node = slot[out[i]]
            count = avail[below_node]
            log = log_table[count] if count < logs else np.log(count)
            value = reward[below_node] / visits[below_node] + c * np.sqrt(log / visits[below_node])
            if value > best_value:
                chosen, chosen_node, best_value = out[i], below_node, value
    below_node = first_child[node]
    while below_node >= 0:
        slot[move[below_node]] = -1
        below_node = sibling[below_node]
    if chosen_node < 0:  # expand one untried move
        chosen_node = n_nodes
        n_nodes += 1
        first_child[chosen_node] = -1
        sibling[chosen_node] = first_child[node]
        first_child[node] = chosen_node
        move[chosen_node] = chosen
        visits[chosen_node] = 0
        reward[chosen_node] = 0.0
        avail[chosen_node] = 1
        owner[chosen_node] = actor
    return chosen, chosen_node, n_nodes, untried > 0


@njit(cache=True)
def back_up(visits: np.ndarray, reward: np.ndarray, owner: np.ndarray, path: np.ndarray, depth: int,
            first_value: float) -> None:  # fmt: skip
    """One iteration's result for the first player (1 a win, 0 a loss, a draw half) credited along its
    `path` to the player who made each move."""
    visits[0] += 1
    for i in range(depth):
        visited = path[i]
        visits[visited] += 1
        reward[visited] += first_value if owner[visited] == 0 else 1.0 - first_value


@njit(cache=True)
def most_visited(first_child: np.ndarray, sibling: np.ndarray, move: np.ndarray, visits: np.ndarray,
                 root_out: np.ndarray, n_root: int) -> int:  # fmt: skip
    """The search's choice: the most visited of the root's `n_root` legal moves (ties: the first legal one)."""
    best, most = root_out[0], -1
    for i in range(n_root):
        below_node = first_child[0]
        while below_node >= 0 and move[below_node] != root_out[i]:
            below_node = sibling[below_node]
        if below_node >= 0 and visits[below_node] > most:
            best, most = root_out[i], visits[below_node]
    return best


@njit(cache=True)
def thread_buffers(capacity: int, n_actions: int, row_size: int, n_instances: int,
                   max_depth: int) -> tuple[np.ndarray, ...]:  # fmt: skip
    """One thread's search buffers, in the order of a game's `_search` arguments: a tree of `capacity` nodes
    kept as sibling lists (a node costs a few words whatever the action space), the scratch of one
    iteration and UCB's logarithm table."""
    return (
        np.empty(capacity, dtype=np.int64),  # first_child
        np.empty(capacity, dtype=np.int64),  # sibling
        np.empty(capacity, dtype=np.int64),  # move
        np.zeros(capacity, dtype=np.int64),  # visits
        np.zeros(capacity, dtype=np.float64),  # reward
        np.zeros(capacity, dtype=np.int64),  # avail
        np.zeros(capacity, dtype=np.int64),  # owner
        np.zeros(row_size, dtype=np.int64),  # row: the iteration's world
        np.zeros(n_actions, dtype=np.int64),  # out
        np.zeros(n_actions, dtype=np.int64),  # root_out
        np.full(n_actions, -1, dtype=np.int64),  # slot
        np.zeros(max_depth, dtype=np.int64),  # path
        np.zeros(2 * n_instances, dtype=np.int64),  # slots
        np.zeros(2 * n_instances, dtype=np.int64),  # pool
        np.zeros(n_instances, dtype=np.int64),  # mark
        ucb_log_table(capacity),
    )


class Tree:
    """Reusable search buffers for one thread of decisions (`thread_buffers`), kept between decisions."""

    def __init__(self, capacity: int, n_actions: int, row_size: int, n_instances: int, max_depth: int) -> None:
        self._buffers = thread_buffers(capacity, n_actions, row_size, n_instances, max_depth)
        self.visits, self.out = self._buffers[3], self._buffers[8]

    def fits(self, capacity: int, n_actions: int) -> bool:
        return self.visits.shape[0] >= capacity and self.out.shape[0] >= n_actions

    def buffers(self) -> tuple[np.ndarray, ...]:
        """A game's `_search` tree and scratch arguments, in its order."""
        return self._buffers


SPEC_PARAMS = ("iterations", "time", "c", "rollout", "depth", "backend")
"""The `ismcts` parameters a kernel plays (`depth` cuts python rollouts only)."""


def spec_number(spec: str, key: str, text: str, kind: type) -> Any:
    """`text` as `kind` (int or float); an AgentSpecError naming `key` otherwise."""
    try:
        return kind(text)
    except ValueError:
        word = "an integer" if kind is int else "a number"
        raise AgentSpecError(f"{spec!r}: {key} must be {word}, not {text!r}") from None


def search_values(
    spec: str,
    params: dict[str, str],
    rollouts: Sequence[str],
    default_rollout: str,
    allowed: Sequence[str] = SPEC_PARAMS,
) -> tuple[int, float, float, str, int]:
    """(iterations, seconds, c, rollout, depth) of an `ismcts:...:backend=cpu` spec's parameters (`allowed`
    names those the game's kernel takes); an AgentSpecError (a CardlabError) naming what is wrong. A time
    budget replaces the iterations (0 then); depth 0 plays rollouts to the end."""
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise AgentSpecError(f"{spec!r}: the cpu kernel's search takes {list(allowed)}, not {unknown}")
    seconds = spec_number(spec, "time", params.get("time", "0"), float)
    iterations = 0 if seconds > 0 else spec_number(spec, "iterations", params.get("iterations", "1000"), int)
    c = spec_number(spec, "c", params.get("c", "0.7"), float)
    rollout = params.get("rollout", default_rollout)
    if rollout not in rollouts:
        raise AgentSpecError(f"{spec!r}: rollout must be one of {sorted(rollouts)}, not {rollout!r}")
    if iterations < 1 and seconds <= 0:
        raise AgentSpecError(f"{spec!r}: give iterations >= 1 or time > 0")
    if not c >= 0.0:
        raise AgentSpecError(f"{spec!r}: c must be >= 0, not {c}")
    depth = spec_number(spec, "depth", params.get("depth", "0"), int)
    if depth < 0:
        raise AgentSpecError(f"{spec!r}: depth must be >= 0 (0: rollouts to the end), not {depth}")
    return iterations, seconds, c, rollout, depth


@dataclass(frozen=True)
class AgentBatch:
    """A batch of whole games played in a kernel by any mix of seats: per game, and what each seat's
    decisions cost."""

    winner: np.ndarray
    reason: np.ndarray
    turns: np.ndarray
    decisions: np.ndarray
    seat_decisions: tuple[int, int]
    decision_ms_total: tuple[float, float]
    """Milliseconds of each seat's decisions, summed over games; timed only when a seat searches."""


KIND_RANDOM, KIND_HEURISTIC, KIND_SEARCH = 0, 1, 2
"""What a kernel seat plays (`KernelAgent.kind`)."""


@dataclass(frozen=True)
class KernelAgent:
    """A seat a TCG kernel can play: random, the heuristic, or the search with its parameters."""

    kind: int
    iterations: int = 0
    c: float = 0.7
    rollout: int = 0
    depth: int = 0
    seconds: float = 0.0
    epsilon: float = 0.0


def kernel_agent(spec: str, rollouts: Mapping[str, int], default_rollout: str) -> KernelAgent:
    """The kernel seat of an agent spec, the search's rollout one of the game's `rollouts`; an AgentSpecError
    (a CardlabError) naming what is wrong."""
    name, params = split_spec(spec)
    if name == "random" and not params:
        return KernelAgent(KIND_RANDOM)
    if name == "heuristic" and set(params) <= {"epsilon"}:
        epsilon = spec_number(spec, "epsilon", params.get("epsilon", "0"), float)
        if not 0.0 <= epsilon <= 1.0:
            raise AgentSpecError(f"{spec!r}: epsilon must be between 0 and 1, not {epsilon}")
        return KernelAgent(KIND_HEURISTIC, epsilon=epsilon)
    if name == "ismcts" and params.get("backend") == "cpu":
        iterations, seconds, c, rollout, depth = search_values(spec, params, tuple(rollouts), default_rollout)
        return KernelAgent(KIND_SEARCH, iterations, c, rollouts[rollout], depth, seconds)
    raise AgentSpecError(f"the cpu kernel plays random, heuristic[:epsilon=E] and ismcts:...:backend=cpu, not {spec!r}")


def play_seats(
    batch: Callable[..., tuple[np.ndarray, ...]],
    leading: tuple[Any, ...],
    seats: tuple[KernelAgent, KernelAgent],
    capacity_floor: int,
    n_games: int,
    seed: int,
    first: int,
) -> AgentBatch:
    """Games `first` .. `first + n_games - 1` of the stream `seed` played by a game's `play_batch_agents`
    (`batch`, called with its `leading` arguments, then the seats' kinds, iterations, c, rollouts, depths,
    time budgets in cycles and epsilons, the tree capacity, the count, the seed and the first game)."""
    budgets, capacity = seat_budgets(seats, capacity_floor)
    return agent_batch(
        *batch(
            *leading,
            *seat_columns(seats, "kind", "iterations", "c", "rollout", "depth"),
            budgets,
            *seat_columns(seats, "epsilon"),
            capacity,
            n_games,
            seed % 2**62,
            first,
        )
    )


def seat_columns(seats: Sequence[Any], *names: str) -> tuple[np.ndarray, ...]:
    """The seats' values of each named field of their dataclass as a kernel argument: float64 for a field
    declared float, else int64 (one dtype per field, whatever values a seat holds, so one compiled kernel)."""
    declared = {field.name: field.type for field in fields(seats[0])}
    return tuple(
        np.array([getattr(seat, name) for seat in seats], dtype=np.float64 if declared[name] == "float" else np.int64)
        for name in names
    )


def seat_budgets(seats: Sequence[Any], capacity_floor: int) -> tuple[np.ndarray, int]:
    """Each seat's time budget in cycle-counter ticks (0: none) and the tree capacity a batch needs:
    `capacity_floor` nodes when a seat is timed, else one more than the most iterations."""
    budgets = np.array([int(s.seconds * 1000.0 * cycles_per_ms()) if s.seconds > 0 else 0 for s in seats])
    timed = any(s.seconds > 0 for s in seats)
    return budgets.astype(np.int64), capacity_floor if timed else max(2, max(s.iterations for s in seats) + 1)


def agent_batch(winner: np.ndarray, reason: np.ndarray, turns: np.ndarray, decisions: np.ndarray,
                per_seat: np.ndarray, ticks: np.ndarray) -> AgentBatch:  # fmt: skip
    """A batch kernel's per-game columns with its per-game seat decisions and ticks summed per seat."""
    per_ms = cycles_per_ms()
    totals = per_seat.sum(axis=0)
    spent = ticks.sum(axis=0)
    seat_decisions = (int(totals[0]), int(totals[1]))
    return AgentBatch(winner, reason, turns, decisions, seat_decisions, (spent[0] / per_ms, spent[1] / per_ms))


def flush_stale_cache(module: ModuleType) -> None:
    """Flush `module`'s numba cache when a source it is built from has changed since it was compiled.

    numba keys a cached function on its own file only, but freezes the globals it reads as constants (a
    table offset from `tables`, a window id from the reference `state`) and compiles its callees into it
    (the rules of `cpu`, the pieces of `cardlab.fast`): machine code cached before those files changed
    would play the old rules. The files are those the module imports when it loads, found by
    `core.sources.imported_sources` (as the stored games' fingerprint counts them), never a list kept by
    hand. A stamp beside the cache names the digest of their contents it was compiled against; another
    digest flushes every cached function of `module`, compiled again on first use. The stamp also lists
    the files with their times and sizes: while none has changed (numba's own test for a function's file),
    nothing is read or parsed again."""
    own = [value for value in vars(module).values()
           if isinstance(value, CPUDispatcher) and value.py_func.__module__ == module.__name__]  # fmt: skip
    if not own or own[0]._cache is None:
        return
    folder = Path(own[0]._cache.cache_path)
    stem = Path(str(module.__file__)).stem
    stamps = list(folder.glob(f"{stem}.rules-*"))
    if len(stamps) == 1 and _unchanged(stamps[0]):
        return
    files = imported_sources(Path(str(module.__file__)), _CARDLAB)
    digest = hashlib.sha256(b"".join(path.name.encode() + b"\0" + path.read_bytes() for path in files))
    stamp = folder / f"{stem}.rules-{digest.hexdigest()[:16]}"
    if not stamp.exists():
        for dispatcher in own:
            dispatcher._cache.flush()
    try:
        for old in stamps:
            if old != stamp:
                old.unlink()
        stamp.write_text("".join(f"{_version(path)} {path}\n" for path in files), encoding="utf-8")
    except OSError:  # a read-only cache: flushed again next time, never stale
        pass


def _version(path: Path) -> str:
    stat = path.stat()
    return f"{stat.st_mtime_ns} {stat.st_size}"


def _unchanged(stamp: Path) -> bool:
    """Whether every file a stamp lists still has the time and size it had when the stamp was written."""
    try:
        lines = stamp.read_text(encoding="utf-8").splitlines()
        return bool(lines) and all(
            _version(Path(path)) == f"{mtime} {size}" for mtime, size, path in (line.split(" ", 2) for line in lines)
        )
    except (OSError, ValueError):  # gone, unreadable, or not a list: read the sources again
        return False


flush_stale_cache(sys.modules[__name__])  # `redeal` compiles in `cardlab.fast.rng`
