"""A whole game of each game with the keyboard alone, read through the accessibility tree (issue #55, items 2-4).

Chromium plays P1 against the AI from the first decision to the result, by Tab, Shift-Tab, Enter and Space
only (the test never clicks): the skip link leads to the options, after each move the focus comes back to
them, every control reached shows a focus ring, and the first moves are made on the board itself. On the
way: a card's explanation opens on focus and Escape closes it; a card that cannot be played says why, and
Escape closes that; a card with several actions opens its bar of actions, and Escape closes it. Cards,
zones and choices have accessible names in words (a card's name and what it does, a zone and its owner, a
choice's effect); the game's events are read out by a live region; every legal target on the board also
carries a shape and every highlighted card or place its state in words. The same game's play page is
audited by axe-core (WCAG 2 A/AA) at 1366x900 and 390x844 as it opens, mid-game and at its end (item 1;
the other pages: test_web_a11y.py). Each game is played so twice: on a desk's screen and on a phone's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from cardlab.core.cardwords import ENGINE_NOTATION
from cardlab.games import game_names
from tests.web.helpers import (
    AXE_SIZES,
    NEEDS_CHROMIUM,
    PASSIVE,
    audit,
    browser_site,
    create_against_ai,
    get_view,
)

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("axe_playwright_python")

# one worker runs the module (under --dist loadgroup), so its one server and browser serve every test
pytestmark = [NEEDS_CHROMIUM, pytest.mark.xdist_group("web-keyboard")]

ON_THE_BOARD = 6
"""P1's first decisions made on the board (a card or a place) wherever the board offers the chosen action."""
ACTIVE = 10
"""P1's decisions that play the first option; after them P1 prefers passing, so the AI ends the game soon."""
MAX_PRESSES = 300

FOCUSED = """() => {
    const a = document.activeElement;
    if (!a || a === document.body) return null;
    const s = getComputedStyle(a);
    return {
        action: a.getAttribute("data-action"),
        region: a.closest("#legal") ? "legal" : a.closest("#board") ? "board" : a.closest("#result") ? "result" : "",
        id: a.id, cls: String(a.className), tag: a.tagName,
        ring: s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2,
    };
}"""
READY = """() => {
    const a = document.activeElement;
    if (!document.getElementById("result").hidden) return true;
    return !!a && !!a.closest("#legal") && a.matches("button[data-action]:not(:disabled)");
}"""
# Every legal target on the board has a shape beside its ring (a diamond), every highlighted card or place its
# state in words (a tag on it): what each lacks.
NOT_BY_COLOUR_ALONE = """() => {
    const bad = [];
    for (const node of document.querySelectorAll("#board .clickable")) {
        const after = getComputedStyle(node, "::after");
        if (after.content === "none" || parseFloat(after.width) < 6) {
            bad.push(`no shape: ${node.outerHTML.slice(0, 90)}`);
        }
    }
    const states = [
        "attacking", "blocking", "pursuing", "revealed", "targeted", "pending", "known", "attacked",
    ];
    const things = "#board :is([data-card], [data-square], [data-slot], [data-area])";
    for (const node of document.querySelectorAll(states.map((s) => `${things}.${s}`).join(","))) {
        const tag = node.querySelector(":scope > .mark, :scope > .sq-name > .mark, :scope > .area-name > .mark");
        const pseudo = getComputedStyle(node, "::before").content;
        if (!node.dataset.mark || !((tag && tag.textContent) || (pseudo && pseudo !== "none"))) {
            bad.push(`state by colour only: ${node.outerHTML.slice(0, 90)}`);
        }
    }
    return bad;
}"""


@dataclass
class Site:
    base: str
    client: Any
    context: Any


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    with browser_site(tmp_path_factory.mktemp("keys") / "play.sqlite") as (base, client, context):
        yield Site(base, client, context)


def _focused(page: Any) -> dict:
    found: dict = page.evaluate(FOCUSED) or {}
    return found


def _press(page: Any, key: str) -> dict:
    """Press a key; what has the focus then. A focused control must show its focus ring."""
    page.keyboard.press(key)
    focused = _focused(page)
    assert not focused or focused["ring"], ("no visible focus ring", key, focused)
    return focused


def _tab_to(page: Any, selector: str) -> dict:
    """Tab (or Shift-Tab, toward where it lies) until the element at `selector` has the focus."""
    for _ in range(MAX_PRESSES):
        if page.evaluate("(s) => document.activeElement === document.querySelector(s)", selector):
            return _focused(page)
        later = page.evaluate(
            """(s) => {
                const t = document.querySelector(s), a = document.activeElement;
                return !a || a === document.body || !!(a.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING);
            }""",
            selector,
        )
        _press(page, "Tab" if later else "Shift+Tab")
    raise AssertionError(f"the keyboard never reached {selector}")


def _at(page: Any, view: dict) -> None:
    page.wait_for_function(
        "(v) => document.getElementById('legal').dataset.version === String(v)", arg=view["version"], timeout=15000
    )


def _version(page: Any) -> str:
    return str(page.evaluate("document.getElementById('legal').dataset.version"))


def _choose(legal: list[str], made: int) -> str:
    if made < ACTIVE:
        return legal[0]
    return next((a for a in legal if a.startswith(PASSIVE)), legal[0])


def _explanation_closes_with_escape(page: Any) -> bool:
    """Focus a card that explains itself (its "?", or the card itself): the explanation shows; Escape closes it."""
    explains = '#board [data-words][tabindex="0"]'
    if not page.locator(explains).count():
        return False
    _tab_to(page, explains)
    popover = page.locator("#popover")
    popover.wait_for(state="visible", timeout=5000)
    assert popover.inner_text().strip()
    _press(page, "Escape")
    popover.wait_for(state="hidden", timeout=5000)
    return True


def _why_not_closes_with_escape(page: Any, site: Site, game_id: str, token: str) -> bool:
    """Enter on a card that cannot be played now says why (nothing is played); Escape closes the answer."""
    inert = '#board [data-explain][tabindex="0"]'
    if not page.locator(inert).count():
        return False
    version = get_view(site.client, game_id, token)["version"]
    _tab_to(page, inert)
    _press(page, "Enter")
    notice = page.locator("#notice")
    notice.wait_for(state="visible", timeout=5000)
    assert notice.inner_text().strip()
    _press(page, "Escape")
    notice.wait_for(state="hidden", timeout=5000)
    assert get_view(site.client, game_id, token)["version"] == version
    return True


def _chooser_opens_and_closes(page: Any) -> bool:
    """A card or place with several actions: Enter opens the bar of its actions with the focus in it; Escape
    closes the bar and the focus is back on the card."""
    chooser = '#board [data-choices][tabindex="0"]'
    if not page.locator(chooser).count():
        return False
    _tab_to(page, chooser)
    key = page.evaluate("document.activeElement.dataset.key")
    _press(page, "Enter")
    assert page.evaluate("!!document.activeElement.closest('.choice-bar')"), _focused(page)
    assert page.locator(f'#board [data-key="{key}"]').get_attribute("aria-expanded") == "true"
    _press(page, "Escape")
    assert page.locator(".choice-bar").count() == 0
    assert page.evaluate("document.activeElement.dataset.key") == key
    return True


def _names_in_words(page: Any, view: dict) -> None:
    """Cards, zones and choices as the accessibility tree gives them: in words, a card by its name and what it
    does, a zone by its owner, a choice by its effect (the board's controls as the option list says them)."""
    board = page.locator("#board").aria_snapshot()
    assert re.search(r'group "Your hand', board), board
    assert re.search(r'group "P2.s', board), board  # the opponent's zones, by owner
    for label in page.locator("#legal button[data-action] .label").all_inner_texts():
        assert not ENGINE_NOTATION.search(label), label
    for control in page.locator("#board [data-action]").all():
        action = control.get_attribute("data-action")
        label = page.locator(f'#legal button[data-action="{action}"] .label').inner_text()
        sync_api.expect(control).to_have_accessible_name(re.compile(re.escape(label)))
    hand = page.locator('[data-zone="hand"] [data-card]')
    for k in range(hand.count()):
        card = hand.nth(k)
        entry = view["cards"].get(card.get_attribute("data-card"))
        if not entry:
            continue
        said = f"{card.aria_snapshot()}"
        for words in (entry["name"], *entry["abilities"][:1]):
            if words not in said:  # a control says what choosing it does; its description says the card
                sync_api.expect(card).to_have_accessible_description(re.compile(re.escape(words)))


@pytest.mark.parametrize("size", list(AXE_SIZES))
@pytest.mark.parametrize("game", game_names())
def test_a_whole_game_by_keyboard(site: Site, game: str, size: str) -> None:
    created = create_against_ai(site.client, game, seed=3)
    game_id, token = created["id"], created["tokens"]["P1"]
    page = site.context.new_page()
    width, height = AXE_SIZES[size]
    page.set_viewport_size({"width": width, "height": height})  # a desk's screen, or a phone's
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto(site.base + created["urls"]["P1"])
        page.wait_for_selector("#legal button[data-action]")  # P1's first decision (the AI may open)
        assert _press(page, "Tab")["cls"] == "skip-link"  # the first stop: straight to the options
        assert _press(page, "Enter")["id"] == "legal"
        assert _press(page, "Tab")["region"] == "legal"
        found = audit(page, f"play {game} start")
        made, on_board, explained, asked, named, announced, chose = 0, 0, False, False, False, False, False
        while page.locator("#result").is_hidden():
            try:
                page.wait_for_function(READY, timeout=15000)  # the focus came back to the options by itself
            except sync_api.TimeoutError as exc:
                raise AssertionError(f"the focus did not come back to the options: {_focused(page)}") from exc
            if not page.locator("#result").is_hidden():
                break
            view = get_view(site.client, game_id, token)  # P1 to move: the page shows this version
            _at(page, view)
            if made and view["events"] and not announced:  # what happened since is read out by the live region
                assert view["events"][-1]["text"] in page.locator("#announce").aria_snapshot()
                announced = True
            assert page.evaluate(NOT_BY_COLOUR_ALONE) == []
            if not named and page.locator('#board [data-zone="hand"] [data-card]').count():
                _names_in_words(page, view)
                named = True
            explained = explained or _explanation_closes_with_escape(page)
            asked = asked or _why_not_closes_with_escape(page, site, game_id, token)
            chose = chose or _chooser_opens_and_closes(page)
            if made == ACTIVE:
                found += audit(page, f"play {game} mid-game")
            legal = page.eval_on_selector_all("#legal button[data-action]", "bs => bs.map((b) => b.dataset.action)")
            action = _choose(legal, made)
            board = f'#board [data-action="{action}"]'
            if made < ON_THE_BOARD and page.locator(board).count() == 1:
                focused = _tab_to(page, board)
                on_board += 1
            else:
                focused = _tab_to(page, f'#legal button[data-action="{action}"]')
            assert focused["action"] == action
            before = _version(page)
            _press(page, "Enter" if made % 2 else " ")
            made += 1
            page.wait_for_function(
                "(v) => document.getElementById('legal').dataset.version !== v", arg=before, timeout=15000
            )
        final = get_view(site.client, game_id, token)
        assert final["status"] == "over"
        result = _focused(page)  # the game over: the focus is on the result's first control
        assert result.get("region") == "result", result
        assert page.locator("#result .result-text").inner_text() in page.locator("#announce").aria_snapshot()
        found += audit(page, f"play {game} end")
    finally:
        page.close()
    assert not found, f"{len(found)} elements in violation:\n" + "\n".join(found)
    assert named and explained and announced and on_board > 0, (named, explained, announced, on_board)
    assert made > ACTIVE // 2, made
    assert not errors, errors
    print(game, made, "decisions by keyboard,", on_board, "on the board; asked why not:", asked, "; chose:", chose)
