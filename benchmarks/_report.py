"""Shared by the benchmark scripts: machine facts and section-wise BENCHMARKS.md updates."""

from __future__ import annotations

import json
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from cardlab.agents import RandomAgent
from cardlab.core import Game
from cardlab.sim import play_match

BENCHMARKS_MD = Path(__file__).resolve().parent.parent / "BENCHMARKS.md"


def machine() -> str:
    """CPU model, core count and Python build, for the figures' context."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()} ({platform.python_implementation()})"


def checkout_env(src: Path | None) -> dict[str, str]:
    """The environment that runs another checkout's `src/` (None: this one), for `--before DIR` comparisons."""
    return {**os.environ, **({"PYTHONPATH": str(src)} if src else {})}


def checkout_label(tree: Path) -> str:
    """A checkout as its commit."""
    done = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return f"`{done.stdout.strip() or tree}`"


def median_seconds(run: Callable[[], object], repeats: int) -> float:
    """The median wall time of `repeats` calls of `run`."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def write_section(name: str, body: str, path: Path = BENCHMARKS_MD) -> None:
    """Replace (or append) the section between `<!-- name -->` markers in a Markdown file."""
    begin, end = f"<!-- {name} -->", f"<!-- /{name} -->"
    block = f"{begin}\n{body.strip()}\n{end}"
    header = "# Benchmarks\n\nFigures written by the scripts in `benchmarks/`; never edited by hand.\n"
    text = path.read_text() if path.exists() else header
    pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.S)
    text = pattern.sub(lambda _: block, text) if pattern.search(text) else text.rstrip() + "\n\n" + block + "\n"
    path.write_text(text)


def engine_loop(games: Sequence[Game], count: int) -> int:
    """`count` random games on the engine alone (legal actions, a random choice, a validated apply),
    cycling through `games`; returns the decisions made."""
    rng = random.Random(1)
    decisions = 0
    for index in range(count):
        state = games[index % len(games)].new_state(index, record_events=False)
        while state.current_player() is not None:
            state.apply(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions


def random_matches(games: Sequence[Game], count: int) -> None:
    """The same games through `play_match` with two RandomAgents."""
    agents = (RandomAgent(), RandomAgent())
    for index in range(count):
        play_match(games[index % len(games)], agents, index)


CARDLAB = str(Path(sys.executable).with_name("cardlab"))
"""The `cardlab` command of the Python running the benchmark."""


def simulate_against_heuristic(game: str, spec: str, games: int, seed: int) -> dict:
    """`cardlab simulate GAME --engine cpu --agents SPEC,heuristic --games N --seed S --json` in a fresh process:
    the figure a user gets from the command, not from an inner function."""
    argv = [CARDLAB, "simulate", game, "--engine", "cpu", "--agents", f"{spec},heuristic"]
    argv += ["--games", str(games), "--seed", str(seed), "--json"]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr[-2000:]}")
    summary: dict = json.loads(done.stdout)
    return summary
