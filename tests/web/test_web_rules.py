"""Rule variants in the web app (issue #17): /api/meta lists them, a new game may name them, bad ones get a 422."""

from __future__ import annotations

from cardlab.games import game_class
from tests.web.helpers import ok


def test_meta_lists_each_games_rule_options(client) -> None:
    games = ok(client.get("/api/meta"))["games"]
    for name, meta in games.items():
        options = game_class(name).rule_options
        assert [{k: v for k, v in rule.items() if k != "value_words"} for rule in meta["rules"]] == [
            option.to_json() for option in options
        ]
        for rule, option in zip(meta["rules"], options, strict=True):  # each value in words (the lobby's fold)
            assert set(rule["value_words"]) == set(option.values) and all(rule["value_words"].values()), rule
    assert {rule["name"] for rule in games["edelweiss"]["rules"]} >= {"first_draw", "deck_out_tie"}


def test_a_new_game_under_rule_variants_keeps_them(client) -> None:
    body = {"game": "edelweiss", "options": {"deck": "short"}, "rules": {"first_draw": "no"},
            "seats": {"P1": "human", "P2": "random"}, "seed": 5}  # fmt: skip
    created = ok(client.post("/api/games", json=body), 201)
    view = ok(client.get(f"/api/games/{created['id']}", params={"token": created["tokens"]["P1"]}))
    assert view["observation"]["config"]["rules"] == {"first_draw": "no"}
    config = {"deck": "full", "standard": None, "characters": None, "rules": {"deck_out_tie": "draw"}}
    by_config = ok(client.post("/api/games", json={"game": "edelweiss", "config": config,
                                                  "seats": {"P1": "random", "P2": "random"}}), 201)  # fmt: skip
    assert ok(client.get(f"/api/games/{by_config['id']}"))["observation"]["config"]["rules"] == {"deck_out_tie": "draw"}


def test_a_bad_rule_is_a_422_naming_it(client) -> None:
    for rules, text in (({"first_draw": "maybe"}, "config.rules.first_draw"), ({"nope": "x"}, "config.rules.nope"),
                        ("first_draw=no", "rules")):  # fmt: skip
        response = client.post("/api/games", json={"game": "edelweiss", "rules": rules,
                                                   "seats": {"P1": "human", "P2": "random"}})  # fmt: skip
        assert response.status_code == 422, response.text
        assert text in response.text


def test_a_browser_may_name_only_the_policy_files_the_server_offers(tmp_path) -> None:
    """`policy:path=FILE` reads a file on the server: a path the operator did not offer is refused unread."""
    import numpy as np
    from fastapi.testclient import TestClient

    from cardlab.agents.policy import save_policy
    from cardlab.web.app import create_app
    from cardlab.web.manager import ServerLimits

    offered = tmp_path / "offered.npz"
    save_policy(offered, "edelweiss", [(np.zeros((75, 21), np.float32), np.zeros(21, np.float32))])
    app = create_app(tmp_path / "play.sqlite", agent_delay=0.0, limits=ServerLimits(policies=(str(offered),)))
    with TestClient(app) as client:
        assert f"policy:path={offered}" in ok(client.get("/api/meta"))["games"]["edelweiss"]["agents"]
        assert not any("policy" in spec for spec in ok(client.get("/api/meta"))["games"]["aterial"]["agents"])
        for path in ("/etc/passwd", str(tmp_path / "missing.npz")):
            body = {"game": "edelweiss", "seats": {"P1": "human", "P2": f"policy:path={path}"}}
            response = client.post("/api/games", json=body)
            assert response.status_code == 422 and "offers these policy files only" in response.text
            assert "passwd" not in response.text.replace(path, "") and "No such file" not in response.text
        body = {"game": "edelweiss", "seats": {"P1": "random", "P2": f"policy:path={offered}"}, "seed": 2}
        assert client.post("/api/games", json=body).status_code == 201
    app.state.manager.db.close()
