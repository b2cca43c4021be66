"""Aterial's compiled engine (extra `fast`), as the lab sees it: `--engine cpu`.

`cpu` is the numba kernel (`cardlab.games.aterial.fast.cpu`), which plays the `random` policy compiled
in, and with `cardlab.games.aterial.fast.heuristic` the `heuristic` too; their sameness with the reference
engine and heuristic is proven in tests/games/aterial/fast/. The config's card
files, patches and rule options reach the kernel as its integer table (`fast.tables`), so a designer's
cards and `--rule`/`--patch` need nothing here. The kernel deals from its own random streams, so a
game is not the reference's game of the same seed, but a batch's deals are shared by both seat orders
(common random numbers). A draw (A15.5, both players lose at once) comes back as winner -1.
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
from cardlab.core.plugin import KernelRun
from cardlab.games.aterial.game import Aterial

_MODULE = "cardlab.games.aterial.fast.cpu"
POLICIES = ("random", "heuristic")


class AterialKernels:
    engines = ("cpu",)

    def check(self, engine: str, agents: Sequence[str]) -> None:
        for agent in agents:
            if agent not in POLICIES:
                raise CardlabError(f"the {engine} engine plays the agents {list(POLICIES)}, not {agent!r}")
        try:
            import_module(_MODULE)
        except ImportError:
            raise CardlabError(f"the {engine} engine needs the fast extra: pip install -e '.[fast]'") from None

    def piece(self, engine: str) -> int | None:
        return None  # numba plays any number of games per call

    def warm(self, engine: str, agents: Sequence[str]) -> None:
        _warm(_policies(agents))

    def compiled(self, engine: str, agents: Sequence[str]) -> bool | None:
        """Whether numba's cache (beside the module, or in NUMBA_CACHE_DIR) holds the batch kernel already."""
        try:
            if _policies(agents):
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

        Decisions are not timed one by one (a clock read would cost as much as a random decision): each
        seat's figure is the batch's thread time per decision."""
        import numba

        from cardlab.games.aterial.fast import cpu, heuristic

        game = _game(json.dumps(dict(config), sort_keys=True))
        policies = _policies(agents)
        _warm(policies)
        start = time.perf_counter()
        if policies:
            winner, reason, turns, decisions = heuristic.play_game(game, agents, games, seed, first)
        else:
            winner, reason, turns, decisions = cpu.play_game(game, games, seed, first)
        elapsed_ms = (time.perf_counter() - start) * 1000.0
        threads = max(1, min(numba.get_num_threads(), -(-games // cpu._BLOCK_GAMES)))
        total = int(decisions.sum())
        per_seat = (total // 2, total - total // 2)
        mean = elapsed_ms * threads / total if total else 0.0
        columns = (np.asarray(column, dtype=np.int64) for column in (winner, reason, turns, decisions))
        winners, reasons, turn_counts, decision_counts = columns
        return KernelRun(winners, reasons, cpu.REASON_NAMES, turn_counts, decision_counts, (mean, mean), per_seat)


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
