"""`cardlab meta GAME` as a user types it, timed end to end (issue #52): how many decks its search scores.

Runs `cardlab meta GAME --budget B --search-agent heuristic --agent A --workers W` in a fresh process, a fresh
output folder and database each time (`--repeats` runs, the median reported), and reads what it did from its
`meta.json` and its last `search:` progress line: decks scored, the search's games and games/s, the command's
wall time. The issue's targets (50,000 Aterial decks at 200 games each in 30 minutes; Dreadnought 5,000 in
60) are then judged on the measured search rate: decks per target time = rate * time / games per deck. That
figure is an extrapolation, labelled so; a run of the full 30 minutes is `--budget 30m`.

Writes the `meta` section of BENCHMARKS.md (`--dry-run` prints it). Run:
`python benchmarks/bench_meta.py --game aterial --budget 2m`.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _report import machine, write_section

CARDLAB = str(Path(sys.executable).with_name("cardlab"))
TARGETS = {"aterial": (50_000, 30), "dreadnought": (5_000, 60)}
"""Per game: decks the issue asks for, and in how many minutes."""
SEARCH_LINE = re.compile(r"search: ([\d,]+) decks scored, .*?([\d,]+) games \(([\d,]+) games/s\)")


def run_once(game: str, budget: str, agent: str, workers: int, seed: int) -> dict[str, Any]:
    """One command in a fresh folder: its wall time, meta.json's counts and the search's own rate."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        argv = [CARDLAB, "meta", game, "--budget", budget, "--search-agent", "heuristic", "--agent", agent,
                "--workers", str(workers), "--seed", str(seed), "--out", str(out / "out"),
                "--db", str(out / "lab.sqlite")]  # fmt: skip
        start = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, check=True)
        wall = time.perf_counter() - start
        result = json.loads((out / "out" / "meta.json").read_text())
    lines = SEARCH_LINE.findall(done.stdout + done.stderr)
    if not lines:
        raise SystemExit(f"no `search:` line in the command's output:\n{done.stdout}\n{done.stderr}")
    decks, games, rate = (int(value.replace(",", "")) for value in lines[-1])
    return {
        "command": " ".join(["cardlab", *argv[1:]]),
        "wall_s": wall,
        "decks": int(result["evaluated_decks"]),
        "search_games": games,
        "search_rate": rate,
        "search_s": games / rate if rate else 0.0,
        "games": int(result["games"]),
        "converged": bool(result.get("search", {}).get("converged", False)),
        "printed_decks": decks,
    }


def section(game: str, runs: list[dict[str, Any]], budget: str, agent: str, workers: int) -> str:
    wall = statistics.median(r["wall_s"] for r in runs)
    rate = statistics.median(r["search_rate"] for r in runs)
    decks = statistics.median(r["decks"] for r in runs)
    search_games = statistics.median(r["search_games"] for r in runs)
    per_deck = search_games / decks if decks else 0.0
    wanted, minutes = TARGETS.get(game, (0, 30))
    reach = rate * minutes * 60 / per_deck if per_deck else 0.0
    load = os.getloadavg()[0]
    converged = sum(r["converged"] for r in runs)
    command = runs[0]["command"].split(" --out ")[0]
    rows = "\n".join(
        f"| {i} | {r['decks']:,} | {r['search_games']:,} | {r['search_rate']:,} | {r['search_s']:.1f} | "
        f"{r['games']:,} | {r['wall_s']:.1f} | {'yes' if r['converged'] else 'no'} |"
        for i, r in enumerate(runs, 1)
    )
    verdict = "met" if reach >= wanted else "not met"
    return f"""## `cardlab meta {game}`: decks scored per run

Measured {datetime.date.today()} on {machine()}, a machine shared with other jobs (1-minute load average
{load:.1f} at the end); {len(runs)} run(s), `--workers {workers}`, budget `{budget}`, table agent `{agent}`.
Command: `{command}` (a fresh output folder and database each run).

| run | decks scored | search games | search games/s | search s | games in meta.json | wall s | converged |
|---|---:|---:|---:|---:|---:|---:|---|
{rows}

Median wall time {wall:.1f} s. Median search rate {rate:,.0f} games/s at {per_deck:,.0f} games per deck scored.
The search runs to its budget; "converged" is meta.json's flag (the last two double-oracle steps found no
deck beating the mix beyond resolution). **Extrapolated, not run:** at that rate {minutes} minutes of search
would score {reach:,.0f} decks at {per_deck:,.0f} games each; the issue asks for {wanted:,} at 200 games each:
{verdict} on this machine under this load ({converged} of {len(runs)} run(s) converged).
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="aterial", choices=sorted(TARGETS))
    parser.add_argument("--budget", default="2m", help="the command's --budget (default 2m)")
    parser.add_argument("--agent", default="heuristic", help="the command's --agent (default heuristic)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0, help="the first run's seed; run i uses seed + i")
    parser.add_argument("--dry-run", action="store_true", help="print the section, do not write BENCHMARKS.md")
    args = parser.parse_args()
    runs = []
    for i in range(args.repeats):
        runs.append(run_once(args.game, args.budget, args.agent, args.workers, args.seed + i))
        print(json.dumps(runs[-1]), flush=True)
    body = section(args.game, runs, args.budget, args.agent, args.workers)
    print(body)
    if not args.dry_run:
        write_section("meta" if args.game == "aterial" else f"meta-{args.game}", body)


if __name__ == "__main__":
    main()
