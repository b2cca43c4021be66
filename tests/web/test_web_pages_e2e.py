"""The pages around the board in a real browser (issue #35): the rules page shows each game's glossary
and how it is won, the lobby's "My games" follows a game that ends while the lobby is open, a running
game's replay says whose view it shows, and a replay's cards explain themselves too."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from cardlab.games import game_class, game_names
from cardlab.web.app import create_app
from tests.web.helpers import CHROMIUM, NEEDS_CHROMIUM, create, play_humans, serve

sync_api = pytest.importorskip("playwright.sync_api")


pytestmark = NEEDS_CHROMIUM


def test_rules_lobby_and_replay_pages(tmp_path: Path) -> None:
    app = create_app(tmp_path / "play.sqlite", agent_delay=0.0)
    errors: list[str] = []
    with serve(app) as base, httpx.Client(base_url=base, timeout=10.0) as client, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--headless=new"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.on("console", lambda msg: errors.extend([msg.text] if msg.type == "error" else []))
            page.on("pageerror", lambda exc: errors.append(str(exc)))

            for game in game_names():
                built = game_class(game)()
                glossary = dict(built.glossary())
                page.goto(f"{base}/rules/{game}")
                page.wait_for_selector("#glossary dt")
                terms = page.locator("#glossary dt").evaluate_all("dts => dts.map((dt) => dt.dataset.glossaryTerm)")
                assert terms == list(glossary), game
                assert built.how_to_win() in page.locator("#how-to-win").inner_text()
                catalog = [built.card_words(card) for card in built.card_catalog()]  # then every card, in words
                shown = page.locator("#cards dt").evaluate_all("dts => dts.map((dt) => dt.textContent)")
                assert shown == [words.name for words in catalog if words], game
                first = page.locator("#cards dd").first.inner_text()
                assert catalog[0] and catalog[0].stats in first and all(line in first for line in catalog[0].abilities)
                mention = page.locator("#glossary dd [data-term]").first  # a term inside another's explanation
                mention.hover()
                popover = page.locator("#popover")
                popover.wait_for(state="visible")
                assert glossary[mention.get_attribute("data-term")] in popover.inner_text()

            created = create(client, "edelweiss", {"deck": "short"}, seed=4)
            page.goto(base + created["urls"]["P1"])  # the game page remembers the game for the lobby
            page.wait_for_selector("#board *")
            page.goto(base + "/")
            status = page.locator(f'#my-games li[data-game-id="{created["id"]}"] .game-status')
            status.wait_for(state="visible")
            page.wait_for_function(
                f"""document.querySelector('#my-games li[data-game-id="{created["id"]}"] .game-status')
                    .dataset.status === 'running'"""
            )
            lobby = page
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            # a running game's replay says whose view it shows: a seat's own hand, or public information only
            for query, title, yours in ((f"?token={created['tokens']['P1']}", "your view", 1), ("", "public view", 0)):
                page.goto(f"{base}/replay/{created['id']}{query}")
                page.wait_for_selector("#board *")
                assert f"(still running: {title})" in page.locator("#title").inner_text()
                assert page.locator("#board .seat-name", has_text="(you)").count() == yours, title
            page.close()
            page = lobby
            play_humans(client, created["id"], created["tokens"])  # it ends while the lobby stays open
            started = time.monotonic()
            page.wait_for_function(
                f"""document.querySelector('#my-games li[data-game-id="{created["id"]}"] .game-status')
                    .dataset.status === 'over'""",
                timeout=15000,
            )
            assert time.monotonic() - started < 15
            assert status.inner_text().startswith("over")

            page.goto(f"{base}/replay/{created['id']}")
            card = page.locator("#board [data-words]").first
            card.wait_for(state="visible")
            card.hover(position={"x": 3, "y": 3})
            page.locator("#popover").wait_for(state="visible")
            assert page.locator("#popover .cw-ability").count() > 0
        finally:
            browser.close()
    assert not errors, errors
    app.state.manager.db.close()
