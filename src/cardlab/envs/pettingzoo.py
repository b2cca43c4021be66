"""PettingZoo AEC environments for every cardlab game (`pip install -e '.[rl]'`).

    from cardlab.envs.pettingzoo import env
    e = env(game=GAME, **config)    # GAME: a name `cardlab games` lists; config keys as in its config JSON
    e.reset(seed=7)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else pick(observation["observation"], observation["action_mask"])
        e.step(action)

Agents are "P1" and "P2"; the one to move is `agent_selection` (in games where the first player
changes from turn to turn, whoever acts next: not strictly alternating). Each observation is a
dict: `observation`, the seat's tensor (`Game.encoding()`: only what that seat may know), and
`action_mask` (int8 over the fixed action
space; all zero for the seat not to move). Rewards are +1 / -1 at the end, 0 each for a draw. The
same seed deals the same game. An action outside the mask raises `IllegalActionError` naming it and
the legal set, and changes nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces as gym_spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from cardlab.core.errors import IllegalActionError
from cardlab.core.game import State
from cardlab.envs.common import SEATS, action_mask, legal_by_id, make_game, returns, spaces


class CardlabAEC(AECEnv[str, dict[str, Any], int]):
    """One cardlab game as a two-agent AEC environment."""

    def __init__(self, game: str, render_mode: str | None = None, **config: Any) -> None:
        super().__init__()
        self.game, self.encoding, self.num_actions = make_game(game, config)
        self.metadata = {"render_modes": ["ansi"], "name": f"cardlab_{game}_v0", "is_parallelizable": False}
        self.render_mode = render_mode
        self.possible_agents = list(SEATS)
        box, discrete = spaces(self.encoding, self.num_actions)
        mask = gym_spaces.Box(low=0, high=1, shape=(self.num_actions,), dtype=np.int8)
        self.observation_spaces = {a: gym_spaces.Dict({"observation": box, "action_mask": mask}) for a in SEATS}
        self.action_spaces = {agent: discrete for agent in SEATS}
        self._seed_sequence = np.random.SeedSequence()
        self.state_: State | None = None

    def observation_space(self, agent: str) -> gym_spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gym_spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed_sequence = np.random.SeedSequence(seed)
        deal = int(self._seed_sequence.spawn(1)[0].generate_state(1, np.uint64)[0] >> 1)  # the sequence's next deal
        self.state_ = self.game.new_state(deal, record_events=False)
        self.agents = list(SEATS)
        self.rewards = dict.fromkeys(SEATS, 0.0)
        self._cumulative_rewards = dict.fromkeys(SEATS, 0.0)
        self.terminations = dict.fromkeys(SEATS, False)
        self.truncations = dict.fromkeys(SEATS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in SEATS}
        self._select()

    def _select(self) -> None:
        assert self.state_ is not None
        player = self.state_.current_player()
        if player is None:
            self.terminations = dict.fromkeys(self.agents, True)
            self.rewards = dict(zip(SEATS, returns(self.state_), strict=True))
            self._accumulate_rewards()
            return
        self.agent_selection = SEATS[player]

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.state_ is not None
        player = SEATS.index(agent)
        return {
            "observation": self.encoding.encode(self.state_.observation(player)),
            "action_mask": action_mask(self.state_, player, self.num_actions),
        }

    def step(self, action: int | None) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        assert self.state_ is not None
        chosen = None if action is None else legal_by_id(self.state_, int(action))
        if chosen is None:
            raise IllegalActionError(action, self.state_.legal_actions(), "not in the action mask")
        self._cumulative_rewards[self.agent_selection] = 0.0
        self._clear_rewards()
        self.state_.apply(chosen)
        self._select()

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.state_ is None:
            return None
        return str(self.state_)

    def close(self) -> None:
        self.state_ = None


def raw_env(game: str, render_mode: str | None = None, **config: Any) -> CardlabAEC:
    return CardlabAEC(game, render_mode, **config)


def env(game: str, render_mode: str | None = None, **config: Any) -> AECEnv[str, dict[str, Any], int]:
    """The AEC environment of `game` (config keys as in its config JSON), with PettingZoo's order checks."""
    return wrappers.OrderEnforcingWrapper(raw_env(game, render_mode, **config))
