"""The MaskablePPO example (issue #36) runs: a few hundred steps of training, then its rates from `cardlab simulate`;
its exported policy file scores actions exactly as the trained network does."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
torch = pytest.importorskip("torch")

from cardlab.agents import make_agent  # noqa: E402
from cardlab.agents.policy import save_policy  # noqa: E402
from cardlab.cli import main  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "train_ppo.py"
TINY = ["--timesteps", "256", "--envs", "2", "--n-steps", "64", "--batch-size", "64", "--hidden", "8"]


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_trains_saves_and_reports(tmp_path: Path, capsys) -> None:
    policy = tmp_path / "policy.npz"
    argv = [sys.executable, str(EXAMPLE), *TINY, "--eval-games", "20", "--out", str(policy)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["game"] == "edelweiss" and report["timesteps"] >= 256 and report["episodes"] > 0
    assert [row["opponent"] for row in report["against"]] == ["heuristic", "random"]
    # issue 51 item 8: the training rate (exploration, older policies) is set beside a sampled evaluation
    assert report["sampled_vs_training_opponent"]["opponent"] == "heuristic"
    assert "is not the policy's strength" in done.stdout and "drawing its moves as in training" in done.stdout
    for row in report["against"]:
        low, high = row["ci95"]
        assert row["games"] == 20 and low <= row["win_rate"] <= high
    simulate = ["simulate", "edelweiss", "--standard", "symbolic", "--agents", f"policy:path={policy},heuristic"]
    assert main([*simulate, "--games", "2", "--workers", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["agents"][0] == f"policy:path={policy}" and sum(result["wins"]) + result["draws"] == 2


@pytest.mark.parametrize("game", ["edelweiss", "aterial"])
def test_the_exported_file_plays_the_networks_greedy_choice(game: str, tmp_path: Path) -> None:
    example = _example()
    args = example.build_parser().parse_args([*TINY, "--game", game, "--lr", "0.05"])
    model = example.build_model(args).learn(256)  # trained (fast): no bias or weight left at its initial value
    path = tmp_path / "policy.npz"
    save_policy(path, game, example.export_layers(model))
    agent = make_agent(f"policy:path={path}", game)
    envs = model.get_env()
    observations = envs.reset()
    for _ in range(30):
        masks = np.stack(envs.env_method("action_masks"))
        chosen, _ = model.predict(observations, deterministic=True, action_masks=masks)
        for observation, mask, action in zip(observations, masks, chosen, strict=True):
            scores = agent.scores(observation)
            assert int(np.flatnonzero(mask)[np.argmax(scores[mask])]) == int(action)
        observations, *_ = envs.step(chosen)


def test_only_a_tanh_network_is_exported() -> None:
    example = _example()
    relu = {"net_arch": [8], "activation_fn": torch.nn.ReLU}
    model = example.MaskablePPO("MlpPolicy", example.make_envs("edelweiss", "random", 2), policy_kwargs=relu)
    with pytest.raises(ValueError, match="tanh"):
        example.export_layers(model)
