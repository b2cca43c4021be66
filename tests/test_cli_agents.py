"""Agent specs through the commands: each is built for its game before anything runs (issue 13).

The compiled search `ismcts:...:backend=cpu` plays wherever an agent may (terminal, simulate,
balance, ladder, compare); a spec a game cannot run is one `cardlab: error:` line, exit 2.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from cardlab.cli import main

CUT = "plays its rollouts to the end"
"""Edelweiss's compiled search takes no depth cut (its games are short)."""


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "aterial", "--agents", "ismcts:rollout=fast,random", "--games", "4"], "no fast rollout"),
        (["simulate", "edelweiss", "--agents", "ismcts:depth=5:backend=cpu,random", "--games", "2"], CUT),
        (["balance", "aterial", "--agent", "ismcts:iterations=0", "--games", "1"], "iterations >= 1"),
        (["play", "edelweiss", "--vs", "ismcts:depth=5:backend=cpu"], CUT),
        (["ladder", "aterial", "--agents", "random,ismcts:rollout=fast", "--games", "2"], "no fast rollout"),
        (["compare", "edelweiss", "--agents", "random,ismcts:depth=5:backend=cpu"], CUT),
    ],
)
def test_specs_a_game_cannot_run_are_refused_up_front(argv: list[str], message: str, capsys, tmp_path: Path) -> None:
    assert main([*argv, *(["--db", str(tmp_path / "x.sqlite")] if argv[0] in ("balance", "compare") else [])]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardlab: error:") and message in err and "Traceback" not in err


def test_the_compiled_search_plays_at_the_terminal(monkeypatch, capsys) -> None:
    pytest.importorskip("numba")
    answers = "".join(f"{number}\n" for number in range(1, 10)) * 40  # a played number is not given again (#51)
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    assert main(["play", "edelweiss", "--seed", "3", "--vs", "ismcts:iterations=100:backend=cpu"]) == 0
    out = capsys.readouterr().out
    assert "Game over:" in out


def test_the_compiled_search_in_simulate_on_both_engines(capsys) -> None:
    """The same agent spec on the reference engine (InfoSets) and inside the kernel."""
    pytest.importorskip("numba")
    argv = ["simulate", "edelweiss", "--standard", "accel2", "--agents", "ismcts:iterations=200:backend=cpu,random"]
    assert main([*argv, "--games", "40", "--workers", "1", "--json"]) == 0
    reference = json.loads(capsys.readouterr().out)
    assert main([*argv, "--games", "400", "--engine", "cpu", "--json"]) == 0
    kernel = json.loads(capsys.readouterr().out)
    for summary in (reference, kernel):
        assert summary["win_rate"][0] > 0.75, summary["win_rate"]
        assert summary["decision_ms"][0] > 10 * summary["decision_ms"][1]
    # The kernel clocks random's choices too; the reference engine does not (`chooser`: cheaper than a clock).
    assert kernel["decision_ms"][1] > 0 and reference["decision_ms"][1] == 0
