"""Malformed input never reaches the user as a traceback (issue 12, item 10 "Close the holes").

Every file kind the CLI reads (scenario files of every game with the position JSON inside them, `play --load`
save files, card files and deck files of the games that have them; the toy game of tests/toygame included) is
mutated by a seeded random loop with a fixed count: keys deleted, duplicated or renamed, values replaced by lists,
objects, NaN, huge integers, strings or null, deep nesting, truncation, invalid UTF-8. Each mutated file goes
through `cardlab.cli.main` in this process. The only outcomes
allowed are exit 0, a FAIL line naming the file with exit 1 (scenarios, E14.6), exit 1 for an illegal deck (A5, D3),
or a `cardlab: error: ...` line naming the file with exit 2 (with each problem of a card or deck file on an
indented line below it); never another exception, never a traceback.

Below the fuzz: one regression test per hole found on main by the issue and by this fuzz.
"""

from __future__ import annotations

import copy
import io
import json
import math
import random
import tomllib
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from cardlab.cli import main
from tests.every_game import every_game, every_game_class, toy_games_registered

ROOT = Path(__file__).resolve().parent
SCENARIOS = {game: sorted((ROOT / "games" / game / "scenarios").glob("*.json")) for game in every_game()}
"""The suite's scenario files of each game; a game with none (the toy game) gets scenarios of dealt games."""
DECK_GAMES = [game for game in every_game() if every_game_class(game).deck_files]
"""The games with card and deck files (`Game.deck_files`)."""
DATA = {game: resources.files(every_game_class(game).__module__.rpartition(".")[0]) / "data" for game in DECK_GAMES}
DECKS = {game: every_game_class(game).packaged_decks[:2] for game in DECK_GAMES}


@pytest.fixture(autouse=True)
def toy_games() -> Iterator[None]:
    with toy_games_registered():
        yield


@dataclass(frozen=True)
class Raw:
    """Text written into a file as it is: what json.dumps cannot write (integers over 4,300 digits, deep nesting)."""

    text: str


@dataclass(frozen=True)
class Pairs:
    """An object written with these (key, value) pairs in order, repeats included (a duplicated key)."""

    items: tuple[tuple[str, Any], ...]


HUGE_INT = Raw("9" * 5000)
DEEP_LIST = Raw("[" * 1200 + "]" * 1200)
DEEP_OBJECT = Raw('{"a": ' * 1000 + "1" + "}" * 1000)
DEEP_TOML_LIST = Raw("[" * 900 + "]" * 900)
DEEP_TOML_TABLE = Raw("{ a = " * 900 + "1" + " }" * 900)
ODD: list[Any] = [None, True, False, 0, -1, 1, 2, 7, 1.5, -0.0, math.nan, math.inf, -math.inf, Raw("1e400"),
                  HUGE_INT, Raw("-" + "1" * 4400), 10**300, -(2**63), 2**64, "", "x", "P1", "P3", "over", "🂡",
                  "\u0000", "\ud800", "a" * 5000, [], [None], [[]], [1, "x"], {}, {"": None}, {"P1": None, "P2": None},
                  {"P1": [], "P2": {}}, DEEP_LIST, DEEP_OBJECT, Raw("[" * 300 + "]" * 300)]  # fmt: skip
"""Replacement values; `None` in a TOML file means the key is left out (TOML has no null)."""
BAD_BYTES = [b"\xff", b"\xfe\xff", b"\xc3", b"\xed\xa0\x80", b"\x80abc", b"\x00", b"\xef\xbb\xbf"]


# ---- writing JSON and TOML, with the special values above ------------------------------------------------------


def dump_json(value: Any) -> str:
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, Pairs):
        return "{" + ", ".join(f"{json.dumps(k)}: {dump_json(v)}" for k, v in value.items) + "}"
    if isinstance(value, dict):
        return dump_json(Pairs(tuple(value.items())))
    if isinstance(value, list):
        return "[" + ", ".join(dump_json(item) for item in value) + "]"
    return json.dumps(value)  # NaN and Infinity as Python's json writes (and reads) them


def toml_key(key: str) -> str:
    return json.dumps(key)  # a JSON string is a TOML basic string, but for the escapes \/ and \u0000-style


def toml_value(value: Any) -> str:
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf") if math.isinf(value) else repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value if item is not None) + "]"
    items = value.items if isinstance(value, Pairs) else tuple(value.items())
    return "{ " + ", ".join(f"{toml_key(k)} = {toml_value(v)}" for k, v in items if v is not None) + " }"


def dump_toml(document: Any) -> str:
    """A card or deck document: arrays of tables as [[name]] sections, anything else inline."""
    if document is None:
        return ""
    if not isinstance(document, dict | Pairs):
        return f"value = {toml_value(document)}\n"
    items = document.items if isinstance(document, Pairs) else tuple(document.items())
    out = []
    for key, value in items:
        if value is None:
            continue
        if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
            for table in value:
                out.append(f"[[{toml_key(key)}]]\n")
                out += [f"{toml_key(k)} = {toml_value(v)}\n" for k, v in table.items() if v is not None]
        else:
            out.append(f"{toml_key(key)} = {toml_value(value)}\n")
    return "".join(out)


# ---- mutations --------------------------------------------------------------------------------------------------


def places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key path in a document, the root included."""
    yield path
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from places(item, (*path, key))


def leaves(value: Any) -> list[Any]:
    """Every value in a document: swapping one in from elsewhere gives wrong values of plausible types."""
    return [_get(value, path) for path in places(value)]


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


def mutate_data(document: Any, rng: random.Random) -> tuple[Any, str]:
    """One structural change somewhere in a deep copy of `document`, and what it was."""
    document = copy.deepcopy(document)
    path = rng.choice(list(places(document)))
    pool = leaves(document)
    if not path:
        return rng.choice([*ODD, pool[1:] or [1]]), "replace the whole document"
    parent, key = _get(document, path[:-1]), path[-1]
    kind = rng.choice(["delete", "replace", "replace", "replace", "swap", "rename", "add", "duplicate", "number"])
    where = "/".join(map(str, path))
    if kind == "delete":
        del parent[key]
        return document, f"delete {where}"
    if kind == "swap":
        parent[key] = copy.deepcopy(rng.choice(pool))  # a copy: the root or a parent would make a cycle
        return document, f"set {where} to a value from elsewhere: {parent[key]!r:.80}"
    if kind == "rename" and isinstance(parent, dict):
        parent[rng.choice([f"{key}_x", "zz", *parent])] = parent.pop(key)
        return document, f"rename {where}"
    if kind == "add" and isinstance(parent, dict):
        parent[rng.choice(["zz", "P3", "id", "game", "cards", "\udc00"])] = rng.choice(ODD)
        return document, f"add a key next to {where}"
    if kind == "duplicate":
        if isinstance(parent, list):
            parent.insert(key, parent[key])
            return document, f"duplicate {where}"
        if isinstance(parent, dict):  # the same key twice: only the raw writers can say that
            items = [(k, v) for k, v in parent.items()]
            items.insert(list(parent).index(key), (key, rng.choice(ODD)))
            return _replace(document, path[:-1], Pairs(tuple(items))), f"duplicate key {where}"
    value = parent[key]
    if kind == "number" and isinstance(value, int | float) and not isinstance(value, bool):
        parent[key] = rng.choice([value - 1, value + 1, -value, value * 1000, float(value), 2**63])
        return document, f"set {where} = {parent[key]!r}"
    parent[key] = rng.choice(ODD)
    return document, f"set {where} = {parent[key]!r:.80}"


def _replace(document: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    _get(document, path[:-1])[path[-1]] = new
    return document


def mutate_bytes(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """One change to the file's bytes."""
    at = rng.randrange(len(data) + 1)
    kind = rng.choice(["truncate", "bad bytes", "delete", "bad bytes at start", "empty"])
    if kind == "truncate":
        return data[:at], f"truncate at byte {at}"
    if kind == "bad bytes":
        bad = rng.choice(BAD_BYTES)
        return data[:at] + bad + data[at:], f"insert {bad!r} at byte {at}"
    if kind == "delete":
        end = min(len(data), at + rng.randrange(1, 40))
        return data[:at] + data[end:], f"delete bytes {at}-{end}"
    if kind == "bad bytes at start":
        return b"\xff\xfe" + data, "prefix \\xff\\xfe"
    return b"", "empty file"


def mutated(document: Any, dump: Callable[[Any], str], rng: random.Random) -> tuple[bytes, str]:
    """`document` written with one to three structural changes, or written and then damaged as bytes."""
    told = []
    if rng.random() < 0.8:
        for _ in range(rng.choice([1, 1, 2, 3])):
            document, change = mutate_data(document, rng)
            told.append(change)
            if change.startswith("duplicate key"):  # the document holds Pairs now: no further change
                break
        data = dump(document).encode("utf-8", "surrogatepass")
    else:
        data = dump(document).encode()
    if rng.random() < 0.2 or not told:
        data, change = mutate_bytes(data, rng)
        told.append(change)
    return data, "; ".join(told)


# ---- the files the fuzz starts from -----------------------------------------------------------------------------


def save_file(game: str, seed: int, moves: int, folder: Path) -> dict[str, Any]:
    """A game saved by the terminal client's own `save FILE` code after `moves` actions."""
    from rich.console import Console

    from cardlab.games import game_class
    from cardlab.play.terminal import Session, _save

    session = Session(game_class(game)(), seed, 0, "random")
    state = session.game.new_state(seed)
    for _ in range(moves):
        actor = state.current_player()
        if actor is None:
            break
        action = str(random.Random(seed).choice(state.legal_actions()))
        state.apply(action)
        session.history.append((actor, action))
    path = folder / f"{game}-{seed}.json"
    _save(session, str(path), Console(file=io.StringIO()))
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def dealt_scenarios(game: str, folder: Path) -> list[Path]:
    """Scenario files for a game the suite has none of: positions of seeded random games, one action each,
    expecting the turn and the legal actions that follow."""
    from cardlab.games import game_class

    built, paths = game_class(game)(), []
    for seed in range(4):
        state, rng = built.new_state(seed), random.Random(seed)
        for _ in range(seed % 2):
            state.apply(rng.choice(state.legal_actions()))
        position, action = state.position(), str(rng.choice(state.legal_actions()))
        state.apply(action)
        expect = {"turn": state.position()["turn"], "legal": sorted(str(a) for a in state.legal_actions())}
        path = folder / f"dealt-{game}-{seed}.json"
        path.write_text(dump_json({"description": f"{game}, seed {seed}", "position": position, "actions": [action],
                                   "expect": expect}))  # fmt: skip
        paths.append(path)
    return paths


def card_file(game: str, count: int, rng: random.Random) -> dict[str, Any]:
    """`count` packaged cards under new ids, so that they can be added to the packaged set (`--cards`)."""
    cards = tomllib.loads((DATA[game] / "cards.toml").read_text(encoding="utf-8"))["cards"]
    picked = rng.sample(cards, count)
    return {"cards": [{**card, "id": f"Z{card['id']}", "name": f"Z {card['name']}"} for card in picked]}


def deck_file(game: str, deck_id: str) -> dict[str, Any]:
    data: dict[str, Any] = tomllib.loads((DATA[game] / "decks" / f"{deck_id}.toml").read_text(encoding="utf-8"))
    return data


@dataclass(frozen=True)
class Case:
    kind: str
    argv: tuple[str, ...]
    path: Path
    told: str


def cases(kind: str, count: int, seed: int, folder: Path) -> Iterator[Case]:
    """`count` mutated files of one kind with the command lines that read them."""
    rng = random.Random(f"{kind}/{seed}")
    game = kind.split("-")[1]
    sources = (SCENARIOS[game] or dealt_scenarios(game, folder)) if kind.startswith("scenario") else []
    for number in range(count):
        path = folder / f"{kind}-{number}.{'toml' if kind.startswith(('cards', 'deck')) else 'json'}"
        if kind.startswith("scenario"):
            source = rng.choice(sources)
            data, told = mutated(json.loads(source.read_text()), dump_json, rng)
            path.write_bytes(data)
            argv: tuple[str, ...] = ("scenario", "run", str(path), *(["--print"] if number % 5 == 0 else []))
            yield Case(kind, argv, path, f"{source.name}: {told}")
        elif kind.startswith("save"):
            data, told = mutated(save_file(game, rng.randrange(4), rng.choice([0, 3, 12]), folder), dump_json, rng)
            path.write_bytes(data)
            yield Case(kind, ("play", game, "--load", str(path)), path, told)
        elif kind.startswith("cards"):
            data, told = mutated(card_file(game, rng.choice([1, 1, 3]), rng), dump_toml, rng)
            path.write_bytes(data)
            deck = str(DATA[game] / "decks" / f"{DECKS[game][0]}.toml")
            yield Case(kind, ("deck", "validate", game, deck, "--cards", str(path)), path, told)
            yield Case(kind, ("play", game, "--cards", str(path)), path, told)
        else:
            deck_id = rng.choice(DECKS[game])
            data, told = mutated(deck_file(game, deck_id), dump_toml, rng)
            path.write_bytes(data)
            yield Case(kind, ("deck", "validate", game, str(path)), path, f"{deck_id}: {told}")
            yield Case(kind, ("play", game, "--decks", f"{path},{DECKS[game][1]}"), path, f"{deck_id}: {told}")


def run_case(case: Case, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str | None:
    """None if the CLI handled the file as it should, else what went wrong."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # `play`: the person at the terminal leaves at once
    try:
        code = main(list(case.argv))
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 2
    except BaseException as error:
        capsys.readouterr()
        frames = [f for f in traceback.extract_tb(error.__traceback__) if "cardlab" in f.filename]
        place = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
        return f"{type(error).__name__} at {place}: {str(error)[:200]}"
    out, err = capsys.readouterr()
    if "Traceback" in out + err:
        return "a traceback in the output"
    try:
        (out + err).encode("utf-8")
    except UnicodeEncodeError:  # a real terminal would raise it while printing: a traceback after all
        return f"output that cannot be printed: {(out + err)[:300]!r}"
    if code not in (0, 1, 2):
        return f"exit code {code}"
    if code == 2:  # one `cardlab: error:` line, or one that lists each problem on an indented line below it
        first, *problems = err.strip().splitlines() or [""]
        if not first.startswith("cardlab: error: ") or not all(line.startswith("  ") for line in problems):
            return f"not one `cardlab: error:` line, or its problems below it: {err[:300]!r}"
        if case.path.name not in err:
            return f"the error does not name the file: {err.strip()[:300]}"
    if code == 1 and case.argv[0] == "scenario" and f"{case.path}: FAIL: " not in out:
        return f"no FAIL line naming the file: {out[:300]!r}"
    return None


KINDS = [f"{kind}-{game}" for kind in ("scenario", "save") for game in every_game()]
KINDS += [f"{kind}-{game}" for kind in ("cards", "deck") for game in DECK_GAMES]
COUNT = {"scenario": 300, "save": 100, "cards": 60, "deck": 60}
"""Mutated files per kind: 400 command runs per game, 240 more per game with card and deck files (each file kind
once; card and deck files twice)."""


@pytest.mark.parametrize("kind", KINDS)
def test_mutated_files_never_crash_the_cli(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seeded: the same files every run; a failure lists the mutation, so that it can be made a regression test."""
    failures = []
    for case in cases(kind, COUNT[kind.split("-")[0]], 12, tmp_path):
        problem = run_case(case, capsys, monkeypatch)
        if problem is not None:
            failures.append(f"{' '.join(case.argv[:2])} {case.path.name} ({case.told}): {problem}")
    assert not failures, f"{len(failures)} bad outcomes:\n" + "\n".join(failures[:15])


# ---- regressions: one per hole found on main (issue 12, item 10), by the issue or by the fuzz above -------------


def _run(argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """Exit code and all output of one CLI call; output a terminal could not print counts as a crash too."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    (out + err).encode("utf-8")  # a lone surrogate would raise here, as print() does on a real terminal
    return code, out + err


def _scenario(tmp_path: Path, game: str, name: str, change: Callable[[dict[str, Any]], Any]) -> Path:
    """A copy of a scenario file of the suite, changed."""
    data = json.loads((ROOT / "games" / game / "scenarios" / name).read_text())
    change(data)
    path = tmp_path / "changed.json"
    path.write_text(dump_json(data))
    return path


def _fails(path: Path, problem: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`scenario run` refuses the file as it does a ScenarioError (E14.6): exit 1, a FAIL line naming the file."""
    code, out = _run(["scenario", "run", str(path)], capsys, monkeypatch)
    assert code == 1
    assert f"{path}: FAIL: {problem}" in out


EDELWEISS = "e14_2_attack_oldest_upright_spade.json"


def test_scenario_that_is_not_utf8(tmp_path: Path, capsys, monkeypatch) -> None:
    """Was a UnicodeDecodeError traceback."""
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"description": "caf\xe9",\n "position": {}}')
    _fails(path, "line 1, column 21: not UTF-8 text (byte 0xe9)", capsys, monkeypatch)


def test_scenario_nested_1000_deep(tmp_path: Path, capsys, monkeypatch) -> None:
    """Was a RecursionError traceback from json."""
    path = tmp_path / "deep.json"
    path.write_text('{"position": ' + "[" * 1000 + "]" * 1000 + "}")
    _fails(path, "line 1, column 113: lists and tables nested more than 100 levels deep", capsys, monkeypatch)


def test_scenario_with_an_integer_over_4300_digits(tmp_path: Path, capsys, monkeypatch) -> None:
    """Was a ValueError traceback (Python's int conversion limit)."""
    path = tmp_path / "huge.json"
    path.write_text('{"position": {\n  "turn": ' + "9" * 5000 + "}}")
    _fails(path, "line 2, column 11: an integer with more than 4300 digits", capsys, monkeypatch)


@pytest.mark.parametrize("value", [["edelweiss"], {"name": "edelweiss"}])
@pytest.mark.parametrize(
    ("where", "problem"),
    [
        (("game",), "position.game: unknown game "),
        (("config", "deck"), "position.config.deck: "),
        (("window",), "position.window: "),
    ],
)
def test_a_list_or_object_where_a_name_belongs(
    tmp_path: Path, capsys, monkeypatch, where: tuple[str, ...], problem: str, value: Any
) -> None:
    """E14.5: game, config.deck and window are names. A list or object was a TypeError traceback (unhashable)."""

    def change(data: dict[str, Any]) -> None:
        _get(data["position"], where[:-1])[where[-1]] = value

    path = _scenario(tmp_path, "edelweiss", EDELWEISS, change)
    _fails(path, f"{problem}{value!r}", capsys, monkeypatch)


@pytest.mark.parametrize("area", ["BA1", "BA2"])
@pytest.mark.parametrize("how", ["left out", "null", "no caster"])
def test_dreadnought_position_without_a_battle_area(tmp_path: Path, capsys, monkeypatch, area: str, how: str) -> None:
    """D4.1, D13.5: from set-up on, each battle area holds its caster, even at 0 HP. A position without one loaded,
    then crashed the engine (ValueError in slot_of, listing targets); now the loader refuses it."""

    def change(data: dict[str, Any]) -> None:
        seat = data["position"]["players"]["P2"]
        if how == "left out":
            del seat[area]
        else:
            seat[area] = None if how == "null" else {"caster": None, "hp": [], "units": []}

    path = _scenario(tmp_path, "dreadnought", "d22_2_hp_gain_lifebloom.json", change)
    _fails(path, f"position.players.P2.{area}: no caster here", capsys, monkeypatch)


def test_dreadnought_turn_ends_with_f_undecided(tmp_path: Path, capsys, monkeypatch) -> None:
    """D6.7: at the end of a turn the token goes to that turn's S. A position may leave `first` null (F not decided)
    and still end the turn: the cleanup passed the token to player 1 - EMPTY, an IndexError; found by the fuzz. With
    no S to pass it to, the token now stays where it is."""
    scenario = "d6_7_token_goes_to_second_player.json"
    path = _scenario(tmp_path, "dreadnought", scenario, lambda d: d["position"].update(first=None))
    _fails(path, 'token: expected "P1", got "P2"', capsys, monkeypatch)


@pytest.mark.parametrize(
    ("expect", "problem"),
    [
        ({"legal": ["PASS", 7]}, "expect.legal: expected a list of action strings"),
        ({"legal": "PASS"}, "expect.legal: expected a list of action strings"),
        ({"players": {"P1": {"hand": -1}, "P2": {}}}, "players: expected"),
        ({"players": {"P1": {"hand": [{"": None}]}, "P2": {}}}, "players: expected"),
    ],
)
def test_scenario_expectations_of_the_wrong_shape(
    tmp_path: Path, capsys, monkeypatch, expect: dict[str, Any], problem: str
) -> None:
    """E14.6: `legal` is a list of action texts, a hand a list of cards. Other values were TypeError tracebacks
    (sorting ints with strings, counting unhashable cards, iterating a number); found by the fuzz."""
    path = _scenario(tmp_path, "dreadnought", "d22_2_hp_gain_lifebloom.json", lambda d: d.update(expect=expect))
    _fails(path, problem, capsys, monkeypatch)


def test_scenario_with_a_lone_surrogate(tmp_path: Path, capsys, monkeypatch) -> None:
    """A key written "\\ud800" parses as JSON but is no text: the FAIL line naming it crashed print()
    (UnicodeEncodeError on a real terminal; capsys takes it); found by the fuzz."""
    path = tmp_path / "surrogate.json"
    path.write_text('{"position": {"game": "edelweiss",\n  "\\ud800": 1}}')
    _fails(path, "invalid JSON at line 2, column 4: a \\u escape that is half a surrogate pair", capsys, monkeypatch)


def test_aterial_scenario_with_a_missing_card_file(tmp_path: Path, capsys, monkeypatch) -> None:
    """A position's card file that cannot be read is a ScenarioError naming config.cards, as for Dreadnought: it was
    a bare `cardlab: error:` with exit 2 and no FAIL line; found by the fuzz."""
    missing = tmp_path / "nowhere.toml"
    path = _scenario(
        tmp_path,
        "aterial",
        "a17_2_evasive_unblockable.json",
        lambda d: d["position"]["config"].update(cards=[str(missing)]),
    )
    _fails(path, f"position.config.cards: {missing}: cannot read the file", capsys, monkeypatch)


DEEP_TOML = "x = " + "[" * 800 + "]" * 800 + "\n"


@pytest.mark.parametrize("game", DECK_GAMES)
@pytest.mark.parametrize("as_cards", [False, True])
def test_toml_nested_800_deep(tmp_path: Path, capsys, monkeypatch, game: str, as_cards: bool) -> None:
    """A21.1, D22.1 card and deck files: nesting 800 deep was a RecursionError traceback from tomllib."""
    path = tmp_path / "deep.toml"
    path.write_text(DEEP_TOML)
    deck = str(DATA[game] / "decks" / f"{DECKS[game][0]}.toml")
    argv = ["deck", "validate", game, deck, "--cards", str(path)] if as_cards else ["deck", "validate", game, str(path)]
    code, out = _run(argv, capsys, monkeypatch)
    assert code == 2
    first, *problems = out.splitlines()
    assert first.startswith("cardlab: error: 1 problem in the deck and card files;")
    assert len(problems) == 1 and problems[0].startswith(f"  {path}:1: ")  # the file's rule: A21.1 or D22.1
    assert problems[0].endswith(": lists and tables nested more than 100 levels deep")


@pytest.fixture
def saved(tmp_path: Path) -> Callable[[str, Callable[[dict[str, Any]], Any]], Path]:
    """A save file written by the terminal client, then changed."""

    def make(game: str, change: Callable[[dict[str, Any]], Any]) -> Path:
        data = save_file(game, 1, 3, tmp_path)
        change(data)
        path = tmp_path / "changed-save.json"
        path.write_text(dump_json(data))
        return path

    return make


@pytest.mark.parametrize(
    ("game", "field", "value", "problem"),
    [
        ("edelweiss", "seed", Raw("1e400"), "invalid JSON at line 1, column "),
        ("edelweiss", "seed", 1.5, "seed: expected an integer, got 1.5"),
        ("edelweiss", "seed", "7", "seed: expected an integer, got '7'"),
        ("aterial", "game", ["aterial"], "game: unknown game ['aterial']"),
        ("edelweiss", "seat", {"P1": 1}, "seat: expected 'P1' or 'P2'"),
        ("edelweiss", "vs", "wizard", "vs: unknown agent 'wizard'"),
        ("edelweiss", "vs", ["random"], "vs: expected an agent spec"),
        ("dreadnought", "actions", [1], "actions[0]: expected an action text, got 1"),
        ("edelweiss", "colour", "red", "colour: unknown field"),
    ],
)
def test_malformed_save_file(saved, capsys, monkeypatch, game: str, field: str, value: Any, problem: str) -> None:
    """`play --load`: seed 1e400 was inf and an OverflowError traceback; other wrong values were accepted (1.5 as
    seed 1), tracebacks (a list as the game), or errors that did not name the file (a bad agent)."""
    path = saved(game, lambda data: data.update({field: value}))
    code, out = _run(["play", game, "--load", str(path)], capsys, monkeypatch)
    assert code == 2
    assert out.startswith(f"cardlab: error: cannot load {path}: {problem}")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "aterial", "--leaders", "L99,L01"], "config.leaders.P1: A5.5: unknown leader id 'L99'"),
        (["play", "aterial", "--leaders", "L01,S01"], "config.leaders.P2: A5.4: leader S01"),
        (["play", "dreadnought", "--casters", "X01+X03,X99+X07"], "config.casters.P2: D3.1: unknown caster id 'X99'"),
        (
            ["play", "aterial", "--decks", "NOPE,D2"],
            "config.decks.P1: 'NOPE' is neither a packaged deck nor a deck file; packaged decks: D1, D2",
        ),
        (
            ["play", "dreadnought", "--decks", "ember_spark,NOPE"],
            "config.decks.P2: 'NOPE' is neither a packaged deck nor a deck file; packaged decks: ember_spark, "
            "tide_grove",
        ),
    ],
)
def test_deck_errors_name_the_option_at_fault(capsys, monkeypatch, argv: list[str], message: str) -> None:
    """A5.4/A5.5, D3.1: a leader or caster override that breaks a deck rule was reported against the (legal) deck,
    `config.decks.P1`; an unknown packaged deck id as a missing file, without the ids there are."""
    code, out = _run(argv, capsys, monkeypatch)
    assert code == 2
    assert out.startswith(f"cardlab: error: {message}")


def test_leader_override_in_a_save_file_names_the_leaders_field(saved, capsys, monkeypatch) -> None:
    """The same in a saved game's config: config.leaders.P1, not config.decks.P1."""
    path = saved("aterial", lambda data: data["config"]["leaders"].update(P1="L99"))
    code, out = _run(["play", "aterial", "--load", str(path)], capsys, monkeypatch)
    assert code == 2
    assert out.startswith(f"cardlab: error: cannot load {path}: config.leaders.P1: A5.5: unknown leader id 'L99'")


def test_deck_rule_violation_of_a_deck_file_names_the_file(tmp_path: Path, capsys, monkeypatch) -> None:
    """A5.1 through --decks FILE: the error names the deck file and its line, as `deck validate` does (#51)."""
    path = tmp_path / "short.toml"
    path.write_text('[[deck]]\nid = "X"\nname = "Short"\nleader = "L01"\ncards = { S01 = 4 }\n')
    code, out = _run(["play", "aterial", "--decks", f"{path},D2"], capsys, monkeypatch)
    assert code == 2
    assert out.startswith("cardlab: error: 1 problem in the deck and card files; the game was not started")
    assert f"{path}:5: A5.1: the deck has 4 cards" in out
