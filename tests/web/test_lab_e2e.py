"""The Lab in Chromium at 1366x900 on a fresh database (issue #53): start a small table and watch its cells come,
cancel and resume a run, open a cell's game in the replay viewer, compare two tables, edit a card file with two
errors, and sweep a card's stat from the editor. One server and one browser for the module; a screenshot of each
page goes to a temporary folder. Games are the quick heuristic's, one or a few per pairing and seat."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from cardlab.games import game_class
from cardlab.web.app import create_app
from cardlab.web.lab import LabSettings
from tests.core.test_deck_validate_problems import two_problem_cards
from tests.web.helpers import CHROMIUM, NEEDS_CHROMIUM, serve

sync_api = pytest.importorskip("playwright.sync_api")

pytestmark = [NEEDS_CHROMIUM, pytest.mark.xdist_group("web-lab")]
"""One worker runs the module in order (`--dist loadgroup`): its flows share one server, browser and lab
database, and later flows read the jobs and tables earlier ones made."""

GAME = "edelweiss"
"""The fastest heuristic table (15 pairings); the card editor's game has card files."""
FILE_GAME = "dreadnought"
TIMEOUT = 60_000


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    root = tmp_path_factory.mktemp("lab")
    folder = root / "lab"
    folder.mkdir()
    shots = root / "screenshots"
    shots.mkdir()
    app = create_app(root / "play.sqlite", agent_delay=0.0, lab=LabSettings(folder, folder / "lab.sqlite"))
    errors: list[str] = []
    with serve(app) as base, httpx.Client(base_url=base, timeout=30.0) as client, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--headless=new"])
        page = browser.new_page(viewport={"width": 1366, "height": 900})
        page.set_default_timeout(TIMEOUT)
        page.on("console", lambda msg: errors.extend([msg.text] if msg.type == "error" else []))
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        try:
            yield {"base": base, "client": client, "page": page, "folder": folder, "shots": shots, "errors": errors}
        finally:
            browser.close()
            app.state.manager.db.close()


def wait_job(client: httpx.Client, job_id: int, states: tuple[str, ...] = ("done", "failed", "cancelled")) -> Any:
    deadline = time.monotonic() + TIMEOUT / 1000
    while time.monotonic() < deadline:
        job = client.get(f"/api/lab/jobs/{job_id}").json()
        if job["state"] in states:
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} is still {job['state']}")


def fill_balance(page: Any, games: int) -> None:
    page.select_option("#run-command", "balance")
    page.select_option("#run-game", GAME)
    page.select_option("#run-preset", "quick")
    page.fill("#run-games", str(games))
    page.select_option("#run-engine", "reference")
    page.fill("#run-workers", "1")


def test_a_small_table_fills_and_shows_the_clis_numbers(lab: dict[str, Any]) -> None:
    page, client = lab["page"], lab["client"]
    page.goto(lab["base"] + "/")
    page.click("a.lab-link")
    page.wait_for_selector("body[data-ready='1']")
    fill_balance(page, 1)
    command = f"cardlab balance {GAME} --agent heuristic --games 1 --engine reference --workers 1"
    page.wait_for_function(f"document.getElementById('cli-command').textContent === {json.dumps(command)}")
    page.click("#run-start")
    page.wait_for_selector("#live-table td.lab-cell[data-rate]")  # cells come as the games are stored
    page.wait_for_selector("#job-state[data-state='done']")
    page.wait_for_function("document.querySelector('#live-table .lab-heatmap').dataset.total === '30'")
    page.screenshot(path=str(lab["shots"] / "run.png"), full_page=True)
    summary = json.loads((lab["folder"] / f"balance-{GAME}-symbolic" / "summary.json").read_text())
    rates = summary["matrix"]["win_rate"]
    entrants = summary["matrix"]["entrants"]
    shown = page.locator("#live-table td.lab-cell[data-rate]").evaluate_all(
        "cells => cells.map((c) => [c.dataset.a, c.dataset.b, c.dataset.rate])"
    )
    assert len(shown) == 30  # 15 pairings, each from both sides
    for a, b, rate in shown:
        assert rate == f"{rates[entrants.index(a)][entrants.index(b)]:.4f}"
    assert page.locator("#first-player").get_attribute("data-rate") == f"{summary['first_player']['rate']:.4f}"
    first = page.locator("#live-table td.lab-cell[data-rate]").first
    assert "95%" in (first.get_attribute("title") or "")  # the seats' intervals on hover
    significant = len(summary["significance"]["significant_cells"])
    assert page.locator("#live-table td.lab-cell.significant").count() >= significant
    assert client.get("/api/lab/jobs/1").json()["done"] == 30
    assert not lab["errors"]


def test_a_run_is_cancelled_keeping_its_games_and_resumed(lab: dict[str, Any]) -> None:
    page, client = lab["page"], lab["client"]
    fill_balance(page, 40)  # 1,200 games: still playing when the cancel lands
    page.click("#run-start")
    page.wait_for_function("(document.getElementById('job-log').textContent || '').includes('/1,200 games')")
    page.click("#job-cancel")
    cancelled = wait_job(client, 2)
    assert cancelled["state"] == "cancelled" and 0 < cancelled["done"] < 1200, cancelled
    page.wait_for_selector("#job-resume:not([hidden])")
    page.screenshot(path=str(lab["shots"] / "cancelled.png"), full_page=True)
    page.click("#job-resume")
    resumed = wait_job(client, 3)
    assert resumed["state"] == "done", resumed["log"]
    table = client.get("/api/lab/table", params={"game": GAME, "variant": "symbolic", "agent": "heuristic"}).json()
    assert table["summary"]["total_games"] == 30 + 1200  # the interrupted run finished, no game twice
    page.wait_for_selector("#job-state[data-state='done']")
    assert not lab["errors"]


def test_a_cells_game_opens_in_the_replay_viewer(lab: dict[str, Any]) -> None:
    page = lab["page"]
    page.goto(lab["base"] + "/lab#results")
    page.wait_for_selector("#results tbody tr")
    page.locator("#results tbody tr").first.locator("button.open-table").click()
    page.locator("#stored-table td.lab-cell[data-rate]").first.click()
    page.wait_for_selector("#cell-games a.replay-link")
    assert page.locator("#cell-games h3").count() == 2  # both seats
    page.screenshot(path=str(lab["shots"] / "results.png"), full_page=True)
    page.locator("#cell-games a.replay-link").first.click()
    page.wait_for_url("**/replay/lab-*")
    page.wait_for_selector("#board *")
    page.wait_for_function("document.getElementById('title').textContent.includes('lab-')")
    page.screenshot(path=str(lab["shots"] / "replay.png"), full_page=True)
    assert not lab["errors"]


def test_two_tables_are_compared_cell_by_cell(lab: dict[str, Any]) -> None:
    page, client = lab["page"], lab["client"]
    rule = game_class(GAME).rule_options[0]
    other = next(value for value in rule.values if value != rule.default)
    body = {"command": "balance", "game": GAME, "preset": "quick", "games": 1, "engine": "reference", "workers": 1,
            "rules": [f"{rule.name}={other}"]}  # fmt: skip
    started = client.post("/api/lab/jobs", json=body)
    assert started.status_code == 201, started.text
    assert wait_job(client, started.json()["id"])["state"] == "done"
    page.goto(lab["base"] + "/lab#results")
    page.select_option("#filter-game", GAME)
    page.wait_for_function("document.querySelectorAll('#results tbody tr').length === 2")
    for box in page.locator("#results tbody tr input[type=checkbox]").all():
        box.check()
    page.click("#compare-picked")
    verdict = page.locator("#compare-verdict")
    verdict.wait_for()
    assert "no difference found" in verdict.inner_text() or "differ" in verdict.inner_text()
    assert page.locator(".lab-compare tbody tr").count() == 30
    page.screenshot(path=str(lab["shots"] / "compare.png"), full_page=True)
    assert not lab["errors"]


def test_a_card_file_shows_each_problem_and_a_stat_is_swept(lab: dict[str, Any]) -> None:
    page, client = lab["page"], lab["client"]
    page.goto(lab["base"] + "/lab#files")
    page.select_option("#file-game", FILE_GAME)
    page.fill("#file-path", "bad_cards.toml")
    page.fill("#file-text", two_problem_cards(FILE_GAME))
    page.wait_for_function("document.querySelectorAll('#file-problems li').length >= 2")
    problems = page.locator("#file-problems li").evaluate_all(
        "items => items.map((li) => [li.dataset.line, li.dataset.rule])"
    )
    assert len(problems) == 2 and all(line and rule for line, rule in problems)
    page.click("#file-save")
    page.wait_for_function("document.getElementById('file-status').textContent.startsWith('saved')")
    assert (lab["folder"] / "bad_cards.toml").is_file()
    page.screenshot(path=str(lab["shots"] / "files.png"), full_page=True)
    page.fill("#whatif-card", "X01")
    page.fill("#whatif-field", "hp")
    page.fill("#whatif-values", "2,4")
    page.fill("#whatif-games", "1")
    page.click("#whatif-run")
    page.wait_for_selector("#job-state[data-state='done']:not([data-sweep])", state="attached")
    job = wait_job(client, max(job["id"] for job in client.get("/api/lab/jobs").json()["jobs"]))
    assert (
        job["state"] == "done" and "--patch X01.hp=2,4" in job["command"] and job["command"].startswith("cardlab sweep")
    ), job
    page.wait_for_function("document.getElementById('job-state').dataset.state === 'done'")
    page.screenshot(path=str(lab["shots"] / "sweep.png"), full_page=True)
    assert not lab["errors"]
