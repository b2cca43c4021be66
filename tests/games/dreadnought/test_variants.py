"""Dreadnought's rule options and card edits (issue #17): `variants.RULE_OPTIONS`, config `rules` and `patches`.

Each option has a test named after the rule id it changes that plays one position under the spec's ruling
and under the option's alternative; the rules travel in the position's config. Expectations were worked
out from shared/rules/dreadnought.md and the option's description.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from typing import Any

import pytest

from cardlab.cli import main
from cardlab.core.errors import PositionError
from cardlab.core.rules import RuleOption
from cardlab.games.dreadnought import Dreadnought
from cardlab.games.dreadnought.game import DreadnoughtConfig
from cardlab.games.dreadnought.heuristic import choose
from cardlab.games.dreadnought.render import board_text
from cardlab.games.dreadnought.variants import RULE_OPTIONS

from .dreadnought_positions import FILLER, GAME, apply_all, legal, make_position, player, rest_of_turn, window_stack

CK = (True, True)
"""Both casters checked: their abilities and their log are out of the way."""
EVERY_ALTERNATIVE = {"draw_counts": "2_2", "draw_bursts": "2", "library_out": "every_use",
                     "god_draw_windows": "every_window", "token_to": "first", "mulligan_to": "deck",
                     "tie_reveals": "no_limit", "trigger_order": "second", "reaction_first": "actor",
                     "reactions": "stack", "blocker": "rechosen", "bp_filter": "printed"}  # fmt: skip


def ruled(rules: dict[str, str] | None = None, patches: list[str] | None = None, **kwargs: Any) -> dict[str, Any]:
    """`make_position(**kwargs)` whose config carries `rules` and `patches`."""
    position = make_position(**kwargs)
    if rules:
        position["config"]["rules"] = dict(rules)
    if patches:
        position["config"]["patches"] = list(patches)
    return position


def load(rules: dict[str, str] | None = None, patches: list[str] | None = None, **kwargs: Any):
    return GAME.load_position(ruled(rules, patches, **kwargs))


def turn_start() -> dict[str, Any]:
    """A position at the very start of turn 3 (the stack holds only the turn frame)."""
    return {"phase": "end", "turn": 2, "first": None, "stack": [["turn"]]}


def last_pass(player_name: str = "P2", count: int = 9) -> list[list[Any]]:
    """The stack at the action turn whose pass ends the action phase."""
    return [*rest_of_turn("action"), ["aturn", player_name, 1, count]]


def hp(state, name: str, area: str) -> int:
    return len(player(state, name)[area]["hp"])


# ---- the declared options ---------------------------------------------------------------------


def test_options_are_declared_with_rule_ids_defaults_and_values() -> None:
    assert Dreadnought.rule_options is RULE_OPTIONS
    assert Dreadnought.card_patches
    names = [option.name for option in RULE_OPTIONS]
    assert len(set(names)) == len(names) >= 3
    for option in RULE_OPTIONS:
        assert isinstance(option, RuleOption)
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", option.name), option.name
        assert re.fullmatch(r"D\d+\.\d+", option.rule), option.rule
        assert option.default in option.values and len(option.values) >= 2
        assert len(set(option.values)) == len(option.values)
        assert all("+" not in value for value in option.values)  # `+` joins variant labels
        assert option.description.strip()
    assert {option.rule for option in RULE_OPTIONS} >= {"D7.1", "D20.2", "D17.2"}
    assert set(EVERY_ALTERNATIVE) == set(names)


def test_a_default_config_json_is_unchanged() -> None:
    """Without rules or patches the config JSON has no `rules`/`patches` keys (stored games stay comparable);
    a rule set to its default is dropped."""
    assert set(GAME.config_json()) == {"decks", "casters", "cards"}
    defaults = {option.name: option.default for option in RULE_OPTIONS}
    config = DreadnoughtConfig.from_json({**GAME.config_json(), "rules": defaults, "patches": []})
    assert config == DreadnoughtConfig() and config.to_json() == GAME.config_json()
    varied = Dreadnought(DreadnoughtConfig(rules=(("token_to", "first"),), patches=("R05.cost=2",)))
    assert varied.config_json()["rules"] == {"token_to": "first"}
    assert varied.config_json()["patches"] == ["R05.cost=2"]


def test_cli_lists_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "dreadnought", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert listed == [option.to_json() for option in RULE_OPTIONS]


# ---- D7.1 draw_counts -------------------------------------------------------------------------


def _draw_turn(rules: dict[str, str] | None = None):
    """Turn 3 begins: P1 reveals R02 (B), P2 reveals G01 (A), so P2 is F; then the draw phase (D7)."""
    return load(rules, token="P1", p1={"deck": [FILLER] * 2 + ["R05", "R04", "R03", "R02"], "checked": CK},
                p2={"deck": [FILLER] * 2 + ["B03", "B02", "B01", "G01"], "checked": CK}, **turn_start())  # fmt: skip


def test_d7_1_draw_counts() -> None:
    """D7.1 ruling: F (P2) draws 1, S (P1) 2. draw_counts=1_1: S draws 1 too, so its burst (D7.2) is the next
    card; 2_2: F draws 2 as well; 0_1: F draws none and S one."""
    default = _draw_turn()
    assert Counter(player(default, "P2")["hand"]) == Counter(["B01"])
    assert Counter(player(default, "P1")["hand"]) == Counter(["R03", "R04"])
    assert player(default, "P1")["bursts"] == [{"card": "R05", "checked": False}]
    one_each = _draw_turn({"draw_counts": "1_1"})
    assert player(one_each, "P2")["hand"] == ["B01"] and player(one_each, "P1")["hand"] == ["R03"]
    assert player(one_each, "P1")["bursts"] == [{"card": "R04", "checked": False}]
    two_each = _draw_turn({"draw_counts": "2_2"})
    assert Counter(player(two_each, "P2")["hand"]) == Counter(["B01", "B02"])
    assert player(two_each, "P2")["bursts"] == [{"card": "B03", "checked": False}]
    slow = _draw_turn({"draw_counts": "0_1"})
    assert player(slow, "P2")["hand"] == [] and player(slow, "P1")["hand"] == ["R03"]
    assert slow.position()["stack"][-1] == ["win", "P2", "cast"]


# ---- D7.2 draw_bursts -------------------------------------------------------------------------


def test_d7_2_draw_bursts() -> None:
    """D7.2 ruling: one burst each from the deck after the draws. draw_bursts=2: two each (F's first); 0: none."""
    default = _draw_turn()
    assert [b["card"] for b in player(default, "P2")["bursts"]] == ["B02"]
    two = _draw_turn({"draw_bursts": "2"})
    assert [b["card"] for b in player(two, "P2")["bursts"]] == ["B02", "B03"]
    assert [b["card"] for b in player(two, "P1")["bursts"]] == ["R05", FILLER]
    assert Counter(player(two, "P1")["hand"]) == Counter(["R03", "R04"])  # the draws are as specified
    none = _draw_turn({"draw_bursts": "0"})
    assert player(none, "P1")["bursts"] == [] and player(none, "P2")["bursts"] == []
    assert player(none, "P1")["deck"] == [FILLER, FILLER, "R05"]


# ---- D20.2 library_out ------------------------------------------------------------------------


def _library_out_turn(rules: dict[str, str] | None = None):
    """Turn 3 begins with P1's deck empty; P1's HP stacks are [N01, Y04] (Y04 on top) and [N01, N01]."""
    return load(rules, token="P1", p1={"deck": [], "hp": ([FILLER, "Y04"], [FILLER, FILLER]), "checked": CK},
                p2={"deck": [FILLER] * 6, "checked": CK}, **turn_start())  # fmt: skip


def test_d20_2_library_out_default_only_draws_take_hp() -> None:
    """D20.2 ruling: P1 reveals nothing (D6.1), so P2 is F; only P1's draws (as S: two, D7.1) take HP cards."""
    state = _library_out_turn()
    assert state.position()["first"] == "P2" and player(state, "P1")["speed"] == []
    assert state.position()["stack"][-1] == ["hpdraw", "P1"]
    apply_all(state, "HPDRAW BA1", "HPDRAW BA2")
    assert Counter(player(state, "P1")["hand"]) == Counter(["Y04", FILLER])
    assert player(state, "P1")["bursts"] == []  # D7.2: no burst from the empty deck
    assert (hp(state, "P1", "BA1"), hp(state, "P1", "BA2")) == (1, 1)


def test_d20_2_library_out_every_use() -> None:
    """library_out=every_use: the speed reveal takes an HP card too (P1 picks BA1's, Y04: A+++, so P1 becomes F,
    and its on_speed_reveal burst needs another); then F's one draw (D20.1) and the draw-phase burst (D7.2)
    each take one more: P1 loses all four HP cards, and the game, in this turn's draw phase."""
    state = _library_out_turn({"library_out": "every_use"})
    assert state.position()["stack"][-1] == ["hpdeck", "P1"]
    assert legal(state) == ["HPDRAW BA1", "HPDRAW BA2"]
    state.apply("HPDRAW BA1")  # Y04 stands in for the deck card and is revealed
    assert player(state, "P1")["speed"] == ["Y04"]
    assert state.position()["stack"][-1] == ["hpdeck", "P1"]  # Y04's burst(n=1) finds the deck empty again
    state.apply("HPDRAW BA2")
    assert player(state, "P1")["bursts"] == [{"card": FILLER, "checked": False}]
    assert state.position()["first"] == "P1"  # A+++ beats B
    assert state.position()["stack"][-1] == ["hpdraw", "P1"]  # F's single draw: D20.1 as usual
    state.apply("HPDRAW BA2")  # the draw-phase burst then takes BA1's last HP card (no choice left)
    p1 = player(state, "P1")
    assert p1["hand"] == [FILLER] and len(p1["bursts"]) == 2 and p1["deck"] == []
    assert (hp(state, "P1", "BA1"), hp(state, "P1", "BA2")) == (0, 0)
    position = state.position()  # D21.1 at the draw phase's rule check
    assert (position["phase"], position["winner"], position["reason"]) == ("over", "P2", "hp")


def test_d20_2_every_use_speed_tie_reveals_hp_cards() -> None:
    """D6.6: a player who cannot reveal leaves the tie to the token. every_use: P1 (deck empty) reveals an HP card
    (N01, B) against P2's N01 (B), a tie, and may re-reveal too: the next HP card is P1's to pick again."""
    kwargs: dict[str, Any] = {"token": "P2", "p1": {"deck": [], "checked": CK},
                              "p2": {"deck": [FILLER] * 6, "checked": CK}, **turn_start()}  # fmt: skip
    default = load(None, **kwargs)
    assert default.position()["first"] == "P2" and player(default, "P1")["speed"] == []
    state = load({"library_out": "every_use"}, **kwargs)
    state.apply("HPDRAW BA1")
    assert player(state, "P1")["speed"] == [FILLER] and state.position()["first"] is None
    assert state.position()["stack"][-2:] == [["compare", 0], ["hpdeck", "P1"]]
    assert GAME.load_position(state.position()).position() == state.position()
    state.apply("HPDRAW BA2")
    assert player(state, "P1")["speed"] == [FILLER] * 2 and player(state, "P2")["speed"] == [FILLER] * 2
    assert (hp(state, "P1", "BA1"), hp(state, "P1", "BA2")) == (2, 2)


def test_d20_2_every_use_hp_gain_moves_an_hp_card() -> None:
    """D20.2 ruling: Lifebloom's hp_gain with an empty deck does nothing. every_use: an HP card stands in for the
    deck card, so P2 moves one HP card from Mira (BA1) to Fen (BA2)."""

    def lifebloom(rules: dict[str, str] | None):
        state = load(rules, phase="cast", to_move="P2", p2={"hand": ["G09", "G04"], "deck": [], "bursts": 3,
                                                             "checked": CK})  # fmt: skip
        apply_all(state, "PLAY G09", "TARGET P2:BA2.C")
        return state

    default = lifebloom(None)
    assert (hp(default, "P2", "BA1"), hp(default, "P2", "BA2")) == (3, 4)
    varied = lifebloom({"library_out": "every_use"})
    assert varied.position()["stack"][-1] == ["hpdeck", "P2"]
    varied.apply("HPDRAW BA1")
    assert (hp(varied, "P2", "BA1"), hp(varied, "P2", "BA2")) == (2, 5)


def test_d20_2_every_use_material_from_an_hp_card() -> None:
    """D14.2: with discard and deck empty an enchant is not placed. every_use: the only caster with HP (Ignis
    Varga) gives an HP card, unseen, as each boost's material (Kindle Spirit places two)."""

    def kindle(rules: dict[str, str] | None):
        state = load(rules, phase="cast", p1={"hand": ["R08"], "deck": [], "bursts": 1, "ba1": ["R02"],
                                              "hp": (3, 0), "checked": CK})  # fmt: skip
        state.apply("PLAY R08")  # the only target (R02) and the only log source (the burst) follow by themselves
        return state

    default = kindle(None)
    assert player(default, "P1")["BA1"]["units"][0]["enchants"] == []
    varied = kindle({"library_out": "every_use"})
    enchants = player(varied, "P1")["BA1"]["units"][0]["enchants"]
    assert [(e["kind"], e["secret"]) for e in enchants] == [("boost", True), ("boost", True)]
    assert (hp(varied, "P1", "BA1"), hp(default, "P1", "BA1")) == (1, 3) and varied.outcome() is None


# ---- D17.2 god_draw_windows -------------------------------------------------------------------


def test_d17_2_god_draw_windows() -> None:
    """D17.2: no god draw during speed or fast actions. god_draw_windows=every_window: both offer GODDRAW, and a
    god-drawn card may be gear-changed at once (D6.3)."""
    speed = {"phase": "speed", "first": None, "token": "P2", "stack": window_stack("speed", "P1", "P1"),
             "p1": {"hand": ["R02"], "speed": ["Y02"], "bursts": ["G01"]}, "p2": {"speed": [FILLER]}}  # fmt: skip
    assert "GODDRAW" not in legal(load(None, **speed))
    state = load({"god_draw_windows": "every_window"}, **speed)
    assert legal(state) == ["DONE", "GEAR R02", "GODDRAW", "USE BA2.C 0"]
    state.apply("GODDRAW")
    assert legal(state) == ["DONE", "GEAR G01", "GEAR R02", "USE BA2.C 0"]
    fast = {"phase": "fast", "p1": {"bursts": 1, "checked": CK}}
    default = load(None, **fast)  # nothing to do in either fast window: on to P1's action turn
    assert default.position()["stack"][-1] == ["aturn", "P1", 0, 0]
    varied = load({"god_draw_windows": "every_window"}, **fast)
    assert varied.position()["stack"][-1] == ["win", "P1", "fast"]
    assert legal(varied) == ["DONE", "GODDRAW"]


# ---- D6.7 token_to ----------------------------------------------------------------------------


def test_d6_7_token_to() -> None:
    """D6.7 ruling: the token goes to this turn's S (P2). token_to=first: it goes to F (P1), so in the next turn's
    speed tie (both reveal N01) P1 holds the first speed window (P2's, with nothing to do, comes after it).
    P2's pass, its only action, ends the action phase and the turn by itself."""
    default = load(None, phase="action", stack=last_pass())
    varied = load({"token_to": "first"}, phase="action", stack=last_pass())
    for state in (default, varied):
        assert state.position()["turn"] == 4 and state.position()["phase"] == "speed"
    assert default.position()["token"] == "P2" and varied.position()["token"] == "P1"
    assert default.position()["stack"][-2:] == [["decide"], ["win", "P1", "speed"]]  # P2's window went by itself
    assert varied.position()["stack"][-3:] == [["decide"], ["win", "P2", "speed"], ["win", "P1", "speed"]]


# ---- positions carry their rules --------------------------------------------------------------


def test_positions_round_trip_with_rules_and_patches() -> None:
    rules = dict(EVERY_ALTERNATIVE)
    state = _library_out_turn(rules)
    position = state.position()
    assert position["config"]["rules"] == rules
    assert position["stack"][-2:] == [["reveals"], ["hpdeck", "P1"]]
    again = GAME.load_position(json.loads(json.dumps(position)))
    assert again.position() == position and again.game.hp_for_every_use
    patched = load(None, ["R05.cost=2"], phase="cast")
    assert patched.position()["config"]["patches"] == ["R05.cost=2"]
    assert GAME.load_position(patched.position()).game.card_set["R05"].cost == 2


def test_variant_steps_are_refused_without_their_rule() -> None:
    position = _library_out_turn({"library_out": "every_use"}).position()
    del position["config"]["rules"]
    with pytest.raises(PositionError, match=r"stack\[\d+\]: a reveals step exists only under the rule library_out"):
        GAME.load_position(position)


def test_random_and_heuristic_games_under_every_alternative() -> None:
    """Every option at once: random play reaches the new HP-for-deck choice, the heuristic answers legally at every
    decision, and positions round-trip there."""
    game = Dreadnought(DreadnoughtConfig(rules=tuple(EVERY_ALTERNATIVE.items())))
    windows: Counter[str] = Counter()
    for seed in range(8):
        state, rng = game.new_state(seed, record_events=False), random.Random(seed)
        while state.current_player() is not None:
            kind = state.stack[-1][0]
            windows[kind] += 1
            assert choose(state, rng) in state.legal_actions()
            if kind == "hpdeck":
                assert game.load_position(state.position()).position() == state.position()
            state.apply(rng.choice(state.legal_actions()))
        assert state.outcome() is not None
    assert windows["hpdeck"] and windows["win"]


# ---- bad rules and bad patches ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"draw_count": "1_1"}, "config.rules.draw_count: unknown rule option; this game's options: draw_counts, "),
        ({"draw_counts": "3_3"}, "config.rules.draw_counts: '3_3' is not one of ['1_2', '1_1', '2_2', '0_1']"),
        ({"token_to": 1}, "config.rules.token_to: 1 is not one of ['second', 'first']"),
        ("fast", "config.rules: expected an object of rule name -> value"),
    ],
)
def test_a_bad_rule_names_the_field(rules: Any, message: str) -> None:
    with pytest.raises(PositionError) as error:
        Dreadnought.from_config({**GAME.config_json(), "rules": rules})
    assert str(error.value).startswith(message)
    position = make_position()
    position["config"]["rules"] = rules
    with pytest.raises(PositionError) as loaded:
        GAME.load_position(position)
    assert str(loaded.value).startswith(message)


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        ("Z99.cost=1", "config.patches: Z99.cost: unknown card id 'Z99'"),
        ("R05.bp=100", "config.patches: R05.bp: unknown field; valid fields: id, name, type"),
        ("R05.cost=-1", "config.patches: R05.cost: expected an integer >= 0, got -1"),
        ("R05.cost=two", "config.patches: R05.cost: expected an integer >= 0, got 'two'"),
        ("R02.size=XL", "config.patches: R02.size: expected one of 'S', 'M', 'L', got 'XL'"),
        ("R05.id=R99", "config.patches: R05.id: a patch edits a card's data, not its id or type"),
        ("R05.effects[0].amonut=90", "config.patches: R05.effects[0].amonut: damage takes target, amount"),
        ("R05.effects[1].amount=90", "config.patches: R05.effects[1].amount: the card has 1 effects"),
        ("R05.cost", "config.patches[0]: expected CARD.FIELD=VALUE (e.g. S14.cost=3), got 'R05.cost'"),
    ],
)
def test_a_bad_patch_names_the_card_and_field(patch: str, message: str) -> None:
    with pytest.raises(PositionError) as error:
        Dreadnought.from_config({**GAME.config_json(), "patches": [patch]})
    assert str(error.value).startswith(message)
    with pytest.raises(PositionError) as loaded:
        GAME.load_position(ruled(None, [patch]))
    assert str(loaded.value).startswith(message)


def test_cli_refuses_a_bad_rule_or_patch_without_a_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "dreadnought", "--patch", "R05.cost=-1", "--games", "2"]) == 2
    assert main(["simulate", "dreadnought", "--rule", "draw_counts=9_9", "--games", "2"]) == 2
    out = capsys.readouterr()
    text = out.out + out.err
    assert "config.patches: R05.cost: expected an integer >= 0, got -1" in text
    assert "draw_counts: '9_9' is not one of" in text and "Traceback" not in text


# ---- patches change play ----------------------------------------------------------------------


def test_a_cost_patch_changes_what_is_payable() -> None:
    """D12.4: with one burst (casters checked) Flame Burst (cost 1) is playable; patched to cost 2 it is not."""
    kwargs: dict[str, Any] = {"phase": "action", "p1": {"hand": ["R05"], "bursts": 1, "checked": CK},
                              "p2": {"ba1": ["G01"]}}  # fmt: skip
    assert "PLAY R05" in legal(load(None, **kwargs))
    assert "PLAY R05" not in legal(load(None, ["R05.cost=2"], **kwargs))


def test_an_effect_patch_changes_the_damage() -> None:
    """D13.2: Flame Burst's 80 damage breaks Moss Sprite (BP 70); patched to 60 it does not."""

    def flame_burst(patches: list[str] | None):
        state = load(None, patches, phase="action", p1={"hand": ["R05"], "bursts": 1, "checked": CK},
                     p2={"ba1": ["G01"], "checked": CK})  # fmt: skip
        apply_all(state, "PLAY R05")  # target and payment follow by themselves; then P2's reaction right
        while state.position()["stack"][-1][0] == "react":
            state.apply("PASS")
        return state

    assert player(flame_burst(None), "P2")["BA1"]["units"] == []
    assert [u["card"] for u in player(flame_burst(["R05.effects[0].amount=60"]), "P2")["BA1"]["units"]] == ["G01"]


def test_a_caster_patch_changes_the_set_up_and_the_card_text() -> None:
    """D4.3: Fen Larkspur (X06) patched to hp 5 gets five HP cards at set-up; the card text and the board say so."""
    game = Dreadnought(DreadnoughtConfig(patches=("X06.hp=5", "R05.cost=2")))
    state = game.new_state(1)
    apply_all(state, "PLACE X01", "PLACE X06")
    p2 = state.position()["players"]["P2"]
    assert len(p2["BA1"]["hp"]) == 5 and p2["BA1"]["caster"]["card"] == "X06"
    assert "HP 5" in (game.card_text("X06") or "") and "cost 2" in (game.card_text("R05") or "")
    assert Dreadnought().card_text("R05") is not None and "cost 1" in (Dreadnought().card_text("R05") or "")
    assert board_text(state.observation(None))
