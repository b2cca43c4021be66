"""What the one-line position notations of the card games share (grammar: docs/notation.md).

A game's notation is a fixed list of space-separated fields, each a small piece of text built
from a few shared pieces: card lists (`S02,S25`, `-` for none), objects written as a card and the
fields that differ from their defaults (`S14{ready=false,damage=2}`), compact JSON values for the
engine's internals (`[[turn],[aturn,P2,0,0]]`), and a config (`D1,D2+first=P2+hand_limit=5`).
Everything is read by one `Reader` that knows where it is in the string, so a malformed notation
raises `PositionError` naming the field and the column of the problem, never a traceback.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar
from urllib.parse import quote, unquote

from cardlab.core.errors import PositionError

EMPTY = "-"
"""An empty zone, a null value, or an empty square."""

_BARE = re.compile(r"[A-Za-z0-9_.:@#*~-]+")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_INT = re.compile(r"-?[0-9]+")
_WORDS = {"true": True, "false": False}
_SAFE = "".join(chr(c) for c in range(33, 127) if chr(c) not in '%"')
"""Kept as they are inside a quoted string; everything else (space, `%`, `"`, non-ASCII) is %-escaped."""

T = TypeVar("T")


# -- writing ------------------------------------------------------------------------------------


def write_string(text: str) -> str:
    """A string as a bare token when it reads back as that string, else quoted with %-escapes."""
    if _BARE.fullmatch(text) and text != EMPTY and text not in _WORDS and not _INT.fullmatch(text):
        return text
    return '"' + quote(text, safe=_SAFE) + '"'


def _write_text(text: str) -> str:
    """A string read back as text whatever it looks like (`Reader.string`): `6` stays bare."""
    return text if _BARE.fullmatch(text) else write_string(text)


def write_value(value: Any) -> str:
    """A JSON value without spaces: `-` null, `true`, `12`, `S14`, `[a,b]`, `{key=value,...}`."""
    if value is None:
        return EMPTY
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return write_string(value)
    if isinstance(value, Sequence):
        return "[" + ",".join(write_value(item) for item in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ",".join(f"{key}={write_value(item)}" for key, item in value.items()) + "}"
    raise TypeError(f"a notation holds no {type(value).__name__}")


def write_list(items: Sequence[Any], write: Callable[[Any], str] = write_value) -> str:
    """Items separated by commas, `-` when there are none."""
    return ",".join(write(item) for item in items) or EMPTY


def write_object(obj: Mapping[str, Any] | None, defaults: Mapping[str, Any]) -> str:
    """A card object as its `card` and the fields that differ from `defaults`: `S14{damage=2}`; `-` for null."""
    if obj is None:
        return EMPTY
    extra = {key: value for key, value in obj.items() if key != "card" and defaults.get(key, ...) != value}
    return write_value(obj["card"]) + (write_value(extra) if extra else "")


def write_config(config: Mapping[str, Any], rule_keys: str = "rules") -> str:
    """`P1DECK,P2DECK` then `+KEY=VALUE` for every other config field that is set, and `+RULE=VALUE`
    for every rule option (as `cardlab rules GAME` names them)."""
    decks = config["decks"]
    parts = [write_value(decks["P1"]) + "," + write_value(decks["P2"])]
    for key, value in config.items():
        if key == rule_keys:
            parts.extend(f"{name}={_write_text(str(rule))}" for name, rule in sorted(value.items()))
        elif key != "decks" and value is not None and value != {"P1": None, "P2": None}:
            parts.append(f"{key}={write_value(value)}")
    return "+".join(parts)


# -- reading ------------------------------------------------------------------------------------


class Reader:
    """A cursor over one notation field; every error it raises names the field and the column."""

    def __init__(self, text: str, field: str, column: int) -> None:
        self.text = text
        self.field = field
        self.column = column
        """Where the field starts in the whole notation (1-based)."""
        self.pos = 0

    def error(self, problem: str, pos: int | None = None) -> PositionError:
        where = self.pos if pos is None else pos
        return PositionError(self.field, f"column {self.column + where}: {problem} (in {self.text!r})")

    def peek(self) -> str:
        return self.text[self.pos : self.pos + 1]

    def take(self, char: str) -> bool:
        """Consume `char` when it comes next."""
        if self.peek() == char:
            self.pos += 1
            return True
        return False

    def expect(self, char: str) -> None:
        if not self.take(char):
            found = repr(self.peek()) if self.peek() else "the end of the field"
            raise self.error(f"expected {char!r}, found {found}")

    def done(self) -> None:
        if self.pos != len(self.text):
            raise self.error(f"unexpected {self.text[self.pos :]!r}")

    def name(self) -> str:
        match = _NAME.match(self.text, self.pos)
        if match is None:
            raise self.error("expected a name (letters, digits, _)")
        self.pos = match.end()
        return match.group()

    def string(self) -> str:
        """A bare token or a quoted string, taken as text whatever it looks like (`6` is "6")."""
        start = self.pos
        if self.take('"'):
            end = self.text.find('"', self.pos)
            if end < 0:
                raise self.error("a quoted string is never closed", start)
            raw, self.pos = self.text[self.pos : end], end + 1
            try:
                if not re.fullmatch(r"([^%]|%[0-9A-Fa-f]{2})*", raw):
                    raise ValueError
                return unquote(raw, errors="strict")
            except ValueError:  # UnicodeDecodeError too: escapes that are not UTF-8
                raise self.error(
                    f"{raw!r}: '%' must start an escape of two hex digits of UTF-8 (%20 a space, %25 a '%')", start
                ) from None
        match = _BARE.match(self.text, self.pos)
        if match is None:
            found = repr(self.peek()) if self.peek() else "the end of the field"
            raise self.error(f"expected a value, found {found}")
        self.pos = match.end()
        return match.group()

    def value(self) -> Any:
        """A compact JSON value (see `write_value`)."""
        start = self.pos
        if self.take("["):
            items: list[Any] = []
            if not self.take("]"):
                items.append(self.value())
                while not self.take("]"):
                    self.expect(",")
                    items.append(self.value())
            return items
        if self.take("{"):
            obj: dict[str, Any] = {}
            if not self.take("}"):
                self._entry(obj)
                while not self.take("}"):
                    self.expect(",")
                    self._entry(obj)
            return obj
        if self.peek() == '"':
            return self.string()
        token = self.string()
        if token == EMPTY:
            return None
        if token in _WORDS:
            return _WORDS[token]
        if _INT.fullmatch(token):
            if len(token.lstrip("-")) > 1 and token.lstrip("-").startswith("0"):
                raise self.error(f"{token!r}: a number has no leading zeros", start)
            return int(token)
        return token

    def _entry(self, obj: dict[str, Any]) -> None:
        start = self.pos
        key = self.name()
        if key in obj:
            raise self.error(f"{key!r} is given twice", start)
        self.expect("=")
        obj[key] = self.value()

    def items(self, read: Callable[[], T], stop: str = "") -> list[T]:
        """Items separated by commas up to the end or a character of `stop`; `-` alone is no items."""
        if self.text.startswith(EMPTY, self.pos) and self.text[self.pos + 1 : self.pos + 2] in ("", *stop):
            self.pos += 1
            return []
        items = [read()]
        while self.take(","):
            items.append(read())
        return items

    def obj(self, defaults: Mapping[str, Any]) -> dict[str, Any] | None:
        """A card object as `write_object` writes it, its missing fields filled from `defaults`."""
        start = self.pos
        card = self.value()
        if card is None:
            return None
        if not isinstance(card, str):
            raise self.error(f"expected a card id, got {write_value(card)}", start)
        obj: dict[str, Any] = {"card": card, **defaults}
        if self.peek() == "{":
            brace = self.pos
            extra = self.value()
            unknown = sorted(set(extra) - set(defaults))
            if unknown:
                raise self.error(f"{unknown[0]!r} is not a field here; one of {', '.join(defaults)}", brace)
            obj.update(extra)
        return obj

    def config(self, keys: Sequence[str]) -> dict[str, Any]:
        """A config as `write_config` writes it; `+NAME=VALUE` for a name not in `keys` is a rule option."""
        config: dict[str, Any] = {}
        p1 = self.value()
        self.expect(",")
        config["decks"] = {"P1": p1, "P2": self.value()}
        rules: dict[str, str] = {}
        while self.take("+"):
            start = self.pos
            key = self.name()
            self.expect("=")
            if key in config or key in rules:
                raise self.error(f"{key!r} is given twice", start)
            if key in keys:
                config[key] = self.value()
            else:
                rules[key] = self.string()
        self.done()
        if rules:
            config["rules"] = rules
        return config


def fields(text: Any, names: Sequence[str]) -> dict[str, Reader]:
    """The notation split into its named fields, each with a `Reader`; any run of whitespace separates."""
    if not isinstance(text, str):
        raise PositionError("notation", f"expected a string, got {type(text).__name__}")
    found = list(re.finditer(r"\S+", text))
    if len(found) != len(names):
        raise PositionError(
            "notation", f"expected {len(names)} space-separated fields ({' '.join(names)}), got {len(found)}"
        )
    return {name: Reader(m.group(), name, m.start() + 1) for name, m in zip(names, found, strict=True)}


def read_whole(reader: Reader, read: Callable[[], T]) -> T:
    """`read()` on a reader that it must use up."""
    value = read()
    reader.done()
    return value


def write_result(data: Mapping[str, Any]) -> str:
    """`-` while the game runs, else `WINNER:REASON` (`P1:lp`, `draw:turn_limit`)."""
    if data["winner"] is None and not data["draw"]:
        return EMPTY
    return f"{'draw' if data['draw'] else data['winner']}:{write_string(data['reason'])}"


def read_result(reader: Reader, running_reason: str | None) -> dict[str, Any]:
    """The JSON's `winner`, `draw`, `reason` of a result as `write_result` writes it."""
    if reader.text == EMPTY:
        return {"winner": None, "draw": False, "reason": running_reason}
    winner = reader.name()
    if winner not in ("P1", "P2", "draw"):
        raise reader.error(f"{winner!r}: expected '-' or WINNER:REASON with WINNER P1, P2 or draw", 0)
    reader.expect(":")
    reason = read_whole(reader, reader.string)
    return {"winner": None if winner == "draw" else winner, "draw": winner == "draw", "reason": reason}


def seat(reader: Reader) -> str:
    """A whole field that is `P1` or `P2`."""
    if reader.text not in ("P1", "P2"):
        raise reader.error(f"{reader.text!r}: expected P1 or P2", 0)
    return reader.text


def number(reader: Reader, minimum: int = 0) -> int:
    """A whole field that is an integer >= `minimum`, without leading zeros."""
    value = read_whole(reader, reader.value)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise reader.error(f"{reader.text!r}: expected an integer >= {minimum}", 0)
    return value
