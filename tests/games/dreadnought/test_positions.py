"""Malformed Dreadnought positions raise PositionError naming the offending field, never another exception.

Each case breaks one field of a valid position (a rich cast-window position, or one with a cast waiting
for its area so that the stack holds a play); a hypothesis fuzz then breaks random fields of positions
taken from random games: every such JSON either loads into a sound state or raises PositionError.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from cardlab.core import PositionError

from .dreadnought_positions import GAME, dummy, enchant, make_position, unit
from .test_properties import CONFIGS, GAMES, check_conservation, play

Position = dict[str, Any]


def rich() -> Position:
    """P1 to cast: enchants (one secret), an arms, a dummy, an idol, bursts, engraves, a known hand card;
    P2: an attached code and a full battle area (S + S)."""
    boosted = unit("R02", enchants=[enchant("boost", "P1", "Y02"), enchant("weaken", "P2", "B01", secret=True)])
    return make_position(
        p1={
            "hand": ["R01", "R05"],
            "known_hand": ["R01"],
            "discard": ["Y01"],
            "bursts": 2,
            "engraves": ["R02"],
            "ba1": [boosted],
            "ba2": [dummy("N02")],
            "idol": "R09",
            "arms": ("R11", None),
        },
        p2={"hand": ["B05"], "ba1": [unit("B02", attached=["B04"])], "ba2": ["G01", "G04"]},
    )


def casting() -> Position:
    """`rich` after `CAST R01`: the stack ends with ["dest", "P1", play] whose card is P1:limbo:0."""
    state = GAME.load_position(rich())
    state.apply("CAST R01")
    return state.position()


CASTING = casting()
DEST = len(CASTING["stack"]) - 1
assert CASTING["stack"][DEST][0] == "dest"


def error_for(data: Any) -> PositionError:
    with pytest.raises(PositionError) as info:
        GAME.load_position(data)
    assert info.value.problem
    assert str(info.value).startswith(f"{info.value.field}: ")
    return info.value


def names(error: PositionError, field: str) -> bool:
    """The error names `field` or something inside it (`field.key`, `field[i]`): as its `field`, or in its
    message (a play's error quotes the inner field: `stack[7][2]: malformed play: stack[7][2].card: ...`)."""
    return re.search(rf"(^|\s|/){re.escape(field)}([.\[:/]|$)", str(error)) is not None


def test_base_positions_load_and_round_trip():
    for data in (rich(), CASTING):
        state = GAME.load_position(copy.deepcopy(data))
        assert state.position() == data
        assert len(state.legal_actions()) >= 2


def p1(data: Position) -> dict[str, Any]:
    return data["players"]["P1"]


def p2(data: Position) -> dict[str, Any]:
    return data["players"]["P2"]


def unit1(data: Position) -> dict[str, Any]:
    """P1's boosted R02 in BA1."""
    return p1(data)["BA1"]["units"][0]


def play_of(data: Position) -> dict[str, Any]:
    """The play of the pending `dest` frame."""
    return data["stack"][DEST][2]


def setting(getter: Callable[[Position], Any], key: Any, value: Any) -> Callable[[Position], None]:
    def change(data: Position) -> None:
        getter(data)[key] = value

    return change


def deleting(getter: Callable[[Position], Any], key: Any) -> Callable[[Position], None]:
    def change(data: Position) -> None:
        del getter(data)[key]

    return change


def top(data: Position) -> Position:
    return data


LAST = len(rich()["stack"]) - 1
"""Index of the top frame of `rich`'s stack (P1's cast window)."""

RICH_CASES: list[tuple[str, Callable[[Position], None], str]] = [
    ("unknown top-level key", setting(top, "colour", "blue"), "colour"),
    ("players missing", deleting(top, "players"), "players"),
    ("a third seat", setting(lambda d: d["players"], "P3", {}), "players"),
    ("seat not an object", setting(lambda d: d["players"], "P1", "P1"), "players.P1"),
    ("unknown seat key", setting(p1, "mana", 3), "players.P1.mana"),
    ("hand not a list", setting(p1, "hand", "R01"), "players.P1.hand"),
    ("unknown card in hand", setting(p1, "hand", ["R01", "ZZZ"]), "players.P1.hand[1]"),
    ("card id not a string", setting(p1, "discard", [7]), "players.P1.discard[0]"),
    ("unknown card in deck", setting(p2, "deck", ["R99"]), "players.P2.deck[0]"),
    ("unknown card in HP", setting(lambda d: p1(d)["BA1"], "hp", ["N01", "Q"]), "players.P1.BA1.hp[1]"),
    ("unknown card in placement", setting(p1, "placement", ["X99"]), "players.P1.placement[0]"),
    ("known_hand not in hand", setting(p1, "known_hand", ["R05", "R05"]), "players.P1.known_hand"),
    ("unknown card in known_hand", setting(p1, "known_hand", ["nope"]), "players.P1.known_hand[0]"),
    ("burst without checked", setting(p1, "bursts", [{"card": "N01"}]), "players.P1.bursts[0]"),
    ("burst of unknown card", setting(p1, "bursts", [{"card": "?", "checked": False}]), "players.P1.bursts[0].card"),
    ("engraves not a list", setting(p1, "engraves", {"card": "R02"}), "players.P1.engraves"),
    ("battle area key missing", deleting(lambda d: p1(d)["BA1"], "hp"), "players.P1.BA1"),
    ("units not a list", setting(lambda d: p1(d)["BA1"], "units", "R02"), "players.P1.BA1.units"),
    ("unknown object key", setting(unit1, "hp", 3), "players.P1.BA1.units[0]"),
    ("object without card", deleting(unit1, "card"), "players.P1.BA1.units[0]"),
    ("object of unknown card", setting(unit1, "card", "R2"), "players.P1.BA1.units[0].card"),
    ("a code as a unit", lambda d: p1(d)["BA2"]["units"].append(unit("R05")), "players.P1.BA2.units[1].card"),
    ("a code as the idol", setting(p1, "idol", unit("R05")), "players.P1.idol.card"),
    ("enchant of a bad player", lambda d: unit1(d)["enchants"][0].update(owner="P3"), "players.P1.BA1.units[0]"),
    ("enchant of unknown card", lambda d: unit1(d)["enchants"][1].update(card="B99"), "players.P1.BA1.units[0]"),
    ("enchant of unknown kind", lambda d: unit1(d)["enchants"][0].update(kind="curse"), "players.P1.BA1.units[0]"),
    ("enchant not an object", setting(unit1, "enchants", ["boost"]), "players.P1.BA1.units[0].enchants[0]"),
    ("attached unknown code", setting(unit1, "attached", ["B4"]), "players.P1.BA1.units[0].attached"),
    ("arms of unknown card", lambda d: p1(d)["BA1"]["caster"].update(arms="R12"), "players.P1.BA1.caster.arms"),
    ("caster of unknown card", lambda d: p1(d)["BA1"]["caster"].update(card="X9"), "players.P1.BA1.caster.card"),
    ("over-full area: three units", lambda d: p2(d)["BA2"]["units"].append(unit("G01")), "players.P2.BA2.units[2]"),
    ("over-heavy area: M + L", lambda d: p1(d)["BA1"]["units"].append(unit("R03")), "players.P1.BA1.units[1]"),
    ("over-heavy area: a dummy too", lambda d: p1(d)["BA1"]["units"].append(unit("R02")), "players.P1.BA1.units[1]"),
    ("negative turn", setting(top, "turn", -1), "turn"),
    ("turn as text", setting(top, "turn", "3"), "turn"),
    ("turn as a float", setting(top, "turn", 2.5), "turn"),
    ("unknown phase", setting(top, "phase", "lunch"), "phase"),
    ("first of a bad player", setting(top, "first", "P3"), "first"),
    ("token of a bad player", setting(top, "token", 1), "token"),
    ("stack not a list", setting(top, "stack", "turn"), "stack"),
    ("stack missing", deleting(top, "stack"), "stack"),
    ("empty stack in progress", setting(top, "stack", []), "stack"),
    ("unknown frame kind", lambda d: d["stack"].append(["dance", "P1"]), f"stack[{LAST + 1}]"),
    ("frame not a list", lambda d: d["stack"].append("turn"), f"stack[{LAST + 1}]"),
    ("frame with too few arguments", lambda d: d["stack"].append(["win", "P1"]), f"stack[{LAST + 1}]"),
    ("frame with a bad player", lambda d: d["stack"][-1].__setitem__(1, "P0"), f"stack[{LAST}][1]"),
    (
        "frame with a bad window",
        lambda d: d["stack"][-1].__setitem__(2, "lunch"),
        f"stack[{LAST}][2]",
    ),
    (
        "frame with a text count",
        lambda d: d["stack"].append(["aturn", "P1", "0", 0]),
        f"stack[{LAST + 1}][2]",
    ),
    ("attack not an object", setting(top, "attack", "BA1"), "attack"),
    (
        "attacker in an empty slot",
        setting(top, "attack", {"player": "P2", "attackers": ["P2:BA1.U2"], "area": "BA1", "blocker": None, "mod": 0}),
        "attack.attackers",
    ),
    (
        "trigger of unknown ability",
        setting(top, "triggers", [{"player": "P1", "source": "P1:BA1.U1", "ability": "A:R02:9"}]),
        "triggers[0].ability",
    ),
    (
        "trigger from an empty slot",
        setting(top, "triggers", [{"player": "P1", "source": "P1:BA1.U2", "ability": "A:R04:0"}]),
        "triggers[0].source",
    ),
]


@pytest.mark.parametrize(("change", "field"), [case[1:] for case in RICH_CASES], ids=[c[0] for c in RICH_CASES])
def test_malformed_rich_position(change, field):
    data = rich()
    change(data)
    assert names(error_for(data), field)


STACK_CASES: list[tuple[str, Callable[[Position], None], str]] = [
    ("play card in an empty slot", setting(play_of, "card", "P1:BA2.U2"), f"stack[{DEST}][2].card"),
    ("play card past the limbo", setting(play_of, "card", "P1:limbo:3"), f"stack[{DEST}][2].card"),
    ("play card in no zone", setting(play_of, "card", "P1:nowhere:0"), f"stack[{DEST}][2].card"),
    ("play card of a bad seat", setting(play_of, "card", "P3:limbo:0"), f"stack[{DEST}][2].card"),
    ("play card without a seat", setting(play_of, "card", "limbo"), f"stack[{DEST}][2].card"),
    ("play card index not a number", setting(play_of, "card", "P1:limbo:x"), f"stack[{DEST}][2].card"),
    ("play target in an empty slot", setting(play_of, "targets", ["P2:IDOL"]), f"stack[{DEST}][2].targets"),
    ("play without kind", deleting(play_of, "kind"), f"stack[{DEST}][2]"),
    ("play of a bad player", setting(play_of, "player", "P9"), f"stack[{DEST}][2]"),
    ("play of unknown destination", setting(play_of, "dest", "BA3"), f"stack[{DEST}][2]"),
    ("play not an object", lambda d: d["stack"][DEST].__setitem__(2, "P1:limbo:0"), f"stack[{DEST}][2]"),
]


@pytest.mark.parametrize(("change", "field"), [case[1:] for case in STACK_CASES], ids=[c[0] for c in STACK_CASES])
def test_malformed_stack_frame(change, field):
    data = copy.deepcopy(CASTING)
    change(data)
    assert names(error_for(data), field)


@pytest.mark.parametrize("data", [[], "position", None, 7])
def test_not_an_object(data):
    assert error_for(data).field == "position"


# ---- found by the fuzz below or by reading the loader: malformed input that must not crash or load ----


def _five_dummies(data: Position) -> None:
    seat = p1(data)
    seat["BA1"]["units"] = [dummy("N01"), dummy("N01")]
    seat["BA2"]["units"] = [dummy("N01"), dummy("N01")]
    seat["idol"] = dummy("N01")


CRASH_CASES: list[tuple[str, Callable[[Position], None], str]] = [
    ("caster not an object", setting(lambda d: p1(d)["BA1"], "caster", "X01"), "players.P1.BA1.caster"),
    ("enchant missing owner", lambda d: unit1(d)["enchants"][0].pop("owner"), "players.P1.BA1.units[0].enchants[0]"),
    ("attached not a list", setting(unit1, "attached", "B04"), "players.P1.BA1.units[0].attached"),
    ("speed_shift as text", setting(p1, "speed_shift", "fast"), "players.P1.speed_shift"),
    ("bp_mod as text", setting(unit1, "bp_mod", "ten"), "players.P1.BA1.units[0].bp_mod"),
    ("caster shield as text", lambda d: p1(d)["BA1"]["caster"].update(shield="x"), "players.P1.BA1.caster.shield"),
    ("cost_reduction as text", setting(top, "cost_reduction", "one"), "cost_reduction"),
    ("attack without player", setting(top, "attack", {"attackers": [], "area": "BA1"}), "attack"),
    (
        "attack on an unknown area",
        setting(top, "attack", {"player": "P2", "attackers": ["P2:BA1.U1"], "area": "BA3", "blocker": None}),
        "attack",
    ),
    (
        "attack of a bad player",
        setting(top, "attack", {"player": "P5", "attackers": ["P2:BA1.U1"], "area": "BA1", "blocker": None}),
        "attack",
    ),
    ("trigger not an object", setting(top, "triggers", ["A:R04:0"]), "triggers[0]"),
    (
        "trigger of a bad player",
        setting(top, "triggers", [{"player": 2, "source": "P1:BA1.U1", "ability": "A:R09:0"}]),
        "triggers[0]",
    ),
    ("triggers not a list", setting(top, "triggers", {"player": "P1"}), "triggers"),
    ("abuild attackers not a list", lambda d: d["stack"].append(["abuild", "P1", 3]), f"stack[{LAST + 1}]"),
    ("winner of a bad player", lambda d: d.update(phase="over", winner="P7"), "winner"),
    ("five dummies", lambda d: _five_dummies(d), "players.P1"),
    ("a dummy in the idol area (D15.1)", setting(p1, "idol", dummy("N01")), "players.P1.idol"),
    ("a unit card as a caster", lambda d: p1(d)["BA1"]["caster"].update(card="R01"), "players.P1.BA1.caster.card"),
    ("game of another name", setting(top, "game", "aterial"), "game"),
    ("turn as a boolean", setting(top, "turn", True), "turn"),
    ("cards under an empty caster slot", setting(lambda d: p1(d)["BA2"], "caster", None), "players.P1.BA2"),
    ("a decision with no option", lambda d: d["stack"].append(["limit", "P2"]) or p2(d).update(hand=[]), "stack"),
]


@pytest.mark.parametrize(("change", "field"), [case[1:] for case in CRASH_CASES], ids=[c[0] for c in CRASH_CASES])
def test_malformed_position_is_refused_not_crashed_on(change, field):
    data = rich()
    change(data)
    assert names(error_for(data), field)


def test_config_with_missing_card_file_is_a_position_error(tmp_path):
    data = rich()
    data["config"] = {**data["config"], "cards": [str(tmp_path / "missing.toml")]}
    assert names(error_for(data), "config.cards")


def test_unknown_play_reference_is_refused():
    """A play whose effects reference names no ability must not load (it would crash when it resolves)."""
    data = copy.deepcopy(CASTING)
    play = {**play_of(data), "kind": "code", "ref": "C:ZZZ", "card": "P1:limbo:0"}
    data["stack"][DEST] = ["resolve", play]
    assert names(error_for(data), f"stack[{DEST}][1]")


# ---- the stack: only what play can build (position.BELOW and the checks beside it) ---------------


def pending() -> Position:
    """P1's ACTION code R05 aimed at P2:BA1.U1, paid and waiting for its reaction window (D10.4): the stack
    ends with ["aturn", "P2", 0, 1], ["resolve", play], ["react", "P2", 0]."""
    state = GAME.load_position(make_position(phase="action", first="P1", p1={"hand": ["R05"], "bursts": 2},
                                             p2={"ba1": ["G01", "G04"], "bursts": 1}))  # fmt: skip
    for action in ("PLAY R05", "TARGET P2:BA1.U1", "PAY BURST"):
        state.apply(action)
    return state.position()


PENDING = pending()
assert [frame[0] for frame in PENDING["stack"]] == ["turn", "end_phase", "aturn", "resolve", "react"]


def resolving() -> Position:
    """`PENDING` once its window has closed, R05's effect next: [..., aturn, settle, finish, effect 0]."""
    data = copy.deepcopy(PENDING)
    play = data["stack"][3][1]
    data["stack"][3:] = [["settle"], ["finish", play], ["effect", play, 0]]
    return data


def test_duplicated_dest_frame_is_refused():
    """Found by the fuzz: a second ["dest", "P1", play] on the first loaded, and paying for the cast then
    failed (ValueError: its card had already left limbo). A dest step lies only on its cast window."""
    data = copy.deepcopy(CASTING)
    data["stack"].insert(DEST, copy.deepcopy(data["stack"][DEST]))
    error = error_for(data)
    assert error.field == f"stack[{DEST + 1}]"
    assert "dest step cannot lie on a dest step" in error.problem


def test_the_base_stack_positions_load():
    for data in (PENDING, resolving()):
        state = GAME.load_position(copy.deepcopy(data))
        assert state.legal_actions()
    assert GAME.load_position(resolving()).position()["players"]["P1"]["discard"] == ["R05"]  # resolved, finished


def _swap(i: int, j: int) -> Callable[[Position], None]:
    def change(data: Position) -> None:
        stack = data["stack"]
        stack[i], stack[j] = stack[j], stack[i]

    return change


def _frame_of(index: int) -> Callable[[Position], Any]:
    return lambda data: data["stack"][index]


def _play_in(index: int, slot: int = 2) -> Callable[[Position], Any]:
    return lambda data: data["stack"][index][slot]


def _duplicate(index: int) -> Callable[[Position], None]:
    return lambda data: data["stack"].insert(index, copy.deepcopy(data["stack"][index]))


ORDER_CASES: list[tuple[str, Callable[[], Position], Callable[[Position], None], str, str]] = [
    ("dest of the other player", casting, setting(_frame_of(DEST), 1, "P2"), f"stack[{DEST}][1]", "whose play"),
    ("dest below its window", casting, _swap(DEST - 1, DEST), f"stack[{DEST - 1}]", "cannot lie on a upkeep step"),
    ("a card in limbo with no play", casting, lambda d: d["stack"].pop(), "players.P1.limbo[0]", "for no play"),
    (
        "a cast whose destination is chosen",
        casting,
        setting(_play_in(DEST), "dest", "BA1"),
        f"stack[{DEST}][2].dest",
        "destination",
    ),
    (
        "a cast with a target",
        casting,
        setting(_play_in(DEST), "targets", ["P2:BA1.U1"]),
        f"stack[{DEST}][2].targets",
        "targets chosen",
    ),
    (
        "a play of a card in hand",
        casting,
        setting(_play_in(DEST), "card", "P1:hand:0"),
        f"stack[{DEST}][2].card",
        "limbo",
    ),
    ("a cast as an arms", casting, setting(_play_in(DEST), "kind", "arms"), f"stack[{DEST}][2].kind", "unit or idol"),
    ("duplicated window", rich, _duplicate(LAST), f"stack[{LAST + 1}]", "two win steps"),
    ("window of another phase", rich, setting(_frame_of(LAST), 2, "fast"), f"stack[{LAST}]", "fast phase"),
    ("a turn above the bottom", rich, lambda d: d["stack"].append(["turn"]), f"stack[{LAST + 1}]", "turn step"),
    ("phase steps out of order", rich, _swap(1, 2), "stack[1]", "action_phase step cannot lie on a turn step"),
    ("no turn at the bottom", rich, lambda d: d["stack"].pop(0), "stack[0]", "at the bottom"),
    ("a phase behind its steps", rich, lambda d: d.update(stack=d["stack"][:3]), "phase", "the action phase is next"),
    (
        "an action turn in the cast phase",
        rich,
        lambda d: d["stack"].append(["aturn", "P1", 0, 0]),
        f"stack[{LAST + 1}]",
        "action phase",
    ),
    (
        "a trigger order on a window",
        rich,
        lambda d: d["stack"].append(["order", "P1"]),
        f"stack[{LAST + 1}]",
        "only on settle",
    ),
    (
        "a count as a boolean",
        rich,
        lambda d: d["stack"].append(["aturn", "P1", True, 0]),
        f"stack[{LAST + 1}][2]",
        "integer",
    ),
    (
        "an attack without its steps",
        rich,
        setting(top, "attack", {"player": "P2", "attackers": ["P2:BA1.U1"], "area": "BA1", "blocker": None, "mod": 0}),
        "attack",
        "one pending step",
    ),
    ("duplicated reaction right", pending, _duplicate(4), "stack[5]", "react step cannot lie on a react step"),
    ("duplicated ACTION item", pending, _duplicate(3), "stack[4]", "resolve step cannot lie on a resolve step"),
    (
        "a reaction right below no ACTION item",
        pending,
        setting(_play_in(3, 1), "action", False),
        "stack[4]",
        "ACTION item",
    ),
    ("an item of the player whose turn is next", pending, setting(_frame_of(2), 1, "P1"), "stack[3]", "other player"),
    ("reaction passes out of range", pending, setting(_frame_of(4), 2, 2), "stack[4][2]", "passes"),
    ("an effect the play does not have", resolving, setting(_frame_of(5), 2, 1), "stack[5][2]", "effects 0 to 0"),
    ("an effect resolving twice", resolving, _duplicate(5), "stack[6]", "in order"),
    ("a finish without its rule check", resolving, lambda d: d["stack"].pop(3), "stack[3]", "cannot lie on a aturn"),
]


@pytest.mark.parametrize(("base", "change", "field", "problem"), [case[1:] for case in ORDER_CASES],
                         ids=[case[0] for case in ORDER_CASES])  # fmt: skip
def test_malformed_stack_is_refused(base, change, field, problem):
    data = copy.deepcopy(base())
    change(data)
    error = error_for(data)
    assert error.field == field, error
    assert problem in error.problem, error


# ---- fuzz ---------------------------------------------------------------------------------------

ODD_VALUES = [
    None,
    -1,
    0,
    3,
    2.5,
    True,
    "",
    "P1",
    "P3",
    "R01",
    "X01",
    "BA1",
    "P1:BA1.U1",
    "P2:limbo:0",
    [],
    {},
    ["R01"],
]


def _samples() -> list[Position]:
    """Positions from random games of every configuration, at several depths (setup, mid-turn, late); each
    under GAME's config so that loading them needs no new Game (the loader takes any cards in any config)."""
    found = [rich(), CASTING]
    for config in CONFIGS:
        for seed, stop in ((1, 3), (2, 40), (3, 120), (4, 200)):
            _, state = play(config, seed, max_steps=stop)
            found.append({**state.position(), "config": GAME.config_json()})
    return found


SAMPLES = _samples()


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path inside a JSON value (the root excluded)."""
    found = []
    if isinstance(data, dict):
        items: Any = data.items()
    elif isinstance(data, list):
        items = enumerate(data)
    else:
        return found
    for key, value in items:
        found.append((*prefix, key))
        found += paths(value, (*prefix, key))
    return found


Edit = tuple[int, str, int]
"""(path index modulo the number of paths, operation, index into ODD_VALUES)."""
edits = st.lists(
    st.tuples(st.integers(0, 10**6), st.sampled_from(["set", "set", "delete", "duplicate"]), st.integers(0, 16)),
    min_size=1,
    max_size=3,
)


def broken(sample: int, changes: list[Edit]) -> tuple[Position, list[str]]:
    """SAMPLES[sample] with each change applied at one of its paths; also the changes in words."""
    data = json.loads(json.dumps(SAMPLES[sample]))
    told = []
    for where, op, value in changes:
        every = paths(data)
        path = every[where % len(every)]
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        if op == "set":
            parent[path[-1]] = copy.deepcopy(ODD_VALUES[value % len(ODD_VALUES)])
        elif op == "delete":
            del parent[path[-1]]
        elif isinstance(parent, list):
            parent.insert(path[-1], copy.deepcopy(parent[path[-1]]))
        told.append(
            f"{op} {'.'.join(map(str, path))}" + (f" = {ODD_VALUES[value % len(ODD_VALUES)]!r}" * (op == "set"))
        )
    return data, told


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sample=st.integers(0, len(SAMPLES) - 1), changes=edits)
def test_fuzzed_position_loads_soundly_or_raises_position_error(sample, changes):
    """Broken fields anywhere: PositionError, or a state that dumps and holds every card exactly once."""
    data, told = broken(sample, changes)
    note(f"changes: {told}")
    try:
        state = GAME.load_position(data)
    except PositionError as error:
        assert error.field and error.problem
        return
    check_conservation(state, GAMES[CONFIGS[0]].config, by_id=False)
    state.position()
    for viewer in (0, 1, None):
        state.observation(viewer)
    if state.current_player() is not None and state.legal_actions():
        state.clone().apply(random.Random(0).choice(state.legal_actions()))
