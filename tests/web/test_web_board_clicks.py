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
from tests.web.helpers import CHROMIUM, NEEDS_CHROMIUM, act, changed_stats, create, get_view, serve

sync_api = pytest.importorskip("playwright.sync_api")

VIEWPORT = {"width": 1280, "height": 900}

pytestmark = NEEDS_CHROMIUM


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
            chosen = aiming["observation"]["players"]["P1"]["field"][attacker]["card"]
            pending = page.locator("#pending").inner_text()  # the attacker by name too
            assert f"{aiming['cards'][chosen]['name']} (P1:{attacker})" in pending, pending
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


def _click_says_why(page: Any, selector: str, reason: str) -> None:
    """A click on the card at `selector` shows the server's reason where the player looks."""
    page.locator(selector).first.click(position={"x": 4, "y": 30})
    notice = page.locator("#notice")
    notice.wait_for(state="visible")
    assert reason in notice.inner_text(), (notice.inner_text(), reason)
    box = notice.bounding_box()
    assert box is not None and box["y"] < VIEWPORT["height"]  # said where the player looks


def test_dreadnought_a_card_that_cannot_be_cast_says_why(tmp_path: Path) -> None:
    """In the cast actions, a hand card that cannot be cast or played now (too expensive, no room, a code
    out of its timing) says why when clicked (D8.2, D12.4) and plays nothing; if it may still go down as a
    dummy, the dummy stays an explicit choice in its bar."""
    with _game(tmp_path, "dreadnought", None, 3) as (base, client, game_id, url):
        token = _token(url)

        def stuck(v: dict) -> list[str]:
            if v["observation"]["window"] != "cast_window":
                return []
            played = {a.split()[1] for a in v["legal"] if a.startswith(("CAST ", "PLAY "))}
            return [card for card in v["observation"]["players"]["P1"]["hand"] if card not in played]

        view = _advance(client, game_id, token, lambda v: bool(stuck(v)), _first_of("KEEP", "CAST", "TO ", "DONE"))
        card = stuck(view)[0]
        verb = "PLAY" if str(view["cards"][card]["stats"]).startswith("code") else "CAST"
        answer = client.post(f"/api/games/{game_id}/explain", json={"token": token, "action": f"{verb} {card}"}).json()
        assert answer["legal"] is False and answer["reason"], answer
        dummies = sorted(a for a in view["legal"] if a.startswith(f"DUMMY {card} "))
        with _page(base, url) as page:
            _click_says_why(
                page, f'.hand-zone.mine .dcard[data-card="{card}"][data-explain="{verb} {card}"]', answer["reason"]
            )
            bar = page.locator(f'.choice-bar[data-selected="card:{card}"] button[data-action]')
            assert sorted(bar.nth(i).get_attribute("data-action") for i in range(bar.count())) == dummies
        assert get_view(client, game_id, token)["version"] == view["version"]


def test_edelweiss_a_card_that_cannot_be_played_says_why(tmp_path: Path) -> None:
    """In the attack phase a hand card cannot be summoned: a click on it says so (E4.1, E5.1), and plays nothing."""
    config = {"deck": "skills", "standard": "accel2", "characters": {"P1": "GARU", "P2": "EAGLE"}}
    with _game(tmp_path, "edelweiss", config, 3) as (base, client, game_id, url):
        token = _token(url)

        def stuck(v: dict) -> list[str]:
            if v["observation"]["window"] != "attack":
                return []
            return [card for card in v["observation"]["players"]["P1"]["hand"] if isinstance(card, str)]

        view = _advance(client, game_id, token, lambda v: bool(stuck(v)), _first_of("SUMMON", "GUARD", "END_TURN"))
        card = stuck(view)[0]
        action = f"SUMMON {card[-1]}"
        answer = client.post(f"/api/games/{game_id}/explain", json={"token": token, "action": action}).json()
        assert answer["legal"] is False and answer["reason"], answer
        with _page(base, url) as page:
            _click_says_why(
                page, f'.hand-zone.mine .card[data-card="{card}"][data-explain="{action}"]', answer["reason"]
            )
        assert get_view(client, game_id, token)["version"] == view["version"]


def _checked_places(view: dict) -> list[str]:
    """The field places ("P1:BA1.U1", "P2:BA2.C") whose card is checked, from a view's observation."""
    places = []
    for seat, player in view["observation"]["players"].items():
        for area in ("BA1", "BA2"):
            block = player[area]
            if (block.get("caster") or {}).get("checked"):
                places.append(f"{seat}:{area}.C")
            places += [
                f"{seat}:{area}.U{k + 1}"
                for k, unit in enumerate(block.get("units", []))
                if unit and unit.get("checked")
            ]
    return places


def test_dreadnought_a_checked_card_is_marked_and_stays_upright(tmp_path: Path) -> None:
    """Issue #35 items 3 and 5: a checked unit or caster (D12.3, after it attacks) keeps its text upright and
    readable, with a "checked" mark that explains itself; nothing on the board is turned on its side; a BP
    that differs from the printed card shows the printed BP struck through beside it; a caster at 0 HP
    is marked DOWN (D13.5)."""
    with _game(tmp_path, "dreadnought", None, 3) as (base, client, game_id, url):
        token = _token(url)
        choose = _first_of("KEEP", "PLAY", "USE", "ATTACKER", "ATTACK", "CAST", "TO ", "DONE", "PASS")
        view = _advance(
            client, game_id, token, lambda v: bool(_checked_places(v) and changed_stats("dreadnought", v)), choose
        )
        places = _checked_places(view)
        with _page(base, url) as page:
            changed = changed_stats("dreadnought", view)  # a BP changed by an effect: the printed BP struck through
            assert page.locator("#board .printed").count() == len(changed), changed
            for selector, printed in changed.items():
                assert page.locator(f"{selector} .printed").inner_text() == str(printed), selector
            for place in places:
                slot = page.locator(f'[data-slot="{place}"]')
                assert "checked" in (slot.get_attribute("class") or ""), place
                face = slot.locator(":is(.dunit, .dcaster)")
                assert face.locator(".state-mark[data-term='check']").inner_text().lower() == "checked", place
                assert face.evaluate("(n) => getComputedStyle(n).transform") == "none", place
            turned = page.locator("#board *").evaluate_all(
                "nodes => nodes.filter((n) => /matrix\\(0, ?[-]?1/.test(getComputedStyle(n).transform)).length"
            )
            assert turned == 0  # no quarter turn anywhere on the board
            page.locator(f'[data-slot="{places[0]}"] .state-mark').hover()
            page.locator("#popover").wait_for(state="visible")
            assert "check" in page.locator("#popover").inner_text().lower()
            # the same board with P2's BA1 caster at 0 HP (D13.5): it reads DOWN, a term that explains itself
            down = page.evaluate(
                """async (view) => {
                    const renderer = await import("/static/render/dreadnought.js");
                    view.observation.players.P2.BA1.hp = 0;
                    const box = document.createElement("div");
                    renderer.render(view, box, null);
                    const slot = box.querySelector('[data-slot="P2:BA1.C"]');
                    const mark = slot.querySelector(".down-mark");
                    return [slot.classList.contains("down"), mark && mark.textContent, mark && mark.dataset.term];
                }""",
                view,
            )
            assert down == [True, "DOWN", "down"], down
