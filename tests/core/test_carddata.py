"""The shared card data loader: file shape, unique ids and field helpers whose errors point at the input."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.core.carddata import (
    CardDataError,
    DataTable,
    check_fields,
    load_card_tables,
    load_deck_table,
    read_toml,
    require_int,
    require_int_map,
    require_str,
    require_str_list,
    require_table_list,
)
from cardlab.core.errors import CardlabError

CARD = '[[cards]]\nid = "{id}"\nname = "Card {id}"\n'


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def table(data: dict, record: str = "card S14") -> DataTable:
    return DataTable(data, Path("cards.toml"), record)


def error_of(call, *args) -> CardDataError:
    with pytest.raises(CardDataError) as info:
        call(*args)
    return info.value


def test_error_is_a_cardlab_value_error_naming_file_card_and_field():
    error = error_of(require_int, table({"hp": "four"}), "hp", 1)
    assert isinstance(error, CardlabError)
    assert isinstance(error, ValueError)
    assert str(error) == "cards.toml: card S14: field 'hp': expected an integer >= 1, got 'four'"
    assert (error.path, error.record, error.field) == (Path("cards.toml"), "card S14", "hp")


def test_toml_syntax_error_names_line_and_column(tmp_path):
    path = write(tmp_path, "cards.toml", '[[cards]]\nid = "S01"\nname = = "x"\n')
    message = str(error_of(read_toml, path))
    assert message.startswith(f"{path}: line 3, column 8: invalid TOML: ")


def test_toml_error_at_end_of_document_gets_a_position(tmp_path):
    path = write(tmp_path, "cards.toml", '[[cards]]\nid = "S01')
    assert str(error_of(read_toml, path)).startswith(f"{path}: line 2, column 10: invalid TOML: ")


def test_unreadable_and_non_utf8_files(tmp_path):
    missing = tmp_path / "missing.toml"
    assert "cannot read the file" in str(error_of(read_toml, missing))
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b'id = "\xff"\n')
    assert "not UTF-8 text" in str(error_of(read_toml, binary))


def test_card_tables_in_order_with_ids(tmp_path):
    first = write(tmp_path, "a.toml", CARD.format(id="A1") + CARD.format(id="A2"))
    # Dreadnought's sample set uses the inline form `cards = [ {...} ]` (D22.7); it is the same data.
    second = write(tmp_path, "b.toml", 'cards = [ { id = "B1", name = "Inline" } ]\n')
    tables = load_card_tables([first, second])
    assert [t.record for t in tables] == ["card A1", "card A2", "card B1"]
    assert [t.path for t in tables] == [first, first, second]
    assert tables[2].data == {"id": "B1", "name": "Inline"}


def test_duplicate_ids_across_files_name_both_files(tmp_path):
    first = write(tmp_path, "base.toml", CARD.format(id="S01"))
    second = write(tmp_path, "extra.toml", CARD.format(id="S02") + CARD.format(id="S01"))
    message = str(error_of(load_card_tables, [first, second]))
    assert message.startswith(f"{second}: card S01: field 'id': duplicate card id 'S01'")
    assert str(first) in message


def test_duplicate_ids_within_one_file(tmp_path):
    path = write(tmp_path, "cards.toml", CARD.format(id="S01") * 2)
    assert "also earlier in this file" in str(error_of(load_card_tables, [path]))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "no [[cards]] tables"),
        ('title = "set"\n' + CARD.format(id="S01"), "unexpected top-level key 'title'"),
        (CARD.format(id="S01") + '[[deck]]\nid = "D1"\n', "unexpected top-level key 'deck'"),
        ('[cards]\nid = "S01"\n', "no [[cards]] tables"),
        ("cards = [1]\n", "card #1: expected a table, got 1"),
        ('[[cards]]\nname = "No id"\n', "card #1: field 'id': missing required field"),
        ("[[cards]]\nid = 7\n", "card #1: field 'id': expected a non-empty string, got 7"),
    ],
)
def test_card_file_shape(tmp_path, text, expected):
    path = write(tmp_path, "cards.toml", text)
    message = str(error_of(load_card_tables, [path]))
    assert message.startswith(f"{path}: ")
    assert expected in message


def test_deck_table_named_by_id_else_name(tmp_path):
    with_id = write(tmp_path, "d1.toml", '[[deck]]\nid = "D1"\nname = "Dawn"\n')
    assert load_deck_table(with_id).record == "deck D1"
    # Dreadnought decks (D23.3) have a name and casters but no id.
    named = write(tmp_path, "d2.toml", '[[deck]]\nname = "Ember & Spark"\ncasters = ["X01", "X03"]\n')
    assert load_deck_table(named).record == "deck Ember & Spark"
    bare = write(tmp_path, "d3.toml", "[[deck]]\ncards = {}\n")
    assert load_deck_table(bare).record == "deck"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "no [[deck]] tables"),
        ('[[deck]]\nid = "D1"\n[[deck]]\nid = "D2"\n', "expected exactly one [[deck]] table, got 2"),
        ('[[deck]]\nid = "D1"\n[[cards]]\nid = "S01"\n', "unexpected top-level key 'cards'"),
        ('[deck]\nid = "D1"\n', "no [[deck]] tables"),
        ("deck = [3]\n", "expected a [[deck]] table, got 3"),
    ],
)
def test_deck_file_shape(tmp_path, text, expected):
    path = write(tmp_path, "deck.toml", text)
    assert expected in str(error_of(load_deck_table, path))


def test_check_fields():
    check_fields(table({"id": "S1", "sub": {}}), ("id",), ("sub", "max_copies"))
    missing = error_of(check_fields, table({"id": "S1"}), ("id", "name"))
    assert str(missing).endswith("field 'name': missing required field")
    unknown = error_of(check_fields, table({"id": "S1", "hpp": 3}), ("id",), ("hp",))
    assert str(unknown).endswith("field 'hpp': unknown field; valid fields: id, hp")


@pytest.mark.parametrize("value", ["four", 2.0, True, -1, None])
def test_require_int_rejects(value):
    assert "expected an integer >= 0" in str(error_of(require_int, table({"cost": value}), "cost", 0))


def test_require_int_accepts_and_minimum_is_optional():
    assert require_int(table({"cost": 0}), "cost", 0) == 0
    assert require_int(table({"delta": -3}), "delta") == -3
    assert str(error_of(require_int, table({"delta": "x"}), "delta")).endswith("expected an integer, got 'x'")


def test_require_str():
    assert require_str(table({"type": "unit"}), "type", ("unit", "code")) == "unit"
    assert "expected one of 'unit', 'code', got 'spell'" in str(
        error_of(require_str, table({"type": "spell"}), "type", ("unit", "code"))
    )
    assert "expected a non-empty string, got ''" in str(error_of(require_str, table({"name": ""}), "name"))
    assert "got ['x']" in str(error_of(require_str, table({"name": ["x"]}), "name"))


def test_require_str_list():
    assert require_str_list(table({"cond": ["black", "black"]}), "cond") == ["black", "black"]
    for bad in ([], "human", ["human", 3], [""]):
        message = str(error_of(require_str_list, table({"races": bad}), "races"))
        assert "field 'races': expected a non-empty list of non-empty strings" in message


def test_require_table_list_gives_nested_context():
    parent = table({"abilities": [{"key": "armor"}, {"key": "flank", "amount": "x"}]})
    items = require_table_list(parent, "abilities")
    assert [item.data["key"] for item in items] == ["armor", "flank"]
    assert str(error_of(require_int, items[1], "amount", 1)).startswith(
        "cards.toml: card S14: field 'abilities[1].amount': expected an integer >= 1"
    )
    assert require_table_list(table({"abilities": []}), "abilities") == []
    assert "field 'abilities[0]': expected a table" in str(
        error_of(require_table_list, table({"abilities": ["armor"]}), "abilities")
    )
    assert "expected a list of tables" in str(error_of(require_table_list, table({"abilities": {}}), "abilities"))


def test_require_int_map():
    deck = table({"cards": {"S02": 2, "S01": 1}}, record="deck D1")
    assert list(require_int_map(deck, "cards", 1).items()) == [("S02", 2), ("S01", 1)]
    bad = table({"cards": {"S02": 0}}, record="deck D1")
    assert str(error_of(require_int_map, bad, "cards", 1)) == (
        "cards.toml: deck D1: field 'cards.S02': expected an integer >= 1, got 0"
    )
    assert "expected a table of name = integer" in str(error_of(require_int_map, table({"cards": [1]}), "cards", 1))


def test_table_error_for_custom_checks():
    nested = DataTable({}, Path("x.toml"), "card L01", "abilities[0].")
    assert str(nested.error("key", "not on leaders")) == "x.toml: card L01: field 'abilities[0].key': not on leaders"


def test_a_parsed_card_file_is_reused_but_never_shared_and_an_edit_is_read(tmp_path):
    """A lab run builds a game per cell from the same files: the parse is kept by text, and each
    caller gets its own document (changing one changes no other), and an edited file is read anew."""
    from cardlab.core.datafile import read_toml

    path = tmp_path / "cards.toml"
    path.write_text('[[cards]]\nid = "C1"\ncost = 1\n')
    first = read_toml(path)
    first["cards"][0]["cost"] = 99
    assert read_toml(path)["cards"][0]["cost"] == 1
    path.write_text('[[cards]]\nid = "C1"\ncost = 2\n')
    assert read_toml(path)["cards"][0]["cost"] == 2
    path.write_text('[[cards]]\nid = "C1"\ncost = \n')
    with pytest.raises(CardlabError, match="line 3"):
        read_toml(path)
