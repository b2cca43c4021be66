"""Train a small policy for Edelweiss against the heuristic, then measure it with cardlab's own commands.

Through the Gymnasium interface (`cardlab/Edelweiss-v0`, one seat against `--opponent`, seats
alternating between episodes), a masked actor-critic (policy gradient with a learned baseline and an
entropy bonus, PyTorch) learns from the end-of-game reward only. The policy is saved as a cardlab
policy file; `cardlab simulate edelweiss --agents policy:path=FILE,heuristic` then plays it like any
other agent (also in `ladder` and the web app), and this script reports its win rates against the
heuristic and random with Wilson 95% intervals from those commands' JSON.

    pip install -e '.[rl]'
    python examples/train_edelweiss.py                      # about 8 minutes on two cores
    python examples/train_edelweiss.py --minutes 0.1 --eval-games 200   # a smoke run

Why not a ready-made PPO: none of the maintained RL packages could be installed from this project's
package index (Stable-Baselines3 and RLlib need packages it lacks, OpenSpiel has no wheel there);
the algorithm here is the textbook one, in about forty lines, on PyTorch.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

import gymnasium
import numpy as np
import torch
from torch import nn

import cardlab.envs.gymnasium  # noqa: F401  (registers cardlab/Edelweiss-v0)
from cardlab.agents.policy import save_policy

CARDLAB = str(Path(sys.executable).with_name("cardlab"))


class ActorCritic(nn.Module):
    def __init__(self, inputs: int, actions: int, hidden: int) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(inputs, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh())
        self.policy = nn.Linear(hidden, actions)
        self.value = nn.Linear(hidden, 1)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(x)
        logits = self.policy(h).masked_fill(mask == 0, -1e9)  # illegal actions get no probability
        return logits, self.value(h).squeeze(-1)

    def layers(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """The policy's MLP (body, then policy head) as a cardlab policy file's layers."""
        linear = [self.body[0], self.body[2], self.policy]
        return [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy()) for m in linear]


def play_episode(env: gymnasium.Env, model: ActorCritic, seed: int) -> tuple[list, list, list, float]:
    observation, info = env.reset(seed=seed)
    observations, masks, actions, reward, done = [], [], [], 0.0, False
    while not done:
        x, mask = torch.as_tensor(observation), torch.as_tensor(info["action_mask"])
        with torch.no_grad():
            logits, _ = model(x, mask)
        action = int(torch.distributions.Categorical(logits=logits).sample())
        observations.append(x), masks.append(mask), actions.append(action)
        observation, reward, done, _, info = env.step(action)
    return observations, masks, actions, float(reward)


def train(args: argparse.Namespace) -> tuple[ActorCritic, dict]:
    torch.manual_seed(args.seed)
    envs = [gymnasium.make("cardlab/Edelweiss-v0", opponent=args.opponent, seat=seat) for seat in ("P1", "P2")]
    inputs, actions = envs[0].observation_space.shape[0], envs[0].action_space.n
    model = ActorCritic(inputs, int(actions), args.hidden)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
    deadline, episodes, recent = time.monotonic() + 60 * args.minutes, 0, []
    while time.monotonic() < deadline:
        batch_x, batch_mask, batch_action, batch_return = [], [], [], []
        for k in range(args.batch):
            xs, ms, acts, reward = play_episode(envs[(episodes + k) % 2], model, args.seed * 1_000_003 + episodes + k)
            batch_x += xs
            batch_mask += ms
            batch_action += acts
            batch_return += [reward] * len(acts)  # one reward at the end, undiscounted
            recent.append(reward)
        episodes += args.batch
        x, mask = torch.stack(batch_x), torch.stack(batch_mask)
        taken, returns = torch.tensor(batch_action), torch.tensor(batch_return)
        logits, values = model(x, mask)
        dist = torch.distributions.Categorical(logits=logits)
        advantage = returns - values.detach()
        loss = (-(dist.log_prob(taken) * advantage).mean() + 0.5 * ((returns - values) ** 2).mean()
                - args.entropy * dist.entropy().mean())  # fmt: skip
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if episodes % (20 * args.batch) == 0:
            wins = sum(r > 0 for r in recent[-2000:]) / len(recent[-2000:])
            print(f"{episodes:,} episodes: training win rate (last 2,000) {wins:.1%}", flush=True)
    return model, {
        "episodes": episodes,
        "training_win_rate_last_2000": sum(r > 0 for r in recent[-2000:]) / max(1, len(recent[-2000:])),
    }


def evaluate(policy: Path, opponent: str, games: int) -> dict:
    """`cardlab simulate` with the policy against `opponent`: the command a user would type."""
    done = subprocess.run([CARDLAB, "simulate", "edelweiss", "--agents", f"policy:path={policy},{opponent}",
                           "--games", str(games), "--json"], check=True, capture_output=True, text=True)  # fmt: skip
    result = json.loads(done.stdout)
    return {"opponent": opponent, "games": games, "win_rate": result["win_rate"][0], "ci95": result["ci95"][0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=8.0, help="training time (default 8)")
    parser.add_argument("--opponent", default="heuristic", help="agent spec trained against (default heuristic)")
    parser.add_argument("--batch", type=int, default=64, help="episodes per update (default 64)")
    parser.add_argument("--hidden", type=int, default=64, help="hidden units per layer (default 64)")
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--entropy", type=float, default=0.01, help="entropy bonus (default 0.01)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-games", type=int, default=4000, help="games per evaluation (default 4000)")
    parser.add_argument("--out", default="edelweiss_policy.npz", help="the policy file (default edelweiss_policy.npz)")
    args = parser.parse_args()
    torch.set_num_threads(1)  # the batches are small: threads cost more than they give
    start = time.monotonic()
    model, stats = train(args)
    out = Path(args.out)
    save_policy(out, "edelweiss", model.layers())
    against = [evaluate(out, opponent, args.eval_games) for opponent in ("heuristic", "random")]
    report = {"policy": str(out), "training_seconds": round(time.monotonic() - start, 1), **stats, "against": against}
    for row in report["against"]:
        low, high = row["ci95"]
        print(
            f"policy vs {row['opponent']}: wins {row['win_rate']:.1%} [{low:.1%}, {high:.1%}] over {row['games']} games"
        )
    print(json.dumps(report))


if __name__ == "__main__":
    main()
