"""Kill and restart: a new app over the same database resumes every game exactly."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardlab.web.app import create_app
from tests.web.helpers import ATERIAL, EDELWEISS_SKILLS, SEATS, act, create, get_view, play_humans, to_move


def restart(db_path: Path, agent_delay: float = 0.0) -> tuple[Any, TestClient]:
    app = create_app(db_path, agent_delay=agent_delay)
    return app, TestClient(app)


def seat_states(client: Any, game_id: str, tokens: dict[str, str]) -> dict:
    views = {seat: get_view(client, game_id, token) for seat, token in tokens.items()}
    views[None] = get_view(client, game_id)
    return {seat: (v["version"], v["observation"], v["legal"], v["status"], v["events"]) for seat, v in views.items()}


@pytest.mark.parametrize(("game", "config", "steps"), [("edelweiss", EDELWEISS_SKILLS, 9), ("aterial", ATERIAL, 40)])
def test_restart_resumes_human_games(db_path: Path, game: str, config: Any, steps: int) -> None:
    first = create_app(db_path, agent_delay=0.0)
    with TestClient(first) as client:
        created = create(client, game, config, seed=41)
        game_id, tokens = created["id"], created["tokens"]
        played = []
        for _ in range(steps):
            mover = to_move(get_view(client, game_id))
            action = get_view(client, game_id, tokens[mover])["legal"][0]
            act(client, game_id, tokens[mover], action)
            played.append(action)
        before = seat_states(client, game_id, tokens)
        assert before["P1"][0] == steps and before["P1"][3] == "running"
    first.state.manager.db.close()
    del first

    second = create_app(db_path, agent_delay=0.0)
    with TestClient(second) as client:
        assert seat_states(client, game_id, tokens) == before
        rest = play_humans(client, game_id, tokens)
        final = get_view(client, game_id, tokens["P1"])
        assert final["status"] == "over" and final["version"] == steps + len(rest)
        replay = client.get(f"/api/games/{game_id}/replay").json()
        assert [frame["action"] for frame in replay["frames"][1:]] == played + rest
    second.state.manager.db.close()

    third = create_app(db_path, agent_delay=0.0)  # a finished game stays finished
    with TestClient(third) as client:
        view = get_view(client, game_id, tokens["P2"])
        assert view["status"] == "over" and view["result"] == final["result"]
    third.state.manager.db.close()


def stop_before_the_agent_moves(db_path: Path) -> tuple[str, str, int]:
    """Human P1 acts; the app is dropped while the slow agent (P2) is still to move."""
    first = create_app(db_path, agent_delay=30.0)
    with TestClient(first) as client:
        created = create(client, "edelweiss", None, "human", "random", seed=7)
        game_id, token = created["id"], created["tokens"]["P1"]
        view = get_view(client, game_id, token)
        assert to_move(view) == "P1"
        view = act(client, game_id, token, view["legal"][0])
        assert to_move(view) == "P2" and view["version"] == 1
    first.state.manager.db.close()
    return game_id, token, 1


def test_restart_resumes_the_agent_via_websocket(db_path: Path) -> None:
    game_id, token, version = stop_before_the_agent_moves(db_path)
    second = create_app(db_path, agent_delay=0.0)
    with (
        TestClient(second) as client,
        client.websocket_connect(f"/ws/games/{game_id}?token={token}") as ws,
    ):
        view = ws.receive_json()
        assert view["version"] >= version  # the agent may already have moved
        while view["status"] == "running" and not view["legal"]:
            view = ws.receive_json()
        assert view["version"] > version, "the agent moved after the restart"
    second.state.manager.db.close()


def test_restart_resumes_the_agent_via_polling(db_path: Path) -> None:
    """Regression: the restarted app must start the agent even if the game is only polled (GET)."""
    game_id, token, version = stop_before_the_agent_moves(db_path)
    second = create_app(db_path, agent_delay=0.0)
    with TestClient(second) as client:
        deadline = time.monotonic() + 20
        view = get_view(client, game_id, token)
        while view["status"] == "running" and not view["legal"]:
            assert time.monotonic() < deadline, "the agent did not move after the restart"
            time.sleep(0.01)
            view = get_view(client, game_id, token)
        assert view["version"] > version
    second.state.manager.db.close()


def test_restart_keeps_tokens_and_refusals(db_path: Path) -> None:
    first = create_app(db_path, agent_delay=0.0)
    with TestClient(first) as client:
        created = create(client, "aterial", ATERIAL, seed=42)
    first.state.manager.db.close()
    second = create_app(db_path, agent_delay=0.0)
    with TestClient(second) as client:
        game_id, tokens = created["id"], created["tokens"]
        for seat in SEATS:
            assert get_view(client, game_id, tokens[seat])["seat"] == seat
        assert client.get(f"/api/games/{game_id}", params={"token": "forged"}).status_code == 403
        assert client.get("/api/games/unknown").status_code == 404
    second.state.manager.db.close()
