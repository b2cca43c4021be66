"""Structure-aware fuzz of Dreadnought card and deck files, next to the text fuzz of test_dreadnought_cards.py.

That fuzz mangles the file text and checks the error type and the file name. Here every D23 card (and a
starter deck) is written back as TOML with one value anywhere inside it replaced by a wrong one, a key
deleted or an unknown key added, so the file always parses and the loader's own checks are reached: the
result loads, or raises CardDataError naming the file, the card (or deck) and the field; never another
exception. A surviving card, added to the sample set as an extra file, still makes a working Game. Whole
documents of arbitrary TOML values are refused the same way.
"""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from cardlab.core.carddata import CardDataError
from cardlab.games.dreadnought import Dreadnought, DreadnoughtConfig
from cardlab.games.dreadnought.cards import load_card_set, load_deck

DATA = resources.files("cardlab.games.dreadnought") / "data"
CARDS: list[dict[str, Any]] = tomllib.loads((DATA / "cards.toml").read_text(encoding="utf-8"))["cards"]
DECK: dict[str, Any] = tomllib.loads((DATA / "decks" / "ember_spark.toml").read_text(encoding="utf-8"))["deck"][0]
ODD = [None, -1, 0, 1, 7, 1.5, True, "", "x", "ALL", "S", "red", "field", "ACTION", [], ["red", "red", "red"],
       [1], {}, {"log": 1}, "draw(n=1)", "damage(target=self, amount=0)", ["on_cast"], "X01"]  # fmt: skip
"""Wrong (and a few right) values; None means: delete the key."""
FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def toml_string(value: str) -> str:
    """A TOML basic string: quote, backslash and control characters escaped."""
    escaped = "".join(
        f"\\{char}" if char in '"\\' else f"\\u{ord(char):04x}" if ord(char) < 0x20 or char == "\x7f" else char
        for char in value
    )
    return f'"{escaped}"'


def toml_value(value: Any) -> str:
    """`value` as an inline TOML value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    return "{ " + ", ".join(f"{toml_string(key)} = {toml_value(item)}" for key, item in value.items()) + " }"


def toml_tables(name: str, tables: list[dict[str, Any]]) -> str:
    return "".join(
        f"[[{name}]]\n" + "".join(f"{toml_string(key)} = {toml_value(value)}\n" for key, value in table.items()) + "\n"
        for table in tables
    )


def locations(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path inside a table."""
    found = []
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for key, value in items:
        found.append((*prefix, key))
        found += locations(value, (*prefix, key))
    return found


def mutate(table: dict[str, Any], where: int, value: int, add: bool) -> tuple[dict[str, Any], str]:
    """A deep copy of `table` with one change: a value replaced, a key deleted, or an unknown key added."""
    table = json.loads(json.dumps(table))
    path = locations(table)[where % len(locations(table))]
    parent: Any = table
    for key in path[:-1]:
        parent = parent[key]
    new = ODD[value % len(ODD)]
    if add and isinstance(parent, dict):
        parent["colour"] = "red" if new is None else new
        return table, f"add colour under {path[:-1]}"
    if new is None:
        del parent[path[-1]]
        return table, f"delete {path}"
    parent[path[-1]] = new
    return table, f"set {path} = {new!r}"


def text(value: Any) -> bool:
    """What the loader accepts as a name for errors: a non-empty string."""
    return isinstance(value, str) and value != ""


def check_error(error: CardDataError, path: Path, record: str) -> None:
    """Clean: the file first, then the card or deck, then a field, then the problem."""
    assert error.path == path and str(error).startswith(f"{path}: {record}: ")
    assert error.problem and error.record == record
    assert error.field, f"no field named: {error}"
    assert f"{record}: field {error.field!r}: {error.problem}" in str(error)


changes = st.tuples(st.integers(0, 10**6), st.integers(0, len(ODD) - 1), st.booleans())


@settings(FUZZ, max_examples=250)
@given(index=st.integers(0, len(CARDS) - 1), change=changes)
def test_mutated_card_loads_or_names_file_card_and_field(tmp_path_factory, index, change):
    """One D23 card with one change: CardDataError naming file, card and field; or it loads and, under a new id
    next to the sample set, a Game with it builds its action space and starts."""
    card, told = mutate(CARDS[index], *change)
    note(f"card {CARDS[index]['id']}: {told}")
    path = tmp_path_factory.mktemp("cards") / "cards.toml"
    path.write_text(toml_tables("cards", [card]), encoding="utf-8")
    try:
        loaded = load_card_set([path])
    except CardDataError as error:
        check_error(error, path, f"card {card['id']}" if text(card.get("id")) else "card #1")
        return
    assert len(loaded.by_id) == 1
    extra = {**card, "id": f"Z{card['id']}", "name": f"Z {card.get('name', '')}"}
    path.write_text(toml_tables("cards", [extra]), encoding="utf-8")
    game = Dreadnought(DreadnoughtConfig(cards=(str(path),)))
    assert f"Z{card['id']}" in game.card_set and game.num_actions == len(game.actions.space)
    game.new_state(0)


@settings(FUZZ, max_examples=100)
@given(change=changes)
def test_mutated_deck_loads_or_names_file_deck_and_field(tmp_path_factory, change):
    """The Ember & Spark deck with one change: CardDataError naming file, deck and field, or a loaded deck."""
    deck, told = mutate(DECK, *change)
    note(told)
    path = tmp_path_factory.mktemp("decks") / "deck.toml"
    path.write_text(toml_tables("deck", [deck]), encoding="utf-8")
    try:
        loaded = load_deck(path)
    except CardDataError as error:
        label = next((deck[key] for key in ("id", "name") if text(deck.get(key))), "")
        check_error(error, path, f"deck {label}".rstrip())
        return
    assert sum(loaded.cards.values()) == len(loaded.card_list())


words = st.text(st.characters(exclude_categories=("Cs",)), max_size=8)
toml_leaves = st.none() | st.booleans() | st.integers(-3, 60) | words
toml_values = st.recursive(
    toml_leaves,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(words, inner, max_size=3),
    max_leaves=8,
)


def without_none(value: Any) -> Any:
    """TOML has no null: drop them."""
    if isinstance(value, list):
        return [without_none(item) for item in value if item is not None]
    if isinstance(value, dict):
        return {key: without_none(item) for key, item in value.items() if item is not None}
    return value


@settings(FUZZ, max_examples=150)
@given(document=st.dictionaries(st.sampled_from(["cards", "deck", "casters", "x"]) | words, toml_values, max_size=3))
def test_arbitrary_toml_documents_raise_card_data_error(tmp_path_factory, document):
    """Any TOML document: a card file or deck file loads or raises CardDataError starting with the file name."""
    text = "".join(f"{toml_string(key)} = {toml_value(value)}\n" for key, value in without_none(document).items())
    tomllib.loads(text)  # the document itself is valid TOML
    path = tmp_path_factory.mktemp("toml") / "data.toml"
    path.write_text(text, encoding="utf-8")
    for load in (lambda: load_card_set([path]), lambda: load_deck(path)):
        try:
            load()
        except CardDataError as error:
            assert str(error).startswith(f"{path}: ")


UNIT = 'id = {id}\nname = "Zed"\ntype = "unit"\ncluster = []\ncond = []\nspeed = "B"\ncost = 0\nsize = "S"\nbp = 50\n'


@pytest.mark.parametrize("card_id", ["Z 1", "Z\t1", "ZZ ", "R01@S"])
def test_card_id_that_cannot_be_written_in_actions_is_a_card_data_error(tmp_path, card_id):
    """Found by the fuzz: ids with whitespace, or ending in `@S` (the speed-area mark), break the action texts
    (`DUMMY <id> BA1`, `PLAY R01@S`); the card file must be refused with the card and field named, not crash
    the Game."""
    path = tmp_path / "cards.toml"
    path.write_text("[[cards]]\n" + UNIT.format(id=toml_string(card_id)), encoding="utf-8")
    with pytest.raises(CardDataError) as info:
        load_card_set([path], with_sample_set=True)
        Dreadnought(DreadnoughtConfig(cards=(str(path),)))
    assert info.value.path == path and info.value.field == "id"
