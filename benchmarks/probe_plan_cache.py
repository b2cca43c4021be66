"""How full Dreadnought's heuristic plan cache gets in one decision, against the compiled heuristic's cap.

The compiled heuristic (`games/dreadnought/fast/heuristic.py`) keeps at most `PLAN_CAP` attack-plan scenarios
per decision; past it a scenario's plans are computed afresh instead of looked up (the reference's cache has no
cap). This plays reference games, the heuristic in both seats with one random move in five (positions off the
heuristic's own path, as the search's rollouts reach them), and counts the entries each decision's cache ended
with: one per distinct scenario key, as many as the kernel would store. Writes the `plan-cache` section of
BENCHMARKS.md (`--dry-run` prints it only). Run: `python benchmarks/probe_plan_cache.py --games 1500`.
"""

from __future__ import annotations

import argparse
import datetime
import random
import time
from typing import Any

from _report import machine, write_section
from cardlab.agents import make_agent
from cardlab.games import game_class
from cardlab.games.dreadnought import heuristic
from cardlab.games.dreadnought.fast.heuristic import PLAN_CAP


def cache_sizes(games: int, explore: float, seed: int) -> list[int]:
    """The plan cache's size at the end of every heuristic decision of `games` games."""
    views: list[Any] = []
    original = heuristic._View.__init__

    def counted(self: Any, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        views.append(self)

    heuristic._View.__init__ = counted  # type: ignore[method-assign]
    try:
        game = game_class("dreadnought")()
        agent = make_agent("heuristic", "dreadnought")
        rng = random.Random(seed)
        sizes = []
        for index in range(games):
            state = game.new_state(seed + index, record_events=False)
            while not state.is_terminal():
                player = state.current_player()
                assert player is not None
                infoset = state.infoset(player)
                if rng.random() < explore:
                    state.apply(rng.choice(list(infoset.legal_actions)))
                else:
                    state.apply(agent.act(infoset, rng))
                sizes.extend(len(view._plans) for view in views)
                views.clear()
    finally:
        heuristic._View.__init__ = original  # type: ignore[method-assign]
    return sorted(sizes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--explore", type=float, default=0.2, help="share of moves played at random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    started = time.perf_counter()
    sizes = cache_sizes(args.games, args.explore, args.seed)
    seconds = time.perf_counter() - started
    over = sum(size > PLAN_CAP for size in sizes)

    def share(q: float) -> int:
        return sizes[min(len(sizes) - 1, int(q * len(sizes)))]

    text = "\n".join(
        [
            "## Dreadnought's heuristic plan cache against the compiled cap",
            "",
            f"Machine: {machine()}. Measured {datetime.date.today()} with `python benchmarks/probe_plan_cache.py "
            f"--games {args.games} --explore {args.explore} --seed {args.seed}` ({seconds:.0f} s): reference games, "
            f"the heuristic in both seats with {args.explore:.0%} of moves random; the entries each decision's plan "
            f"cache ended with (distinct scenario keys, as many as the compiled heuristic stores).",
            "",
            "| decisions | median | 99th pct | 99.9th pct | largest | cap (`PLAN_CAP`) | decisions past it |",
            "|---:|---:|---:|---:|---:|---:|---:|",
            f"| {len(sizes):,} | {share(0.5)} | {share(0.99)} | {share(0.999)} | {sizes[-1]} | {PLAN_CAP:,} | {over} |",
        ]
    )
    if not args.dry_run:
        write_section("plan-cache", text)
    print(text)


if __name__ == "__main__":
    main()
