"""Dreadnought's compiled engine (extra `fast`), as the lab sees it: `--engine cpu`.

`cpu` is the numba kernel (`cardlab.games.dreadnought.fast.cpu`), which plays the `random` policy compiled in;
its sameness with the reference engine is proven in tests/games/dreadnought/fast/. The config's card files,
patches and rule options reach the kernel as its integer table (`fast.tables`), which refuses with a
CardlabError what the kernel does not compile (two rule values, cards beyond the table's room), so a run never
plays other rules than the reference's. The kernel deals from its own random streams, so a game is not the
reference's game of the same seed. A draw (D21.1 both players out at once, D21.3 the turn cap) comes back as
winner -1.
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
from cardlab.games.dreadnought.game import Dreadnought

_MODULE = "cardlab.games.dreadnought.fast.cpu"
POLICIES = ("random",)


class DreadnoughtKernels:
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
        _warm()

    def compiled(self, engine: str, agents: Sequence[str]) -> bool | None:
        """Whether numba's cache (beside the module, or in NUMBA_CACHE_DIR) holds the batch kernel already."""
        try:
            from cardlab.games.dreadnought.fast.cpu import play_batch

            return bool(play_batch._cache._cache_file._load_index())  # numba's cached signatures of this source
        except Exception:  # another numba, or no fast extra: unknown
            return None

    def run(
        self, config: Mapping[str, Any], agents: tuple[str, str], games: int, seed: int, engine: str, first: int = 0
    ) -> KernelRun:
        """Games `first` .. `first + games - 1` of the stream `seed`; game i depends on (seed, first + i) only.

        A config the kernel does not compile is refused here (CardlabError naming the card or rule value).
        Decisions are not timed one by one: each seat's figure is the batch's thread time per decision."""
        import numba

        from cardlab.games.dreadnought.fast import cpu

        self.check(engine, agents)
        table = _table(json.dumps(dict(config), sort_keys=True))
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
