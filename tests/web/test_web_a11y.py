"""Every page passes WCAG 2 A/AA by axe-core (issue #55, item 1); small board cards read whole on a phone
(issue #51, item 8).

axe-core (pinned through `axe-playwright-python`) audits each page the web app serves, in Chromium at
1366x900 and 390x844: the lobby (with a game listed, the rule variants unfolded and a new game's links),
and for each game its rules page and the replay of a finished game. The play page is audited at the start,
mid-game and at the end of the game test_web_keyboard.py plays by keyboard (one game serves both, to keep
the suite short). Any violation fails the test, named by page, moment, size, rule and element. One server
and one browser serve the whole module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from cardlab.games import game_names
from cardlab.web.lab import LabSettings
from tests.web.helpers import (
    NEEDS_CHROMIUM,
    PASSIVE,
    audit,
    browser_site,
    create_against_ai,
    play_as_p1,
)

sync_api = pytest.importorskip("playwright.sync_api")
pytest.importorskip("axe_playwright_python")

# one worker runs the module (under --dist loadgroup), so its one server and browser serve every test
pytestmark = [NEEDS_CHROMIUM, pytest.mark.xdist_group("web-a11y")]

MID_GAME = 12
"""P1's decisions before the phone's mid-game look: cards on both fields, an attack under way or done."""


@dataclass
class Site:
    base: str
    client: Any
    context: Any


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    folder = tmp_path_factory.mktemp("a11y")
    with browser_site(folder / "play.sqlite", LabSettings(folder, folder / "lab.sqlite")) as (base, client, context):
        yield Site(base, client, context)


def _at_version(page: Any, view: dict) -> None:
    """Wait until the play page shows `view` (its option list carries the version it was drawn for)."""
    page.wait_for_function(
        "(v) => document.getElementById('legal').dataset.version === String(v)", arg=view["version"], timeout=15000
    )


def _first_until(count: int) -> tuple[Callable[[dict], str], Callable[[dict], bool]]:
    """A P1 that plays its first option `count` times, and the test that it has."""
    made = [0]

    def choose(view: dict) -> str:
        made[0] += 1
        return str(view["legal"][0])

    return choose, lambda _view: made[0] >= count


def _passive(view: dict) -> str:
    return next((a for a in view["legal"] if a.startswith(PASSIVE)), view["legal"][0])


@pytest.mark.parametrize("game", game_names())
def test_replay_and_rules_pages_pass_axe(site: Site, game: str) -> None:
    """The replay of a finished game (its last step: the board as it ended, and who won) and the rules page."""
    created = create_against_ai(site.client, game, seed=1)
    view = play_as_p1(site.client, created["id"], created["tokens"]["P1"], _passive, lambda v: False)
    assert view["status"] == "over"
    page = site.context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    found: list[str] = []
    try:
        page.goto(f"{site.base}/replay/{created['id']}")
        page.wait_for_selector("#result:not([hidden])")
        found += audit(page, f"replay {game} last step")
        page.goto(f"{site.base}/rules/{game}")
        page.wait_for_selector("#cards dt")
        found += audit(page, f"rules {game}")
    finally:
        page.close()
    assert not found, f"{len(found)} elements in violation:\n" + "\n".join(found)
    assert not errors, errors


def test_lobby_passes_axe(site: Site) -> None:
    game = game_names()[0]
    created = create_against_ai(site.client, game, seed=2)
    page = site.context.new_page()
    found: list[str] = []
    try:
        page.goto(site.base + created["urls"]["P1"])  # the play page lists the game under "My games"
        page.wait_for_selector("#board *")
        page.goto(site.base + "/")
        page.wait_for_selector(
            f'#my-games li[data-game-id="{created["id"]}"] .game-status:not([data-status="loading"])'
        )
        found += audit(page, "lobby")
        page.evaluate("document.querySelectorAll('details').forEach((d) => (d.open = true))")  # every fold open
        found += audit(page, "lobby unfolded")
        page.select_option("#seat-P2", "human")  # two humans: the lobby shows both links
        page.click("#create")
        page.wait_for_selector("#created:not([hidden]) a.game-link")
        found += audit(page, "lobby with a new game's links")
    finally:
        page.close()
    assert not found, f"{len(found)} elements in violation:\n" + "\n".join(found)


READ_WHOLE = """(minPx) => {
    // every text printed on a board card: big enough, inside its card, not cut by a clipping box, not covered
    const bad = [];
    for (const card of document.querySelectorAll("#board [data-card]")) {
        if (!card.getClientRects().length) continue;
        card.scrollIntoView({ block: "center" });
        const box = card.getBoundingClientRect();
        const walker = document.createTreeWalker(card, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const text = node.textContent.trim();
            const el = node.parentElement;
            if (!text || !el.getClientRects().length || el.closest(".card-info")) continue;  // "?" is a control
            const where = `${card.dataset.card} "${text}"`;
            const size = parseFloat(getComputedStyle(el).fontSize);
            if (size < minPx) bad.push(`${where}: ${size}px type`);
            const range = document.createRange();
            range.selectNodeContents(node);
            for (const r of range.getClientRects()) {
                const out = (c) =>
                    r.left < c.left - 1 || r.right > c.right + 1 || r.top < c.top - 1 || r.bottom > c.bottom + 1;
                if (out(box)) bad.push(`${where}: out of its card`);
                for (let a = el; a && a !== card.parentElement; a = a.parentElement) {
                    const s = getComputedStyle(a);
                    if ((s.overflowX !== "visible" || s.overflowY !== "visible") && out(a.getBoundingClientRect())) {
                        bad.push(`${where}: cut by ${a.className}`);
                    }
                }
                const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                if (hit && !el.contains(hit) && !hit.contains(el)) bad.push(`${where}: covered by ${hit.className}`);
            }
        }
    }
    return bad;
}"""
MIN_TYPE_PX = 10
"""The smallest type on a phone's board card that still reads (issue #51 item 8: small cards cut their text)."""


@pytest.mark.parametrize("game", game_names())
def test_small_cards_read_whole_on_a_phone(site: Site, game: str) -> None:
    """At 390x844, as the game opens and mid-game, every word on a board card is at least 10 px, inside its
    card, and neither cut off nor covered by anything else."""
    created = create_against_ai(site.client, game, seed=4)
    token = created["tokens"]["P1"]
    page = site.context.new_page()
    found: list[str] = []
    try:
        page.set_viewport_size({"width": 390, "height": 844})
        view = play_as_p1(site.client, created["id"], token, _passive, lambda v: True)
        page.goto(site.base + created["urls"]["P1"])
        _at_version(page, view)
        found += [f"start: {line}" for line in page.evaluate(READ_WHOLE, MIN_TYPE_PX)]
        choose, done = _first_until(MID_GAME)
        view = play_as_p1(site.client, created["id"], token, choose, done)
        _at_version(page, view)
        found += [f"mid-game: {line}" for line in page.evaluate(READ_WHOLE, MIN_TYPE_PX)]
    finally:
        page.close()
    assert not found, "\n".join(sorted(set(found)))


@pytest.mark.parametrize("size", [(1366, 900), (390, 844)], ids=["desktop", "phone"])
def test_the_lab_and_the_api_docs_pass_axe(site: Site, size: tuple[int, int]) -> None:
    """The Lab's three views (a run's form, the stored results, the card and deck files) and the API's docs."""
    page = site.context.new_page()
    page.set_viewport_size({"width": size[0], "height": size[1]})
    found: list[str] = []
    try:
        for view in ("runs", "results", "files"):
            page.goto(f"{site.base}/lab#{view}")
            page.wait_for_load_state("networkidle")
            found += audit(page, f"lab {view}")
        page.goto(f"{site.base}/docs")
        page.wait_for_selector("pre")
        found += audit(page, "api docs")
    finally:
        page.close()
    assert not found, f"{len(found)} elements in violation:\n" + "\n".join(found)
