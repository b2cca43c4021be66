"""The state's API for people and agents: repr/str, decoded actions (A18.1), the observation's
`attack_targets` (A12.3-A12.4), `open_observation`, and heuristics that read no engine internals."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from cardlab.games.aterial import Aterial
from cardlab.games.aterial.actions import Decoded
from cardlab.games.aterial.state import W_ATTACK, W_ATTACK_TARGET, AterialState

from .aterial_positions import GAME, load, unit

HEURISTICS = [Path(__file__).parents[3] / "src" / "cardlab" / "games" / game / "heuristic.py"
              for game in ("aterial", "edelweiss")]  # fmt: skip


def attack_position(**kwargs):
    """The attack phase of P1's turn 6 (so not turn 1, A12.1)."""
    return load(window="attack", turn=6, **kwargs)


def random_states(seeds: range, *, every: int = 1) -> list[AterialState]:
    """States along random games (copies), for checks that must hold everywhere."""
    game = Aterial()
    states = []
    for seed in seeds:
        state = game.new_state(seed, record_events=False)
        rng = random.Random(seed)
        step = 0
        while state.current_player() is not None:
            if step % every == 0:
                states.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
            step += 1
        states.append(state)
    return states


STATES = random_states(range(12))


# -- decoded actions (A18.1) ------------------------------------------------------------------------


def test_a18_1_every_action_decodes_to_named_parts_with_the_same_text() -> None:
    acts = GAME.actions
    for action in acts.space:
        decoded = acts.decode(action)
        assert str(decoded) == action.text == str(action)
        assert GAME.parse_action(str(decoded)) == action
        assert decoded.verb == action.text.split()[0]


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("KEEP", Decoded("KEEP")),
        ("MOVE B1", Decoded("MOVE", square=4)),
        ("TO F0", Decoded("TO", square=0)),
        ("ATTACK F2", Decoded("ATTACK", square=2)),
        ("TARGET P2:F1", Decoded("TARGET", square=1, seat=1)),
        ("TARGET P1:B2", Decoded("TARGET", square=5, seat=0)),
        ("ACTIVATE B0 tap_snipe", Decoded("ACTIVATE", square=3, key="tap_snipe")),
        ("DEPLOY S14", Decoded("DEPLOY", card="S14")),
        ("HAND S21 hand_rally", Decoded("HAND", card="S21", key="hand_rally")),
        ("DISCARD S01", Decoded("DISCARD", card="S01")),
    ],
)
def test_a18_1_decoded_parts(text: str, parts: Decoded) -> None:
    assert GAME.actions.decode(GAME.parse_action(text)) == parts


# -- attack targets in the observation (A12.3-A12.4) -------------------------------------------------


def test_a12_4_observation_lists_each_units_attack_targets() -> None:
    """A3.5 example: from P1:F1 with P2's front row full, targets P2:F1 (front), P2:F0 and P2:F2 (side)."""
    state = attack_position(p1=dict(field={"B2": "S19"}), p2=dict(field={"F0": "S24", "F2": "S24"}))
    for viewer in (0, 1, None):  # public information: every viewer sees the same
        field = state.observation(viewer)["players"]["P1"]["field"]
        assert field["F1"]["attack_targets"] == ["P2:F1", "P2:F0", "P2:F2"]
        assert field["B2"]["attack_targets"] == []  # A12.3: the back row attacks only with `ranged`
        enemy = state.observation(viewer)["players"]["P2"]["field"]
        assert all(u["attack_targets"] == [] for u in enemy.values() if u is not None)  # not their turn
    assert state.attack_targets(1) == ([1, 0, 2], 1)  # the same squares, and the facing one
    assert state.attack_targets(5) == ([], -1)


def test_a12_3_acted_units_have_no_targets() -> None:
    state = attack_position(p1=dict(field={"F0": unit("S24", ready=False)}), p2=dict(field={"F0": "S24"}))
    field = state.observation(0)["players"]["P1"]["field"]
    assert field["F0"]["attack_targets"] == []
    assert field["F1"]["attack_targets"] == ["P2:F1", "P2:F0"]


def test_a12_1_no_attack_targets_on_turn_one() -> None:
    state = load(window="action", turn=1, p2=dict(field={"F0": "S24"}))
    field = state.observation(0)["players"]["P1"]["field"]
    assert field["F1"]["attack_targets"] == []


def test_attack_targets_agree_with_the_legal_attacks_everywhere() -> None:
    """At every attack window the units with targets are exactly the legal ATTACKs; after one,
    the legal TARGETs are exactly that unit's targets."""
    acts = GAME.actions
    checked = 0
    for state in STATES:
        observation = state.observation(None)
        seat = "P1" if state.active == 0 else "P2"
        field = observation["players"][seat]["field"]
        if state.window == W_ATTACK:
            attackers = {square for square, u in field.items() if u is not None and u["attack_targets"]}
            legal = {str(a).split()[1] for a in state.legal_actions() if a != acts.end_attack}
            assert attackers == legal
            checked += 1
        if state.window == W_ATTACK_TARGET:
            square = observation["pending"]["square"]
            assert sorted(field[square]["attack_targets"]) == sorted(a.text[7:] for a in state.legal_actions())
            checked += 1
    assert checked > 50


# -- open observation ------------------------------------------------------------------------------------


def _open_by_hand(state: AterialState) -> dict:
    """What the web replay built before `open_observation`: the spectator view, each hand from its owner."""
    observation = state.observation(None)
    for p, seat in enumerate(("P1", "P2")):
        observation["players"][seat]["hand"] = state.observation(p)["players"][seat]["hand"]
    return observation


def test_open_observation_is_the_spectator_view_with_both_hands() -> None:
    for state in STATES[::5]:
        opened = state.open_observation()
        assert opened == _open_by_hand(state)
        for p, seat in enumerate(("P1", "P2")):
            assert len(opened["players"][seat]["hand"]) == len(state.hands[p])
            assert state.observation(None)["players"][seat]["hand"] is None  # a spectator sees none (A18.4)
        assert "shuffle_seed" not in opened and all("deck" not in p for p in opened["players"].values())


# -- repr and str --------------------------------------------------------------------------------------


def test_repr_is_one_line_with_turn_mover_and_window() -> None:
    state = Aterial().new_state(1)
    assert state.status() == f"turn 0, {'P1' if state.first == 0 else 'P2'} to move (window mulligan)"
    state = attack_position()
    assert state.status() == "turn 6, P1 to move (window attack)"
    state = load(window="block", turn=6, pending={"attacker": "P1:F0", "target": "P2:F1", "side": True},
                 p1=dict(field={"F0": unit("S24", ready=False)}), p2=dict(field={"F0": "S24"}))  # fmt: skip
    assert state.status() == "turn 6, P2 to move (window block)"  # A12.5: the defender decides


def test_repr_of_finished_games() -> None:
    won = load(window="over", winner="P1", reason="lp")
    assert won.status() == "turn 5, over: P1 wins (P2's leader has no LP left)"  # WIN_REASONS, not "(lp)"
    drawn = load(window="over", draw=True, reason="simultaneous_loss")
    assert drawn.status() == "turn 5, over: draw (both players lost at the same time)"


def test_str_shows_both_grids_units_leaders_counts_and_hands() -> None:
    state = attack_position(p1=dict(field={"F0": unit("S24", damage=1), "B2": "S19"}, hand=["S01", "S24"]),
                            p2=dict(field={"F0": "S24", "F2": unit("S19", ready=False)}))  # fmt: skip
    assert str(state).splitlines() == [
        "Aterial: turn 6, P1 active, P1 to move (attack); P2 played first",
        "P2: LP 22, hand 0, deck 5, discard 0, removed 0",
        "P2 hand: -",
        "      col 0    col 1      col 2",
        "P2 B  .        .          .",
        "P2 F  S24 2/4  L04 ATK 3  S19 3/3 (acted)",
        "P1 F  S24 1/3  L01 ATK 2  .",
        "P1 B  .        .          S19 3/3",
        "P1: LP 22, hand 2, deck 5, discard 0, removed 0",
        "P1 hand: S01, S24",
    ]


def test_str_shows_pending_choices_and_the_result() -> None:
    state = attack_position(p2=dict(field={"F0": "S24"}))
    state.apply("ATTACK F1")
    assert str(state).splitlines()[-1] == "pending: square F1"
    over = load(window="over", winner="P2", reason="deck_out")
    assert str(over).splitlines()[0] == (
        "Aterial: turn 5, P1 active, over: P2 wins (P1 had to draw from an empty deck); P1 played first"
    )


# -- heuristics read no engine internals -------------------------------------------------------------------


@pytest.mark.parametrize("path", HEURISTICS, ids=lambda path: path.parent.name)
def test_heuristics_call_no_private_state_methods(path: Path) -> None:
    """Project rule: a heuristic reads public state and observations, never `state._...` internals."""
    assert re.findall(r"state\._\w+", path.read_text()) == []
