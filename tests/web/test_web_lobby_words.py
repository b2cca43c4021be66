"""The lobby and a game's end in a player's words (issue #51 items 7 and 8), in Chromium at 1366x900 and 390x844.

The lobby lists opponents by strength in words with the agent spec in a tooltip, keeps the rule variants behind
an "advanced rules" fold with each value in words, and no control of any game's form is wider than a phone. On
the board a checked Dreadnought card's id stays readable beside its badge; when a game ends on a phone the result
banner comes into view and says why in words. Screenshots of each screen are saved under the test's temp dir.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from cardlab.core.plugin import declared_words, reason_words
from cardlab.games import game_class, game_names
from cardlab.web.app import create_app
from tests.web.helpers import CHROMIUM, NEEDS_CHROMIUM, act, create, get_view, play_humans, serve

sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = NEEDS_CHROMIUM

SIZES = {"desktop": (1366, 900), "phone": (390, 844)}
PHONE = SIZES["phone"]
DREADNOUGHT = {"decks": {"P1": "ember_spark", "P2": "tide_grove"}, "casters": {"P1": None, "P2": None}, "cards": None}
PREFERRED = ("KEEP", "DEPLOY", "CAST", "PAY", "ATTACK", "TARGET", "NO_BLOCK", "DONE", "PASS")
"""Actions the Dreadnought walk prefers: attacking is what checks units."""

FORM_BOXES = """() => {
    const panel = document.getElementById("new-game").getBoundingClientRect();
    const nodes = [...document.querySelectorAll("#new-game :is(select, input, button, summary, label, a, pre)")];
    const shown = nodes.filter((n) => n.getClientRects().length);
    return {
        scroll: document.documentElement.scrollWidth,
        panel: [panel.left, panel.right],
        wide: shown.map((n) => [n.id || n.tagName, n.getBoundingClientRect().left, n.getBoundingClientRect().right])
            .filter(([, left, right]) => left < panel.left - 1 || right > panel.right + 1),
    };
}"""

BADGES = """() => [...document.querySelectorAll("#board .checked .state-mark")].map((mark) => {
    const a = mark.getBoundingClientRect();
    const b = mark.parentElement.querySelector(".uid").getBoundingClientRect();
    const overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
        && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
    return [mark.parentElement.querySelector(".uid").textContent, overlap];
})"""

IN_VIEW = """() => {
    const r = document.getElementById("result").getBoundingClientRect();
    return r.height > 0 && r.top >= -1 && r.bottom <= window.innerHeight + 1;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, httpx.Client]]:
    app = create_app(tmp_path_factory.mktemp("lobby") / "play.sqlite", agent_delay=0.0)
    with serve(app) as base, httpx.Client(base_url=base, timeout=10.0) as client:
        yield base, client
    app.state.manager.db.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--headless=new"])
        yield launched
        launched.close()


def _page(browser: Any, size: str, errors: list[str]) -> Any:
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height}, has_touch=size == "phone")
    page.on("console", lambda msg: errors.extend([msg.text] if msg.type == "error" else []))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_lobby_speaks_a_players_words_and_fits(server: Any, browser: Any, tmp_path: Path, size: str) -> None:
    base, client = server
    meta = client.get("/api/meta").json()["games"]
    errors: list[str] = []
    page = _page(browser, size, errors)
    page.goto(base + "/")
    page.wait_for_selector('#seat-P2 option[value="heuristic"]', state="attached")
    for game in game_names():
        page.select_option("#game", game)
        page.wait_for_function(f"document.querySelector('[data-rule]').dataset.game === '{game}'")
        agents = page.eval_on_selector_all("#seat-P2 option", "ns => ns.map((n) => [n.value, n.textContent, n.title])")
        said = {value: (text, title) for value, text, title in agents if value in meta[game]["agents"]}
        assert set(said) == set(meta[game]["agents"]), agents
        assert said["random"][0] == "random" and said["heuristic"][0] == "quick (heuristic)", said
        search = game_class(game).search_agent
        assert search not in said or said[search][0] == "strong (search)", said
        for spec, (text, title) in said.items():  # words in the list, the spec in the tooltip
            assert title == spec and ":" not in text and "=" not in text, (spec, text, title)

        fold = page.locator("#options details.advanced-rules")
        assert fold.count() == 1 and not fold.evaluate("(d) => d.open"), game  # folded away at first
        assert "advanced rules" in fold.locator("summary").inner_text().lower()
        rules = game_class(game).rule_options
        assert page.locator("#options [data-rule]").count() == fold.locator("[data-rule]").count() == len(rules)
        fold.locator("summary").click()
        declared = declared_words(game_class(game), "RULE_VALUES")
        for rule in rules:
            shown = page.eval_on_selector_all(
                f'[data-rule="{rule.name}"] option', "ns => ns.map((n) => [n.value, n.textContent])"
            )
            assert [value for value, _ in shown] == list(rule.values), rule.name
            for value, text in shown:  # the value in words, never the bare engine value
                assert text.startswith(declared[rule.name][value]), (rule.name, value, text)

        boxes = page.evaluate(FORM_BOXES)
        assert boxes["scroll"] <= SIZES[size][0], (game, boxes)  # nothing sideways
        assert boxes["wide"] == [], (game, boxes)  # every control inside the form's panel
        page.screenshot(path=str(tmp_path / f"lobby-{game}-{size}.png"), full_page=True)
    page.close()
    assert not errors, errors


def _checked_position(client: httpx.Client, created: dict) -> dict:
    """Play P1 (the AI plays P2) until a unit or caster on the board is checked."""
    token, deadline = created["tokens"]["P1"], time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, "no card was ever checked"
        view = get_view(client, created["id"], token)
        assert view["status"] != "over", "the game ended first"
        players = view["observation"]["players"].values()
        if view["legal"] and any(
            unit and unit.get("checked")
            for player in players
            for area in ("BA1", "BA2")
            for unit in [player[area].get("caster"), *player[area].get("units", [])]
        ):
            return view
        if not view["legal"]:
            time.sleep(0.02)
            continue
        legal = view["legal"]
        act(client, created["id"], token, next((a for p in PREFERRED for a in legal if a.startswith(p)), legal[0]))


def test_a_checked_cards_badge_leaves_its_id_readable(server: Any, browser: Any, tmp_path: Path) -> None:
    base, client = server
    created = create(client, "dreadnought", DREADNOUGHT, "human", "heuristic", 3)
    _checked_position(client, created)
    errors: list[str] = []
    for size in SIZES:
        page = _page(browser, size, errors)
        page.goto(base + created["urls"]["P1"])
        page.wait_for_selector("#board .checked .state-mark")
        badges = page.evaluate(BADGES)
        assert badges and not any(overlap for _, overlap in badges), (size, badges)
        page.screenshot(path=str(tmp_path / f"checked-{size}.png"))
        page.close()
    assert not errors, errors


def test_the_end_of_a_game_comes_into_view_on_a_phone_in_words(server: Any, browser: Any, tmp_path: Path) -> None:
    base, client = server
    created = create(client, "edelweiss", {"deck": "short"}, seed=4)
    errors: list[str] = []
    page = _page(browser, "phone", errors)
    page.goto(base + created["urls"]["P1"])
    page.wait_for_selector("#legal button")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")  # down at the options
    assert page.evaluate("window.scrollY") > 0 and not page.evaluate(IN_VIEW)
    play_humans(client, created["id"], created["tokens"])
    page.wait_for_selector("#result:not([hidden])")
    page.wait_for_function(IN_VIEW, timeout=5000)  # the banner came into view by itself
    result = get_view(client, created["id"], created["tokens"]["P1"])["result"]
    words = reason_words(game_class("edelweiss"), result["reason"], result["winner"])
    assert " " in words and words in page.locator("#result").inner_text(), (words, result)
    page.screenshot(path=str(tmp_path / "result-phone.png"))
    page.close()
    assert not errors, errors
