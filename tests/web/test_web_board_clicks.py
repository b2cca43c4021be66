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


def _cast_or_dummy(view: dict) -> list[str]:
    """Hand cards P1 may both cast and play as a dummy now."""
    if view["observation"]["window"] != "cast_window":
        return []
    casts = {a.split()[1] for a in view["legal"] if a.startswith("CAST ")}
    dummies = {a.split()[1] for a in view["legal"] if a.startswith("DUMMY ")}
    return [card for card in view["observation"]["players"]["P1"]["hand"] if card in casts & dummies]


def _played(client: httpx.Client, game_id: str, token: str, since: int) -> list[str]:
    """P1's actions after version `since`, from P1's own replay."""
    frames = client.get(f"/api/games/{game_id}/replay", params={"token": token}).json()["frames"]
    return [frame["action"] for frame in frames[since + 1 :] if frame["actor"] == "P1"]


def test_dreadnought_a_card_then_a_battle_area(tmp_path: Path) -> None:
    """A click on a card, then on a highlighted battle area, casts it there; a dummy is an explicit choice
    in the card's bar; the option list groups each card's choices, the normal play first."""
    with _game(tmp_path, "dreadnought", None, 3) as (base, client, game_id, url):
        token = _token(url)
        view = _advance(client, game_id, token, lambda v: bool(_cast_or_dummy(v)), _first_of("KEEP", "DONE", "PASS"))
        card = _cast_or_dummy(view)[0]
        own = [a for a in view["legal"] if a.split()[1:2] == [card]]
        with _page(base, url) as page:
            group = page.locator(f'#legal [data-group="card:{card}"] button[data-action]')
            listed = [group.nth(i).get_attribute("data-action") for i in range(group.count())]
            assert sorted(listed) == sorted(own) and listed[0] == f"CAST {card}", listed  # grouped, cast first
            assert [a for a in listed if a.startswith("DUMMY ")] == sorted(a for a in own if a.startswith("DUMMY "))
            titles = page.locator("#legal .action-group").evaluate_all("gs => gs.map((g) => g.dataset.group)")
            hand = [f"card:{c}" for c in view["observation"]["players"]["P1"]["hand"]]
            assert [g for g in titles if g in hand] == [c for c in dict.fromkeys(hand) if c in titles]  # hand order
            chooser = page.locator(f'.hand-zone .dcard.chooser[data-card="{card}"]').first
            chooser.click()
            bar = page.locator(f'.choice-bar[data-selected="card:{card}"]')
            bar.wait_for(state="visible")
            for action in own:  # every action of the card is in the bar, the dummies among them
                assert bar.locator(f'button[data-action="{action}"]').count() == 1, action
            area = page.locator('[data-area="P1:BA1"][data-cast-into="BA1"]')
            assert area.get_attribute("data-action") == f"CAST {card}" and "destination" in (
                area.get_attribute("class") or ""
            )
            log = page.locator("#log").bounding_box()
            assert log is not None and log["y"] + 40 < VIEWPORT["height"], log  # the log is in view
            bar.locator("button.cancel").click()
            bar.wait_for(state="detached")
            assert page.locator("[data-cast-into]").count() == 0
            chooser.click()
            area.click()
            after = _wait_for(
                client,
                game_id,
                token,
                lambda v: v["observation"]["window"] != "dest" and v["version"] > view["version"] + 1,
            )
        assert _played(client, game_id, token, view["version"])[:2] == [f"CAST {card}", "TO BA1"]
        assert after["observation"]["players"]["P1"]["limbo"] == [card] or any(
            unit and unit.get("card") == card and not unit.get("dummy")
            for unit in after["observation"]["players"]["P1"]["BA1"]["units"]
        )


def test_dreadnought_a_dummy_is_an_explicit_choice(tmp_path: Path) -> None:
    with _game(tmp_path, "dreadnought", None, 3) as (base, client, game_id, url):
        token = _token(url)
        view = _advance(client, game_id, token, lambda v: bool(_cast_or_dummy(v)), _first_of("KEEP", "DONE", "PASS"))
        card = _cast_or_dummy(view)[0]
        with _page(base, url) as page:
            page.locator(f'.hand-zone .dcard.chooser[data-card="{card}"]').first.click()
            page.locator(f'.choice-bar button[data-action="DUMMY {card} BA2"]').click()
            after = _wait_for(client, game_id, token, lambda v: v["version"] > view["version"])
        assert _played(client, game_id, token, view["version"])[0] == f"DUMMY {card} BA2"
        units = after["observation"]["players"]["P1"]["BA2"]["units"]
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
            aiming = get_view(client, game_id, token)
            square = str(target.get_attribute("data-square"))
            unit = aiming["observation"]["players"]["P2"]["field"][square.split(":")[1]]["card"]
            named = f"Target {aiming['cards'][unit]['name']} ({square})"  # the unit by name, not "P2:F1"
            assert target.get_attribute("aria-label") == named
            assert page.locator(f'#legal button[data-action="TARGET {square}"] .label').inner_text() == named
            target.click()
            after = _wait_for(client, game_id, token, lambda v: v["version"] > view["version"] + 1)
        assert any(event.get("kind") == "attack" for event in after["events"][-12:]), after["events"][-12:]


def test_aterial_a_card_that_cannot_be_deployed_says_why(tmp_path: Path) -> None:
    """A click on a hand card that cannot be deployed anywhere shows the server's reason (A11.3) and plays nothing."""
    config = {"decks": {"P1": "D1", "P2": "D2"}, "leaders": {"P1": None, "P2": None}, "first": "P1"}
    with _game(tmp_path, "aterial", config, 2) as (base, client, game_id, url):
        token = _token(url)

        def stuck(v: dict) -> list[str]:
            deployable = {a.split()[1] for a in v["legal"] if a.startswith("DEPLOY ")}
            hand = v["observation"]["players"]["P1"]["hand"]
            return [card for card in hand if card not in deployable] if v["observation"]["window"] == "action" else []

        view = _advance(client, game_id, token, lambda v: bool(stuck(v)), _first_of("KEEP", "DEPLOY", "TO ", "END_"))
        card = stuck(view)[0]
        reason = client.post(f"/api/games/{game_id}/explain", json={"token": token, "action": f"DEPLOY {card}"}).json()[
            "reason"
        ]
        assert reason
        with _page(base, url) as page:
            page.locator(f'.acard[data-card="{card}"][data-explain="DEPLOY {card}"]').first.click(
                position={"x": 4, "y": 30}
            )
            notice = page.locator("#notice")
            notice.wait_for(state="visible")
            assert reason in notice.inner_text()
            assert notice.bounding_box()["y"] < VIEWPORT["height"]  # said where the player looks
        assert get_view(client, game_id, token)["version"] == view["version"]
