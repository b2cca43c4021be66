"""Where the web lab keeps its files and what it lets a visitor do (issue #53, "safe by default"): one lab folder
that every file read and written stays inside, the lab database, the token asked for when the server listens
beyond this machine, and the caps on job size and queue length."""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from pathlib import Path

from cardlab.core.errors import CardlabError
from cardlab.web.manager import Rejected

LOOPBACK = ("127.0.0.1", "localhost", "::1")
"""Hosts that only this machine reaches: the lab asks for no token there."""

TOKEN_COOKIE = "cardlab_lab"
TOKEN_HEADER = "x-lab-token"
MAX_FILE = 14 * 1024
"""A card or deck file the editor saves (the server reads request bodies up to 16 KiB)."""
FILE_SUFFIXES = (".toml",)


@dataclass(frozen=True)
class LabSettings:
    """The lab's folder (`--lab-dir`), database (`--lab-db`, default lab.sqlite in the folder), token (None:
    none asked for, on a loopback host) and caps."""

    lab_dir: Path
    lab_db: Path
    token: str | None = None
    max_job_games: int = 2_000_000
    """The most games one job may ask for (a tune: its --budget plus its confirmation)."""
    max_jobs: int = 4
    """Jobs queued or running at once; another is refused (429) until one ends."""
    python: str | None = None
    """The interpreter a job runs `-m cardlab` under (None: this one)."""

    @property
    def db_in_dir(self) -> bool:
        """Whether the database is the CLI's default for a command run in the lab folder (no --db needed)."""
        return self.lab_db.resolve() == (self.lab_dir.resolve() / "lab.sqlite")

    def token_ok(self, given: str | None) -> bool:
        """Whether `given` is the token (always, where none is asked for); compared in constant time."""
        if self.token is None:
            return True
        return given is not None and hmac.compare_digest(given.encode(), self.token.encode())

    def inside(self, name: str, suffixes: tuple[str, ...] = FILE_SUFFIXES) -> Path:
        """`name` (relative to the lab folder) as a path inside it, however spelled; else a 4xx."""
        return inside(self.lab_dir, name, suffixes)


def inside(root: Path, name: str, suffixes: tuple[str, ...] = FILE_SUFFIXES) -> Path:
    """The file `name` names under `root`: refused (403) when it is absolute, climbs out (`..`, a link that
    points outside) or is not one of `suffixes`; 400 when it is not a plain relative name."""
    if not name or len(name) > 200 or "\x00" in name or "\\" in name:
        raise Rejected(400, "a file is named by a relative path inside the lab folder, at most 200 characters")
    relative = Path(name)
    if relative.is_absolute() or relative.drive or name.startswith("~"):
        raise Rejected(403, f"{name!r} is outside the lab folder: files are named relative to it")
    base = root.resolve()
    resolved = (base / relative).resolve()
    if not resolved.is_relative_to(base) or resolved == base:
        raise Rejected(403, f"{name!r} is outside the lab folder")
    if resolved.suffix not in suffixes:
        raise Rejected(403, f"the lab reads and writes only {', '.join(suffixes)} files, not {name!r}")
    return resolved


def lab_settings(lab_dir: str | None, lab_db: str | None, host: str) -> LabSettings:
    """The settings `cardlab serve` gives the lab: the folder (default the current directory), the database
    (default lab.sqlite in it), and a fresh token where `host` is reachable from other machines."""
    folder = Path(lab_dir or ".").resolve()
    if not folder.is_dir():
        raise CardlabError(f"--lab-dir {lab_dir}: no such folder")
    db = Path(lab_db).resolve() if lab_db else folder / "lab.sqlite"
    token = None if host in LOOPBACK else secrets.token_urlsafe(18)
    return LabSettings(folder, db, token)
