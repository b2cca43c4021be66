"""Gymnasium single-agent environments: one seat of a cardlab game against any cardlab agent.

    import gymnasium, cardlab.envs.gymnasium                   # importing registers the ids
    env = gymnasium.make(env_id(GAME), opponent="heuristic", seat="P1")   # GAME: a name `cardlab games` lists
    observation, info = env.reset(seed=3)
    action = pick(observation, info["action_mask"])           # int8 mask over the fixed action space
    observation, reward, terminated, truncated, info = env.step(action)

Ids: `cardlab/` + the game's name capitalized + `-v0`, one per registered game (`env_id(game)`;
`register_all()` after registering one of your own). The observation is the
seat's tensor (`Game.encoding()`: only what the seat may know); the opponent (an agent spec, e.g.
`heuristic`, `random`, `ismcts:iterations=200`) sees only its own information set and moves inside
`step`, from a random stream derived from the reset seed. Rewards: +1 / -1 at the end, 0 each for a
draw. An action outside the mask: with `illegal="lose"` (the default, so that generic checkers and
unmasked learners run) the episode ends with reward -1 and `info["illegal_action"]` naming it and the
legal set; with `illegal="raise"` it raises `IllegalActionError` and changes nothing.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

from cardlab.agents import make_agent
from cardlab.core.errors import CardlabError, IllegalActionError
from cardlab.core.game import State
from cardlab.core.rng import derive_seed, make_rng
from cardlab.envs.common import SEATS, action_mask, legal_by_id, make_game, returns, spaces
from cardlab.games import game_names


def env_id(game: str) -> str:
    """`cardlab/Name-v0` for the game `name`: every registered game gets one."""
    return f"cardlab/{game.capitalize()}-v0"


class CardlabEnv(gymnasium.Env[npt.NDArray[np.float32], int]):
    """One seat of a cardlab game; the other seat is played by `opponent`."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (gymnasium declares it per instance)

    def __init__(
        self,
        game: str,
        opponent: str = "heuristic",
        seat: str = "P1",
        illegal: str = "lose",
        render_mode: str | None = None,
        **config: Any,
    ) -> None:
        if seat not in SEATS:
            raise CardlabError(f"seat must be P1 or P2, got {seat!r}")
        if illegal not in ("lose", "raise"):
            raise CardlabError(f"illegal must be 'lose' or 'raise', got {illegal!r}")
        self.game, self.encoding, self.num_actions = make_game(game, config)
        self.opponent = make_agent(opponent, self.game.name)
        self.player, self.illegal, self.render_mode = SEATS.index(seat), illegal, render_mode
        self.observation_space, self.action_space = spaces(self.encoding, self.num_actions)
        self._state: State | None = None
        self._deal = self._opponent_decisions = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self._deal = int(self.np_random.integers(0, 2**62))
        self._opponent_decisions = 0
        self._state = self.game.new_state(self._deal, record_events=False)
        self._opponent_moves()
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        state = self._state
        if state is None or state.outcome() is not None:
            raise CardlabError("call reset() first: the episode is over")
        chosen = legal_by_id(state, int(action))
        if chosen is None:
            if self.illegal == "raise":
                raise IllegalActionError(action, state.legal_actions(), "not in the action mask")
            legal = [str(a) for a in state.legal_actions()]
            info = {**self._info(), "illegal_action": {"action": int(action), "legal": legal}}
            return self._observation(), -1.0, True, False, info
        state.apply(chosen)
        self._opponent_moves()
        done = state.outcome() is not None
        return self._observation(), returns(state)[self.player] if done else 0.0, done, False, self._info()

    def _opponent_moves(self) -> None:
        state = self._state
        assert state is not None
        while (player := state.current_player()) is not None and player != self.player:
            self._opponent_decisions += 1  # each decision its own stream: the same seed, the same game
            rng = make_rng(derive_seed(self._deal, "gym-opponent", self._opponent_decisions))
            state.apply(self.opponent.act(state.infoset(player), rng))

    def _observation(self) -> npt.NDArray[np.float32]:
        assert self._state is not None
        return self.encoding.encode(self._state.observation(self.player))

    def _info(self) -> dict[str, Any]:
        assert self._state is not None
        return {"action_mask": action_mask(self._state, self.player, self.num_actions)}

    def render(self) -> str | None:
        return str(self._state) if self.render_mode == "ansi" and self._state is not None else None


def register_all() -> None:
    """Register an id for every game in the registry (again after registering a game of your own)."""
    for name in game_names():
        if env_id(name) not in gymnasium.registry:
            gymnasium.register(id=env_id(name), entry_point="cardlab.envs.gymnasium:CardlabEnv", kwargs={"game": name})


register_all()
