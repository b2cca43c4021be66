"""Malformed E14.5 positions raise PositionError naming the offending field (docs R-E4)."""

from __future__ import annotations

import copy

import pytest

from cardlab.core import PositionError

from .edelweiss_positions import GAME, attack_obj, make_position


def base(**kwargs):
    defaults = {"p1_hand": ["2S", "3H"], "p1_field": ["5S:U"], "p2_hand": ["4C"], "p2_field": ["9H:U"],
                "deck": ["7D", "8D", "9D"]}  # fmt: skip
    defaults.update(kwargs)
    return make_position(**defaults)


def at_defense(**attack_fields):
    return base(window="defense", p1_field=["5S:T"], attack=attack_obj("5S", **attack_fields))


def error_for(data) -> PositionError:
    with pytest.raises(PositionError) as info:
        GAME.load_position(data)
    assert info.value.problem
    assert str(info.value).startswith(info.value.field)
    return info.value


def test_baseline_positions_load():
    GAME.load_position(base())
    GAME.load_position(at_defense())


@pytest.mark.parametrize("key", ["game", "config", "turn", "turn_player", "window", "deck", "discard", "players"])
def test_missing_key(key):
    data = base()
    del data[key]
    assert error_for(data).field == key


def test_not_an_object():
    assert error_for(["not", "a", "position"]).field == "position"


def test_unknown_top_level_key():
    assert error_for(base(colour="blue")).field == "position.colour"


def test_wrong_game():
    data = base()
    data["game"] = "aterial"
    assert error_for(data).field == "game"


@pytest.mark.parametrize(
    ("config", "field"),
    [
        ({"deck": "huge", "standard": None, "characters": None}, "config.deck"),
        ({"deck": "full", "standard": "symbolic", "characters": None}, "config.standard"),
        ({"deck": "full", "standard": None, "characters": {"P1": "GARU", "P2": "EAGLE"}}, "config.characters"),
        ({"deck": "skills", "standard": None, "characters": {"P1": "GARU", "P2": "EAGLE"}}, "config.standard"),
        ({"deck": "skills", "standard": "accel3", "characters": {"P1": "GARU", "P2": "EAGLE"}}, "config.standard"),
        ({"deck": "skills", "standard": "symbolic", "characters": None}, "config.characters"),
        ({"deck": "skills", "standard": "symbolic", "characters": {"P1": "GARU"}}, "config.characters"),
        ({"deck": "skills", "standard": "symbolic", "characters": {"P1": "X", "P2": "EAGLE"}}, "config.characters.P1"),
        ({"deck": "skills", "standard": "symbolic", "characters": {"P1": "GARU", "P2": "X"}}, "config.characters.P2"),
        ({"deck": "full", "standard": None, "characters": None, "jokers": 2}, "config.jokers"),
        ("full", "config"),
    ],
)
def test_bad_config(config, field):
    data = base()
    data["config"] = config
    assert error_for(data).field == field


@pytest.mark.parametrize("turn", [0, -1, "3", 2.5, True, None])
def test_bad_turn(turn):
    assert error_for(base(turn=turn)).field == "turn"


@pytest.mark.parametrize("player", ["P3", "p1", 1, None])
def test_bad_turn_player(player):
    assert error_for(base(turn_player=player)).field == "turn_player"


@pytest.mark.parametrize("window", ["upkeep", "Main", "", None, "break"])
def test_unknown_window(window):
    assert error_for(base(window=window)).field == "window"


@pytest.mark.parametrize("card", ["1S", "11H", "ZS", "10X", "", "5", 7, None, "5S:U"])
def test_bad_card_text_in_deck(card):
    assert error_for(base(deck=["7D", card])).field == "deck[1]"


def test_bad_card_text_in_discard_and_hand():
    assert error_for(base(discard=["QQ"])).field == "discard[0]"
    assert error_for(base(p2_hand=["4C", "XX"])).field == "players.P2.hand[1]"


@pytest.mark.parametrize("entry", ["7S", "7S:X", "7S:u", "7S:T:T", "ZS:T", 7])
def test_bad_field_entry(entry):
    assert error_for(base(p1_field=["5S:U", entry])).field == "players.P1.field[1]"


def test_zone_not_a_list():
    data = base()
    data["deck"] = "7D 8D"
    assert error_for(data).field == "deck"
    data = base()
    data["players"]["P1"]["hand"] = "2S"
    assert error_for(data).field == "players.P1.hand"


def test_diamond_on_a_field():
    """E2.2: a diamond can never be on a field."""
    error = error_for(base(p2_field=["9H:U", "6D:T"]))
    assert error.field == "players.P2.field[1]"
    assert "E2.2" in error.problem


@pytest.mark.parametrize(
    ("kwargs", "zones"),
    [
        ({"deck": ["7D", "2S"]}, {"deck", "players.P1.hand"}),  # 2S is also in P1's hand
        ({"p2_hand": ["4C", "3H"]}, {"players.P1.hand", "players.P2.hand"}),
        ({"discard": ["5S"]}, {"discard", "players.P1.field"}),
        ({"p2_field": ["9H:U", "9H:T"]}, {"players.P2.field"}),
        ({"deck": ["7D", "7D"]}, {"deck"}),
    ],
)
def test_duplicate_card(kwargs, zones):
    error = error_for(base(**kwargs))
    assert error.field in zones
    assert "also appears" in error.problem


def test_duplicate_card_names_both_zones():
    error = error_for(base(deck=["7D", "4C"]))
    assert {error.field, error.problem.split()[-1]} == {"deck", "players.P2.hand"}


def test_card_outside_the_deck_variant():
    """E1.1: the short and skills decks hold only 2-10."""
    error = error_for(base(deck_kind="short", deck=["KS", "7D"]))
    assert error.field == "deck"
    error = error_for(make_position(deck_kind="skills", standard="symbolic", characters=("GARU", "EAGLE"),
                                    p1_hand=["QH", "2S"]))  # fmt: skip
    assert error.field == "players.P1.hand"


def test_players_shape():
    data = base()
    del data["players"]["P2"]
    assert error_for(data).field == "players"
    data = base()
    del data["players"]["P1"]["field"]
    assert error_for(data).field == "players.P1"
    data = base()
    data["players"]["P1"]["graveyard"] = []
    assert error_for(data).field == "players.P1"


# -- attack object -----------------------------------------------------------------------------


@pytest.mark.parametrize("window", ["main", "attack", "draw", "special_summon"])
def test_attack_object_at_a_non_attack_window(window):
    error = error_for(base(window=window, p1_field=["5S:T"], attack=attack_obj("5S")))
    assert error.field == "attack"


def test_attack_object_when_over():
    data = base(window="over", winner="P1", win_reason="attack", p1_field=["5S:T"], attack=attack_obj("5S"))
    assert error_for(data).field == "attack"


@pytest.mark.parametrize("window", ["intercept", "defense", "counter", "pursuit"])
def test_attack_object_missing_inside_a_sequence(window):
    assert error_for(base(window=window, p1_field=["5S:T"])).field == "attack"


def test_attack_unknown_key():
    assert error_for(at_defense(damage=3)).field == "attack.damage"


@pytest.mark.parametrize(
    ("spade", "p1_field"),
    [("5S", ["5S:U"]), ("6S", ["5S:T"]), ("5H", ["5S:T", "5H:T"]), (None, ["5S:T"]), ("XX", ["5S:T"])],
)
def test_attack_spade_must_be_tapped_on_attackers_field(spade, p1_field):
    data = base(window="defense", p1_field=p1_field, attack=attack_obj("5S"))
    data["attack"]["spade"] = spade
    assert error_for(data).field == "attack.spade"


def test_defense_recorded_before_the_defense_phase():
    assert error_for(at_defense(defense="block", blocker="9H")).field in ("attack.defense", "attack.blocker")
    data = base(window="intercept", p1_field=["5S:T"], attack=attack_obj("5S", defense="guard", guard_card="4C"))
    assert error_for(data).field in ("attack.defense", "attack.guard_card")


def test_defense_missing_after_the_defense_phase():
    data = base(window="pursuit", p1_field=["5S:T"], attack=attack_obj("5S"))
    assert error_for(data).field == "attack.defense"


def test_unknown_defense_kind():
    data = base(window="pursuit", p1_field=["5S:T"], attack=attack_obj("5S", defense="dodge"))
    assert error_for(data).field == "attack.defense"


def test_counter_window_needs_a_counter():
    data = base(window="counter", p1_field=["5S:T", "2C:U"], discard=["6D"],
                attack=attack_obj("5S", defense="guard", guard_card="6D", counter=False))  # fmt: skip
    assert error_for(data).field == "attack.counter"


def test_counter_must_be_boolean():
    data = base(window="counter", p1_field=["5S:T", "2C:U"], discard=["6D"],
                attack=attack_obj("5S", defense="guard", guard_card="6D", counter="yes"))  # fmt: skip
    assert error_for(data).field == "attack.counter"


def test_no_pursuit_club_before_the_break():
    data = base(window="pursuit", p1_field=["5S:T", "2C:T"], p2_field=["9H:T"],
                attack=attack_obj("5S", defense="block", blocker="9H", pursuit_club="2C"))  # fmt: skip
    assert error_for(data).field == "attack.pursuit_club"


def test_blocker_must_be_a_tapped_heart_on_defenders_field():
    for blocker, p2_field in (("9H", ["9H:U"]), ("8H", ["9H:T"]), (None, ["9H:T"])):
        data = base(window="pursuit", p1_field=["5S:T", "2C:U"], p2_field=p2_field,
                    attack=attack_obj("5S", defense="block", blocker=blocker))  # fmt: skip
        assert error_for(data).field == "attack.blocker"


def test_only_a_block_has_a_blocker():
    data = base(window="pursuit", p1_field=["5S:T", "2C:U"], p2_field=["9H:T"], discard=["4D"],
                attack=attack_obj("5S", defense="guard", guard_card="4D", blocker="9H"))  # fmt: skip
    assert error_for(data).field == "attack.blocker"


def test_guard_card_must_be_in_the_discard():
    data = base(window="pursuit", p1_field=["5S:T", "2C:U"],
                attack=attack_obj("5S", defense="guard", guard_card="4C"))  # fmt: skip
    assert error_for(data).field == "attack.guard_card"
    data = base(window="pursuit", p1_field=["5S:T", "2C:U"], attack=attack_obj("5S", defense="guard"))
    assert error_for(data).field == "attack.guard_card"


def test_only_a_guard_has_a_guard_card():
    data = base(window="pursuit", p1_field=["5S:T", "2C:U"], p2_field=["9H:T"], discard=["4D"],
                attack=attack_obj("5S", defense="block", blocker="9H", guard_card="4D"))  # fmt: skip
    assert error_for(data).field == "attack.guard_card"


# -- result ------------------------------------------------------------------------------------


def test_winner_without_over():
    assert error_for(base(winner="P1", win_reason="attack")).field == "winner"


def test_over_without_winner():
    assert error_for(base(window="over")).field == "winner"


def test_win_reason_without_winner():
    assert error_for(base(win_reason="attack")).field == "win_reason"


@pytest.mark.parametrize("reason", ["resign", None, ""])
def test_bad_win_reason(reason):
    data = base(window="over", winner="P2")
    data["win_reason"] = reason
    assert error_for(data).field == "win_reason"


def test_bad_winner_name():
    assert error_for(base(window="over", winner="P3", win_reason="attack")).field == "winner"


def test_over_position_loads_and_stays_over():
    state = GAME.load_position(base(window="over", winner="P2", win_reason="deck_out", deck=[]))
    assert state.current_player() is None
    assert state.position()["winner"] == "P2"


# -- revealed extension (docs R-E1) ------------------------------------------------------------


def test_revealed_card_must_be_in_that_hand():
    assert error_for(base(revealed={"P1": ["4C"]})).field == "revealed.P1"


def test_revealed_bad_shape():
    assert error_for(base(revealed={"P3": []})).field == "revealed"
    assert error_for(base(revealed=["2S"])).field == "revealed"


def test_errors_leave_no_partial_state_behind():
    """A failed load raises; the input dict is not modified."""
    data = base(p2_field=["9H:U", "6D:T"])
    snapshot = copy.deepcopy(data)
    error_for(data)
    assert data == snapshot
