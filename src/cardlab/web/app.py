"""FastAPI app: JSON API, WebSocket pushes and the static front end.

The server is authoritative: clients send action strings, the server validates them against
the engine and sends each seat only its own view. Errors are 4xx JSON `{error, legal?}`.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from cardlab.games import GAME_NAMES
from cardlab.store.play_db import PlayDB
from cardlab.web.manager import GAME_TITLES, GameManager, Rejected

MAX_BODY = 16 * 1024
"""Request bodies above this size are refused (413) before they are read."""

AGENT_CHOICES = ["random", "heuristic", "ismcts:iterations=200:rollout=heuristic"]

_WEB = resources.files("cardlab.web")


class NewGame(BaseModel):
    game: str
    config: dict[str, Any] | None = None
    seats: dict[str, str]
    seed: int | None = Field(default=None, ge=0, lt=2**63)


class ActionRequest(BaseModel):
    token: str = Field(max_length=200)
    action: str = Field(max_length=200)


class TokenRequest(BaseModel):
    token: str = Field(max_length=200)


def create_app(db_path: Path | str, agent_delay: float = 0.6) -> FastAPI:
    """The app over one SQLite database; `agent_delay` paces the AI's moves for people."""
    app = FastAPI(title="cardlab", description="Play cardlab games against the AI or a friend.")
    manager = GameManager(PlayDB(db_path), agent_delay)
    app.state.manager = manager
    static = Path(str(_WEB.joinpath("static")))
    app.mount("/static", StaticFiles(directory=static), name="static")

    @app.middleware("http")
    async def limit_body(request: Request, call_next: Any) -> Response:
        length = request.headers.get("content-length")
        if length is not None and not length.isdigit():
            return JSONResponse({"error": "Content-Length must be a number of bytes"}, status_code=400)
        if length is not None and int(length) > MAX_BODY:
            return JSONResponse({"error": f"request body larger than {MAX_BODY} bytes"}, status_code=413)
        if request.method == "POST" and length is None:
            return JSONResponse({"error": "a Content-Length header is required"}, status_code=411)
        return await call_next(request)

    @app.exception_handler(Rejected)
    async def rejected(_: Request, exc: Rejected) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        return {"games": {name: {"title": GAME_TITLES.get(name, name)} for name in GAME_NAMES}, "agents": AGENT_CHOICES}

    @app.post("/api/games", status_code=201)
    async def create_game(body: NewGame) -> dict[str, Any]:
        created = manager.create(body.game, body.config, body.seats, body.seed)
        manager.get(created["id"])  # load it now, so that an agent holding the first move starts playing
        return created

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: str, token: str | None = None) -> dict[str, Any]:
        live = manager.get(game_id)
        return manager.view(live, manager.seat_for(live, token))

    @app.post("/api/games/{game_id}/actions")
    async def post_action(game_id: str, body: ActionRequest) -> dict[str, Any]:
        live = manager.get(game_id)
        seat = manager.seat_for(live, body.token)
        assert seat is not None
        await manager.act(live, seat, body.action)
        return manager.view(live, seat)

    @app.post("/api/games/{game_id}/rematch", status_code=201)
    async def rematch(game_id: str, body: TokenRequest) -> dict[str, Any]:
        live = manager.get(game_id)
        manager.seat_for(live, body.token)
        if not live.over:
            raise Rejected(409, "a rematch starts once the game is over")
        return manager.rematch(live)

    @app.get("/api/games/{game_id}/replay")
    async def replay(game_id: str) -> dict[str, Any]:
        return manager.replay(manager.get(game_id))

    @app.get("/api/rules/{game}", response_class=HTMLResponse)
    async def rules_fragment(game: str) -> str:
        if game not in GAME_NAMES:
            raise Rejected(404, f"no rules page for {game!r}")
        return _WEB.joinpath("rules", f"{game}.html").read_text(encoding="utf-8")

    @app.websocket("/ws/games/{game_id}")
    async def watch(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
        try:
            live = manager.get(game_id)
            seat = manager.seat_for(live, token)
        except Rejected:
            await websocket.close(code=1008)  # before accept: the client gets HTTP 403
            return
        await websocket.accept()
        key = id(websocket)
        manager.subscribe(live, key, seat, websocket.send_json)
        try:
            await websocket.send_json(manager.view(live, seat))
            while True:
                await websocket.receive_text()  # clients only listen; anything they send is ignored
        except WebSocketDisconnect:
            pass
        finally:
            manager.unsubscribe(live, key)

    def page(name: str) -> FileResponse:
        return FileResponse(static / name, media_type="text/html")

    @app.get("/", include_in_schema=False)
    def lobby_page() -> FileResponse:
        return page("index.html")

    @app.get("/play/{game_id}", include_in_schema=False)
    def game_page(game_id: str) -> FileResponse:
        return page("game.html")

    @app.get("/replay/{game_id}", include_in_schema=False)
    def replay_page(game_id: str) -> FileResponse:
        return page("replay.html")

    @app.get("/rules/{game}", include_in_schema=False)
    def rules_page(game: str) -> FileResponse:
        return page("rules.html")

    return app
