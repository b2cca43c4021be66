"""Edelweiss's observation tensor (issue #18): fixed layout, only what the viewer may know."""

from __future__ import annotations

import random

import numpy as np

from cardlab.core import sample_world
from cardlab.core.encoding import information_state_string
from cardlab.games.edelweiss import Edelweiss, EdelweissConfig

from .edelweiss_positions import load

GAMES = [Edelweiss(EdelweissConfig("full")), Edelweiss(EdelweissConfig("skills", "accel2", ("VIRIDIAN", "EAGLE")))]


def test_the_layout_covers_every_entry_once() -> None:
    encoding = Edelweiss().encoding()
    assert encoding is not None
    table = encoding.table()
    assert [row["start"] for row in table] == [sum(r["size"] for r in table[:i]) for i in range(len(table))]
    assert sum(row["size"] for row in table) == encoding.shape[0] == 83


def test_one_information_set_one_tensor_and_string_and_no_hidden_card_in_it() -> None:
    """For the player to move, a world re-dealt from its information set (the opponent's hand and the
    deck order changed) gives the same tensor and string; the opponent's own tensor does see its hand."""
    differed = 0
    for game in GAMES:
        encoding = game.encoding()
        assert encoding is not None
        for seed in range(40):
            state, rng = game.new_state(seed, record_events=False), random.Random(seed)
            while (player := state.current_player()) is not None:
                world = sample_world(state, player, rng)
                mine = encoding.encode(state.observation(player))
                assert mine.dtype == np.float32 and mine.shape == encoding.shape and np.isfinite(mine).all()
                assert np.array_equal(mine, encoding.encode(world.observation(player)))
                assert information_state_string(state.observation(player)) == information_state_string(
                    world.observation(player)
                )
                theirs = encoding.encode(state.observation(1 - player))
                differed += not np.array_equal(theirs, encoding.encode(world.observation(1 - player)))
                state.apply(rng.choice(state.legal_actions()))
    assert differed > 0  # the worlds do differ in what the player cannot see


def test_a_known_position_encodes_as_documented() -> None:
    state = load(window="main", p1_hand=["2S", "3S", "4H"], p1_field=["5C:T"], p2_hand=["6D", "7D"], p2_field=["8S:U"])
    encoding = Edelweiss().encoding()
    assert encoding is not None
    vector, at = encoding.encode(state.observation(0)), encoding.offsets
    assert list(vector[at["hand"] : at["hand"] + 4] * 13) == [2, 1, 0, 0]
    assert vector[at["opponent_hand"]] * 13 == 2
    assert vector[at["field"] + 4 + 2] * 13 == 1  # own tapped club
    assert vector[at["field"] + 8 + 0] * 13 == 1  # opponent's upright spade
