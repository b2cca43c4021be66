"""What every game's compiled search shares, so that no game copies another's: the cycle clock that
times decisions inside numba code, UCB's logarithm table, the batch result, and the guard that keeps
numba's cache from replaying machine code compiled against older rules.
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
