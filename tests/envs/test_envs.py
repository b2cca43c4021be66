"""The research interfaces (issue #18): PettingZoo's and Gymnasium's own conformance checks for every
game, determinism, masks, and that an illegal action is refused without changing anything."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from cardlab.core.errors import IllegalActionError  # noqa: E402
from cardlab.envs import gymnasium as cardlab_gym  # noqa: E402
from cardlab.envs.pettingzoo import env  # noqa: E402
from tests.every_game import every_game, every_game_class, toy_games_registered  # noqa: E402

GAMES = [
    pytest.param(
        name, marks=() if every_game_class(name)().encoding() else pytest.mark.skip(reason=f"{name}: no encoding")
    )
    for name in every_game()
]
"""Every game, the toy game included; one without an observation tensor (`Game.encoding()`) has no environment."""
CYCLES = {"edelweiss": 300}
"""api_test's steps: enough for a few whole games (150 where not said)."""


@pytest.fixture(autouse=True)
def toy_games() -> Iterator[None]:
    with toy_games_registered():
        yield


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_test_passes(game: str) -> None:
    api_test(env(game=game), num_cycles=CYCLES.get(game, 150))


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_env_checker_passes(game: str) -> None:
    made = gymnasium.make(cardlab_gym.env_id(game), opponent="random", seat="P2")
    check_env(made.unwrapped, skip_render_check=True)
    observation, info = made.reset(seed=1)
    assert observation.shape == made.observation_space.shape and info["action_mask"].any()


def _play_pettingzoo(game: str, seed: int) -> tuple[list[int], dict[str, float]]:
    e = env(game=game)
    e.reset(seed=seed)
    rng, actions, rewards = np.random.default_rng(0), [], {}
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _ = e.last()
        if termination or truncation:
            rewards[agent] = reward
            e.step(None)
            continue
        mask = observation["action_mask"]
        assert observation["observation"].dtype == np.float32 and mask.sum() >= 1
        action = int(rng.choice(np.flatnonzero(mask)))
        actions.append(action)
        e.step(action)
    return actions, rewards


def test_the_same_seed_plays_the_same_game_and_rewards_are_plus_minus_one() -> None:
    first, rewards = _play_pettingzoo("edelweiss", 11)
    again, rewards_again = _play_pettingzoo("edelweiss", 11)
    other, _ = _play_pettingzoo("edelweiss", 12)
    assert first == again and rewards == rewards_again and first != other
    assert sorted(rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_an_action_outside_the_mask_is_refused_and_changes_nothing() -> None:
    e = env(game="edelweiss")
    e.reset(seed=3)
    raw = e.unwrapped
    before = raw.state_.position()
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match="not in the action mask"):
        e.step(illegal)
    assert raw.state_.position() == before
    made = gymnasium.make("cardlab/Edelweiss-v0", illegal="raise")
    _, info = made.reset(seed=3)
    with pytest.raises(IllegalActionError):
        made.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    lenient = gymnasium.make("cardlab/Edelweiss-v0")
    _, info = lenient.reset(seed=3)
    _, reward, terminated, _, info = lenient.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert (reward, terminated) == (-1.0, True) and info["illegal_action"]["legal"]


def test_gymnasium_episodes_end_with_the_seats_result_against_the_heuristic() -> None:
    made = gymnasium.make("cardlab/Edelweiss-v0", opponent="heuristic", seat="P1", deck="short")
    results = []
    for seed in range(40):
        _, info = made.reset(seed=seed)
        rng, terminated, reward = np.random.default_rng(seed), False, 0.0
        while not terminated:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, terminated, _, info = made.step(action)
        results.append(reward)
    assert set(results) <= {-1.0, 1.0} and results.count(-1.0) > results.count(1.0)  # random loses to the heuristic


def test_config_keywords_reach_the_game() -> None:
    e = env(game="edelweiss", deck="skills", standard="accel2", characters={"P1": "GARU", "P2": "EAGLE"},
            rules={"first_draw": "no"})  # fmt: skip
    e.reset(seed=1)
    config = e.unwrapped.state_.observation(0)["config"]
    assert config["standard"] == "accel2" and config["rules"] == {"first_draw": "no"}


@pytest.mark.parametrize("game", GAMES)
def test_one_information_set_gives_one_tensor_and_one_string(game: str) -> None:
    """For every game: the player to move's tensor and information-state string are the same in the true
    state and in worlds re-dealt from its information set (cardlab.core.sample_world)."""
    import random

    from cardlab.core import sample_world
    from cardlab.core.encoding import information_state_string

    built = every_game_class(game)()
    encoding = built.encoding()
    assert encoding is not None
    checked = 0
    for seed in range(10):  # Edelweiss games are short: ten of them; the TCGs' are long: sampled every 7th step
        state, rng = built.new_state(seed, record_events=False), random.Random(seed)
        step = 0
        while (player := state.current_player()) is not None and step < 400:
            if step % 7 == 0:
                world = sample_world(state, player, rng)
                mine, theirs = state.observation(player), world.observation(player)
                assert information_state_string(mine) == information_state_string(theirs)
                assert np.array_equal(encoding.encode(mine), encoding.encode(theirs))
                checked += 1
            state.apply(rng.choice(state.legal_actions()))
            step += 1
    assert checked >= 10
