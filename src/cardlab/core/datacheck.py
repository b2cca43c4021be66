"""Every problem of the card and deck files a designer brings, each with its file, line and rule id.

Loading a card set stops at the first problem: the engine must trust every card it plays. A designer who
brings their own cards and decks wants the whole list at once. These checks read every file and every
table, and run the game's own loader on each table (so no rule is written twice); when a table has a
problem they keep checking it: an unknown field is set aside, a bad or missing value is replaced by the
same field of a packaged card of the same type (a bad item of a list by an item of such a card, a bad
entry of a table dropped), and the table is checked again, until it passes or nothing more can be set
aside. A problem found again on a field already replaced is not reported (it is the replacement's).
Lines are found in the file's text: the line of the table's `[[cards]]` or `[[deck]]` header, and in it
the line where the field is written.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module, resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from cardlab.core.carddata import CardDataError, DataTable, _is_text, _only_key, load_card_tables
from cardlab.core.datafile import DataFileError, blank_strings, parse_toml, read_text
from cardlab.core.errors import CardlabError

_RULE_ID = re.compile(r"\(([A-Z]\d+(?:\.\d+)*)[,)]")
_FILE_LINE = re.compile(r"line (\d+), column \d+: ")
_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")
_MISSING = object()
MAX_REPAIRS = 50
"""Repairs tried on one table: more than any card has fields."""


@dataclass(frozen=True)
class DataProblem:
    """One problem: where (a file, or an entrant as the command line names it), the line, the rule, what."""

    where: str
    line: int | None
    rule: str
    message: str

    def __str__(self) -> str:
        place = f"{self.where}:{self.line}" if self.line else self.where
        return f"{place}: {self.rule}: {self.message}" if self.rule else f"{place}: {self.message}"


class DataProblems(CardlabError, ValueError):
    """Every problem of the card and deck files (and entrants) of one run: nothing is played until all are fixed."""

    def __init__(
        self, problems: Sequence[DataProblem], note: str = "", files: str = "the entrants, card and deck files",
        outcome: str = "nothing was played",
    ) -> None:  # fmt: skip
        self.problems = tuple(in_file_order(problems))
        self.note, self.files, self.outcome = note, files, outcome
        count = len(self.problems)
        listed = "".join(f"\n  {problem}" for problem in self.problems) + (f"\n{note}" if note else "")
        super().__init__(f"{count} problem{'' if count == 1 else 's'} in {files}; {outcome}:{listed}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (DataProblems, (self.problems, self.note, self.files, self.outcome))


def in_file_order(problems: Sequence[DataProblem]) -> list[DataProblem]:
    """File by file (in the order the files first appear), each file's problems by line."""
    order = {where: index for index, where in reversed(list(enumerate(p.where for p in problems)))}
    return sorted(problems, key=lambda p: (order[p.where], p.line or 0))


@dataclass(frozen=True)
class DataRules:
    """Which rule of a game's spec each field of its card and deck files answers to."""

    default: str
    """The rule of the files' layout (e.g. A21.1): file shape, unknown fields, and fields not listed."""
    fields: Mapping[str, str] = field(default_factory=dict)
    """Field -> rule id: `cost`, or `leader.lp` (a card type and a field), or `deck.leader` (a deck file's)."""

    def of(self, kind: str, name: str, problem: str) -> str:
        """The rule a problem breaks: the one its text cites (`... (A17.22)`), else the field's, else the default."""
        cited = _RULE_ID.search(problem)
        if cited is not None:
            return cited.group(1)
        if problem.startswith("unknown field"):
            return self.default
        top = str(_steps(name)[0]) if name else ""
        found = self.fields.get(f"{kind}.{top}")
        if found is None and kind != "deck":
            found = self.fields.get(top)
        return found or self.default


def _steps(name: str) -> list[str | int]:
    """`abilities[0].key` -> ['abilities', 0, 'key']."""
    return [int(index) if index else key for key, index in _STEP.findall(name)]


def _message(error: CardDataError) -> str:
    """The error without its file (a problem names the file apart): `card S14: field 'cost': expected ...`."""
    parts = [error.record, f"field {error.field!r}" if error.field else "", error.problem]
    return ": ".join(part for part in parts if part)


def file_problem(where: str, problem: str, rule: str) -> DataProblem:
    """A file that cannot be read or parsed; a TOML syntax error's line becomes the problem's line."""
    match = _FILE_LINE.match(problem)
    if match is None:
        return DataProblem(where, None, rule, problem)
    return DataProblem(where, int(match.group(1)), rule, problem[match.end() :])


class Layout:
    """Where a file's `[[KEY]]` tables and their fields are written (lines counted from 1)."""

    def __init__(self, text: str, key: str, tables: int) -> None:
        self.lines = blank_strings(text).splitlines()
        self.raw = text.splitlines()
        self.key = key
        header = re.compile(rf"\s*\[\[\s*{re.escape(key)}\s*\]\]")
        starts = [number for number, line in enumerate(self.lines) if header.match(line)]
        # Tables written another way (an inline array) have no header: no lines then, rather than wrong ones.
        self.starts = starts if len(starts) == tables else []

    def span(self, index: int) -> tuple[int, int] | None:
        if index >= len(self.starts):
            return None
        end = self.starts[index + 1] if index + 1 < len(self.starts) else len(self.lines)
        return self.starts[index], end

    def _find(self, pattern: str, start: int, end: int) -> int | None:
        compiled = re.compile(pattern)
        return next((number for number in range(start, end) if compiled.search(self.lines[number])), None)

    def line(self, index: int, name: str = "") -> int | None:
        """The line of table `index`'s field `name` (`cost`, `cards.S02`), else of its header; None if unknown."""
        span = self.span(index)
        if span is None:
            return None
        start, end = span
        steps = _steps(name)
        if not steps:
            return start + 1
        top = re.escape(str(steps[0]))
        at = self._find(rf"^\s*{top}\s*=|^\s*\[\s*{re.escape(self.key)}\.{top}\s*\]", start, end)
        if at is None:
            return start + 1
        leaf = steps[-1]
        if len(steps) > 1 and isinstance(leaf, str):
            found = self._find(rf"(?<![\w-]){re.escape(leaf)}\s*=", at, end)
            return (found if found is not None else at) + 1
        return at + 1

    def line_naming(self, index: int, message: str) -> int | None:
        """The line of table `index` where a word of `message` is written as a key or a string (a card id of a
        deck rule's problem), quoted words first, then ids, then any word; else the table's header line."""
        span = self.span(index)
        if span is None:
            return None
        start, end = span
        quoted = re.findall(r"'([^']+)'", message)
        ids = re.findall(r"\b[A-Z][A-Za-z_]*\d+\b", message)
        words = re.findall(r"\b[a-z_]{3,}\b", message)
        for word in dict.fromkeys([*quoted, *ids, *words]):
            escaped = re.escape(word)
            found = self._find(rf"(?<![\w-]){escaped}\s*=", start, end)
            if found is None:  # a string (`leader = "L99"`, `casters = ["X01", ...]`) is blank in `lines`
                string = re.compile(rf"[\"']{escaped}[\"']")
                found = next((n for n in range(start, end) if n < len(self.raw) and string.search(self.raw[n])), None)
            if found is not None:
                return found + 1
        return start + 1


Parse = Callable[[DataTable], Any]
Template = Callable[[str, bool], Any]
"""(field, an item of it?) -> a packaged table's value of that field, or one item of its list; _MISSING if none."""


def _get(data: Any, steps: Sequence[str | int]) -> Any:
    for step in steps:
        if isinstance(step, int):
            if not isinstance(data, list) or step >= len(data):
                return _MISSING
            data = data[step]
        else:
            if not isinstance(data, dict) or step not in data:
                return _MISSING
            data = data[step]
    return data


def _repaired(data: dict[str, Any], error: CardDataError, template: Template) -> dict[str, Any] | None:
    """`data` with the field of `error` set aside or replaced by a packaged table's value; None if it cannot be."""
    steps = _steps(error.field)
    if not steps:
        return None
    fixed = copy.deepcopy(data)
    parent = _get(fixed, steps[:-1])
    if error.problem.startswith("unknown field"):
        if isinstance(parent, dict) and steps[-1] in parent:
            del parent[steps[-1]]
            return fixed
        return None
    top = str(steps[0])
    if len(steps) == 1:
        value = template(top, False)
        if value is not _MISSING:
            fixed[top] = copy.deepcopy(value)
        elif top in fixed:  # an optional field set aside; a required one is then missing, and checking stops
            del fixed[top]
        else:
            return None
        return fixed
    container = fixed.get(top)
    if isinstance(steps[1], int) and isinstance(container, list) and steps[1] < len(container):
        item = template(top, True)
        if item is _MISSING:
            return None
        container[steps[1]] = copy.deepcopy(item)
        return fixed
    if isinstance(parent, dict) and steps[-1] in parent:
        del parent[steps[-1]]
        return fixed
    return None


@dataclass
class Checked:
    """One table checked: what the loader made of it (None if it never passed), and its problems."""

    value: Any
    problems: list[CardDataError]
    only_set_aside: bool
    """True when every repair only set aside an unknown field: `value` is then what the file means."""


def check_table(table: DataTable, parse: Parse, template: Template) -> Checked:
    """Every problem the game's loader finds in `table`, repairing it after each (see the module's text)."""
    data = dict(table.data)
    found: list[CardDataError] = []
    repaired: set[str] = set()
    only_set_aside = True
    for _ in range(MAX_REPAIRS):
        try:
            return Checked(parse(DataTable(data, table.path, table.record, table.prefix)), found, only_set_aside)
        except CardDataError as error:
            if error.field in repaired:
                break
            found.append(error)
            if not error.problem.startswith("unknown field"):
                only_set_aside = False
            repaired.add(error.field)
            fixed = _repaired(data, error, template)
            if fixed is None:
                break
            data = fixed
        except Exception:  # a repaired table the loader trips on: what was found stands
            if not found:
                raise
            break
    return Checked(None, found, False)


def _templates(tables: Iterable[DataTable], kind: str | None) -> Template:
    """Values from the packaged tables of the same `type` (`kind`; every table when None)."""
    same = [t.data for t in tables if kind is None or t.data.get("type") == kind]

    def template(name: str, item: bool) -> Any:
        for data in same:
            value = data.get(name, _MISSING)
            if value is _MISSING:
                continue
            if not item:
                return value
            if isinstance(value, list) and value:
                return value[0]
        return _MISSING

    return template


def card_file_problems(
    paths: Sequence[Path], sample_set: Traversable, parse: Parse, rules: DataRules
) -> list[DataProblem]:
    """Every problem of the card files `paths`, added to the game's packaged `sample_set`: files that cannot be
    read, each card's problems, and ids given twice (in the files or the packaged set)."""
    with resources.as_file(sample_set) as sample:
        packaged = load_card_tables([sample])
    seen: dict[str, str] = {str(t.data["id"]): "in the packaged card set" for t in packaged}
    problems: list[DataProblem] = []
    for path in paths:
        where = str(path)
        try:
            text = read_text(path)
            document = parse_toml(text, path)
        except DataFileError as exc:
            problems.append(file_problem(where, exc.problem, rules.default))
            continue
        try:
            items = _only_key(path, document, "cards", "card")
        except CardDataError as exc:
            problems.append(DataProblem(where, None, rules.default, exc.problem))
            continue
        layout = Layout(text, "cards", len(items))
        for index, data in enumerate(items):
            if not isinstance(data, dict):
                problem = f"card #{index + 1}: expected a table, got {data!r}"
                problems.append(DataProblem(where, layout.line(index), rules.default, problem))
                continue
            card_id = data["id"] if _is_text(data.get("id")) else None
            record = f"card #{index + 1}" if card_id is None else f"card {card_id}"
            kind = data["type"] if isinstance(data.get("type"), str) else "card"
            if card_id is not None and card_id in seen:
                message = f"{record}: field 'id': duplicate card id {card_id!r}: also {seen[card_id]}"
                problems.append(DataProblem(where, layout.line(index, "id"), rules.of(kind, "id", ""), message))
            elif card_id is not None:
                seen[card_id] = f"earlier in {where}"
            checked = check_table(DataTable(data, path, record), parse, _templates(packaged, data.get("type")))
            for error in checked.problems:
                rule = rules.of(kind, error.field, error.problem)
                problems.append(DataProblem(where, layout.line(index, error.field), rule, _message(error)))
    return in_file_order(problems)


@dataclass
class DeckFile:
    """A deck file checked for shape: the deck (None unless it reads as written, unknown fields aside), its
    problems, and where its words are written (for the lines of deck-rule problems)."""

    path: Path
    deck: Any
    problems: list[DataProblem]
    layout: Layout | None

    def line_naming(self, message: str) -> int | None:
        return None if self.layout is None else self.layout.line_naming(0, message)


def deck_file_problems(path: Path, parse: Parse, packaged: Sequence[Traversable], rules: DataRules) -> DeckFile:
    """A deck file's shape problems (one `[[deck]]` table, its fields), found by the game's `parse`."""
    where = str(path)
    try:
        text = read_text(path)
        document = parse_toml(text, path)
        decks = _only_key(path, document, "deck", "deck")
    except DataFileError as exc:
        return DeckFile(path, None, [file_problem(where, exc.problem, rules.default)], None)
    except CardDataError as exc:
        return DeckFile(path, None, [DataProblem(where, None, rules.default, exc.problem)], None)
    layout = Layout(text, "deck", len(decks))
    if len(decks) != 1:
        problem = f"expected exactly one [[deck]] table, got {len(decks)}"
        return DeckFile(path, None, [DataProblem(where, layout.line(1), rules.default, problem)], layout)
    data = decks[0]
    if not isinstance(data, dict):
        problem = f"expected a [[deck]] table, got {data!r}"
        return DeckFile(path, None, [DataProblem(where, layout.line(0), rules.default, problem)], layout)
    label = next((data[key] for key in ("id", "name") if _is_text(data.get(key))), "")
    templates = []
    for packaged_file in packaged:
        with resources.as_file(packaged_file) as packaged_path:
            written = parse_toml(read_text(packaged_path), packaged_path)["deck"][0]
        templates.append(DataTable(written, packaged_path, ""))
    checked = check_table(DataTable(data, path, f"deck {label}".rstrip()), parse, _templates(templates, None))
    problems = [
        DataProblem(where, layout.line(0, error.field), rules.of("deck", error.field, error.problem), _message(error))
        for error in checked.problems
    ]
    return DeckFile(path, checked.value if checked.only_set_aside else None, in_file_order(problems), layout)


def deck_validation(cls: Any, path: Path, card_paths: Sequence[Path]) -> tuple[str, list[DataProblem]]:
    """A deck file and the card files it may use, checked as `balance --entrants --cards` checks them (the
    same problems, each with file, line and rule id): the deck's description and every problem; the deck rules
    are judged only once the card files read and the deck file reads as written (unknown fields aside).

    `cls` is a deck game's class (`cardlab.core.decks.SeatDecks`: `cards_module`, `data_rules`,
    `packaged_decks`); not imported here, as that module imports this one."""
    data = import_module(cls.cards_module)
    rules: DataRules = cls.data_rules
    problems = card_file_problems(card_paths, data.sample_cards(), data.parse_card, rules)
    templates = [data.packaged_deck_file(deck_id) for deck_id in cls.packaged_decks]
    file = deck_file_problems(path, data.parse_deck, templates, rules)
    if problems or file.deck is None:
        return "", in_file_order(problems + file.problems)
    deck = file.deck
    cards = data.load_card_set(list(card_paths) or None, with_sample_set=True)
    problems = file.problems + [
        DataProblem(str(path), file.line_naming(message), rule, message)
        for rule, message in data.validate_deck(deck, cards)
    ]
    return f"deck {deck.id} ({deck.name})", in_file_order(problems)


def check_start_files(cls: Any, options: Mapping[str, Any]) -> None:
    """The deck and card files a game is started with (`cardlab play --decks --cards`) checked as `deck_validation`
    checks them: every problem at once, each once (DataProblems: exit 2, `FILE:LINE: RULE: message` lines),
    not the first the game meets. The card files, and each named deck file (a bare name that is neither a
    packaged id nor a file, such as a mistyped id, is the game's to refuse, with the ids there are); with a
    seat override (`--casters`, `--leaders`) the deck rules are left to the game, which knows the override."""
    if not getattr(cls, "deck_files", False) or not (options.get("decks") or options.get("cards")):
        return
    card_paths = [Path(path) for path in options.get("cards") or ()]
    decks = str(options.get("decks") or "").split(",")
    files = [Path(deck) for deck in dict.fromkeys(decks) if deck and deck not in cls.packaged_decks]
    files = [path for path in files if path.exists() or path.suffix == ".toml" or len(path.parts) > 1]
    judge = not options.get(cls.override_field.rpartition(".")[2])
    problems: list[DataProblem] = []
    if not files:
        data = import_module(cls.cards_module)
        problems = card_file_problems(card_paths, data.sample_cards(), data.parse_card, cls.data_rules)
    for path in files:
        deck, found = deck_validation(cls, path, card_paths)
        problems += [problem for problem in found if problem not in problems and (judge or not deck)]
    if problems:
        raise DataProblems(problems, files="the deck and card files", outcome="the game was not started")
