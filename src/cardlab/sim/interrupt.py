"""Ctrl-C during a long run: stop within a second or two, keep what finished, say one line.

A compiled kernel (numba, JAX) cannot be interrupted from Python: the signal waits until the call
returns, and numba then meets the pending KeyboardInterrupt while it boxes the call's results
(`_numba_unpickle ... SystemError`, a 40-line traceback). So the lab plays a kernel run in pieces of
about a second (`cardlab.sim.engines.kernel_run`) inside `held()`: a Ctrl-C there is only noted, the
piece in flight finishes, and the run stops between pieces with `Interrupted`, which carries the games
that finished so that the caller can store them. Reference games in worker processes (or on Ray) are
waited for inside a hold too, a tenth of a second at a time (`wait_for`), so that the interrupt comes
between two results and none is lost half-stored; the workers ignore SIGINT (it reaches the whole
process group) and the parent ends them at once.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


class Interrupted(KeyboardInterrupt):
    """Ctrl-C, raised where a run could stop cleanly; `finished` holds what it played before (or None)."""

    def __init__(self, finished: Any = None) -> None:
        super().__init__()
        self.finished = finished


@dataclass
class Hold:
    """Whether a Ctrl-C came while held."""

    requested: bool = False


_held: list[Hold] = []


@contextmanager
def held() -> Iterator[Hold]:
    """Run a block with Ctrl-C (SIGINT) noted in the yielded `Hold` instead of raised inside it; the block
    checks `requested` where it can stop. Nested holds share one note. Outside the main thread, or where
    SIGINT is ignored (a worker process), nothing changes."""
    if _held:
        yield _held[-1]
        return
    hold = Hold()
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or previous in (signal.SIG_IGN, None):
        yield hold
        return

    def note(signum: int, frame: object) -> None:
        hold.requested = True

    signal.signal(signal.SIGINT, note)
    _held.append(hold)
    try:
        yield hold
    finally:
        _held.pop()
        signal.signal(signal.SIGINT, previous)


def requested() -> bool:
    """Whether a Ctrl-C came during the current hold (False outside one)."""
    return bool(_held) and _held[-1].requested


def wait_for(result: Callable[[float], T], timeout_error: type[BaseException]) -> T:
    """`result(timeout)` (a future's or a Ray reference's) polled a tenth of a second at a time, so that a
    Ctrl-C noted by the hold meanwhile stops the wait with `Interrupted`: between two results, never
    inside one, so that every result handed on was handed on whole."""
    while True:
        if requested():  # before each wait: results that come quickly never time out
            raise Interrupted()
        with suppress(timeout_error):
            return result(0.1)


def ignore_in_worker() -> None:
    """For a worker process: Ctrl-C at the terminal reaches the whole process group, and the parent
    decides (it keeps what finished and ends the workers); a worker's own KeyboardInterrupt would only
    print its traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def ended_at_once(line: str, fd: int) -> Iterator[None]:
    """Ctrl-C during a block that keeps nothing and cannot stop between steps (compiling a kernel): `line`
    written to `fd` and exit status 130 at once. A KeyboardInterrupt is not enough there: numba compiles
    through objects whose finalizers run in between, and an exception raised in a finalizer is printed and
    lost. Outside the main thread, or where SIGINT is someone else's, nothing changes."""
    import os
    import sys

    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or previous is not signal.default_int_handler:
        yield
        return

    def end(signum: int, frame: object) -> None:
        # Straight to the file descriptor: the signal may have come in the middle of a print, whose buffers
        # (rich's, io's) are not reentrant (rich would print its line again).
        for stream in (sys.stdout, sys.stderr):
            with suppress(Exception):  # interrupted inside a write of its own: what it held is lost
                stream.flush()
        os.write(fd, line.encode())
        os._exit(130)

    signal.signal(signal.SIGINT, end)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
