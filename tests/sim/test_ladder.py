"""`cardlab ladder`: every pair on common deals, the win matrix, Bradley-Terry ratings and decision cost."""

from __future__ import annotations

import json
import math
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from cardlab.cli import main
from cardlab.core.rng import derive_seed
from cardlab.sim import engines
from cardlab.sim.engines import KernelGame, KernelRun
from cardlab.sim.ladder import ladder_tasks, play_ladder
from tests.every_game import toy_games_registered

SEARCH = "ismcts:iterations=10"


def _ladder(capsys: pytest.CaptureFixture[str], out: Path, *argv: str) -> dict[str, Any]:
    assert main(["ladder", *argv, "--workers", "1", "--out", str(out), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert json.loads((out / "ladder.json").read_text()) == printed
    return printed


def test_ladder_ranks_the_agents_and_prices_their_decisions(tmp_path: Path, capsys) -> None:
    agents = ["random", "heuristic", SEARCH]
    out = tmp_path / "ladder"
    summary = _ladder(
        capsys, out, "edelweiss", "--agents", ",".join(agents), "--games", "20", "--seed", "3", "--engine", "reference"
    )
    assert {"game", "config", "agents", "games_per_pair", "seed", "engine", "matrix", "ratings", "decision_ms"} <= set(
        summary
    )
    assert summary["agents"] == agents and summary["games_per_pair"] == 20 and summary["engine"] == "reference"
    matrix = summary["matrix"]
    for row in agents:
        assert set(matrix[row]) == set(agents) - {row}
        for column, entry in matrix[row].items():
            back = matrix[column][row]
            assert entry["games"] == 20 and entry["wins"] + back["wins"] + entry["draws"] == 20
            assert entry["rate"] == entry["wins"] / 20
            assert entry["ci95"][0] <= entry["rate"] <= entry["ci95"][1]
    assert matrix["heuristic"]["random"]["rate"] > 0.8 and matrix[SEARCH]["random"]["rate"] > 0.6
    ratings = summary["ratings"]
    assert ratings["heuristic"]["elo"] > ratings["random"]["elo"] + 200
    assert ratings[SEARCH]["elo"] > ratings["random"]["elo"]
    assert sum(rating["elo"] for rating in ratings.values()) == pytest.approx(0.0, abs=1e-6)  # mean 0
    for rating in ratings.values():
        assert rating["ci95"][0] <= rating["elo"] <= rating["ci95"][1]
        assert rating["elo"] == pytest.approx(400 * math.log10(rating["strength"]))
    cost = summary["decision_ms"]
    assert set(cost) == set(agents) and cost["random"] == 0  # random is not clocked (`chooser`)
    assert cost[SEARCH] > 10 * cost["heuristic"] > 0
    assert (out / "ladder.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_every_pair_plays_the_same_deals_seat_swapped() -> None:
    pairs = [("random", "heuristic"), ("random", SEARCH), ("heuristic", SEARCH)]
    tasks = ladder_tasks("edelweiss", {"deck": "full", "standard": None, "characters": None}, pairs, 5, seed=9)
    assert len(tasks) == 15
    for i, pair in enumerate(pairs):
        games = tasks[5 * i : 5 * i + 5]
        assert [task.seed for task in games] == [derive_seed(9, "ladder", k) for k in (0, 0, 1, 1, 2)]
        assert [task.agents for task in games] == [pair, pair[::-1], pair, pair[::-1], pair]
        assert [task.labels["swapped"] for task in games] == [False, True, False, True, False]


def test_ladder_table_output(tmp_path: Path, capsys) -> None:
    argv = ["ladder", "edelweiss", "--agents", "random,heuristic", "--games", "6", "--workers", "1"]
    assert main([*argv, "--out", str(tmp_path / "o")]) == 0
    out = capsys.readouterr().out
    assert "rating" in out and "ms/decision" in out and "heuristic" in out and "ladder.json" in out


@pytest.mark.parametrize("game", ["aterial", "dreadnought"])
def test_ladder_plays_the_card_games_on_the_reference_engine(tmp_path: Path, capsys, game: str) -> None:
    summary = _ladder(capsys, tmp_path / game, game, "--agents", "heuristic,random", "--games", "4")
    assert summary["game"] == game and summary["matrix"]["heuristic"]["random"]["games"] == 4
    assert summary["decision_ms"]["heuristic"] > 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--agents", "random"], "at least two agent specs"),
        (["--agents", "random,random"], "names an agent twice"),
        (["--agents", "random,wizard"], "unknown agent 'wizard'"),
        (["--agents", "random,heuristic", "--games", "0"], "--games must be at least 1"),
    ],
)
def test_bad_ladder_requests_get_a_clear_error(tmp_path: Path, capsys, argv: list[str], message: str) -> None:
    assert main(["ladder", "edelweiss", *argv, "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_kernel_plays_only_the_pairs_it_can(tmp_path: Path, capsys, monkeypatch) -> None:
    """random-heuristic in the kernel (both seat orders from one batch seed); pairs with ismcts on the reference."""
    pytest.importorskip("numba")
    calls: list[tuple[tuple[str, str], int, int]] = []

    def fake_run(
        game: str,
        config: Mapping[str, Any],
        agents: tuple[str, str],
        games: int,
        seed: int,
        engine: str,
        **_: object,
    ) -> KernelRun:
        calls.append((agents, games, seed))
        winner = 0 if agents[0] == "heuristic" else 1
        return KernelRun.of_games([KernelGame(winner, "attack", 9, 20)] * games, (0.01, 0.01), (games * 10, games * 10))

    monkeypatch.setattr(engines, "kernel_run", fake_run)
    agents = f"random,heuristic,{SEARCH}"
    summary = _ladder(capsys, tmp_path / "k", "edelweiss", "--agents", agents, "--games", "7", "--engine", "cpu")
    batch = derive_seed(0, "ladder-cpu")
    assert calls == [(("random", "heuristic"), 4, batch), (("heuristic", "random"), 3, batch)]
    engines_used = {tuple(pair["agents"]): pair["engine"] for pair in summary["pairs"]}
    assert engines_used == {("random", "heuristic"): "cpu", ("random", SEARCH): "reference",
                            ("heuristic", SEARCH): "reference"}  # fmt: skip
    assert summary["matrix"]["heuristic"]["random"]["wins"] == 7  # the fake kernel's heuristic always wins
    assert summary["engine"] == "cpu"


def test_the_kernel_engine_refuses_a_game_without_kernels(tmp_path: Path, capsys) -> None:
    argv = ["ladder", "kuhn", "--agents", "random,heuristic", "--engine", "cpu", "--out", str(tmp_path / "o")]
    with toy_games_registered():
        assert main(argv) == 2
    assert "only, not kuhn" in capsys.readouterr().err


def test_ladder_in_the_real_kernel(tmp_path: Path, capsys) -> None:
    pytest.importorskip("cardlab.games.edelweiss.fast.search")
    argv = ["edelweiss", "--agents", "random,heuristic", "--games", "400", "--engine", "cpu", "--standard", "symbolic"]
    summary = _ladder(capsys, tmp_path / "real", *argv)
    assert summary["pairs"][0]["engine"] == "cpu"
    assert summary["matrix"]["heuristic"]["random"]["rate"] > 0.9
    assert min(summary["decision_ms"].values()) > 0


def test_without_the_plots_extra_the_ladder_skips_its_plot(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # `import matplotlib` now raises ImportError
    out = tmp_path / "noplot"
    assert main(["ladder", "edelweiss", "--agents", "random,heuristic", "--games", "2", "--workers", "1",
                 "--out", str(out)]) == 0  # fmt: skip
    assert "no plot: it needs the plots extra" in capsys.readouterr().out
    assert (out / "ladder.json").exists() and not (out / "ladder.png").exists()


def _fake_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    def fake_run(
        game: str,
        config: Mapping[str, Any],
        agents: tuple[str, str],
        games: int,
        seed: int,
        engine: str,
        **_: object,
    ) -> KernelRun:
        return KernelRun.of_games([KernelGame(0, "attack", 9, 20)] * games, (0.01, 0.01), (games * 10, games * 10))

    monkeypatch.setattr(engines, "kernel_run", fake_run)


def test_kernel_pairs_report_progress_batch_by_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long kernel ladder is not silent (#15): each finished batch advances the progress it was given."""
    pytest.importorskip("numba")
    _fake_kernel(monkeypatch)
    seen: list[tuple[str, int]] = []
    advances: list[int] = []

    @contextmanager
    def track(label: str, total: int) -> Iterator[Callable[[int], None]]:
        seen.append((label, total))
        yield advances.append

    config = {"deck": "full", "standard": None, "characters": None}
    play_ladder("edelweiss", config, ["random", "heuristic", "heuristic:epsilon=0.5"], 7, 0, "cpu", list, track)
    assert seen == [("ladder edelweiss (cpu engine)", 3 * 7)]  # three pairs, all in the kernel
    assert advances == [4, 3] * 3  # per pair the unswapped deals, then the swapped ones


def test_a_piped_kernel_ladder_prints_its_progress_on_stderr(tmp_path: Path, capsys, monkeypatch) -> None:
    pytest.importorskip("numba")
    _fake_kernel(monkeypatch)
    argv = ["ladder", "edelweiss", "--agents", "random,heuristic", "--games", "7", "--engine", "cpu"]
    assert main([*argv, "--out", str(tmp_path / "o"), "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["games_per_pair"] == 7  # stdout stays the JSON
    assert re.search(r"ladder edelweiss \(cpu engine\): 7/7 games, [\d,.]+ games/s", captured.err)
