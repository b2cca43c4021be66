"""`policy:path=FILE` (issue #18): a trained policy file plays as a cardlab agent, on its seat's tensor only."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from cardlab.agents import AgentSpecError, make_agent
from cardlab.agents.policy import save_policy
from cardlab.cli import main
from cardlab.games.edelweiss import Edelweiss, EdelweissAction

INPUTS = 83  # Edelweiss's tensor (docs/encodings.md)


def _policy(path: Path, favourite: int | None = None) -> Path:
    """A linear policy; with `favourite`, that action id scores highest whenever it is legal."""
    weights = np.zeros((INPUTS, 21), dtype=np.float32)
    bias = np.zeros(21, dtype=np.float32)
    if favourite is not None:
        bias[favourite] = 1.0
    save_policy(path, "edelweiss", [(weights, bias)])
    return path


def test_a_policy_plays_its_favourite_legal_action(tmp_path: Path) -> None:
    agent = make_agent(f"policy:path={_policy(tmp_path / 'p.npz', int(EdelweissAction.END_TURN))}", "edelweiss")
    state, rng, seen = Edelweiss().new_state(2), random.Random(0), 0
    while (player := state.current_player()) is not None:
        action = agent.act(state.infoset(player), rng)
        assert action in state.legal_actions()
        if EdelweissAction.END_TURN in state.legal_actions():
            assert action == EdelweissAction.END_TURN
            seen += 1
        state.apply(action)
    assert seen > 0


def test_simulate_plays_a_policy_like_any_agent(tmp_path: Path, capsys) -> None:
    path = _policy(tmp_path / "p.npz")
    argv = ["simulate", "edelweiss", "--agents", f"policy:path={path}:mode=sample,random", "--games", "20", "--json"]
    assert main([*argv, "--workers", "1"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert sum(result["wins"]) + result["draws"] == 20


def test_a_policy_of_another_game_or_a_missing_file_is_refused(tmp_path: Path) -> None:
    path = _policy(tmp_path / "p.npz")
    with pytest.raises(AgentSpecError, match="trained for edelweiss, not aterial"):
        make_agent(f"policy:path={path}", "aterial")
    with pytest.raises(AgentSpecError, match="cannot read"):
        make_agent(f"policy:path={tmp_path / 'none.npz'}")
    with pytest.raises(AgentSpecError, match="mode must be greedy or sample"):
        make_agent(f"policy:path={path}:mode=best")
