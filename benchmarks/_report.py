"""Shared by the benchmark scripts: machine facts and section-wise BENCHMARKS.md updates."""

from __future__ import annotations

import os
import platform
import re
import statistics
import time
from collections.abc import Callable
from pathlib import Path

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
