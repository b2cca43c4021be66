"""The lab's job queue: each job is the CLI command its form stands for, run as `python -m cardlab ...` in the
lab folder by one worker thread, one job at a time, outside the server's request threads and process (so that
a compiled kernel holding its process never stalls play). Cancelling sends the job Ctrl-C (SIGINT): the command
keeps every finished game, exactly as at a terminal; resuming runs the same command again, which finishes the
interrupted run. Progress is read from outside: a balance job's table in the database, any job's progress lines."""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from cardlab.store.catalog import table_games
from cardlab.web.lab.commands import command_line
from cardlab.web.lab.settings import LabSettings
from cardlab.web.manager import Rejected

PROGRESS = re.compile(r"^(?P<label>.*): (?P<done>[\d,]+)/(?P<total>[\d,]+) games")
"""A plain progress line of the CLI (`sim/progress.py`): 'label: 12/60 games, 5.3 games/s, ETA 9 s'."""
ACTIVE = ("queued", "running", "cancelling")

LOG_LINES = 400
POLL = 0.25


def _ctrl_c_as_default() -> None:
    """In the job's process before it runs: Ctrl-C as a terminal gives it. A server started with SIGINT ignored
    (under nohup, in a test worker) would pass that on, its jobs' Python would never turn the lab's Ctrl-C into
    KeyboardInterrupt, and a cancelled job would play on to its end."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@dataclass
class Job:
    """One command run by the lab, and what is known of its progress."""

    id: int
    argv: list[str]
    games: int
    """The games it asks for at most (its plan; a resumed job: what its first run left)."""
    table: dict[str, str] | None
    resumes: int | None = None
    state: str = "queued"
    created: float = field(default_factory=time.time)
    started: float | None = None
    ended: float | None = None
    done: int = 0
    baseline: int = 0
    phase: str = ""
    first_game: float | None = None
    returncode: int | None = None
    log: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    proc: subprocess.Popen[str] | None = None
    cancel: bool = False
    phases: dict[str, int] = field(default_factory=dict)
    """Games done per progress label (a sweep plays one label per variant)."""

    @property
    def rate(self) -> float:
        """Games per second since the first game was seen (the start, imports and compiling, left out)."""
        if self.first_game is None or self.done <= 0:
            return 0.0
        elapsed = (self.ended or time.time()) - self.first_game
        return self.done / elapsed if elapsed > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        rate = self.rate
        left = max(0, self.games - self.done)
        return {
            "id": self.id, "command": command_line(self.argv), "argv": self.argv, "state": self.state,
            "table": self.table, "games": self.games, "done": self.done, "rate": rate,
            "eta": left / rate if rate and self.state == "running" else None, "phase": self.phase,
            "resumes": self.resumes, "returncode": self.returncode, "created": self.created,
            "started": self.started, "ended": self.ended, "log": list(self.log)[-60:],
            "resumable": self.state in ("cancelled", "failed", "interrupted"),
        }  # fmt: skip


class JobQueue:
    """Jobs in order, run one at a time by a worker thread; at most `settings.max_jobs` queued or running."""

    def __init__(self, settings: LabSettings) -> None:
        self.settings = settings
        self.jobs: dict[int, Job] = {}
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._closed = False
        self._worker: threading.Thread | None = None  # started by the first job: most apps never run one

    def submit(self, argv: list[str], games: int, table: dict[str, str] | None, resumes: int | None = None) -> Job:
        with self._lock:
            active = sum(job.state in ACTIVE for job in self.jobs.values())
            if active >= self.settings.max_jobs:
                raise Rejected(
                    429, f"{active} lab jobs are queued or running, the most the lab takes; try once one ends"
                )
            job = Job(next(self._ids), list(argv), games, table, resumes)
            self.jobs[job.id] = job
            if self._worker is None:
                self._worker = threading.Thread(target=self._work, name="cardlab-lab-jobs", daemon=True)
                self._worker.start()
            self._wake.notify_all()
        return job

    def get(self, job_id: int) -> Job:
        job = self.jobs.get(job_id)
        if job is None:
            raise Rejected(404, f"no lab job {job_id}")
        return job

    def cancel(self, job_id: int) -> Job:
        """A queued job is dropped; a running one gets Ctrl-C and keeps every finished game."""
        with self._lock:
            job = self.get(job_id)
            if job.state == "queued":
                job.state, job.ended = "cancelled", time.time()
            elif job.state == "running":
                job.cancel, job.state = True, "cancelling"
                if job.proc is not None and job.proc.poll() is None:
                    job.proc.send_signal(signal.SIGINT)
            elif job.state != "cancelling":
                raise Rejected(409, f"lab job {job_id} is {job.state}: there is nothing to cancel")
        return job

    def resume(self, job_id: int) -> Job:
        """The same command again: it finishes what the cancelled or failed run left (its stored games stay)."""
        job = self.get(job_id)
        if job.state in ACTIVE or job.state == "done":
            raise Rejected(409, f"lab job {job_id} is {job.state}: only a cancelled or failed job is resumed")
        return self.submit(job.argv, max(0, job.games - job.done), job.table, job.id)

    def close(self) -> None:
        """On shutdown: the running job gets Ctrl-C (its finished games are kept) and a few seconds to store them."""
        with self._lock:
            self._closed = True
            self._wake.notify_all()
            running = [job for job in self.jobs.values() if job.proc is not None and job.proc.poll() is None]
        for job in running:
            assert job.proc is not None
            job.cancel = True
            job.proc.send_signal(signal.SIGINT)
            try:
                job.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                job.proc.kill()

    def _next(self) -> Job | None:
        with self._lock:
            while not self._closed:
                queued = [job for job in self.jobs.values() if job.state == "queued"]
                if queued:
                    job = min(queued, key=lambda j: j.id)
                    job.state, job.started = "running", time.time()
                    return job
                self._wake.wait()
        return None

    def _work(self) -> None:
        while (job := self._next()) is not None:
            try:
                self._run(job)
            except Exception as exc:  # a job that cannot start: said in its log, the queue goes on
                job.log.append(f"lab: the job could not run: {exc}")
                job.state, job.ended = "failed", time.time()

    def _count(self, job: Job) -> int:
        if job.table is None:
            return 0
        return table_games(self.settings.lab_db, job.table["game"], job.table["variant"], job.table["agent"])

    def _run(self, job: Job) -> None:
        job.baseline = self._count(job)
        python = self.settings.python or sys.executable
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "160", "NO_COLOR": "1"}
        job.proc = subprocess.Popen(
            [python, "-m", "cardlab", *job.argv], cwd=self.settings.lab_dir, env=env, stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace",
            start_new_session=True,  # Ctrl-C at the server's terminal is the server's; the lab sends its own
            preexec_fn=_ctrl_c_as_default,
        )  # fmt: skip
        with contextlib.suppress(OSError):  # played at a lower priority than the people playing
            os.setpriority(os.PRIO_PROCESS, job.proc.pid, 10)
        if job.cancel:  # cancelled while it started
            job.proc.send_signal(signal.SIGINT)
        readers = [threading.Thread(target=self._read, args=(job, stream), daemon=True)
                   for stream in (job.proc.stdout, job.proc.stderr)]  # fmt: skip
        for reader in readers:
            reader.start()
        while job.proc.poll() is None:
            self._observe(job)
            time.sleep(POLL)
        for reader in readers:
            reader.join(timeout=5)
        self._observe(job)
        job.returncode, job.ended = job.proc.returncode, time.time()
        if job.returncode == 0:
            job.state = "done"
        elif job.cancel or job.returncode == 130:
            job.state = "cancelled"
        else:
            job.state = "failed"

    def _observe(self, job: Job) -> None:
        """Games done: a balance job's new stored games, else its latest progress line."""
        if job.table is not None:
            done = self._count(job) - job.baseline
            if done > job.done:
                job.done = done
        if job.done and job.first_game is None:
            job.first_game = time.time()

    def _read(self, job: Job, stream: Any) -> None:
        for line in stream:
            text = line.rstrip()
            if not text:
                continue
            job.log.append(text)
            match = PROGRESS.match(text)
            if match:
                job.phase = match["label"]
                done = int(match["done"].replace(",", ""))
                job.phases[job.phase] = done
                if job.table is None:
                    job.done = sum(job.phases.values())
                if job.first_game is None and done:
                    job.first_game = time.time()
