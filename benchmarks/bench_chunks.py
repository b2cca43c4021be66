"""What a long table's user sees while it plays: how soon games are stored, what Ctrl-C keeps, and that
fast tables are no slower for it (chunks sized by time, results stored every 30 s).

- `cardlab balance aterial --agent pimc:worlds=2:depth=10 --games 384` on a fresh database (34,560 games
  under search, hours on a laptop): the seconds until its first game is in the database, then Ctrl-C
  (SIGINT to its process group) after `--stop-after` seconds: the games it kept and how long it took to stop;
- `cardlab balance aterial --agent heuristic --games 60` (5,400 fast games): its wall time, median of
  `--repeats` runs.

`--before DIR` measures another checkout's `src/` the same way (on PYTHONPATH) in the same run, e.g. a
`git worktree` of the commit before a change. Writes the `chunks` section of BENCHMARKS.md (`--dry-run`
prints it). Run: `python benchmarks/bench_chunks.py [--before DIR]`.
"""

from __future__ import annotations

import argparse
import datetime
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _report import checkout_env, checkout_label, machine, write_section

CARDLAB = str(Path(sys.executable).with_name("cardlab"))
SLOW = ["balance", "aterial", "--agent", "pimc:worlds=2:depth=10", "--games", "384", "--workers", "2"]
FAST = ["balance", "aterial", "--agent", "heuristic", "--games", "60", "--workers", "2"]


def stored(db: Path) -> int:
    """Games in the database so far (0 before the command has made it)."""
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
            return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0


def slow_run(src: Path | None, stop_after: float) -> tuple[float | None, int, float]:
    """Seconds to the first stored game (None: none before the stop), games kept by the stop, seconds to stop."""
    with tempfile.TemporaryDirectory() as scratch:
        db = Path(scratch) / "lab.sqlite"
        argv = [CARDLAB, *SLOW, "--db", str(db), "--out", str(Path(scratch) / "out")]
        start = time.perf_counter()
        process = subprocess.Popen(
            argv, env=checkout_env(src), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        first = None
        while time.perf_counter() - start < stop_after:
            if first is None and stored(db):
                first = time.perf_counter() - start
            time.sleep(0.5)
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C does: the command and its workers
        stopping = time.perf_counter()
        process.wait()
        return first, stored(db), time.perf_counter() - stopping


def fast_run(src: Path | None) -> float:
    with tempfile.TemporaryDirectory() as scratch:
        argv = [CARDLAB, *FAST, "--db", str(Path(scratch) / "lab.sqlite"), "--out", str(Path(scratch) / "out")]
        start = time.perf_counter()
        subprocess.run(argv, env=checkout_env(src), check=True, capture_output=True)
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, help="another checkout to measure the same way (its src/)")
    parser.add_argument("--stop-after", type=float, default=90.0, help="seconds before the slow table's Ctrl-C")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--dry-run", action="store_true")
    args = parser.parse_args()
    trees: dict[str, Path | None] = {checkout_label(Path.cwd()): None}
    if args.before:
        trees[f"{checkout_label(args.before)} (--before)"] = args.before / "src"
    rows = []
    for name, src in trees.items():
        first, kept, stopping = slow_run(src, args.stop_after)
        fast = [fast_run(src) for _ in range(args.repeats)]
        rows.append(
            f"| {name} | {'none' if first is None else f'{first:.0f} s'} | {kept:,} | {stopping:.1f} s | "
            f"{statistics.median(fast):.2f} s |"
        )
    body = "\n".join(
        [
            "## A long table while it plays",
            "",
            f"Measured {datetime.date.today()} on {machine()} with `python benchmarks/bench_chunks.py"
            f"{f' --before {args.before}' if args.before else ''}`. Slow: `cardlab {' '.join(SLOW)}` on a fresh "
            f"database (34,560 games under search), stopped by SIGINT after {args.stop_after:.0f} s. Fast: "
            f"`cardlab {' '.join(FAST)}` (5,400 games), median of {args.repeats} runs.",
            "",
            "| code | slow: first game stored after | slow: kept by Ctrl-C | slow: time to stop | fast: wall time |",
            "|---|---:|---:|---:|---:|",
            *rows,
        ]
    )
    print(body) if args.dry_run else write_section("chunks", body)


if __name__ == "__main__":
    main()
