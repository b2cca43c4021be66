"""Agents never receive the true state: an inspecting agent looks for any trace of it."""

from __future__ import annotations

import random

import pytest

from cardlab.agents import RandomAgent
from cardlab.core import InfoSet, State, canonical_world, sample_world
from cardlab.games.edelweiss import Edelweiss, EdelweissConfig
from cardlab.sim import play_match
from tests.reachability import reachable


class InspectingAgent:
    """Plays randomly, and on every decision checks its InfoSet against the true state."""

    spec = "inspect"

    def __init__(self) -> None:
        self.true_state: State | None = None
        self.checked = 0

    def act(self, infoset: InfoSet, rng: random.Random) -> object:
        assert isinstance(infoset, InfoSet)
        state = self.true_state
        if state is not None:
            player = infoset.player
            secret_objects = {id(state), id(state.deck), *(id(hand) for hand in state.hands)}
            assert not secret_objects & reachable(infoset, 5000), "the InfoSet references the true state"
            # What the agent holds must be the same whatever the hidden deal was.
            other_deal = sample_world(state, player, random.Random(rng.random()))
            assert infoset.canonical_world.position() == canonical_world(other_deal, player).position()
            assert infoset.observation == state.observation(player)
            self.checked += 1
        return rng.choice(infoset.legal_actions)


@pytest.mark.parametrize("config", [EdelweissConfig("full"), EdelweissConfig("skills", "accel2")])
def test_inspecting_agent_finds_no_trace_of_the_true_state(config: EdelweissConfig) -> None:
    game = Edelweiss(config)
    inspector, opponent = InspectingAgent(), RandomAgent()
    rng = random.Random(0)
    for seed in range(30):
        state = game.new_state(seed)
        inspector.true_state = state
        seat = seed % 2
        while (player := state.current_player()) is not None:
            agent = inspector if player == seat else opponent
            state.apply(agent.act(state.infoset(player), rng))
    assert inspector.checked > 100


def test_play_match_hands_agents_infosets_only() -> None:
    inspector = InspectingAgent()  # no true state given: checks only the type
    record = play_match(Edelweiss(), (inspector, RandomAgent()), seed=5)
    assert record.winner in (0, 1)
    assert record.decisions >= 1
