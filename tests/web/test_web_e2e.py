"""End to end in a real browser: Debian's Chromium plays an Edelweiss game through the front end."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from cardlab.games import game_class, game_names
from cardlab.web.app import create_app
from tests.web.helpers import CHROMIUM, NEEDS_CHROMIUM, first_mover, serve

sync_api = pytest.importorskip("playwright.sync_api")

STATIC = Path(__file__).resolve().parents[2] / "src" / "cardlab" / "web" / "static"
GAME_TIMEOUT = 60.0
SIZES = {"desktop": (1366, 900), "phone": (390, 844)}

pytestmark = NEEDS_CHROMIUM


def test_front_end_files_exist() -> None:
    for name in ("game.html", "game.js", "index.html", "common.js", "lobby.js"):
        assert (STATIC / name).is_file(), name
    for game in game_names():  # each game ships its own board and rules page
        assert set(game_class(game).web_assets()) == {"render.js", "style.css", "rules.html"}, game
    html = (STATIC / "game.html").read_text(encoding="utf-8")
    for element in ('id="legal"', 'id="result"', 'id="log"'):
        assert element in html, element


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height, from its header."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def screenshots(page: Any, folder: Path, moment: str) -> list[Path]:
    """The page at each size (desktop, then phone), saved as `MOMENT-SIZE.png`; the desktop size is kept."""
    folder.mkdir(exist_ok=True)
    taken = []
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(f"window.innerWidth === {width}")
        taken.append(folder / f"{moment}-{size}.png")
        page.screenshot(path=str(taken[-1]))
    width, height = SIZES["desktop"]
    page.set_viewport_size({"width": width, "height": height})
    return taken


def test_browser_plays_a_game_to_the_end(tmp_path: Path) -> None:
    """Edelweiss against the random agent, by clicks only; screenshots at the desktop and phone sizes, as
    the game opens and as it ends, are saved under the test's temp dir (`screens/`)."""
    shots_dir = tmp_path / "screens"
    seed = next(s for s in range(100) if first_mover("edelweiss", None, s) == "P1")
    app = create_app(tmp_path / "play.sqlite", agent_delay=0.0)
    console_errors: list[str] = []
    with serve(app) as base:
        with httpx.Client(base_url=base, timeout=10.0) as client:
            body = {"game": "edelweiss", "config": None, "seats": {"P1": "human", "P2": "random"}, "seed": seed}
            created = client.post("/api/games", json=body)
            assert created.status_code == 201, created.text
            url = created.json()["urls"]["P1"]
            game_id = created.json()["id"]
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--headless=new"])
            try:
                page = browser.new_page(viewport=dict(zip(("width", "height"), SIZES["desktop"], strict=True)))
                page.on("console", lambda msg: msg.type == "error" and console_errors.append(msg.text))
                page.on("pageerror", lambda exc: console_errors.append(str(exc)))
                page.goto(base + url)
                page.wait_for_selector("#legal button[data-action]")
                shots = screenshots(page, shots_dir, "start")
                clicks = play_in_browser(page)
                shots += screenshots(page, shots_dir, "end")
                result = page.locator("#result")
                text = result.inner_text()
                assert re.search(r"\bwin", text, re.IGNORECASE), text
                winner = result.get_attribute("data-winner")
                assert winner in ("P1", "P2")
                assert page.locator("#log li").count() > 0, "the event log shows what happened"
            finally:
                browser.close()
        with httpx.Client(base_url=base, timeout=10.0) as client:
            final = client.get(f"/api/games/{game_id}").json()
    assert final["status"] == "over" and final["result"]["winner"] == winner
    assert clicks > 0
    expected = {f"{moment}-{size}.png" for moment in ("start", "end") for size in ("desktop", "phone")}
    assert {path.name for path in shots_dir.iterdir()} == {path.name for path in shots} == expected
    for shot in shots:  # each a PNG of the whole window at its size
        size = shot.stem.split("-")[1]
        assert png_size(shot) == SIZES[size], (shot.name, png_size(shot))
    assert not console_errors, console_errors
    app.state.manager.db.close()


def play_in_browser(page: Any) -> int:
    """Click the first legal action until the result banner shows; the number of clicks."""
    deadline = time.monotonic() + GAME_TIMEOUT
    result = page.locator("#result")
    button = page.locator("#legal button[data-action]:enabled").first
    clicks = 0
    while not result.is_visible():
        assert time.monotonic() < deadline, "the game did not end in the browser"
        try:
            button.wait_for(state="visible", timeout=2000)
            button.click(timeout=2000)
            clicks += 1
        except sync_api.Error:
            continue  # re-rendered between the wait and the click, or the game just ended
    return clicks


def test_the_lobby_builds_each_games_form_from_its_declared_options(tmp_path: Path) -> None:
    """The lobby knows no game: its form comes from /api/meta, and what it sends builds the game."""
    app = create_app(tmp_path / "play.sqlite", agent_delay=0.0)
    console_errors: list[str] = []
    with serve(app) as base, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--headless=new"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.on("console", lambda msg: msg.type == "error" and console_errors.append(msg.text))
            page.on("pageerror", lambda exc: console_errors.append(str(exc)))
            page.goto(base + "/")
            page.wait_for_selector("#opt-deck")  # /api/meta loaded and the first game's form drawn
            created = {}
            for game, choices in (
                ("edelweiss", {"deck": "skills", "standard": "accel2", "characters_P1": "EAGLE"}),
                ("aterial", {"decks_P1": "D2", "leaders_P2": "L03", "first": "P2"}),
                ("dreadnought", {"decks_P2": "ember_spark", "casters_P1": "X02+X03"}),
            ):
                page.select_option("#game", game)
                for option in game_class(game).options:
                    if option.web:  # one field per seat for a per-seat option
                        keys = [f"{option.name}_{seat}" for seat in ("P1", "P2")] if option.per_seat else [option.name]
                        for key in keys:
                            assert page.locator(f"#opt-{key}").count() == 1, (game, key)
                assert page.locator("#opt-cards").count() == 0  # files are never offered in the browser
                for key, value in choices.items():
                    page.select_option(f"#opt-{key}", value)
                if game == "edelweiss":  # a rule variant (#17): one select per rule option, defaults preselected
                    assert page.locator("#rule-deck_out_tie").input_value() == "P2"
                    page.click("details.advanced-rules > summary")  # the variants are folded away (#51)
                    page.select_option("#rule-first_draw", "no")
                page.select_option("#seat-P2", "human")  # two humans: the lobby shows both links
                page.click("#create")
                page.wait_for_selector(f"#created[data-game-id]:not([hidden]) >> text={game_class(game).title}")
                created[game] = page.locator("#created").get_attribute("data-game-id")
            page.goto(base + page.locator("#created a.game-link").first.get_attribute("href"))
            page.wait_for_selector("#board *")
            page.goto(base + "/")  # one human seat against the AI: its creator is taken to it
            page.wait_for_selector("#opt-deck")
            page.select_option("#opt-deck", "full")  # standard and characters hidden, so not sent
            page.select_option("#seat-P2", "random")
            page.click("#create")
            page.wait_for_url(re.compile(r"/play/[^/?]+\?token="))
            page.wait_for_selector("#board *")
        finally:
            browser.close()
        with httpx.Client(base_url=base, timeout=10.0) as client:
            configs = {game: client.get(f"/api/games/{gid}").json()["observation"] for game, gid in created.items()}
            stored = {game: app.state.manager.get(gid).game.config_json() for game, gid in created.items()}
    assert stored["edelweiss"]["standard"] == "accel2" and stored["edelweiss"]["characters"]["P1"] == "EAGLE"
    assert stored["edelweiss"]["rules"] == {"first_draw": "no"} and "rules" not in stored["aterial"]
    assert stored["aterial"]["decks"]["P1"] == "D2" and stored["aterial"]["leaders"] == {"P1": None, "P2": "L03"}
    assert stored["aterial"]["first"] == "P2"
    assert stored["dreadnought"]["decks"] == {"P1": "ember_spark", "P2": "ember_spark"}
    assert stored["dreadnought"]["casters"]["P1"] == ["X02", "X03"] and stored["dreadnought"]["casters"]["P2"] is None
    assert all(configs.values())
    assert not console_errors, console_errors
    app.state.manager.db.close()


def test_an_error_page_links_back_to_the_lobby(tmp_path: Path) -> None:
    app = create_app(tmp_path / "play.sqlite", agent_delay=0.0)
    with serve(app) as base, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--headless=new"])
        try:
            page = browser.new_page()
            for path, selector in (
                ("/play/no-such-game", "#status a.lobby-link"),
                ("/replay/no-such-game", "a.lobby-link"),
            ):
                page.goto(base + path)
                link = page.wait_for_selector(selector)
                assert link.get_attribute("href") == "/" and link.inner_text() == "back to the lobby"
        finally:
            browser.close()
    app.state.manager.db.close()
