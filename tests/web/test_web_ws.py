"""WebSocket pushes: each seat gets its own view on connect and after every change."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.web.helpers import ATERIAL, EDELWEISS_SKILLS, SEATS, act, create, get_view, to_move


def hands(view: dict) -> list[Any]:
    return [view["observation"]["players"][seat]["hand"] for seat in SEATS]


@pytest.mark.parametrize(("game", "config"), [("edelweiss", EDELWEISS_SKILLS), ("aterial", ATERIAL)])
def test_seat_sockets_follow_the_game(client: Any, game: str, config: Any) -> None:
    created = create(client, game, config, seed=31)
    game_id, tokens = created["id"], created["tokens"]
    with (
        client.websocket_connect(f"/ws/games/{game_id}?token={tokens['P1']}") as ws1,
        client.websocket_connect(f"/ws/games/{game_id}?token={tokens['P2']}") as ws2,
        client.websocket_connect(f"/ws/games/{game_id}") as spectator,
    ):
        sockets = {"P1": ws1, "P2": ws2}
        for seat, ws in sockets.items():
            first = ws.receive_json()
            assert first["seat"] == seat and first["version"] == 0
            assert first == get_view(client, game_id, tokens[seat])
        assert spectator.receive_json() == get_view(client, game_id)

        for step in range(1, 7):
            mover = to_move(get_view(client, game_id, tokens["P1"]))
            legal = get_view(client, game_id, tokens[mover])["legal"]
            act(client, game_id, tokens[mover], legal[0])
            for seat, ws in sockets.items():
                pushed = ws.receive_json()
                assert pushed["seat"] == seat and pushed["version"] == step
                assert pushed == get_view(client, game_id, tokens[seat])
            public = spectator.receive_json()
            assert public["seat"] is None and public["version"] == step
            assert public["legal"] == []
            assert all(not hand for hand in hands(public)), hands(public)
            assert public == get_view(client, game_id)


def test_a_socket_sees_its_own_hand_only(client: Any) -> None:
    created = create(client, "edelweiss", None, seed=32)
    game_id, tokens = created["id"], created["tokens"]
    for seat, other in (("P1", "P2"), ("P2", "P1")):
        with client.websocket_connect(f"/ws/games/{game_id}?token={tokens[seat]}") as ws:
            view = ws.receive_json()
            assert view["observation"]["players"][seat]["hand"]
            assert not view["observation"]["players"][other]["hand"]


@pytest.mark.parametrize("query", ["?token=wrong", "?token=", "?token=x%00y"])
def test_wrong_token_is_refused(client: Any, query: str) -> None:
    created = create(client, "edelweiss", None, seed=33)
    with pytest.raises(WebSocketDisconnect) as refused:  # noqa: SIM117
        with client.websocket_connect(f"/ws/games/{created['id']}{query}") as ws:
            ws.receive_json()
    assert refused.value.code == 1008


def test_unknown_game_is_refused(client: Any) -> None:
    with pytest.raises(WebSocketDisconnect) as refused:  # noqa: SIM117
        with client.websocket_connect("/ws/games/no-such-game") as ws:
            ws.receive_json()
    assert refused.value.code == 1008


def test_closed_sockets_do_not_break_the_game(client: Any) -> None:
    created = create(client, "edelweiss", None, seed=34)
    game_id, tokens = created["id"], created["tokens"]
    with client.websocket_connect(f"/ws/games/{game_id}?token={tokens['P1']}") as ws:
        ws.receive_json()
        ws.send_text("ignored")  # clients only listen
    mover = to_move(get_view(client, game_id))
    view = act(client, game_id, tokens[mover], get_view(client, game_id, tokens[mover])["legal"][0])
    assert view["version"] == 1
    assert client.app.state.manager.get(game_id).subscribers == {}


def test_agent_moves_are_pushed(client: Any) -> None:
    created = create(client, "edelweiss", None, "human", "random", seed=7)
    game_id, token = created["id"], created["tokens"]["P1"]
    assert to_move(get_view(client, game_id, token)) == "P1"
    with client.websocket_connect(f"/ws/games/{game_id}?token={token}") as ws:
        view = ws.receive_json()
        versions = [view["version"]]
        for _ in range(500):
            if view["status"] == "over":
                break
            if view["legal"]:
                act(client, game_id, token, view["legal"][0])
            view = ws.receive_json()
            versions.append(view["version"])
        assert view["status"] == "over" and view["result"]
        assert versions == sorted(versions) and versions[-1] == view["version"]
        assert len(versions) == view["version"] + 1, "one push per action, human's or agent's"
