"""No engine notation reaches a player anywhere (issue #35 item 1).

Every card of every packaged set of every game goes through each place a player reads it: the
terminal's `card ID` (`Game.card_text`), the web payload (`LiveGame.cards`, what every view, replay
and the popovers get), and the browser's own layout of a card (the face and the popover, from
common.js in Chromium). The rules pages too, outside the actions typed as commands. Each must read
as words: no `name(key=value)`, `(key=value)`, `[zone=...]` or snake_case.
"""

from __future__ import annotations

import html
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from cardlab.core.cardwords import ENGINE_NOTATION
from cardlab.core.game import Game
from cardlab.games import REGISTRY, game_class, game_names
from cardlab.web.app import create_app
from tests.web.helpers import CHROMIUM, NEEDS_CHROMIUM, create, serve

TYPED = re.compile(r"<code>\s*[A-Z][A-Z_]*\b[^<]*</code>")
"""An action as the terminal types it (`ACTIVATE B0 tap_snipe`): the one place its spelling is the point."""


def _aterial(game: Game) -> list[str]:
    return sorted(game.card_set.cards)  # type: ignore[attr-defined]


def _dreadnought(game: Game) -> list[str]:
    return sorted(game.card_set.by_id)  # type: ignore[attr-defined]


def _edelweiss(game: Game) -> list[str]:
    from cardlab.games.edelweiss.cards import CARD_NAMES, CHARACTERS

    return [*CARD_NAMES, *CHARACTERS]


SETS: dict[str, tuple[Callable[[Game], list[str]], list[dict[str, Any]]]] = {
    "aterial": (_aterial, [{}]),
    "dreadnought": (_dreadnought, [{}]),
    "edelweiss": (
        _edelweiss,
        [{}, {"deck": "skills", "standard": "symbolic"}, {"deck": "skills", "standard": "accel2"}],
    ),
}
"""Per game: its cards (every packaged deck draws from this one set), and the options its words depend on."""


def _games() -> Iterator[tuple[str, dict[str, Any], Game]]:
    for name, (_, variants) in SETS.items():
        for options in variants:
            yield name, options, game_class(name).from_options(options, random.Random(0))


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)


def test_every_packaged_game_is_walked() -> None:
    packaged = {name for name in game_names() if REGISTRY.game_class(name).__module__.startswith("cardlab.games.")}
    assert set(SETS) == packaged


@pytest.mark.parametrize(
    ("name", "options", "game"), list(_games()), ids=lambda v: str(v) if isinstance(v, str) else ""
)
def test_every_card_in_the_terminal_and_the_web_payload_reads_as_words(
    client: Any, name: str, options: dict, game: Game
) -> None:
    cards = SETS[name][0](game)
    assert len(cards) >= 6
    for card in cards:
        text = game.card_text(card)
        assert text and not ENGINE_NOTATION.search(text), (card, text)
    created = create(client, name, game.config_json(), seed=1)
    live = client.app.state.manager.get(created["id"])
    payload = live.cards({"named": " ".join(cards)})
    assert set(payload) == set(cards)
    for card, entry in payload.items():
        for text in _strings(entry):
            assert not ENGINE_NOTATION.search(text), (card, text)


@pytest.mark.parametrize("name", sorted(SETS))
def test_the_rules_page_reads_as_words(client: Any, name: str) -> None:
    """The summary outside the typed commands, then the glossary and how to win beside it."""
    fragment = client.get(f"/api/rules/{name}").text
    text = html.unescape(re.sub(r"<[^>]+>", " ", TYPED.sub(" ", fragment)))
    assert len(text) > 1000
    assert not ENGINE_NOTATION.search(text), ENGINE_NOTATION.findall(text)
    served = client.get(f"/api/glossary/{name}").json()
    for text in (served["how_to_win"], *served["glossary"], *served["glossary"].values()):
        assert not ENGINE_NOTATION.search(text), text
    catalog = game_class(name)().card_catalog()
    assert [card["id"] for card in served["cards"]] == list(catalog) and catalog
    for card in served["cards"]:
        for text in (card["name"], card["stats"], *card["abilities"]):
            assert not ENGINE_NOTATION.search(text), (card["id"], text)


@NEEDS_CHROMIUM
def test_every_card_face_and_popover_in_the_browser_reads_as_words(tmp_path: Path) -> None:
    """common.js lays out each card as the boards' faces and the popover do; none of it is notation."""
    sync_api = pytest.importorskip("playwright.sync_api")
    app = create_app(tmp_path / "play.sqlite", agent_delay=0.0)
    laid_out: dict[str, list[str]] = {}
    with serve(app) as base, httpx.Client(base_url=base, timeout=10.0) as client, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--headless=new"])
        try:
            page = browser.new_page()
            page.goto(f"{base}/rules/aterial")
            for name, _, game in _games():
                created = create(client, name, game.config_json(), seed=1)
                cards = app.state.manager.get(created["id"]).cards({"named": " ".join(SETS[name][0](game))})
                laid_out[name] = page.evaluate(
                    """async (cards) => {
                        const common = await import("/static/common.js");
                        common.setCards(cards);
                        const box = document.createElement("div");
                        return Object.keys(cards).map((id) => {
                            const entry = common.cardEntry(id);
                            common.replace(box, common.h("div", null, entry.name), common.cardText(entry));
                            return `${id}: ${common.shortName(id, entry)} | ${box.textContent}`;
                        });
                    }""",
                    cards,
                )
        finally:
            browser.close()
    app.state.manager.db.close()
    assert set(laid_out) == set(SETS)
    for name, texts in laid_out.items():
        assert len(texts) >= 6, name
        bad = [text for text in texts if ENGINE_NOTATION.search(text)]
        assert not bad, (name, bad[:5])
