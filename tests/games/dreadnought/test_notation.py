"""Dreadnought's one-line notation (docs/notation.md): it round-trips every position random play
reaches (set-up, half-done plays, attacks, the stack), under rule options and a designer's card and
deck files, and names the place of any malformed part."""

from __future__ import annotations

import random
import re
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.core.errors import PositionError
from cardlab.games.dreadnought import Dreadnought, DreadnoughtConfig
from cardlab.games.dreadnought.notation import position_of_notation
from cardlab.games.dreadnought.variants import RULE_OPTIONS
from tests.designer_files import packaged_deck_copy
from tests.notation_checks import corrupt, loads_or_says_why, play_and_check

MAX_STEPS = 400
DOC = Path(__file__).parents[3] / "docs" / "notation.md"
RULES = st.fixed_dictionaries({option.name: st.sampled_from(option.values) for option in RULE_OPTIONS})
OTHER_CASTERS = {"ember_spark": ("X02", "X03"), "tide_grove": ("X04", "X07")}
"""A legal caster pair replacing each deck's own (`--casters`)."""
PACKAGED_CARDS = resources.files("cardlab.games.dreadnought").joinpath("data", "cards.toml").read_text("utf-8")


@pytest.fixture(scope="module")
def designer_game(tmp_path_factory: pytest.TempPathFactory) -> Dreadnought:
    """A designer's card (Ashfang Cub as ZR01) and a deck using it, in a folder whose name needs quoting."""
    folder = tmp_path_factory.mktemp("my files, 100%")
    block = re.search(r'\[\[cards\]\]\nid = "R01"\n.*?\n\n', PACKAGED_CARDS, re.DOTALL)
    assert block is not None
    cards = folder / "my cards.toml"
    cards.write_text(block.group().replace('"R01"', '"ZR01"').replace("Ashfang Cub", "Ashfang Pup"), "utf-8")
    deck = packaged_deck_copy("dreadnought", "ember_spark", folder, "my deck.toml")
    deck.write_text(deck.read_text("utf-8").replace("R01 = 4", "R01 = 2, ZR01 = 2"), "utf-8")
    return Dreadnought(DreadnoughtConfig(decks=(str(deck), "tide_grove"), cards=(str(cards),)))


def rules_tuple(values: dict[str, str]) -> tuple[tuple[str, str], ...]:
    defaults = {option.name: option.default for option in RULE_OPTIONS}
    return tuple(sorted((name, value) for name, value in values.items() if value != defaults[name]))


@settings(max_examples=12, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31 - 1),
    decks=st.sampled_from([("ember_spark", "tide_grove"), ("tide_grove", "ember_spark")]),
    replace=st.tuples(st.booleans(), st.booleans()),
    rules=RULES,
)
def test_random_positions_under_rule_options_round_trip(seed, decks, replace, rules) -> None:
    p1, p2 = (OTHER_CASTERS[deck] if swap else None for deck, swap in zip(decks, replace, strict=True))
    casters = (p1, p2)
    config = DreadnoughtConfig(decks=decks, casters=casters, rules=rules_tuple(rules))
    assert play_and_check(Dreadnought(config), seed, MAX_STEPS) > 0


@settings(max_examples=5, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31 - 1))
def test_random_positions_of_designer_files_round_trip(designer_game: Dreadnought, seed: int) -> None:
    assert play_and_check(designer_game, seed, MAX_STEPS) > 0


def test_designer_files_travel_quoted_and_come_back(designer_game: Dreadnought) -> None:
    text = designer_game.new_state(1).notation()
    config = text.split()[0]
    assert config.startswith('"') and "%20" in config and "%25" in config and "+cards=[" in config
    assert position_of_notation(text)["config"] == designer_game.config_json()


def test_piles_are_written_top_card_first() -> None:
    """The JSON lists deck and HP stacks top card last; the notation writes them top card first."""
    state = Dreadnought().new_state(2)
    for _ in range(30):
        state.apply(state.legal_actions()[0])
    data = state.position()
    ba1, _, _, deck, *_ = state.notation().split()[9].split("|")
    assert deck.split(",") == data["players"]["P1"]["deck"][::-1]
    caster, hp, _ = ba1.split("/")
    assert caster.startswith(data["players"]["P1"]["BA1"]["caster"]["card"])
    assert hp.split(",") == data["players"]["P1"]["BA1"]["hp"][::-1]


def test_rule_options_and_casters_are_written_in_the_config() -> None:
    game = Dreadnought(DreadnoughtConfig(casters=(("X02", "X03"), None), rules=(("tie_reveals", "1"),)))
    config = game.new_state(0).notation().split()[0]
    assert config == "ember_spark,tide_grove+casters={P1=[X02,X03],P2=-}+tie_reveals=1"


BASE = Dreadnought().new_state(3).notation()
"""Set-up: `-/-/-` battle areas, the casters in `placement`."""


def replace_field(index: int, value: str) -> str:
    fields = BASE.split()
    fields[index] = value
    return " ".join(fields)


def replace_in_player(seat: int, old: str, new: str) -> str:
    fields = BASE.split()
    assert old in fields[9 + seat]
    fields[9 + seat] = fields[9 + seat].replace(old, new, 1)
    return " ".join(fields)


MALFORMED = [
    (BASE + " -", "notation", "expected 12 space-separated fields"),
    (replace_field(3, "P3"), "first", "'P3': expected P1 or P2"),
    (replace_field(7, "-1"), "cost_reduction", "expected an integer >= 0"),
    (replace_field(8, "[setup],[place,P2"), "stack", "expected ',', found the end of the field"),
    (replace_field(8, "-"), "stack", "a game in progress needs at least one pending step"),
    (replace_field(5, "{player=P1,player=P2}"), "attack", "'player' is given twice"),
    (replace_in_player(0, "placement=", "placed="), "P1", "'placed' is not a player field"),
    (replace_in_player(0, "-/-/-|", "-/-|"), "P1", "expected '/'"),
    (replace_in_player(1, "-/-/-|-/-/-|-|", "-/-/-|-/-/-|-|Q77,"), "players.P2.deck[0] (counted from the top)", "Q77"),
    (replace_field(0, "ember_spark,tide_grove+casters=X02"), "config.casters", 'expected {"P1": ..., "P2": ...}'),
    (replace_field(11, "draw"), "result", "expected ':'"),
]


@pytest.mark.parametrize(("text", "field", "problem"), MALFORMED, ids=[case[2][:30] for case in MALFORMED])
def test_malformed_notation_names_the_place_and_the_problem(text: str, field: str, problem: str) -> None:
    with pytest.raises(PositionError) as caught:
        Dreadnought().parse_notation(text)
    assert caught.value.field == field
    assert problem in caught.value.problem


@settings(max_examples=300)
@given(seed=st.integers(0, 2**31 - 1))
def test_a_corrupted_notation_loads_or_says_why(seed: int) -> None:
    rng = random.Random(seed)
    state = Dreadnought().new_state(seed % 50)
    for _ in range(rng.randrange(80)):
        if state.is_terminal():
            break
        state.apply(rng.choice(list(state.legal_actions())))
    loads_or_says_why(Dreadnought(), corrupt(state.notation(), rng))


def test_the_documented_examples_load_and_print_the_same() -> None:
    blocks = re.findall(r"```dreadnought-notation\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    lines = [line for block in blocks for line in block.splitlines() if line.strip()]
    assert lines
    for line in lines:
        assert Dreadnought().parse_notation(line).notation() == line
