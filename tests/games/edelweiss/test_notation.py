"""The one-line position notation (docs/notation.md): round trips, exact texts, errors, repr and str.

Position-based tests are named by the notation of their position, so a failing test says which
position it was.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.core import PositionError
from cardlab.core.scenario import play_scenario
from cardlab.games import REGISTRY
from cardlab.games.edelweiss import Edelweiss, EdelweissAction, EdelweissConfig, EdelweissState
from cardlab.games.edelweiss.notation import FIELDS, notation_of_position, parse_notation, position_of_notation

from .edelweiss_positions import ALL_CONFIGS, GAME, attack_obj, load, make_position, skills

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))
DOC = Path(__file__).parents[3] / "docs" / "notation.md"
CONFIGS = ALL_CONFIGS


def assert_round_trip(state: EdelweissState) -> str:
    """Both laws of docs/notation.md, plus: the reloaded state offers the same choices."""
    text = state.notation()
    reloaded = parse_notation(text)
    assert reloaded.position() == state.position(), text
    assert reloaded.notation() == text
    assert reloaded.legal_actions() == state.legal_actions()
    assert GAME.parse_notation(text).position() == state.position()  # the Game method: same state
    assert position_of_notation(text) == state.position()  # the notation spells exactly the JSON
    assert notation_of_position(state.position()) == text
    return text


# -- round trips --------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(min_value=0, max_value=2**63 - 1))
def test_hypothesis_notation_round_trips_at_every_step(config: EdelweissConfig, seed: int) -> None:
    """Random games from random seeds and random legal moves: the laws hold after every move.

    Odd seeds rarely give up a defense, so that long games, reveals and deck-outs occur too.
    """
    state = Edelweiss(config).new_state(seed, record_events=False)
    rng = random.Random(seed)
    while True:
        assert_round_trip(state)
        if state.current_player() is None:
            break
        legal = state.legal_actions()
        if seed % 2 and EdelweissAction.NO_DEFENSE in legal and rng.random() < 0.95:
            legal = tuple(action for action in legal if action != EdelweissAction.NO_DEFENSE)
        state.apply(rng.choice(legal))


def _scenario_states() -> list[EdelweissState]:
    """Every state the conformance scenarios pass through (copies)."""
    states = []
    for path in SCENARIOS:
        data = json.loads(path.read_text())
        state = play_scenario({**data, "actions": []}, REGISTRY)  # a position, or a game dealt from a seed
        states.append(state.clone())
        for action in data.get("actions", []):
            state.apply(action)
            states.append(state.clone())
    return states


SCENARIO_STATES = _scenario_states()
NOTATIONS = [state.notation() for state in SCENARIO_STATES]


@pytest.mark.parametrize("state", SCENARIO_STATES, ids=NOTATIONS)
def test_scenario_positions_round_trip(state: EdelweissState) -> None:
    """W1-W6 and the per-rule scenarios reach every window (counter, pursuit, over, ...)."""
    assert_round_trip(state)


def test_scenarios_cover_every_resting_window_and_attack_form() -> None:
    notations = NOTATIONS
    windows = {text.split()[FIELDS.index("window")] for text in notations}
    assert windows == {"main", "special_summon", "attack", "intercept", "defense", "counter", "pursuit", "over"}
    attacks = " ".join(text.split()[FIELDS.index("attack")] for text in notations)
    assert all(part in attacks for part in ("/guard=", "/block=", "/field_guard=", "/counter"))


# -- exact texts ----------------------------------------------------------------------------------

START = (
    "full 1 P1 main 2D,5H,6D,9S,JS/- 7C,8C,9H,AD/- 4C,10S,3C,4D,6H,10H,AS,8S,9D,2H,6C,3H,2C,7H,KS,KD,QD,QH,8D,"
    "QC,7S,3D,4H,8H,AH,JD,5S,5C,10D,6S,KH,2S,KC,3S,AC,QS,9C,JC,7D,4S,10C,JH,5D - - -"
)


def test_start_position_notation() -> None:
    """E1.4: P1's hand dealt first, then P2's; P1 has drawn its turn-1 card (E3.2 ruling)."""
    state = GAME.new_state(3)
    assert state.notation() == START
    assert repr(state) == f"EdelweissState('{START}')"


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        (dict(window="main", turn=7, p1_hand=["2H", "3S"], p1_field=["5S:U", "8C:T"], p2_field=["4S:T"],
              deck=["9S", "3H"], discard=["6D"], p2_hand=["8D"]),
         "full 7 P1 main 2H,3S/5S:U,8C:T 8D/4S:T 9S,3H 6D - -"),
        (dict(window="defense", turn=4, turn_player="P2", p1_hand=["4C", "7D"], p1_field=["9H:U"],
              p2_field=["6S:T"], deck=["2S", "3S"], attack=attack_obj("6S")),
         "full 4 P2 defense 4C,7D/9H:U -/6S:T 2S,3S - 6S -"),
        (dict(window="pursuit", p1_field=["6S:T", "2C:U"], p2_hand=["3S"], p2_field=["9H:T"], deck=["2D", "3D"],
              attack=attack_obj("6S", defense="block", blocker="9H")),
         "full 5 P1 pursuit -/6S:T,2C:U 3S/9H:T 2D,3D - 6S/block=9H -"),
        (dict(window="counter", p1_field=["6S:T", "2C:U"], p2_hand=["3S"], deck=["2S"], discard=["7D"],
              attack=attack_obj("6S", defense="guard", guard_card="7D", counter=True)),
         "full 5 P1 counter -/6S:T,2C:U 3S/- 2S 7D 6S/guard=7D/counter -"),
        (dict(window="over", turn=9, p1_hand=["2S"], deck=["3S"], winner="P1", win_reason="attack"),
         "full 9 P1 over 2S/- -/- 3S - - P1:attack"),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)  # fmt: skip
def test_notation_of_hand_made_positions(kwargs: dict, expected: str) -> None:
    state = GAME.load_position(make_position(**kwargs))
    assert state.notation() == expected
    assert_round_trip(state)


def test_diamond_dust_reveal_is_starred() -> None:
    """E4.3/E2.5: an all-diamond hand is shown to the opponent; the notation marks each card '*'."""
    state = load(p1_hand=["2D", "3D"], p1_field=["5S:U"], p2_hand=["4C"], deck=["7H", "8H"])
    assert state.notation() == "full 5 P1 attack 2D*,3D*/5S:U 4C/- 7H,8H - - -"
    assert state.position()["revealed"] == {"P1": ["2D", "3D"], "P2": []}
    assert_round_trip(state)


def test_skills_config_names_standard_and_both_characters() -> None:
    state = skills(("VIRIDIAN", "EAGLE"), standard="accel2", p1_hand=["2S", "3H"], p2_hand=["4C"], deck=["9S"])
    assert state.notation().startswith("skills:accel2:VIRIDIAN,EAGLE 5 P1 main ")
    assert_round_trip(state)


def test_a_draw_window_notation_loads_like_the_json() -> None:
    """E14.5: a position at 'draw' runs the draw step on loading; the notation of the result is printed."""
    state = parse_notation("full 3 P2 draw 2D/- 5S/- 9H,3C - - -")
    assert state.notation() == "full 3 P2 main 2D/- 5S,9H/- 3C - - -"


def test_doc_examples_round_trip() -> None:
    """Every line of a ```notation block in docs/notation.md is a notation a state prints."""
    blocks = re.findall(r"```notation\n(.*?)```", DOC.read_text(), flags=re.S)
    lines = [line for block in blocks for line in block.splitlines() if line.strip()]
    assert len(lines) >= 2
    for line in lines:
        assert parse_notation(line).notation() == line


# -- errors -----------------------------------------------------------------------------------------

BASE = "full 5 P1 main 2S,3H/5S:U 4C/9H:U 7D,8D,JD - - -"


def _with(field: str, value: str) -> str:
    parts = BASE.split()
    parts[FIELDS.index(field)] = value
    return " ".join(parts)


@pytest.mark.parametrize(
    ("text", "field", "problem"),
    [
        ("", "notation", "expected 10 space-separated fields"),
        (BASE + " extra", "notation", "got 11"),
        (_with("config", "huge"), "config", "expected 'full', 'short' or 'skills:"),
        (_with("config", "skills:accel3:GARU,EAGLE"), "config", "not a standard"),
        (_with("config", "skills:symbolic:GARU"), "config", "two character ids"),
        (_with("config", "skills:symbolic:GARU,BOB"), "config", "P2's character 'BOB'"),
        (_with("config", "short"), "deck", "JD is not in the short deck (E1.1)"),
        (_with("turn", "0"), "turn", "integer >= 1"),
        (_with("turn", "05"), "turn", "without leading zeros"),
        (_with("turn", "x"), "turn", "integer"),
        (_with("turn_player", "P3"), "turn_player", "expected P1 or P2"),
        (_with("window", "lunch"), "window", "'lunch' is not one of"),
        (_with("P1", "2S,3H"), "P1", "expected HAND/FIELD"),
        (_with("P1", "2S/5S:U/3H"), "P1", "expected HAND/FIELD"),
        (_with("P1", "3H,2S/5S:U"), "P1.hand", "canonical order"),
        (_with("P1", "2S,,3H/5S:U"), "P1.hand", "an empty item"),
        (_with("P1", "2S,3X/5S:U"), "P1.hand[1]", "'3X' is not a card"),
        (_with("P1", "2s,3H/5S:U"), "P1.hand[0]", "'2s' is not a card"),
        (_with("P1", "2S,3H/5S"), "P1.field[0]", "':U' (upright) or ':T' (tapped)"),
        (_with("P1", "2S,3H/5S:X"), "P1.field[0]", "':U' (upright) or ':T' (tapped)"),
        (_with("P1", "2S,3H/5D:U"), "P1.field[0]", "a diamond can never be on a field (E2.2)"),
        (_with("P2", "4C,5S/9H:U"), "P1.field", "5S also appears in P2.hand"),
        (_with("deck", "7D,,9D"), "deck", "an empty item"),
        (_with("deck", "7D,8D,2S"), "P1.hand", "2S also appears in deck"),
        (_with("discard", "ZZ"), "discard[0]", "'ZZ' is not a card"),
        (_with("attack", "5S"), "attack", "must be null at window 'main'"),
        (_with("attack", "5S/parry=4C"), "attack", "DEFENSE one of guard, block, field_guard"),
        (_with("attack", "5S/guard=4C/counter/x"), "attack", "expected SPADE[/DEFENSE=CARD][/counter]"),
        (_with("result", "P1"), "result", "expected '-' or WINNER:REASON"),
        (_with("result", "P1:luck"), "result", "expected '-' or WINNER:REASON"),
        (_with("result", "P1:attack"), "result", "a winner is set exactly when window is 'over'"),
    ],
    ids=lambda value: value if isinstance(value, str) and " " in value else None,
)
def test_malformed_notation_names_the_field_and_the_problem(text: str, field: str, problem: str) -> None:
    with pytest.raises(PositionError) as info:
        parse_notation(text)
    assert info.value.field == field
    assert problem in info.value.problem
    assert str(info.value) == f"{field}: {info.value.problem}"


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("full 5 P1 defense -/5S:T 4C/9H:U 7D - 5S/block=9H -", "attack.defense"),
        ("full 5 P1 pursuit -/5S:T,2C:U 4C/9H:U 7D - 5S/block=9H -", "attack.blocker"),
        ("full 5 P1 counter -/5S:T,2C:U 4C/- 7D - 5S/guard=3D/counter -", "attack.guard_card"),
        ("full 5 P1 counter -/5S:T,2C:U 4C/- 7D 3D 5S/guard=3D -", "attack.counter"),
        ("full 5 P1 intercept -/5S:U 4C/- 7D - 6S -", "attack.spade"),
    ],
    ids=lambda value: value if " " in value else None,
)
def test_attack_errors_name_the_attack_part(text: str, field: str) -> None:
    """E5: the attack part's consistency is checked by the position loader, named as in the JSON."""
    with pytest.raises(PositionError) as info:
        parse_notation(text)
    assert info.value.field == field


def test_a_revealed_card_may_stand_in_any_position() -> None:
    """E2.5: the opponent knows a starred card however it became known (here: a loaded position)."""
    text = _with("P2", "4C*/9H:U")
    assert parse_notation(text).notation() == text
    assert parse_notation(text).position()["revealed"] == {"P1": [], "P2": ["4C"]}


def test_non_string_is_a_position_error() -> None:
    with pytest.raises(PositionError) as info:
        parse_notation(42)  # type: ignore[arg-type]
    assert info.value.field == "notation"


_TOKENS = ["-", "/", ",", ":", "*", "=", " ", "P1", "P2", "2S", "10H", "AD", "5C:T", "counter", "over", "main", "x"]


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), data=st.data())
def test_hypothesis_mangled_notations_raise_position_error_only(seed: int, data: st.DataObject) -> None:
    """Random edits of real notations either load (and then round-trip) or raise PositionError: no other error."""
    config = CONFIGS[seed % len(CONFIGS)]
    state = Edelweiss(config).new_state(seed, record_events=False)
    rng = random.Random(seed)
    for _ in range(rng.randrange(12)):
        if state.current_player() is None:
            break
        state.apply(rng.choice(state.legal_actions()))
    text = state.notation()
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 4))
        text = text[:at] + data.draw(st.sampled_from(_TOKENS)) + text[at + cut :]
    try:
        loaded = parse_notation(text)
    except PositionError as error:
        assert error.field and error.problem
    else:
        again = loaded.notation()
        assert parse_notation(again).notation() == again


# -- repr and str -------------------------------------------------------------------------------------


def test_repr_holds_the_notation_and_reloads() -> None:
    state = GAME.new_state(5)
    text = repr(state)
    match = re.fullmatch(r"EdelweissState\('(.*)'\)", text)
    assert match is not None
    assert parse_notation(match.group(1)).position() == state.position()


def test_str_shows_turn_mover_hands_and_fields_by_suit_and_counts() -> None:
    state = load(window="attack", turn=7, p1_hand=["2H", "7D"], p1_field=["5S:U", "8C:T", "3S:T"],
                 p2_hand=["4C", "9D"], p2_field=["4S:T", "6H:U"], deck=["9S", "3H"], discard=["6D", "QC"])  # fmt: skip
    assert str(state).splitlines() == [
        "Edelweiss (full deck): turn 7, P1's turn, P1 to move (attack)",
        "P2",
        "  hand  2: S - | H - | C 4C | D 9D",
        "  field 2: S 4S:T | H 6H:U | C -",
        "P1",
        "  field 3: S 5S:U 3S:T | H - | C 8C:T",
        "  hand  2: S - | H 2H | C - | D 7D",
        "deck 2, discard 2 (top QC)",
    ]


def test_str_shows_characters_skills_attack_reveals_and_the_defender_to_move() -> None:
    state = skills(("VIRIDIAN", "VERDI"), window="defense", p1_field=["6S:T"], p2_hand=["2D", "3D"],
                   deck=["9S", "8S"], attack=attack_obj("6S"), revealed={"P2": ["3D"]})  # fmt: skip
    text = str(state)
    assert "Edelweiss (skills deck, Symbolic): turn 5, P1's turn, P2 to move (defense)" in text
    assert "P1 VIRIDIAN (Viridian Lagartija Lacerta): Guardian, Poison Bind" in text
    assert "P2 VERDI (Verdi Kirakatl): Buddy Summoner, Poison Bind" in text
    assert "D 2D 3D*" in text  # E2.5: the revealed card is starred
    assert "attack: 6S attacks, defense to come (E5)" in text


def test_str_of_a_finished_game_names_the_winner() -> None:
    state = parse_notation("full 9 P1 over 2S/- -/- 3S - - P1:attack")
    assert str(state).splitlines()[0] == (
        "Edelweiss (full deck): turn 9, P1's turn, over: P1 wins (P2 could not guard or block P1's attack)"
    )


# -- open observation -------------------------------------------------------------------------------


def _open_by_hand(state: EdelweissState) -> dict:
    """What the web replay built before `open_observation`: the spectator view, each hand from its owner."""
    observation = state.observation(None)
    for p, seat in enumerate(("P1", "P2")):
        observation["players"][seat]["hand"] = state.observation(p)["players"][seat]["hand"]
        observation["players"][seat]["hand_complete"] = True
    return observation


@pytest.mark.parametrize("seed", range(6))
def test_open_observation_shows_every_hand(seed: int) -> None:
    state = Edelweiss(CONFIGS[seed * 7 % len(CONFIGS)]).new_state(seed)
    rng = random.Random(seed)
    while True:
        opened = state.open_observation()
        assert opened == _open_by_hand(state)
        spectator = state.observation(None)
        for seat, hand in zip(("P1", "P2"), state.hands, strict=True):
            assert len(opened["players"][seat]["hand"]) == len(hand)
            assert opened["players"][seat]["hand_complete"]
            if len(spectator["players"][seat]["hand"]) < len(hand):  # hidden from a spectator during play
                assert spectator["players"][seat]["hand_complete"] is False
        if state.current_player() is None:
            break
        state.apply(rng.choice(state.legal_actions()))
