"""Card and deck data files shared by the trading card games (each game's card-data rules say the fields).

A card file holds only `[[cards]]` tables and a deck file exactly one `[[deck]]` table. This module reads
them and checks what every game agrees on (file shape, unique card ids); each game checks its own fields
with the `require_*` helpers, so every error names the file, the card or deck and the field to fix.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from cardlab.core import datafile
from cardlab.core.datafile import DataFileError
from cardlab.core.errors import CardlabError


class CardDataError(CardlabError, ValueError):
    """A card or deck file that cannot be loaded; the message says where (file, record, field) and why."""

    def __init__(self, path: Path, problem: str, *, record: str = "", field: str = "") -> None:
        self.path = path
        self.record = record
        self.field = field
        self.problem = problem
        parts = [str(path), record, f"field {field!r}" if field else "", problem]
        super().__init__(": ".join(part for part in parts if part))

    def __reduce__(self) -> tuple[Any, ...]:
        """Picklable, so that an error raised in a worker process reaches the parent intact."""
        return (_rebuild_card_data_error, (self.path, self.problem, self.record, self.field))


def _rebuild_card_data_error(path: Path, problem: str, record: str, field: str) -> CardDataError:
    return CardDataError(path, problem, record=record, field=field)


@dataclass(frozen=True, slots=True)
class DataTable:
    """One card or deck table (or a table nested in one) with the context its errors must name."""

    data: Mapping[str, Any]
    path: Path
    record: str
    """`card S14`, `deck D1`: what the table describes."""
    prefix: str = ""
    """Prepended to field names of nested tables, e.g. `abilities[0].`."""

    def error(self, field: str, problem: str) -> CardDataError:
        """An error about `field` of this table, for checks the helpers below do not cover."""
        return CardDataError(self.path, problem, record=self.record, field=self.prefix + field)


def _value(table: DataTable, field: str) -> Any:
    if field not in table.data:
        raise table.error(field, "missing required field")
    return table.data[field]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_text(value: object) -> bool:
    return isinstance(value, str) and value != ""


def check_fields(table: DataTable, required: Collection[str], optional: Collection[str] = ()) -> None:
    """Reject a missing required field or any field not listed, so typos never pass silently."""
    for field in required:
        _value(table, field)
    valid = [*required, *optional]
    for field in table.data:
        if field not in valid:
            raise table.error(field, f"unknown field; valid fields: {', '.join(valid)}")


def require_int(table: DataTable, field: str, minimum: int | None = None) -> int:
    """The integer in `field` (booleans and floats are rejected), at least `minimum` if given."""
    value = _value(table, field)
    if not _is_int(value) or (minimum is not None and value < minimum):
        bound = f" >= {minimum}" if minimum is not None else ""
        raise table.error(field, f"expected an integer{bound}, got {value!r}")
    return value


def require_str(table: DataTable, field: str, choices: Collection[str] = ()) -> str:
    """The non-empty string in `field`, one of `choices` if given."""
    value = _value(table, field)
    if not _is_text(value) or (choices and value not in choices):
        expected = f"one of {', '.join(map(repr, choices))}" if choices else "a non-empty string"
        raise table.error(field, f"expected {expected}, got {value!r}")
    return value


_CARD_ID = re.compile(r"[A-Za-z0-9_-]+")


def require_card_id(table: DataTable, field: str = "id") -> str:
    """A card id: letters, digits, '_' or '-', because ids are words of action texts (`DEPLOY S14`, `PLAY R05`)."""
    value = require_str(table, field)
    if not _CARD_ID.fullmatch(value):
        raise table.error(field, f"expected letters, digits, '_' or '-' only, got {value!r}")
    return value


def require_str_list(table: DataTable, field: str) -> list[str]:
    """The non-empty list of non-empty strings in `field` (repeats allowed: a condition may name one twice)."""
    value = _value(table, field)
    if not isinstance(value, list) or not value or not all(_is_text(item) for item in value):
        raise table.error(field, f"expected a non-empty list of non-empty strings, got {value!r}")
    return value


def require_table_list(table: DataTable, field: str) -> list[DataTable]:
    """The list of tables in `field` (may be empty), each carrying this table's context for its own errors."""
    value = _value(table, field)
    if not isinstance(value, list):
        raise table.error(field, f"expected a list of tables, got {value!r}")
    items = []
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            raise table.error(f"{field}[{index}]", f"expected a table, got {item!r}")
        items.append(DataTable(item, table.path, table.record, f"{table.prefix}{field}[{index}]."))
    return items


def require_int_map(table: DataTable, field: str, minimum: int) -> dict[str, int]:
    """The table of name -> integer >= `minimum` in `field` (a deck's card id -> count), in file order."""
    value = _value(table, field)
    if not isinstance(value, dict):
        raise table.error(field, f"expected a table of name = integer, got {value!r}")
    for key, count in value.items():
        if not _is_int(count) or count < minimum:
            raise table.error(f"{field}.{key}", f"expected an integer >= {minimum}, got {count!r}")
    return dict(value)


def read_toml(path: Path) -> dict[str, Any]:
    """Parse one TOML file; whatever is wrong with it (unreadable, not UTF-8, a syntax error with line and
    column, nesting too deep, ...) becomes a `CardDataError`."""
    try:
        return datafile.read_toml(path)
    except DataFileError as exc:
        raise CardDataError(path, exc.problem) from None


def _only_key(path: Path, document: dict[str, Any], key: str, kind: str) -> list[Any]:
    """The array of tables under `key`, the file's one top-level key."""
    for other in document:
        if other != key:
            raise CardDataError(path, f"unexpected top-level key {other!r}; a {kind} file holds only [[{key}]] tables")
    value = document.get(key)
    if not isinstance(value, list) or not value:
        raise CardDataError(path, f"no [[{key}]] tables; a {kind} file holds only [[{key}]] tables")
    return value


def load_card_tables(paths: Sequence[Path]) -> list[DataTable]:
    """Every `[[cards]]` table of `paths`, in order, each with a non-empty `id` unique across all the files."""
    seen: dict[str, Path] = {}
    tables = []
    for path in paths:
        for number, data in enumerate(_only_key(path, read_toml(path), "cards", "card"), start=1):
            if not isinstance(data, dict):
                raise CardDataError(path, f"expected a table, got {data!r}", record=f"card #{number}")
            card_id = require_str(DataTable(data, path, f"card #{number}"), "id")
            table = DataTable(data, path, f"card {card_id}")
            if card_id in seen:
                where = "earlier in this file" if seen[card_id] == path else f"in {seen[card_id]}"
                raise table.error("id", f"duplicate card id {card_id!r}: also {where}")
            seen[card_id] = path
            tables.append(table)
    return tables


def load_deck_table(path: Path) -> DataTable:
    """The one `[[deck]]` table of `path`, named in errors by its `id`, else its `name` (decks without an id)."""
    decks = _only_key(path, read_toml(path), "deck", "deck")
    if len(decks) != 1:
        raise CardDataError(path, f"expected exactly one [[deck]] table, got {len(decks)}")
    data = decks[0]
    if not isinstance(data, dict):
        raise CardDataError(path, f"expected a [[deck]] table, got {data!r}")
    label = next((data[key] for key in ("id", "name") if _is_text(data.get(key))), "")
    return DataTable(data, path, f"deck {label}".rstrip())


class _Card(Protocol):
    @property
    def id(self) -> str: ...


CardT = TypeVar("CardT", bound=_Card)


@dataclass(frozen=True)
class CardIndex(Generic[CardT]):
    """Every loaded card by id, in file order; an unknown id is a KeyError naming it."""

    by_id: dict[str, CardT]

    def __getitem__(self, card_id: str) -> CardT:
        try:
            return self.by_id[card_id]
        except KeyError:
            raise KeyError(f"unknown card id {card_id!r}") from None

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.by_id


def load_cards(
    paths: Sequence[Path] | None,
    sample_set: Traversable,
    parse: Callable[[DataTable], CardT],
    *,
    with_sample_set: bool = False,
) -> dict[str, CardT]:
    """Exactly the cards of `paths` (ids unique across them), or the game's packaged sample set if
    None; `with_sample_set` adds the given files to the sample set (a duplicate id is an error)."""
    if paths is None or with_sample_set:
        with resources.as_file(sample_set) as path:
            return {card.id: card for card in map(parse, load_card_tables([path, *(paths or [])]))}
    return {card.id: card for card in map(parse, load_card_tables(paths))}
