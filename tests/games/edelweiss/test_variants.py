"""Edelweiss's rule options (issue #17): each changes play exactly where its rule says, and only there.

The scenario files `scenarios/*_rule_*.json` are the worked examples; these tests check the same
levers through the API and across whole games, and that configs, positions and notation carry them.
"""

from __future__ import annotations

import random

import pytest

from cardlab.core import PositionError
from cardlab.games.edelweiss import Edelweiss, EdelweissConfig
from cardlab.games.edelweiss.variants import RULE_OPTIONS


def _game(rules: dict[str, str], deck: str = "full", standard: str | None = None, characters=None) -> Edelweiss:
    return Edelweiss.from_config({"deck": deck, "standard": standard, "characters": characters, "rules": rules})


def _random_games(game: Edelweiss, seeds: range) -> list:
    states = []
    for seed in seeds:
        state, rng = game.new_state(seed, record_events=False), random.Random(seed)
        while state.current_player() is not None:
            state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


def test_every_option_declares_its_rule_and_a_default_among_its_values() -> None:
    assert {option.name for option in RULE_OPTIONS} == {
        "first_draw", "opening_hand", "accel2_guardian", "symbolic_field_guard", "deck_out_tie", "accel2_protection",
        "poison_bind_trigger", "poison_bind_timing",
    }  # fmt: skip
    for option in RULE_OPTIONS:
        assert option.rule.startswith("E") and option.default in option.values and len(option.values) >= 2
        assert option.description


def test_defaults_leave_the_config_json_unchanged() -> None:
    """A config naming only default values is the default config: same JSON, so same fingerprint and tables."""
    spelled = _game({option.name: option.default for option in RULE_OPTIONS})
    assert spelled.config_json() == Edelweiss().config_json() == {"deck": "full", "standard": None, "characters": None}


def test_e3_2_first_draw_no_skips_only_the_first_draw() -> None:
    """The deck only ever shrinks by draws (E2.4): on turn 1 it holds one card more, and a turn later the same."""
    checked = 0
    for seed in range(20):
        default, variant = Edelweiss().new_state(seed), _game({"first_draw": "no"}).new_state(seed)
        if default.turn == variant.turn == 1:  # both at a turn-1 decision (the first may be automatic)
            assert len(default.deck) == 52 - 8 - 1 and len(variant.deck) == 52 - 8
            checked += 1
        rng = random.Random(seed)
        while variant.turn < 3 and variant.current_player() is not None:
            variant.apply(rng.choice(variant.legal_actions()))
        if variant.turn == 3:  # P2's turn-2 draw and P1's turn-3 draw happened as usual
            assert len([e for e in variant.events if e.kind == "draw"]) == 2
    assert checked >= 10


def test_e1_4_opening_hand_deals_that_many_cards() -> None:
    for size in ("3", "5", "6"):
        state = _game({"opening_hand": size}).new_state(2)
        assert len(state.deck) == 52 - 2 * int(size) - (state.turn - 1) - 1  # one draw per turn so far
        assert len(state.hands[1]) + len(state.fields[1]) >= int(size)
    skills = _game({"opening_hand": "3"}, "skills", "symbolic", {"P1": "GARU", "P2": "EAGLE"}).new_state(1)
    assert len(skills.deck) == 36 - 6 - skills.turn  # also in a skills game, whose standard hand is 5 (E7.1)


def test_e6_2_deck_out_tie_draw_gives_draws_and_nothing_else_changes() -> None:
    """Over whole random games: the same seeds reach the same ends, except that equal-hand deck-outs are drawn."""
    default = _random_games(Edelweiss(EdelweissConfig("short")), range(300))
    variant = _random_games(_game({"deck_out_tie": "draw"}, "short"), range(300))
    ties = 0
    for before, after in zip(default, variant, strict=True):
        tie = before.win_reason == "deck_out" and len(before.hands[0]) == len(before.hands[1])
        ties += tie
        assert after.outcome() == (before.outcome() if not tie else after.outcome())
        assert (after.outcome().winner is None) == tie
        assert before.position()["players"] == after.position()["players"]
    assert ties > 0  # the situation occurs, so the test can fail


def test_e8_1_field_guard_suits_follow_the_rules() -> None:
    """The scenario files show one position each; here both standards and both options over random games:
    a FIELD_GUARD of a heart or club is offered only where the rules allow it."""
    characters = {"P1": "GARU", "P2": "VIRIDIAN"}  # both have Guardian (E9)
    seen = {}
    for standard, rules in (("symbolic", {}), ("symbolic", {"symbolic_field_guard": "spades"}),
                            ("accel2", {}), ("accel2", {"accel2_guardian": "symbolic_too"})):  # fmt: skip
        game = _game(rules, "skills", standard, characters)
        offered_other = 0
        for seed in range(600):  # an empty-handed defender with a tapped heart or club is rare in random play
            state, rng = game.new_state(seed, record_events=False), random.Random(seed)
            while state.current_player() is not None:
                legal = [str(action) for action in state.legal_actions()]
                offered_other += any(text in ("FIELD_GUARD H", "FIELD_GUARD C") for text in legal)
                state.apply(rng.choice(state.legal_actions()))
        seen[(standard, bool(rules))] = offered_other
    assert seen[("symbolic", False)] > 0 and seen[("symbolic", True)] == 0
    assert seen[("accel2", False)] == 0 and seen[("accel2", True)] > 0


def test_positions_and_notation_carry_the_rules() -> None:
    game = _game({"first_draw": "no", "deck_out_tie": "draw"}, "skills", "accel2", {"P1": "GARU", "P2": "EAGLE"})
    state = game.new_state(4)
    position = state.position()
    assert position["config"]["rules"] == {"deck_out_tie": "draw", "first_draw": "no"}
    assert game.load_position(position).position() == position
    text = state.notation()
    assert "+deck_out_tie=draw+first_draw=no" in text.split()[0]
    assert game.parse_notation(text).position() == position


def test_a_drawn_deck_out_round_trips() -> None:
    game = _game({"deck_out_tie": "draw"}, "short")
    ended = next(s for s in _random_games(game, range(300)) if s.outcome() is not None and s.outcome().winner is None)
    position = ended.position()
    assert (position["window"], position["winner"], position["win_reason"]) == ("over", None, "deck_out")
    assert game.load_position(position).position() == position
    assert game.parse_notation(ended.notation()).position() == position
    position["config"] = {key: value for key, value in position["config"].items() if key != "rules"}
    with pytest.raises(PositionError, match="winner"):  # without the rule a deck-out always has a winner (E6.2)
        Edelweiss().load_position(position)


@pytest.mark.parametrize(
    ("rules", "field", "problem"),
    [
        ({"first_draw": "maybe"}, "config.rules.first_draw", "'maybe' is not one of ['yes', 'no']"),
        ({"draw_two": "yes"}, "config.rules.draw_two", "unknown rule option"),
        ("first_draw=no", "config.rules", "expected an object"),
    ],
)
def test_bad_rules_are_refused_naming_the_field(rules, field: str, problem: str) -> None:
    with pytest.raises(PositionError) as caught:
        Edelweiss.from_config({"deck": "full", "rules": rules})
    assert caught.value.field == field and problem in caught.value.problem
