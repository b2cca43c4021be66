"""The price of the agent boundary: random games/s, engine alone vs `play_match` with RandomAgents.

For each game, one process, one core:
- engine: `legal_actions()` + `random.choice` + `apply()` (validated) — the raw rules speed;
- play_match: two RandomAgents, given the legal actions alone (`chooser`); agents that take an
  InfoSet get a lazy one (issue #15), which builds no world until they read it.
The overhead column is play_match time over engine time, minus one. Writes the `infoset-overhead`
section of BENCHMARKS.md (`--dry-run` prints it instead). Run: `python benchmarks/bench_infoset.py`.
"""

from __future__ import annotations

import argparse
import datetime
from functools import partial

from _report import engine_loop, machine, median_seconds, random_matches, write_section
from cardlab.core import Game
from cardlab.games.aterial import Aterial
from cardlab.games.dreadnought import Dreadnought
from cardlab.games.edelweiss import Edelweiss

GAMES: dict[str, tuple[Game, int]] = {
    "edelweiss (full deck)": (Edelweiss(), 2000),
    "aterial (D1 vs D2)": (Aterial(), 200),
    "dreadnought (starter decks)": (Dreadnought(), 100),
}
"""Label: (game, default games per run): each run takes about a second on a laptop core."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies every game's games per run")
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure (the median is reported)")
    parser.add_argument("--dry-run", action="store_true", help="print the section instead of writing it")
    args = parser.parse_args()

    rows = []
    for label, (game, default) in GAMES.items():
        games = max(1, round(default * args.scale))
        decisions = engine_loop([game], games)
        seconds = median_seconds(partial(engine_loop, [game], games), args.repeats)
        match_seconds = median_seconds(partial(random_matches, [game], games), args.repeats)
        rows.append(
            f"| {label} | {games} | {decisions / games:.0f} | {games / seconds:,.0f} | {games / match_seconds:,.0f} "
            f"| {match_seconds / seconds - 1:+.0%} |"
        )
        print(rows[-1], flush=True)

    body = "\n".join([
        "## InfoSet overhead: engine alone vs play_match (RandomAgents)",
        "",
        f"Machine: {machine()}. Measured {datetime.date.today().isoformat()} with "
        f"`python benchmarks/bench_infoset.py --scale {args.scale:g} --repeats {args.repeats}`; "
        f"each figure is the median of {args.repeats} runs, one process. Random agents choose from the "
        "legal actions alone (`chooser`), so no InfoSet is made; agents that take one get a lazy one, "
        "which builds no world until read. The overhead is play_match's bookkeeping (seeds, agent "
        "streams, the record of every action, timers).",
        "",
        "| game | games/run | decisions/game | engine games/s | play_match games/s | overhead |",
        "|---|---:|---:|---:|---:|---:|",
        *rows,
    ])  # fmt: skip
    if args.dry_run:
        print(body)
    else:
        write_section("infoset-overhead", body)


if __name__ == "__main__":
    main()
