"""Pure-Python Dreadnought engine: random-vs-random games/s and decisions/s, one process.

Measures the engine loop (`legal_actions()` + `random.choice` + `apply()`) with both starter
decks (each deck in each seat, half the games each), and `play_match` with two RandomAgents (an
InfoSet per decision). Writes the `dreadnought-engine` section of BENCHMARKS.md.
Run: `python benchmarks/bench_dreadnought.py`.
"""

from __future__ import annotations

import argparse
import datetime

from _report import engine_loop, machine, median_seconds, random_matches, write_section
from cardlab.games.dreadnought import Dreadnought, DreadnoughtConfig

GAMES = (Dreadnought(), Dreadnought(DreadnoughtConfig(decks=("tide_grove", "ember_spark"))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=300, help="games per run")
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure (the median is reported)")
    args = parser.parse_args()
    decisions = engine_loop(GAMES, args.games)
    seconds = median_seconds(lambda: engine_loop(GAMES, args.games), args.repeats)
    match_seconds = median_seconds(lambda: random_matches(GAMES, args.games), args.repeats)
    row = (f"| ember_spark vs tide_grove, both seatings | {args.games / seconds:,.0f} | {decisions / seconds:,.0f} | "
           f"{decisions / args.games:.0f} | {args.games / match_seconds:,.0f} |")  # fmt: skip
    print(row)
    body = "\n".join([
        "## Dreadnought reference engine (pure Python, one process)",
        "",
        f"Machine: {machine()}. Measured {datetime.date.today().isoformat()} with "
        f"`python benchmarks/bench_dreadnought.py --games {args.games} --repeats {args.repeats}`; "
        f"each figure is the median of {args.repeats} runs. A decision is one step of a compound choice "
        "(`PLAY R05`, `TARGET P2:BA1.U1` and `PAY BURST` are three). Target: 100 random games/s on one core.",
        "",
        "| configuration | engine games/s | engine decisions/s | decisions/game "
        "| play_match games/s (RandomAgents, InfoSets) |",
        "|---|---:|---:|---:|---:|",
        row,
    ])  # fmt: skip
    write_section("dreadnought-engine", body)


if __name__ == "__main__":
    main()
