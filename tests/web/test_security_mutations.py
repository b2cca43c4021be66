"""The web app's security checks, each named by one test that fails when the check is dropped.

Written for the mutation run (benchmarks/mutation_run.py, issue #37): the token check (403), the
token pattern and the door's body checks (422, 411), the turn and version checks (409), the rematch
guard, and what a seat's view and a running game's replay show. Self-contained (no shared helpers),
on a seeded human-vs-human Edelweiss game, so each test is quick and exact.
"""

from __future__ import annotations

from typing import Any

from cardlab.games import game_class

SEED = 5


def _json(response: Any, status: int) -> Any:
    assert response.status_code == status, (response.status_code, response.text[:300])
    return response.json()


def _new_game(client: Any) -> tuple[str, dict[str, str]]:
    body = {"game": "edelweiss", "config": None, "seats": {"P1": "human", "P2": "human"}, "seed": SEED}
    created = _json(client.post("/api/games", json=body), 201)
    return created["id"], created["tokens"]


def _view(client: Any, game_id: str, token: str | None) -> dict:
    return _json(client.get(f"/api/games/{game_id}", params={} if token is None else {"token": token}), 200)


def _act(client: Any, game_id: str, token: str, action: str, version: int | None = None) -> Any:
    body: dict[str, Any] = {"token": token, "action": action}
    if version is not None:
        body["version"] = version
    return client.post(f"/api/games/{game_id}/actions", json=body)


def _play(client: Any, game_id: str, tokens: dict[str, str], steps: int) -> dict:
    """`steps` first-legal actions, each by the seat to move; the spectator's view after them."""
    for _ in range(steps):
        view = _view(client, game_id, None)
        if view["status"] == "over":
            break
        seat = view["observation"]["to_move"]
        _json(_act(client, game_id, tokens[seat], _view(client, game_id, tokens[seat])["legal"][0]), 200)
    return _view(client, game_id, None)


def test_a_wrong_token_is_refused_everywhere_with_403(client: Any) -> None:
    game_id, _ = _new_game(client)
    wrong = "A" * 22
    assert _json(client.get(f"/api/games/{game_id}", params={"token": wrong}), 403)["error"]
    assert _json(client.get(f"/api/games/{game_id}/replay", params={"token": wrong}), 403)["error"]
    assert _json(_act(client, game_id, wrong, "SUMMON H"), 403)["error"]
    assert _json(client.post(f"/api/games/{game_id}/rematch", json={"token": wrong}), 403)["error"]


def test_each_seat_sees_exactly_its_own_observation(client: Any) -> None:
    """The view is the seat's observation of the rules (the other hand hidden), not the open one."""
    game_id, tokens = _new_game(client)
    state = game_class("edelweiss")().new_state(SEED)
    for seat, player in (("P1", 0), ("P2", 1), (None, None)):
        observation = _view(client, game_id, None if seat is None else tokens[seat])["observation"]
        assert observation == state.observation(player)
        assert observation != state.open_observation()


def test_acting_out_of_turn_is_409_and_changes_nothing(client: Any) -> None:
    game_id, tokens = _new_game(client)
    before = _view(client, game_id, None)
    mover = before["observation"]["to_move"]
    other = "P2" if mover == "P1" else "P1"
    legal = _view(client, game_id, tokens[mover])["legal"]
    assert _json(_act(client, game_id, tokens[other], legal[0]), 409)["error"]
    assert _view(client, game_id, None)["version"] == before["version"]


def test_a_stale_version_is_refused(client: Any) -> None:
    game_id, tokens = _new_game(client)
    after = _play(client, game_id, tokens, 2)
    assert after["version"] == 2
    seat = after["observation"]["to_move"]
    legal = _view(client, game_id, tokens[seat])["legal"]
    assert _json(_act(client, game_id, tokens[seat], legal[0], version=1), 409)["error"]
    assert _view(client, game_id, None)["version"] == 2
    _json(_act(client, game_id, tokens[seat], legal[0], version=2), 200)


def test_a_running_replay_shows_each_viewer_its_own_actions_and_events(client: Any) -> None:
    """Fetched seat first, then spectator, then the other seat: no viewer gets another's replay."""
    game_id, tokens = _new_game(client)
    _play(client, game_id, tokens, 6)
    for seat in ("P1", None, "P2"):
        token = None if seat is None else tokens[seat]
        params = {} if token is None else {"token": token}
        replay = _json(client.get(f"/api/games/{game_id}/replay", params=params), 200)
        assert replay["status"] == "running"
        frames = replay["frames"]
        assert {frame["actor"] for frame in frames[1:]} == {"P1", "P2"}
        for frame in frames[1:]:
            assert (frame["action"] is not None) == (frame["actor"] == seat), (seat, frame)
        view = _view(client, game_id, token)
        assert frames[-1]["observation"] == view["observation"]
        assert [event for frame in frames for event in frame["events"]] == view["events"]


def test_a_token_outside_the_pattern_is_422_before_any_lookup(client: Any) -> None:
    game_id, _ = _new_game(client)
    body = _json(_act(client, game_id, "not a token!", "SUMMON H"), 422)
    assert body["error"].startswith("token:")


def test_a_rematch_waits_for_the_end(client: Any) -> None:
    game_id, tokens = _new_game(client)
    assert _json(client.post(f"/api/games/{game_id}/rematch", json={"token": tokens["P1"]}), 409)["error"]


def test_nan_in_a_body_is_refused_at_the_door(client: Any) -> None:
    game_id, tokens = _new_game(client)
    for raw in (f'{{"token": "{tokens["P1"]}", "action": NaN}}', '{"game": "edelweiss", "config": {"x": Infinity}}'):
        url = f"/api/games/{game_id}/actions" if "token" in raw else "/api/games"
        response = client.post(url, content=raw.encode(), headers={"content-type": "application/json"})
        assert _json(response, 422)["error"] == "NaN, Infinity and numbers beyond the float range are not JSON"


def test_a_post_without_content_length_is_411(client: Any) -> None:
    game_id, tokens = _new_game(client)
    request = client.build_request(
        "POST", f"/api/games/{game_id}/actions", content=b'{"token": "%s", "action": "x"}' % tokens["P1"].encode()
    )
    del request.headers["content-length"]
    assert _json(client.send(request), 411)["error"]
