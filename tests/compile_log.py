"""Which test compiles which numba kernel, and for how long: the data behind the suite's compile budget.

A cold-cache suite spends much of its time compiling kernels (issue #50); the warm-up
(`tests/kernel_warmup.py`) compiles what a table runs, but a test that calls another entry point, or the
same one with other argument types, compiles it in its worker. With ``CARDLAB_COMPILE_LOG=FILE`` every
pytest process appends one JSON line per numba compile to FILE: the process, the test running, the
function, its nesting depth (a callee compiled for its caller is depth 1 and more), and the CPU and wall
seconds. `benchmarks/bench_suite.py --compile-log` sums them per test and per function.
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest


class CompileRecorder:
    """A pytest plugin and a numba event listener at once: it knows the running test and hears compiles."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.test = ""
        self._local = threading.local()
        self._lock = threading.Lock()

    def pytest_runtest_protocol(self, item: pytest.Item) -> None:
        self.test = item.nodeid

    def on_start(self, event: Any) -> None:
        stack = self._local.__dict__.setdefault("stack", [])
        stack.append((time.process_time(), time.perf_counter()))

    def on_end(self, event: Any) -> None:
        stack = self._local.__dict__.setdefault("stack", [])
        if not stack:
            return
        cpu, wall = stack.pop()
        function = event.data["dispatcher"].py_func
        line = {
            "pid": os.getpid(),
            "test": self.test,
            "function": f"{function.__module__}.{function.__qualname__}",
            "depth": len(stack),
            "cpu_s": round(time.process_time() - cpu, 3),
            "wall_s": round(time.perf_counter() - wall, 3),
        }
        with self._lock, self.path.open("a", encoding="utf-8") as log:
            log.write(json.dumps(line) + "\n")


def listen(test: str) -> CompileRecorder | None:
    """Start recording into CARDLAB_COMPILE_LOG, when set and numba is installed, with `test` as the label
    until a test starts (the warm-up's processes keep theirs)."""
    target = os.environ.get("CARDLAB_COMPILE_LOG")
    if not target:
        return None
    try:
        from numba.core import event
    except ImportError:
        return None

    recorder = CompileRecorder(Path(target))
    recorder.test = test

    class _Listener(event.Listener):  # numba asks for its own base class
        def on_start(self, ev: event.Event) -> None:
            recorder.on_start(ev)

        def on_end(self, ev: event.Event) -> None:
            recorder.on_end(ev)

    event.register("numba:compile", _Listener())
    return recorder


def install(config: pytest.Config) -> None:
    """Record this pytest process's compiles, each under the test that ran it."""
    recorder = listen("(collection)")
    if recorder is not None:
        config.pluginmanager.register(recorder, "cardlab-compile-log")
