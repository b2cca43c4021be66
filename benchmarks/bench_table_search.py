"""What a TCG table under search costs through the command a designer types (issue #19).

A `compare` table's search half plays the search in both seats, so its cost is that of
`cardlab simulate GAME --agents S,S --games N --workers W --seed 1 --json`, S the search
`tcg_tables_study.py` plays each table with: the command's wall time (start-up included), the play time it
reports, and the mean ms per decision. The heuristic alone (`--agents heuristic,heuristic`) is measured
too: its decisions are the search's rollout steps. `--before DIR` measures another checkout's `src/` (on
PYTHONPATH) the same way in the same run, e.g. a `git worktree` of the commit before a change, and says
whether both played the same games (same wins by seat and decisions: a speed-up must change no choice).

Medians of `--repeats` runs. Writes the `table-search` section of BENCHMARKS.md (`--dry-run` prints it).
Run on an idle machine: `python benchmarks/bench_table_search.py --before DIR`.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from _report import checkout_env, checkout_label, machine, write_section
from tcg_tables_study import STUDIES

CARDLAB = str(Path(sys.executable).with_name("cardlab"))


def simulate(src: Path | None, game: str, agent: str, games: int, workers: int) -> tuple[float, dict[str, Any]]:
    """Wall seconds and JSON of one `cardlab simulate` of `agent` against itself."""
    argv = [CARDLAB, "simulate", game, "--agents", f"{agent},{agent}", "--games", str(games)]
    argv += ["--workers", str(workers), "--seed", "1", "--json"]
    start = time.perf_counter()
    done = subprocess.run(argv, env=checkout_env(src), capture_output=True, text=True, check=True)
    return time.perf_counter() - start, json.loads(done.stdout)


def measure(src: Path | None, game: str, agent: str, games: int, workers: int, repeats: int) -> dict[str, Any]:
    runs = [simulate(src, game, agent, games, workers) for _ in range(repeats)]
    report = runs[0][1]
    return {
        "wall": statistics.median(wall for wall, _ in runs),
        "play": statistics.median(data["seconds"] for _, data in runs),
        "ms": statistics.median(sum(data["decision_ms"]) / 2 for _, data in runs),
        "games": (report["wins"], report["seat_wins"], report["draws"], report["decisions"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, help="another checkout to measure the same way (its src/)")
    parser.add_argument("--games", type=int, default=8, help="games under search per run (default 8)")
    parser.add_argument("--heuristic-games", type=int, default=200, help="games of the heuristic per run")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", choices=sorted(STUDIES), action="append", help="measure only this game")
    parser.add_argument("--dry-run", action="store_true", help="print the section instead of writing it")
    args = parser.parse_args()
    trees: dict[str, Path | None] = {checkout_label(Path.cwd()): None}
    if args.before:
        trees[f"{checkout_label(args.before)} (--before)"] = args.before / "src"
    rows = []
    for game in args.only or sorted(STUDIES):
        search = STUDIES[game][0]
        for agent, games in ((search, args.games), ("heuristic", args.heuristic_games)):
            measured = {
                name: measure(src, game, agent, games, args.workers, args.repeats) for name, src in trees.items()
            }
            now = next(iter(measured.values()))
            for name, figures in measured.items():
                speedup = "" if figures is now else f"{figures['play'] / now['play']:.2f}x"
                same = "" if figures is now else ("yes" if figures["games"] == now["games"] else "**no**")
                rows.append(
                    f"| {game} | `{agent}` | {name} | {games} | {figures['wall']:.1f} s | {figures['play']:.1f} s | "
                    f"{figures['play'] * args.workers / games:.2f} s | {figures['ms']:.2f} | {speedup} | {same} |"
                )
    body = "\n".join(
        [
            "## A table under search, through the command",
            "",
            f"Measured {datetime.date.today()} on {machine()} with `python benchmarks/bench_table_search.py"
            f"{f' --before {args.before}' if args.before else ''}`: `cardlab simulate GAME --agents S,S --games N "
            f"--workers {args.workers} --seed 1 --json`, S the search each TCG's table is played with "
            f"(`tcg_tables_study.py`) and the heuristic (its rollout policy); medians of {args.repeats} runs. Core-s "
            "a game is play time x workers / games: what a table's search half costs per game. The last columns "
            "compare the other checkout with this one: its play time over this one's, and whether both played the "
            "same games (wins by seat, draws and decisions).",
            "",
            "| game | agent | code | games | wall | play | core-s a game | ms a decision | slower by | same games |",
            "|---|---|---|---:|---:|---:|---:|---:|---:|---|",
            *rows,
        ]
    )
    print(body) if args.dry_run else write_section("table-search", body)


if __name__ == "__main__":
    main()
