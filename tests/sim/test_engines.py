"""`--engine cpu`: the compiled kernel behind simulate and balance, in the same output format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardlab.cli import main
from cardlab.core.errors import CardlabError
from cardlab.sim.engines import check_engine
from tests.every_game import toy_games_registered

pytest.importorskip("numba")


def test_simulate_with_the_kernel_keeps_the_output_format(capsys) -> None:
    argv = ["simulate", "edelweiss", "--games", "2001", "--agents", "heuristic,random", "--standard", "symbolic"]
    assert main([*argv, "--json", "--engine", "cpu"]) == 0
    kernel = json.loads(capsys.readouterr().out)
    assert main([*argv, "--json", "--games", "40", "--workers", "1"]) == 0
    reference = json.loads(capsys.readouterr().out)
    assert set(kernel) == set(reference)
    assert kernel["engine"] == "cpu" and kernel["games"] == 2001 and sum(kernel["wins"]) == 2001
    assert kernel["win_rate"][0] > 0.95  # the heuristic still beats random from both seats
    assert main([*argv, "--json", "--engine", "cpu"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert (again["wins"], again["decisions"]) == (kernel["wins"], kernel["decisions"])  # reproducible


def test_balance_with_the_kernel_stores_and_reports_like_the_reference(tmp_path: Path, capsys) -> None:
    db, out = tmp_path / "g.sqlite", tmp_path / "out"
    argv = ["balance", "edelweiss", "--standard", "accel2", "--games", "50", "--engine", "cpu", "--db", str(db),
            "--agent", "heuristic"]  # fmt: skip
    assert main([*argv, "--out", str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games_per_cell"] == 50 and summary["total_games"] == 15 * 2 * 50
    assert main([*argv, "--out", str(out)]) == 0  # a second run adds, continuing the index sequence
    assert json.loads((out / "summary.json").read_text())["games_per_cell"] == 100
    assert "engine)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("engine", "game", "agents", "message"),
    [
        ("tpu", "edelweiss", ("random",), "unknown engine"),
        ("cpu", "kuhn", ("random",), "only, not kuhn"),  # a game without compiled engines
        ("cpu", "dreadnought", ("pimc",), "not 'pimc'"),  # its kernel plays random, heuristic and its search
        ("cpu", "edelweiss", ("ismcts",), "not 'ismcts'"),
    ],
)
def test_engine_requests_the_kernel_cannot_serve_are_refused(engine, game, agents, message) -> None:
    with toy_games_registered(), pytest.raises(CardlabError, match=message):
        check_engine(engine, game, agents)


def test_simulate_with_the_jax_kernel(capsys) -> None:
    pytest.importorskip("jax")
    argv = ["simulate", "edelweiss", "--games", "64", "--agents", "heuristic,random", "--engine", "gpu", "--json"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["engine"] == "gpu" and sum(summary["wins"]) == 64 and summary["wins"][0] >= 56
