"""The random streams of the TCG kernels: splitmix64 (Steele, Lea & Flood 2014), one uint64 of state
per game, seeded from (seed, game index) only, so a game is the same whichever thread or batch plays it."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)


@njit(cache=True, inline="always")
def mix(value: np.uint64) -> np.uint64:
    z = value
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def below(rng: npt.NDArray[np.uint64], n: int) -> int:
    """Uniform in [0, n) from the splitmix64 stream `rng` (uint64[1])."""
    rng[0] += GOLDEN
    return int(((mix(rng[0]) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def seed_rng(rng: npt.NDArray[np.uint64], seed: int, game: int) -> None:
    """The stream of game `game` of a batch: a function of (seed, game) only, never of threads."""
    rng[0] = mix(mix(np.uint64(seed) + GOLDEN) ^ (np.uint64(game) * _MIX2 + GOLDEN))


def new_rng(seed: int, game: int = 0) -> npt.NDArray[np.uint64]:
    """The stream of game `game` under `seed` (any int: reduced below 2**62 as the batches do)."""
    rng = np.empty(1, dtype=np.uint64)
    seed_rng(rng, seed % 2**62, game)
    return rng
