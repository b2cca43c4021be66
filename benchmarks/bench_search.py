"""The compiled Edelweiss ISMCTS (`ismcts:...:backend=cpu`): milliseconds per decision on one core
against the reference search, and the full two-standard balance table played by it through the
command a designer runs. Writes the `edelweiss-search` section of BENCHMARKS.md.

Run: `python benchmarks/bench_search.py` (needs the `fast` extra; keep the machine idle). The table
(`--table-games 1000`: 60,000 games with both seats searching) takes a quarter of an hour or more.
"""

from __future__ import annotations

import argparse
import datetime
import random
import statistics
import subprocess
import sys
import tempfile
import time

import numba

from _report import machine, write_section
from cardlab.agents import make_agent
from cardlab.games.edelweiss import Edelweiss, EdelweissConfig
from cardlab.games.edelweiss.fast import cpu as kernel
from cardlab.games.edelweiss.fast.search import Tree, search_action
from cardlab.games.edelweiss.lab import STRONG_AGENT

STANDARDS = {"Symbolic": "symbolic", "Accel 2": "accel2"}
DEFAULT_GAMES = 1000  # `cardlab balance`'s default games per pairing and seat
TABLE_AGENT = "ismcts:iterations=1000:backend=cpu"  # the yardstick for a strong table (= the default)


def positions(standard: str, count: int, seed: int) -> list:
    """Reference states at decision points reached by random play (random characters)."""
    rng = random.Random(seed)
    game = Edelweiss(EdelweissConfig("skills", standard))
    found = []
    while len(found) < count:
        state = game.new_state(rng.getrandbits(32), record_events=False)
        for _ in range(rng.randrange(0, 30)):
            if state.current_player() is None:
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.current_player() is not None:
            found.append(state)
    return found


def compiled_ms(states: list, iterations: int, rollout: str, stop_early: bool, repeats: int) -> float:
    """Median over runs of the mean ms per decision of `search_action` on these positions."""
    rows = [kernel.from_position(state.position(), validate=False) for state in states]
    tree = Tree(iterations + 1)
    search_action(rows[0], iterations, rollout=rollout, tree=tree)  # compile (or load the cache) first
    runs = []
    for repeat in range(repeats):
        start = time.perf_counter()
        for index, row in enumerate(rows):
            search_action(
                row, iterations, rollout=rollout, seed=repeat * 7919 + index, tree=tree, stop_early=stop_early
            )
        runs.append((time.perf_counter() - start) * 1000.0 / len(rows))
    return statistics.median(runs)


def reference_ms(states: list, iterations: int) -> float:
    """Mean ms per decision of the reference `ismcts` (pure Python) on these positions."""
    agent = make_agent(f"ismcts:iterations={iterations}")
    start = time.perf_counter()
    for index, state in enumerate(states):
        agent.act(state.infoset(state.current_player()), random.Random(index))
    return (time.perf_counter() - start) * 1000.0 / len(states)


def table_command(games_per_cell: int, agent: str) -> dict[str, float]:
    """Seconds per standard for `cardlab balance edelweiss --engine cpu --agent AGENT --games N`."""
    seconds = {}
    with tempfile.TemporaryDirectory() as folder:
        for label, standard in STANDARDS.items():
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "cardlab", "balance", "edelweiss", "--engine", "cpu", "--standard", standard,
                 "--agent", agent, "--games", str(games_per_cell), "--db", f"{folder}/lab.sqlite",
                 "--out", f"{folder}/{standard}"],
                check=True, capture_output=True,
            )  # fmt: skip
            seconds[label] = time.perf_counter() - start
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=300, help="positions per standard")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (the median is reported)")
    parser.add_argument("--reference-positions", type=int, default=20, help="positions for the reference search")
    parser.add_argument("--table-games", type=int, default=1000, help="games per cell and seat (0: skip the table)")
    args = parser.parse_args()

    numba.set_num_threads(1)
    rows = []
    for label, standard in STANDARDS.items():
        states = positions(standard, args.positions, seed=len(rows))
        for rollout in ("random", "heuristic"):
            exact = compiled_ms(states, 1000, rollout, False, args.repeats)
            early = compiled_ms(states, 1000, rollout, True, args.repeats)
            rows.append(f"| {label} | {rollout} | compiled, all 1,000 iterations | {exact:.3f} |")
            rows.append(f"| {label} | {rollout} | compiled, stopping once decided (as played) | {early:.3f} |")
        reference = reference_ms(states[: args.reference_positions], 1000)
        rows.append(f"| {label} | random | reference `ismcts` (pure Python) | {reference:.1f} |")
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    table = ""
    if args.table_games:
        seconds = table_command(args.table_games, TABLE_AGENT)
        games = 15 * 2 * 2 * args.table_games
        table = (
            f"\nFull two-standard balance table (15 pairings x 2 seats x 2 standards, {args.table_games:,} games per "
            f"cell and seat = {games:,} games, both seats searching) through `cardlab balance edelweiss --engine cpu "
            f"--agent {TABLE_AGENT} --games {args.table_games}` for each standard on all "
            f"{numba.config.NUMBA_NUM_THREADS} cores, games stored and reports written: "
            f"**{sum(seconds.values()) / 60:.1f} min** (Symbolic {seconds['Symbolic']:.0f} s, Accel 2 "
            f"{seconds['Accel 2']:.0f} s; one run). Target: <= 15 min.\n"
        )
        if TABLE_AGENT == STRONG_AGENT and args.table_games == DEFAULT_GAMES:
            table += (
                f"\nThe README's main job, `cardlab balance edelweiss` on its defaults, is the Symbolic half of it "
                f"(the same agent, engine, games and seed): **{seconds['Symbolic'] / 60:.1f} min**.\n"
            )
    today = datetime.date.today().isoformat()
    body = "\n".join(
        [
            "## Edelweiss compiled search (`ismcts:...:backend=cpu`)",
            "",
            f"Machine: {machine()}. Measured {today} with `python benchmarks/bench_search.py --positions "
            f"{args.positions} --repeats {args.repeats} --table-games {args.table_games}`; one thread. A decision "
            f"is one search of 1,000 iterations at a position reached by random play (skills deck, random "
            f"characters); the compiled figures are medians of {args.repeats} runs over {args.positions} positions, "
            f"the reference's a mean over {args.reference_positions}. Stopping once decided returns exactly the "
            f"move of the full budget (tests/games/edelweiss/fast/test_search.py). "
            "Target: 1,000 iterations in <= 2 ms.",
            "",
            "| standard | rollout | search | ms per decision |",
            "|---|---|---|---:|",
            *rows,
            table,
        ]
    )
    write_section("edelweiss-search", body)
    print(body)


if __name__ == "__main__":
    main()
