"""What decides a stored game's outcome, as a short hash: so that reports never pool the games of
different rules, card data, agents or engines unasked.

The fingerprint hashes the agent spec, the engine, and the source and data files of the code that
plays the game: the game's own package, the core protocol, the agents, the match loop; the compiled
engines (`fast/` in the game's package, and every file they are built from: the compiled pieces the
games share in `cardlab/fast/`, the search step and the random numbers, and the modules they take
constants from) only when a kernel plays it. Those are the files numba's cache guard counts
(`core.sources.imported_sources`), so a change that recompiles a kernel also changes its games'
fingerprint. Any edit there (a rule fixed, a card changed, a heuristic retuned, even a comment) gives a
new fingerprint; an upgrade that changes none of them keeps it.
"""

from __future__ import annotations

import hashlib
import sys
from functools import cache
from importlib.metadata import version
from pathlib import Path

from cardlab.core.sources import imported_sources
from cardlab.games import game_class

_ROOT = Path(__file__).resolve().parents[1]
_SHARED = ("core", "agents", "sim/match.py")
_SUFFIXES = (".py", ".json", ".toml")


def cardlab_version() -> str:
    return version("cardlab")


def code_files(game: str, kernel: bool) -> list[Path]:
    """The files whose contents decide `game`'s outcomes, sorted; with `kernel`, also those its compiled
    engines are built from (theirs and what they import, as the cache guard counts them)."""
    module = sys.modules[game_class(game).__module__]
    package = Path(module.__file__ or "").resolve().parent  # the game's own package, wherever it lives
    compiled = package / "fast"  # the game's compiled engines decide only the games they play
    files: set[Path] = set()
    for path in [*(_ROOT / part for part in _SHARED), package]:
        files.update([path] if path.is_file() else (p for p in path.rglob("*") if p.suffix in _SUFFIXES))
    if not kernel:
        return sorted(file for file in files if not file.is_relative_to(compiled))
    for source in sorted(compiled.rglob("*.py")):
        files.update(imported_sources(source, _ROOT))
    return sorted(files)


@cache
def _code_digest(game: str, kernel: bool) -> str:
    package = Path(sys.modules[game_class(game).__module__].__file__ or "").resolve().parent
    digest = hashlib.sha256()
    for file in code_files(game, kernel):
        base = _ROOT.parent if file.is_relative_to(_ROOT) else package.parent
        digest.update(file.relative_to(base).as_posix().encode())
        digest.update(file.read_bytes())
    return digest.hexdigest()


def fingerprint(game: str, agents: str, engine: str) -> str:
    """16 hex digits naming the code, agents and engine that decide a game's outcome."""
    digest = hashlib.sha256(f"{_code_digest(game, engine != 'reference')}|{agents}|{engine}".encode())
    return digest.hexdigest()[:16]
