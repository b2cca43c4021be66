"""Position notations across games (docs/notation.md): `repr(state)` of every registered game holds a
notation that `parse_notation` reloads, a game without one says so, and the shared pieces
(`cardlab.core.notation`) read back whatever they write."""

from __future__ import annotations

import ast
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardlab.core.errors import CardlabError, PositionError
from cardlab.core.notation import Reader, read_whole, write_config, write_value
from cardlab.games import game_class, game_names
from tests.toygame import Kuhn


@pytest.mark.parametrize("name", game_names())
@pytest.mark.parametrize("seed", range(4))
def test_repr_reloads_for_every_registered_game(name: str, seed: int) -> None:
    game = game_class(name)()
    state = game.new_state(seed)
    rng = random.Random(seed)
    for _ in range(rng.randrange(5, 60)):
        if state.is_terminal():
            break
        state.apply(rng.choice(list(state.legal_actions())))
    text = repr(state)
    call = ast.parse(text, mode="eval").body
    assert isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == type(state).__name__
    notation = ast.literal_eval(call.args[0])
    assert "\n" not in text and notation == state.notation()
    assert game.parse_notation(notation).position() == state.position()


def test_a_game_without_a_notation_says_so() -> None:
    game = Kuhn()
    with pytest.raises(CardlabError, match="kuhn has no position notation"):
        game.parse_notation("anything")
    with pytest.raises(CardlabError, match="kuhn has no position notation"):
        game.new_state(0).notation()


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True), inner, max_size=4),
    max_leaves=12,
)


@given(value=JSON)
def test_any_json_value_reads_back_from_one_space_free_token(value: object) -> None:
    text = write_value(value)
    assert not any(char.isspace() for char in text)
    reader = Reader(text, "field", 1)
    assert read_whole(reader, reader.value) == value


RULE_NAMES = st.from_regex(r"[a-z][a-z_]{0,10}", fullmatch=True)


@given(
    decks=st.tuples(st.text(min_size=1), st.text(min_size=1)),
    first=st.none() | st.sampled_from(["P1", "P2"]),
    rules=st.dictionaries(RULE_NAMES, st.text(min_size=1), max_size=3),
)
def test_a_config_reads_back(decks: tuple[str, str], first: str | None, rules: dict[str, str]) -> None:
    rules = {name: value for name, value in rules.items() if name not in ("first", "decks")}
    config = {"decks": {"P1": decks[0], "P2": decks[1]}, "first": first, **({"rules": rules} if rules else {})}
    text = write_config(config)
    assert not any(char.isspace() for char in text)
    expected = {key: value for key, value in config.items() if value is not None}
    assert Reader(text, "config", 1).config(["first"]) == expected


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[a,b", "column 5: expected ',', found the end of the field"),
        ('"open', "column 1: a quoted string is never closed"),
        ("{a=1,a=2}", "column 6: 'a' is given twice"),
        ("007", "column 1: '007': a number has no leading zeros"),
        ("[a]]", "column 4: unexpected ']'"),
        ('"%G0"', "column 1: '%G0': '%' must start an escape"),
        ('"%FF"', "column 1: '%FF': '%' must start an escape of two hex digits of UTF-8"),
    ],
)
def test_a_malformed_value_names_the_column(text: str, problem: str) -> None:
    reader = Reader(text, "pending", 1)
    with pytest.raises(PositionError) as caught:
        read_whole(reader, reader.value)
    assert caught.value.field == "pending" and caught.value.problem.startswith(problem)
