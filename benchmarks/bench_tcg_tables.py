"""A TCG's whole balance table under its default search, through the command a designer types.

Runs `cardlab balance GAME --engine cpu --games N --db TMP/lab.sqlite --out TMP/table` on a fresh database, as a
child process, and reads what it printed: the search's compile time ("... ready in S s") and its play time
("played N games in S s"); the wall clock, the child's CPU time (as a share of one core) and its peak RSS come
from the operating system. `--cold` points NUMBA_CACHE_DIR at an empty folder, so the search compiles as on a
fresh clone. `--repeats N` runs each table N times and keeps the run of median wall clock, with the range of
the N (a table takes tens of minutes, so the default is one run); the issue's target is 30 minutes on two cores.
Each game's latest row (with its date and machine) is kept in `benchmarks/results/tcg-tables.json`, so measuring
one game leaves the other's figure in the section.
Run: `python benchmarks/bench_tcg_tables.py [GAME ...] --games 300 --cold [--keep DIR]` (default dreadnought).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import resource
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from _report import CARDLAB, machine, write_section

COMPILED = re.compile(r"ready in (\d+) s")
PLAYED = re.compile(r"played (\d+) games in ([\d.]+) s")
ROWS = Path(__file__).resolve().parent / "results" / "tcg-tables.json"


def table_run(game: str, games: int, cold: bool, keep: Path | None = None) -> dict:
    """One `cardlab balance` run of `game`'s default table on a fresh database; its printed and measured times.
    With `keep`, the table's files (table.csv, summary.json, ...) are copied to `keep/GAME`: a measured run is
    also a table a study can read (benchmarks/compare_tables.py)."""
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, **({"NUMBA_CACHE_DIR": str(Path(folder, "numba"))} if cold else {})}
        arguments = ["balance", game, "--engine", "cpu", "--games", str(games)]
        paths = ["--db", str(Path(folder, "lab.sqlite")), "--out", str(Path(folder, "table"))]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([CARDLAB, *arguments, *paths], env=env, capture_output=True, text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if keep is not None and done.returncode == 0:
            shutil.copytree(Path(folder, "table"), keep / game, dirs_exist_ok=True)
    command = " ".join(["cardlab", *arguments])
    if done.returncode != 0:
        raise SystemExit(f"{command} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    played = PLAYED.search(done.stdout)
    if played is None:
        raise SystemExit(f"{command} printed no 'played N games' line:\n{done.stdout[-2000:]}")
    compiled = COMPILED.search(done.stdout)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {
        "command": f"{command} --db lab.sqlite",
        "measured": f"{datetime.date.today()}, {machine()}",
        "cold": cold,
        "agent": done.stdout.splitlines()[0].rsplit(" by ", 1)[-1].strip(),
        "games": int(played.group(1)),
        "compile": f"{compiled.group(1)} s" if compiled else "cached",
        "play_s": float(played.group(2)),
        "wall_s": wall,
        "cpu_percent": 100 * cpu / wall,
        "peak_rss_mb": after.ru_maxrss / 1024,
    }


def median_run(runs: list[dict]) -> dict:
    """The run of median wall clock, carrying how many runs there were and their range."""
    ordered = sorted(runs, key=lambda run: run["wall_s"])
    return {
        **ordered[len(ordered) // 2],
        "runs": len(runs),
        "wall_range_s": [ordered[0]["wall_s"], ordered[-1]["wall_s"]],
    }


def wall_cell(row: dict) -> str:
    """`**8.5 min**`, or with several runs `**8.5 min** (median of 3: 8.3-8.9)`."""
    cell = f"**{row['wall_s'] / 60:.1f} min**"
    if row.get("runs", 1) > 1:
        low, high = row["wall_range_s"]
        cell += f" (median of {row['runs']}: {low / 60:.1f}-{high / 60:.1f})"
    return cell


def section(rows: dict[str, dict]) -> str:
    """The `tcg-tables` section: one row per game, each with the date, machine and command that measured it."""
    lines = [
        "## TCG tables under their default search, through `cardlab balance`",
        "",
        "Each row: `python benchmarks/bench_tcg_tables.py GAME --games N [--cold] [--repeats R]`, the command on a "
        "fresh database (`--cold`: numba cache empty, so the search compiles as on a fresh clone; of R runs, the one "
        "of median wall clock); wall clock, CPU time and peak RSS of the command's process. Target: the whole table "
        "in <= 30 min on two cores.",
        "",
        "| command | agent | games | compile | play | wall | CPU | peak RSS | games/s | measured |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows.values():
        lines.append(
            f"| `{row['command']}` | `{row['agent']}` | {row['games']:,} | {row['compile']}"
            f"{' (cold)' if row['cold'] else ''} | {row['play_s'] / 60:.1f} min | {wall_cell(row)} "
            f"| {row['cpu_percent']:.0f}% | {row['peak_rss_mb']:,.0f} MB | {row['games'] / row['play_s']:.2f} "
            f"| {row['measured']} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_of", nargs="*", default=["dreadnought"], metavar="GAME")
    parser.add_argument("--games", type=int, default=300, help="games per cell and seat")
    parser.add_argument("--cold", action="store_true", help="compile the search as on a fresh clone")
    parser.add_argument("--repeats", type=int, default=1, help="runs per table; the median run is reported")
    parser.add_argument("--keep", type=Path, help="copy each game's table files to KEEP/GAME")
    parser.add_argument("--dry-run", action="store_true", help="print the section, write no file")
    args = parser.parse_args()
    rows = json.loads(ROWS.read_text()) if ROWS.exists() else {}
    for game in args.games_of:
        rows[game] = median_run([table_run(game, args.games, args.cold, args.keep) for _ in range(args.repeats)])
    body = section(dict(sorted(rows.items())))
    print(body)
    if not args.dry_run:
        ROWS.write_text(json.dumps(rows, indent=1, sort_keys=True) + "\n")
        write_section("tcg-tables", body)


if __name__ == "__main__":
    main()
