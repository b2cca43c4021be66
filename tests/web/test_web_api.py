"""The JSON API: creating, viewing and playing games, and every way a request is refused."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from tests.web.helpers import (
    ATERIAL,
    EDELWEISS_SKILLS,
    SEATS,
    VIEW_KEYS,
    act,
    create,
    first_mover,
    get_view,
    ok,
    play_humans,
    to_move,
)

GAMES = [("edelweiss", None), ("edelweiss", EDELWEISS_SKILLS), ("aterial", ATERIAL)]


def error(response: Any, status: int) -> dict:
    assert response.status_code < 500, response.text
    assert response.status_code == status, (response.status_code, response.text)
    return response.json()


def snapshot(client: Any, game_id: str, tokens: dict[str, str]) -> list[tuple]:
    views = [get_view(client, game_id, tokens[seat]) for seat in tokens] + [get_view(client, game_id)]
    return [(v["version"], v["observation"], v["legal"], v["status"]) for v in views]


# -- creating and viewing --------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "config"), GAMES)
def test_create_get_and_act(client: Any, game: str, config: Any) -> None:
    created = create(client, game, config, seed=5)
    game_id, tokens = created["id"], created["tokens"]
    assert set(tokens) == set(SEATS)
    assert tokens["P1"] != tokens["P2"]
    assert created["urls"] == {seat: f"/play/{game_id}?token={tokens[seat]}" for seat in SEATS}
    assert created["spectator_url"] == f"/play/{game_id}"

    views = {seat: get_view(client, game_id, tokens[seat]) for seat in SEATS}
    for seat, view in views.items():
        assert set(view) >= VIEW_KEYS
        assert view["id"] == game_id and view["game"] == game and view["seat"] == seat
        assert view["seats"] == {"P1": "human", "P2": "human"}
        assert view["status"] == "running" and view["version"] == 0 and view["result"] is None
        assert view["observation"]["player"] == seat
        assert all(isinstance(e, dict) and "kind" in e and isinstance(e["text"], str) for e in view["events"])
    mover = to_move(views["P1"])
    other = "P2" if mover == "P1" else "P1"
    assert views[mover]["legal"] and views[other]["legal"] == []
    spectator = get_view(client, game_id)
    assert spectator["seat"] is None and spectator["legal"] == []

    after = act(client, game_id, tokens[mover], views[mover]["legal"][0])
    assert after["version"] == 1 and after["seat"] == mover
    assert get_view(client, game_id, tokens[other])["version"] == 1


@pytest.mark.parametrize(
    ("game", "config", "seed"), [("edelweiss", None, 1), ("edelweiss", EDELWEISS_SKILLS, 2), ("aterial", ATERIAL, 3)]
)
def test_human_vs_human_full_game(client: Any, game: str, config: Any, seed: int) -> None:
    created = create(client, game, config, seed=seed)
    game_id, tokens = created["id"], created["tokens"]
    played = play_humans(client, game_id, tokens)
    assert played

    for seat in (*SEATS, None):
        view = get_view(client, game_id, tokens[seat] if seat else None)
        assert view["status"] == "over"
        assert view["legal"] == []
        assert view["version"] == len(played)
        assert view["result"]["winner"] in ("P1", "P2", None)
        assert isinstance(view["result"]["reason"], str) and view["result"]["reason"]

    replay = ok(client.get(f"/api/games/{game_id}/replay"))
    assert replay["id"] == game_id and replay["game"] == game and replay["status"] == "over"
    frames = replay["frames"]
    assert len(frames) == len(played) + 1
    assert frames[0]["action"] is None
    assert [frame["action"] for frame in frames[1:]] == played
    assert all(frame["actor"] in SEATS for frame in frames[1:])
    true_hands = client.app.state.manager.get(game_id).state.position()["players"]
    last = frames[-1]["observation"]["players"]
    for seat in SEATS:
        assert last[seat]["hand"] == true_hands[seat]["hand"]
    assert any(last[seat]["hand"] for seat in SEATS), "the last frame should show the hands left"


def play_against_agent(
    client: Any, game: str, config: Any, seed: int, agent: str, human: str, patience: float = 30
) -> None:
    seats = {"P1": agent, "P2": agent, human: "human"}
    created = create(client, game, config, seats["P1"], seats["P2"], seed=seed)
    assert set(created["tokens"]) == {human}
    game_id, token = created["id"], created["tokens"][human]
    deadline = time.monotonic() + patience
    view = get_view(client, game_id, token)
    played = 0
    while view["status"] == "running":
        assert time.monotonic() < deadline, f"the agent did not move: {view['version']} {to_move(view)}"
        if view["legal"]:
            view = act(client, game_id, token, view["legal"][0])
            played += 1
        else:
            time.sleep(0.005)
            view = get_view(client, game_id, token)
    assert view["result"] is not None and played > 0
    assert view["version"] > played, "the agent made moves too"
    replay = ok(client.get(f"/api/games/{game_id}/replay"))
    assert len(replay["frames"]) == view["version"] + 1
    actors = {frame["actor"] for frame in replay["frames"][1:]}
    assert actors == {"P1", "P2"}


@pytest.mark.parametrize(
    ("game", "config", "seed", "agent"),
    [
        ("edelweiss", None, 7, "random"),
        ("edelweiss", EDELWEISS_SKILLS, 8, "heuristic"),
        ("aterial", ATERIAL, 7, "heuristic"),
    ],
)
def test_human_first_vs_agent(client: Any, game: str, config: Any, seed: int, agent: str) -> None:
    human = first_mover(game, config, seed)
    play_against_agent(client, game, config, seed, agent, human=human)


@pytest.mark.parametrize(("game", "config", "seed"), [("edelweiss", None, 3), ("aterial", ATERIAL, 7)])
def test_agent_moves_first_while_human_polls(client: Any, game: str, config: Any, seed: int) -> None:
    """Regression: an agent holding the first move must start although the human only polls (GET)."""
    agent_seat = first_mover(game, config, seed)
    human = "P2" if agent_seat == "P1" else "P1"
    play_against_agent(client, game, config, seed, "random", human=human, patience=20)


# -- refusals --------------------------------------------------------------------------------------


@pytest.fixture
def running(client: Any) -> dict:
    created = create(client, "edelweiss", None, seed=11)
    view = get_view(client, created["id"], created["tokens"]["P1"])
    mover = to_move(view)
    created["mover"] = mover
    created["waiter"] = "P2" if mover == "P1" else "P1"
    return created


def test_wrong_token_is_forbidden(client: Any, running: dict) -> None:
    game_id, tokens = running["id"], running["tokens"]
    before = snapshot(client, game_id, tokens)
    assert "error" in error(client.get(f"/api/games/{game_id}", params={"token": "nope"}), 403)
    assert "error" in error(client.get(f"/api/games/{game_id}", params={"token": ""}), 403)
    legal = get_view(client, game_id, tokens[running["mover"]])["legal"]
    body = error(client.post(f"/api/games/{game_id}/actions", json={"token": "nope", "action": legal[0]}), 403)
    assert "error" in body
    other = create(client, "edelweiss", None, seed=12)
    foreign = other["tokens"][running["mover"]]
    error(client.post(f"/api/games/{game_id}/actions", json={"token": foreign, "action": legal[0]}), 403)
    error(client.post(f"/api/games/{game_id}/rematch", json={"token": "nope"}), 403)
    assert snapshot(client, game_id, tokens) == before


def test_unknown_game_is_404(client: Any) -> None:
    assert "error" in error(client.get("/api/games/nope"), 404)
    error(client.get("/api/games/nope", params={"token": "x"}), 404)
    error(client.post("/api/games/nope/actions", json={"token": "x", "action": "PASS"}), 404)
    error(client.post("/api/games/nope/rematch", json={"token": "x"}), 404)
    error(client.get("/api/games/nope/replay"), 404)


def test_malformed_requests_are_422(client: Any, running: dict) -> None:
    game_id, tokens = running["id"], running["tokens"]
    before = snapshot(client, game_id, tokens)
    url = f"/api/games/{game_id}/actions"
    headers = {"content-type": "application/json"}
    error(client.post(url, content=b"{not json", headers=headers), 422)
    error(client.post(url, content=b"", headers=headers), 422)
    error(client.post(url, json={"token": tokens["P1"]}), 422)
    error(client.post(url, json={"token": tokens["P1"], "action": 3}), 422)
    error(client.post(url, json={"token": tokens["P1"], "action": ["A"]}), 422)
    error(client.post(url, json=["token", "action"]), 422)
    error(client.post(url, json={"token": "x" * 500, "action": "PASS"}), 422)
    error(client.post(url, json={"token": tokens["P1"], "action": "x" * 500}), 422)
    error(client.post("/api/games", content=b"[1, 2", headers=headers), 422)
    error(client.post(f"/api/games/{game_id}/rematch", json={}), 422)
    assert snapshot(client, game_id, tokens) == before


def test_rejected_actions_are_409_and_change_nothing(client: Any, running: dict) -> None:
    game_id, tokens = running["id"], running["tokens"]
    mover, waiter = running["mover"], running["waiter"]
    url = f"/api/games/{game_id}/actions"
    before = snapshot(client, game_id, tokens)
    legal = get_view(client, game_id, tokens[mover])["legal"]

    for bad in ("NOT AN ACTION", "", "SUMMON X", " " + legal[0], legal[0].lower()):
        body = error(client.post(url, json={"token": tokens[mover], "action": bad}), 409)
        assert body["error"] and body["legal"] == legal
        assert snapshot(client, game_id, tokens) == before

    body = error(client.post(url, json={"token": tokens[waiter], "action": legal[0]}), 409)
    assert body["error"] and "legal" in body and body["legal"] == []
    assert snapshot(client, game_id, tokens) == before

    played = play_humans(client, game_id, tokens)
    ended = snapshot(client, game_id, tokens)
    for seat in SEATS:
        body = error(client.post(url, json={"token": tokens[seat], "action": played[-1]}), 409)
        assert body["error"] and body["legal"] == []
    assert snapshot(client, game_id, tokens) == ended


def test_body_size_limits(client: Any, running: dict) -> None:
    game_id, tokens = running["id"], running["tokens"]
    before = snapshot(client, game_id, tokens)
    url = f"/api/games/{game_id}/actions"
    big = json.dumps({"token": tokens["P1"], "action": "PASS", "pad": "x" * (17 * 1024)}).encode()
    assert "error" in error(client.post(url, content=big, headers={"content-type": "application/json"}), 413)
    error(client.post("/api/games", content=big, headers={"content-type": "application/json"}), 413)

    def chunks() -> Any:
        yield json.dumps({"token": tokens["P1"], "action": "PASS"}).encode()

    response = client.post(url, content=chunks(), headers={"content-type": "application/json"})
    assert "content-length" not in {key.lower() for key in response.request.headers}
    assert "error" in error(response, 411)
    assert snapshot(client, game_id, tokens) == before


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ({"game": "chess", "config": None, "seats": {"P1": "human", "P2": "human"}}, "chess"),
        ({"game": "edelweiss", "config": None, "seats": {"P1": "human"}}, "seats"),
        ({"game": "edelweiss", "config": None, "seats": {"P1": "human", "P2": "human", "P3": "human"}}, "seats"),
        ({"game": "edelweiss", "config": None, "seats": {"P1": "human", "P2": "nobody-at-all"}}, "P2"),
        ({"game": "edelweiss", "config": None, "seats": {"P1": "ismcts:iterations=abc", "P2": "human"}}, "P1"),
        ({"game": "edelweiss", "config": None, "seats": {"P1": "random:bogus=1", "P2": "human"}}, "P1"),
        ({"game": "edelweiss", "config": {"deck": "no-such-deck"}, "seats": {"P1": "human", "P2": "human"}}, "config"),
        (
            {"game": "edelweiss", "config": {**EDELWEISS_SKILLS, "characters": {"P1": "NOBODY", "P2": "EAGLE"}},
             "seats": {"P1": "human", "P2": "human"}},
            "config",
        ),
        ({"game": "aterial", "config": {**ATERIAL, "decks": {"P1": "D99", "P2": "D2"}},
          "seats": {"P1": "human", "P2": "human"}}, "config"),
    ],
)  # fmt: skip
def test_invalid_new_games_are_422_with_a_reason(client: Any, body: dict, reason: str) -> None:
    response = client.post("/api/games", json=body)
    payload = error(response, 422)
    assert reason in payload["error"], payload


@pytest.mark.parametrize(
    "body",
    [
        {"game": "edelweiss", "config": None, "seats": {"P1": 1, "P2": "human"}},
        {"game": "edelweiss", "config": [1], "seats": {"P1": "human", "P2": "human"}},
        {"game": "edelweiss", "config": None, "seats": ["human", "human"]},
        {"game": "edelweiss", "config": None, "seats": {"P1": "human", "P2": "human"}, "seed": -1},
        {"game": "edelweiss", "config": None, "seats": {"P1": "human", "P2": "human"}, "seed": 2**64},
        {"config": None, "seats": {"P1": "human", "P2": "human"}},
    ],
)
def test_invalid_new_game_shapes_are_422(client: Any, body: dict) -> None:
    error(client.post("/api/games", json=body), 422)


def test_same_seed_same_deal(client: Any) -> None:
    a = create(client, "aterial", ATERIAL, seed=99)
    b = create(client, "aterial", ATERIAL, seed=99)
    assert a["id"] != b["id"]
    for seat in SEATS:
        va, vb = get_view(client, a["id"], a["tokens"][seat]), get_view(client, b["id"], b["tokens"][seat])
        assert va["observation"] == vb["observation"] and va["legal"] == vb["legal"]


# -- rematch -----------------------------------------------------------------------------------------


def test_rematch_only_once_over(client: Any) -> None:
    created = create(client, "edelweiss", EDELWEISS_SKILLS, seed=21)
    game_id, tokens = created["id"], created["tokens"]
    url = f"/api/games/{game_id}/rematch"
    body = error(client.post(url, json={"token": tokens["P1"]}), 409)
    assert body["error"]
    play_humans(client, game_id, tokens)
    error(client.post(url, json={"token": "wrong"}), 403)

    again = ok(client.post(url, json={"token": tokens["P2"]}), 201)
    assert again["id"] != game_id
    assert set(again["tokens"]) == {"P2"}, "a seat gets its own token only"
    assert again["tokens"]["P2"] not in tokens.values()
    assert again["urls"] == {"P2": f"/play/{again['id']}?token={again['tokens']['P2']}"}
    mine = ok(client.post(url, json={"token": tokens["P1"]}), 201)
    assert mine["id"] == again["id"], "both players land in the same rematch"
    assert set(mine["tokens"]) == {"P1"} and mine["tokens"]["P1"] != again["tokens"]["P2"]
    links = {"P1": mine["urls"]["P1"], "P2": again["urls"]["P2"]}
    fresh_tokens = {"P1": mine["tokens"]["P1"], "P2": again["tokens"]["P2"]}
    for seat in SEATS:
        view = get_view(client, game_id, tokens[seat])
        assert view["rematch_url"] == links[seat]
        fresh = get_view(client, again["id"], fresh_tokens[seat])
        assert fresh["seat"] == seat
        assert fresh["status"] == "running" and fresh["version"] == 0
        assert fresh["observation"]["config"] == view["observation"]["config"]
        assert fresh["seats"] == view["seats"]
    assert get_view(client, game_id)["rematch_url"] is None


def test_rematch_with_an_agent_seat(client: Any) -> None:
    created = create(client, "edelweiss", None, "human", "random", seed=4)
    game_id, token = created["id"], created["tokens"]["P1"]
    deadline = time.monotonic() + 30
    view = get_view(client, game_id, token)
    while view["status"] == "running":
        assert time.monotonic() < deadline
        view = act(client, game_id, token, view["legal"][0]) if view["legal"] else get_view(client, game_id, token)
    again = ok(client.post(f"/api/games/{game_id}/rematch", json={"token": token}), 201)
    assert set(again["tokens"]) == {"P1"}
    assert get_view(client, again["id"], again["tokens"]["P1"])["seats"] == {"P1": "human", "P2": "random"}


# -- metadata and pages ------------------------------------------------------------------------------


def test_meta(client: Any) -> None:
    meta = ok(client.get("/api/meta"))
    assert {"edelweiss", "aterial"} <= set(meta["games"])
    assert all(isinstance(info["title"], str) for info in meta["games"].values())
    assert "random" in meta["agents"]


def test_openapi_lists_the_api(client: Any) -> None:
    paths = ok(client.get("/openapi.json"))["paths"]
    for path in (
        "/api/meta",
        "/api/games",
        "/api/games/{game_id}",
        "/api/games/{game_id}/actions",
        "/api/games/{game_id}/rematch",
        "/api/games/{game_id}/replay",
        "/api/rules/{game}",
    ):
        assert path in paths, path
    assert "post" in paths["/api/games"] and "get" in paths["/api/games/{game_id}"]


@pytest.mark.parametrize("game", ["edelweiss", "aterial"])
def test_rules_fragment(client: Any, game: str) -> None:
    response = client.get(f"/api/rules/{game}")
    assert response.status_code == 200, response.text[:300]
    assert response.headers["content-type"].startswith("text/html")
    assert "<" in response.text and len(response.text) > 100


def test_rules_for_an_unknown_game_is_404(client: Any) -> None:
    assert "error" in error(client.get("/api/rules/chess"), 404)
    assert client.get("/api/rules/..%2F..%2Fapp").status_code in (404, 422)


@pytest.mark.parametrize("path", ["/", "/play/{id}", "/replay/{id}", "/rules/edelweiss"])
def test_pages_are_html(client: Any, path: str) -> None:
    created = create(client, "edelweiss", None, seed=1)
    response = client.get(path.format(id=created["id"]))
    assert response.status_code == 200, response.text[:300]
    assert response.headers["content-type"].startswith("text/html")
    assert "<html" in response.text.lower()


def test_search_budgets_of_web_agents_are_capped(client) -> None:
    for spec in ("ismcts:iterations=100000", "ismcts:time=30", "pimc:worlds=100000", "pimc:time=30"):
        response = client.post("/api/games", json={"game": "edelweiss", "seats": {"P1": "human", "P2": spec}})
        assert response.status_code == 422
        assert "at most" in response.json()["error"]


def test_the_rollout_search_is_offered_for_the_games_whose_heuristic_estimates_positions(client: Any) -> None:
    """`pimc:...:depth=...` needs the game's position estimate: the TCGs have one, Edelweiss none."""
    from cardlab.web.app import ROLLOUT_CHOICE

    games = ok(client.get("/api/meta"))["games"]
    assert ROLLOUT_CHOICE in games["aterial"]["agents"] and ROLLOUT_CHOICE in games["dreadnought"]["agents"]
    assert ROLLOUT_CHOICE not in games["edelweiss"]["agents"]
    seats = {"P1": ROLLOUT_CHOICE, "P2": "heuristic"}
    assert ok(client.post("/api/games", json={"game": "aterial", "seats": seats}), 201)["id"]


def test_a_non_numeric_content_length_is_a_bad_request(client) -> None:
    response = client.post(
        "/api/games", content=b"{}", headers={"content-length": "abc", "content-type": "application/json"}
    )
    assert response.status_code == 400


def test_the_compiled_search_is_offered_where_a_game_has_one_and_plays(client: Any) -> None:
    """`ismcts:...:backend=cpu` is an ordinary web agent (issue 13), listed where it can play: each game's own
    `search_agent`, the spec its search plays best (the TCGs' cut heuristic rollouts, #34)."""
    pytest.importorskip("numba")
    from cardlab.games import game_class, game_names

    games = ok(client.get("/api/meta"))["games"]
    for name in game_names():
        spec = game_class(name).search_agent
        offered = spec in games[name]["agents"]
        assert offered == (game_class(name).compiled_search() is not None), name
    assert any("depth=30" in agent for agent in games["dreadnought"]["agents"])
    seats = {"P1": "human", "P2": "ismcts:depth=5:backend=cpu"}
    refused = client.post("/api/games", json={"game": "edelweiss", "seats": seats})
    assert refused.status_code == 422 and "plays its rollouts to the end" in refused.json()["error"]
    created = create(client, "edelweiss", EDELWEISS_SKILLS, "human", "ismcts:iterations=200:backend=cpu", seed=3)
    game_id, token = created["id"], created["tokens"]["P1"]
    deadline = time.monotonic() + 120  # the first decision compiles the search
    view = get_view(client, game_id, token)
    moved = 0
    while view["status"] == "running" and moved < 6:
        assert time.monotonic() < deadline
        if view["legal"]:
            view = act(client, game_id, token, view["legal"][0])
            moved += 1
        else:
            time.sleep(0.02)
            view = get_view(client, game_id, token)
    assert view["version"] > moved, "the search seat moved too"


def test_docs_work_offline_and_describe_the_request_bodies(client) -> None:
    """Issue #16 item 4: /docs is rendered by the server (Swagger UI's CDN is unreachable offline),
    and the OpenAPI schema documents a new game's fields with an example per game."""
    from cardlab.games import game_names

    page = client.get("/docs")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "<script" not in page.text and "cdn" not in page.text.lower()
    assert "/api/games" in page.text and "seats" in page.text and "href='/'" in page.text
    schema = client.get("/openapi.json").json()["components"]["schemas"]["NewGame"]
    assert all(schema["properties"][field].get("description") for field in ("game", "config", "options", "seats"))
    examples = schema["examples"]
    assert {example["game"] for example in examples} == set(game_names())
    for example in examples:  # every example is a request the server accepts
        assert client.post("/api/games", json=example).status_code == 201, example
