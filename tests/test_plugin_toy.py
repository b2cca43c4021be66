"""A fourth game, Kuhn poker (tests/toygame), registered from outside cardlab: every command and the
web app accept it with no change outside its package (one place per game)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardlab.cli import main
from cardlab.games import REGISTRY, game_class, game_names


@pytest.fixture(autouse=True)
def kuhn() -> Iterator[None]:
    REGISTRY.register("kuhn", "tests.toygame:Kuhn")
    yield
    REGISTRY.unregister("kuhn")


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_the_registry_holds_it_by_name() -> None:
    assert "kuhn" in game_names()
    assert game_class("kuhn").title == "Kuhn Poker"


def test_its_options_are_its_own(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "kuhn", "--help"])
    out = capsys.readouterr().out
    assert "--antes" in out and "--deck" in out
    assert "--decks" not in out and "--standard" not in out and "--characters" not in out
    assert main(["simulate", "kuhn", "--standard", "accel2"]) == 2
    assert "--standard is not an option of `simulate kuhn`" in capsys.readouterr().err


@pytest.mark.parametrize("workers", ["1", "2"])
def test_simulate_plays_it_in_any_number_of_workers(capsys, workers: str) -> None:
    argv = ["simulate", "kuhn", "--agents", "heuristic,random", "--games", "40", "--antes", "2,1", "--json"]
    summary = _json(capsys, [*argv, "--workers", workers])
    assert summary["config"] == {"deck": "jqk", "antes": {"P1": 2, "P2": 1}}
    assert sum(summary["wins"]) == 40 == sum(summary["seat_wins"].values())


def test_simulate_results_do_not_depend_on_the_workers(capsys) -> None:
    argv = ["simulate", "kuhn", "--agents", "heuristic,ismcts:iterations=20", "--games", "12", "--json"]
    one, two = (_json(capsys, [*argv, "--workers", n]) for n in ("1", "2"))
    assert (one["wins"], one["decisions"]) == (two["wins"], two["decisions"])


def test_balance_and_report_tabulate_its_entrants(tmp_path: Path, capsys) -> None:
    db, out = str(tmp_path / "lab.sqlite"), tmp_path / "out"
    argv = ["balance", "kuhn", "--games", "10", "--workers", "1", "--db", db, "--out", str(out)]
    assert main(argv) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["game"] == "kuhn" and summary["agent"] == "heuristic" and summary["kind"] == "antes"
    assert summary["total_games"] == 20 and [row["a"] + row["b"] for row in summary["pairings"]] == ["A1A2"]
    assert "Kuhn Poker" in (out / "report.html").read_text()
    capsys.readouterr()
    assert main(["report", "kuhn", "--db", db, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Kuhn Poker: A1, A2" in printed and "variant jqk" in printed  # the title in words, the variant below it


def test_ladder_rates_agents_on_it(tmp_path: Path, capsys) -> None:
    argv = ["ladder", "kuhn", "--agents", "random,heuristic", "--games", "20", "--workers", "1"]
    summary = _json(capsys, [*argv, "--out", str(tmp_path / "ladder"), "--json"])
    assert summary["game"] == "kuhn" and summary["engine"] == "reference"


def test_the_kernel_engine_is_refused_for_it(capsys) -> None:
    assert main(["simulate", "kuhn", "--engine", "cpu", "--games", "2"]) == 2
    assert "not kuhn" in capsys.readouterr().err


def test_play_at_the_terminal(monkeypatch, capsys) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 5))
    assert main(["play", "kuhn", "--seed", "4", "--vs", "heuristic"]) == 0
    out = capsys.readouterr().out
    assert "You win" in out or "You lose" in out
    assert "1 CHECK" in out and "event: kind action, player P1" in out


def test_games_lists_it(capsys) -> None:
    listed = _json(capsys, ["games", "--json"])
    assert [entry["name"] for entry in listed][-1] == "kuhn" and listed[-1]["profile"] is None


def test_the_web_app_plays_it(tmp_path: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from cardlab.web.app import create_app

    with TestClient(create_app(tmp_path / "play.sqlite", agent_delay=0.0)) as client:
        meta = client.get("/api/meta").json()["games"]["kuhn"]
        assert meta["title"] == "Kuhn Poker" and [o["name"] for o in meta["options"]] == ["deck", "antes"]
        seats = {"P1": "human", "P2": "human"}
        bad = client.post("/api/games", json={"game": "kuhn", "options": {"deck": "jqkx"}, "seats": seats})
        assert bad.status_code == 422 and "options.deck" in bad.json()["error"]
        body = {"game": "kuhn", "options": {"deck": "jqka", "antes": {"P1": "2", "P2": ""}}, "seats": seats}
        created = client.post("/api/games", json={**body, "seed": 5}).json()
        tokens = created["tokens"]
        view = client.get(f"/api/games/{created['id']}", params={"token": tokens["P1"]}).json()
        assert view["title"] == "Kuhn Poker" and view["legal"] == ["CHECK", "BET"]
        players = view["observation"]["players"]
        assert players["P1"]["ante"] == 2 and players["P2"]["card"] is None
        for seat, action in (("P1", "BET"), ("P2", "FOLD")):
            reply = client.post(f"/api/games/{created['id']}/actions", json={"token": tokens[seat], "action": action})
            assert reply.status_code == 200, reply.text
        replay = client.get(f"/api/games/{created['id']}/replay").json()
        first_frame = replay["frames"][0]["observation"]
        assert replay["status"] == "over" and all(p["card"] for p in first_frame["players"].values())
        assert client.get("/static/render/kuhn.js").status_code == 404  # the page falls back to its generic board
        assert client.get("/api/rules/kuhn").status_code == 404
