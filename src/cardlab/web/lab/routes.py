"""The lab's pages and JSON API (issue #53): run lab commands as jobs and watch them, read every stored table,
compare two, list a cell's games and replay one, edit card and deck files. Every answer comes from the library
the CLI uses (`cardlab.sim.labview`, `cardlab.store.catalog`, `cardlab.sim.compare`); a bad request is a 4xx
JSON `{error}`. Where the server listens beyond this machine every route asks for the token it printed."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Depends, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from cardlab.core.errors import CardlabError
from cardlab.games import game_class, game_names
from cardlab.store.catalog import cell_games, stored_comparisons, stored_game, stored_tables
from cardlab.web.lab.commands import COMMANDS, RunForm, argv_of, command_line, preflight
from cardlab.web.lab.jobs import JobQueue
from cardlab.web.lab.settings import MAX_FILE, TOKEN_COOKIE, TOKEN_HEADER, LabSettings
from cardlab.web.manager import Rejected


class TableRef(BaseModel):
    game: str = Field(max_length=40)
    variant: str = Field(max_length=400)
    agent: str = Field(max_length=200)


class CompareRequest(BaseModel):
    a: TableRef
    b: TableRef


class FileText(BaseModel):
    path: str = Field(max_length=200)
    text: str = Field(max_length=MAX_FILE)


class CheckRequest(BaseModel):
    game: str = Field(max_length=40)
    path: str = Field(max_length=200, description="the file's name in the lab folder (it need not be saved yet)")
    text: str = Field(max_length=MAX_FILE)
    cards: list[str] = Field(default_factory=list, max_length=20, description="card files a deck may use")


def finite(node: Any) -> Any:
    """JSON has no NaN or infinity (a Bradley-Terry strength of an entrant that never lost): null instead."""
    if isinstance(node, float):
        return node if math.isfinite(node) else None
    if isinstance(node, dict):
        return {key: finite(value) for key, value in node.items()}
    if isinstance(node, list | tuple):
        return [finite(value) for value in node]
    return node


def _game(name: str) -> str:
    if name not in game_names() or game_class(name).lab() is None:
        raise Rejected(404, f"no lab for game {name!r}; lab games: {[g for g in game_names() if game_class(g).lab()]}")
    return name


def lab_meta(settings: LabSettings) -> dict[str, Any]:
    """What the run form offers per game: its variant option, rule options, card edits, entrants and commands."""
    games = {}
    for name in game_names():
        cls = game_class(name)
        lab = cls.lab()
        if lab is None:
            continue
        base = lab.matchups(None)
        option, kernels = lab.variant_option, cls.kernels()
        variable = bool(cls.rule_options or cls.card_patches)
        games[name] = {
            "title": cls.title, "kind": base.kind, "entrants": list(base.entrants), "names": dict(base.names),
            "variant": None if option is None else {"flag": option.flag, "help": option.help,
                                                    "values": option.values, "default": base.variant},
            "rules": [{"name": r.name, "values": list(r.values), "default": r.default, "description": r.description}
                      for r in cls.rule_options],
            "patches": bool(cls.card_patches), "own_entrants": lab.own is not None, "deck_files": cls.deck_files,
            "strong_agent": base.strong_agent, "engines": list(kernels.engines) if kernels else [],
            "commands": [c for c in COMMANDS if variable or c not in ("sweep", "tune")],
        }  # fmt: skip
    caps = {"max_job_games": settings.max_job_games, "max_jobs": settings.max_jobs, "max_file": MAX_FILE}
    return {"games": games, "presets": {"quick": "heuristic", "default": "the game's table search"}, "caps": caps,
            "lab_dir": str(settings.lab_dir), "lab_db": str(settings.lab_db)}  # fmt: skip


def lab_router(
    settings: LabSettings, static: Path, glossary: Callable[[Any], dict[str, Any]]
) -> tuple[APIRouter, JobQueue]:
    """The lab's routes over `settings`, and its job queue (closed by the app on shutdown); `glossary` is the app's
    (a game's words for the replay viewer)."""
    jobs = JobQueue(settings)

    def given_token(request: Request) -> str | None:
        return (
            request.headers.get(TOKEN_HEADER) or request.cookies.get(TOKEN_COOKIE) or request.query_params.get("token")
        )

    def guard(request: Request) -> None:
        if not settings.token_ok(given_token(request)):
            raise Rejected(401, "the lab asks for the token `cardlab serve` printed at start: open /lab?token=TOKEN")

    router = APIRouter(dependencies=[Depends(guard)])
    open_router = APIRouter()  # the page itself: it takes the token from its URL into a cookie

    @open_router.get("/lab", include_in_schema=False)
    def lab_page(request: Request, token: str | None = None) -> Response:
        if settings.token is not None:
            if token is not None and settings.token_ok(token):
                response = RedirectResponse("/lab", status_code=303)  # the token leaves the address bar
                response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="strict")
                return response
            if not settings.token_ok(request.cookies.get(TOKEN_COOKIE)):
                return JSONResponse({"error": "the lab asks for the token `cardlab serve` printed at start: "
                                     "open /lab?token=TOKEN"}, status_code=401)  # fmt: skip
        return FileResponse(static / "lab.html", media_type="text/html")

    @router.get("/api/lab/meta")
    def meta() -> dict[str, Any]:
        return lab_meta(settings)

    @router.post("/api/lab/command")
    def command(form: RunForm) -> dict[str, Any]:
        """The command line the form stands for, checked as the command checks it; nothing is run."""
        argv = argv_of(form, settings)
        return {**preflight(form, settings), "argv": argv, "command": command_line(argv)}

    @router.post("/api/lab/jobs", status_code=201)
    def start(form: RunForm) -> dict[str, Any]:
        argv = argv_of(form, settings)
        checked = preflight(form, settings)
        return jobs.submit(argv, checked["games"], checked["table"]).to_json()

    @router.get("/api/lab/jobs")
    def job_list() -> dict[str, Any]:
        return {"jobs": [job.to_json() for job in sorted(jobs.jobs.values(), key=lambda j: -j.id)]}

    @router.get("/api/lab/jobs/{job_id}")
    def job(job_id: int) -> dict[str, Any]:
        return jobs.get(job_id).to_json()

    @router.post("/api/lab/jobs/{job_id}/cancel")
    def cancel(job_id: int) -> dict[str, Any]:
        return jobs.cancel(job_id).to_json()

    @router.post("/api/lab/jobs/{job_id}/resume", status_code=201)
    def resume(job_id: int) -> dict[str, Any]:
        return jobs.resume(job_id).to_json()

    def summary_of(game: str, variant: str, agent: str) -> dict[str, Any] | None:
        from cardlab.sim.labview import stored_matchups, table_summary
        from cardlab.store import GamesDB

        if not settings.lab_db.is_file():
            return None
        try:
            matchups = stored_matchups(_game(game), variant)
            with GamesDB(settings.lab_db) as db:
                summary = table_summary(db, matchups, agent)
        except CardlabError as exc:
            raise Rejected(422, str(exc)) from None
        return None if summary is None else finite(summary)

    @router.get("/api/lab/tables")
    def tables(game: str | None = Query(default=None, max_length=40)) -> dict[str, Any]:
        if game:
            _game(game)
        found = [table.to_json() for table in stored_tables(settings.lab_db, game)]
        return {"tables": found, "comparisons": stored_comparisons(settings.lab_db, game)}

    @router.get("/api/lab/table")
    def table(
        game: str = Query(max_length=40), variant: str = Query(max_length=400), agent: str = Query(max_length=200)
    ) -> dict[str, Any]:
        """A stored table's summary.json numbers, as `cardlab report` computes them from the database."""
        from cardlab.sim.labview import variant_parts

        summary = summary_of(game, variant, agent)
        if summary is None:
            raise Rejected(404, f"no stored games of {game} {variant} by {agent} in {settings.lab_db.name}")
        base, rules, patches = variant_parts(game, variant)
        return {"summary": summary, "base": base, "rules": rules, "patches": patches}

    @router.post("/api/lab/compare")
    def compare(body: CompareRequest) -> dict[str, Any]:
        """Two stored tables of one game side by side, cell by cell, as `cardlab compare` compares them."""
        from cardlab.sim.balance import stored_selection
        from cardlab.sim.compare import compare_tables
        from cardlab.sim.labview import stored_matchups
        from cardlab.store import GamesDB

        if body.a.game != body.b.game:
            raise Rejected(422, "two tables of one game are compared (their cells must be the same pairings)")
        if not settings.lab_db.is_file():
            raise Rejected(404, "the lab database holds no tables yet")
        try:
            first, second = (
                stored_matchups(_game(body.a.game), body.a.variant),
                stored_matchups(body.b.game, body.b.variant),
            )
            with GamesDB(settings.lab_db) as db:
                counts_a = stored_selection(db, first, body.a.agent).counts
                counts_b = stored_selection(db, second, body.b.agent).counts
        except CardlabError as exc:
            raise Rejected(422, str(exc)) from None
        if first.entrants != second.entrants:
            raise Rejected(422, "the two tables have different entrants: their cells cannot be compared")
        if not counts_a or not counts_b:
            raise Rejected(404, "one of the tables has no stored games of this code")
        labels = (f"{body.a.agent} @ {body.a.variant}", f"{body.b.agent} @ {body.b.variant}")
        return finite(compare_tables(counts_a, counts_b, first, labels))

    @router.get("/api/lab/cell")
    def cell(
        game: str = Query(max_length=40), variant: str = Query(max_length=400), agent: str = Query(max_length=200),
        cell: str = Query(max_length=200), seat: int = Query(ge=0, le=1),
    ) -> dict[str, Any]:  # fmt: skip
        """The stored games of one pairing and seat: winner, length and seed, each replayable in the viewer."""
        found, kernel = cell_games(settings.lab_db, _game(game), variant, agent, cell, seat)
        rows = [{"id": g.id, "index": g.game_index, "seed": str(g.seed), "winner": g.winner, "reason": g.reason,
                 "turns": g.turns, "p1": g.p1, "p2": g.p2, "replayable": g.replayable,
                 "replay": f"/replay/lab-{g.id}" if g.replayable else None} for g in found]  # fmt: skip
        return {"games": rows, "kernel_games": kernel}

    def lab_game(row: int) -> tuple[Any, Any, Any]:
        from cardlab.sim.labview import stored_matchups

        found = stored_game(settings.lab_db, row)
        if found is None:
            raise Rejected(404, f"no stored lab game {row}")
        if not found.actions:
            raise Rejected(409, "this game was imported without its actions: it cannot be replayed")
        try:
            matchups = stored_matchups(found.game, found.variant)
        except CardlabError as exc:
            raise Rejected(422, str(exc)) from None
        built = game_class(found.game).from_config(matchups.config(found.p1, found.p2))
        return found, matchups, built

    @router.get("/api/games/lab-{row}/replay")
    async def lab_replay(row: int) -> dict[str, Any]:
        """A stored lab game replayed from its seed and actions, whole (lab games are AI against AI), with the
        step where the game's own evaluation swung most."""
        from cardlab.sim.labview import swing_step
        from cardlab.web.manager import _build_replay

        def build() -> dict[str, Any]:
            found, matchups, built = lab_game(row)
            replay = _build_replay(f"lab-{row}", built, found.seed, found.actions, None, True)
            swing = swing_step(found.game, matchups.config(found.p1, found.p2), found.seed, found.actions)
            return {**replay, "cards": {}, "swing": swing, "lab": {"variant": found.variant, "agent": found.agents,
                    "cell": found.cell, "seat": found.seat, "index": found.game_index}}  # fmt: skip

        return finite(await asyncio.get_running_loop().run_in_executor(None, build))

    @router.get("/api/games/lab-{row}/glossary")
    def lab_glossary(row: int) -> dict[str, Any]:
        return glossary(lab_game(row)[2])

    @router.get("/api/lab/files")
    def files() -> dict[str, Any]:
        root = settings.lab_dir.resolve()
        found = sorted(
            str(path.relative_to(root)) for path in root.rglob("*.toml")
            if path.is_file() and path.resolve().is_relative_to(root) and len(path.relative_to(root).parts) <= 4
        )[:500]  # fmt: skip
        return {"files": found}

    @router.get("/api/lab/file")
    def read_file(path: str = Query(max_length=200)) -> dict[str, Any]:
        target = settings.inside(path)
        if not target.is_file():
            raise Rejected(404, f"no file {path!r} in the lab folder")
        if target.stat().st_size > MAX_FILE:
            raise Rejected(413, f"{path!r} is larger than the editor's {MAX_FILE} bytes")
        try:
            return {"path": path, "text": target.read_text(encoding="utf-8")}
        except UnicodeDecodeError:
            raise Rejected(422, f"{path!r} is not UTF-8 text") from None

    @router.post("/api/lab/file")
    def write_file(body: FileText) -> dict[str, Any]:
        target = settings.inside(body.path)
        target.parent.mkdir(parents=True, exist_ok=True)
        settings.inside(body.path)  # again, now that its folders exist
        target.write_text(body.text, encoding="utf-8")
        return {"path": body.path, "saved": len(body.text.encode())}

    @router.post("/api/lab/check")
    def check(body: CheckRequest) -> dict[str, Any]:
        """The file as written in the editor, checked as `cardlab deck validate` checks it: every problem with
        its line and rule id (the text is checked in a scratch folder; nothing is saved)."""
        import tempfile

        from cardlab.sim.labview import file_problems

        _game(body.game)
        settings.inside(body.path)
        cards = [settings.inside(card) for card in body.cards]
        name = Path(body.path).name
        with tempfile.TemporaryDirectory() as scratch:
            path = Path(scratch) / name
            path.write_text(body.text, encoding="utf-8")
            try:
                what, problems = file_problems(body.game, path, cards)
            except CardlabError as exc:
                raise Rejected(422, str(exc)) from None
        listed = [{"where": body.path if p.where == str(path) else _shown(p.where, settings), "line": p.line,
                   "rule": p.rule, "message": p.message.replace(str(path), body.path)} for p in problems]  # fmt: skip
        return {"what": what, "problems": listed, "ok": not listed}

    @open_router.websocket("/ws/lab/jobs/{job_id}")
    async def watch(websocket: WebSocket, job_id: int) -> None:
        """The job's progress and, for a balance job, its table as it fills: pushed when either changes."""
        token = websocket.cookies.get(TOKEN_COOKIE) or websocket.query_params.get("token")
        if not settings.token_ok(token) or job_id not in jobs.jobs:
            await websocket.close(code=1008)
            return
        await websocket.accept()
        job = jobs.jobs[job_id]
        loop = asyncio.get_running_loop()
        sent: tuple[Any, ...] = ()
        try:
            while True:
                state = (job.state, job.done, job.phase, len(job.log))
                if state != sent:
                    message: dict[str, Any] = {"job": job.to_json()}
                    if job.table is not None and (not sent or job.done != sent[1] or job.state != sent[0]):
                        table = job.table
                        message["summary"] = await loop.run_in_executor(
                            None, summary_of, table["game"], table["variant"], table["agent"]
                        )
                    await websocket.send_json(message)
                    sent = state
                if job.state not in ("queued", "running", "cancelling") and sent[0] == job.state:
                    break
                await asyncio.sleep(0.3)
            while True:  # the last word is sent: wait for the page to go
                received = await websocket.receive()
                if received["type"] == "websocket.disconnect":
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass

    return _merged(open_router, router), jobs


def _shown(where: str, settings: LabSettings) -> str:
    """A problem's file as the lab folder names it (a packaged or scratch path as its bare name)."""
    path = Path(where)
    try:
        return str(path.resolve().relative_to(settings.lab_dir.resolve()))
    except ValueError:
        return path.name


def _merged(*routers: APIRouter) -> APIRouter:
    merged = APIRouter()
    for router in routers:
        merged.include_router(router)
    return merged
