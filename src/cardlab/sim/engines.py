"""Which engine plays a batch of games: the reference engine, or the compiled CPU kernel.

The kernel (`cardlab.fast.edelweiss_cpu`, extra `fast`) plays Edelweiss with the `random` and
`heuristic` policies compiled in; its sameness with the reference is proven in the test suite.
It deals from its own random streams, so a game is not the reference's game of the same seed,
but a batch's deals are shared by both seat orders (common random numbers), as in the reference
lab. Kernel games are stored without their action lists.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardlab.core.errors import CardlabError

ENGINES = ("reference", "cpu")
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
        raise CardlabError(f"the cpu engine plays edelweiss only, not {game}")
    for agent in agents:
        if agent not in KERNEL_POLICIES:
            raise CardlabError(f"the cpu engine plays the agents {list(KERNEL_POLICIES)}, not {agent!r}")
    try:
        import cardlab.fast.edelweiss_cpu  # noqa: F401
    except ImportError:
        raise CardlabError("the cpu engine needs the fast extra: pip install -e '.[fast]'") from None


def kernel_games(config: Mapping[str, Any], agents: tuple[str, str], games: int, seed: int) -> list[KernelGame]:
    """`games` kernel games of one config with `agents[0]` as P1; game i's deal comes from (seed, i)."""
    from cardlab.fast.edelweiss_cpu import REASON_NAMES, play_config
    from cardlab.games.edelweiss import EdelweissConfig

    winner, reason, turns, decisions = play_config(
        EdelweissConfig.from_json(config), agents[0], agents[1], games, seed % 2**62
    )
    return [
        KernelGame(int(w), REASON_NAMES[int(r)], int(t), int(d))
        for w, r, t, d in zip(winner, reason, turns, decisions, strict=True)
    ]
