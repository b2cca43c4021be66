"""Aterial's rule options and card edits (issue #17): `variants.RULE_OPTIONS` and `config.patches`.

One test per option, named after the rule id of the ruling it changes, plays the same position under
the spec's ruling (the default) and under the alternative; then configs and positions carry rules and
patches, and bad ones are refused with the field named.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardlab.core import PositionError
from cardlab.core.rules import rule_value
from cardlab.games.aterial import Aterial, AterialConfig
from cardlab.games.aterial.heuristic import choose
from cardlab.games.aterial.variants import RULE_OPTIONS

from .aterial_positions import GAME, apply_all, at, kinds, legal, make_position, player, unit


def config(rules: dict[str, str] | None = None, patches: list[str] | None = None) -> dict[str, Any]:
    """The helpers' config (D1 v D2, P1 first) with rules and card edits on top."""
    data = GAME.config_json()
    if rules:
        data["rules"] = rules
    if patches:
        data["patches"] = patches
    return data


def load(rules: dict[str, str] | None = None, patches: list[str] | None = None, **kwargs: Any):
    """A position of the helpers under `rules` / `patches` (the position's config carries them)."""
    return GAME.load_position(make_position(config=config(rules, patches), **kwargs))


def test_rule_options_are_declared():
    """Every option names its rule id, has the spec's ruling as default among its values, and says what changes."""
    assert Aterial.rule_options is RULE_OPTIONS
    names = [option.name for option in RULE_OPTIONS]
    assert names[:5] == ["first_draw", "first_turn_deploy", "supply_check", "heal_cap", "hand_limit"]
    for option in RULE_OPTIONS:
        assert option.rule.startswith("A") and option.default in option.values and len(option.values) >= 2
        assert option.description
    assert {option.name: option.rule for option in RULE_OPTIONS[:5]} == {
        "first_draw": "A9.2",
        "first_turn_deploy": "A11.8",
        "supply_check": "A11.6",
        "heal_cap": "A14.4",
        "hand_limit": "A13.2",
    }  # the A19 rulings' options (issue #33): test_rulings.py


# -- one test per option ----------------------------------------------------------------------------


def test_a9_2_first_draw_no_skips_the_first_players_turn_one_draw():
    """A9.2/R3: the first player draws on turn 1; under first_draw=no it does not; turn 2 draws as usual."""
    hands = {"P1": ["S01", "S02", "S03", "S04", "S05"], "P2": ["S06", "S07", "S08", "S09", "S10"]}
    kwargs: dict[str, Any] = dict(
        window="mulligan",
        turn=0,
        p1=dict(hand=hands["P1"], deck=["S11", "S12"]),
        p2=dict(hand=hands["P2"], deck=["S13", "S14"]),
    )
    default = apply_all(load(**kwargs), "KEEP", "KEEP")
    varied = apply_all(load({"first_draw": "no"}, **kwargs), "KEEP", "KEEP")
    for state in (default, varied):
        assert (state.turn, state.position()["window"], state.position()["active"]) == (1, "move", "P1")
    assert player(default, "P1")["hand"] == sorted([*hands["P1"], "S11"])  # the top card (A9.1)
    assert player(default, "P1")["deck"] == ["S12"]
    assert player(varied, "P1")["hand"] == hands["P1"] and player(varied, "P1")["deck"] == ["S11", "S12"]
    apply_all(varied, "END_MOVE", "END_ACTION")  # no attack phase on turn 1 (A12.1)
    assert varied.turn == 2 and player(varied, "P2")["hand"] == sorted([*hands["P2"], "S13"])


def test_a11_8_first_turn_deploy_second_only():
    """A11.8/R2: both players deploy from their first turn; under second_only the first player may not on
    turn 1 (its abilities stay legal), and the second player deploys on turn 2 as usual."""
    kwargs: dict[str, Any] = dict(turn=1, p1=dict(hand=["S01", "S03"]))
    default = load(**kwargs)
    assert legal(default) == ["DEPLOY S01", "DEPLOY S03", "END_ACTION", "HAND S03 hand_cycle"]
    varied = load({"first_turn_deploy": "second_only"}, **kwargs)
    assert legal(varied) == ["END_ACTION", "HAND S03 hand_cycle"]
    with pytest.raises(ValueError, match=r"first_turn_deploy=second_only, A11.8"):
        varied.apply("DEPLOY S01")
    second = load({"first_turn_deploy": "second_only"}, turn=2, active="P2", p2=dict(hand=["S01"]))
    assert legal(second) == ["DEPLOY S01", "END_ACTION"]


def upkeep_position(rules: dict[str, str] | None = None):
    """P2's attack phase on turn 5. P1's leader stands on B2, so P1's S14 (cost 2) on F0 gets only the
    dominance 1 of S01 on F1; its S06 (cost 1) on F2 gets 1 + 2 = 3; S01 (cost 0) needs none (A11.2)."""
    return load(
        rules,
        window="attack",
        turn=5,
        active="P2",
        p1=dict(leader_at="B2", field={"F0": "S14", "F1": "S01", "F2": "S06"}),
    )


def test_a11_6_supply_check_upkeep_retires_starved_subordinates():
    """A11.6/R10: supply is checked only at deployment, so S14 stays on a square supplied 1 < its cost 2;
    under supply_check=upkeep it is retired (not destroyed) at the start of P1's turn; the others stay."""
    default = upkeep_position()
    assert (default.supply(0, 0), default.supply(0, 2)) == (1, 3)
    default.apply("END_ATTACK")
    assert at(default, "P1", "F0") == unit("S14") and player(default, "P1")["discard"] == []
    varied = upkeep_position({"supply_check": "upkeep"})
    varied.apply("END_ATTACK")
    position = varied.position()
    assert (position["turn"], position["active"], position["window"]) == (6, "P1", "move")
    assert at(varied, "P1", "F0") is None and player(varied, "P1")["discard"] == ["S14"]
    assert at(varied, "P1", "F1") == unit("S01") and at(varied, "P1", "F2") == unit("S06")
    assert "retired" in kinds(varied) and "destroyed" not in kinds(varied)
    assert player(varied, "P1")["hand"] == ["S01"]  # the draw phase follows (A9.1)


def test_a11_6_upkeep_checks_only_the_active_player():
    """Under supply_check=upkeep P2's starved S14 (supply 0 on F2) is left alone on P1's turn, and P1's lone
    leader (cost 2, supply 0 on F1) never leaves the field (A14.5)."""
    state = load(
        {"supply_check": "upkeep"},
        window="attack",
        turn=5,
        active="P2",
        p2=dict(leader_at="B0", field={"F2": "S14"}),
    )
    state.apply("END_ATTACK")
    assert at(state, "P2", "F2") == unit("S14") and at(state, "P2", "B0") == unit("L04")
    assert state.position()["active"] == "P1" and at(state, "P1", "F1") == unit("L01")


def test_a14_4_heal_cap_none_lets_lp_exceed_the_start():
    """A14.4/R14: tap_heal at full LP (22) does nothing; under heal_cap=none LP rises to 23."""
    kwargs: dict[str, Any] = dict(p1=dict(lp=22, field={"B0": "S02"}))
    default = load(**kwargs)
    default.apply("ACTIVATE B0 tap_heal")
    assert player(default, "P1")["lp"] == 22
    varied = load({"heal_cap": "none"}, **kwargs)
    varied.apply("ACTIVATE B0 tap_heal")
    assert player(varied, "P1")["lp"] == 23


def test_a13_2_hand_limit_option():
    """A13.2: 7 cards at the end of the turn are cut to 6; hand_limit=5 cuts 6 cards to 5;
    hand_limit=none keeps 9."""
    default = load(window="attack", turn=6, p1=dict(hand=["S02"] * 6))
    default.apply("END_ATTACK")
    assert default.position()["active"] == "P2" and len(player(default, "P1")["hand"]) == 6
    five = load({"hand_limit": "5"}, window="attack", turn=6, p1=dict(hand=["S02"] * 5 + ["S03"]))
    five.apply("END_ATTACK")
    assert five.position()["window"] == "discard" and legal(five) == ["DISCARD S02", "DISCARD S03"]
    five.apply("DISCARD S03")
    assert five.position()["active"] == "P2" and player(five, "P1")["hand"] == ["S02"] * 5
    unlimited = load({"hand_limit": "none"}, window="attack", turn=6, p1=dict(hand=["S02"] * 9))
    unlimited.apply("END_ATTACK")
    assert unlimited.position()["active"] == "P2" and len(player(unlimited, "P1")["hand"]) == 9


def test_every_alternative_plays_whole_games():
    """Each non-default value plays heuristic games to their end from fresh deals (A15.6 still bounds them)."""
    for option in RULE_OPTIONS:
        for value in option.values:
            if value == option.default:
                continue
            game = Aterial.from_config(config({option.name: value}))
            assert game.config.rule(option.name) == value
            for seed in range(2):
                state = game.new_state(seed, record_events=False)
                rng = random.Random(seed)
                while state.outcome() is None:
                    state.apply(choose(state, rng))
                assert state.turn <= 51


# -- configs and positions carry the rules ------------------------------------------------------------


def test_default_config_json_is_unchanged():
    """No `rules` or `patches` key at the defaults, so stored games and fingerprints are unchanged."""
    assert set(GAME.config_json()) == {"decks", "leaders", "first", "cards"}
    spelled_out = Aterial.from_config(config({"hand_limit": "6", "first_draw": "yes"}))
    assert spelled_out.config_json() == GAME.config_json()


def test_config_rules_are_sorted_and_round_trip():
    data = config({"supply_check": "upkeep", "hand_limit": "none", "heal_cap": "starting_lp"}, ["S14.cost=3"])
    game = Aterial.from_config(data)
    assert game.config.rules == (("hand_limit", "none"), ("supply_check", "upkeep"))
    assert game.config.rule("heal_cap") == "starting_lp" == rule_value(RULE_OPTIONS, (), "heal_cap")
    out = game.config_json()
    assert out["rules"] == {"hand_limit": "none", "supply_check": "upkeep"} and out["patches"] == ["S14.cost=3"]
    assert AterialConfig.from_json(out) == game.config
    assert AterialConfig(rules=(("hand_limit", "none"),)).to_json()["rules"] == {"hand_limit": "none"}


def test_position_with_rules_round_trips():
    state = load({"heal_cap": "none", "first_turn_deploy": "second_only"}, ["S25.cost=2"], p1=dict(hand=["S25"]))
    position = state.position()
    assert position["config"]["rules"] == {"first_turn_deploy": "second_only", "heal_cap": "none"}
    assert position["config"]["patches"] == ["S25.cost=2"]
    again = GAME.load_position(json.loads(json.dumps(position)))
    assert again.position() == position
    assert again.game.heal_capped is False and again.game.card_set["S25"].cost == 2
    assert state.observation(0)["config"]["rules"] == position["config"]["rules"]


@pytest.mark.parametrize(
    ("rules", "field", "text"),
    [
        ({"no_such_rule": "x"}, "config.rules.no_such_rule", "unknown rule option; this game's options: first_draw"),
        ({"hand_limit": "3"}, "config.rules.hand_limit", "'3' is not one of ['6', '4', '5', '7', '8', 'none']"),
        ({"supply_check": True}, "config.rules.supply_check", "True is not one of ['deploy', 'upkeep']"),
        (["first_draw"], "config.rules", "expected an object of rule name -> value"),
    ],
)
def test_bad_rule_is_refused_naming_the_field(rules, field, text):
    data = make_position(config={**GAME.config_json(), "rules": rules})
    with pytest.raises(PositionError) as info:
        GAME.load_position(data)
    assert info.value.field == field and text in str(info.value)


# -- card edits ---------------------------------------------------------------------------------------


def test_patch_changes_the_card_and_the_legal_deploys_follow():
    """S25 Iron Paladin costs 3 > dominance 2 around the lone leader (A11.3); patched to cost 2 it deploys
    on F1's neighbours, and S01 patched to cost 3 no longer does."""
    default = load(p1=dict(hand=["S01", "S25"]))
    assert legal(default) == ["DEPLOY S01", "END_ACTION"]
    patched = load(patches=["S25.cost=2", "S01.cost=3"], p1=dict(hand=["S01", "S25"]))
    assert patched.game.card_set["S25"].cost == 2 and patched.game.card_set["S01"].cost == 3
    assert legal(patched) == ["DEPLOY S25", "END_ACTION"]
    assert "cost 3 > dominance 2" in patched.why_illegal(patched.game.parse_action("DEPLOY S01"))
    patched.apply("DEPLOY S25")
    assert legal(patched) == ["TO B1", "TO F0", "TO F2"]
    assert "cost 2" in patched.game.card_text("S25")


def test_patches_edit_names_races_abilities_and_leaders():
    game = Aterial.from_config(
        config(patches=["S14.name=Tower Sister", "S14.races=human,angel", "S14.abilities[0].amount=2", "L01.lp=30"])
    )
    card = game.card_set["S14"]
    assert (card.name, card.races, card.abilities[0].amount) == ("Tower Sister", frozenset({"human", "angel"}), 2)
    state = game.new_state(0)
    assert state.lp[0] == 30  # L01's starting LP (A6.5), P1's leader in D1


@pytest.mark.parametrize(
    ("patch", "text"),
    [
        ("S14.cost=x", "config.patches: S14.cost: expected an integer >= 0, got 'x'"),
        ("S14.cost=-1", "config.patches: S14.cost: expected an integer >= 0, got -1"),
        ("S14.hp=0", "config.patches: S14.hp: expected an integer >= 1, got 0"),
        ("S99.cost=1", "config.patches: S99.cost: unknown card 'S99'"),
        ("S14.speed=2", "config.patches: S14.speed: unknown field; patchable fields: name, cost, attack"),
        (
            "L01.hp=3",
            "config.patches: L01.hp: unknown field; patchable fields: name, cost, attack, dominance, races, lp,",
        ),
        ("S14.id=S15", "config.patches: S14.id: cannot be patched"),
        ("S14.abilities[0].amount=0", "config.patches: S14.abilities[0].amount: expected an integer >= 1, got 0"),
        ("S14.abilities[3].amount=1", "config.patches: S14.abilities[3].amount: S14 has 1 ability"),
        ("S14.abilities[0].race=beast", "config.patches: S14.abilities[0].race: ability 'armor' takes amount"),
        ("S14.cost", "config.patches[0]: expected CARD.FIELD=VALUE (e.g. S14.cost=3), got 'S14.cost'"),
    ],
)
def test_bad_patch_is_refused_naming_the_card_and_field(patch, text):
    with pytest.raises(PositionError) as info:
        GAME.load_position(make_position(config=config(patches=[patch])))
    assert str(info.value).startswith(text), str(info.value)


def test_patch_breaking_a_deck_rule_names_the_deck():
    """A renamed card counts by its new name (A5.3): S05 renamed like S02 makes four Hearth Acolytes in D1
    (2 + 2, legal); S14 renamed so makes five (2 + 3), and D1 is refused naming the config field and rule."""
    legal_game = Aterial.from_config(config(patches=["S05.name=Hearth Acolyte"]))
    assert legal_game.new_state(0).position()["window"] == "mulligan"
    game = Aterial.from_config(config(patches=["S14.name=Hearth Acolyte"]))
    with pytest.raises(PositionError, match=r"config\.decks\.P1: D1: A5\.3: 5 cards named 'Hearth Acolyte'"):
        game.new_state(0)
