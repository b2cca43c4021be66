"""Start and stop of long runs (issue #33, item 5): a kernel run is played in pieces that hold exactly the
games of one call; Ctrl-C stops it after the piece in flight, keeps what finished and says one line; the
same command then finishes the table. The last tests send SIGINT to real `cardlab` processes, as Ctrl-C
at a terminal does (to the whole process group): their limits are hang guards, not speed claims."""

from __future__ import annotations

import json
import os
import queue
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardlab.cli import main
from cardlab.core.plugin import KernelGame, KernelRun
from cardlab.games.edelweiss.config import EdelweissConfig
from cardlab.sim import engines
from cardlab.sim.interrupt import Interrupted, held, wait_for

COLUMNS = ("winner", "reason", "turns", "decisions")
SEARCH = "ismcts:iterations=5:backend=cpu"
POSIX = pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT as a terminal sends it")


@pytest.fixture(autouse=True)
def _ctrl_c_as_at_a_terminal() -> Any:
    """SIGINT handled as in an interactive Python, for this file's tests and the processes they start (exec resets a
    handled signal to its default, where an ignored one stays ignored): a shell running the suite in the
    background (`cmd &`) hands SIGINT down ignored, and `held` then rightly does nothing."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def _same_games(a: KernelRun, b: KernelRun) -> bool:
    return all(np.array_equal(getattr(a, name), getattr(b, name)) for name in COLUMNS) and a.reasons == b.reasons


def _fixed_pieces(monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    monkeypatch.setattr(engines, "piece_sizes", lambda fixed: lambda rate: size)


@pytest.mark.parametrize(("agents", "games"), [(("heuristic", "random"), 3000), ((SEARCH, "heuristic"), 40)])
def test_a_kernel_run_in_pieces_holds_the_games_of_one_call(
    monkeypatch: pytest.MonkeyPatch, agents: tuple[str, str], games: int
) -> None:
    pytest.importorskip("numba")
    from cardlab.games.edelweiss.kernels import EdelweissKernels

    config = EdelweissConfig("skills", "accel2", ("ACCELA", "EAGLE")).to_json()
    whole = EdelweissKernels().run(config, agents, games, 11, "cpu")
    heard: list[int] = []
    _fixed_pieces(monkeypatch, games // 7)  # 8 pieces, the last one short
    pieces = engines.kernel_run("edelweiss", config, agents, games, 11, "cpu", advance=heard.append)
    assert _same_games(pieces, whole) and heard == [games // 7] * 7 + [games - 7 * (games // 7)]
    assert sum(pieces.seat_decisions) == int(whole.decisions.sum())
    tail = EdelweissKernels().run(config, agents, 10, 11, "cpu", first=games - 10)  # game i depends on (seed, i)
    assert all(np.array_equal(getattr(tail, name), getattr(whole, name)[-10:]) for name in COLUMNS)


def test_pieces_keep_every_kernel_thread_busy_however_slow_the_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """A piece of about a second is a multiple of the kernel's threads with `GAMES_PER_THREAD` games each at
    least: under the Dreadnought search (0.75 games a second on two cores) it was one game, and one core played
    the whole table; with one game a thread, a thread waited for the other's longer game."""
    monkeypatch.setattr(engines, "kernel_threads", lambda: 4)
    size = engines.piece_sizes(None)
    assert size(0.0) == engines.FIRST_PIECE
    floor = 4 * engines.GAMES_PER_THREAD
    assert [size(rate) for rate in (0.75, 9.0, 40.0, 1000.0)] == [floor, floor, 40, 640]  # 640: 16 times the last
    assert engines.piece_sizes(7)(0.75) == 7  # a kernel's own size (JAX) is kept


def test_runs_join_in_order_with_decision_times_weighted_by_decisions() -> None:
    a = KernelRun.of_games([KernelGame(0, "attack", 9, 10)] * 2, (1.0, 2.0), (10, 10))
    b = KernelRun.of_games([KernelGame(1, "deck_out", 12, 30), KernelGame(-1, "attack", 5, 4)], (4.0, 2.0), (30, 4))
    joined = KernelRun.joined([a, b])
    assert [(g.winner, g.reason, g.turns) for g in joined.games] == [
        (0, "attack", 9), (0, "attack", 9), (1, "deck_out", 12), (-1, "attack", 5),
    ]  # fmt: skip
    assert joined.seat_decisions == (40, 14) and joined.decision_ms == (pytest.approx(3.25), pytest.approx(2.0))


def test_ctrl_c_in_a_kernel_run_stops_it_after_the_piece_in_flight_with_the_games_it_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """SIGINT while a piece runs is only noted (numba would turn a KeyboardInterrupt raised while it boxes
    its results into a SystemError traceback); the run stops after that piece, its games in `finished`."""
    pytest.importorskip("numba")
    config = EdelweissConfig("full").to_json()
    whole = engines.kernel_run("edelweiss", config, ("heuristic", "random"), 500, 3, "cpu")
    _fixed_pieces(monkeypatch, 100)
    real = engines._kernels("edelweiss", "cpu").run
    calls = [0]

    def run(*args: Any, **kwargs: Any) -> KernelRun:
        calls[0] += 1
        if calls[0] == 2:  # Ctrl-C lands while the second piece plays
            signal.raise_signal(signal.SIGINT)
        return real(*args, **kwargs)

    kernels = engines._kernels("edelweiss", "cpu")
    monkeypatch.setattr(type(kernels), "run", lambda self, *args, **kwargs: run(*args, **kwargs))
    with pytest.raises(Interrupted) as stopped:
        engines.kernel_run("edelweiss", config, ("heuristic", "random"), 500, 3, "cpu")
    finished = stopped.value.finished
    assert calls[0] == 2 and len(finished) == 200
    assert all(np.array_equal(getattr(finished, name), getattr(whole, name)[:200]) for name in COLUMNS)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # the hold is over


def test_a_hold_notes_ctrl_c_instead_of_raising_it() -> None:
    with held() as hold:
        signal.raise_signal(signal.SIGINT)
        with held() as inner:  # nested holds share the note
            assert inner is hold
    assert hold.requested
    with pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)


def test_waiting_for_results_stops_at_a_noted_ctrl_c_even_when_they_come_at_once() -> None:
    """Worker results are waited for a tenth of a second at a time; a Ctrl-C noted meanwhile stops the run
    before the next wait, also when every result is ready (no wait ever times out)."""
    calls: list[float] = []

    def ready(timeout: float) -> int:
        calls.append(timeout)
        return 42

    with held():
        assert wait_for(ready, TimeoutError) == 42
        signal.raise_signal(signal.SIGINT)
        with pytest.raises(Interrupted):
            wait_for(ready, TimeoutError)
    assert calls == [0.1]


def _interrupt_at_piece(monkeypatch: pytest.MonkeyPatch, piece: int) -> None:
    """Ctrl-C (a real SIGINT) while the kernel plays its `piece`-th piece of the run."""
    from cardlab.games.edelweiss.kernels import EdelweissKernels

    real = EdelweissKernels.run
    calls = [0]

    def run(self: EdelweissKernels, *args: Any, **kwargs: Any) -> KernelRun:
        calls[0] += 1
        if calls[0] == piece:
            signal.raise_signal(signal.SIGINT)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(EdelweissKernels, "run", run)


def test_an_interrupted_kernel_table_keeps_the_batch_it_was_playing_and_the_same_command_finishes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("numba")
    argv = ["balance", "edelweiss", "--standard", "accel2", "--agent", "heuristic", "--games", "20", "--engine", "cpu"]
    whole, split = tmp_path / "whole", tmp_path / "split"
    assert main([*argv, "--db", str(whole / "lab.sqlite"), "--out", str(whole / "out")]) == 0
    capsys.readouterr()
    with monkeypatch.context() as patch:
        _fixed_pieces(patch, 7)  # 3 pieces a batch: 7 + 7 + 6
        _interrupt_at_piece(patch, 5)  # the second piece of the second batch
        assert main([*argv, "--db", str(split / "lab.sqlite"), "--out", str(split / "out")]) == 130
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if "interrupted" in line] == [
        f"interrupted: every finished game is stored in {split / 'lab.sqlite'} (34 this time); "
        "run the command again to finish"
    ]
    with sqlite3.connect(split / "lab.sqlite") as conn:
        assert conn.execute("SELECT count FROM batches ORDER BY id").fetchall() == [(20,), (14,)]
    assert main([*argv, "--db", str(split / "lab.sqlite"), "--out", str(split / "out")]) == 0
    assert "resuming an interrupted run" in capsys.readouterr().out
    with sqlite3.connect(split / "lab.sqlite") as conn:  # the part-played batch grew: one row per cell and seat
        assert conn.execute("SELECT COUNT(*), SUM(count), MIN(count) FROM batches").fetchone() == (30, 600, 20)
    finished, uninterrupted = (json.loads((d / "out" / "summary.json").read_text()) for d in (split, whole))
    assert finished == uninterrupted and finished["total_games"] == 600


# -- real processes, real SIGINT ---------------------------------------------------------------


def _interrupted_run(
    argv: list[str], ready: Callable[[str], bool], env: dict[str, str] | None = None
) -> tuple[int, list[str], list[str], float]:
    """Start `cardlab ARGV` in a process group of its own, send SIGINT to the group (as Ctrl-C at a
    terminal does) once an output line is `ready`, and return its exit status, the lines before and
    after the signal, and the seconds from the signal to its exit."""
    process = subprocess.Popen(
        [sys.executable, "-m", "cardlab", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        env={**os.environ, **(env or {})},
    )
    assert process.stdout is not None
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    before: list[str] = []
    try:
        while True:
            line = lines.get(timeout=900)  # a hang guard: the first run on a machine compiles the search
            assert line is not None, f"ended before the signal: {before}"
            before.append(line)
            if ready(line):
                break
        os.killpg(process.pid, signal.SIGINT)
        sent = time.monotonic()
        status = process.wait(timeout=60)  # a hang guard, not a speed claim
        seconds = time.monotonic() - sent
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    after = []
    while (line := lines.get(timeout=10)) is not None:
        after.append(line)
    print(f"{argv[:2]}: exit {status} {seconds:.2f} s after SIGINT")  # the real latency, for the record
    return status, before, after, seconds


def _progress_line(line: str) -> bool:
    return " games, " in line and "/" in line  # the plain progress line, printed when the first batch is back


@POSIX
def test_ctrl_c_stops_a_compiled_search_table_with_one_line_and_the_same_command_finishes_it(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    argv = ["balance", "edelweiss", "--games", "40", "--agent", "ismcts:iterations=30:backend=cpu"]
    argv += ["--db", str(tmp_path / "lab.sqlite"), "--out", str(tmp_path / "out")]
    status, before, after, _ = _interrupted_run(argv, _progress_line)
    assert before[0].startswith("balance edelweiss symbolic: 15 pairings x 2 seats x 40 new games by ismcts")
    assert before[1].startswith("on the cpu kernel")  # and whether the search is compiled first
    assert status == 130 and len(after) == 1 and after[0].startswith("interrupted: every finished game is stored in")
    assert "Traceback" not in "\n".join(before + after)
    with sqlite3.connect(tmp_path / "lab.sqlite") as conn:
        kept = conn.execute("SELECT COALESCE(SUM(count), 0) FROM batches").fetchone()[0]
    assert 0 < kept < 1200
    assert main(argv) == 0
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["total_games"] == 1200 and summary["games_per_cell"] == 40


@POSIX
def test_ctrl_c_stops_a_kernel_simulation_with_one_line(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    argv = ["simulate", "edelweiss", "--engine", "cpu", "--agents", "heuristic,random", "--games", "1000000000"]
    status, before, after, _ = _interrupted_run(argv, _progress_line)
    assert status == 130 and after == ["interrupted: simulate keeps no games; nothing was stored"]
    assert "Traceback" not in "\n".join(before)


@POSIX
def test_ctrl_c_stops_the_worker_processes_of_a_reference_table_and_the_same_command_finishes_it(
    tmp_path: Path,
) -> None:
    """The workers hear the Ctrl-C too (it reaches the process group): they ignore it and the parent ends
    them, so no worker prints a traceback."""
    argv = ["balance", "edelweiss", "--standard", "accel2", "--agent", "heuristic", "--engine", "reference"]
    argv += ["--games", "40", "--workers", "2", "--db", str(tmp_path / "lab.sqlite"), "--out", str(tmp_path / "out")]
    status, before, after, _ = _interrupted_run(argv, _progress_line)
    assert status == 130 and len(after) == 1 and after[0].startswith("interrupted: every finished game is stored in")
    assert "Traceback" not in "\n".join(before + after)
    with sqlite3.connect(tmp_path / "lab.sqlite") as conn:
        assert 0 < conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] < 1200
    assert main(argv) == 0
    assert json.loads((tmp_path / "out" / "summary.json").read_text())["total_games"] == 1200


@POSIX
def test_ctrl_c_while_the_kernel_compiles_ends_the_run_at_once_with_one_line(tmp_path: Path) -> None:
    """A fresh numba cache: the kernel compiles (seconds to minutes), and Ctrl-C ends that at once."""
    pytest.importorskip("numba")
    argv = ["simulate", "edelweiss", "--engine", "cpu", "--agents", "heuristic,random", "--games", "100"]
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    status, before, after, _ = _interrupted_run(argv, lambda line: "compiling the kernel first" in line, env)
    assert before == [
        "simulate edelweiss: heuristic vs random, 100 games",
        "on the cpu kernel: compiling the kernel first (seconds, once per machine: numba caches it)",
    ]
    assert status == 130 and after == ["interrupted while compiling the kernel; nothing was played"]


@POSIX
def test_ctrl_c_stops_a_reference_table_on_ray_with_one_line(tmp_path: Path) -> None:
    """The Ray backend (a local cluster started by the command): Ctrl-C comes between two results, the
    finished games are stored, and the cluster is shut down as the process ends."""
    pytest.importorskip("ray")
    argv = ["balance", "edelweiss", "--standard", "accel2", "--agent", "heuristic", "--engine", "reference"]
    argv += ["--games", "100", "--workers", "2", "--backend", "ray"]
    argv += ["--db", str(tmp_path / "lab.sqlite"), "--out", str(tmp_path / "out")]
    status, before, after, _ = _interrupted_run(argv, _progress_line)
    assert status == 130 and len(after) == 1 and after[0].startswith("interrupted: every finished game is stored in")
    assert "Traceback" not in "\n".join(before + after)
    with sqlite3.connect(tmp_path / "lab.sqlite") as conn:
        assert 0 < conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] < 3000


@POSIX
def test_a_pool_worker_cannot_hear_ctrl_c_even_before_its_initializer_runs() -> None:
    """The pool starts workers as chunks are submitted, so Ctrl-C can come while one is still importing, before
    its initializer ignores SIGINT; it then died of the KeyboardInterrupt and the table ended in
    BrokenProcessPool and exit status 1 (1 interrupted run in 30 under load). The fork server hands every
    worker SIGINT ignored, and leaves it handled here."""
    from concurrent.futures import ProcessPoolExecutor

    from cardlab.sim.tournament import _worker_context

    with ProcessPoolExecutor(1, _worker_context()) as pool:  # no initializer: the worker as it is forked
        assert pool.submit(signal.getsignal, signal.SIGINT).result() == signal.SIG_IGN
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # the fixture's, as at a terminal
