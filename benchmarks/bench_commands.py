"""The user's commands against the engines under them, measured in the same run (issue #15).

- `cardlab simulate edelweiss --engine cpu --agents random,random --games N --json`: the command's own
  games/s (its JSON) and its wall time, against the numba kernel (`play_config`) playing the same N games
  in this process, warmed up first.
- `cardlab balance edelweiss --engine cpu --agent heuristic --games G` (30 cells x G games, fresh
  database): the command's wall time (start-up, storage, report and plot included) against the
  kernel's own time for those games.
- `cardlab simulate GAME --agents random,random --workers W --json` for each game: games/s through the
  command against the engine alone (legal actions, a random choice, apply) on one core.

Medians of `--repeats` runs. Writes the `commands` section of BENCHMARKS.md (`--dry-run` prints it).
Run: `python benchmarks/bench_commands.py`.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _report import engine_loop, machine, write_section
from cardlab.core import Game
from cardlab.games import game_class
from cardlab.sim.balance import matchups_for

CARDLAB = str(Path(sys.executable).with_name("cardlab"))


def command(*argv: str) -> tuple[float, str]:
    """Wall seconds and stdout of one cardlab command in a fresh process."""
    start = time.perf_counter()
    done = subprocess.run([CARDLAB, *argv], capture_output=True, text=True, check=True)
    return time.perf_counter() - start, done.stdout


def kernel_seconds(configs: list[dict], games: int, seed: int = 1) -> float:
    """The numba kernel's own time for `games` games of each config (compiled and warmed first)."""
    from cardlab.games.edelweiss import EdelweissConfig
    from cardlab.games.edelweiss.fast.cpu import play_config

    parsed = [EdelweissConfig.from_json(config) for config in configs]
    play_config(parsed[0], "heuristic", "heuristic", 100, 0)
    start = time.perf_counter()
    for config in parsed:
        play_config(config, "heuristic", "heuristic", games, seed)
    return time.perf_counter() - start


def engine_rate(game: Game, games: int) -> float:
    """Random games per second on the engine alone, one core."""
    start = time.perf_counter()
    engine_loop([game], games)
    return games / (time.perf_counter() - start)


def median(values: list[float]) -> float:
    return statistics.median(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--simulate-games", type=int, default=2_000_000)
    parser.add_argument("--balance-games", type=int, default=100_000, help="games per cell and seat")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--dry-run", action="store_true", help="print the section instead of writing it")
    args = parser.parse_args()
    n, g, r = args.simulate_games, args.balance_games, args.repeats
    lines = [f"Measured {datetime.date.today()} on {machine()}; medians of {r} runs.", ""]

    from cardlab.games.edelweiss import EdelweissConfig
    from cardlab.games.edelweiss.fast.cpu import play_config

    full = EdelweissConfig("full")
    play_config(full, "random", "random", 1000, 0)
    kernel, cmd_rate, cmd_wall = [], [], []
    for _ in range(r):
        start = time.perf_counter()
        play_config(full, "random", "random", (n + 1) // 2, 0)
        play_config(full, "random", "random", n // 2, 0)
        kernel.append(n / (time.perf_counter() - start))
        wall, out = command("simulate", "edelweiss", "--engine", "cpu", "--agents", "random,random",
                            "--games", str(n), "--json")  # fmt: skip
        cmd_rate.append(json.loads(out)["games_per_second"])
        cmd_wall.append(wall)
    lines += [
        "| `simulate edelweiss --engine cpu`, random vs random | games/s |",
        "|---|---:|",
        f"| the kernel (`play_config`), {n:,} games | {median(kernel):,.0f} |",
        f"| the command, its own figure | {median(cmd_rate):,.0f} ({median(cmd_rate) / median(kernel):.0%}) |",
        f"| the command, wall time with start-up ({median(cmd_wall):.2f} s) | {n / median(cmd_wall):,.0f} |",
        "",
    ]

    matchups = matchups_for("edelweiss", "symbolic")
    configs = [matchups.config(a, b) for a in matchups.entrants for b in matchups.entrants if a != b]
    total = len(configs) * g
    own = [kernel_seconds(configs, g) for _ in range(r)]
    walls = []
    for _ in range(r):
        with tempfile.TemporaryDirectory() as folder:
            wall, _ = command("balance", "edelweiss", "--engine", "cpu", "--agent", "heuristic", "--games", str(g),
                              "--out", os.path.join(folder, "out"))  # fmt: skip
            walls.append(wall)
            size = (Path(folder) / "lab.sqlite").stat().st_size
    target = 1.5 * median(own) + 5
    lines += [
        f"`balance edelweiss --engine cpu --agent heuristic --games {g:,}` ({total:,} games, fresh database): "
        f"the kernel's own time {median(own):.1f} s, the command {median(walls):.1f} s end to end "
        f"(target ≤ 1.5 × kernel + 5 s = {target:.1f} s); the database holds them in {size / 1024:.0f} KiB "
        f"({size / total:.3f} bytes per game).",
        "",
        "| random vs random | engine alone, 1 core | `simulate --workers 1` | `simulate --workers 2` |",
        "|---|---:|---:|---:|",
    ]
    for name, games in (("edelweiss", 100_000), ("aterial", 2_000), ("dreadnought", 600)):
        engine = median([engine_rate(game_class(name)(), games // 4) for _ in range(r)])
        rates = []
        for workers in ("1", "2"):
            argv = ("simulate", name, "--agents", "random,random", "--games", str(games), "--workers", workers)
            rates.append(median([json.loads(command(*argv, "--json")[1])["games_per_second"] for _ in range(r)]))
        lines.append(
            f"| {name} | {engine:,.0f} | {rates[0]:,.0f} ({rates[0] / engine:.1%}) | {rates[1]:,.0f} "
            f"({rates[1] / engine / 2:.1%} per core) |"
        )
    body = "## The user's commands against their engines\n\n" + "\n".join(lines)
    print(body) if args.dry_run else write_section("commands", body)


if __name__ == "__main__":
    main()
