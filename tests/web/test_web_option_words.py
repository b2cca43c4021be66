"""The option buttons speak a player's words, in a real browser (issue #35 items 1 and 4).

For each game, a human-vs-human game is played through the API with seeded random choices while
P1's page follows it; at each of P1's decisions the page must offer one button per legal action, and
every button (and every group title of the option list, and a selected card's choice bar) reads as
prose: no engine notation (`name(key=value)`, `[zone=...]`, snake_case) and no raw action text
(`END_ACTION`, `CAST R11`, `BA1.U1`, `R05@S`), and an option aimed at a place on the board names the
unit standing there ("Target S06 Militia Pikeman (P2:F1)", not "Target P2:F1"). The action as the
terminal types it stays in the button's `data-action` and its tooltip only.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from cardlab.core.cardwords import ENGINE_NOTATION
from cardlab.web.app import create_app
from tests.web.helpers import (
    ATERIAL,
    CHROMIUM,
    EDELWEISS_SKILLS,
    NEEDS_CHROMIUM,
    SEATS,
    act,
    create,
    get_view,
    serve,
    to_move,
)

sync_api = pytest.importorskip("playwright.sync_api")

DREADNOUGHT = {"decks": {"P1": "ember_spark", "P2": "tide_grove"}, "casters": {"P1": None, "P2": None}, "cards": None}
GAMES = {
    "aterial": {**ATERIAL, "first": "P1"},
    "dreadnought": DREADNOUGHT,
    "edelweiss": EDELWEISS_SKILLS,
}
POSITIONS = 24
"""P1 decisions read per game at least: mulligans, deploys, moves, attacks, targets, casts, payments, defenses."""
MUST_SEE = {
    "aterial": {"DEPLOY", "MOVE", "TARGET"},
    "dreadnought": {"CAST", "ATTACKER", "TARGET"},
    "edelweiss": {"SUMMON", "GUARD"},
}
"""Verbs the walk goes on until it has read (up to 200 decisions): the options that name cards and units."""
MUST_NAME = {"aterial": {"TARGET", "MOVE"}, "dreadnought": {"TARGET", "ATTACKER"}, "edelweiss": set()}
"""Verbs the walk goes on until it has read aimed at a unit on the board (not a dummy, not an empty place)."""

RAW_ACTION = re.compile(
    r"\b[A-Z]{2,}(?:_[A-Z]+)+\b"  # END_ACTION, SPECIAL_SUMMON, NO_BLOCK
    r"|@S\b"  # a speed-area card as the action names it
    r"|\b(?:BA[12]|IDOL)\.(?:U[12]|C)\b"  # a field place as the action names it
    r"|\bP[12]:(?:BA[12]|IDOL)\b"
)
"""Action text a player should never have to read on a button."""

pytestmark = NEEDS_CHROMIUM


def raw_text(text: str, action: str | None = None) -> str | None:
    """What in `text` is engine notation or raw action text (None: it reads as prose)."""
    found = ENGINE_NOTATION.search(text) or RAW_ACTION.search(text)
    if found:
        return found.group(0)
    if action is not None:
        if text.strip() == action or action in text:
            return action
        verb = action.split()[0]
        if len(verb) > 1 and verb.isupper() and re.search(rf"\b{re.escape(verb)}\b", text):
            return verb  # "DEPLOY S15", "GODDRAW": the verb as typed
    return None


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("END_ACTION", "END_ACTION"),
        ("CAST R11 Magma Gauntlet", "CAST R11"),
        ("Deploy S15 Pack Wolf DEPLOY S15", "DEPLOY S15"),
        ("GODDRAW", "GODDRAW"),
        ("Use R05@S, ability 1", "USE R05@S 0"),
        ("Move BA1.U1", "MOVE BA1.U1"),
        ("Target P2:BA1.U2", "TARGET P2:BA1.U2"),
        ("static_bp(target=all_own_units[zone=battle], amount=10)", "USE IDOL 0"),
    ],
)
def test_the_check_catches_raw_action_text(text: str, action: str) -> None:
    assert raw_text(text, action)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("End action phase", "END_ACTION"),
        ("Cast R11 Magma Gauntlet", "CAST R11"),
        ("Target S06 Militia Pikeman (P2:F1)", "TARGET P2:F1"),
        ("To battle area BA1", "TO BA1"),
        ("Guard ♦ (counter)", "GUARD D"),
        ("Use R05 Flame Burst (speed area), ability 1", "USE R05@S 0"),
    ],
)
def test_player_words_pass_the_check(text: str, action: str) -> None:
    assert raw_text(text, action) is None


NAMED_VERBS = {
    "aterial": ("TARGET", "MOVE", "ATTACK"),
    "dreadnought": ("TARGET", "ATTACKER", "BLOCK", "MOVE", "REMOVE"),
}


def unit_on(game: str, view: dict, action: str) -> str | None:
    """The card standing on the place an action names (Aterial "TARGET P2:F1", Dreadnought "BLOCK BA1.U1"):
    a button for it must name that unit, not only the place. None: no such verb, or nothing readable there."""
    verb, *rest = action.split()
    if verb not in NAMED_VERBS.get(game, ()) or not rest:
        return None
    seat, place = rest[0].split(":") if ":" in rest[0] else (view["seat"], rest[0])
    player = view["observation"]["players"][seat]
    if game == "aterial":
        unit = player["field"].get(place)
    elif place == "IDOL":
        unit = player.get("idol")
    else:
        area, spot = place.split(".")
        unit = player[area]["caster"] if spot == "C" else player[area]["units"][int(spot[1:]) - 1]
    card = (unit or {}).get("card")
    return None if not card or unit.get("dummy") or card not in view["cards"] else view["cards"][card]["name"]


def _buttons(page: Any, version: int) -> list[tuple[str, str]]:
    """The option list's buttons of the view at `version`: (action, the text a player reads)."""
    page.wait_for_selector(f'#legal[data-version="{version}"]', state="attached", timeout=10000)
    return [
        (str(button.get_attribute("data-action")), str(button.inner_text()))
        for button in page.locator("#legal button[data-action]").all()
    ]


def _choice_bar(page: Any) -> list[tuple[str, str]]:
    """Select the first card or place with several actions (Dreadnought); its bar's buttons, then cancel."""
    chooser = page.locator("#board .chooser")
    if not chooser.count():
        return []
    chooser.first.click()
    bar = page.locator(".choice-bar")
    bar.wait_for(state="visible")
    found = [
        (str(b.get_attribute("data-action")), str(b.inner_text())) for b in bar.locator("button[data-action]").all()
    ]
    found.append(("", str(bar.locator("b").first.inner_text())))
    bar.locator("button.cancel").click()
    bar.wait_for(state="detached")
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
def test_option_buttons_read_in_player_words(tmp_path: Path, game: str) -> None:
    rng = random.Random(35)
    app = create_app(tmp_path / "play.sqlite", agent_delay=0.0)
    errors: list[str] = []
    problems: list[tuple[str, str, str]] = []
    verbs: set[str] = set()
    named: set[str] = set()  # verbs read aimed at a unit
    with serve(app) as base, httpx.Client(base_url=base, timeout=10.0) as client, sync_api.sync_playwright() as p:
        created = create(client, game, GAMES[game], seed=4)
        game_id, tokens = created["id"], created["tokens"]
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--headless=new"])
        try:
            page = browser.new_page(viewport={"width": 1366, "height": 900})
            page.on("console", lambda msg: errors.extend([msg.text] if msg.type == "error" else []))
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(base + created["urls"]["P1"])
            page.wait_for_selector("#board *")
            read, bars, deadline = 0, 0, time.monotonic() + 150
            while read < POSITIONS or (not (MUST_SEE[game] <= verbs and MUST_NAME[game] <= named) and read < 200):
                assert time.monotonic() < deadline, f"only {read} positions read"
                public = get_view(client, game_id)
                if public["status"] == "over":
                    break
                mover = to_move(public)
                assert mover in SEATS
                view = get_view(client, game_id, tokens[mover])
                if mover == "P1":
                    shown = _buttons(page, view["version"])
                    assert sorted(action for action, _ in shown) == sorted(view["legal"]), view["version"]
                    titles = page.locator("#legal .group-title").all_inner_texts()
                    if bars < 3 and page.locator("#board .chooser").count():
                        shown += _choice_bar(page)
                        bars += 1
                    for action, text in [*shown, *(("", title) for title in titles)]:
                        bad = raw_text(text, action or None)
                        if bad:
                            problems.append((action, text, bad))
                        unit = unit_on(game, view, action) if action else None
                        if unit is not None:
                            named.add(action.split()[0])
                            if unit not in text:
                                problems.append((action, text, f"does not name {unit}"))
                    verbs |= {action.split()[0] for action in view["legal"]}
                    read += 1
                act(client, game_id, tokens[mover], rng.choice(view["legal"]))
        finally:
            browser.close()
    app.state.manager.db.close()
    assert read >= 10, read
    assert MUST_SEE[game] <= verbs, verbs  # several kinds of decision were read, not one window over and over
    assert not problems, problems[:10]
    assert MUST_NAME[game] <= named, named  # options aimed at units were read
    assert not errors, errors
