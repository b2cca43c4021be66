"""The play page's live updates in a real browser: the socket's first message repeats the view the page loaded
with a GET, and must not redraw the board (a redraw closes the explanation the player is reading, and replaces
the nodes a click or a measurement was aimed at)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from cardlab.web.app import create_app
from tests.web.helpers import CHROMIUM, EDELWEISS_SKILLS, NEEDS_CHROMIUM, create, first_mover, serve

sync_api = pytest.importorskip("playwright.sync_api")


pytestmark = NEEDS_CHROMIUM


def test_the_sockets_repeat_of_the_loaded_view_leaves_the_board_and_its_explanation(tmp_path: Path) -> None:
    app = create_app(tmp_path / "play.sqlite", agent_delay=0.0)
    with serve(app) as base, httpx.Client(base_url=base, timeout=10.0) as client, sync_api.sync_playwright() as p:
        created = create(client, "edelweiss", EDELWEISS_SKILLS, "human", "human", 3)
        seat = first_mover("edelweiss", EDELWEISS_SKILLS, 3)
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--headless=new"])
        try:
            page = browser.new_page(viewport={"width": 1366, "height": 900})
            held: list[str | bytes] = []
            sockets: list[Any] = []

            def hold_the_servers_messages(route: Any) -> None:
                server = route.connect_to_server()
                server.on_message(lambda message: held.append(message))  # kept until the test passes it on
                sockets.append(route)

            page.route_web_socket(re.compile(r"/ws/games/"), hold_the_servers_messages)
            page.goto(base + created["urls"][seat])
            page.wait_for_selector('[data-zone="hand"] [data-words]')
            page.wait_for_function("document.getElementById('conn').textContent === 'live'")
            for _ in range(100):
                if held:
                    break
                page.wait_for_timeout(50)
            assert held, "the server sends the view when the socket opens"
            page.evaluate("document.querySelector('#board > *').dataset.drawnBefore = 'yes'")
            page.locator('[data-zone="hand"] [data-words]').first.hover(position={"x": 3, "y": 3})
            page.locator("#popover").wait_for(state="visible", timeout=3000)

            sockets[0].send(held[0])  # the repeat of the loaded view reaches the page
            page.wait_for_timeout(500)
            assert page.locator("#popover").is_visible(), "the explanation closed"
            assert page.locator("#board > [data-drawn-before='yes']").count() == 1, "the board was drawn again"
        finally:
            browser.close()
    app.state.manager.db.close()
