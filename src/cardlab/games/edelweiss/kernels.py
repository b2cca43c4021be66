"""Edelweiss's compiled engines (extra `fast`), as the lab and the agents see them.

`cpu` is the numba kernel (`cardlab.games.edelweiss.fast.cpu`), `gpu` the JAX kernel
(`cardlab.games.edelweiss.fast.gpu`, on a GPU when JAX sees one, else on the CPU); both play the
`random` and `heuristic` policies compiled in, and their sameness with the reference engine is
proven in the test suite. The cpu kernel also plays the compiled information-set search,
`ismcts:...:backend=cpu` (`cardlab.games.edelweiss.fast.search`), and the heuristic with an epsilon.
Kernels deal from their own random streams, so a game is not the reference's game of the same
seed, but a batch's deals are shared by both seat orders (common random numbers).

Rule options (`variants.RULE_OPTIONS`) travel in the config: `EdelweissConfig.from_json` keeps its
`rules`, the kernels' `play_config` / `play_batch` / `play_agents` deal and play under them, and the
compiled search loads its worlds' positions, whose config carries them. A drawn game (rule
deck_out_tie=draw) comes back as winner -1 with reason deck_out, as `KernelRun` documents.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from functools import cache
from importlib import import_module
from typing import Any

import numpy as np

from cardlab.core.errors import CardlabError
from cardlab.core.extras import needs_extra
from cardlab.core.plugin import KernelRun
from cardlab.core.specs import AgentSpecError, split_spec
from cardlab.games.edelweiss.config import EdelweissConfig

_MODULES = {"cpu": "cardlab.games.edelweiss.fast.cpu", "gpu": "cardlab.games.edelweiss.fast.gpu"}
POLICIES = ("random", "heuristic")
SEARCH_SPEC = "ismcts:...:backend=cpu"
EPSILON_SPEC = "heuristic:epsilon=E"


def is_kernel_search(spec: str) -> bool:
    """Whether `spec` is the compiled search (`ismcts:...:backend=cpu`)."""
    try:
        name, params = split_spec(spec)
    except AgentSpecError:
        return False
    return name == "ismcts" and params.get("backend") == "cpu"


def is_agent_batch_spec(spec: str) -> bool:
    """Whether the cpu kernel's agent batch plays `spec`: the search, or the heuristic with an epsilon."""
    try:
        name, params = split_spec(spec)
    except AgentSpecError:
        return False
    return is_kernel_search(spec) or (name == "heuristic" and set(params) <= {"epsilon"})


class EdelweissKernels:
    engines = ("cpu", "gpu")

    def check(self, engine: str, agents: Sequence[str]) -> None:
        for agent in agents:
            if agent in POLICIES or (engine == "cpu" and is_agent_batch_spec(agent)):
                continue
            playable = [*POLICIES, EPSILON_SPEC, SEARCH_SPEC] if engine == "cpu" else list(POLICIES)
            raise CardlabError(f"the {engine} engine plays the agents {playable}, not {agent!r}")
        try:
            import_module(_MODULES[engine])
        except ImportError:
            raise CardlabError(needs_extra(f"the {engine} engine", "fast")) from None

    def piece(self, engine: str) -> int | None:
        """The JAX kernel compiles once per batch size (seconds), so it always plays `_gpu_piece()` games
        (fewer are padded): one size, compiled by `warm`. The numba kernel plays any number."""
        return _gpu_piece() if engine == "gpu" else None

    def warm(self, engine: str, agents: Sequence[str]) -> None:
        """Compile the kernel these agents need, or load it from numba's cache: once per process, before
        any clock runs (and outside a held Ctrl-C: a compile can take a minute). JAX compiles per policy
        pair, so both seat orders are compiled."""
        if engine == "gpu":
            p1, p2 = (agents[0], agents[-1]) if agents else ("random", "heuristic")  # a table: one agent, both seats
            for pair in dict.fromkeys(((p1, p2), (p2, p1))):
                _warm_gpu(*pair)
            return
        _warm(engine, engine == "cpu" and any(spec not in POLICIES for spec in agents))

    def compiled(self, engine: str, agents: Sequence[str]) -> bool | None:
        """Whether the kernel these agents need is compiled on this machine already: numba keeps it in its
        cache (beside the module, or in NUMBA_CACHE_DIR) after the first run; JAX compiles in every process.
        None when it cannot tell."""
        if engine != "cpu":
            return False
        try:
            if any(spec not in POLICIES for spec in agents):
                from cardlab.games.edelweiss.fast.search import play_batch_agents as kernel
            else:
                from cardlab.games.edelweiss.fast.cpu import play_batch as kernel
            from numba.core.types import Omitted

            index = kernel._cache._cache_file._load_index()  # numba's cached signatures of the current source
            # the lab passes every argument (a test may leave some to their defaults: another signature)
            return any(not any(isinstance(arg, Omitted) for arg in key[0]) for key in index)
        except Exception:  # another numba, or no fast extra: unknown
            return None

    def run(
        self, config: Mapping[str, Any], agents: tuple[str, str], games: int, seed: int, engine: str, first: int = 0
    ) -> KernelRun:
        """Games `first` .. `first + games - 1` of the stream `seed`, with each agent's mean decision time.

        Game i's deal and play depend on (seed, first + i) only, so a run played in pieces holds the
        games of one call (`cardlab.sim.engines.kernel_run` plays long runs so, for progress and Ctrl-C).

        When a seat searches, every decision is timed inside the kernel; batches of the compiled
        policies alone are not (a clock read would cost as much as a decision), so their figure is
        the batch's thread time per decision. The config's rule options reach the kernel with it.
        """
        from cardlab.games.edelweiss.fast.cpu import REASON_NAMES

        edelweiss = EdelweissConfig.from_json(config)
        searching = engine == "cpu" and any(is_kernel_search(spec) for spec in agents)
        agent_batch = engine == "cpu" and any(spec not in POLICIES for spec in agents)
        if engine == "gpu":  # compiling (or loading the cache) is not a decision's cost
            _warm_gpu(agents[0], agents[1])
        else:
            _warm(engine, agent_batch)
        start = time.perf_counter()
        if agent_batch:  # the search or an epsilon seat: the kernel's agent batch
            import numba

            from cardlab.games.edelweiss.fast.search import play_agents

            # Games handed out one at a time (results never depend on it): a piece's last games do
            # not wait for one thread's share, however long its searches run.
            with numba.parallel_chunksize(1) if searching else nullcontext():
                result = play_agents(edelweiss, agents[0], agents[1], games, seed % 2**62, first)
            winner, reason, turns, decisions = result.winner, result.reason, result.turns, result.decisions
            per_seat, timed_ms = result.seat_decisions, result.decision_ms_total
            threads = 1 if searching else _threads(engine, games)
        else:  # the compiled policies alone: the kernel's own batch, its fastest path
            module = import_module(_MODULES[engine])
            play = module.play_config if engine == "cpu" else module.play_batch
            size = max(games, _gpu_piece()) if engine == "gpu" else games  # one batch size: one JAX compile
            played = play(edelweiss, agents[0], agents[1], size, seed % 2**62, first)
            winner, reason, turns, decisions = (column[:games] for column in played)
            total = int(decisions.sum())
            per_seat, timed_ms, threads = (total // 2, total - total // 2), (0.0, 0.0), _threads(engine, games)
        elapsed_ms = (time.perf_counter() - start) * 1000.0
        ms = _decision_ms(elapsed_ms * threads, per_seat, timed_ms, searching)
        columns = (np.asarray(column, dtype=np.int64) for column in (winner, reason, turns, decisions))
        winners, reasons, turn_counts, decision_counts = columns
        return KernelRun(winners, reasons, REASON_NAMES, turn_counts, decision_counts, ms, per_seat)


@cache
def _warm(engine: str, agent_batch: bool) -> None:
    """Compile (or load from numba's cache) the kernel a batch will run, once per process."""
    config = EdelweissConfig("full")
    if agent_batch:
        from cardlab.games.edelweiss.fast.search import play_agents

        play_agents(config, "ismcts:iterations=2:backend=cpu", "random", 1, 0, 0)
    elif engine == "cpu":
        import_module(_MODULES[engine]).play_config(config, "random", "heuristic", 1, 0, 0)
    else:
        _warm_gpu("random", "heuristic")


@cache
def _warm_gpu(policy_p1: str, policy_p2: str) -> None:
    """Compile the JAX kernel for a policy pair at its one batch size (`_gpu_piece`), once per process."""
    import_module(_MODULES["gpu"]).play_batch(EdelweissConfig("full"), policy_p1, policy_p2, _gpu_piece(), 0, 0)


@cache
def _gpu_piece() -> int:
    """Games per JAX call: a GPU needs tens of thousands to be busy; JAX on the CPU plays about a thousand
    a second, so a thousand there keeps Ctrl-C and the progress within a second or two."""
    import jax

    return 1024 if jax.default_backend() == "cpu" else 65536


def _threads(engine: str, games: int) -> int:
    """Threads a kernel batch of `games` keeps busy (the JAX kernel counts as one)."""
    if engine != "cpu":
        return 1
    import numba

    from cardlab.games.edelweiss.fast.cpu import _BLOCK_GAMES

    return max(1, min(numba.get_num_threads(), -(-games // _BLOCK_GAMES)))


def _decision_ms(
    thread_ms: float, per_seat: tuple[int, int], timed_ms: tuple[float, float], searching: bool
) -> tuple[float, float]:
    """Mean ms per decision per seat: measured one by one when a seat searches, else the batch's
    thread time shared by its decisions (the compiled policies cost about the same)."""
    if searching:
        p1, p2 = (timed_ms[seat] / per_seat[seat] if per_seat[seat] else 0.0 for seat in (0, 1))
        return p1, p2
    total = sum(per_seat)
    mean = thread_ms / total if total else 0.0
    return mean, mean
