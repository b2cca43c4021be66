"""The board fits and explains itself, in a real browser (issue #35, items 1, 2, 5).

For each game, at a desktop (1366x900) and a phone (390x844) size: the player's hand and the
opponent's front row are on screen without scrolling, nothing scrolls sideways, on a phone the events
log sits below the board, the page says how the game is won, a keyword shows its glossary entry on
hover and on a tap (without playing the card it sits on), a card shows its words, and no engine
notation is left on the board. Screenshots of each board
are saved under the test's temp dir. Then the player ends their turn by a click: the AI's whole turn
stays in view in the event box.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
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
    act,
    changed_stats,
    create,
    get_view,
    serve,
)

sync_api = pytest.importorskip("playwright.sync_api")

SIZES = {"desktop": (1366, 900), "phone": (390, 844)}
DREADNOUGHT = {"decks": {"P1": "ember_spark", "P2": "tide_grove"}, "casters": {"P1": None, "P2": None}, "cards": None}
# case -> (game, config, seed, the turn to reach): positions with a full board and a hand, and Aterial's
# opening, with the biggest hand and empty squares
CASES = {
    "aterial": ("aterial", {**ATERIAL, "first": "P1"}, 3, 5),
    "aterial-opening": ("aterial", {**ATERIAL, "first": "P1"}, 3, 1),
    "dreadnought": ("dreadnought", DREADNOUGHT, 3, 3),
    "edelweiss": ("edelweiss", EDELWEISS_SKILLS, 3, 4),
}
PREFERRED = (
    *("KEEP", "DEPLOY", "TO F", "TO ", "CAST", "PAY", "ATTACK", "TARGET", "SUMMON", "END_MOVE", "END_ACTION"),
    *("END_ATTACK", "DONE", "PASS", "NO_BLOCK"),
)
ENDS_THE_TURN = ("END_ATTACK", "END_ACTION", "END_TURN", "DONE", "PASS")

pytestmark = NEEDS_CHROMIUM


def _advance(client: httpx.Client, game_id: str, token: str, turn: int) -> dict:
    """Play P1 through the API (the AI answers for P2) until P1 decides at `turn` or later with a hand."""
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, "the position was never reached"
        view = get_view(client, game_id, token)
        assert view["status"] != "over", "the game ended first"
        if not view["legal"]:
            time.sleep(0.02)
            continue
        hand = view["observation"]["players"]["P1"]["hand"]
        ends = any(a.startswith(ENDS_THE_TURN) for a in view["legal"])
        if (view["observation"].get("turn") or 0) >= turn and hand and ends and len(view["legal"]) > 1:
            return view
        legal = view["legal"]
        act(client, game_id, token, next((a for p in PREFERRED for a in legal if a.startswith(p)), legal[0]))


@contextmanager
def _game(tmp_path: Path, case: str) -> Iterator[tuple[str, httpx.Client, dict, dict, dict]]:
    game, config, seed, turn = CASES[case]
    app = create_app(tmp_path / "play.sqlite", agent_delay=0.0)
    with serve(app) as base, httpx.Client(base_url=base, timeout=10.0) as client:
        created = create(client, game, config, "human", "heuristic", seed)
        view = _advance(client, created["id"], created["tokens"]["P1"], turn)
        words = client.get(f"/api/games/{created['id']}/glossary").json()
        yield base, client, created, view, words
    app.state.manager.db.close()


def _collect_errors(page: Any, errors: list[str]) -> None:
    page.on("console", lambda msg: errors.extend([msg.text] if msg.type == "error" else []))
    page.on("pageerror", lambda exc: errors.append(str(exc)))


def _inside(box: dict | None, width: int, height: int) -> bool:
    return (
        box is not None
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= width + 1
        and (box["y"] + box["height"] <= height + 1)
    )


BOX = """(selector) => {
    const node = document.querySelector(selector);
    const r = node ? node.getBoundingClientRect() : null;
    return r && r.width && r.height ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
}"""


def _box(page: Any, selector: str) -> dict | None:
    """Where a board element is, found and measured in one script run. The live view also arrives over
    the socket after the first GET and redraws the board: a locator's bounding_box() that finds the element
    before that redraw and measures it after reads the detached node as None (seen under a loaded CI)."""
    box: dict | None = page.evaluate(BOX, selector)
    return box


def _popover_text(page: Any) -> str:
    popover = page.locator("#popover")
    popover.wait_for(state="visible", timeout=3000)
    return str(popover.inner_text())


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_board_fits_and_explains_itself(tmp_path: Path, case: str) -> None:
    with _game(tmp_path, case) as (base, client, created, view, words), sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--headless=new"])
        errors: list[str] = []
        try:
            for size, (width, height) in SIZES.items():
                page = browser.new_page(viewport={"width": width, "height": height}, has_touch=size == "phone")
                _collect_errors(page, errors)
                page.goto(base + created["urls"]["P1"])
                page.wait_for_selector('[data-zone="hand"] [data-card]')
                page.wait_for_selector("#how-to-win:not([hidden])")
                for zone in ("hand", "opponent-front"):  # on screen as the page opens: no scrolling
                    box = _box(page, f'[data-zone="{zone}"]')
                    assert _inside(box, width, height), (size, zone, box)
                assert page.evaluate("document.documentElement.scrollWidth") <= width, size  # nothing sideways
                if size == "phone":  # one column: the board first, the events below it (scrolled to)
                    board, log = _box(page, "#board"), _box(page, ".log-panel")
                    assert board is not None and log is not None
                    assert log["y"] >= board["y"] + board["height"] - 1, (board, log)
                    assert log["x"] >= 0 and log["x"] + log["width"] <= width + 1, log
                how = "#how-to-win summary"
                assert words["how_to_win"][:40] in page.locator(how).inner_text()
                assert _inside(_box(page, how), width, height), (size, how)

                keyword = page.locator("#board [data-term]:visible").first
                term = keyword.get_attribute("data-term")
                keyword.hover()
                assert words["glossary"][term] in _popover_text(page), (size, term)

                card = page.locator('[data-zone="hand"] [data-words]').first
                card_id = card.get_attribute("data-words")
                entry = get_view(client, created["id"], created["tokens"]["P1"])["cards"][card_id]
                page.mouse.move(0, 0)
                card.hover(position={"x": 3, "y": 3})
                shown = _popover_text(page)
                assert entry["name"] in shown and all(ability in shown for ability in entry["abilities"]), shown

                # a tap on a card's "?" explains the card and plays nothing
                version = get_view(client, created["id"], created["tokens"]["P1"])["version"]
                page.locator('[data-zone="hand"] .card-info').first.click()
                assert _popover_text(page)
                assert page.locator(".choice-bar").count() == 0
                assert get_view(client, created["id"], created["tokens"]["P1"])["version"] == version

                if size == "phone":  # a finger cannot hover: a tap on a keyword explains it, even on a card
                    on_card = page.locator("#board :is(.clickable, .inert, .chooser) [data-term]:visible")
                    tapped = on_card.first if on_card.count() else page.locator("#board [data-term]:visible").first
                    page.mouse.move(0, 0)
                    tapped.tap()
                    assert words["glossary"][tapped.get_attribute("data-term")] in _popover_text(page)
                    assert get_view(client, created["id"], created["tokens"]["P1"])["version"] == version
                    assert page.locator("#notice:visible, .choice-bar").count() == 0  # nothing played or asked

                # the option labels too (each button also shows its action as typed, which is no prose)
                labels = page.locator("#legal .label").all_inner_texts()
                titles = page.eval_on_selector_all("#board [title]", "nodes => nodes.map((n) => n.title)")
                for text in (page.locator("#board").inner_text(), *labels, *titles):
                    assert not ENGINE_NOTATION.search(text), (size, ENGINE_NOTATION.search(text))
                shot = tmp_path / f"{case}-{size}.png"
                page.mouse.move(0, 0)
                page.keyboard.press("Escape")  # the board as it stands, without a pinned explanation over it
                page.locator("#popover").wait_for(state="hidden")
                page.screenshot(path=str(shot))
                assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
                if size == "desktop":
                    _check_acted_marks(page, case, view)
                    _check_supply(page, case, view)
                    changed = _check_changed_stats(page, case, view)
                    assert changed > 0 or case != "aterial"  # its position has auras and kinship at work
                    _end_the_turn_and_read_the_ai_turn(page, client, created, view)
                page.close()
        finally:
            browser.close()
        assert not errors, errors


ANGLE = """(node) => {
    const m = getComputedStyle(node).transform;
    if (!m || m === "none") return 0;
    const [a, b] = m.slice(m.indexOf("(") + 1, -1).split(",").map(Number);
    return Math.round((Math.atan2(b, a) * 180) / Math.PI);
}"""


def _check_acted_marks(page: Any, case: str, view: dict) -> None:
    """Units that have acted (Aterial), checked ones (Dreadnought) are marked, never turned on their side;
    an Edelweiss tapped card lies sideways but its rank and suit stay upright: the text stays readable."""
    if case == "aterial":
        acted = page.locator(".unit.acted .unit-card")
        assert acted.count() > 0, "the position has units that have acted"
        assert page.locator(".unit.acted .acted-mark").count() == acted.count()
        transforms = acted.evaluate_all("nodes => nodes.map((n) => getComputedStyle(n).transform)")
        assert set(transforms) == {"none"}, transforms
    elif case == "dreadnought":
        players = view["observation"]["players"]
        checked = [
            unit
            for player in players.values()
            for area in ("BA1", "BA2")
            for unit in [player[area].get("caster"), *player[area].get("units", [])]
            if unit and unit.get("checked")
        ]
        marked = page.locator("#board .checked :is(.dunit, .dcaster)")
        assert marked.count() == len(checked), (marked.count(), checked)
        assert page.locator("#board .checked .state-mark").count() == len(checked)
        assert set(marked.evaluate_all(f"nodes => nodes.map({ANGLE})")) <= {0}
    elif case == "edelweiss":
        tapped = page.locator("#board .card.tapped")
        assert tapped.count() > 0, "the position has tapped cards"
        for index in range(tapped.count()):
            card = tapped.nth(index)
            turned = card.evaluate(ANGLE)
            for part in (".rank", ".pip"):  # the card lies sideways; what is printed on it does not
                assert (turned + card.locator(part).evaluate(ANGLE)) % 360 == 0, (index, part)


def _check_supply(page: Any, case: str, view: dict) -> None:
    """Aterial: each empty square of the player shows the dominance its neighbours supply there (A11.2),
    as the terminal does."""
    if not case.startswith("aterial"):
        return
    player = view["observation"]["players"]["P1"]
    empty = {square: supply for square, supply in player["supply"].items() if player["field"].get(square) is None}
    assert empty or case != "aterial-opening", "the opening has empty squares"
    for square, supply in empty.items():
        shown = page.locator(f'[data-square="P1:{square}"] .supply').inner_text()
        assert shown == f"dominance {supply}", (square, shown)


def _check_changed_stats(page: Any, case: str, view: dict) -> int:
    """A stat an aura, kinship or effect changed shows the printed value struck through beside it, and
    only such a stat (A4.6; D2: BP); how many the board shows."""
    expected = changed_stats(CASES[case][0], view)
    shown = page.locator("#board .printed")
    assert shown.count() == len(expected), (shown.count(), expected)
    for selector, printed in expected.items():
        assert page.locator(f"{selector} .printed").inner_text() == str(printed), selector
        assert "changed" in (page.locator(selector).get_attribute("class") or ""), selector
    return len(expected)


def _end_the_turn_and_read_the_ai_turn(page: Any, client: httpx.Client, created: dict, view: dict) -> None:
    """The player ends the turn; the AI plays its whole turn; every line of it is in view in the events box."""
    token = created["tokens"]["P1"]
    deadline = time.monotonic() + 30
    ends = [a for a in view["legal"] if a.startswith(ENDS_THE_TURN)]
    page.locator(f'#legal button[data-action="{ends[0]}"]').click()
    ours = 1  # the player's own actions since the click: any further version is the AI's
    while True:  # what the player must still decide before the AI moves is answered by passing
        now = get_view(client, created["id"], token)
        assert time.monotonic() < deadline, ("the AI's turn never came", now["legal"], now["version"], ours)
        if now["legal"] and now["version"] > view["version"] + ours:
            break
        if now["legal"] and now["version"] == view["version"] + ours:
            passing = [a for a in now["legal"] if a.startswith(ENDS_THE_TURN)]
            act(client, created["id"], token, (passing or now["legal"])[0])
            ours += 1
        time.sleep(0.05)
    page.wait_for_function(f"document.querySelectorAll('#log li').length >= {len(now['events'])}")
    fresh = page.evaluate(
        """() => {
            const log = document.getElementById("log");
            const items = [...log.querySelectorAll("li.fresh")];
            const box = log.getBoundingClientRect();
            const rects = items.map((li) => li.getBoundingClientRect());
            return rects.map((r) => [r.top >= box.top - 1, r.bottom <= box.bottom + 1]);
        }"""
    )
    assert len(fresh) >= len(now["events"]) - len(view["events"]) > 2, (len(fresh), len(now["events"]))
    assert all(visible for pair in fresh for visible in pair), (len(fresh), fresh)
