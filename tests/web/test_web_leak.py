"""No response or push ever shows a seat (or a spectator) a card it may not know.

The hidden card names are computed from the server's true state at the moment of each response:
the decks and the opponent's hand, minus Diamond-Dust-revealed cards and names already public or
once held by the seat (copies of such names may legally be seen).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.web.helpers import (
    ATERIAL,
    EDELWEISS_SKILLS,
    SEATS,
    HiddenOracle,
    act,
    create,
    describes_unseen,
    get_view,
    leaked,
    ok,
    to_move,
)

SUITS = {"H": "♥", "D": "♦", "C": "♣", "S": "♠"}


def text_forms(name: str) -> list[str]:
    """How a card name may appear inside an event's text."""
    forms = [name]
    if name[-1:] in SUITS and name[:-1] in {"A", "J", "Q", "K", *map(str, range(2, 11))}:
        forms.append(name[:-1] + SUITS[name[-1]])
    return forms


WORD = re.compile(r"[0-9A-Za-z♥♦♣♠]+")


def leaked_in_texts(view: dict, names: set[str]) -> list[str]:
    """Hidden cards named in the events' sentences (e.g. `P2 draws 10♣.`)."""
    words = set()
    for event in view.get("events", []):
        words.update(WORD.findall(event.get("text", "")))
    return sorted(name for name in names if any(form in words for form in text_forms(name)))


class Checker:
    def __init__(self, client: Any, game_id: str) -> None:
        self.live = client.app.state.manager.get(game_id)
        self.oracle = HiddenOracle()
        self.hidden: dict[str | None, set[str]] = {}
        self.checked = 0
        self.seen_own = 0
        self.refresh()

    def refresh(self) -> None:
        self.hidden = self.oracle.update(self.live.state.position())

    def check(self, seat: str | None, payload: Any, where: str) -> None:
        if isinstance(payload, dict) and payload.get("status") == "over":
            return  # after the end nothing is secret any more
        names = self.hidden[seat]
        text = json.dumps(payload)
        assert not leaked(text, names), f"{where}: {seat} sees {leaked(text, names)}"
        if isinstance(payload, dict):
            assert not leaked_in_texts(payload, names), f"{where}: {seat} reads {leaked_in_texts(payload, names)}"
            if "observation" in payload:  # cards in words: only cards the view itself names
                assert not describes_unseen(payload), f"{where}: {seat} gets words for {describes_unseen(payload)}"
            if seat is not None and payload["observation"]["players"][seat]["hand"]:
                own = payload["observation"]["players"][seat]["hand"][0]
                self.seen_own += leaked(text, {own}) == [own]  # the search does find cards that are there
        self.checked += 1


CASES = [
    ("edelweiss", None, 1),
    ("edelweiss", None, 2),
    ("edelweiss", EDELWEISS_SKILLS, 3),
    ("edelweiss", EDELWEISS_SKILLS, 4),
    ("edelweiss", EDELWEISS_SKILLS, 5),
    ("edelweiss", {**EDELWEISS_SKILLS, "characters": {"P1": "EAGLE", "P2": "GARU"}}, 6),
    ("aterial", ATERIAL, 7),
    ("aterial", {**ATERIAL, "decks": {"P1": "D2", "P2": "D1"}}, 8),
]


@pytest.mark.parametrize(("game", "config", "seed"), CASES)
def test_no_hidden_card_reaches_a_seat(client: Any, game: str, config: Any, seed: int) -> None:
    play_and_check(client, game, config, seed)


def play_and_check(client: Any, game: str, config: Any, seed: int) -> bool:
    created = create(client, game, config, seed=seed)
    game_id, tokens = created["id"], created["tokens"]
    checker = Checker(client, game_id)
    revealed_any = False
    with (
        client.websocket_connect(f"/ws/games/{game_id}?token={tokens['P1']}") as ws1,
        client.websocket_connect(f"/ws/games/{game_id}?token={tokens['P2']}") as ws2,
        client.websocket_connect(f"/ws/games/{game_id}") as ws0,
    ):
        sockets = {"P1": ws1, "P2": ws2, None: ws0}

        latest: dict[str | None, dict] = {}

        def drain(version: int) -> None:
            for seat, ws in sockets.items():
                message = ws.receive_json()
                assert message["version"] == version and message["seat"] == seat
                checker.check(seat, message, f"socket v{version}")
                latest[seat] = message

        drain(0)
        for step in range(1, 3000):
            over = latest[None]["status"] == "over"
            if step % 7 == 1 or over:  # the API's views too (the sockets already carry the same)
                for seat in (*SEATS, None):
                    view = get_view(client, game_id, tokens[seat] if seat else None)
                    checker.check(seat, view, f"GET v{step - 1}")
                    assert view == latest[seat]
            if step % 25 == 1 or over:
                checker.check(None, client.get(f"/api/games/{game_id}/replay").json(), f"replay v{step - 1}")
            if over:
                break
            mover = to_move(latest[None])
            if step % 7 == 1:
                check_explanations(client, game_id, tokens[mover], latest[mover], checker.hidden[mover])
            response = act(client, game_id, tokens[mover], latest[mover]["legal"][0])
            checker.refresh()
            revealed_any = revealed_any or bool(checker.live.state.position().get("revealed"))
            checker.check(mover, response, f"POST v{step}")
            drain(step)
        else:
            pytest.fail("the game did not end")
    final = get_view(client, game_id)
    assert final["status"] == "over"
    assert checker.checked > 4 * final["version"]
    assert checker.seen_own > final["version"], "own hands should be visible (the search works)"
    return revealed_any


def check_explanations(client: Any, game_id: str, token: str, view: dict, hidden: set[str]) -> None:
    """Why a move with a hidden card is refused never names another hidden card (asked with the verbs
    of the legal moves, so each game's own explanation runs)."""
    verbs = sorted({action.split()[0] for action in view["legal"]})
    for verb in verbs[:3]:
        for name in sorted(hidden)[:3]:
            action = f"{verb} {name}"
            answer = ok(client.post(f"/api/games/{game_id}/explain", json={"token": token, "action": action}))
            others = hidden - {name}
            words = set(WORD.findall(answer["reason"]))
            assert not leaked(answer, others), (action, answer)
            assert not [n for n in others if any(form in words for form in text_forms(n))], (action, answer)


def test_diamond_dust_reveals_are_exercised() -> None:
    """At least one of the games above reveals a hand card, so the `revealed` exception is tested."""
    from cardlab.games import game_class

    found = False
    for game, config, seed in CASES:
        if game != "edelweiss":
            continue
        built = game_class(game).from_config(config) if config else game_class(game)()
        state = built.new_state(seed, record_events=False)
        while state.current_player() is not None and not found:
            state.apply(state.legal_actions()[0])
            found = bool(state.position().get("revealed"))
    assert found


def test_the_checker_catches_a_planted_leak(client: Any) -> None:
    created = create(client, "edelweiss", None, seed=9)
    game_id, tokens = created["id"], created["tokens"]
    checker = Checker(client, game_id)
    view = get_view(client, game_id, tokens["P1"])
    checker.check("P1", view, "clean")
    opponent_card = checker.live.state.position()["players"]["P2"]["hand"][0]
    view["observation"]["players"]["P2"]["hand"] = [opponent_card]
    with pytest.raises(AssertionError, match="sees"):
        checker.check("P1", view, "planted")
    view["observation"]["players"]["P2"]["hand"] = []
    view["events"].append({"kind": "draw", "text": f"P2 draws {text_forms(opponent_card)[-1]}."})
    with pytest.raises(AssertionError, match="reads"):
        checker.check("P1", view, "planted in text")
    view["events"].pop()
    checker.check("P1", view, "clean again")
    view["cards"]["ZZ9"] = {"name": "a card the view never names", "stats": "", "abilities": [], "keywords": []}
    with pytest.raises(AssertionError, match="gets words for"):
        checker.check("P1", view, "planted in cards")
