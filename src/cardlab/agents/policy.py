"""A trained policy as a cardlab agent: `policy:path=FILE` (issue #18).

The file (`.npz`, written by `save_policy`, e.g. by `examples/train_ppo.py` from a MaskablePPO actor) holds a
small tanh MLP over the game's observation tensor (`Game.encoding()`) and the game it was trained for.
Playing needs numpy only: the agent reads the seat's observation, never the true state, and picks
the legal action of highest score (`mode=sample`: draws from the masked softmax instead).
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from cardlab.agents.base import format_spec
from cardlab.core.game import Action, InfoSet
from cardlab.core.specs import AgentSpecError

Layers = list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]


def save_policy(path: Path, game: str, layers: Layers) -> None:
    """Write an MLP (weights, biases per layer; tanh between layers) trained for `game`."""
    arrays: dict[str, npt.NDArray[np.generic]] = {"game": np.array(game), "layers": np.array(len(layers))}
    for index, (weights, bias) in enumerate(layers):
        arrays[f"w{index}"], arrays[f"b{index}"] = weights, bias
    with path.open("wb") as file:
        np.savez(file, allow_pickle=False, **arrays)


@cache
def load_policy(path: str) -> tuple[str, Layers]:
    """The game and layers of a policy file; an AgentSpecError naming the file and the problem."""
    try:
        with np.load(path) as data:
            count = int(data["layers"])
            layers = [(data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32)) for i in range(count)]
            game = str(data["game"])
    except (OSError, KeyError, ValueError) as exc:
        raise AgentSpecError(f"policy: cannot read {path}: {exc}") from None
    return game, layers


class PolicyAgent:
    """Plays a trained policy file: the masked argmax (or a sample) of the MLP's scores."""

    params: ClassVar[dict[str, type]] = {"path": str, "mode": str}

    def __init__(self, path: str = "", mode: str = "greedy") -> None:
        if not path:
            raise ValueError("policy needs path=FILE (a policy file, e.g. from examples/train_ppo.py)")
        if mode not in ("greedy", "sample"):
            raise ValueError(f"policy: mode must be greedy or sample, not {mode!r}")
        self.path, self.sample = path, mode == "sample"
        self.game, self.layers = load_policy(path)
        self.spec = format_spec("policy", {"path": path, "mode": mode}, {"mode": "greedy"})

    def prepare(self, game: str) -> None:
        """Refuse another game's policy now, not at the first decision."""
        if game != self.game:
            raise ValueError(f"policy {self.path} was trained for {self.game}, not {game}")

    def scores(self, observation: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        x = observation
        for index, (weights, bias) in enumerate(self.layers):
            x = x @ weights + bias
            if index < len(self.layers) - 1:
                x = np.tanh(x)
        return x

    def act(self, infoset: InfoSet, rng: random.Random) -> Action:
        encoding = infoset.game.encoding()
        assert encoding is not None
        observation = encoding.encode(infoset.observation)
        inputs = self.layers[0][0].shape[0]
        if observation.shape[0] != inputs:
            raise ValueError(f"policy {self.path} expects {inputs} inputs, the game gives {observation.shape[0]}")
        scores = self.scores(observation)
        legal = list(infoset.legal_actions)
        ids = [int(action) for action in legal]
        chosen = scores[ids]
        if not self.sample:
            return legal[int(np.argmax(chosen))]
        weights = np.exp(chosen - chosen.max())
        return rng.choices(legal, weights=weights.tolist())[0]
