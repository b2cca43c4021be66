"""A stored game's fingerprint follows the code that played it: a game's compiled engines (`fast/` in its
package, and the compiled pieces the games share) count only for the games a kernel played."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardlab.store import fingerprint as fp


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A game package on disk with a rules module and a compiled engine under `fast/`, and beside it the
    compiled pieces the games share (`shared_fast/`, standing for `cardlab/fast/`)."""
    root = tmp_path / "game"
    (root / "fast").mkdir(parents=True)
    (root / "__init__.py").write_text("RULES = 1\n", encoding="utf-8")
    (root / "fast" / "cpu.py").write_text("KERNEL = 1\n", encoding="utf-8")
    module = types.ModuleType("planted_game")
    module.__file__ = str(root / "__init__.py")
    monkeypatch.setitem(sys.modules, "planted_game", module)
    game = type("PlantedGame", (), {"__module__": "planted_game"})
    monkeypatch.setattr(fp, "game_class", lambda name: game)
    shared = tmp_path / "shared_fast"
    shared.mkdir()
    (shared / "search.py").write_text("C = 0.7\n", encoding="utf-8")
    monkeypatch.setattr(fp, "_SHARED_COMPILED", shared)
    fp._code_digest.cache_clear()
    yield root
    fp._code_digest.cache_clear()


def _edit(path: Path) -> None:
    path.write_text(path.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    fp._code_digest.cache_clear()


def test_a_kernel_edit_changes_only_the_kernel_games_fingerprint(package: Path) -> None:
    reference, kernel = fp.fingerprint("planted", "random", "reference"), fp.fingerprint("planted", "random", "cpu")
    _edit(package / "fast" / "cpu.py")
    assert fp.fingerprint("planted", "random", "reference") == reference
    assert fp.fingerprint("planted", "random", "cpu") != kernel


def test_an_edit_of_the_shared_compiled_search_changes_only_the_kernel_games_fingerprint(package: Path) -> None:
    """The games' kernels share one search step (`cardlab/fast/search.py`): an edit there changes every kernel
    search game, so kernel games played before it must not pool with those played after."""
    reference, kernel = fp.fingerprint("planted", "random", "reference"), fp.fingerprint("planted", "random", "cpu")
    _edit(package.parent / "shared_fast" / "search.py")
    assert fp.fingerprint("planted", "random", "reference") == reference
    assert fp.fingerprint("planted", "random", "cpu") != kernel


def test_a_rules_edit_changes_both(package: Path) -> None:
    reference, kernel = fp.fingerprint("planted", "random", "reference"), fp.fingerprint("planted", "random", "cpu")
    _edit(package / "__init__.py")
    assert fp.fingerprint("planted", "random", "reference") != reference
    assert fp.fingerprint("planted", "random", "cpu") != kernel


def test_the_agents_and_the_engine_are_part_of_it(package: Path) -> None:
    """Games of two agents (or engines) on the same code must never pool in one report."""
    base = fp.fingerprint("planted", "random", "reference")
    assert fp.fingerprint("planted", "heuristic", "reference") != base
    assert fp.fingerprint("planted", "random", "cpu") != base
    assert fp.fingerprint("planted", "random", "reference") == base


def test_a_card_data_edit_changes_it(package: Path) -> None:
    """Card files (`data/*.json`) decide outcomes as much as the rules' code does."""
    (package / "data").mkdir()
    (package / "data" / "cards.json").write_text('{"attack": 1}\n', encoding="utf-8")
    fp._code_digest.cache_clear()
    reference = fp.fingerprint("planted", "random", "reference")
    _edit(package / "data" / "cards.json")
    assert fp.fingerprint("planted", "random", "reference") != reference
