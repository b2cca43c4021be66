"""Aterial's `Kernels` hook: `--engine cpu` plays random games in the numba kernel through the lab (issue #34)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardlab.cli import main
from cardlab.core.errors import CardlabError
from cardlab.games.aterial.game import Aterial
from cardlab.sim.engines import check_engine, kernel_run

pytest.importorskip("numba")


def test_aterial_declares_the_cpu_kernel() -> None:
    kernels = Aterial.kernels()
    assert kernels is not None and kernels.engines == ("cpu",)


def test_the_kernel_refuses_agents_it_cannot_play() -> None:
    with pytest.raises(CardlabError, match="plays the agents \\['random', 'heuristic'\\], not 'ismcts'"):
        check_engine("cpu", "aterial", ("random", "ismcts"), warm=False)


def test_without_numba_the_engine_asks_for_the_fast_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardlab.games.aterial import kernels

    def missing(name: str) -> None:
        raise ImportError(name)

    monkeypatch.setattr(kernels, "import_module", missing)
    with pytest.raises(CardlabError, match="needs the fast extra"):
        check_engine("cpu", "aterial", ("random",), warm=False)


def test_a_run_in_pieces_holds_the_games_of_one_call() -> None:
    """Game i depends on (seed, i) only, and the config's rules reach the kernel."""
    config = Aterial.from_config({"rules": {"deck_out": "empty", "draw_count": "2"}}).config_json()
    kernels = Aterial.kernels()
    assert kernels is not None
    whole = kernels.run(config, ("random", "random"), 60, 5, "cpu")
    pieces = [kernels.run(config, ("random", "random"), 30, 5, "cpu", first) for first in (0, 30)]
    for name in ("winner", "reason", "turns", "decisions"):
        assert list(getattr(whole, name)) == [v for piece in pieces for v in getattr(piece, name)]
    assert set(whole.reasons) == {"lp", "deck_out", "simultaneous_loss"}
    default = kernels.run(Aterial().config_json(), ("random", "random"), 60, 5, "cpu")
    assert list(default.turns) != list(whole.turns)  # two cards a turn and losing on an empty deck: shorter games
    assert sum(whole.turns) < sum(default.turns)


def test_kernel_run_plays_a_designers_card_file(tmp_path: Path) -> None:
    from tests.games.aterial.fast.test_kernel import DESIGNER_CARDS, DESIGNER_DECK

    cards, deck = tmp_path / "cards.toml", tmp_path / "dx.toml"
    cards.write_text(DESIGNER_CARDS, encoding="utf-8")
    deck.write_text(DESIGNER_DECK, encoding="utf-8")
    config = Aterial.from_config({"decks": {"P1": str(deck), "P2": "D1"}, "cards": [str(cards)]}).config_json()
    run = kernel_run("aterial", config, ("random", "random"), 40, 3)
    assert len(run) == 40 and set(run.winner.tolist()) <= {-1, 0, 1}


def test_simulate_on_the_cpu_engine(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "aterial", "--engine", "cpu", "--agents", "random,random", "--games", "200", "--json"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["engine"] == "cpu" and sum(summary["wins"]) + summary["draws"] == 200
    assert summary["decisions"] > 200 * 10


def test_simulate_the_heuristic_on_the_cpu_engine(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "aterial", "--engine", "cpu", "--agents", "heuristic,random", "--games", "100", "--json"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["agents"] == ["heuristic", "random"] and summary["wins"][0] > 80
