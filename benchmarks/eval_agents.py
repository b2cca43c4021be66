"""Agent strength evaluation (not a timed test): seat-swapped matches for both standards.

Each match is `--games` games over `--games / 2` deals; every deal is played twice with the
seats swapped (common random numbers) and random characters per deal (R-E3). ISMCTS gets a
fixed iteration budget (deterministic, and independent of machine load) whose measured mean
time per decision is reported beside the result. Results, with 95% Wilson intervals, go to the
`agent-strength-<standard>` section of docs/agents.md.
Run: `python benchmarks/eval_agents.py --standard symbolic [--games 2000] [--workers 1]`.
"""

from __future__ import annotations

import argparse
import datetime
import random
import time
from pathlib import Path

from _report import machine, write_section
from cardlab.agents import make_agent
from cardlab.core.rng import derive_seed
from cardlab.games.edelweiss import Edelweiss, EdelweissConfig
from cardlab.sim.stats import wilson_interval
from cardlab.sim.tasks import GameTask
from cardlab.sim.tournament import run_tasks

AGENTS_MD = Path(__file__).resolve().parent.parent / "docs" / "agents.md"
MATCHES = [("heuristic", "random"), ("ismcts:iterations=400:rollout=fast", "heuristic")]


def ms_per_decision(spec: str, standard: str, decisions: int = 200) -> float:
    """Mean wall time of `spec`'s own decisions in games against the heuristic."""
    game = Edelweiss(EdelweissConfig("skills", standard))
    agent, opponent = make_agent(spec), make_agent("heuristic")
    rng = random.Random(0)
    times: list[float] = []
    seed = 0
    while len(times) < decisions:
        state = game.new_state(seed, record_events=False)
        while (player := state.current_player()) is not None:
            infoset = state.infoset(player)
            if player == seed % 2:
                start = time.perf_counter()
                state.apply(agent.act(infoset, rng))
                times.append(time.perf_counter() - start)
            else:
                state.apply(opponent.act(infoset, rng))
        seed += 1
    return 1000 * sum(times) / len(times)


def match(a: str, b: str, standard: str, games: int, workers: int) -> tuple[int, int, float]:
    """Wins of `a` over `games` seat-swapped games, and games/s."""
    config = {"deck": "skills", "standard": standard, "characters": None}
    tasks = [
        GameTask("edelweiss", config, (a, b) if i % 2 == 0 else (b, a), derive_seed(7, "eval", standard, i // 2))
        for i in range(games)
    ]
    start = time.perf_counter()
    wins = sum((result.record.winner == 0) == (i % 2 == 0) for i, result in enumerate(run_tasks(tasks, workers)))
    return wins, games, games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="games per match (even)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.add_argument("--standard", choices=["symbolic", "accel2"], required=True, help="one standard per run")
    args = parser.parse_args()

    rows = []
    for standard in (args.standard,):
        for a, b in MATCHES:
            wins, games, rate = match(a, b, standard, args.games, args.workers)
            low, high = wilson_interval(wins, games)
            ms = ms_per_decision(a, standard)
            rows.append(f"| {standard} | `{a}` | `{b}` | {wins}/{games} = {wins / games:.1%} | "
                        f"[{low:.1%}, {high:.1%}] | {ms:.1f} | {rate:,.1f} |")  # fmt: skip
            print(rows[-1], flush=True)
    body = "\n".join([
        f"### Measured strength, {args.standard}",
        "",
        f"Machine: {machine()}. Measured {datetime.date.today().isoformat()} with "
        f"`python benchmarks/eval_agents.py --standard {args.standard} --games {args.games} --workers {args.workers}`:"
        " skills games, random "
        "characters per deal, every deal played twice with the seats swapped.",
        "",
        "| standard | agent | opponent | agent's wins | 95% Wilson CI | ms per agent decision | games/s |",
        "|---|---|---|---:|---|---:|---:|",
        *rows,
    ])  # fmt: skip
    write_section(f"agent-strength-{args.standard}", body, AGENTS_MD)


if __name__ == "__main__":
    main()
