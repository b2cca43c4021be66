"""Two kernel agents of a TCG head to head, seats swapped on common deals: how the searches' rollout cuts were chosen.

Plays the game's `fast.search.play_agents(game, A, B, N, seed)` and `(B, A)` on the same deals (the game's
default config) and prints A's share of the 2N games (a draw as half) and A's milliseconds per decision. With
NUMBA_NUM_THREADS=1 the time is one core's. Run: `NUMBA_NUM_THREADS=1 python benchmarks/head_to_head.py GAME
SPEC_A SPEC_B N` (docs/balance.md lists the pairs that were run).
"""

from __future__ import annotations

import sys
import time
from importlib import import_module

from cardlab.games import game_class
from cardlab.sim.stats import wilson_interval


def main() -> None:
    name, first, second, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    play_agents = import_module(f"cardlab.games.{name}.fast.search").play_agents
    game = game_class(name)()
    started = time.perf_counter()
    as_p1 = play_agents(game, first, second, count, 7)
    as_p2 = play_agents(game, second, first, count, 7)
    draws = int((as_p1.winner < 0).sum() + (as_p2.winner < 0).sum())
    wins = int((as_p1.winner == 0).sum() + (as_p2.winner == 1).sum())
    low, high = wilson_interval(wins, 2 * count)
    decisions = as_p1.seat_decisions[0] + as_p2.seat_decisions[1]
    ms = (as_p1.decision_ms_total[0] + as_p2.decision_ms_total[1]) / decisions
    print(
        f"{first} vs {second}: {wins + draws / 2}/{2 * count} = {(wins + draws / 2) / (2 * count):.1%} "
        f"(wins [{low:.1%}, {high:.1%}], {draws} draws); {ms:.3f} ms per decision of A; "
        f"{time.perf_counter() - started:.0f} s"
    )


if __name__ == "__main__":
    main()
