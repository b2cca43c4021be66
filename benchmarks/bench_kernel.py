"""The numba CPU kernel for Edelweiss: games/s by policy and thread count, and the full
two-standard balance table (15 pairings x 2 seats x 2 standards) at 10,000 games per cell and
seat. Writes the `edelweiss-kernel` section of BENCHMARKS.md.

Run: `python benchmarks/bench_kernel.py` (needs the `fast` extra; keep the machine idle).
"""

from __future__ import annotations

import argparse
import datetime
import subprocess
import sys
import tempfile

import numba

from _report import machine, median_seconds, write_section
from cardlab.games.edelweiss import EdelweissConfig
from cardlab.games.edelweiss.fast.cpu import play_config
from cardlab.sim.balance import BalanceSetup, kernel_balance, matchups_for

CONFIGS = {
    "full deck": EdelweissConfig("full"),
    "skills, Symbolic": EdelweissConfig("skills", "symbolic"),
    "skills, Accel 2": EdelweissConfig("skills", "accel2"),
}


def balance_table(games_per_cell: int) -> int:
    """Both standards' tables played by the kernel (no database, no report): the games played."""
    played = 0
    for standard in ("symbolic", "accel2"):
        setup = BalanceSetup(matchups_for("edelweiss", standard), "heuristic", games_per_cell, seed=1)
        played += sum(batch.count for batch in kernel_balance(setup, lambda cell: 0))
    return played


def balance_command(games_per_cell: int) -> None:
    """What a designer runs: `cardlab balance edelweiss --engine cpu` for both standards, with every
    game stored in SQLite and the reports written (a fresh database and output folder)."""
    with tempfile.TemporaryDirectory() as folder:
        for standard in ("symbolic", "accel2"):
            subprocess.run(
                [sys.executable, "-m", "cardlab", "balance", "edelweiss", "--engine", "cpu", "--standard", standard,
                 "--games", str(games_per_cell), "--db", f"{folder}/lab.sqlite", "--out", f"{folder}/{standard}"],
                check=True, capture_output=True,
            )  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1_000_000, help="games per run")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (the median is reported)")
    parser.add_argument("--cell", type=int, default=10_000, help="games per cell and seat for the balance table")
    args = parser.parse_args()

    play_config(EdelweissConfig("full"), "random", "random", 1000, 0)  # compile (or load the cache) first
    rows = []
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        numba.set_num_threads(threads)
        for label, config in CONFIGS.items():
            for policy in ("random", "heuristic"):
                games = args.games if policy == "random" else args.games // 4
                seconds = median_seconds(lambda c=config, p=policy, g=games: play_config(c, p, p, g, 7), args.repeats)
                rows.append(f"| {label} | {policy} vs {policy} | {threads} | {games / seconds:,.0f} |")
                print(rows[-1], flush=True)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    table_seconds = median_seconds(lambda: balance_table(args.cell), 1)
    table_games = 2 * 15 * 2 * args.cell
    print(f"balance table: {table_games} games in {table_seconds:.1f} s", flush=True)
    command_seconds = median_seconds(lambda: balance_command(args.cell), 1)
    print(f"cardlab balance, both standards: {command_seconds:.1f} s", flush=True)

    body = "\n".join([
        "## Edelweiss CPU kernel (numba)",
        "",
        f"Machine: {machine()}. Measured {datetime.date.today().isoformat()} with "
        f"`python benchmarks/bench_kernel.py --games {args.games} --repeats {args.repeats} --cell {args.cell}`; "
        f"median of {args.repeats} runs; heuristic figures use a quarter of the games.",
        "",
        "| configuration | policies | threads | games/s |",
        "|---|---|---:|---:|",
        *rows,
        "",
        f"Full two-standard balance table (15 pairings x 2 seats x 2 standards, {args.cell:,} heuristic games "
        f"per cell and seat = {table_games:,} games) played by the kernel on all cores: "
        f"**{table_seconds:.1f} s** for the games alone; **{command_seconds:.1f} s** for "
        f"`cardlab balance edelweiss --engine cpu --games {args.cell}` run for both standards (every game "
        "stored in SQLite, reports and heatmaps written, process start-up included).",
    ])  # fmt: skip
    write_section("edelweiss-kernel", body)


if __name__ == "__main__":
    main()
