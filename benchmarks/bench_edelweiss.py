"""Pure-Python Edelweiss reference engine: random-vs-random games/s and decisions/s.

Two loops are measured, one process, one core:
- engine: `legal_actions()` + `random.choice` + `apply()` (validated) — the raw rules speed;
- agents: `play_match` with two RandomAgents, which builds an InfoSet (a leak-free copy of the
  state) for every decision — the price of the agent boundary.
A decision is a non-automatic action (E14.3). Run: `python benchmarks/bench_edelweiss.py`.
"""

from __future__ import annotations

import argparse
import datetime
import random

from _report import machine, median_seconds, write_section
from cardlab.agents import RandomAgent
from cardlab.games.edelweiss import Edelweiss, EdelweissConfig
from cardlab.sim import play_match

CONFIGS = {
    "full deck": EdelweissConfig("full"),
    "short deck": EdelweissConfig("short"),
    "skills, Symbolic": EdelweissConfig("skills", "symbolic"),
    "skills, Accel 2": EdelweissConfig("skills", "accel2"),
}


def engine_loop(game: Edelweiss, games: int, seed: int) -> tuple[int, int]:
    rng = random.Random(seed)
    decisions = 0
    for index in range(games):
        state = game.new_state(seed + index, record_events=False)
        while state.current_player() is not None:
            state.apply(rng.choice(state.legal_actions()))
            decisions += 1
    return games, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5000, help="games per run")
    parser.add_argument("--repeats", type=int, default=5, help="runs per figure (the median is reported)")
    args = parser.parse_args()

    rows = []
    for label, config in CONFIGS.items():
        game = Edelweiss(config)
        _, decisions = engine_loop(game, args.games, 1)  # the same seed gives the same games each run
        seconds = median_seconds(lambda game=game: engine_loop(game, args.games, 1), args.repeats)
        match_seconds = median_seconds(lambda game=game: _matches(game, args.games), args.repeats)
        rows.append(
            f"| {label} | {args.games / seconds:,.0f} | {decisions / seconds:,.0f} | {decisions / args.games:.1f} "
            f"| {args.games / match_seconds:,.0f} |"
        )
        print(rows[-1], flush=True)

    body = "\n".join([
        "## Edelweiss reference engine (pure Python, one process)",
        "",
        f"Machine: {machine()}. Measured {datetime.date.today().isoformat()} with "
        f"`python benchmarks/bench_edelweiss.py --games {args.games} --repeats {args.repeats}`; "
        f"each figure is the median of {args.repeats} runs.",
        "",
        "| configuration | engine games/s | engine decisions/s | decisions/game "
        "| play_match games/s (RandomAgents, InfoSets) |",
        "|---|---:|---:|---:|---:|",
        *rows,
    ])  # fmt: skip
    write_section("edelweiss-engine", body)


def _matches(game: Edelweiss, games: int) -> None:
    agents = (RandomAgent(), RandomAgent())
    for index in range(games):
        play_match(game, agents, index)


if __name__ == "__main__":
    main()
