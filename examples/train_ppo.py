"""Train MaskablePPO (sb3-contrib) on a cardlab game, save it as a policy file, rate it with `cardlab simulate`.

One seat plays against `--opponent` through the Gymnasium interface (`cardlab/Edelweiss-v0`, ...),
half the parallel environments in each seat; the legal-action mask comes from the env's
`info["action_mask"]`. The trained MLP is exported to a cardlab policy file (`.npz`), which every
command plays with numpy only: `cardlab simulate edelweiss --standard symbolic --agents
policy:path=FILE,heuristic` (also `ladder`, `play`, `cardlab serve --policy FILE`). The script ends
with the policy's win rates against the heuristic and random, with Wilson 95% intervals, from the
JSON of that same command.

    pip install -e '.[rl]'
    python examples/train_ppo.py                                   # Edelweiss Symbolic
    python examples/train_ppo.py --game aterial --timesteps 300000    # any game: dreadnought too
    python examples/train_ppo.py --timesteps 2000 --eval-games 100  # a smoke run
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor
from torch import nn

from cardlab.agents.policy import Layers, save_policy
from cardlab.envs.gymnasium import env_id

CARDLAB = str(Path(sys.executable).with_name("cardlab"))

# Per game: the env's config keywords and the same configuration as `cardlab simulate` flags.
SETUPS: dict[str, tuple[dict[str, Any], list[str]]] = {
    "edelweiss": ({"deck": "skills", "standard": "symbolic"}, ["--standard", "symbolic"]),
    "aterial": ({}, []),
    "dreadnought": ({}, []),
}


class InfoMask(gymnasium.Wrapper[Any, Any, Any, Any]):
    """The env's own `info["action_mask"]` as the `action_masks()` method MaskablePPO asks for."""

    def reset(self, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        observation, info = self.env.reset(**kwargs)
        self.mask = info["action_mask"].astype(bool)
        return observation, info

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict[str, Any]]:
        observation, reward, terminated, truncated, info = self.env.step(action)
        self.mask = info["action_mask"].astype(bool)
        return observation, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.mask


def make_envs(game: str, opponent: str, count: int) -> VecMonitor:
    """`count` environments, seats alternating, so that the policy learns both sides of the deal; an action
    outside the mask raises (a masking bug stops the run instead of being learned as a lost game)."""
    config = SETUPS[game][0]

    def one(seat: str) -> Any:
        return lambda: InfoMask(gymnasium.make(env_id(game), opponent=opponent, seat=seat, illegal="raise", **config))

    return VecMonitor(DummyVecEnv([one(("P1", "P2")[k % 2]) for k in range(count)]))


class Progress(BaseCallback):
    """Counts episodes; a line at every tenth of the run with the training win rate of the last 1,000."""

    def __init__(self, total: int) -> None:
        super().__init__()
        self.every, self.next, self.episodes = max(1, total // 10), max(1, total // 10), 0

    def win_rate(self) -> float:
        return float(np.mean([info["r"] > 0 for info in self.model.ep_info_buffer or [{"r": 0}]]))

    def _on_step(self) -> bool:
        self.episodes += int(np.sum(self.locals["dones"]))
        if self.num_timesteps >= self.next:
            self.next += self.every
            print(f"{self.num_timesteps:,} steps, {self.episodes:,} episodes: training win rate (last 1,000) "
                  f"{self.win_rate():.1%}", flush=True)  # fmt: skip
        return True


def export_layers(model: MaskablePPO) -> Layers:
    """The actor's MLP (hidden layers, then the action head) as a cardlab policy file's layers.

    The file's format is tanh between linear layers, which is SB3's default actor for PPO; the
    value network is not needed to play."""
    modules = [*model.policy.mlp_extractor.policy_net, model.policy.action_net]
    linear = [m for m in modules if isinstance(m, nn.Linear)]
    if not all(isinstance(m, nn.Tanh) for m in modules if m not in linear):
        raise ValueError("a cardlab policy file holds tanh layers: train with activation_fn=nn.Tanh")
    return [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linear]


def build_model(args: argparse.Namespace) -> MaskablePPO:
    """An untrained MaskablePPO on the environments, its actor in the form `export_layers` takes."""
    hidden = [args.hidden, args.hidden]
    return MaskablePPO(
        "MlpPolicy",
        make_envs(args.game, args.opponent, args.envs),
        learning_rate=args.lr,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.epochs,
        gamma=args.gamma,
        ent_coef=args.entropy,
        stats_window_size=1000,
        policy_kwargs={"net_arch": {"pi": hidden, "vf": hidden}, "activation_fn": nn.Tanh},
        seed=args.seed,
        device="cpu",
    )


def train(args: argparse.Namespace) -> tuple[MaskablePPO, dict[str, Any]]:
    model, progress = build_model(args), Progress(args.timesteps)
    model.learn(total_timesteps=args.timesteps, callback=progress)
    stats = {"timesteps": model.num_timesteps, "episodes": progress.episodes}
    return model, {**stats, "training_win_rate_last_1000": progress.win_rate()}


def evaluate(game: str, policy: Path, opponent: str, games: int, mode: str = "greedy") -> dict[str, Any]:
    """`cardlab simulate` with the policy against `opponent`: the command a user would type. `mode=greedy`
    (the policy agent's default) plays the best-scored legal action; `mode=sample` draws as training did."""
    spec = f"policy:path={policy}" + ("" if mode == "greedy" else f":mode={mode}")
    argv = [CARDLAB, "simulate", game, *SETUPS[game][1], "--agents", f"{spec},{opponent}"]
    done = subprocess.run([*argv, "--games", str(games), "--json"], check=True, capture_output=True, text=True)
    result = json.loads(done.stdout)
    return {"opponent": opponent, "games": games, "win_rate": result["win_rate"][0], "ci95": result["ci95"][0]}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=sorted(SETUPS), default="edelweiss", help="default edelweiss (Symbolic)")
    parser.add_argument("--opponent", default="heuristic", help="agent spec trained against (default heuristic)")
    parser.add_argument("--timesteps", type=int, default=600_000, help="the policy's decisions (default 600,000)")
    parser.add_argument("--envs", type=int, default=8, help="parallel environments, seats alternating (default 8)")
    parser.add_argument("--n-steps", type=int, default=256, help="steps per environment per update (default 256)")
    parser.add_argument("--batch-size", type=int, default=256, help="minibatch (default 256)")
    parser.add_argument("--epochs", type=int, default=4, help="passes over each rollout (default 4)")
    parser.add_argument("--hidden", type=int, default=64, help="units in each of two tanh layers (default 64)")
    parser.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate (default 1e-3)")
    parser.add_argument("--gamma", type=float, default=1.0, help="discount (default 1: one reward, at the end)")
    parser.add_argument("--entropy", type=float, default=0.01, help="entropy bonus (default 0.01)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-games", type=int, default=4000, help="games per evaluation (default 4000)")
    parser.add_argument("--out", type=Path, help="the policy file (default GAME_policy.npz)")
    return parser


def main() -> None:
    args = build_parser().parse_args()
    torch.set_num_threads(1)  # a 64-unit MLP: threads cost more than they give
    out = args.out or Path(f"{args.game}_policy.npz")
    start = time.monotonic()
    model, stats = train(args)
    save_policy(out, args.game, export_layers(model))
    seconds = round(time.monotonic() - start, 1)
    against = [evaluate(args.game, out, opponent, args.eval_games) for opponent in ("heuristic", "random")]
    sampled = evaluate(args.game, out, args.opponent, args.eval_games, mode="sample")
    for row, label in [*((row, "") for row in against), (sampled, ", drawing its moves as in training")]:
        low, high = row["ci95"]
        rate = f"{row['win_rate']:.1%} [{low:.1%}, {high:.1%}]"
        print(f"policy vs {row['opponent']}{label}: wins {rate} in {row['games']} games")
    print(
        f"The training win rate ({stats['training_win_rate_last_1000']:.1%}) is not the policy's strength: training "
        "draws each move from the policy's probabilities (exploration) and averages the last 1,000 episodes, some "
        "played by earlier, weaker versions of it; the evaluation above plays the final policy's best-scored legal "
        "move (greedy), and the sampled line shows what exploration alone costs against the training opponent."
    )
    report = {"policy": str(out), "game": args.game, "training_seconds": seconds, **stats, "against": against}
    print(json.dumps({**report, "sampled_vs_training_opponent": sampled}))


if __name__ == "__main__":
    main()
