"""Dreadnought's compiled search (`ismcts:...:backend=cpu`, issue #34 item 3): its cost per iteration and its strength.

1. Milliseconds per iteration on one core (numba at one thread): searches of `--iterations` iterations, all of
   them (no early stop), at `--positions` reference positions reached by heuristic play with one random move in
   five (default decks ember_spark,tide_grove), loaded into kernel rows; the median of `--repeats` passes, in
   wall-clock and in process CPU time (the machine may be shared: CPU time is what one core spent), for random
   and heuristic rollouts and for heuristic rollouts cut at `--depth` actions, all with the UCB constant `c` of
   `--spec` (the table agent's by default). Target: <= 0.15 ms.
2. Strength through the command a user types: `cardlab simulate dreadnought --engine cpu --agents SEARCH,heuristic
   --games N --json` (the compiled heuristic, the reference's choice at every decision; seats swapped per
   deal), for SEARCH `--spec`: its win rate with the 95% Wilson interval the command prints, and its mean ms
   per search decision. Target: >= 60% over >= 400 games.

The 1-minute load average is recorded before and after. Writes the `dreadnought-search` section of
BENCHMARKS.md (`--dry-run` prints it only). Run: `NUMBA_NUM_THREADS=1 python benchmarks/bench_dreadnought_search.py`.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import sys
import time

import numpy as np

from _report import machine, simulate_against_heuristic, write_section
from cardlab.games.dreadnought.lab import STRONG_AGENT

DEFAULT_ITERATIONS = 200


def positions(count: int, seed: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """(table, rows): kernel rows of reference positions with a real choice, reached by the reference heuristic's
    play with one random move in five."""
    from cardlab.agents import make_agent
    from cardlab.games.dreadnought.fast import cpu
    from cardlab.games.dreadnought.game import Dreadnought

    game = Dreadnought()
    heuristic = make_agent("heuristic", "dreadnought")
    rng = random.Random(seed)
    rows: list[np.ndarray] = []
    tab = cpu.game_table(game)
    game_seed = 0
    while len(rows) < count:
        state = game.new_state(game_seed, record_events=False)
        game_seed += 1
        stop = rng.randrange(0, 200)
        for _ in range(stop):
            player = state.current_player()
            if player is None:
                break
            legal = state.legal_actions()
            state.apply(rng.choice(legal) if rng.random() < 0.2 else heuristic.act(state.infoset(player), rng))
        if state.current_player() is not None and len(state.legal_actions()) > 1:
            row, tab = cpu.load_state(state)
            rows.append(row)
    return tab, rows


def per_iteration(
    tab: np.ndarray, rows: list[np.ndarray], iterations: int, repeats: int, rollout: str, depth: int, c: float
) -> dict:
    """Median wall and CPU ms per iteration (all iterations), and ms per decision as played (early stop on)."""
    import numba

    from cardlab.games.dreadnought.fast import search

    numba.set_num_threads(1)
    tree = search.Tree(iterations + 1)
    options = {"rollout": rollout, "depth": depth, "tree": tree, "c": c}
    search.search_action(rows[0], tab, 10, **options)  # compile or load the cache
    walls, cpus, played = [], [], []
    for _ in range(repeats):
        wall, cpu_time = time.perf_counter(), time.process_time()
        for index, row in enumerate(rows):
            search.search_action(row, tab, iterations, seed=index, stop_early=False, **options)
        walls.append((time.perf_counter() - wall) * 1000 / (len(rows) * iterations))
        cpus.append((time.process_time() - cpu_time) * 1000 / (len(rows) * iterations))
        wall = time.perf_counter()
        for index, row in enumerate(rows):
            search.search_action(row, tab, iterations, seed=index, **options)
        played.append((time.perf_counter() - wall) * 1000 / len(rows))
    return {"wall": statistics.median(walls), "cpu": statistics.median(cpus), "played": statistics.median(played)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", type=int, default=400, help="games of the head-to-head (seats swapped per deal)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--depth", type=int, default=30, help="the rollout cut of the depth row")
    parser.add_argument("--spec", default=STRONG_AGENT, help="the search whose strength is measured")
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    from cardlab.games.dreadnought.fast.search import kernel_agent

    exploration = kernel_agent(args.spec).c  # every row searches with the measured search's UCB constant
    tab, rows = positions(args.positions, 1)
    costs = {
        label: per_iteration(tab, rows, args.iterations, args.repeats, rollout, depth, exploration)
        for label, rollout, depth in (
            ("random", "random", 0),
            ("heuristic", "heuristic", 0),
            (f"heuristic, depth={args.depth}", "heuristic", args.depth),
        )
    }
    print(f"costs: {costs}", file=sys.stderr, flush=True)
    spec = args.spec
    # compile (or load numba's cache) before the measured run
    simulate_against_heuristic("dreadnought", spec, 2, args.seed)
    started = time.perf_counter()
    summary = simulate_against_heuristic("dreadnought", spec, args.games, args.seed)
    seconds = time.perf_counter() - started
    wins, games = summary["wins"][0], summary["games"]
    low, high = summary["ci95"][0]
    load_after = os.getloadavg()[0]
    command = (
        f"NUMBA_NUM_THREADS=1 python benchmarks/bench_dreadnought_search.py --iterations {args.iterations} "
        f"--positions {args.positions} --repeats {args.repeats} --games {args.games} --seed {args.seed} "
        f"--depth {args.depth} --spec {args.spec}"
    )
    lines = [
        "## Dreadnought compiled search (`ismcts:...:backend=cpu`)",
        "",
        f"Machine: {machine()}. Measured {datetime.date.today()} with `{command}` (1-minute load average "
        f"{load_before:.1f} before, {load_after:.1f} after: the machine is shared, so wall-clock figures are "
        "upper bounds and the CPU-time column is what one core spent).",
        "",
        f"Cost: one numba thread, searches of {args.iterations} iterations at {len(rows)} reference positions "
        f"reached by heuristic play with one random move in five (decks ember_spark,tide_grove), medians of "
        f"{args.repeats} passes, UCB's c = {exploration} as in `--spec`. Target: <= 0.15 ms per iteration.",
        "",
        "| rollout | ms per iteration (wall) | ms per iteration (CPU) | ms per decision as played (early stop) |",
        "|---|---:|---:|---:|",
        *(
            f"| {label} | {cost['wall']:.4f} | {cost['cpu']:.4f} | {cost['played']:.2f} |"
            for label, cost in costs.items()
        ),
        "",
        f"Strength: `cardlab simulate dreadnought --engine cpu --agents {spec},heuristic --games {args.games} --seed "
        f"{args.seed} --json` (the compiled heuristic, seats swapped per deal; numba threads as NUMBA_NUM_THREADS sets "
        "them): the search wins "
        f"**{wins}/{games} = {wins / games:.1%}** (95% interval {low:.1%}-{high:.1%}; draws {summary['draws']}), "
        f"{summary['decision_ms'][0]:.1f} ms per search decision, {seconds:.0f} s for the command. Target: >= 60%.",
    ]
    text = "\n".join(lines)
    if not args.dry_run:
        write_section("dreadnought-search", text)
    print(text)


if __name__ == "__main__":
    main()
