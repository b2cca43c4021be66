"""What every game's compiled search shares, so that no game copies another's: the cycle clock that
times decisions inside numba code, UCB's logarithm table, the re-deal of a determinization, the early
stop, the tree's buffers, the `ismcts:...:backend=cpu` spec's values, the batch result, and the guard
that keeps numba's cache from replaying machine code compiled against older rules.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Sequence
from dataclasses import dataclass
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

from cardlab.core.specs import AgentSpecError
from cardlab.fast.rng import below


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


class Tree:
    """Reusable search buffers for one thread of decisions: a tree of `capacity` nodes kept as sibling lists
    (a node costs a few words whatever the action space), and the scratch of one iteration."""

    def __init__(self, capacity: int, n_actions: int, row_size: int, n_instances: int, max_depth: int) -> None:
        self.first_child = np.empty(capacity, dtype=np.int64)
        self.sibling = np.empty(capacity, dtype=np.int64)
        self.move = np.empty(capacity, dtype=np.int64)
        self.visits = np.zeros(capacity, dtype=np.int64)
        self.reward = np.zeros(capacity, dtype=np.float64)
        self.avail = np.zeros(capacity, dtype=np.int64)
        self.owner = np.zeros(capacity, dtype=np.int64)
        self.row = np.zeros(row_size, dtype=np.int64)
        self.out = np.zeros(n_actions, dtype=np.int64)
        self.root_out = np.zeros(n_actions, dtype=np.int64)
        self.slot = np.full(n_actions, -1, dtype=np.int64)
        self.path = np.zeros(max_depth, dtype=np.int64)
        self.slots = np.zeros(2 * n_instances, dtype=np.int64)
        self.pool = np.zeros(2 * n_instances, dtype=np.int64)
        self.mark = np.zeros(n_instances, dtype=np.int64)
        self.log_table = ucb_log_table(capacity)

    def fits(self, capacity: int, n_actions: int) -> bool:
        return self.visits.shape[0] >= capacity and self.out.shape[0] >= n_actions

    def buffers(self) -> tuple[np.ndarray, ...]:
        """A game's `_search` tree and scratch arguments, in its order."""
        tree = (self.first_child, self.sibling, self.move, self.visits, self.reward, self.avail, self.owner)
        scratch = (self.row, self.out, self.root_out, self.slot, self.path, self.slots, self.pool, self.mark)
        return (*tree, *scratch, self.log_table)


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


def flush_stale_cache(module: ModuleType, inlined: Sequence[ModuleType]) -> None:
    """Flush `module`'s numba cache when the source of what it inlines has changed since it was compiled.

    numba keys a cached function on its own file only, but a search inlines its game's rules, and every
    kernel the modules of `cardlab.fast`: machine code cached before those files changed would play the
    old rules. A stamp beside the cache names the digest it was compiled against; another digest flushes
    every cached function of `module`, compiled again on first use."""
    own = [value for value in vars(module).values()
           if isinstance(value, CPUDispatcher) and value.py_func.__module__ == module.__name__]  # fmt: skip
    if not own or own[0]._cache is None:
        return
    shared = sorted(Path(__file__).parent.glob("*.py"))  # this package: its pieces are inlined everywhere
    files = [*(Path(str(source.__file__)) for source in inlined), *shared]
    sources = b"".join(path.read_bytes() for path in files)
    digest = hashlib.sha256(sources).hexdigest()[:16]
    folder = Path(own[0]._cache.cache_path)
    stem = Path(str(module.__file__)).stem
    stamp = folder / f"{stem}.rules-{digest}"
    if stamp.exists():
        return
    for dispatcher in own:
        dispatcher._cache.flush()
    try:
        for old in folder.glob(f"{stem}.rules-*"):
            old.unlink()
        stamp.touch()
    except OSError:  # a read-only cache: flushed again next time, never stale
        pass
