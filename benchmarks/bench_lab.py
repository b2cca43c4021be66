"""Balance-lab speed on the reference engine: heuristic self-play over 1 and 2 workers and the
reference ISMCTS at 1,000 iterations. Writes the `balance-lab` section of BENCHMARKS.md (the
README's main job, played by the compiled search, is `bench_search.py`'s).

Run: `python benchmarks/bench_lab.py` (keep the machine otherwise idle).
"""

from __future__ import annotations

import argparse
import datetime
import random

from _report import machine, median_seconds, write_section
from cardlab.agents import make_agent
from cardlab.core.rng import derive_seed
from cardlab.games.edelweiss import Edelweiss, EdelweissConfig
from cardlab.sim.tasks import GameTask
from cardlab.sim.tournament import run_tasks


def heuristic_games(workers: int, games: int) -> None:
    config = {"deck": "skills", "standard": "symbolic", "characters": None}
    tasks = [GameTask("edelweiss", config, ("heuristic", "heuristic"), derive_seed(3, i)) for i in range(games)]
    for _ in run_tasks(tasks, workers):
        pass


def ismcts_decisions(spec: str, decisions: int) -> int:
    """Time `decisions` ISMCTS decisions from positions of heuristic self-play."""
    game = Edelweiss(EdelweissConfig("skills", "symbolic"))
    agent, heuristic, rng = make_agent(spec), make_agent("heuristic"), random.Random(0)
    done, seed = 0, 0
    while done < decisions:
        state = game.new_state(seed, record_events=False)
        while done < decisions and (player := state.current_player()) is not None:
            infoset = state.infoset(player)
            agent.act(infoset, rng)
            done += 1
            state.apply(heuristic.act(infoset, rng))
        seed += 1
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20_000, help="heuristic games per run")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (median reported)")
    parser.add_argument("--decisions", type=int, default=20, help="ISMCTS decisions per run")
    args = parser.parse_args()

    rows = []
    for workers in (1, 2):
        seconds = median_seconds(lambda w=workers: heuristic_games(w, args.games), args.repeats)
        rows.append(f"| heuristic vs heuristic, {workers} worker(s) | {args.games / seconds:,.0f} games/s |")
        print(rows[-1], flush=True)
    for spec in ("ismcts:iterations=1000", "ismcts:iterations=1000:rollout=heuristic"):
        seconds = median_seconds(lambda s=spec: ismcts_decisions(s, args.decisions), args.repeats)
        rows.append(f"| `{spec}`, one process | {args.decisions / seconds:.1f} decisions/s |")
        print(rows[-1], flush=True)

    body = "\n".join([
        "## Balance lab",
        "",
        f"Machine: {machine()}. Measured {datetime.date.today().isoformat()} with "
        f"`python benchmarks/bench_lab.py --games {args.games} --repeats {args.repeats} "
        f"--decisions {args.decisions}`; medians of {args.repeats} runs. Skills games, Symbolic standard, random "
        "characters; agents get InfoSets (the leak-proof boundary) at every decision. The README's main job "
        "(now played by the compiled search) is measured by `bench_search.py`.",
        "",
        "| what | figure |",
        "|---|---:|",
        *rows,
    ])  # fmt: skip
    write_section("balance-lab", body)


if __name__ == "__main__":
    main()
