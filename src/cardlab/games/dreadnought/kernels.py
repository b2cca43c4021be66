"""Dreadnought's compiled engine (extra `fast`), as the lab sees it: `--engine cpu`.

`cpu` is the numba kernel (`cardlab.games.dreadnought.fast.cpu`), which plays the `random` policy compiled in,
and with `cardlab.games.dreadnought.fast.heuristic` the `heuristic` too (also `heuristic:epsilon=E`); their
sameness with the reference engine and heuristic is proven in tests/games/dreadnought/fast/. The config's card files,
patches and rule options reach the kernel as its integer table (`fast.tables`), which refuses with a
CardlabError what the kernel does not compile (two rule values, cards beyond the table's room), so a run never
plays other rules than the reference's. The kernel deals from its own random streams, so a game is not the
reference's game of the same seed. A draw (D21.1 both players out at once, D21.3 the turn cap) comes back as
winner -1.

It also plays the compiled information-set search, `ismcts:...:backend=cpu` (`cardlab.games.dreadnought.fast.
search`, also behind the reference engine's agent of that spec through `Dreadnought.compiled_search`), against any of
these seats: every decision of a searching seat is timed inside the kernel.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from importlib import import_module
from typing import Any

import numpy as np

from cardlab.core.errors import CardlabError
from cardlab.core.extras import needs_extra
from cardlab.core.plugin import KernelRun
from cardlab.core.specs import AgentSpecError, split_spec
from cardlab.games.dreadnought.game import Dreadnought

_MODULE = "cardlab.games.dreadnought.fast.cpu"
_SEARCH = "cardlab.games.dreadnought.fast.search"
POLICIES = ("random", "heuristic")
SEARCH_SPEC = "ismcts:...:backend=cpu"
EPSILON_SPEC = "heuristic:epsilon=E"


def _epsilon(spec: str) -> float | None:
    """The epsilon of `heuristic:epsilon=E` (0 for `heuristic`), None for another spec; an AgentSpecError (a
    CardlabError) for an epsilon that is not a number in [0, 1]."""
    if spec == "heuristic":
        return 0.0
    try:
        name, params = split_spec(spec)
    except AgentSpecError:
        return None
    if name != "heuristic" or set(params) != {"epsilon"}:
        return None
    try:
        epsilon = float(params["epsilon"])
    except ValueError:
        raise AgentSpecError(f"heuristic: epsilon must be a number, not {params['epsilon']!r}") from None
    if not 0.0 <= epsilon <= 1.0:
        raise AgentSpecError(f"heuristic: epsilon must be between 0 and 1, not {epsilon:g}")
    return epsilon


def _is_kernel_search(spec: str) -> bool:
    """Whether `spec` is the compiled search (`ismcts:...:backend=cpu`)."""
    try:
        name, params = split_spec(spec)
    except AgentSpecError:
        return False
    return name == "ismcts" and params.get("backend") == "cpu"


class DreadnoughtKernels:
    engines = ("cpu",)

    def check(self, engine: str, agents: Sequence[str]) -> None:
        """A CardlabError for an agent the kernel cannot play, a bad search value, or no fast extra."""
        for agent in agents:
            if agent in POLICIES:
                continue
            split_spec(agent)  # an AgentSpecError (a CardlabError) for a spec that does not parse
            if _epsilon(agent) is not None:  # heuristic:epsilon=E (a bad E raised above)
                continue
            if not _is_kernel_search(agent):
                raise CardlabError(
                    f"the {engine} engine plays the agents {list(POLICIES)}, not {agent!r}; it also plays "
                    f"{EPSILON_SPEC} and {SEARCH_SPEC}"
                )
        try:
            import_module(_MODULE)
            search = import_module(_SEARCH) if any(_is_kernel_search(agent) for agent in agents) else None
        except ImportError:
            raise CardlabError(needs_extra(f"the {engine} engine", "fast")) from None
        for agent in agents:
            if search is not None and _is_kernel_search(agent):
                search.kernel_agent(agent)  # an AgentSpecError (a CardlabError) naming the bad value

    def piece(self, engine: str) -> int | None:
        return None  # numba plays any number of games per call

    def warm(self, engine: str, agents: Sequence[str]) -> None:
        if any(_is_kernel_search(agent) for agent in agents):
            _warm_search()
        elif _policies(agents):
            _warm_policies()
        else:
            _warm()

    def compiled(self, engine: str, agents: Sequence[str]) -> bool | None:
        """Whether numba's cache (beside the module, or in NUMBA_CACHE_DIR) holds the batch kernel already."""
        try:
            if any(_is_kernel_search(agent) for agent in agents):
                from cardlab.games.dreadnought.fast.search import play_batch_agents as play_batch
            elif _policies(agents):
                from cardlab.games.dreadnought.fast.heuristic import play_batch
            else:
                from cardlab.games.dreadnought.fast.cpu import play_batch

            return bool(play_batch._cache._cache_file._load_index())  # numba's cached signatures of this source
        except Exception:  # another numba, or no fast extra: unknown
            return None

    def run(
        self, config: Mapping[str, Any], agents: tuple[str, str], games: int, seed: int, engine: str, first: int = 0
    ) -> KernelRun:
        """Games `first` .. `first + games - 1` of the stream `seed`; game i depends on (seed, first + i) only.

        A config the kernel does not compile is refused here (CardlabError naming the card or rule value).
        When a seat searches, every decision is timed inside the kernel; random batches are not (a clock read
        would cost as much as a random decision), so their figure is the batch's thread time per decision."""
        import numba

        from cardlab.games.dreadnought.fast import cpu

        self.check(engine, agents)
        table = _table(json.dumps(dict(config), sort_keys=True))
        if any(_is_kernel_search(agent) for agent in agents):
            return _run_search(table, agents, games, seed, first)
        if _policies(agents):  # a heuristic seat: the policy batch (`fast.heuristic`)
            from cardlab.games.dreadnought.fast import heuristic

            _warm_policies()
            start = time.perf_counter()
            policies = np.asarray([heuristic.POLICIES["random" if a == "random" else "heuristic"] for a in agents])
            epsilons = np.asarray([_epsilon(a) or 0.0 for a in agents], dtype=np.float64)
            winner, reason, turns, decisions = heuristic.play_batch(
                table, policies.astype(np.int64), epsilons, games, seed % 2**62, first
            )
        else:
            _warm()
            start = time.perf_counter()
            winner, reason, turns, decisions = cpu.play_batch(table, games, seed % 2**62, first)
        cpu.check_overflow(reason)
        elapsed_ms = (time.perf_counter() - start) * 1000.0
        threads = max(1, min(numba.get_num_threads(), -(-games // cpu._BLOCK_GAMES)))
        total = int(decisions.sum())
        per_seat = (total // 2, total - total // 2)
        mean = elapsed_ms * threads / total if total else 0.0
        columns = (np.asarray(column, dtype=np.int64) for column in (winner, reason, turns, decisions))
        winners, reasons, turn_counts, decision_counts = columns
        return KernelRun(winners, reasons, cpu.REASON_NAMES, turn_counts, decision_counts, (mean, mean), per_seat)


def _run_search(table: Any, agents: tuple[str, str], games: int, seed: int, first: int) -> KernelRun:
    """The search's agent batch: games handed to the threads one at a time (results never depend on it), so a
    piece's last games do not wait for one thread's share, however long its searches run."""
    import numba

    from cardlab.games.dreadnought.fast import cpu
    from cardlab.games.dreadnought.fast.search import play_table_agents

    _warm_search()
    with numba.parallel_chunksize(1):
        result = play_table_agents(table, agents[0], agents[1], games, seed, first)
    per_seat, timed_ms = result.seat_decisions, result.decision_ms_total
    ms = tuple(timed_ms[seat] / per_seat[seat] if per_seat[seat] else 0.0 for seat in (0, 1))
    columns = (np.asarray(column, dtype=np.int64) for column in (result.winner, result.reason, result.turns,
                                                                    result.decisions))  # fmt: skip
    winners, reasons, turn_counts, decision_counts = columns
    return KernelRun(winners, reasons, cpu.REASON_NAMES, turn_counts, decision_counts, (ms[0], ms[1]), per_seat)


@lru_cache(maxsize=16)
def _table(config: str) -> Any:
    """The kernel table of a config JSON, its card files read once per process (a long run calls `run` per piece)."""
    from cardlab.games.dreadnought.fast.cpu import game_table

    return game_table(Dreadnought.from_config(json.loads(config)))


@cache
def _warm() -> None:
    """Compile (or load from numba's cache) the batch kernel, once per process: a batch of no games compiles the
    same signature as any other, whatever the table holds."""
    from cardlab.games.dreadnought.fast import cpu

    cpu.play_batch(np.zeros(1, dtype=np.int64), 0, 0, 0)


def _policies(agents: Sequence[str]) -> bool:
    """Whether a batch of these agents needs the policy kernel (a heuristic seat), not the random one."""
    return any(agent != "random" for agent in agents)


@cache
def _warm_policies() -> None:
    """Compile (or load from numba's cache) the policy batch (`fast.heuristic.play_batch`), once per process."""
    from cardlab.games.dreadnought.fast import heuristic

    heuristic.play_game(Dreadnought(), ("heuristic", "random"), 1, 0, epsilons=(0.5, 0.0))


@cache
def _warm_search() -> None:
    """Compile (or load from numba's cache) the search's agent batch, once per process."""
    from cardlab.games.dreadnought.fast.search import play_agents

    play_agents(Dreadnought(), "ismcts:iterations=2:backend=cpu", "random", 1, 0)
