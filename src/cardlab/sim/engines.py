"""Which engine plays a batch of games: the reference engine, or a compiled kernel.

The kernels (extra `fast`) play Edelweiss with the `random` and `heuristic` policies compiled
in: `cpu` is the numba kernel (`cardlab.fast.edelweiss_cpu`), `gpu` the JAX kernel
(`cardlab.fast.edelweiss_jax`, on a GPU when JAX sees one, else on the CPU); their sameness
with the reference is proven in the test suite. The cpu kernel also plays the compiled
information-set search, `ismcts:...:backend=cpu` (`cardlab.fast.edelweiss_ismcts`).
It deals from its own random streams, so a game is not the reference's game of the same seed,
but a batch's deals are shared by both seat orders (common random numbers), as in the reference
lab. Kernel games are stored without their action lists.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import Any

from cardlab.agents import AgentSpecError, parse_spec
from cardlab.core.errors import CardlabError

ENGINES = ("reference", "cpu", "gpu")
_KERNELS = {"cpu": "cardlab.fast.edelweiss_cpu", "gpu": "cardlab.fast.edelweiss_jax"}
KERNEL_POLICIES = ("random", "heuristic")
SEARCH_SPEC = "ismcts:...:backend=cpu"
EPSILON_SPEC = "heuristic:epsilon=E"


@dataclass(frozen=True)
class KernelGame:
    """One game's result from the kernel (winner 0 = P1, 1 = P2)."""

    winner: int
    reason: str
    turns: int
    decisions: int


@dataclass(frozen=True)
class KernelRun:
    """A batch of kernel games and what each agent's decisions cost."""

    games: list[KernelGame]
    decision_ms: tuple[float, float]
    """Mean wall-clock milliseconds per decision of the P1 agent and the P2 agent of this batch."""
    seat_decisions: tuple[int, int]
    """Decisions of the P1 and P2 agents (counted by the kernel when a seat searches, else half each)."""


def is_kernel_search(spec: str) -> bool:
    """Whether `spec` is the compiled search (`ismcts:...:backend=cpu`)."""
    try:
        name, params = parse_spec(spec)
    except AgentSpecError:
        return False
    return name == "ismcts" and params.get("backend") == "cpu"


def is_cpu_agent(spec: str) -> bool:
    """Whether the cpu kernel's agent batch plays `spec`: the search, or the heuristic with an epsilon."""
    try:
        name, params = parse_spec(spec)
    except AgentSpecError:
        return False
    return is_kernel_search(spec) or (name == "heuristic" and set(params) <= {"epsilon"})


def check_engine(engine: str, game: str, agents: tuple[str, ...]) -> None:
    """A clear error when the kernel cannot play this request."""
    if engine not in ENGINES:
        raise CardlabError(f"unknown engine {engine!r}; one of {list(ENGINES)}")
    if engine == "reference":
        return
    if game != "edelweiss":
        raise CardlabError(f"the {engine} engine plays edelweiss only, not {game}")
    for agent in agents:
        if agent in KERNEL_POLICIES or (engine == "cpu" and is_cpu_agent(agent)):
            continue
        playable = [*KERNEL_POLICIES, EPSILON_SPEC, SEARCH_SPEC] if engine == "cpu" else list(KERNEL_POLICIES)
        raise CardlabError(f"the {engine} engine plays the agents {playable}, not {agent!r}")
    try:
        import_module(_KERNELS[engine])
    except ImportError:
        raise CardlabError(f"the {engine} engine needs the fast extra: pip install -e '.[fast]'") from None


def kernel_games(
    config: Mapping[str, Any], agents: tuple[str, str], games: int, seed: int, engine: str = "cpu"
) -> list[KernelGame]:
    """`games` kernel games of one config with `agents[0]` as P1; game i's deal comes from (seed, i)."""
    return kernel_run(config, agents, games, seed, engine).games


def kernel_run(
    config: Mapping[str, Any], agents: tuple[str, str], games: int, seed: int, engine: str = "cpu"
) -> KernelRun:
    """Like `kernel_games`, with each agent's mean decision time.

    When a seat searches, every decision is timed inside the kernel; batches of the compiled
    policies alone are not (a clock read would cost as much as a decision), so their figure is
    the batch's thread time per decision.
    """
    from cardlab.fast.edelweiss_cpu import REASON_NAMES
    from cardlab.games.edelweiss import EdelweissConfig

    edelweiss = EdelweissConfig.from_json(config)
    searching = engine == "cpu" and any(is_kernel_search(spec) for spec in agents)
    agent_batch = engine == "cpu" and any(spec not in KERNEL_POLICIES for spec in agents)
    _warm(engine, agent_batch)  # compiling (or loading the cache) is not a decision's cost
    start = time.perf_counter()
    if agent_batch:  # the search or an epsilon seat: the kernel's agent batch
        from cardlab.fast.edelweiss_ismcts import play_agents

        result = play_agents(edelweiss, agents[0], agents[1], games, seed % 2**62)
        winner, reason, turns, decisions = result.winner, result.reason, result.turns, result.decisions
        per_seat, timed_ms = result.seat_decisions, result.decision_ms_total
        threads = 1 if searching else _threads(engine, games)
    else:  # the compiled policies alone: the kernel's own batch, its fastest path
        module = import_module(_KERNELS[engine])
        play = module.play_config if engine == "cpu" else module.play_batch
        winner, reason, turns, decisions = play(edelweiss, agents[0], agents[1], games, seed % 2**62)
        total = int(decisions.sum())
        per_seat, timed_ms, threads = (total // 2, total - total // 2), (0.0, 0.0), _threads(engine, games)
    elapsed_ms = (time.perf_counter() - start) * 1000.0
    played = [
        KernelGame(int(w), REASON_NAMES[int(r)], int(t), int(d))
        for w, r, t, d in zip(winner, reason, turns, decisions, strict=True)
    ]
    return KernelRun(played, _decision_ms(elapsed_ms * threads, per_seat, timed_ms, searching), per_seat)


@cache
def _warm(engine: str, agent_batch: bool) -> None:
    """Compile (or load from numba's cache) the kernel a batch will run, once per process."""
    from cardlab.games.edelweiss import EdelweissConfig

    config = EdelweissConfig("full")
    if agent_batch:
        from cardlab.fast.edelweiss_ismcts import play_agents

        play_agents(config, "ismcts:iterations=2:backend=cpu", "random", 1, 0)
    elif engine == "cpu":
        import_module(_KERNELS[engine]).play_config(config, "random", "heuristic", 1, 0)
    else:
        import_module(_KERNELS[engine]).play_batch(config, "random", "heuristic", 1, 0)


def _threads(engine: str, games: int) -> int:
    """Threads a kernel batch of `games` keeps busy (the JAX kernel counts as one)."""
    if engine != "cpu":
        return 1
    import numba

    from cardlab.fast.edelweiss_cpu import _BLOCK_GAMES

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
