"""The README's test command on a fresh clone with a cold numba cache: its wall time, and which tests cost what.

Clones the committed HEAD into a temporary folder, runs the README's second command there as a user would
(`python3 -m venv .venv && .venv/bin/pip install ... && .venv/bin/python -m pytest`), with
`PYTEST_ADDOPTS=--durations=0` so that the command's text is unchanged, and reads what pytest printed: the
kernels' warm-up, the tests' closing line, and every test's setup/call/teardown seconds. A fresh clone has no
numba cache (it lies beside the sources), so every kernel compiles as on a new machine. The wall time is the
whole command (install included, pip's wheel cache being warm), and pytest's own time apart.
Writes the `suite` section of BENCHMARKS.md: the wall times, then the test files by their summed seconds (on
xdist workers those add up to more than the wall time) and the slowest tests.
Run: `python benchmarks/bench_suite.py [--repeats N] [--log FILE]`.
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import statistics
import subprocess
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from _report import machine, write_section

ROOT = Path(__file__).resolve().parents[1]
DURATION = re.compile(r"^([\d.]+)s (setup|call|teardown)\s+(\S+)$", re.M)
CLOSING = re.compile(r"=+ (.*\b(?:passed|failed)\b.*) in ([\d.]+)s")
WARMED = re.compile(r"kernels compiled or loaded in (\d+) s")


def readme_test_command() -> str:
    """The README's second command: the whole test suite."""
    block = ROOT.joinpath("README.md").read_text().split("```bash\n", 1)[1].split("```", 1)[0]
    return block.strip().splitlines()[1]


def one_run(command: str) -> tuple[float, int, str]:
    """The command's wall seconds, exit status and output (pytest's first, then pip's warnings) on a fresh
    clone of HEAD."""
    with tempfile.TemporaryDirectory() as folder:
        clone = Path(folder, "cardlab")
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        env = {**os.environ, "PYTEST_ADDOPTS": "--durations=0 --durations-min=0.5"}
        env.pop("NUMBA_CACHE_DIR", None)
        start = time.perf_counter()
        done = subprocess.run(["bash", "-c", command], cwd=clone, env=env, capture_output=True, text=True)
        wall = time.perf_counter() - start
    return wall, done.returncode, done.stdout + done.stderr


def summary(walls: list[float], output: str, command: str, runs: int) -> str:
    """The BENCHMARKS.md section: wall times, then the files and tests that cost most (from the last run)."""
    closing = CLOSING.findall(output)
    counts, pytest_seconds = closing[-1] if closing else ("?", "nan")
    warmed = WARMED.search(output)
    per_file: dict[str, float] = defaultdict(float)
    per_test: dict[str, float] = defaultdict(float)
    for seconds, _, test in DURATION.findall(output):
        per_file[test.split("::", 1)[0]] += float(seconds)
        per_test[test] += float(seconds)
    total = sum(per_file.values())
    lines = [
        f"## The test suite on a fresh clone (`bench_suite.py`, {datetime.date.today()})",
        "",
        f"`{command}` on a fresh clone of HEAD, cold numba cache, {machine()}; {runs} run(s), median shown.",
        "",
        "| whole command (install included) | pytest | kernel warm-up | tests |",
        "|---|---|---|---|",
        f"| {statistics.median(walls) / 60:.1f} min | {float(pytest_seconds) / 60:.1f} min | "
        f"{warmed.group(1) + ' s' if warmed else 'none'} | {counts} |",
        "",
        f"Test files by seconds spent in them (tests of 0.5 s or more, summed over the workers: {total:.0f} s):",
        "",
        "| file | seconds | share |",
        "|---|---|---|",
        *(
            f"| `{name}` | {seconds:.0f} | {100 * seconds / total:.0f}% |"
            for name, seconds in sorted(per_file.items(), key=lambda item: -item[1])[:20]
        ),
        "",
        "The slowest tests:",
        "",
        "| test | seconds |",
        "|---|---|",
        *(
            f"| `{name}` | {seconds:.1f} |"
            for name, seconds in sorted(per_test.items(), key=lambda item: -item[1])[:15]
        ),
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1, help="fresh-clone runs (the median is kept)")
    parser.add_argument("--log", type=Path, help="also write the last run's output here")
    args = parser.parse_args()
    command = readme_test_command()
    walls, output = [], ""
    for _ in range(args.repeats):
        wall, status, output = one_run(command)
        if args.log:
            args.log.write_text(output)
        if status != 0:
            pytest_part = output.split("\nWARNING: ", 1)[0]
            raise SystemExit(f"the test command failed (exit {status}):\n{pytest_part[-6000:]}")
        walls.append(wall)
        print(f"{wall / 60:.1f} min")
    write_section("suite", summary(walls, output, command, args.repeats))
    print("wrote BENCHMARKS.md section 'suite'")


if __name__ == "__main__":
    main()
