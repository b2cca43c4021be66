"""The game-agnostic core: seeds, errors, events, infosets, action masks, determinization."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.core import (
    Event,
    EventLog,
    IllegalActionError,
    InfoSet,
    Outcome,
    PositionError,
    canonical_world,
    derive_seed,
    make_rng,
    parse_player,
    player_name,
    sample_world,
)
from cardlab.games.edelweiss import Edelweiss, EdelweissAction, EdelweissConfig

GAME = Edelweiss(EdelweissConfig())


def position(**overrides):
    data = {
        "game": "edelweiss",
        "config": {"deck": "full", "standard": None, "characters": None},
        "turn": 5,
        "turn_player": "P1",
        "window": "main",
        "deck": ["KS", "KH", "KC", "KD", "AS", "AH"],
        "discard": ["9D"],
        "players": {
            "P1": {"hand": ["2S", "3H"], "field": ["5S:U"]},
            "P2": {"hand": ["2H", "2C", "3D"], "field": ["4H:U"]},
        },
        "attack": None,
        "winner": None,
    }
    data.update(overrides)
    return data


# -- seeds -------------------------------------------------------------------------------------


def test_derive_seed_is_stable_and_63_bit():
    assert derive_seed(42, "game", 7) == derive_seed(42, "game", 7)
    # Pinned values: they must not change across runs, machines, worker counts or Python versions.
    assert derive_seed(12345, 0) == 6916167183791075583
    assert derive_seed(2024, "game", 3) == 2604195014234623241
    for master in range(50):
        seed = derive_seed(master, "x")
        assert 0 <= seed < 2**63


def test_derive_seed_is_distinct():
    seeds = {derive_seed(master, index) for master in range(20) for index in range(200)}
    assert len(seeds) == 20 * 200
    assert derive_seed(1, "a") != derive_seed(1, "b")
    assert derive_seed(1) != derive_seed(1, 0)
    assert derive_seed(1, "a", "b") != derive_seed(1, "a/b")  # labels are never merged


def test_make_rng_is_reproducible():
    assert [make_rng(9).random() for _ in range(3)] == [make_rng(9).random() for _ in range(3)]
    first, second = make_rng(9), make_rng(9)
    assert [first.random() for _ in range(5)] == [second.random() for _ in range(5)]


def test_players_and_outcome():
    assert (player_name(0), player_name(1)) == ("P1", "P2")
    assert (parse_player("P1"), parse_player("P2")) == (0, 1)
    with pytest.raises(ValueError, match="P3"):
        parse_player("P3")
    assert Outcome(0, "attack").returns() == (1.0, -1.0)
    assert Outcome(1, "deck_out").returns() == (-1.0, 1.0)
    assert Outcome(None, "draw").returns() == (0.0, 0.0)


# -- errors ------------------------------------------------------------------------------------


def test_illegal_action_error_names_action_and_legal_set():
    error = IllegalActionError(EdelweissAction.ATTACK, [EdelweissAction.SUMMON_S, EdelweissAction.SUMMON_H])
    text = str(error)
    assert "'ATTACK'" in text
    assert "SUMMON S" in text and "SUMMON H" in text
    assert error.action is EdelweissAction.ATTACK
    assert error.legal == (EdelweissAction.SUMMON_S, EdelweissAction.SUMMON_H)
    assert isinstance(error, ValueError)
    over = IllegalActionError("PASS", [], "the game is over")
    assert "none" in str(over) and "the game is over" in str(over)


def test_illegal_action_from_state_carries_the_legal_set():
    state = GAME.load_position(position())
    before = state.position()
    with pytest.raises(IllegalActionError) as info:
        state.apply(EdelweissAction.BLOCK)
    assert set(info.value.legal) == {EdelweissAction.SUMMON_S, EdelweissAction.SUMMON_H}
    assert "BLOCK" in str(info.value) and "SUMMON S" in str(info.value)
    assert state.position() == before


def test_position_error_has_field_and_problem():
    error = PositionError("players.P1.hand[0]", "not a card")
    assert (error.field, error.problem) == ("players.P1.hand[0]", "not a card")
    assert str(error) == "players.P1.hand[0]: not a card"


# -- events ------------------------------------------------------------------------------------


def test_event_view_hides_secret_from_others_and_spectators():
    event = Event("draw", {"player": "P1"}, {"card": "5S"}, secret_to=0)
    assert event.view(0) == {"kind": "draw", "player": "P1", "card": "5S"}
    assert event.view(1) == {"kind": "draw", "player": "P1"}
    assert event.view(None) == {"kind": "draw", "player": "P1"}
    public = Event("guard", {"player": "P2", "card": "4C"})
    assert public.view(0) == public.view(1) == public.view(None) == {"kind": "guard", "player": "P2", "card": "4C"}


def test_event_log_for_player_and_copy():
    log = EventLog()
    log.append(Event("draw", {"player": "P1"}, {"card": "5S"}, 0))
    log.append(Event("draw", {"player": "P2"}, {"card": "7H"}, 1))
    log.append(Event("attack", {"player": "P1", "card": "6S"}))
    assert len(log) == 3
    assert log.for_player(0)[:2] == [{"kind": "draw", "player": "P1", "card": "5S"}, {"kind": "draw", "player": "P2"}]
    assert log.for_player(1)[:2] == [{"kind": "draw", "player": "P1"}, {"kind": "draw", "player": "P2", "card": "7H"}]
    assert log.for_player(None, start=2) == [{"kind": "attack", "player": "P1", "card": "6S"}]
    copy = log.copy()
    copy.append(Event("end_turn", {"player": "P1"}))
    assert len(log) == 3 and len(copy) == 4
    assert [event.kind for event in log] == ["draw", "draw", "attack"]


def test_state_events_hide_the_opponents_draws():
    state = GAME.new_state(5)
    mine = [e for e in state.events.for_player(0) if e["kind"] == "draw"]
    theirs = [e for e in state.events.for_player(1) if e["kind"] == "draw" and e["player"] == "P1"]
    assert all("card" in e for e in mine if e["player"] == "P1")
    assert all("card" not in e for e in theirs)
    assert GAME.new_state(5, record_events=False).events is None


# -- infosets ----------------------------------------------------------------------------------


def low_hand_state():
    """P2 holds the two lowest cards; the deck holds high ones (so a sorted re-deal differs)."""
    return GAME.load_position(position(
        deck=["KS", "KH", "KC", "KD", "AS", "AH"],
        players={"P1": {"hand": ["6S", "3H"], "field": ["5S:U"]}, "P2": {"hand": ["2S", "2H"], "field": ["4H:U"]}},
    ))  # fmt: skip


def test_infoset_does_not_hold_the_true_state():
    state = low_hand_state()
    infoset = state.infoset(0)
    assert isinstance(infoset, InfoSet)
    held = [*vars(infoset).values(), infoset.player, infoset.legal_actions, infoset._world]
    assert all(value is not state for value in held)
    world = infoset._world.position()
    assert sorted(world["players"]["P2"]["hand"]) != ["2H", "2S"]  # not P2's real hand
    assert world["players"]["P1"] == state.position()["players"]["P1"]
    assert "2S" not in str(infoset.observation) and "2H" not in str(infoset.observation)
    assert infoset.observation["players"]["P2"]["hand_size"] == 2


def test_infoset_equal_for_states_differing_only_in_hidden_cards():
    state = low_hand_state()
    swapped = GAME.load_position(position(
        deck=["2S", "KH", "KC", "2H", "AS", "AH"],
        players={"P1": {"hand": ["6S", "3H"], "field": ["5S:U"]}, "P2": {"hand": ["KS", "KD"], "field": ["4H:U"]}},
    ))  # fmt: skip
    assert state.position() != swapped.position()
    first, second = state.infoset(0), swapped.infoset(0)
    assert first.observation == second.observation
    assert first.legal_actions == second.legal_actions
    assert first._world.position() == second._world.position()
    # P2 *can* tell them apart.
    assert state.infoset(1).observation != swapped.infoset(1).observation


def test_infoset_is_a_snapshot():
    state = low_hand_state()
    infoset = state.infoset(0)
    observation = dict(infoset.observation)
    state.apply("SUMMON S")
    assert infoset.observation == observation
    assert infoset.legal_actions == (EdelweissAction.SUMMON_S, EdelweissAction.SUMMON_H)


def test_infoset_legal_actions_only_for_the_player_to_move():
    state = low_hand_state()
    assert state.current_player() == 0
    assert state.infoset(0).legal_actions == tuple(state.legal_actions())
    assert state.infoset(1).legal_actions == ()


def test_sample_world_uses_callers_rng_and_keeps_known_cards():
    state = low_hand_state()
    before = state.position()
    worlds = [sample_world(state, 0, random.Random(seed)).position() for seed in range(30)]
    assert state.position() == before  # the true state is untouched
    assert sample_world(state, 0, random.Random(4)).position() == sample_world(state, 0, random.Random(4)).position()
    for world in worlds:
        assert world["players"]["P1"] == before["players"]["P1"]
        assert world["players"]["P2"]["field"] == before["players"]["P2"]["field"]
        assert world["discard"] == before["discard"]
        assert sorted(world["deck"] + world["players"]["P2"]["hand"]) == sorted(
            before["deck"] + before["players"]["P2"]["hand"]
        )
    assert len({tuple(world["players"]["P2"]["hand"]) for world in worlds}) > 1
    assert len({tuple(world["deck"]) for world in worlds}) > 1
    infoset_world = state.infoset(0).sample_world(random.Random(1))
    assert infoset_world.observation(0) == state.observation(0)


def test_canonical_world_depends_only_on_knowledge():
    state = low_hand_state()
    canonical = canonical_world(state, 0).position()
    for seed in range(10):
        assert canonical_world(sample_world(state, 0, random.Random(seed)), 0).position() == canonical


def test_diamond_dust_cards_stay_known_in_sampled_worlds():
    state = GAME.load_position(position(
        turn_player="P2", turn=6,
        players={"P1": {"hand": ["5H", "3H"], "field": ["5S:U"]}, "P2": {"hand": ["2D", "3D"], "field": ["4S:U"]}},
        deck=["KS", "KH", "KC", "KD", "AS", "AH"],
    ))  # fmt: skip
    assert state.position()["revealed"]["P2"] == ["2D", "3D"]
    for seed in range(10):
        world = sample_world(state, 0, random.Random(seed)).position()
        assert world["players"]["P2"]["hand"] == ["2D", "3D"]


# -- action masks ------------------------------------------------------------------------------


def test_legal_action_mask_matches_legal_actions():
    rng = random.Random(0)
    for seed in range(20):
        state = GAME.new_state(seed)
        while True:
            mask = state.legal_action_mask()
            assert len(mask) == GAME.num_actions == 21
            assert {i for i, allowed in enumerate(mask) if allowed} == {int(a) for a in state.legal_actions()}
            if state.current_player() is None:
                assert not any(mask)
                break
            state.apply(rng.choice(list(state.legal_actions())))


@settings(max_examples=300)
@given(
    master=st.integers(min_value=-(2**70), max_value=2**70),
    labels=st.lists(st.one_of(st.text(), st.integers(), st.booleans()), max_size=5),
)
def test_derived_seeds_are_those_of_the_json_scheme(master: int, labels: list[object]) -> None:
    """derive_seed builds its JSON text by hand for speed; the seeds are those of json.dumps."""
    import hashlib
    import json

    text = json.dumps([master, *map(str, labels)]).encode()
    assert derive_seed(master, *labels) == int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1
