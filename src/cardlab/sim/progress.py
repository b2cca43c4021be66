"""Progress as plain lines, where the output is not a terminal (a log, a pipe), and the rate both it and the
CLI's progress bar show."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager


def games_per_second(rate: float) -> str:
    """'1,234 games/s', or with two significant digits below 10 (searches: '0.17 games/s', not '0')."""
    return f"{rate:,.0f} games/s" if rate >= 10 else f"{rate:.2g} games/s"


@contextmanager
def plain_progress(label: str, total: int, write: Callable[[str], None]) -> Iterator[Callable[[int], None]]:
    """Progress as plain lines, for output that is not a terminal (a log, a pipe): one at the first batch back,
    then every 10 s and at the end, each with the rate and ETA since the first batch (which leaves out the
    start: workers, Ray)."""
    start = last = time.perf_counter()
    done = 0
    since: tuple[float, int] = (start, 0)

    def report() -> None:
        now = time.perf_counter()
        elapsed, games = (now - since[0], done - since[1]) if done > since[1] else (now - start, done)
        rate = games / elapsed if elapsed > 0 else 0.0
        eta = f", ETA {(total - done) / rate:,.0f} s" if rate and done < total else ""
        write(f"{label}: {done:,}/{total:,} games, {games_per_second(rate)}{eta}")

    def advance(games: int) -> None:
        nonlocal done, last, since
        first = not done
        done += games
        if first and done < total:
            report()
            since = (time.perf_counter(), done)
            last = since[0]
        elif time.perf_counter() - last >= 10.0:
            last = time.perf_counter()
            report()

    yield advance
    if total:
        report()
