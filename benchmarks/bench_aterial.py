"""Pure-Python Aterial engine: random-vs-random games/s and decisions/s, one process.

Measures the engine loop (`legal_actions()` + `random.choice` + `apply()`) over both starter
decks, and `play_match` with two RandomAgents (an InfoSet per decision). Writes the
`aterial-engine` section of BENCHMARKS.md. Run: `python benchmarks/bench_aterial.py`.
"""

from __future__ import annotations

import argparse
import datetime

from _report import engine_loop, machine, median_seconds, random_matches, write_section
from cardlab.games.aterial import Aterial


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="games per run")
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure (the median is reported)")
    args = parser.parse_args()
    game = Aterial()
    decisions = engine_loop([game], args.games)
    seconds = median_seconds(lambda: engine_loop([game], args.games), args.repeats)
    match_seconds = median_seconds(lambda: random_matches([game], args.games), args.repeats)
    row = (f"| D1 vs D2, random first player | {args.games / seconds:,.0f} | {decisions / seconds:,.0f} | "
           f"{decisions / args.games:.0f} | {args.games / match_seconds:,.0f} |")  # fmt: skip
    print(row)
    body = "\n".join([
        "## Aterial reference engine (pure Python, one process)",
        "",
        f"Machine: {machine()}. Measured {datetime.date.today().isoformat()} with "
        f"`python benchmarks/bench_aterial.py --games {args.games} --repeats {args.repeats}`; "
        f"each figure is the median of {args.repeats} runs. A decision is one step of a compound choice "
        "(`DEPLOY S14` and `TO B1` are two).",
        "",
        "| configuration | engine games/s | engine decisions/s | decisions/game "
        "| play_match games/s (RandomAgents, InfoSets) |",
        "|---|---:|---:|---:|---:|",
        row,
    ])  # fmt: skip
    write_section("aterial-engine", body)


if __name__ == "__main__":
    main()
