"""What observations add for agents (DreadnoughtState.observation): the pending decision by name and the
ACTION item waiting for its reaction window (D10.4); the open observation replays show (both hands); the
state's text forms; and action parts by name (`Decoded`)."""

from __future__ import annotations

import json
import random

import pytest

from cardlab.games.dreadnought import Dreadnought
from cardlab.games.dreadnought.actions import NO_ARGUMENT, Decoded, decode
from cardlab.games.dreadnought.position import DECISION_DATA, FRAME_ARGS

from .dreadnought_positions import GAME, load, make_position
from .test_positions import CASTING, PENDING, rich


def test_decision_names_the_window_its_player_and_data():
    state = GAME.load_position(CASTING)
    decision = state.observation(0)["decision"]
    assert decision["kind"] == "dest" and decision["player"] == "P1"
    assert decision["play"]["kind"] == "unit" and decision["play"]["card"] == "P1:limbo:0"
    assert state.observation(1)["decision"] == decision  # public: the opponent sees the same step
    state = load(phase="action", first="P1", p1={"ba1": ["R02"]}, p2={"ba1": ["G01"]})
    assert state.observation(0)["decision"] == {"kind": "aturn", "player": "P1", "passes": 0, "count": 0}
    state.apply("ATTACKER BA1.U1")
    assert state.observation(0)["decision"] == {"kind": "abuild", "player": "P1", "attackers": ["P1:BA1.U1"]}
    assert GAME.load_position(rich()).observation(None)["decision"] == {"kind": "win", "player": "P1", "phase": "cast"}


def test_decision_and_pending_action_match_the_stack_in_random_games():
    """Every decision frame kind has its data names; `decision` is the top frame by name, `pending_action` the
    topmost ACTION item below its reaction window; both JSON-able and the same for every viewer."""
    assert set(DECISION_DATA) == {kind for kind, args in FRAME_ARGS.items() if args.startswith("p")} - {
        "draw1", "upkeep", "hand_limit", "material"}  # fmt: skip
    game, seen, pending = Dreadnought(), set(), 0
    for seed in range(6):
        state, rng = game.new_state(seed, record_events=False), random.Random(seed)
        while state.current_player() is not None:
            views = [state.observation(viewer) for viewer in (0, 1, None)]
            json.dumps(views)
            decision = views[0]["decision"]
            top = views[0]["stack"][-1]
            assert [decision["kind"], decision["player"]] == top[:2]
            assert [decision[name] for name in DECISION_DATA[top[0]]][: len(top) - 2] == [
                {1: "boost", -1: "weaken", 0: "engrave"}[v] if name == "material" else v
                for name, v in zip(DECISION_DATA[top[0]], top[2:], strict=True)
            ]
            actions = [f[1] for f in views[0]["stack"] if f[0] == "resolve" and f[1]["action"]]
            assert views[0]["pending_action"] == (actions[-1] if actions else None)
            assert all(view["decision"] == decision and view["pending_action"] == views[0]["pending_action"]
                       for view in views)  # fmt: skip
            seen.add(decision["kind"])
            pending += views[0]["pending_action"] is not None
            state.apply(rng.choice(state.legal_actions()))
        assert state.observation(0)["decision"] is None and state.observation(0)["pending_action"] is None
    assert {"win", "aturn", "react", "target", "pay_src"} <= seen and pending


def test_pending_action_is_the_paid_action_item():
    state = GAME.load_position(PENDING)
    view = state.observation(1)
    assert view["decision"] == {"kind": "react", "player": "P2", "passes": 0}
    assert view["pending_action"] == PENDING["stack"][3][1]
    assert view["pending_action"]["ref"] == "C:R05" and view["pending_action"]["targets"] == ["P2:BA1.U1"]
    state.apply("PASS")
    state.apply("PASS")  # both passed: R05 resolves (D10.4)
    assert state.observation(0)["pending_action"] is None


def test_open_observation_shows_both_hands_and_hides_the_rest():
    """R-D9 and D1.5 still hold for decks, bursts and HP; only the hands are face up, each as its owner sees it."""
    state = GAME.load_position(rich())
    spectator = state.observation(None)
    opened = state.open_observation()
    for p, seat in enumerate(("P1", "P2")):
        assert spectator["players"][seat]["hand"] == len(state.hand[p])
        assert opened["players"][seat]["hand"] == state.observation(p)["players"][seat]["hand"]
        opened["players"][seat]["hand"] = spectator["players"][seat]["hand"]
    assert opened == spectator
    assert GAME.load_position(rich()).open_observation()["players"]["P1"]["hand"] == ["R01", "R05"]


def test_str_shows_the_position_and_repr_one_line():
    state = GAME.load_position(rich())
    text = str(state)
    assert text.splitlines()[0] == "Dreadnought turn 3, cast phase (first P1, token P2)"
    assert "P1 to decide: cast actions (cast_window)" in text
    lines = (
        "BA1  X01 Ignis Varga · HP 3 · arms R11",
        "BA2  X03 Oren Quill · HP 3",
        "BA1  X04 Mira Tidewell · HP 3",
        "BA2  X06 Fen Larkspur · HP 4",
        "IDOL R09 Hearth of Cinders",
    )
    for line in lines:
        assert line in text, line
    assert "P1 hand: R01 Ashfang Cub, R05 Flame Burst" in text and "P2 hand: B05" in text
    assert "R02 Blaze Warden · BP 110 · +1 boost · -1 weaken" in text
    assert "discard 1 (top Y01" in text and "bursts 2 (2 normal, 0 checked)" in text
    assert state.status() == "turn 3, P1 to act (window cast_window)"
    assert "\n" not in repr(state) and " object at 0x" not in repr(state) + text
    state = GAME.load_position(PENDING)
    assert state.status() == "turn 3, P2 to act (window react)"
    assert "being played: R05 Flame Burst" in str(state)


def test_str_and_repr_of_a_finished_game():
    state = load(make_position(phase="action", first="P1", p1={"ba1": ["R02"]}, p2={"hp": (0, 1)}))
    state.apply("ATTACKER BA1.U1")  # the rest is forced: ATTACK BA2, BLOCK BA2.C, its last HP card (D21.1)
    while state.current_player() is not None:
        state.apply(state.legal_actions()[-1])
    assert state.status() == "turn 3, over: P1 wins (P2's casters have no HP left)"  # WIN_REASONS, not "(hp)"
    assert "game over: P1 wins (P2's casters have no HP left)" in str(state)


# ---- action parts by name -------------------------------------------------------------------------


def test_every_action_text_decodes_and_reads_back_unchanged():
    for game in (GAME, Dreadnought(GAME.config.__class__(decks=("tide_grove", "ember_spark")))):
        texts = [action.text for action in game.actions.space]
        assert texts[: len(NO_ARGUMENT)] == ["DONE", "PASS", "KEEP", "GODDRAW", "UPKEEP PAY", "UPKEEP CHECK"]
        for action in game.actions.space:
            decoded = game.decode[action]
            assert decoded == game.actions.decode(action) == decode(action.text)
            assert str(decoded) == action.text == str(game.parse_action(action.text))


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("DONE", Decoded("DONE")),
        ("UPKEEP PAY", Decoded("UPKEEP PAY")),
        ("PAY BURST", Decoded("PAY", source="BURST")),
        ("TO IDOL", Decoded("TO", area=2)),
        ("ATTACK BA2", Decoded("ATTACK", area=1)),
        ("TARGET P2:BA1.U1", Decoded("TARGET", slot="BA1.U1", seat=1)),
        ("USE BA1.C 0", Decoded("USE", slot="BA1.C", index=0)),
        ("DUMMY G04@S BA2", Decoded("DUMMY", "G04", True, area=1)),
        ("CAST Y04@S", Decoded("CAST", "Y04", True)),
        ("DISCARD R05", Decoded("DISCARD", "R05")),
        ("SCRAP 2", Decoded("SCRAP", index=2)),
        ("PLACE X01", Decoded("PLACE", "X01")),
    ],
)
def test_decoded_parts(text, parts):
    assert decode(text) == parts
    assert str(parts) == text


LEAN_OBJECT_KEYS = ("card", "checked", "dummy", "known", "arms")


def _lean(full: dict) -> dict:
    """The documented lean observation, made from the full one."""

    def field_object(entry: dict | None) -> dict | None:
        return entry and {key: value for key, value in entry.items() if key in LEAN_OBJECT_KEYS}

    lean = {key: value for key, value in full.items() if key not in ("config", "triggers", "stack")}
    lean["players"] = {}
    for seat, player in full["players"].items():
        lean["players"][seat] = dict(player, idol=field_object(player["idol"]))
        for area in ("BA1", "BA2"):
            units = [field_object(unit) for unit in player[area]["units"]]
            lean["players"][seat][area] = dict(player[area], caster=field_object(player[area]["caster"]), units=units)
    return lean


def test_lean_observation_is_the_observation_less_what_rollouts_do_not_read():
    """The heuristic reads `dump_observation(lean=True)` at every rollout step: it must be the full observation
    less exactly the documented fields, so it shows nothing more and everything else the same, for either seat
    and a spectator, at every decision of random games."""
    from cardlab.games.dreadnought.position import dump_observation

    game, objects = Dreadnought(), 0
    for seed in range(4):
        state, rng = game.new_state(seed, record_events=False), random.Random(seed)
        while state.current_player() is not None:
            for viewer in (0, 1, None):
                full = state.observation(viewer)
                assert dump_observation(state, viewer, lean=True) == _lean(full)
                fields = [seat[area] for seat in full["players"].values() for area in ("BA1", "BA2")]
                objects += sum(len(field["units"]) for field in fields)
            state.apply(rng.choice(state.legal_actions()))
    assert objects
