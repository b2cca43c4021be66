"""Each game's compiled engine against its reference engine, through the command a user types (issue #34).

For every game with a `cpu` kernel: `cardlab simulate GAME --engine reference|cpu --workers 1 --agents
random,random --json`, side by side in one run (alternating, so both see the same machine load), the
games/s the command reports (its own clock: the games, not the start-up), and the ratio. Then the kernel
run's peak memory (max RSS of the whole process) at N and 10 N games: a batch keeps one row per game and
its result columns, so memory should stay flat.

Medians of `--repeats` runs. Writes the `tcg-kernels` section of BENCHMARKS.md (`--dry-run` prints it).
Run: `python benchmarks/bench_tcg_kernels.py`.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess

from _report import CARDLAB, machine, write_section
from cardlab.games import game_class, game_names


def simulate(game: str, engine: str, games: int, agents: str = "random,random") -> tuple[float, float]:
    """(games/s the command reports, its peak RSS in MiB) for one `cardlab simulate` in a fresh process."""
    argv = [CARDLAB, "simulate", game, "--engine", engine, "--workers", "1", "--games", str(games)]
    process = subprocess.Popen([*argv, "--agents", agents, "--json"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert process.stdout is not None
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    if status:
        raise SystemExit(f"{' '.join(argv)} failed ({status})")
    return float(json.loads(out)["games_per_second"]), usage.ru_maxrss / 1024


def kernel_games() -> list[str]:
    """The registered games whose compiled engines include `cpu`."""
    names = []
    for name in game_names():
        kernels = game_class(name).kernels()
        if kernels is not None and "cpu" in kernels.engines:
            names.append(name)
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", default=None, help="games to measure (default: every cpu kernel)")
    parser.add_argument("--reference-games", type=int, default=400)
    parser.add_argument("--kernel-games", type=int, default=20000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    rows = []
    for game in args.games or kernel_games():
        simulate(game, "cpu", 10)  # compile (or load numba's cache) before any clock runs
        reference, kernel = [], []
        for _ in range(args.repeats):
            reference.append(simulate(game, "reference", args.reference_games)[0])
            kernel.append(simulate(game, "cpu", args.kernel_games)[0])
        small = simulate(game, "cpu", args.kernel_games)[1]
        large = simulate(game, "cpu", 10 * args.kernel_games)[1]
        ref, cpu = statistics.median(reference), statistics.median(kernel)
        rows.append(
            f"| {game} | {ref:,.0f} | {cpu:,.0f} | {cpu / ref:.0f}x | {args.kernel_games:,}: {small:.0f} MiB; "
            f"{10 * args.kernel_games:,}: {large:.0f} MiB |"
        )
    load = os.getloadavg()[0]
    lines = [
        "## Compiled engines against the reference, through `cardlab simulate` (random play, one worker)",
        "",
        f"Machine: {machine()}. Measured {datetime.date.today()} with `python benchmarks/bench_tcg_kernels.py "
        f"--reference-games {args.reference_games} --kernel-games {args.kernel_games} --repeats {args.repeats}` "
        f"(1-minute load average at the end: {load:.1f}); each rate is the median of {args.repeats} runs of "
        "`cardlab simulate GAME --engine reference|cpu --workers 1 --agents random,random --json`, the games/s "
        "the command prints, the two engines alternating. Peak memory is the kernel command's max RSS.",
        "",
        "| game | reference games/s | cpu games/s | cpu / reference | peak RSS of the cpu run |",
        "|---|---|---|---|---|",
        *rows,
    ]
    text = "\n".join(lines)
    if args.dry_run:
        print(text)
    else:
        write_section("tcg-kernels", text)
        print(text)


if __name__ == "__main__":
    main()
