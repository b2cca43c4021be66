"""Cold compile of a game's kernels with and without `cardlab.fast.inlining`, and the games they then play.

For each game and each way of inlining (numba as is, ``CARDLAB_NUMBA_AS_IS=1``; and cardlab's copy-free
inlining), a fresh process with an empty ``NUMBA_CACHE_DIR`` compiles the kernels a table runs (random play,
the heuristic, the table search: `check_engine(..., warm=True)`), and its CPU seconds are taken; then
``cardlab simulate GAME --engine cpu --agents heuristic,heuristic`` plays from that cache, the command a user
types, and its wall time is taken. The two ways alternate (as is, patched, as is, ...) so both see the same
load. Writes the ``compile`` section of BENCHMARKS.md.

Run: ``python benchmarks/bench_compile.py --games edelweiss aterial --repeats 1``
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _report import machine, write_section

WARM = """
import resource, sys
from cardlab.core.errors import CardlabError
from cardlab.sim.engines import check_engine
for agents in (("random", "random"), ("heuristic", "heuristic"), ("ismcts:iterations=2:backend=cpu", "random")):
    try:
        check_engine("cpu", sys.argv[1], agents, warm=True)
    except CardlabError:
        pass
usage = resource.getrusage(resource.RUSAGE_SELF)
print(usage.ru_utime + usage.ru_stime)
"""

WAYS = {"numba as is": {"CARDLAB_NUMBA_AS_IS": "1"}, "copy-free inlining": {"CARDLAB_NUMBA_AS_IS": "0"}}


def one_run(game: str, extra: dict[str, str], simulate_games: int) -> tuple[float, float]:
    """CPU seconds of a cold compile, then the wall seconds of `cardlab simulate` from that cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = os.environ | extra | {"NUMBA_CACHE_DIR": cache}
        warm = subprocess.run([sys.executable, "-c", WARM, game], env=env, capture_output=True, text=True, check=True)
        command = [sys.executable, "-m", "cardlab", "simulate", game, "--engine", "cpu", "--agents",
                   "heuristic,heuristic", "--games", str(simulate_games), "--json"]  # fmt: skip
        start = time.perf_counter()
        subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        return float(warm.stdout.strip().splitlines()[-1]), time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["edelweiss"])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--simulate-games", type=int, default=200_000)
    args = parser.parse_args()
    rows = []
    for game in args.games:
        results: dict[str, list[tuple[float, float]]] = {way: [] for way in WAYS}
        for _ in range(args.repeats):
            for way, extra in WAYS.items():
                results[way].append(one_run(game, extra, args.simulate_games))
                print(game, way, results[way][-1], flush=True)
        for way, runs in results.items():
            compile_cpu = statistics.median(run[0] for run in runs)
            simulate = statistics.median(run[1] for run in runs)
            rows.append(f"| {game} | {way} | {compile_cpu:.0f} | {simulate:.1f} |")
    body = "\n".join(
        [
            f"## Cold compile of the kernels, numba's inlining and cardlab's (`bench_compile.py`, {date.today()})",
            "",
            f"Machine: {machine()}. {args.repeats} run(s) of each, median shown, the two ways alternating. "
            "Compile: CPU seconds of one process compiling, into an empty `NUMBA_CACHE_DIR`, the kernels a "
            "table runs (random, heuristic, table search). Simulate: wall seconds of "
            f"`cardlab simulate GAME --engine cpu --agents heuristic,heuristic --games {args.simulate_games}` "
            "from that cache (start-up included).",
            "",
            "| game | inlining | compile, CPU s | simulate, wall s |",
            "|---|---|---:|---:|",
            *rows,
        ]
    )
    write_section("compile", body)


if __name__ == "__main__":
    main()
