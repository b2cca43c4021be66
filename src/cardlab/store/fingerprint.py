"""What decides a stored game's outcome, as a short hash: so that reports never pool the games of
different rules, card data, agents or engines unasked.

The fingerprint hashes the agent spec, the engine, and the source and data files of the code that
plays the game: the game's own package, the core protocol, the agents, the match loop; the compiled
engines (`fast/` in the game's package, and the compiled pieces the games share: `cardlab/fast/`, the
search step and the random numbers) only when a kernel plays it. Any edit there (a rule fixed, a card
changed, a heuristic retuned, even a comment) gives a new fingerprint; an upgrade that changes none of
them keeps it.
"""

from __future__ import annotations

import hashlib
import sys
from functools import cache
from importlib.metadata import version
from pathlib import Path

from cardlab.games import game_class

_ROOT = Path(__file__).resolve().parents[1]
_SHARED = ("core", "agents", "sim/match.py")
_SHARED_COMPILED = _ROOT / "fast"
_SUFFIXES = (".py", ".json", ".toml")


def cardlab_version() -> str:
    return version("cardlab")


@cache
def _code_digest(game: str, kernel: bool) -> str:
    module = sys.modules[game_class(game).__module__]
    package = Path(module.__file__ or "").resolve().parent  # the game's own package, wherever it lives
    compiled = package / "fast"  # the game's compiled engines decide only the games they play
    digest = hashlib.sha256()
    shared = [_ROOT / part for part in _SHARED] + ([_SHARED_COMPILED] if kernel else [])
    for path in [*shared, package]:
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.suffix in _SUFFIXES)
        files = [file for file in files if kernel or not file.is_relative_to(compiled)]
        for file in files:
            digest.update(file.relative_to(path.parent).as_posix().encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()


def fingerprint(game: str, agents: str, engine: str) -> str:
    """16 hex digits naming the code, agents and engine that decide a game's outcome."""
    digest = hashlib.sha256(f"{_code_digest(game, engine != 'reference')}|{agents}|{engine}".encode())
    return digest.hexdigest()[:16]
