"""End to end in a real browser: Debian's Chromium plays an Edelweiss game through the front end."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from cardlab.games import game_class
from cardlab.web.app import create_app
from tests.web.helpers import first_mover, serve

sync_api = pytest.importorskip("playwright.sync_api")

CHROMIUM = Path("/usr/bin/chromium")
STATIC = Path(__file__).resolve().parents[2] / "src" / "cardlab" / "web" / "static"
GAME_TIMEOUT = 60.0

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's Chromium is not installed (/usr/bin/chromium; apt-get install chromium)"
)


def test_front_end_files_exist() -> None:
    for name in ("game.html", "game.js", "index.html", "common.js", "lobby.js"):
        assert (STATIC / name).is_file(), name
    for game in ("edelweiss", "aterial", "dreadnought"):  # each game ships its own board and rules page
        assert set(game_class(game).web_assets()) == {"render.js", "style.css", "rules.html"}, game
    html = (STATIC / "game.html").read_text(encoding="utf-8")
    for element in ('id="legal"', 'id="result"', 'id="log"'):
        assert element in html, element


def test_browser_plays_a_game_to_the_end(tmp_path: Path) -> None:
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
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.on("console", lambda msg: msg.type == "error" and console_errors.append(msg.text))
                page.on("pageerror", lambda exc: console_errors.append(str(exc)))
                page.goto(base + url)
                clicks = play_in_browser(page)
                result = page.locator("#result")
                text = result.inner_text()
                assert re.search(r"\bwin", text, re.IGNORECASE), text
                winner = result.get_attribute("data-winner")
                assert winner in ("P1", "P2")
                assert page.locator("#log li").count() > 0, "the event log shows what happened"
                shot = tmp_path / "game.png"
                page.screenshot(path=str(shot), full_page=True)
            finally:
                browser.close()
        with httpx.Client(base_url=base, timeout=10.0) as client:
            final = client.get(f"/api/games/{game_id}").json()
    assert final["status"] == "over" and final["result"]["winner"] == winner
    assert clicks > 0
    assert shot.is_file() and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
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
