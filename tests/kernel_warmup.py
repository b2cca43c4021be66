"""Compile every game's numba kernels once, before the suite's workers start (issue #50, item 2).

numba caches machine code beside each kernel's source, but a kernel is compiled by the first process that
needs it: under pytest-xdist, two workers that both reach the Dreadnought heuristic compile it twice at
the same time (about 170 s each on a fresh clone), and every later worker loads it. Warming the kernels
first, one process per game, all at once (a game's batch kernels share their rules, so one process compiles
them once), keeps every core busy compiling something different; the workers then load every kernel from
the cache.

The warm-up asks each game through the registry (`Game.kernels()`, `check_engine(..., warm=True)`), so a
new game's kernels are warmed with no change here. It runs for a whole-suite run only (no test paths
named): a run of one file compiles only what that file needs, as before.
"""

from __future__ import annotations

import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The checkout, on the warm-up processes' path for `tests.compile_log`."""

AGENT_SETS = (("random", "random"), ("heuristic", "heuristic"), ("ismcts:iterations=2:backend=cpu", "random"))
"""The kernels a table can run: random play, the compiled heuristic, the compiled search (which inlines the
heuristic's rollouts, so it comes last and finds the heuristic compiled)."""

_WARM_ONE_GAME = """
import sys
from cardlab.core.errors import CardlabError
from cardlab.sim.engines import check_engine
game = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from tests.compile_log import listen
listen("(warm-up " + game + ")")
for agents in {agent_sets!r}:
    try:
        check_engine("cpu", game, agents, warm=True)
    except CardlabError:
        pass  # this game's kernel does not play these agents: nothing to compile
"""


def kernel_games() -> list[str]:
    """The registered games with a numba (`cpu`) kernel."""
    from cardlab.games import game_class, game_names

    return [name for name in game_names() if (k := game_class(name).kernels()) is not None and "cpu" in k.engines]


def warm_kernels() -> tuple[float, list[str]]:
    """Compile (or load) every game's cpu kernels, one process per game, all at once (whichever game takes
    longest, the cores stay busy); the seconds it took and the games whose warm-up failed (their tests then
    compile as before)."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return 0.0, []
    start = time.perf_counter()
    script = _WARM_ONE_GAME.format(agent_sets=AGENT_SETS)

    def warm(game: str) -> str | None:
        done = subprocess.run(
            [sys.executable, "-c", script, game, str(ROOT)], capture_output=True, text=True, check=False
        )
        return None if done.returncode == 0 else f"{game}: {done.stderr.strip().splitlines()[-1:]}"

    games = kernel_games()
    with ThreadPoolExecutor(max_workers=max(1, len(games))) as pool:
        failed = [problem for problem in pool.map(warm, games) if problem is not None]
    return time.perf_counter() - start, failed
