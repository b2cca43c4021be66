"""Which engine plays a batch of games: the reference engine, or a compiled kernel.

The kernels (extra `fast`) play Edelweiss with the `random` and `heuristic` policies compiled
in: `cpu` is the numba kernel (`cardlab.fast.edelweiss_cpu`), `gpu` the JAX kernel
(`cardlab.fast.edelweiss_jax`, on a GPU when JAX sees one, else on the CPU); their sameness
with the reference is proven in the test suite.
It deals from its own random streams, so a game is not the reference's game of the same seed,
but a batch's deals are shared by both seat orders (common random numbers), as in the reference
lab. Kernel games are stored without their action lists.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from cardlab.core.errors import CardlabError

ENGINES = ("reference", "cpu", "gpu")
_KERNELS = {"cpu": "cardlab.fast.edelweiss_cpu", "gpu": "cardlab.fast.edelweiss_jax"}
KERNEL_POLICIES = ("random", "heuristic")


@dataclass(frozen=True)
class KernelGame:
    """One game's result from the kernel (winner 0 = P1, 1 = P2)."""

    winner: int
    reason: str
    turns: int
    decisions: int


def check_engine(engine: str, game: str, agents: tuple[str, ...]) -> None:
    """A clear error when the kernel cannot play this request."""
    if engine not in ENGINES:
        raise CardlabError(f"unknown engine {engine!r}; one of {list(ENGINES)}")
    if engine == "reference":
        return
    if game != "edelweiss":
        raise CardlabError(f"the {engine} engine plays edelweiss only, not {game}")
    for agent in agents:
        if agent not in KERNEL_POLICIES:
            raise CardlabError(f"the {engine} engine plays the agents {list(KERNEL_POLICIES)}, not {agent!r}")
    try:
        import_module(_KERNELS[engine])
    except ImportError:
        raise CardlabError(f"the {engine} engine needs the fast extra: pip install -e '.[fast]'") from None


def kernel_games(
    config: Mapping[str, Any], agents: tuple[str, str], games: int, seed: int, engine: str = "cpu"
) -> list[KernelGame]:
    """`games` kernel games of one config with `agents[0]` as P1; game i's deal comes from (seed, i)."""
    from cardlab.fast.edelweiss_cpu import REASON_NAMES
    from cardlab.games.edelweiss import EdelweissConfig

    play = (
        import_module(_KERNELS[engine]).play_config if engine == "cpu" else import_module(_KERNELS[engine]).play_batch
    )
    winner, reason, turns, decisions = play(
        EdelweissConfig.from_json(config), agents[0], agents[1], games, seed % 2**62
    )
    return [
        KernelGame(int(w), REASON_NAMES[int(r)], int(t), int(d))
        for w, r, t, d in zip(winner, reason, turns, decisions, strict=True)
    ]
