"""Aterial's compiled engine (extra `fast`), as the lab and the agents see it: `--engine cpu`.

`cpu` is the numba kernel (`cardlab.games.aterial.fast.cpu`), which plays the `random` policy compiled
in, and with `cardlab.games.aterial.fast.heuristic` the `heuristic` too; their sameness with the reference
engine and heuristic is proven in tests/games/aterial/fast/. It also plays the compiled information-set
search, `ismcts:...:backend=cpu` (`cardlab.games.aterial.fast.search`, also behind the reference engine's
agent of that spec through `Aterial.compiled_search`), and the heuristic with an epsilon. The config's card
files, patches and rule options reach the kernel as its integer table (`fast.tables`), so a designer's
cards and `--rule`/`--patch` need nothing here. The kernel deals from its own random streams, so a
game is not the reference's game of the same seed, but a batch's deals are shared by both seat orders
(common random numbers). A draw (A15.5, both players lose at once) comes back as winner -1.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from functools import cache, lru_cache
from importlib import import_module
from typing import Any

import numpy as np

from cardlab.core.errors import CardlabError
from cardlab.core.extras import needs_extra
from cardlab.core.plugin import KernelRun
from cardlab.core.specs import AgentSpecError, split_spec
from cardlab.games.aterial.game import Aterial

_MODULE = "cardlab.games.aterial.fast.cpu"
_SEARCH = "cardlab.games.aterial.fast.search"
POLICIES = ("random", "heuristic")
SEARCH_SPEC = "ismcts:...:backend=cpu"
EPSILON_SPEC = "heuristic:epsilon=E"


def _is_kernel_search(spec: str) -> bool:
    """Whether `spec` is the compiled search (`ismcts:...:backend=cpu`)."""
    try:
        name, params = split_spec(spec)
    except AgentSpecError:
        return False
    return name == "ismcts" and params.get("backend") == "cpu"


def _is_agent_batch_spec(spec: str) -> bool:
    """Whether the search's agent batch plays `spec`: the search, or the heuristic with an epsilon."""
    try:
        name, params = split_spec(spec)
    except AgentSpecError:
        return False
    return _is_kernel_search(spec) or (name == "heuristic" and set(params) <= {"epsilon"})


class AterialKernels:
    engines = ("cpu",)

    def check(self, engine: str, agents: Sequence[str]) -> None:
        """A CardlabError for an agent the kernel cannot play, a bad search or epsilon value, or no fast extra."""
        for agent in agents:
            if agent in POLICIES:
                continue
            split_spec(agent)  # an AgentSpecError (a CardlabError) for a spec that does not parse
            if not _is_agent_batch_spec(agent):
                raise CardlabError(
                    f"the {engine} engine plays the agents {list(POLICIES)}, not {agent!r}; "
                    f"it also plays {EPSILON_SPEC} and {SEARCH_SPEC}"
                )
        try:
            import_module(_MODULE)
            search = import_module(_SEARCH) if any(agent not in POLICIES for agent in agents) else None
        except ImportError:
            raise CardlabError(needs_extra(f"the {engine} engine", "fast")) from None
        for agent in agents:
            if search is not None and agent not in POLICIES:
                search.kernel_agent(agent)  # an AgentSpecError (a CardlabError) naming the bad value

    def piece(self, engine: str) -> int | None:
        return None  # numba plays any number of games per call

    def warm(self, engine: str, agents: Sequence[str]) -> None:
        if any(agent not in POLICIES for agent in agents):
            _warm_agents()
        else:
            _warm(_policies(agents))

    def compiled(self, engine: str, agents: Sequence[str]) -> bool | None:
        """Whether numba's cache (beside the module, or in NUMBA_CACHE_DIR) holds the batch kernel already."""
        try:
            if any(agent not in POLICIES for agent in agents):
                from cardlab.games.aterial.fast.search import play_batch_agents as play_batch
            elif _policies(agents):
                from cardlab.games.aterial.fast.heuristic import play_batch
            else:
                from cardlab.games.aterial.fast.cpu import play_batch

            return bool(play_batch._cache._cache_file._load_index())  # numba's cached signatures of this source
        except Exception:  # another numba, or no fast extra: unknown
            return None

    def run(
        self, config: Mapping[str, Any], agents: tuple[str, str], games: int, seed: int, engine: str, first: int = 0
    ) -> KernelRun:
        """Games `first` .. `first + games - 1` of the stream `seed`; game i depends on (seed, first + i) only.

        When a seat searches, every decision is timed inside the kernel; batches of the compiled policies
        alone are not (a clock read would cost as much as a random decision), so their figure is the
        batch's thread time per decision."""
        import numba

        from cardlab.games.aterial.fast import cpu, heuristic

        game = _game(json.dumps(dict(config), sort_keys=True))
        searching = any(_is_kernel_search(agent) for agent in agents)
        agent_batch = any(agent not in POLICIES for agent in agents)
        if agent_batch:
            _warm_agents()
        else:
            _warm(_policies(agents))
        start = time.perf_counter()
        timed_ms = (0.0, 0.0)
        if agent_batch:  # the search or an epsilon seat: the search module's agent batch
            from cardlab.games.aterial.fast.search import play_agents

            # Games handed out one at a time (results never depend on it): a piece's last games do
            # not wait for one thread's share, however long its searches run.
            with numba.parallel_chunksize(1) if searching else nullcontext():
                result = play_agents(game, agents[0], agents[1], games, seed, first)
            winner, reason, turns, decisions = result.winner, result.reason, result.turns, result.decisions
            per_seat, timed_ms = result.seat_decisions, result.decision_ms_total
        elif _policies(agents):
            winner, reason, turns, decisions = heuristic.play_game(game, agents, games, seed, first)
        else:
            winner, reason, turns, decisions = cpu.play_game(game, games, seed, first)
        elapsed_ms = (time.perf_counter() - start) * 1000.0
        if searching:  # each seat's decisions timed one by one
            ms = tuple(timed_ms[seat] / per_seat[seat] if per_seat[seat] else 0.0 for seat in (0, 1))
        else:
            threads = max(1, min(numba.get_num_threads(), -(-games // cpu._BLOCK_GAMES)))
            total = int(decisions.sum())
            if not agent_batch:
                per_seat = (total // 2, total - total // 2)
            mean = elapsed_ms * threads / total if total else 0.0
            ms = (mean, mean)
        columns = (np.asarray(column, dtype=np.int64) for column in (winner, reason, turns, decisions))
        winners, reasons, turn_counts, decision_counts = columns
        return KernelRun(winners, reasons, cpu.REASON_NAMES, turn_counts, decision_counts, (ms[0], ms[1]), per_seat)

    def run_pairings(
        self,
        config: Mapping[str, Any],
        decks: Sequence[tuple[Any, Any]],
        agents: tuple[str, str],
        games: int,
        seeds: Sequence[int],
    ) -> KernelRun | None:
        """Games 0 .. games - 1 of every pairing (P1's deck, P2's deck: `cards.Deck`s, under `config`'s card
        set and rule options) from its seed, in one kernel call, pairing-major: each pairing's games are those
        `run` plays for its own config (`fast.pairings`). None for agents other than the compiled policies
        (the caller plays pairing by pairing)."""
        if any(agent not in POLICIES for agent in agents):
            return None
        import numba

        from cardlab.games.aterial.fast import cpu
        from cardlab.games.aterial.fast.pairings import play_decks

        tables = _pairing_tables(json.dumps(dict(config), sort_keys=True))
        start = time.perf_counter()
        winner, reason, turns, decisions = play_decks(tables, decks, agents, games, seeds)
        elapsed_ms = (time.perf_counter() - start) * 1000.0
        threads = max(1, min(numba.get_num_threads(), -(-len(winner) // cpu._BLOCK_GAMES)))
        total = int(decisions.sum())
        mean = elapsed_ms * threads / total if total else 0.0
        return KernelRun(
            winner, reason, cpu.REASON_NAMES, turns, decisions, (mean, mean), (total // 2, total - total // 2)
        )


@lru_cache(maxsize=4)
def _pairing_tables(config: str) -> Any:
    """The tables of any two decks under a config JSON (its card set read once per process)."""
    from cardlab.games.aterial.fast.pairings import PairingTables

    return PairingTables(_game(config))


@lru_cache(maxsize=16)
def _game(config: str) -> Aterial:
    """The game of a config JSON, its card files read once per process (a long run calls `run` per piece)."""
    return Aterial.from_config(json.loads(config))


def _policies(agents: Sequence[str]) -> bool:
    """Whether a batch of these agents needs the policy kernel (a heuristic seat), not the random one."""
    return any(agent != "random" for agent in agents)


@cache
def _warm(policies: bool) -> None:
    """Compile (or load from numba's cache) the batch kernel, once per process."""
    from cardlab.games.aterial.fast import cpu, heuristic

    if policies:
        heuristic.play_game(Aterial(), ("heuristic", "random"), 1, 0)
    else:
        cpu.play_game(Aterial(), 1, 0)


@cache
def _warm_agents() -> None:
    """Compile (or load from numba's cache) the agent batch (the search), once per process."""
    from cardlab.games.aterial.fast.search import play_agents

    play_agents(Aterial(), "ismcts:iterations=2:backend=cpu", "heuristic:epsilon=0.5", 1, 0)
