"""A stored game's fingerprint follows the code that played it: a game's compiled engines (`fast/` in its
package, and every file they are built from, as numba's cache guard counts them) count only for the games
a kernel played."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardlab.core.sources import imported_sources
from cardlab.games import game_class, game_names
from cardlab.store import fingerprint as fp


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A cardlab tree on disk (standing for the real one) holding a game package with a rules module and a
    compiled engine under `fast/` (`cpu`, which imports its `tables` and the compiled pieces the games
    share, `cardlab/fast/search.py`)."""
    cardlab = tmp_path / "cardlab"
    root = cardlab / "games" / "planted"
    (root / "fast").mkdir(parents=True)
    (root / "__init__.py").write_text("RULES = 1\n", encoding="utf-8")
    (root / "fast" / "cpu.py").write_text(
        "from cardlab.fast.search import C\nfrom .tables import HEADER\n\nKERNEL = 1\n", encoding="utf-8"
    )
    (root / "fast" / "tables.py").write_text("HEADER = 32\n", encoding="utf-8")
    (cardlab / "fast").mkdir()
    (cardlab / "fast" / "search.py").write_text("C = 0.7\n", encoding="utf-8")
    (cardlab / "fast" / "unused.py").write_text("U = 0\n", encoding="utf-8")
    module = types.ModuleType("planted_game")
    module.__file__ = str(root / "__init__.py")
    monkeypatch.setitem(sys.modules, "planted_game", module)
    game = type("PlantedGame", (), {"__module__": "planted_game"})
    monkeypatch.setattr(fp, "game_class", lambda name: game)
    monkeypatch.setattr(fp, "_ROOT", cardlab)
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
    _edit(package.parents[1] / "fast" / "search.py")
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


def test_a_constant_changed_in_tables_changes_only_the_kernel_games_fingerprint(package: Path) -> None:
    """`cpu` compiles in the constants of `tables`: games played before the change must not pool with those
    after, though `cpu.py` itself is unchanged."""
    reference, kernel = fp.fingerprint("planted", "random", "reference"), fp.fingerprint("planted", "random", "cpu")
    _edit(package / "fast" / "tables.py")
    assert fp.fingerprint("planted", "random", "reference") == reference
    assert fp.fingerprint("planted", "random", "cpu") != kernel


def test_the_shared_compiled_files_count_as_the_kernels_import_them(package: Path) -> None:
    """What the kernels count of `cardlab/fast/` is computed from their imports, as the cache guard does: a
    file no kernel imports changes no fingerprint."""
    kernel = fp.fingerprint("planted", "random", "cpu")
    _edit(package.parents[1] / "fast" / "unused.py")
    assert fp.fingerprint("planted", "random", "cpu") == kernel


@pytest.mark.parametrize("game", game_names())
def test_a_kernel_games_fingerprint_counts_every_file_the_cache_guard_counts(game: str) -> None:
    """The fingerprint and numba's cache guard (`flush_stale_cache`) take a kernel's files from one function
    (`imported_sources`): whatever recompiles a kernel of the real tree changes its games' fingerprint."""
    package = Path(sys.modules[game_class(game).__module__].__file__ or "").resolve().parent
    kernel, reference = set(fp.code_files(game, True)), set(fp.code_files(game, False))
    compiled = sorted((package / "fast").glob("*.py"))
    if not compiled:
        pytest.skip(f"{game} has no compiled engines")
    assert fp._ROOT / "fast" / "search.py" in kernel - reference
    for module in compiled:
        assert set(imported_sources(module, fp._ROOT)) <= kernel, module
