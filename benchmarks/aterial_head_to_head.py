"""Two Aterial kernel agents head to head, seats swapped on common deals: how the search's rollout cut was chosen.

Plays `search.play_agents(Aterial(), A, B, N, seed)` and `(B, A)` on the same deals and prints A's share of the
2N games (a draw as half) and A's milliseconds per decision. With NUMBA_NUM_THREADS=1 the time is one core's.
Run: `NUMBA_NUM_THREADS=1 python benchmarks/aterial_head_to_head.py SPEC_A SPEC_B N` (docs/balance.md,
"Aterial under the compiled search", lists the pairs that were run).
"""

from __future__ import annotations

import sys
import time

from cardlab.games.aterial.fast.search import play_agents
from cardlab.games.aterial.game import Aterial
from cardlab.sim.stats import wilson_interval


def main() -> None:
    first, second, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    game = Aterial()
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
