"""Aterial's one-line notation (docs/notation.md): it round-trips every position random play reaches,
under rule options and a designer's card and deck files, and names the place of any malformed part."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.core.errors import PositionError
from cardlab.games.aterial import Aterial, AterialConfig
from cardlab.games.aterial.notation import position_of_notation
from cardlab.games.aterial.variants import RULE_OPTIONS
from tests.designer_files import NEW_CARD, packaged_deck_copy
from tests.notation_checks import corrupt, loads_or_says_why, play_and_check

MAX_STEPS = 400
DOC = Path(__file__).parents[3] / "docs" / "notation.md"
RULES = st.fixed_dictionaries({option.name: st.sampled_from(option.values) for option in RULE_OPTIONS})
LEADERS = st.sampled_from([None, "L01", "L02", "L03", "L04", "L05"])


@pytest.fixture(scope="module")
def designer_game(tmp_path_factory: pytest.TempPathFactory) -> Aterial:
    """A game of a designer's card file and a deck file using its card, in a folder whose name needs quoting."""
    folder = tmp_path_factory.mktemp("my files, 100%")
    cards = folder / "my cards.toml"
    cards.write_text(NEW_CARD, encoding="utf-8")
    deck = packaged_deck_copy("aterial", "D1", folder, "my deck.toml")
    deck.write_text(deck.read_text(encoding="utf-8").replace("S14 = 3", "S14 = 1, S90 = 2"), encoding="utf-8")
    return Aterial(AterialConfig(decks=(str(deck), "D2"), cards=(str(cards),)))


def rules_tuple(values: dict[str, str]) -> tuple[tuple[str, str], ...]:
    defaults = {option.name: option.default for option in RULE_OPTIONS}
    return tuple(sorted((name, value) for name, value in values.items() if value != defaults[name]))


@settings(max_examples=12, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31 - 1),
    decks=st.sampled_from([("D1", "D2"), ("D2", "D1"), ("D1", "D1")]),
    leaders=st.tuples(LEADERS, LEADERS),
    first=st.sampled_from([None, "P1", "P2"]),
    rules=RULES,
)
def test_random_positions_under_rule_options_round_trip(seed, decks, leaders, first, rules) -> None:
    config = AterialConfig(decks=decks, leaders=leaders, first=first, rules=rules_tuple(rules))
    assert play_and_check(Aterial(config), seed, MAX_STEPS) > 0


@settings(max_examples=6, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31 - 1))
def test_random_positions_of_designer_files_round_trip(designer_game: Aterial, seed: int) -> None:
    assert play_and_check(designer_game, seed, MAX_STEPS) > 0


def test_designer_files_travel_quoted_and_come_back(designer_game: Aterial) -> None:
    text = designer_game.new_state(1).notation()
    config = text.split()[0]
    assert config.startswith('"') and "%20" in config and "%25" in config and "+cards=[" in config
    assert position_of_notation(text)["config"] == designer_game.config_json()


def test_a_notation_reads_as_documented() -> None:
    """docs/notation.md's fields: grid rows, a unit's non-default fields, the deck top card first, the result."""
    state = Aterial().new_state(3)
    data = state.position()
    fields = state.notation().split()
    assert fields[:6] == ["D1,D2", "0", data["active"], data["first"], "mulligan", data["chooser"]]
    lp, grid, hand, deck, discard, removed = fields[9].split("|")
    assert lp == str(data["players"]["P1"]["lp"]) and grid == "-,L01,-/-,-,-" and (discard, removed) == ("-", "-")
    assert hand.split(",") == data["players"]["P1"]["hand"] and deck.split(",") == data["players"]["P1"]["deck"]
    assert fields[11] == "-"


def test_rule_options_and_overrides_are_written_in_the_config() -> None:
    game = Aterial(AterialConfig(leaders=("L03", None), first="P2", rules=(("hand_limit", "5"),)))
    config = game.new_state(0).notation().split()[0]
    assert config == "D1,D2+leaders={P1=L03,P2=-}+first=P2+hand_limit=5"


def test_the_notations_config_wins() -> None:
    text = Aterial(AterialConfig(decks=("D2", "D2"))).new_state(4).notation()
    assert Aterial().parse_notation(text).game.config.decks == ("D2", "D2")


BASE = Aterial().new_state(3).notation()


def replace_field(index: int, value: str) -> str:
    fields = BASE.split()
    fields[index] = value
    return " ".join(fields)


MALFORMED = [
    (BASE.rsplit(" ", 1)[0], "notation", "expected 12 space-separated fields"),
    (replace_field(1, "x1"), "turn", "expected an integer >= 0"),
    (replace_field(1, "01"), "turn", "column 7: '01': a number has no leading zeros"),
    (replace_field(2, "P3"), "active", "'P3': expected P1 or P2"),
    (replace_field(4, "nap"), "window", "nap"),
    (replace_field(6, "{square=F1"), "pending", "expected ',', found the end of the field"),
    (replace_field(0, "D1"), "config", "expected ','"),
    (replace_field(0, "D1,D2+first=P1+first=P2"), "config", "'first' is given twice"),
    (replace_field(0, "D1,D2+hand_limit=9"), "config.rules.hand_limit", "9"),
    (replace_field(0, '"D1%zz",D2'), "config", "'%' must start an escape"),
    (replace_field(9, "20|-,L01/-,-,-|-|-|-|-"), "P1", "a row has 3 squares"),
    (replace_field(9, "20|-,L01{hp=3},-/-,-,-|-|-|-|-"), "P1", "'hp' is not a field here"),
    (replace_field(9, "lp|-,L01,-/-,-,-|-|-|-|-"), "P1", "starting with the LP"),
    (replace_field(9, "20|-,L01,-/-,-,-|-|-|-"), "P1", "expected '|', found the end of the field"),
    (replace_field(10, "20|-,L04,-/-,-,-|Z99|-|-|-"), "players.P2.hand[0]", "Z99"),
    (replace_field(11, "P3:lp"), "result", "expected '-' or WINNER:REASON"),
    (replace_field(11, "P1:lp"), "winner", "a result is set exactly when window is 'over'"),
]


@pytest.mark.parametrize(("text", "field", "problem"), MALFORMED, ids=[case[2][:30] for case in MALFORMED])
def test_malformed_notation_names_the_place_and_the_problem(text: str, field: str, problem: str) -> None:
    with pytest.raises(PositionError) as caught:
        Aterial().parse_notation(text)
    assert caught.value.field == field
    assert problem in caught.value.problem


def test_a_syntax_error_gives_the_column_in_the_whole_notation() -> None:
    text = replace_field(6, "{square=F1")
    with pytest.raises(PositionError) as caught:
        Aterial().parse_notation(text)
    column = int(caught.value.problem.split()[1].rstrip(":"))
    assert column == text.index("{square=F1") + len("{square=F1") + 1


def test_not_a_string_is_refused() -> None:
    with pytest.raises(PositionError, match="notation: expected a string, got dict"):
        Aterial().parse_notation({"game": "aterial"})  # type: ignore[arg-type]


@settings(max_examples=300)
@given(seed=st.integers(0, 2**31 - 1))
def test_a_corrupted_notation_loads_or_says_why(seed: int) -> None:
    rng = random.Random(seed)
    state = Aterial().new_state(seed % 50)
    for _ in range(rng.randrange(60)):
        if state.is_terminal():
            break
        state.apply(rng.choice(list(state.legal_actions())))
    loads_or_says_why(Aterial(), corrupt(state.notation(), rng))


def test_the_documented_examples_load_and_print_the_same() -> None:
    blocks = re.findall(r"```aterial-notation\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    lines = [line for block in blocks for line in block.splitlines() if line.strip()]
    assert lines
    for line in lines:
        assert Aterial().parse_notation(line).notation() == line
