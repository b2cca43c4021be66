"""Dreadnought as a player sees it (issue #35 items 3, 4, 6): effects name the unit and what became of it,
a caster at 0 HP is marked down, changed BP is marked against the printed BP, and the cast window's board
and grouped options fit one 80-column, 24-line screen."""

from __future__ import annotations

import copy
import io
import json
import random
import re
from functools import cache
from typing import Any

from rich.console import Console

from cardlab.agents import make_agent
from cardlab.cli import main
from cardlab.games.dreadnought import Dreadnought, render
from cardlab.games.dreadnought.position import window_name


def printed(renderable: Any, width: int = 80) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


@cache
def games() -> list[list[dict[str, Any]]]:
    """The public event views of finished random games."""
    logs = []
    for seed in range(16):
        state, rng = Dreadnought().new_state(seed), random.Random(seed)
        while state.current_player() is not None:
            state.apply(rng.choice(state.legal_actions()))
        assert state.events is not None
        logs.append(state.events.for_player(None))
    return logs


def test_damage_effects_name_each_unit_and_its_fate() -> None:
    """D13.2, D13.3: '80 damage to P2's R02 Blaze Warden (BA1 unit 1), shield absorbs 40: ... survives'."""
    seen = 0
    for log in games():
        for index, event in enumerate(log):
            if event["kind"] != "effect" or not event["effect"].startswith("damage(") or not event["hits"]:
                continue
            text = render.event_text(event)
            for hit in event["hits"]:
                assert render.unit_words(hit["target"]) in text
                assert ("broken" in text) if hit["gone"] else ("survives" in text), text
                assert ("shield absorbs" in text) == bool(hit["shield"]), text
                if hit["gone"]:  # the break was logged just before
                    assert any(e["kind"] == "break" and e["unit"] == hit["target"] for e in log[:index])
            seen += 1
    assert seen > 5


def test_attack_damage_names_the_blocker_and_hp_loss_says_a_to_b_and_down() -> None:
    """D10.7, D13.4, D13.5."""
    units = casters = down = 0
    for log in games():
        for event in log:
            text = render.event_text(event)
            if event["kind"] == "attack_damage":
                assert render.unit_words(event["blocker"]) in text
                if event["bp"] is not None:
                    broken = event["damage"] >= event["bp"]
                    assert ("broken" in text) is broken and ("survives" in text) is not broken, text
                    units += 1
                else:
                    casters += 1
            if event["kind"] == "hp_loss":
                before, after = event["hp"] + event["amount"], event["hp"]
                assert f"HP {before} → {after}" in text
                assert ("DOWN: it can no longer block (D13.5)" in text) is (after == 0)
                down += after == 0
    assert units and casters and down


def _view_at_cast_window(seed: int = 3) -> tuple[Dreadnought, list[str], dict[str, Any]]:
    """Heuristic play to P1's first cast window with many options: the actions and P1's view."""
    game, agent, rng = Dreadnought(), make_agent("heuristic"), random.Random(seed)
    state = game.new_state(seed)
    actions: list[str] = []
    while not (state.current_player() == 0 and window_name(state) == "cast_window" and len(state.legal_actions()) > 15):
        player = state.current_player()
        assert player is not None
        move = str(agent.act(state.infoset(player), rng))
        state.apply(move)
        actions.append(move)
    return game, actions, state.observation(0)


def test_a_caster_at_zero_hp_is_marked_down_and_changed_bp_against_the_printed() -> None:
    """D13.5: 'HP 0 · DOWN'; D13.1: a unit's BP with its change from the printed BP."""
    _, _, view = _view_at_cast_window()
    view = copy.deepcopy(view)
    view["players"]["P2"]["BA1"]["hp"] = 0
    view["players"]["P2"]["BA1"]["units"] = [{"card": "R02", "bp": 140, "checked": False, "dummy": False,
                                              "enchants": [{"kind": "boost"}, {"kind": "boost"}]}]  # fmt: skip
    text = printed(render.render_board(view), width=120)
    assert re.search(r"X04 Mira Tidewell · HP 0 · DOWN", text)
    assert "R02 Blaze Warden · BP 140 (+40) · +2 boost" in text
    assert "X06 Fen Larkspur · HP 4" in text and "HP 4 · DOWN" not in text


def test_the_cast_window_fits_an_80_column_24_line_screen(monkeypatch, capsys, tmp_path) -> None:
    """#35 item 6: board and grouped options on one screen, the idol column not cut, numbered as shown."""
    game, actions, _ = _view_at_cast_window()
    save = tmp_path / "cast.json"
    save.write_text(json.dumps({"game": "dreadnought", "config": game.config_json(), "seed": 3, "seat": "P1",
                                "vs": "heuristic", "actions": actions}))  # fmt: skip
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    monkeypatch.setattr("sys.stdin", io.StringIO("q\ny\n"))
    assert main(["play", "dreadnought", "--load", str(save)]) == 0
    out = capsys.readouterr().out
    screen = out[out.index(" Dreadnought · you are P1") :].split("choose (number")[0].splitlines()
    assert len(screen) + 1 <= 24, "\n".join(screen)  # and the prompt
    assert all(len(line) <= 80 for line in screen)
    assert any(line.startswith("P1 IDOL") and "speed" in line for line in screen)
    options = "\n".join(line for line in screen if line.startswith("  "))
    numbers = [int(n) for n in re.findall(r"(?:: |  |^  |^     )(\d+) [a-z]", options, re.M)]
    hidden = re.search(r"… (\d+) more choices: type more", "\n".join(screen))  # #51 item 4: the rest on `more`
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 8, numbers
    assert len(numbers) + (int(hidden[1]) if hidden else 0) > 15
