"""Which engine plays a batch of games: the reference engine, or one of the game's compiled kernels.

A game declares its kernels (`Game.kernels()`, e.g. `cpu` and `gpu`); their sameness with the
reference engine is proven in the test suite. A kernel deals from its own random streams, so a
game is not the reference's game of the same seed, but a batch's deals are shared by both seat
orders (common random numbers), as in the reference lab. Kernel games are stored without their
action lists.

A long run is played in pieces of about `PIECE_SECONDS` (`kernel_run`): game i depends on its seed
and index only, so the pieces hold exactly the games of one call, while progress comes piece by
piece and Ctrl-C stops the run after the piece in flight (`cardlab.sim.interrupt`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cardlab.core.errors import CardlabError
from cardlab.core.plugin import KernelGame, KernelRun, Kernels
from cardlab.games import game_class, game_names

ENGINES = ("reference", "cpu", "gpu")

__all__ = ["ENGINES", "KernelGame", "KernelRun", "check_engine", "kernel_games", "kernel_run"]


def _has_engine(game: str, engine: str) -> bool:
    kernels = game_class(game).kernels()
    return kernels is not None and engine in kernels.engines


def _kernels(game: str, engine: str) -> Kernels:
    kernels = game_class(game).kernels()
    if kernels is None or engine not in kernels.engines:
        playing = [name for name in game_names() if _has_engine(name, engine)]
        raise CardlabError(f"the {engine} engine plays {', '.join(playing) or 'no game'} only, not {game}")
    return kernels


def check_engine(engine: str, game: str, agents: Sequence[str], *, warm: bool = True) -> None:
    """A clear error when `engine` cannot play this request; with `warm`, the kernel is then compiled or
    loaded from its cache (see `compiled`), so that the run waits for nothing."""
    if engine not in ENGINES:
        raise CardlabError(f"unknown engine {engine!r}; one of {list(ENGINES)}")
    if engine != "reference":
        kernels = _kernels(game, engine)
        kernels.check(engine, agents)
        if warm:
            kernels.warm(engine, agents)


def compiled(engine: str, game: str, agents: Sequence[str]) -> bool | None:
    """Whether `engine`'s kernel for these agents is compiled on this machine already (the reference
    engine needs nothing); False: `check_engine` will compile it, which can take a minute."""
    if engine == "reference":
        return True
    return _kernels(game, engine).compiled(engine, agents)


PIECE_SECONDS = 1.0
"""About how long one piece of a kernel run takes: progress comes and Ctrl-C acts this often, and the
threads' wait for a piece's last game (a game under search takes up to a tenth of a second) costs
about a hundredth of the run."""

GAMES_PER_THREAD = 4
"""The fewest games a piece gives each kernel thread. The threads wait for a piece's last game; with one
game each (a TCG game with both seats searching takes over a second) a thread sat idle for the
difference between two games. Handed out one at a time, four games each make that wait a small part of
a piece (a search-against-search run on two cores: 173% -> 183% CPU, 7% less time); Ctrl-C then waits
a few seconds."""

FIRST_PIECE = 16
"""Games in a run's first piece, before anything is known of their cost: under the search a fraction
of a second, so that the progress has a rate and an ETA at once."""


def piece_sizes(fixed: int | None) -> Callable[[float], int]:
    """The next piece's size from the games played so far per second (0 before the first piece); `fixed`:
    the kernel's own size (`Kernels.piece`: JAX compiles once per batch size). Otherwise a multiple of the
    kernel's threads and at least `GAMES_PER_THREAD` games each: a piece of one slow game (a TCG game
    with both seats searching takes over a second) would keep all but one thread idle."""
    if fixed is not None:
        return lambda rate: fixed
    threads = kernel_threads()
    last = [0]

    def size(rate: float) -> int:
        if not rate:
            last[0] = FIRST_PIECE
        else:  # grows at most 16-fold a piece: a first piece's rate is a rough one
            games = max(GAMES_PER_THREAD * threads, min(16 * last[0], round(rate * PIECE_SECONDS)))
            last[0] = -(-games // threads) * threads
        return last[0]

    return size


def kernel_threads() -> int:
    """The threads a numba kernel plays its games on (NUMBA_NUM_THREADS, all cores by default); 1 without numba."""
    try:
        import numba
    except ImportError:
        return 1
    return int(numba.get_num_threads())


class Heard:
    """An `advance` for `kernel_run` that counts what it heard: `rest(games)` then reports what a kernel
    did not (a test's fake kernel reports nothing), so the progress ends at its total either way."""

    def __init__(self, advance: Callable[[int], None] | None) -> None:
        self.advance, self.games = advance, 0

    def __call__(self, games: int) -> None:
        self.games += games
        if self.advance is not None:
            self.advance(games)

    def rest(self, games: int) -> None:
        if games > self.games:
            self(games - self.games)


def kernel_run(
    game: str,
    config: Mapping[str, Any],
    agents: tuple[str, str],
    games: int,
    seed: int,
    engine: str = "cpu",
    *,
    first: int = 0,
    advance: Callable[[int], None] | None = None,
) -> KernelRun:
    """Games `first` .. `first + games - 1` of one config with `agents[0]` as P1 (game i dealt from
    (seed, i)), and each agent's mean decision time.

    Played in pieces (`PIECE_SECONDS`), `advance` hearing of each piece's games as it finishes. A
    Ctrl-C during the run ends it after the piece in flight with `Interrupted`, whose `finished` is the
    `KernelRun` of the games played (its first game is `first`), for the caller to store.
    """
    from cardlab.sim.interrupt import Interrupted, held

    kernels = _kernels(game, engine)
    if games <= 0:
        return kernels.run(config, agents, 0, seed, engine, first)
    kernels.warm(engine, agents)  # a compile (minutes, the first time) outside the hold: Ctrl-C can end it
    pieces: list[KernelRun] = []
    done = 0
    size = piece_sizes(kernels.piece(engine))
    start = time.perf_counter()
    with held() as hold:
        while done < games:
            rate = done / max(time.perf_counter() - start, 1e-9) if done else 0.0
            count = min(games - done, size(rate))
            pieces.append(kernels.run(config, agents, count, seed, engine, first + done))
            done += count
            if advance is not None:
                advance(count)
            if hold.requested:
                raise Interrupted(KernelRun.joined(pieces))
    return KernelRun.joined(pieces)


def kernel_games(
    game: str, config: Mapping[str, Any], agents: tuple[str, str], games: int, seed: int, engine: str = "cpu"
) -> list[KernelGame]:
    """`games` kernel games of one config with `agents[0]` as P1; game i's deal comes from (seed, i)."""
    return kernel_run(game, config, agents, games, seed, engine).games
