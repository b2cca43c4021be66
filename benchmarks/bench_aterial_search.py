"""Aterial's compiled search (`ismcts:...:backend=cpu`, issue #34 item 3): its cost per iteration and its strength.

1. Milliseconds per iteration on one core (numba at one thread): searches of `--iterations` iterations, all
   of them (no early stop), at `--positions` kernel positions reached by heuristic play with one random move
   in five (default decks D1,D2), for each rollout policy and for heuristic rollouts cut at `--depth` actions
   (`depth=D`); the median of `--repeats` passes, in wall-clock and in process CPU time (the machine may be
   shared: CPU time is what one core spent). Target: <= 0.05 ms.
2. Strength through the command a user types: `cardlab simulate aterial --engine cpu --agents SEARCH,heuristic
   --games N --json` (seats swapped per deal), its win rate with the 95% Wilson interval the command
   prints, and its mean ms per search decision, for the full-rollout search and for the lab's table agent
   (`Matchups.strong_agent`). Target: >= 60% over >= 400 games.

The 1-minute load average is recorded before and after. Writes the `aterial-search` section of
BENCHMARKS.md (`--dry-run` prints it only). Run: `python benchmarks/bench_aterial_search.py`.
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import time

import numpy as np

from _report import machine, simulate_against_heuristic, write_section

DEFAULT_ITERATIONS = 200


def positions(count: int, seed: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """(table, rows): kernel rows at decisions with a real choice, reached by heuristic play (a random move in five)."""
    from cardlab.fast.rng import below, new_rng
    from cardlab.games.aterial.fast import cpu, heuristic
    from cardlab.games.aterial.fast.tables import N_ACTIONS, build_table, dealt_cards
    from cardlab.games.aterial.game import Aterial

    game = Aterial()
    tab = build_table(game, dealt_cards(game))
    out = np.empty(int(tab[N_ACTIONS]), dtype=np.int64)
    rng = new_rng(seed)
    rows: list[np.ndarray] = []
    game_index = 0
    while len(rows) < count:
        row = cpu.new_row()
        n = cpu.deal(row, tab, -1, new_rng(seed, game_index), out)
        game_index += 1
        stop = int(below(rng, 120))
        for _ in range(stop):
            if cpu.current_player(row) < 0:
                break
            action = out[below(rng, n)] if below(rng, 5) == 0 else heuristic.heuristic_action(row, tab, out, n)
            n = cpu.apply(row, tab, action, rng, out)
        if cpu.current_player(row) >= 0 and n > 1:
            rows.append(row.copy())
    return tab, rows


def per_iteration(
    tab: np.ndarray, rows: list[np.ndarray], iterations: int, rollout: str, repeats: int, c: float, depth: int = 0
) -> dict:
    """Median wall and CPU ms per iteration (all iterations), and ms per decision as played (early stop on), at
    UCB constant `c` (it shapes the tree, so the cost, and decides how soon the early stop fires)."""
    import numba

    from cardlab.games.aterial.fast import search

    numba.set_num_threads(1)
    tree = search.Tree(iterations + 1)
    search.search_action(rows[0], tab, 10, c, rollout=rollout, tree=tree)  # compile or load the cache
    walls, cpus, played = [], [], []
    for _ in range(repeats):
        wall, cpu_time = time.perf_counter(), time.process_time()
        for index, row in enumerate(rows):
            search.search_action(
                row, tab, iterations, c, rollout=rollout, seed=index, tree=tree, depth=depth, stop_early=False
            )
        walls.append((time.perf_counter() - wall) * 1000 / (len(rows) * iterations))
        cpus.append((time.process_time() - cpu_time) * 1000 / (len(rows) * iterations))
        wall = time.perf_counter()
        for index, row in enumerate(rows):
            search.search_action(row, tab, iterations, c, rollout=rollout, seed=index, tree=tree, depth=depth)
        played.append((time.perf_counter() - wall) * 1000 / len(rows))
    return {"wall": statistics.median(walls), "cpu": statistics.median(cpus), "played": statistics.median(played)}


def table_agent() -> str:
    """The agent `cardlab balance aterial` plays its table with when none is named."""
    from cardlab.games.aterial.lab import matchups

    strong = matchups(None).strong_agent
    if strong is None:
        raise SystemExit("Aterial's lab names no strong agent")
    return strong


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", type=int, default=400, help="games of the head-to-head (seats swapped per deal)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--depth", type=int, default=10, help="the rollout cut of the depth row")
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    tab, rows = positions(args.positions, 1)
    from cardlab.games.aterial.fast.search import kernel_agent

    table_spec = table_agent()
    exploration = kernel_agent(table_spec).c  # every cost row searches with the table agent's UCB constant
    costs = {
        rollout: per_iteration(tab, rows, args.iterations, rollout, args.repeats, exploration)
        for rollout in ("heuristic", "random")
    }
    costs[f"heuristic, depth={args.depth}"] = per_iteration(
        tab, rows, args.iterations, "heuristic", args.repeats, exploration, args.depth
    )
    full = f"ismcts:iterations={args.iterations}:rollout=heuristic:backend=cpu"
    strength_rows = []
    for spec in (full, table_spec):
        # compile (or load numba's cache) before the measured run
        simulate_against_heuristic("aterial", spec, 2, args.seed)
        started = time.perf_counter()
        summary = simulate_against_heuristic("aterial", spec, args.games, args.seed)
        seconds = time.perf_counter() - started
        wins, games = summary["wins"][0], summary["games"]
        low, high = summary["ci95"][0]
        strength_rows.append(
            f"| `{spec}` | **{wins}/{games} = {wins / games:.1%}** | {low:.1%}-{high:.1%} | {summary['draws']} "
            f"| {summary['decision_ms'][0]:.2f} | {seconds:.0f} |"
        )
    load_after = os.getloadavg()[0]
    cost_rows = [
        f"| {rollout} | {cost['wall']:.4f} | {cost['cpu']:.4f} | {cost['played']:.2f} |"
        for rollout, cost in costs.items()
    ]
    command = (
        f"python benchmarks/bench_aterial_search.py --iterations {args.iterations} --positions {args.positions} "
        f"--repeats {args.repeats} --games {args.games} --seed {args.seed} --depth {args.depth}"
    )
    lines = [
        "## Aterial compiled search (`ismcts:...:backend=cpu`)",
        "",
        f"Machine: {machine()}. Measured {datetime.date.today()} with `{command}` (1-minute load average "
        f"{load_before:.1f} before, {load_after:.1f} after: the machine is shared, so wall-clock figures are "
        "upper bounds and the CPU-time column is what one core spent).",
        "",
        f"Cost: one numba thread, searches of {args.iterations} iterations at {len(rows)} positions reached by "
        f"heuristic play with one random move in five (decks D1,D2), medians of {args.repeats} passes, UCB's "
        f"c = {exploration} as in the table agent. Target: <= 0.05 ms per iteration.",
        "",
        "| rollout | ms per iteration (wall) | ms per iteration (CPU) | ms per decision as played (early stop) |",
        "|---|---:|---:|---:|",
        *cost_rows,
        "",
        f"Strength: `cardlab simulate aterial --engine cpu --agents SEARCH,heuristic --games {args.games} "
        f"--seed {args.seed} --json` (seats swapped per deal, on all cores), for the full-rollout search and the "
        "lab's table agent (the default agent of `cardlab balance aterial`). Target: >= 60%.",
        "",
        "| SEARCH | wins | 95% interval | draws | ms per search decision | seconds for the command |",
        "|---|---:|---|---:|---:|---:|",
        *strength_rows,
    ]
    text = "\n".join(lines)
    if not args.dry_run:
        write_section("aterial-search", text)
    print(text)


if __name__ == "__main__":
    main()
