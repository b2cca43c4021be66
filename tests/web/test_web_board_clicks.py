"""The TCG boards in a real browser (issue #16 item 3): click a card, then a place on the board.

Dreadnought: a hand card with several actions (cast, or a dummy into BA1 or BA2) is selected by a click;
the board then marks the battle areas it can go to and a bar lists its other actions; a click on an area
plays it. Aterial: a hand card, then a square (deploy, A11.3); a unit, then an enemy square (attack,
A12.4). The option list stays as a fallback, and the event log stays in view beside a long option list.
Each game is brought to the decision through the API, then played on the board by clicks.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from cardlab.web.app import create_app
from tests.web.helpers import act, create, get_view, serve

sync_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = Path("/usr/bin/chromium")
VIEWPORT = {"width": 1280, "height": 900}

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's Chromium is not installed (/usr/bin/chromium; apt-get install chromium)"
)


def _advance(
    client: httpx.Client, game_id: str, token: str, done: Callable[[dict], bool], choose: Callable[[list], str]
) -> dict:
    """Act as P1 through the API (the AI answers for P2) until `done(view)`; that view."""
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the decision was never reached"
        view = get_view(client, game_id, token)
        assert view["status"] != "over", "the game ended first"
        if not view["legal"]:
            time.sleep(0.02)  # the AI is moving
            continue
        if done(view):
            return view
        act(client, game_id, token, choose(view["legal"]))


def _first_of(*prefixes: str) -> Callable[[list], str]:
    def choose(legal: list) -> str:
        for prefix in prefixes:
            found = [action for action in legal if action.startswith(prefix)]
            if found:
                return found[0]
        return legal[0]

    return choose


@contextmanager
def _game(tmp_path: Path, game: str, config: Any, seed: int) -> Iterator[tuple[str, httpx.Client, str, str]]:
    app = create_app(tmp_path / "play.sqlite", agent_delay=0.0)
    with serve(app) as base, httpx.Client(base_url=base, timeout=10.0) as client:
        created = create(client, game, config, "human", "random", seed)
        url = created["urls"]["P1"]
        yield base, client, created["id"], url
    app.state.manager.db.close()


@contextmanager
def _page(base: str, url: str) -> Iterator[Any]:
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--headless=new"])
        try:
            page = browser.new_page(viewport=VIEWPORT)
            page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(base + url)
            page.wait_for_selector("#board *")
            yield page
        finally:
            browser.close()
    assert not errors, errors


def _wait_for(client: httpx.Client, game_id: str, token: str, check: Callable[[dict], bool]) -> dict:
    deadline = time.monotonic() + 20
    while True:
        view = get_view(client, game_id, token)
        if check(view):
            return view
        assert time.monotonic() < deadline, "the click did not reach the game"
        time.sleep(0.05)


def _attackers_with_a_choice(view: dict) -> list[str]:
    """P1's squares whose unit may attack now and reaches two enemy units or more (else the target is automatic)."""
    if view["observation"]["window"] != "attack":
        return []
    field = view["observation"]["players"]["P1"]["field"]
    squares = [a.split()[1] for a in view["legal"] if a.startswith("ATTACK ")]
    return [sq for sq in squares if len((field.get(sq) or {}).get("attack_targets", [])) >= 2]


def _token(url: str) -> str:
    return url.split("token=")[1]


def test_dreadnought_a_card_then_a_battle_area(tmp_path: Path) -> None:
    with _game(tmp_path, "dreadnought", None, 3) as (base, client, game_id, url):
        token = _token(url)
        view = _advance(
            client, game_id, token,
            lambda v: v["observation"]["window"] == "cast_window" and any(
                a.startswith("DUMMY ") and "@S" not in a for a in v["legal"]
            ),
            _first_of("KEEP", "DONE", "PASS"),
        )  # fmt: skip
        card = next(a.split()[1] for a in view["legal"] if a.startswith("DUMMY ") and "@S" not in a)
        own = [a for a in view["legal"] if a.split()[1:2] == [card]]
        assert len(own) >= 2  # several actions: the card is selected first, not played at once
        with _page(base, url) as page:
            chooser = page.locator(f'.hand-zone .dcard.chooser[data-card="{card}"]').first
            chooser.click()
            bar = page.locator(f'.choice-bar[data-selected="card:{card}"]')
            bar.wait_for(state="visible")
            area = page.locator(f'[data-area="P1:BA1"][data-action="DUMMY {card} BA1"]')
            assert area.count() == 1 and "destination" in (area.get_attribute("class") or "")
            for action in own:  # every other action of the card is in the bar
                if not action.startswith("DUMMY "):
                    assert bar.locator(f'button[data-action="{action}"]').count() == 1, action
            log = page.locator("#log").bounding_box()
            assert log is not None and log["y"] + 40 < VIEWPORT["height"], log  # the log is in view
            assert page.locator("#legal button[data-action]").count() == len(view["legal"])  # the fallback list
            bar.locator("button.cancel").click()
            bar.wait_for(state="detached")
            assert page.locator('[data-area="P1:BA1"][data-action]').count() == 0
            chooser.click()
            page.locator(f'[data-area="P1:BA1"][data-action="DUMMY {card} BA1"]').click()
            after = _wait_for(client, game_id, token, lambda v: v["version"] > view["version"])
        units = after["observation"]["players"]["P1"]["BA1"]["units"]
        assert any(unit and unit.get("dummy") for unit in units), units


def test_aterial_a_card_then_a_square_and_a_unit_then_its_target(tmp_path: Path) -> None:
    config = {"decks": {"P1": "D1", "P2": "D2"}, "leaders": {"P1": None, "P2": None}, "first": "P1"}
    with _game(tmp_path, "aterial", config, 2) as (base, client, game_id, url):
        token = _token(url)
        view = _advance(
            client, game_id, token,
            lambda v: v["observation"]["window"] == "action" and any(a.startswith("DEPLOY ") for a in v["legal"]),
            _first_of("KEEP", "END_MOVE"),
        )  # fmt: skip
        card = next(a.split()[1] for a in view["legal"] if a.startswith("DEPLOY "))
        with _page(base, url) as page:
            page.locator(f'.acard[data-card="{card}"][data-action="DEPLOY {card}"]').click()
            square = page.locator('[data-square^="P1:F"][data-action^="TO "]').first
            square.wait_for(state="visible")  # the deploy's squares (A11.3) are now the clickable places
            name = square.get_attribute("data-square")
            assert name is not None
            square.click()
            deployed = name.split(":")[1]

            def stands(v: dict) -> bool:
                return (v["observation"]["players"]["P1"]["field"].get(deployed) or {}).get("card") == card

            after = _wait_for(client, game_id, token, stands)
        assert after["version"] > view["version"]
        view = _advance(
            client, game_id, token, lambda v: bool(_attackers_with_a_choice(v)),
            _first_of("DEPLOY", "TO F", "TO ", "END_ACTION", "END_MOVE", "ATTACK", "TARGET", "NO_BLOCK", "KEEP"),
        )  # fmt: skip
        attacker = _attackers_with_a_choice(view)[0]
        with _page(base, url) as page:
            page.locator(f'[data-square="P1:{attacker}"][data-action="ATTACK {attacker}"]').click()
            target = page.locator('[data-square^="P2:"][data-action^="TARGET "]').first
            target.wait_for(state="visible")  # the squares the attacker reaches (A12.4)
            target.click()
            after = _wait_for(client, game_id, token, lambda v: v["version"] > view["version"] + 1)
        assert any(event.get("kind") == "attack" for event in after["events"][-12:]), after["events"][-12:]
