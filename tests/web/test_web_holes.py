"""Holes a hostile or clumsy client could use, each closed (issue "Close the holes", items 1-9).

Every test here failed on the server before the fix it names: leaked replays, both tokens in a
rematch, 500s on non-JSON numbers and lone surrogates, agent specs that broke stored games,
unbounded thinking, unbounded memory, doubly applied actions, binary frames, missing headers.
"""

from __future__ import annotations

import json
import random
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardlab.store.play_db import PlayDB
from cardlab.web.app import create_app
from cardlab.web.manager import ServerLimits
from tests.web.helpers import ATERIAL, SEATS, act, create, get_view, ok, play_humans, to_move

DREADNOUGHT = {"decks": {"P1": "ember_spark", "P2": "tide_grove"}, "casters": {"P1": None, "P2": None}, "cards": None}


def refused(response: Any, status: int | None = None) -> dict:
    """A 4xx JSON refusal with a reason (never a 5xx, never plain text)."""
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:300])
    if status is not None:
        assert response.status_code == status, (response.status_code, response.text[:300])
    body = response.json()
    assert isinstance(body.get("error"), str) and body["error"], body
    return body


def games_stored(db_path: Path) -> int:
    with sqlite3.connect(db_path) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM play_games").fetchone()[0])


def limited_client(tmp_path: Path, **limits: Any) -> tuple[Any, TestClient]:
    app = create_app(tmp_path / "play.sqlite", agent_delay=0.0, limits=ServerLimits(**limits))
    return app, TestClient(app)


# -- 1. replays show each viewer what it saw ---------------------------------------------------------


def play_recording(client: Any, game_id: str, tokens: dict[str, str], steps: int, seed: int) -> dict:
    """Play random legal actions; record every viewer's observation and new events at each version."""
    rng = random.Random(seed)
    seen: dict[str | None, list[tuple[Any, list]]] = {seat: [] for seat in (*SEATS, None)}

    def record() -> dict[str | None, dict]:
        views = {seat: get_view(client, game_id, tokens[seat] if seat else None) for seat in seen}
        for seat, view in views.items():
            seen[seat].append((view["observation"], view["events"]))
        return views

    views = record()
    for _ in range(steps):
        if views[None]["status"] == "over":
            break
        mover = to_move(views[None])
        act(client, game_id, tokens[mover], rng.choice(views[mover]["legal"]))
        views = record()
    return seen


@pytest.mark.parametrize(("game", "config", "seed"), [("dreadnought", DREADNOUGHT, 3), ("aterial", ATERIAL, 4)])
def test_replay_of_a_running_game_shows_each_viewer_its_own_view(
    client: Any, game: str, config: Any, seed: int
) -> None:
    created = create(client, game, config, seed=seed)
    game_id, tokens = created["id"], created["tokens"]
    seen = play_recording(client, game_id, tokens, 40, seed)
    for viewer in (*SEATS, None):
        query = {"token": tokens[viewer]} if viewer else {}
        replay = ok(client.get(f"/api/games/{game_id}/replay", params=query))
        assert replay["status"] == "running"
        frames = replay["frames"]
        assert len(frames) == len(seen[viewer])
        events: list[dict] = []
        for index, frame in enumerate(frames):
            observation, events_then = seen[viewer][index]
            assert frame["observation"] == observation, f"{viewer} frame {index}"
            events += frame["events"]
            assert events == events_then, f"{viewer} frame {index}: events"
            if frame["actor"] != viewer or viewer is None:
                assert frame["action"] is None, f"{viewer} frame {index} shows {frame['actor']}'s {frame['action']}"
            elif index:
                assert frame["action"] is not None
    refused(client.get(f"/api/games/{game_id}/replay", params={"token": "forged"}), 403)


def test_replay_hides_placed_casters_and_mulligans_until_the_end(client: Any) -> None:
    """The probe's case: `PLACE X01`, `MULL N01` never reach the opponent or a spectator while running."""
    created = create(client, "dreadnought", DREADNOUGHT, seed=5)
    game_id, tokens = created["id"], created["tokens"]
    seen = play_recording(client, game_id, tokens, 12, 5)
    assert len(seen[None]) > 5
    for viewer in (*SEATS, None):
        query = {"token": tokens[viewer]} if viewer else {}
        frames = ok(client.get(f"/api/games/{game_id}/replay", params=query))["frames"]
        others = [frame for frame in frames if frame["actor"] not in (None, viewer)]
        assert others and all(frame["action"] is None for frame in others), others
    play_humans(client, game_id, tokens)
    full = ok(client.get(f"/api/games/{game_id}/replay"))
    assert full["status"] == "over"
    assert all(frame["action"] for frame in full["frames"][1:])


def test_replays_are_built_off_the_event_loop_once_per_version(client: Any, monkeypatch: Any) -> None:
    import cardlab.web.manager as manager_module

    built: list[str] = []
    real = manager_module._build_replay

    def counting(*args: Any) -> Any:
        built.append(threading.current_thread().name)
        return real(*args)

    monkeypatch.setattr(manager_module, "_build_replay", counting)
    created = create(client, "edelweiss", None, seed=11)
    game_id = created["id"]
    first = ok(client.get(f"/api/games/{game_id}/replay"))
    assert ok(client.get(f"/api/games/{game_id}/replay")) == first
    assert len(built) == 1, "the second request of the same version is served from the cache"
    assert built[0] != threading.main_thread().name
    loop_thread = client.portal.call(lambda: threading.current_thread().name)
    assert built[0] != loop_thread, "built in a worker thread, not on the event loop"


# -- 2. rematch: own token only, one game for both ----------------------------------------------------


def test_rematch_is_one_game_and_hands_out_own_tokens_only(db_path: Path) -> None:
    app = create_app(db_path, agent_delay=0.0)
    with TestClient(app) as client:
        created = create(client, "edelweiss", None, seed=21)
        game_id, tokens = created["id"], created["tokens"]
        play_humans(client, game_id, tokens)
        answers = [ok(client.post(f"/api/games/{game_id}/rematch", json={"token": tokens[SEATS[i % 2]]}), 201)
                   for i in range(22)]  # fmt: skip
        assert len({answer["id"] for answer in answers}) == 1, "22 requests, one game"
        for index, answer in enumerate(answers):
            seat, other = SEATS[index % 2], SEATS[1 - index % 2]
            assert set(answer["tokens"]) == {seat} and set(answer["urls"]) == {seat}
            assert answer["tokens"][seat] == answers[index % 2]["tokens"][seat], "the same token every time"
            text = json.dumps(answer)
            assert answers[1 - index % 2]["tokens"][other] not in text, "never the other seat's token"
        rematch_id = answers[0]["id"]
        new_tokens = {seat: answers[i]["tokens"][seat] for i, seat in enumerate(SEATS)}
        for seat in SEATS:
            assert get_view(client, rematch_id, new_tokens[seat])["seat"] == seat
    app.state.manager.db.close()
    again = create_app(db_path, agent_delay=0.0)  # after a restart the rematch is still the same one
    with TestClient(again) as client:
        answer = ok(client.post(f"/api/games/{game_id}/rematch", json={"token": tokens["P2"]}), 201)
        assert answer["id"] == rematch_id and answer["tokens"]["P2"] == new_tokens["P2"]
        assert get_view(client, game_id, tokens["P1"])["rematch_url"] == f"/play/{rematch_id}?token={new_tokens['P1']}"
    again.state.manager.db.close()


def test_the_rematch_link_appears_for_the_seat_that_did_not_ask(client: Any) -> None:
    created = create(client, "edelweiss", None, seed=22)
    game_id, tokens = created["id"], created["tokens"]
    play_humans(client, game_id, tokens)
    assert get_view(client, game_id, tokens["P2"])["rematch_url"] is None
    answer = ok(client.post(f"/api/games/{game_id}/rematch", json={"token": tokens["P1"]}), 201)
    link = get_view(client, game_id, tokens["P2"])["rematch_url"]
    assert link and link.startswith(f"/play/{answer['id']}?token=")
    assert get_view(client, answer["id"], link.split("token=")[1])["seat"] == "P2"
    assert answer["tokens"]["P1"] not in link


# -- 3. numbers JSON does not have, lone surrogates ----------------------------------------------------

GOOD_GAME = '{"game": "edelweiss", "seats": {"P1": "human", "P2": "human"}, "seed": 1}'
BAD_NUMBERS = ["NaN", "Infinity", "-Infinity", "1e400"]


def bad_bodies(token: str, action: str) -> list[tuple[str, str]]:
    """(url suffix, raw JSON body): the probe's fourteen shapes and a few more."""
    bodies = []
    for number in BAD_NUMBERS:
        bodies.append(("", GOOD_GAME.replace('"seed": 1', f'"seed": {number}')))
        bodies.append(("", GOOD_GAME.replace('"game": "edelweiss"', f'"game": {number}')))
        bodies.append(("/actions", f'{{"token": "{token}", "action": {number}}}'))
        bodies.append(("/actions", f'{{"token": {number}, "action": "{action}"}}'))
    bodies.append(("/actions", f'{{"token": "\\ud800", "action": "{action}"}}'))
    bodies.append(("/actions", f'{{"token": "{token}", "action": "\\ud800"}}'))
    bodies.append(("/rematch", '{"token": "\\udfff"}'))
    bodies.append(("", GOOD_GAME.replace('"seed": 1', '"config": {"\\ud800": "full"}')))
    bodies.append(("", GOOD_GAME.replace('"seed": 1', '"seed": ' + "9" * 5000)))
    bodies.append(("/actions", f'{{"token": "{token}", "action": "{action}", "version": NaN}}'))
    return bodies


def test_malformed_numbers_and_strings_are_4xx_json(client: Any) -> None:
    created = create(client, "edelweiss", None, seed=3)
    game_id, tokens = created["id"], created["tokens"]
    mover = to_move(get_view(client, game_id))
    action = get_view(client, game_id, tokens[mover])["legal"][0]
    before = [get_view(client, game_id, tokens[seat]) for seat in SEATS]
    stored = games_stored(client.app.state.manager.db.path)
    for suffix, body in bad_bodies(tokens[mover], action):
        url = "/api/games" if not suffix else f"/api/games/{game_id}{suffix}"
        response = client.post(url, content=body.encode(), headers={"content-type": "application/json"})
        refused(response, 422)
    assert [get_view(client, game_id, tokens[seat]) for seat in SEATS] == before
    assert games_stored(client.app.state.manager.db.path) == stored


def test_bad_tokens_in_queries_are_refused(client: Any) -> None:
    created = create(client, "edelweiss", None, seed=3)
    for token in ("%ED%A0%80", "%FF", "a%00b"):
        refused(client.get(f"/api/games/{created['id']}?token={token}"), 403)
        refused(client.get(f"/api/games/{created['id']}/replay?token={token}"), 403)


def test_validation_errors_name_the_field_without_echoing_the_input(client: Any) -> None:
    body = {"game": "edelweiss", "seats": {"P1": "human", "P2": "human"}, "seed": "<script>"}
    error = refused(client.post("/api/games", json=body), 422)["error"]
    assert "seed" in error and "<script>" not in error


# -- 4. agent specs that cannot be built are refused before anything is stored ---------------------


@pytest.mark.parametrize(
    ("game", "config", "spec"),
    [
        ("edelweiss", None, "ismcts:iterations=0"),
        ("edelweiss", None, "ismcts:rollout=bogus"),
        ("aterial", ATERIAL, "ismcts:rollout=fast"),
        ("dreadnought", DREADNOUGHT, "ismcts:iterations=10:rollout=fast"),
    ],
)
def test_agents_that_cannot_play_are_refused_and_nothing_is_stored(
    client: Any, db_path: Path, game: str, config: Any, spec: str
) -> None:
    create(client, "edelweiss", None, seed=1)
    stored = games_stored(db_path)
    body = {"game": game, "config": config, "seats": {"P1": "human", "P2": spec}}
    assert "P2" in refused(client.post("/api/games", json=body), 422)["error"]
    assert games_stored(db_path) == stored


def test_a_stored_game_that_cannot_be_rebuilt_is_a_4xx_not_a_500(db_path: Path) -> None:
    """A game stored by an older version with an agent this one refuses stays answerable."""
    db = PlayDB(db_path)
    db.create("legacy", "edelweiss", {"deck": "full"}, 1, {"P1": "human", "P2": "ismcts:iterations=0"}, {"P1": "t"})
    db.close()
    app = create_app(db_path, agent_delay=0.0)
    with TestClient(app) as client:
        assert "cannot be resumed" in refused(client.get("/api/games/legacy"), 409)["error"]
        assert client.get("/api/games/legacy/replay").status_code == 409
        ok(client.get("/api/meta"))
    app.state.manager.db.close()


# -- 5. bounded thinking, no starvation ---------------------------------------------------------------


def test_thinking_is_bounded_and_other_games_keep_moving(tmp_path: Path) -> None:
    app, client = limited_client(tmp_path, think_time=0.2, agent_workers=2)
    heavy = "ismcts:iterations=5000:rollout=heuristic"
    with client:
        searching = create(client, "dreadnought", DREADNOUGHT, heavy, heavy, seed=1)
        quick = create(client, "edelweiss", None, "human", "random", seed=7)
        token = quick["tokens"]["P1"]
        deadline = time.monotonic() + 40
        view = get_view(client, quick["id"], token)
        while get_view(client, searching["id"])["version"] < 3:
            assert time.monotonic() < deadline, "a search decision took longer than the think time allows"
            if view["status"] == "over":
                time.sleep(0.05)
                continue
            view = act(client, quick["id"], token, view["legal"][0])
            asked = time.monotonic()
            while view["status"] == "running" and not view["legal"]:
                assert time.monotonic() - asked < 10, "the random agent starved behind the search"
                time.sleep(0.01)
                view = get_view(client, quick["id"], token)
    app.state.manager.db.close()


def test_search_budgets_above_the_think_time_are_refused(tmp_path: Path) -> None:
    app, client = limited_client(tmp_path, think_time=1.0)
    with client:
        body = {"game": "edelweiss", "seats": {"P1": "human", "P2": "ismcts:time=1.5"}}
        assert "1 s" in refused(client.post("/api/games", json=body), 422)["error"]
        ok(client.post("/api/games", json={**body, "seats": {"P1": "human", "P2": "ismcts:time=0.5"}}), 201)
    app.state.manager.db.close()


# -- 6. idle games leave memory and come back from SQLite --------------------------------------------


def test_idle_games_are_evicted_and_reload_exactly(tmp_path: Path) -> None:
    app, client = limited_client(tmp_path, max_live_games=5)
    manager = app.state.manager
    with client:
        first = create(client, "aterial", ATERIAL, seed=2)
        mover = to_move(get_view(client, first["id"]))
        legal = get_view(client, first["id"], first["tokens"][mover])["legal"]
        act(client, first["id"], first["tokens"][mover], legal[0])
        before = {seat: get_view(client, first["id"], first["tokens"][seat]) for seat in SEATS}
        for seed in range(30):
            created = create(client, "edelweiss", None, seed=seed)
            get_view(client, created["id"])
            assert len(manager._live) <= 5
        assert first["id"] not in manager._live
        after = {seat: get_view(client, first["id"], first["tokens"][seat]) for seat in SEATS}
        assert after == before
    app.state.manager.db.close()


def test_games_idle_past_the_limit_are_dropped(tmp_path: Path) -> None:
    app, client = limited_client(tmp_path, idle_seconds=0.05)
    manager = app.state.manager
    with client:
        old = create(client, "edelweiss", None, seed=1)
        get_view(client, old["id"])
        time.sleep(0.1)
        get_view(client, create(client, "edelweiss", None, seed=2)["id"])
        assert old["id"] not in manager._live
        watched = create(client, "edelweiss", None, seed=3)
        with client.websocket_connect(f"/ws/games/{watched['id']}") as ws:
            ws.receive_json()
            time.sleep(0.1)
            get_view(client, create(client, "edelweiss", None, seed=4)["id"])
            assert watched["id"] in manager._live, "a watched game stays in memory"
    app.state.manager.db.close()


# -- 7. a stale version is refused -----------------------------------------------------------------------


def repeatable_action(client: Any, game_id: str, tokens: dict[str, str]) -> tuple[str, str, int]:
    """Play until the player to move has an action that stays legal once applied (e.g. a second deploy)."""
    live = client.app.state.manager.get(game_id)
    for _ in range(400):
        view = get_view(client, game_id)
        mover = to_move(view)
        legal = get_view(client, game_id, tokens[mover])["legal"]
        for action in legal:
            probe = live.state.clone()
            probe.apply(action)
            if probe.current_player() == live.state.current_player() and action in map(str, probe.legal_actions()):
                return mover, action, view["version"]
        act(client, game_id, tokens[mover], legal[-1])
    pytest.fail("no repeatable action found")


def test_a_repeated_post_is_not_applied_twice(client: Any) -> None:
    created = create(client, "aterial", ATERIAL, seed=8)
    game_id, tokens = created["id"], created["tokens"]
    mover, action, version = repeatable_action(client, game_id, tokens)
    url = f"/api/games/{game_id}/actions"
    first = ok(client.post(url, json={"token": tokens[mover], "action": action, "version": version}))
    assert first["version"] == version + 1 and action in first["legal"]
    body = refused(client.post(url, json={"token": tokens[mover], "action": action, "version": version}), 409)
    assert "stale" in body["error"] and body["legal"] == first["legal"]
    assert get_view(client, game_id, tokens[mover]) == first
    refused(client.post(url, json={"token": tokens[mover], "action": action, "version": version + 5}), 409)
    assert ok(client.post(url, json={"token": tokens[mover], "action": action, "version": version + 1}))["version"] == (
        version + 2
    )


# -- 8. sockets: binary frames, a cap per game, one view per seat per push ---------------------------


def test_a_binary_frame_closes_the_socket_cleanly(client: Any) -> None:
    created = create(client, "edelweiss", None, seed=5)
    game_id, tokens = created["id"], created["tokens"]
    with client.websocket_connect(f"/ws/games/{game_id}?token={tokens['P1']}") as ws:
        ws.receive_json()
        ws.send_bytes(b"\x00\x01binary")
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1003
    assert client.app.state.manager.get(game_id).subscribers == {}
    mover = to_move(get_view(client, game_id))
    assert act(client, game_id, tokens[mover], get_view(client, game_id, tokens[mover])["legal"][0])["version"] == 1


def test_sockets_per_game_are_capped(tmp_path: Path) -> None:
    app, client = limited_client(tmp_path, max_sockets=3)
    with client:
        created = create(client, "edelweiss", None, seed=6)
        url = f"/ws/games/{created['id']}"
        with client.websocket_connect(url) as a, client.websocket_connect(url) as b, client.websocket_connect(url) as c:
            for ws in (a, b, c):
                ws.receive_json()
            with pytest.raises(WebSocketDisconnect) as full:  # noqa: SIM117
                with client.websocket_connect(url) as d:
                    d.receive_json()
            assert full.value.code == 1013
        with client.websocket_connect(url) as again:  # a freed place can be taken
            assert again.receive_json()["id"] == created["id"]
    app.state.manager.db.close()


def test_a_push_builds_one_view_per_seat_however_many_watch(client: Any, monkeypatch: Any) -> None:
    created = create(client, "edelweiss", None, seed=7)
    game_id, tokens = created["id"], created["tokens"]
    manager = client.app.state.manager
    sockets = [client.websocket_connect(f"/ws/games/{game_id}") for _ in range(20)]
    sockets += [client.websocket_connect(f"/ws/games/{game_id}?token={tokens[seat]}") for seat in SEATS]
    opened = [ws.__enter__() for ws in sockets]
    try:
        for ws in opened:
            ws.receive_json()
        calls: list[str | None] = []
        real = manager.view

        def counting(live: Any, seat: str | None, token: str | None = None) -> dict:
            calls.append(seat)
            return real(live, seat, token)

        monkeypatch.setattr(manager, "view", counting)
        mover = to_move(get_view(client, game_id))
        action = get_view(client, game_id, tokens[mover])["legal"][0]
        calls.clear()
        act(client, game_id, tokens[mover], action)
        pushed = [ws.receive_json() for ws in opened]
        assert all(view["version"] == 1 for view in pushed)
        assert sorted(calls, key=str).count(None) == 1 and len(calls) <= 4, calls
    finally:
        for ws in opened:
            ws.__exit__(None, None, None)


# -- 9. headers, and agents resume by themselves after a restart ----------------------------------------


def test_token_pages_and_api_answers_are_not_cached_or_referred(client: Any) -> None:
    created = create(client, "edelweiss", None, seed=8)
    game_id, token = created["id"], created["tokens"]["P1"]
    for response in (
        client.get(f"/play/{game_id}?token={token}"),
        client.get(f"/replay/{game_id}?token={token}"),
        client.get(f"/api/games/{game_id}?token={token}"),
        client.get(f"/api/games/{game_id}/replay?token={token}"),
        client.post("/api/games", json={"game": "edelweiss", "seats": {"P1": "human", "P2": "human"}}),
    ):
        assert response.status_code < 300, response.text[:200]
        assert response.headers["referrer-policy"] == "no-referrer"
        assert "no-store" in response.headers["cache-control"]


def test_agent_games_resume_after_a_restart_without_a_visitor(db_path: Path) -> None:
    first = create_app(db_path, agent_delay=30.0)  # so slow that it is stopped before a move
    with TestClient(first) as client:
        created = create(client, "edelweiss", None, "random", "random", seed=9)
    first.state.manager.db.close()
    db = PlayDB(db_path)
    assert db.load(created["id"]).actions == []  # type: ignore[union-attr]
    second = create_app(db_path, agent_delay=0.0)
    with TestClient(second):  # nobody asks for the game: the server starts its agents itself
        deadline = time.monotonic() + 30
        while created["id"] not in second.state.manager._live or not second.state.manager._live[created["id"]].over:
            assert time.monotonic() < deadline, "the agents did not finish the game"
            time.sleep(0.02)
    second.state.manager.db.close()
    assert db.unfinished_with_agents() == []
    db.close()
