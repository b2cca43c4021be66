"""Shared helpers for the web app tests: game configs, API drivers and a hidden-card oracle."""

from __future__ import annotations

import json
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium, which the browser tests drive through Playwright."""
NEEDS_CHROMIUM = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's Chromium is not installed (/usr/bin/chromium; apt-get install chromium)"
)
"""The mark of a browser test (a module's `pytestmark`, or one test's)."""

EDELWEISS_SKILLS = {"deck": "skills", "standard": "accel2", "characters": {"P1": "GARU", "P2": "EAGLE"}}
ATERIAL = {"decks": {"P1": "D1", "P2": "D2"}, "leaders": {"P1": None, "P2": None}, "first": None, "cards": None}
SEATS = ("P1", "P2")
VIEW_KEYS = {
    *("id", "game", "seat", "seats", "status", "version", "observation", "legal", "cards", "hint", "events", "result"),
}


def first_mover(game: str, config: Any, seed: int) -> str:
    """The seat that faces the first real choice of this game (computed offline)."""
    from cardlab.games import game_class

    built = game_class(game).from_config(config) if config else game_class(game)()
    return SEATS[built.new_state(seed, record_events=False).current_player()]


def ok(response: Any, status: int = 200) -> Any:
    """The JSON of a response that must have `status` (never a 5xx)."""
    assert response.status_code < 500, response.text
    assert response.status_code == status, (response.status_code, response.text)
    return response.json()


def create(client: Any, game: str, config: Any, p1: str = "human", p2: str = "human", seed: int | None = 1) -> dict:
    body: dict[str, Any] = {"game": game, "config": config, "seats": {"P1": p1, "P2": p2}}
    if seed is not None:
        body["seed"] = seed
    return ok(client.post("/api/games", json=body), 201)


def get_view(client: Any, game_id: str, token: str | None = None) -> dict:
    params = {} if token is None else {"token": token}
    return ok(client.get(f"/api/games/{game_id}", params=params))


def act(client: Any, game_id: str, token: str, action: str) -> dict:
    return ok(client.post(f"/api/games/{game_id}/actions", json={"token": token, "action": action}))


def to_move(view: dict) -> str | None:
    return view["observation"].get("to_move")


def play_humans(
    client: Any,
    game_id: str,
    tokens: dict[str, str],
    max_actions: int = 2000,
    on_view: Callable[[str, dict], None] | None = None,
) -> list[str]:
    """Drive a human-vs-human game to its end, each seat acting with its own token; the actions."""
    played: list[str] = []
    views = {seat: get_view(client, game_id, tokens[seat]) for seat in SEATS}
    base = views["P1"]["version"]
    while True:
        for seat in SEATS:
            if on_view is not None:
                on_view(seat, views[seat])
        if views["P1"]["status"] == "over":
            return played
        assert len(played) < max_actions, "the game did not end"
        seat = to_move(views["P1"])
        assert seat in SEATS
        assert views[seat]["legal"], views[seat]
        other = "P2" if seat == "P1" else "P1"
        assert views[other]["legal"] == []
        action = views[seat]["legal"][0]
        views[seat] = act(client, game_id, tokens[seat], action)
        played.append(action)
        assert views[seat]["version"] == base + len(played)
        views[other] = get_view(client, game_id, tokens[other])
        assert views[other]["version"] == base + len(played)


# -- hidden cards ---------------------------------------------------------------------------------


def _strings(node: Any) -> Iterator[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)


def _names(cards: Any) -> set[str]:
    """Card names in a zone; Edelweiss field entries look like `2C:T`."""
    names = set()
    for text in _strings(cards):
        names.add(text)
        names.add(text.split(":")[0])
    return names


class HiddenOracle:
    """What each seat (or a spectator) may not know, from the server's true positions over time.

    A card name counts as known to everybody once it has been seen in a public zone (field,
    discard, ...), and to a seat once it has been in that seat's hand; decks and the opponent's
    hand (minus Diamond-Dust-revealed cards) are hidden. Decks may hold several copies of a name,
    so names that are also known are not searched for (that would only flag a legal copy).
    """

    def __init__(self) -> None:
        self.public: set[str] = set()
        self.own: dict[str, set[str]] = {seat: set() for seat in SEATS}

    def update(self, position: dict) -> dict[str | None, set[str]]:
        """Record a true position; the hidden names per seat (None: spectator) at that moment."""
        decks: set[str] = set(_names(position.get("deck", [])))
        hands: dict[str, set[str]] = {}
        public_parts: list[Any] = []
        for key, value in position.items():
            if key not in ("deck", "players", "revealed", "config", "game", "shuffle_seed"):
                public_parts.append(value)
        for seat, player in position["players"].items():
            hands[seat] = _names(player.get("hand", []))
            decks |= _names(player.get("deck", []))
            public_parts.extend(value for key, value in player.items() if key not in ("hand", "deck"))
        self.public |= _names(public_parts)
        revealed = position.get("revealed") or {}
        for seat in SEATS:
            self.own[seat] |= hands[seat]
        hidden: dict[str | None, set[str]] = {}
        for seat in SEATS:
            other = "P2" if seat == "P1" else "P1"
            secret = decks | (hands[other] - _names(revealed.get(other, [])))
            hidden[seat] = secret - self.public - self.own[seat] - _names(revealed.get(other, []))
        everything_public = self.public | _names(list(revealed.values()))
        hidden[None] = (decks | hands["P1"] | hands["P2"]) - everything_public
        return hidden


_JSON_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def leaked(payload: Any, names: set[str]) -> list[str]:
    """Hidden card names found as whole JSON strings (keys or values) in `payload`."""
    text = payload if isinstance(payload, str) else json.dumps(payload)
    return sorted(names.intersection(_JSON_STRING.findall(text)))


# -- a real server on loopback --------------------------------------------------------------------


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serve(app: Any, timeout: float = 20.0, keep_alive: int = 300) -> Iterator[str]:
    """Run `app` under uvicorn on 127.0.0.1 in a thread; yields the base URL.

    The server keeps idle connections open for `keep_alive` seconds, longer than any test runs.
    With uvicorn's default of 5 s (also httpx's pool expiry), a pooled connection left idle for
    5 s on a loaded machine races the server's close, and the next request on it fails with
    httpx.ReadError before the server ever sees it: what failed CI's load test once.
    """
    import uvicorn

    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", lifespan="on", timeout_keep_alive=keep_alive
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        assert thread.is_alive(), "uvicorn exited during start-up"
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


# -- cards in words -------------------------------------------------------------------------------

_WORD_SPLIT = re.compile(r"[\s:@]+")


def _keys(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield str(key)
            yield from _keys(value)
    elif isinstance(node, list):
        for value in node:
            yield from _keys(value)


def describes_unseen(view: dict) -> list[str]:
    """Cards that `view["cards"]` describes but its observation and legal actions never name: a card
    described there must be one the viewer can already read (else its words could leak it)."""
    shown = [view["observation"], view.get("legal", [])]
    texts = [*_strings(shown), *_keys(shown)]
    words = {word for text in texts for word in _WORD_SPLIT.split(text)}
    return sorted(set(view.get("cards", {})) - words)


# -- stats changed from the printed card ----------------------------------------------------------


def _printed(entry: dict, label: str) -> int | None:
    found = re.search(rf"\b{label} (\d+)", str(entry["stats"]))
    return int(found.group(1)) if found else None


def changed_stats(game: str, view: dict) -> dict[str, int]:
    """The board's stats that differ from the printed card in `view` (Aterial's ATK and HP, Dreadnought's
    BP), as a CSS selector of the stat on the board -> the printed value."""
    obs, cards = view["observation"], view["cards"]
    expected: dict[str, int] = {}
    for seat, player in obs["players"].items():
        if game == "aterial":
            for square, unit in player["field"].items():
                for label, key in (("ATK", "attack"), ("HP", "hp")):
                    printed = _printed(cards[unit["card"]], label) if unit and unit["card"] in cards else None
                    if printed is not None and unit.get(key) is not None and unit[key] != printed:
                        expected[f'[data-square="{seat}:{square}"] .{label.lower()}'] = printed
        elif game == "dreadnought":
            places = {
                f"{area}.U{k + 1}": unit for area in ("BA1", "BA2") for k, unit in enumerate(player[area]["units"])
            }
            for place, unit in {**places, "IDOL": player.get("idol")}.items():
                printed = _printed(cards[unit["card"]], "BP") if unit and unit.get("card") in cards else None
                if printed is not None and not unit.get("dummy") and unit.get("bp") != printed:
                    expected[f'[data-slot="{seat}:{place}"] .bp'] = printed
    return expected


# -- accessibility (issue #55) --------------------------------------------------------------------

AXE_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
"""The WCAG 2.0 and 2.1 rules of levels A and AA: what the pages must pass."""
PASSIVE = ("PASS", "END", "DONE", "NO_", "KEEP")
"""Actions that give the turn away: a player who prefers them lets the AI end the game soon."""


def richest_options(game: str) -> dict[str, Any]:
    """Each web option of `game` at its last choice (both seats alike), as the lobby would send them: the
    variant with the most on its board (characters, skills, leaders), found without naming any game."""
    from cardlab.games import game_class

    options: dict[str, Any] = {}
    declared = [o for o in game_class(game).options if o.web and o.choices]
    for option in declared:
        value = option.choices[-1].value
        options[option.name] = {seat: value for seat in SEATS} if option.per_seat else value
    return {
        name: value
        for name, value in options.items()
        if (when := next(o.shown_when for o in declared if o.name == name)) is None or options.get(when[0]) in when[1]
    }


def create_against_ai(client: Any, game: str, seed: int, agent: str = "heuristic") -> dict:
    """A new game with its richest options: a human P1 against `agent`."""
    body = {"game": game, "options": richest_options(game), "seats": {"P1": "human", "P2": agent}, "seed": seed}
    return ok(client.post("/api/games", json=body), 201)


def play_as_p1(
    client: Any, game_id: str, token: str, choose: Callable[[dict], str], done: Callable[[dict], bool]
) -> dict:
    """Act as P1 through the API (the AI answers for P2) until `done(view)` or the game is over; that view."""
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the game never got there"
        view = get_view(client, game_id, token)
        if view["status"] == "over" or (view["legal"] and done(view)):
            return view
        if not view["legal"]:
            time.sleep(0.01)  # the AI is moving
            continue
        act(client, game_id, token, choose(view))


@contextmanager
def browser_site(db: Path, lab: Any = None) -> Iterator[tuple[str, Any, Any]]:
    """A server on loopback, an httpx client to it and a Chromium browser context at 1366x900, for a
    module's browser tests (one of each per module keeps the suite's time down): (base URL, client, context)."""
    import httpx
    from playwright.sync_api import sync_playwright

    from cardlab.web.app import create_app

    app = create_app(db, agent_delay=0.0, lab=lab)  # `lab`: the Lab's folder and database (LabSettings)
    with serve(app) as base, httpx.Client(base_url=base, timeout=10.0) as client, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--headless=new"])
        try:
            yield base, client, browser.new_context(viewport={"width": 1366, "height": 900})
        finally:
            browser.close()
    app.state.manager.db.close()


def axe_violations(page: Any, tags: tuple[str, ...] = AXE_TAGS) -> list[dict]:
    """axe-core's violations of `tags` on the page as it stands (axe is injected once per document)."""
    from axe_playwright_python.base import AXE_SCRIPT  # type: ignore[import-untyped]

    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE_SCRIPT)
    options = {"runOnly": {"type": "tag", "values": list(tags)}, "resultTypes": ["violations"]}
    result: dict = page.evaluate("(options) => axe.run(document, options)", options)
    return list(result["violations"])


AXE_SIZES = {"desktop": (1366, 900), "phone": (390, 844)}
"""The sizes every page must pass axe at: a laptop's window and a phone's."""


def audit(page: Any, where: str) -> list[str]:
    """The page's axe violations at each size, one line per element; the page is left at the size it had."""
    found, before = [], page.viewport_size
    for size, (width, height) in AXE_SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(f"window.innerWidth === {width}")
        found += axe_lines(f"{where} @{size}", axe_violations(page))
    page.set_viewport_size(before)
    page.wait_for_function(f"window.innerWidth === {before['width']}")
    return found


def axe_lines(where: str, violations: list[dict]) -> list[str]:
    """One line per element in violation: where, the rule, its impact, the element and axe's reason."""
    lines = []
    for violation in violations:
        for node in violation["nodes"]:
            target = " ".join(str(t) for t in node["target"])
            why = (node.get("failureSummary") or "").replace("\n", " ")
            lines.append(
                f"{where}: {violation['id']} ({violation['impact']}) at {target}: {node['html'][:160]} — {why}"
            )
    return lines
