"""Reading the files people write or edit: scenarios and saves (JSON), card and deck files (TOML).

Whatever the bytes, `read_json` and `read_toml` return the parsed document or raise `DataFileError` saying
where and what: an unreadable file, bytes that are not UTF-8, a syntax error, nesting deeper than any cardlab
file needs, an integer too long for Python to convert, what Python's json module accepts but JSON is not (NaN,
Infinity, numbers that overflow to infinity, half a surrogate pair) and a key given twice.
Nothing else escapes, so no caller needs to know how the parsers fail (RecursionError, ValueError, ...).
"""

from __future__ import annotations

import codecs
import json
import math
import pickle
import re
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardlab.core.errors import CardlabError

MAX_DEPTH = 100
"""Deepest nesting of lists and objects accepted; the deepest position files need about 8."""

_TOML_POSITION = re.compile(r"\s*\((?:at line (\d+), column (\d+)|at end of document)\)$")
_LONE_SURROGATE = re.compile(r"[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89abAB]..(?!\\u[dD][c-fC-F])|(?<!\\u[dD][89abAB]..)\\u[dD][c-fC-F]")


class DataFileError(CardlabError, ValueError):
    """A file that cannot be parsed; `problem` says where in it (line and column, or the key) and why."""

    def __init__(self, path: Path, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (DataFileError, (self.path, self.problem))


def read_text(path: Path) -> str:
    """The file as text: UTF-8, a leading byte order mark allowed (editors on Windows write one)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DataFileError(path, f"cannot read the file: {exc.strerror or exc}") from None
    except ValueError:  # a NUL in the name: no file can be called that
        raise DataFileError(path, "cannot read the file: a file name cannot hold a NUL character") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        start = exc.start + (len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0)
        line, column = _line_column(data, start)
        bad = data[start : start + 1]
        raise DataFileError(path, f"line {line}, column {column}: not UTF-8 text (byte 0x{bad.hex()})") from None


def read_json(path: Path) -> Any:
    """The JSON document in `path`."""
    return parse_json(read_text(path), path)


def read_toml(path: Path) -> dict[str, Any]:
    """The TOML document in `path`."""
    return parse_toml(read_text(path), path)


class _Refused(Exception):
    """Raised by the JSON parser hooks: the problem, and the literal to look for in the text to say where."""

    def __init__(self, problem: str, literal: str = "") -> None:
        super().__init__(problem)
        self.literal = literal


def _no_constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON value", name)


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise _Refused(f"the number {text[:40]} is beyond the range of a float", text)
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Refused(f"the key {key!r} appears twice in one object")
            seen.add(key)
    return data


def parse_json(text: str, path: Path) -> Any:
    """`text`, the content of `path`, as JSON (strict: no NaN or Infinity, no repeated key)."""
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite_float, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise DataFileError(path, f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except _Refused as exc:
        literal = re.compile(rf"(?<![\w.+-]){re.escape(exc.literal)}(?![\w.])") if exc.literal else None
        where = None if literal is None else _find(text, literal, toml=False)
        raise DataFileError(path, f"invalid JSON{_at(where)}: {exc}") from None
    except RecursionError:
        raise DataFileError(path, _too_deep(text, toml=False)) from None
    except ValueError as exc:  # the int conversion limit; JSONDecodeError is handled above
        raise DataFileError(path, _bad_value(text, exc, toml=False)) from None
    _check_depth(data, text, path, toml=False)
    if _has_lone_surrogate(data):  # "\ud800" is valid JSON, but no Unicode text: it cannot even be printed
        match = _SURROGATE_ESCAPE.search(text)
        where = None if match is None else _line_column(text, match.start())
        raise DataFileError(path, f"invalid JSON{_at(where)}: a \\u escape that is half a surrogate pair")
    return data


_PARSED_TOML: dict[str, bytes] = {}  # text -> its document, pickled (a fresh copy per call costs ~1/40 of a parse)
_PARSED_TOML_LIMIT = 64


def parse_toml(text: str, path: Path) -> dict[str, Any]:
    """`text`, the content of `path`, as TOML.

    A lab run builds a game per table cell, and each reads the same card files: their documents are
    kept by text (so an edited file is parsed again) and every caller gets its own copy to change."""
    cached = _PARSED_TOML.get(text)
    if cached is not None:
        document: dict[str, Any] = pickle.loads(cached)
        return document
    data = _parse_toml(text, path)
    if len(_PARSED_TOML) >= _PARSED_TOML_LIMIT:
        _PARSED_TOML.pop(next(iter(_PARSED_TOML)))
    _PARSED_TOML[text] = pickle.dumps(data)
    return data


def _parse_toml(text: str, path: Path) -> dict[str, Any]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        match = _TOML_POSITION.search(message)
        if match is None:
            raise DataFileError(path, f"invalid TOML: {message}") from None
        if match.group(1) is None:
            line, column = text.count("\n") + 1, len(text) - text.rfind("\n")
        else:
            line, column = int(match.group(1)), int(match.group(2))
        raise DataFileError(path, f"line {line}, column {column}: invalid TOML: {message[: match.start()]}") from None
    except RecursionError:
        raise DataFileError(path, _too_deep(text, toml=True)) from None
    except ValueError as exc:  # the int conversion limit
        raise DataFileError(path, _bad_value(text, exc, toml=True)) from None
    _check_depth(data, text, path, toml=True)
    return data


# ---- where in the text ---------------------------------------------------------------------------------------


def _line_column(text: str | bytes, index: int) -> tuple[int, int]:
    before = text[:index] if isinstance(text, str) else text[:index].decode("latin-1")  # one char per byte
    return before.count("\n") + 1, index - (before.rfind("\n") + 1) + 1


def _at(where: tuple[int, int] | None) -> str:
    return "" if where is None else f" at line {where[0]}, column {where[1]}"


def blank_strings(text: str, toml: bool = True) -> str:
    """`text` with strings and comments blanked (newlines and offsets kept): its keys, brackets and numbers,
    to find where a key or table is written without matching inside a string."""
    return _masked(text, toml)


def _masked(text: str, toml: bool) -> str:
    """`text` with the inside of every string (and TOML comment) blanked, newlines kept: what is left is
    structure, numbers and words, at the same offsets."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if toml and char == "#":
            end = text.find("\n", i)
            end = n if end < 0 else end
        elif char == '"' or (toml and char == "'"):
            quote = char * 3 if toml and text.startswith(char * 3, i) else char
            end = i + len(quote)
            while end < n and not text.startswith(quote, end):
                end += 2 if char == '"' and text[end] == "\\" else 1
            end = min(n, end + len(quote))
        else:
            i += 1
            continue
        for j in range(i, end):
            if out[j] != "\n":
                out[j] = " "
        i = end
    return "".join(out)


def _find(text: str, pattern: re.Pattern[str], toml: bool) -> tuple[int, int] | None:
    """Line and column of the first match of `pattern` outside strings."""
    match = pattern.search(_masked(text, toml))
    return None if match is None else _line_column(text, match.start())


def _deep_at(text: str, toml: bool) -> tuple[int, int] | None:
    """Line and column of the first bracket that opens a level deeper than MAX_DEPTH."""
    depth = 0
    for index, char in enumerate(_masked(text, toml)):
        if char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return _line_column(text, index)
        elif char in "]}":
            depth -= 1
    return None


def _too_deep(text: str, toml: bool) -> str:
    where = _deep_at(text, toml)
    prefix = "" if where is None else f"line {where[0]}, column {where[1]}: "
    return f"{prefix}lists and tables nested more than {MAX_DEPTH} levels deep"


def _bad_value(text: str, error: ValueError, toml: bool) -> str:
    limit = sys.get_int_max_str_digits()
    if limit and "digits" in str(error):
        where = _find(text, re.compile(rf"[0-9_]{{{limit + 1},}}"), toml)
        prefix = "" if where is None else f"line {where[0]}, column {where[1]}: "
        return f"{prefix}an integer with more than {limit} digits"
    return f"invalid {'TOML' if toml else 'JSON'}: {error}"


def _depth(value: Any, stop: int) -> int:
    """How deep lists and dicts nest in `value` (a scalar is 0), counted without recursion up to `stop`."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    children: Callable[[Any], Any]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = dict.values
        elif isinstance(item, list):
            children = iter
        else:
            continue
        deepest = max(deepest, depth)
        if depth > stop:
            break
        stack.extend((child, depth + 1) for child in children(item))
    return deepest


def _has_lone_surrogate(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _LONE_SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _check_depth(data: Any, text: str, path: Path, toml: bool) -> None:
    """Refuse nesting the parser managed but the code after it might not (recursion in repr, ==, json.dumps)."""
    if _depth(data, MAX_DEPTH) > MAX_DEPTH:
        raise DataFileError(path, _too_deep(text, toml))
