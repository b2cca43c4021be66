"""Dreadnought for people (render.py): the terminal board, event sentences and window hints.

Random games are played through many windows; at each sampled step the board is drawn for both
seats and a spectator. Drawing never fails, every window has a hint, every event kind the engine
logs has a sentence, and no card the viewer may not know (D1.5) shows up in what is printed.
"""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from cardlab.cli import main
from cardlab.core.cardwords import ENGINE_NOTATION
from cardlab.core.game import PLAYER_NAMES
from cardlab.games.dreadnought import Dreadnought, DreadnoughtConfig, render
from cardlab.games.dreadnought.decisions import OPTIONS
from cardlab.games.dreadnought.position import window_name
from cardlab.games.dreadnought.state import DreadnoughtState

ENGINE = Path(render.__file__).resolve().parent
CARD_ID = re.compile(r"\b[A-Z][0-9]{2}\b")
CONFIGS = [
    DreadnoughtConfig(),
    DreadnoughtConfig(("tide_grove", "ember_spark")),
    DreadnoughtConfig(casters=(("X02", "X03"), ("X04", "X07"))),
]
SEEDS = range(8)


def printed(renderable: Any) -> str:
    console = Console(file=io.StringIO(), width=220, color_system=None)
    console.print(renderable)
    output = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(output, str)
    return output


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield key
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)


def hidden_from(position: dict[str, Any], viewer: str | None) -> set[str]:
    """Card ids in places `viewer` may not see (D1.5), from the true position."""
    hidden: set[str] = set()
    for seat, player in position["players"].items():
        hidden |= set(player["deck"])
        hidden |= {burst["card"] for burst in player["bursts"]}
        objects = [u for area in ("BA1", "BA2") for u in player[area]["units"]]
        objects += [player["idol"]] if player["idol"] else []
        for area in ("BA1", "BA2"):
            hidden |= set(player[area]["hp"])
        for obj in objects:
            hidden |= {e["card"] for e in obj.get("enchants", []) if e.get("secret")}
        if seat == viewer:
            continue
        known = list(player["known_hand"])
        for card in player["hand"]:
            if card in known:
                known.remove(card)
            else:
                hidden.add(card)
        hidden |= set(player["gear"]) | set(player["mulligan"])
        hidden |= {obj["card"] for obj in objects if obj.get("dummy") and not obj.get("known")}
        if player["BA1"]["caster"] is None:  # casters not yet opened (D4.1)
            hidden |= set(player["placement"])
    return hidden


@cache
def sampled_games() -> list[tuple[DreadnoughtState, list[dict[str, Any]]]]:
    """Finished random games, each with boards drawn along the way: at the first visit of every window
    kind in a game, at some window changes, and at the end; for both seats and a spectator."""
    games = []
    for index, config in enumerate(CONFIGS):
        game = Dreadnought(config)
        for seed in SEEDS:
            state = game.new_state(seed + 100 * index)
            rng = random.Random(seed)
            samples = []
            last_window = ""
            windows: set[str] = set()
            while True:
                window = window_name(state)
                if window not in windows or (window != last_window and rng.random() < 0.1) or window == "over":
                    windows.add(window)
                    samples.append(_drawn(state))
                if state.current_player() is None:
                    break
                last_window = window
                state.apply(rng.choice(state.legal_actions()))
            games.append((state, samples))
    return games


def _drawn(state: DreadnoughtState) -> dict[str, Any]:
    sample: dict[str, Any] = {"position": state.position(), "views": {}, "texts": {}}
    for viewer in (0, 1, None):
        seat = None if viewer is None else PLAYER_NAMES[viewer]
        view = state.observation(viewer)
        sample["views"][seat] = view
        sample["texts"][seat] = printed(render.render_board(view))
    return sample


def test_every_decision_window_has_a_hint() -> None:
    windows = {f"{phase}_window" for phase in ("speed", "cast", "fast")}
    windows |= {kind for kind in OPTIONS if kind != "win"}
    assert windows | {"over"} <= set(render.WINDOW_HINTS)
    assert set(render.WINDOW_NAMES) == set(render.WINDOW_HINTS)
    assert all(hint.strip() for hint in render.WINDOW_HINTS.values())


def test_boards_draw_at_many_windows_without_hidden_cards() -> None:
    seen_windows: set[str] = set()
    own_found = 0
    drawn = 0
    for _, samples in sampled_games():
        for sample in samples:
            for seat, view in sample["views"].items():
                text = sample["texts"][seat]
                seen_windows.add(view["window"])
                assert view["window"] in render.WINDOW_HINTS
                drawn += 1
                visible = set(_strings(json.loads(json.dumps(view))))
                secret = hidden_from(sample["position"], seat) - visible
                shown = set(CARD_ID.findall(text))
                assert not shown & secret, (view["window"], seat, sorted(shown & secret))
                if seat is not None:
                    hand = view["players"][seat]["hand"]
                    own_found += bool(hand) and hand[0] in shown  # the search does find cards that are there
                    assert f"you are {seat}" in text
                else:
                    assert "spectator" in text
    assert drawn > 600
    assert own_found > drawn // 6
    expected = {"place", "mull", "speed_window", "cast_window", "fast_window", "dest", "target", "pay_src", "aturn",
                "abuild", "block", "react", "pick", "over"}  # fmt: skip
    assert expected <= seen_windows, expected - seen_windows


def test_board_shows_both_sides_and_the_attack() -> None:
    found_attack = False
    for _, samples in sampled_games():
        for sample in samples:
            view, text = sample["views"]["P1"], sample["texts"]["P1"]
            for label in ("P1 BA1", "P1 BA2", "P1 IDOL", "P2 BA1", "P2 BA2", "your hand:", "P2 hand:", "bursts "):
                assert label in text, label
            if view["attack"] and view["attack"]["blocker"]:
                assert "Attack by" in text and "blocker P" in text
                found_attack = True
    assert found_attack


def test_opponent_hand_is_a_count_and_dummies_stay_closed() -> None:
    dummies = 0
    for _, samples in sampled_games():
        for sample in samples:
            view, text = sample["views"]["P1"], sample["texts"]["P1"]
            assert isinstance(view["players"]["P2"]["hand"], int)
            assert f"P2 hand: {view['players']['P2']['hand']} card" in text
            for area in ("BA1", "BA2"):
                for unit in view["players"]["P2"][area]["units"]:
                    if unit["dummy"]:
                        dummies += 1
                        assert unit["card"] is None or unit["known"]  # R-D11: taken from the open speed area
                        assert "dummy" in text
    assert dummies > 0


def logged_kinds() -> set[str]:
    """Every event kind written in the engine's `_log(...)` calls."""
    kinds: set[str] = set()
    for name in ("state.py", "frames.py", "decisions.py"):
        source = (ENGINE / name).read_text(encoding="utf-8")
        for call in re.finditer(r"_log\(\s*([^,]+),", source):
            kinds |= set(re.findall(r'"([a-z_]+)"', call.group(1)))
    return kinds


def test_every_logged_event_kind_has_a_sentence() -> None:
    kinds = logged_kinds()
    assert {"draw", "attack", "block", "boost", "weaken", "sub", "play", "game_over"} <= kinds
    assert kinds <= render.EVENT_KINDS, kinds - render.EVENT_KINDS


def test_event_texts_of_random_games() -> None:
    seen: set[str] = set()
    for state, _ in sampled_games():
        assert state.events is not None
        for event in state.events:
            for viewer in (0, 1, None):
                view = event.view(viewer)
                text = render.event_text(view)
                assert text and not text.startswith(f"{event.kind}:"), (event.kind, view, text)
                if event.secret is not None and viewer != event.secret_to:
                    for value in event.secret.values():
                        assert str(value) not in CARD_ID.findall(text), (view, text)
            seen.add(event.kind)
    common = {"casters", "mulligan", "turn", "speed_reveal", "first", "draw", "cast", "dummy", "play", "use",
              "effect", "attack", "block", "attack_damage", "pass", "end_of_turn", "game_over", "god_draw", "break",
              "hp_loss"}  # fmt: skip
    assert common <= seen, common - seen


def test_event_text_without_the_secret_and_with_unknown_kinds() -> None:
    assert render.event_text({"kind": "draw", "player": "P2"}) == "P2 draws a card."
    assert render.event_text({"kind": "draw", "player": "P1", "card": "R05"}) == "P1 draws R05."
    assert render.event_text({"kind": "dummy", "player": "P2", "to": "BA1"}) == "P2 casts a dummy into BA1."
    assert render.event_text({"kind": "gear_change", "player": "P2"}) == "P2 gear-changes a card."
    assert render.event_text({"kind": "game_over", "winner": None, "reason": "turn_limit"}) == (
        "Game over: draw (the turn limit was reached)."
    )
    assert render.event_text({"kind": "brand_new", "player": "P1", "x": 1}) == "brand_new: player=P1, x=1"
    assert render.event_text({"kind": "cast", "player": "P1"}).startswith("cast:")  # a malformed event still reads


def test_names_come_from_the_card_set() -> None:
    state = Dreadnought().new_state(1)
    while state.observation(0)["window"] != "speed_window":
        state.apply(state.legal_actions()[0])
    text = printed(render.render_board(state.observation(0)))
    assert "Ignis Varga" in text and "Mira Tidewell" in text


def test_terminal_plays_dreadnought_to_the_end(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    answers = "".join(f"{number}\n" for number in range(1, 30)) * 300  # a played number is not given again (#51)
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    assert main(["play", "dreadnought", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "you are P1" in out and "P1 BA1" in out and "P2 IDOL" in out
    assert "Choose the caster that starts in battle area BA1" in out  # the placement hint
    assert "Game over:" in out and ("You win" in out or "You lose" in out or "Draw" in out)
    assert "P2 draws a card." in out
    assert not re.search(r"· P2 draws [A-Z][0-9]{2}", out)


def test_effects_are_logged_in_player_words() -> None:
    """Issue #16 item 1 (D22.2): an effect event reads as words, not `burst(n=1)`."""
    import random

    from cardlab.games.dreadnought import Dreadnought
    from cardlab.games.dreadnought.render import effect_text, event_text

    assert effect_text("burst(n=1)") == "put the top card of your deck into your burst area"
    assert effect_text("bp_mod(target=own_unit, amount=20)") == "one of your units gets +20 BP this turn"
    assert (
        effect_text("damage(target=enemy_unit[size=S,bp<=50], amount=50)")
        == "deal 50 damage to an enemy unit of size S with BP 50 or less"
    )
    seen = 0
    for seed in range(12):
        state, rng = Dreadnought().new_state(seed), random.Random(seed)
        while state.current_player() is not None:
            state.apply(rng.choice(state.legal_actions()))
        assert state.events is not None
        for event in state.events.for_player(None):
            if event["kind"] == "effect":
                text = event_text(event)
                assert not ENGINE_NOTATION.search(text), text  # no `name(key=...)`, `[zone=...]`, snake_case
                seen += 1
    assert seen > 0


def test_options_group_by_card_under_its_facts_and_show_nothing_hidden() -> None:
    """#16: the options of a decision are grouped by the card they use (headed by its printed facts), then
    by the board object acting; every option appears once, and no heading names a card the chooser
    may not see (D1.5)."""
    grouped_windows: set[str] = set()
    for index, config in enumerate(CONFIGS):
        game = Dreadnought(config)
        for seed in range(4):
            state = game.new_state(seed + 100 * index, record_events=False)
            rng = random.Random(seed)
            while (player := state.current_player()) is not None:
                view = state.observation(player)
                texts = [str(action) for action in state.legal_actions()]
                groups = render.option_groups(view, texts)
                assert sorted(i for _, indices in groups for i in indices) == list(range(len(texts)))
                secret = hidden_from(state.position(), PLAYER_NAMES[player]) - set(_strings(view))
                for heading, indices in groups:
                    assert not set(CARD_ID.findall(heading)) & secret, heading
                    if heading and heading[:3] in {text.split()[1][:3] for text in texts if len(text.split()) > 1}:
                        assert all(heading[:3] in texts[i] for i in indices)  # a card's options name that card
                        grouped_windows.add(view["window"])
                state.apply(rng.choice(state.legal_actions()))
    assert {"cast_window", "speed_window", "mull"} <= grouped_windows


def test_card_facts_name_type_speed_cost_bp_and_effects_in_words() -> None:
    facts = render.card_facts(Dreadnought().card_set.by_id["R09"])
    words = ("Deal 30 damage to an enemy unit", "Each of your units in a battle area has +10 BP")
    for part in ("R09 Hearth of Cinders", "idol", "speed B", "cost 1", "BP 60", "upkeep 1", *words):
        assert part in facts
    assert not ENGINE_NOTATION.search(facts)  # effects in player words


def test_the_terminal_lists_a_cast_window_by_card(monkeypatch, capsys) -> None:
    """#16 item 1, #35 item 4: each card's options come on one line after its name and key numbers, cast
    before dummy, numbered in the order shown (no `2, 3, 4, 5, then 1`)."""
    answers = "2\n2\n" + "".join(f"{n}\n" for n in range(1, 12)) * 2  # a played number is not given again (#51)
    monkeypatch.setattr("sys.stdin", io.StringIO(answers + "q\ny\n"))
    assert main(["play", "dreadnought", "--seed", "5"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    found = re.search(
        r"R09 Hearth of Cinders \(idol · speed B · cost 1 · S · BP 60\):? (\d+) cast (\d+) dummy into BA1 (\d+) dummy",
        out,
    )
    assert found, out[-3000:]
    assert [int(n) for n in found.groups()] == list(range(int(found[1]), int(found[1]) + 3))
    assert "your BA1 caster: X03 Oren Quill (HP 3)" in out
