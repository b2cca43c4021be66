"""Rule options as data (core/rules.py): every game lists each option's default first (issue #33)."""

from __future__ import annotations

import pytest

from cardlab.core.rules import RuleOption
from cardlab.games import game_class, game_names


def test_a_rule_option_must_list_its_default_first_and_once() -> None:
    RuleOption("x", "E1", "a", ("a", "b"), "b: other")
    for values in (("b", "a"), ("a", "a", "b"), ()):
        with pytest.raises(ValueError, match="default first"):
            RuleOption("x", "E1", "a", values, "b: other")


@pytest.mark.parametrize("game", game_names())
def test_every_games_options_name_their_rule_and_list_the_default_first(game: str) -> None:
    """`cardlab rules GAME --json` shows `values` in declaration order, so the default must come first."""
    for option in game_class(game).rule_options:
        assert option.values[0] == option.default and len(option.values) >= 2
        assert option.rule and option.description
