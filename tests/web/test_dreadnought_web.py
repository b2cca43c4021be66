"""Dreadnought in the web app: lobby metadata, rules page, games against the AI, refusals and secrecy.

The secrecy check follows the true position after every action: the decks, bursts and HP stacks
(nobody may look at them, D1.5), the opponent's hand, closed speed card, mulligan set-aside and
dummies' cards. A card id counts as known once it was in a public place, or to a seat once that
seat held it, since copies share ids; every other hidden id must never reach that seat.
"""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

from tests.games.dreadnought.test_render import hidden_from
from tests.web.helpers import SEATS, VIEW_KEYS, act, create, describes_unseen, get_view, leaked, ok, to_move

DREADNOUGHT = {"decks": {"P1": "ember_spark", "P2": "tide_grove"}, "casters": {"P1": None, "P2": None}, "cards": None}
CARD_ID = re.compile(r"\b[A-Z][0-9]{2}\b")


def error(response: Any, status: int) -> dict:
    assert response.status_code < 500, response.text
    assert response.status_code == status, (response.status_code, response.text)
    body = response.json()
    assert isinstance(body.get("error"), str) and body["error"], body
    return body


def check_secrecy_shape(view: dict, seat: str | None) -> None:
    """Hidden zones are counts; bursts carry no card; unknown dummies no card (D1.5, D15)."""
    observation = view["observation"]
    assert observation["viewer"] == seat
    for owner, player in observation["players"].items():
        assert isinstance(player["deck"], int)
        assert all(set(burst) == {"checked"} for burst in player["bursts"])
        for area in ("BA1", "BA2"):
            assert isinstance(player[area]["hp"], int)
            for unit in player[area]["units"]:
                if unit["dummy"] and owner != seat:
                    assert unit["card"] is None or unit["known"]
        if owner != seat:
            assert isinstance(player["hand"], int)
            assert isinstance(player["gear"], int) and isinstance(player["mulligan"], int)
        else:
            assert isinstance(player["hand"], list)


# -- lobby, rules and pages -------------------------------------------------------------------------


def test_meta_lists_dreadnought(client: Any) -> None:
    meta = ok(client.get("/api/meta"))
    assert meta["games"]["dreadnought"]["title"] == "Dreadnought"


def test_rules_fragment_cites_the_rules(client: Any) -> None:
    response = client.get("/api/rules/dreadnought")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    text = response.text
    assert "<h1>" in text and "D10.6" in text and "D21.1" in text
    assert "<script" not in text.lower()
    assert client.get("/rules/dreadnought").status_code == 200


def test_front_end_files_exist() -> None:
    from cardlab.games.dreadnought import Dreadnought

    renderer = Dreadnought.web_assets()["render.js"].read_text(encoding="utf-8")
    assert "export function render(" in renderer and "export function actionLabel(" in renderer
    assert "innerHTML" not in renderer  # text goes in through textContent only
    from cardlab.games.dreadnought.cards import load_card_set

    # cards come from the server in words (view.cards, Game.card_words): no copy of the set in the board
    named = [card.name for card in load_card_set(None).by_id.values() if card.name in renderer]
    assert not named, named
    decks = next(option for option in Dreadnought.options if option.name == "decks")  # the lobby's form field
    assert decks.per_seat and decks.values == ("ember_spark", "tide_grove")


def test_lobby_configs_are_accepted(client: Any) -> None:
    for casters in ({"P1": None, "P2": None}, {"P1": ["X02", "X03"], "P2": ["X04", "X07"]}):
        config = {**DREADNOUGHT, "casters": casters}
        created = create(client, "dreadnought", config, seed=3)
        view = get_view(client, created["id"], created["tokens"]["P1"])
        assert view["observation"]["config"] == config
        assert view["title"] == "Dreadnought"


# -- playing against the AI -------------------------------------------------------------------------


def test_play_against_the_ai(client: Any) -> None:
    created = create(client, "dreadnought", DREADNOUGHT, "human", "random", seed=21)
    assert set(created["tokens"]) == {"P1"}
    game_id, token = created["id"], created["tokens"]["P1"]
    rng = random.Random(5)
    view = get_view(client, game_id, token)
    played = 0
    deadline = time.monotonic() + 30
    while played < 40 and view["status"] == "running":
        assert time.monotonic() < deadline, f"the agent did not move: {view['version']} {to_move(view)}"
        assert set(view) >= VIEW_KEYS
        check_secrecy_shape(view, "P1")
        if not view["legal"]:
            time.sleep(0.005)
            view = get_view(client, game_id, token)
            continue
        assert to_move(view) == "P1"
        assert isinstance(view["hint"], str) and view["hint"]
        view = act(client, game_id, token, rng.choice(view["legal"]))
        played += 1
    assert played == 40 or view["status"] == "over"
    assert view["version"] > played, "the agent made moves too"
    texts = [event["text"] for event in view["events"]]
    assert all(isinstance(text, str) and text for text in texts)
    assert not any(re.match(r"P2 draws [A-Z][0-9]{2}", text) for text in texts)
    assert any(text == "P2 draws a card." for text in texts)
    spectator = get_view(client, game_id)
    check_secrecy_shape(spectator, None)
    assert spectator["legal"] == []


def test_a_bad_action_is_refused_with_a_reason(client: Any) -> None:
    created = create(client, "dreadnought", DREADNOUGHT, seed=4)
    game_id, tokens = created["id"], created["tokens"]
    view = get_view(client, game_id, tokens["P1"])
    mover = to_move(view)
    waiter = "P2" if mover == "P1" else "P1"
    url = f"/api/games/{game_id}/actions"
    for action in ("ATTACK BA3", "PLAY R05", "TARGET P3:BA1.U1", "", "DONE"):
        body = error(client.post(url, json={"token": tokens[mover], "action": action}), 409)
        assert "illegal action" in body["error"]
        assert body["legal"] == get_view(client, game_id, tokens[mover])["legal"]
    legal = get_view(client, game_id, tokens[mover])["legal"]
    body = error(client.post(url, json={"token": tokens[waiter], "action": legal[0]}), 409)
    assert f"not {waiter}'s turn" in body["error"]
    error(client.post(url, json={"token": "nope", "action": legal[0]}), 403)
    assert get_view(client, game_id, tokens[mover])["version"] == 0


@pytest.mark.parametrize(
    ("config", "words"),
    [
        ({**DREADNOUGHT, "decks": {"P1": "no_such_deck", "P2": "tide_grove"}}, "config.decks.P1"),
        ({**DREADNOUGHT, "casters": {"P1": ["X01", "X04"], "P2": None}}, "D3.4"),
        ({**DREADNOUGHT, "casters": {"P1": ["X01"], "P2": None}}, "config.casters.P1"),
        ({**DREADNOUGHT, "speed": 3}, "config.speed"),
    ],
)
def test_a_bad_config_is_refused_with_a_reason(client: Any, config: dict, words: str) -> None:
    body = {"game": "dreadnought", "config": config, "seats": {"P1": "human", "P2": "random"}}
    assert words in error(client.post("/api/games", json=body), 422)["error"]


# -- secrecy over a whole game -----------------------------------------------------------------------


def _ids(node: Any) -> set[str]:
    text = json.dumps(node)
    return set(CARD_ID.findall(text))


class Oracle:
    """Hidden card ids per seat (None: a spectator), from the true positions seen so far."""

    def __init__(self) -> None:
        self.public: set[str] = set()
        self.own: dict[str, set[str]] = {seat: set() for seat in SEATS}

    def update(self, position: dict) -> dict[str | None, set[str]]:
        for seat, player in position["players"].items():
            self.public |= _ids([player[zone] for zone in ("discard", "speed", "limbo", "known_hand")])
            self.public |= {e["card"] for e in player["engraves"]}
            objects = [u for area in ("BA1", "BA2") for u in player[area]["units"]]
            objects += [player["idol"]] if player["idol"] else []
            for area in ("BA1", "BA2"):
                caster = player[area]["caster"]
                if caster is not None:
                    self.public |= {caster["card"]} | ({caster["arms"]} if caster.get("arms") else set())
            for obj in objects:
                if not obj.get("dummy") or obj.get("known"):
                    self.public.add(obj["card"])
                self.public |= set(obj.get("attached", []))
                self.public |= {e["card"] for e in obj.get("enchants", []) if not e.get("secret")}
            self.own[seat] |= _ids([player[zone] for zone in ("hand", "gear", "mulligan", "placement")])
            self.own[seat] |= {obj["card"] for obj in objects if obj.get("dummy")}
        hidden: dict[str | None, set[str]] = {None: hidden_from(position, None) - self.public}
        for seat in SEATS:
            hidden[seat] = hidden_from(position, seat) - self.public - self.own[seat]
        return hidden


def assert_nothing_hidden(payload: dict, names: set[str], where: str) -> None:
    assert not leaked(payload, names), f"{where}: {leaked(payload, names)}"
    if "observation" in payload:
        assert not describes_unseen(payload), f"{where}: words for unseen cards {describes_unseen(payload)}"
    words: set[str] = set()
    for event in payload.get("events", []):
        words |= set(CARD_ID.findall(event.get("text", "")))
    assert not words & names, f"{where}: event texts name {sorted(words & names)}"


@pytest.mark.parametrize("seed", [7, 8])
def test_no_hidden_card_reaches_a_seat(client: Any, seed: int) -> None:
    created = create(client, "dreadnought", DREADNOUGHT, seed=seed)
    game_id, tokens = created["id"], created["tokens"]
    live = client.app.state.manager.get(game_id)
    oracle = Oracle()
    rng = random.Random(seed)
    hidden = oracle.update(live.state.position())
    own_seen = 0
    for step in range(160):
        views = {seat: get_view(client, game_id, tokens[seat] if seat else None) for seat in (*SEATS, None)}
        for seat, view in views.items():
            check_secrecy_shape(view, seat)
            assert_nothing_hidden(view, hidden[seat], f"step {step} {seat}")
            if seat is not None and view["observation"]["players"][seat]["hand"]:
                own_seen += bool(leaked(view, {view["observation"]["players"][seat]["hand"][0]}))
        if step % 40 == 0:
            assert_nothing_hidden(ok(client.get(f"/api/games/{game_id}/replay")), hidden[None], f"replay {step}")
        if views[None]["status"] == "over":
            break
        mover = to_move(views[None])
        if step % 10 == 5:  # why a move with a hidden card is refused names no other hidden card
            for verb in sorted({action.split()[0] for action in views[mover]["legal"]} | {"CAST", "PLAY"})[:4]:
                for name in sorted(hidden[mover])[:3]:
                    body = {"token": tokens[mover], "action": f"{verb} {name}"}
                    answer = ok(client.post(f"/api/games/{game_id}/explain", json=body))
                    assert_nothing_hidden(answer, hidden[mover] - {name}, f"explain {verb} {name}")
                    assert not set(CARD_ID.findall(answer["reason"])) & (hidden[mover] - {name}), answer
        response = act(client, game_id, tokens[mover], rng.choice(views[mover]["legal"]))
        hidden = oracle.update(live.state.position())
        assert_nothing_hidden(response, hidden[mover], f"POST {step}")
    assert own_seen > 100, "own hands are visible (the search finds cards that are there)"
    assert any(hidden[seat] for seat in SEATS), "some cards were hidden at the end"


def test_the_checker_catches_a_planted_leak(client: Any) -> None:
    created = create(client, "dreadnought", DREADNOUGHT, seed=9)
    game_id, tokens = created["id"], created["tokens"]
    live = client.app.state.manager.get(game_id)
    view = get_view(client, game_id, tokens["P1"])
    while view["observation"]["window"] == "place":  # the hands are dealt once both casters are placed
        mover = to_move(view)
        act(client, game_id, tokens[mover], get_view(client, game_id, tokens[mover])["legal"][0])
        view = get_view(client, game_id, tokens["P1"])
    hidden = Oracle().update(live.state.position())
    assert_nothing_hidden(view, hidden["P1"], "clean")
    secret = sorted(hidden["P1"] & set(live.state.position()["players"]["P2"]["hand"]))[0]
    planted = json.loads(json.dumps(view))
    planted["observation"]["players"]["P2"]["hand"] = [secret]
    with pytest.raises(AssertionError, match=secret):
        assert_nothing_hidden(planted, hidden["P1"], "planted")
    view["events"].append({"kind": "draw", "player": "P2", "text": f"P2 draws {secret}."})
    with pytest.raises(AssertionError, match="event texts"):
        assert_nothing_hidden(view, hidden["P1"], "planted in text")


# -- the front end in a real browser ------------------------------------------------------------------


def test_browser_shows_the_board_and_plays(tmp_path: Path) -> None:
    """Debian's Chromium opens a game against the AI, clicks legal actions and sees the board redrawn."""
    sync_api = pytest.importorskip("playwright.sync_api")
    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        pytest.skip("Debian's Chromium is not installed (/usr/bin/chromium)")
    import httpx

    from cardlab.web.app import create_app
    from tests.web.helpers import serve

    app = create_app(tmp_path / "play.sqlite", agent_delay=0.0)
    errors: list[str] = []
    with serve(app) as base:
        with httpx.Client(base_url=base, timeout=10.0) as http:
            body = {"game": "dreadnought", "config": DREADNOUGHT, "seats": {"P1": "human", "P2": "random"}, "seed": 3}
            created = http.post("/api/games", json=body)
            assert created.status_code == 201, created.text
            url = created.json()["urls"]["P1"]
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(chromium), args=["--no-sandbox", "--headless=new"])
            try:
                page = browser.new_page(viewport={"width": 1280, "height": 1000})
                page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                page.goto(base + url)
                page.locator(".board.dreadnought").wait_for(timeout=10000)
                for slot in ("P1:BA1.C", "P2:BA2.U2", "P1:IDOL"):
                    assert page.locator(f'[data-slot="{slot}"]').count() == 1, slot
                clicks = 0
                deadline = time.monotonic() + 40
                while clicks < 30 and time.monotonic() < deadline and not page.locator("#result").is_visible():
                    button = page.locator("#legal button[data-action]:enabled").first
                    try:
                        button.wait_for(state="visible", timeout=2000)
                        button.click(timeout=2000)
                        clicks += 1
                    except sync_api.Error:
                        continue  # re-rendered between the wait and the click
                assert clicks >= 10
                assert page.locator(".dside.me .dcaster").count() == 2, "both own casters are on the board"
                assert "Ignis Varga" in page.locator(".board.dreadnought").inner_text()
                page.screenshot(path=str(tmp_path / "dreadnought.png"), full_page=True)
            finally:
                browser.close()
    assert not errors, errors
    app.state.manager.db.close()


@pytest.mark.parametrize(
    ("game", "config", "field"),
    [
        ("dreadnought", {"decks": {"P1": "/work/main/pyproject.toml", "P2": "tide_grove"}}, "config.decks.P1"),
        ("dreadnought", {"decks": {"P1": "ember_spark", "P2": "tide_grove"}, "cards": ["/etc/passwd"]}, "config.cards"),
        ("aterial", {"decks": {"P1": "D1", "P2": "../../secret.toml"}}, "config.decks.P2"),
        ("aterial", {"cards": ["/etc/hostname"]}, "config.cards"),
    ],
)
def test_web_configs_never_name_server_files(client, game: str, config: dict, field: str) -> None:
    """A browser may choose packaged decks only: a path would make the server open a file of its choosing."""
    body = {"game": game, "config": config, "seats": {"P1": "human", "P2": "random"}}
    detail = error(client.post("/api/games", json=body), 422)["error"]
    assert field in detail and "build-system" not in detail and "root" not in detail
