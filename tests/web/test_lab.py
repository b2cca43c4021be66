"""The Lab's API (issue #53): its safety checks (token, files only inside the lab folder, job caps, 4xx JSON for
bad requests), and a table the page shows equal to the one the CLI wrote for the same run."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from cardlab.web.app import create_app
from cardlab.web.lab import LabSettings
from cardlab.web.lab.settings import inside, lab_settings
from cardlab.web.manager import Rejected
from tests.web.conftest import TestClient

GAME = "edelweiss"
"""The lab game with the fastest heuristic table (6 entrants, 15 pairings)."""
QUICK = {"command": "balance", "game": GAME, "preset": "quick", "games": 1, "engine": "reference", "workers": 1}


@pytest.fixture
def lab_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "lab"
    folder.mkdir()
    return folder


def lab_client(tmp_path: Path, settings: LabSettings) -> Iterator[TestClient]:
    app = create_app(tmp_path / "play.sqlite", agent_delay=0.0, lab=settings)
    with TestClient(app) as client:
        yield client
    app.state.manager.db.close()


@pytest.fixture
def client(tmp_path: Path, lab_dir: Path) -> Iterator[TestClient]:
    yield from lab_client(tmp_path, LabSettings(lab_dir, lab_dir / "lab.sqlite"))


def wait_for(client: TestClient, job_id: int, states: tuple[str, ...] = ("done", "failed", "cancelled")) -> Any:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job = client.get(f"/api/lab/jobs/{job_id}").json()
        if job["state"] in states:
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} did not finish: {job}")


def test_a_token_is_asked_for_beyond_this_machine(tmp_path: Path, lab_dir: Path) -> None:
    assert lab_settings(str(lab_dir), None, "127.0.0.1").token is None
    settings = lab_settings(str(lab_dir), None, "0.0.0.0")
    assert settings.token and len(settings.token) >= 20
    for client in lab_client(tmp_path, settings):
        refused = client.get("/api/lab/meta")
        assert refused.status_code == 401 and "token" in refused.json()["error"]
        assert client.get("/api/lab/meta", headers={"x-lab-token": "wrong"}).status_code == 401
        assert client.get("/lab").status_code == 401
        assert client.post("/api/lab/jobs", json=QUICK).status_code == 401  # nothing runs without it
        assert client.get("/api/games/lab-1/replay").status_code == 401
        with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws/lab/jobs/1"):
            pass
        assert client.get("/api/lab/meta", headers={"x-lab-token": settings.token}).status_code == 200
        entered = client.get(f"/lab?token={settings.token}", follow_redirects=False)
        assert entered.status_code == 303 and entered.headers["location"] == "/lab"  # the token leaves the URL
        assert client.get("/lab").status_code == 200  # the cookie carries it from then on
        assert client.get("/api/lab/meta").status_code == 200


@pytest.mark.parametrize(
    "name",
    ["../outside.toml", "/etc/outside.toml", "a/../../outside.toml", "~/outside.toml", "cards.py", "a\\..\\b.toml",
     "", "link/outside.toml", "x\x00.toml"],
)  # fmt: skip
def test_files_stay_inside_the_lab_folder(client: TestClient, lab_dir: Path, name: str) -> None:
    outside = lab_dir.parent / "outside.toml"
    outside.write_text("secret = 1\n")
    (lab_dir / "link").symlink_to(lab_dir.parent, target_is_directory=True)
    with pytest.raises(Rejected) as refused:
        inside(lab_dir, name)
    assert refused.value.status in (400, 403)
    read = client.get("/api/lab/file", params={"path": name})
    assert read.status_code in (400, 403, 422) and "error" in read.json() and "secret" not in read.text
    written = client.post("/api/lab/file", json={"path": name, "text": "x = 1\n"})
    assert written.status_code in (400, 403, 422) and outside.read_text() == "secret = 1\n"
    checked = client.post("/api/lab/check", json={"game": "aterial", "path": "ok.toml", "text": "", "cards": [name]})
    assert checked.status_code in (400, 403, 422)


def test_a_file_inside_is_saved_and_read_back(client: TestClient, lab_dir: Path) -> None:
    assert client.post("/api/lab/file", json={"path": "mine/cards.toml", "text": "[[cards]]\n"}).status_code == 200
    assert (lab_dir / "mine" / "cards.toml").read_text() == "[[cards]]\n"
    assert client.get("/api/lab/file", params={"path": "mine/cards.toml"}).json()["text"] == "[[cards]]\n"
    assert client.get("/api/lab/files").json()["files"] == ["mine/cards.toml"]


def test_job_size_and_queue_are_capped(tmp_path: Path, lab_dir: Path) -> None:
    settings = LabSettings(lab_dir, lab_dir / "lab.sqlite", max_job_games=30, max_jobs=1)
    for client in lab_client(tmp_path, settings):
        too_big = client.post("/api/lab/jobs", json={**QUICK, "games": 3})  # 15 pairings x 2 seats x 3 games
        assert too_big.status_code == 413 and "90 games" in too_big.json()["error"]
        assert client.post("/api/lab/command", json={**QUICK, "games": 3}).status_code == 413
        first = client.post("/api/lab/jobs", json=QUICK)
        assert first.status_code == 201, first.text
        second = client.post("/api/lab/jobs", json=QUICK)
        assert second.status_code == 429 and "error" in second.json()
        client.post(f"/api/lab/jobs/{first.json()['id']}/cancel")
        assert wait_for(client, first.json()["id"])["state"] == "cancelled"
        assert client.post("/api/lab/command", json=QUICK).status_code == 200  # checking runs nothing: not capped
        third = client.post("/api/lab/jobs", json=QUICK)  # one ended: the next is taken
        assert third.status_code == 201
        client.post(f"/api/lab/jobs/{third.json()['id']}/cancel")


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("post", "/api/lab/jobs", {**QUICK, "game": "chess"}, 404),
        ("post", "/api/lab/jobs", {**QUICK, "rules": ["nope=1"]}, 422),
        ("post", "/api/lab/jobs", {**QUICK, "preset": "custom", "agent": "nonsense:x=1"}, 422),
        ("post", "/api/lab/jobs", {**QUICK, "preset": "custom"}, 422),
        ("post", "/api/lab/jobs", {**QUICK, "games": 0}, 422),
        ("post", "/api/lab/jobs", {**QUICK, "rules": ["--db=/tmp/x"]}, 422),
        ("post", "/api/lab/jobs", {**QUICK, "command": "sweep"}, 422),
        ("post", "/api/lab/jobs", {**QUICK, "command": "tune"}, 422),
        ("post", "/api/lab/command", {**QUICK, "engine": "gpu9"}, 422),
        ("get", "/api/lab/jobs/99", None, 404),
        ("post", "/api/lab/jobs/99/cancel", None, 404),
        ("get", "/api/lab/table?game=edelweiss&variant=symbolic&agent=heuristic", None, 404),
        ("get", "/api/lab/table?game=edelweiss&variant=nope%2Bx%3D1&agent=heuristic", None, 404),
        ("get", "/api/lab/cell?game=edelweiss&variant=symbolic&agent=h&cell=A-B&seat=7", None, 422),
        ("get", "/api/lab/tables?game=nope", None, 404),
        ("get", "/api/games/lab-5/replay", None, 404),
        ("get", "/api/games/lab-x/replay", None, 422),
        ("post", "/api/lab/compare", {"a": {"game": "edelweiss", "variant": "v", "agent": "a"}}, 422),
        ("post", "/api/lab/check", {"game": "edelweiss", "path": "d.toml", "text": ""}, 422),
    ],
)
def test_a_bad_request_gets_a_4xx_json_reason(
    client: TestClient, method: str, path: str, body: Any, status: int
) -> None:
    response = client.request(method.upper(), path, json=body) if body is not None else getattr(client, method)(path)
    assert response.status_code == status, response.text
    assert isinstance(response.json()["error"], str) and response.json()["error"]


def test_the_table_shown_is_the_table_the_cli_wrote(client: TestClient, lab_dir: Path) -> None:
    """The job is the CLI command the form shows; the page's table is computed from the database by the same
    library calls, so it equals the summary.json that command wrote, number for number."""
    checked = client.post("/api/lab/command", json=QUICK).json()
    assert checked["command"] == f"cardlab balance {GAME} --agent heuristic --games 1 --engine reference --workers 1"
    job = client.post("/api/lab/jobs", json=QUICK).json()
    done = wait_for(client, job["id"])
    assert done["state"] == "done", done["log"]
    assert done["done"] == done["games"] == 30
    written = json.loads((lab_dir / f"balance-{GAME}-symbolic" / "summary.json").read_text())
    table = checked["table"]
    shown = client.get("/api/lab/table", params=table).json()["summary"]
    assert shown == written
    listed = client.get("/api/lab/tables", params={"game": GAME}).json()["tables"]
    assert [(t["variant"], t["agent"], t["games"]) for t in listed] == [("symbolic", "heuristic", 30)]
    assert client.post("/api/lab/jobs/1/cancel").status_code == 409  # a finished job has nothing to cancel
    assert client.post("/api/lab/jobs/1/resume").status_code == 409
