"""FastAPI app: JSON API, WebSocket pushes and the static front end.

The server is authoritative: clients send action strings, the server validates them against
the engine and sends each seat only its own view. Errors are 4xx JSON `{error, legal?}`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, cast

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, JsonValue

from cardlab.core.cardwords import CardWords
from cardlab.core.game import Game
from cardlab.core.plugin import declared_words, reasons_json
from cardlab.games import game_class, game_names
from cardlab.store.play_db import PlayDB
from cardlab.web.apidocs import api_page
from cardlab.web.lab import STATIC, LabSettings, default_settings
from cardlab.web.lab.routes import lab_router
from cardlab.web.manager import GameManager, Rejected, ServerLimits

MAX_BODY = 16 * 1024
"""Request bodies above this size are refused (413) before they are read."""

AGENT_CHOICES = ["random", "heuristic", "ismcts:iterations=200:rollout=heuristic"]
ROLLOUT_CHOICE = "pimc:worlds=6:depth=20"
"""The rollout search over whole decisions: for games whose heuristic estimates positions (the TCGs)."""
AGENT_WORDS = {
    "random": "random",
    "heuristic": "quick (heuristic)",
    AGENT_CHOICES[2]: "fair (small search)",
    ROLLOUT_CHOICE: "strong (search over sampled hands)",
}
"""The lobby's opponents by strength in a player's words (the spec itself goes in a tooltip)."""


def _asset(game: str, name: str) -> Traversable | None:
    """A registered game's web file, or None."""
    if game not in game_names():
        return None
    return game_class(game).web_assets().get(name)


def agent_choices(game: str, policies: tuple[str, ...] = ()) -> list[str]:
    """The lobby's agents for one game: those that can be built for it here, and the server's policy
    files trained for it."""
    from cardlab.agents import AgentSpecError, make_agent

    choices = list(AGENT_CHOICES)
    searches = (game_class(game).search_agent, ROLLOUT_CHOICE)  # the compiled one where the game has it
    for spec in (*searches, *(f"policy:path={path}" for path in policies)):
        try:
            make_agent(spec, game)
        except AgentSpecError:
            continue
        choices.append(spec)
    return choices


def agent_words(game: str, spec: str) -> str:
    """One of the lobby's agents in a player's words: how strong it plays, and how."""
    if spec == game_class(game).search_agent:
        return "strong (search)"
    if spec.startswith("policy:path="):
        return f"trained ({Path(spec.partition('=')[2]).stem})"
    return AGENT_WORDS.get(spec, spec)


def rules_json(cls: type[Game]) -> list[dict[str, Any]]:
    """The game's rule variants for the lobby, each value in the words the game declares (`RULE_VALUES`)."""
    words = declared_words(cls, "RULE_VALUES")
    return [{**rule.to_json(), "value_words": dict(words.get(rule.name, {}))} for rule in cls.rule_options]


TOKEN = r"^[A-Za-z0-9_-]*$"
"""Seat tokens are URL-safe base64: anything else is refused before it reaches the database."""

_WEB = resources.files("cardlab.web")
_log = logging.getLogger("cardlab.web")


def _new_game_examples() -> list[dict[str, Any]]:
    """One request per registered game: by its default config, and by option values."""
    examples: list[dict[str, Any]] = []
    for name in game_names():
        cls = game_class(name)
        seats = {"P1": "human", "P2": "heuristic"}
        examples.append({"game": name, "config": cls().config_json(), "seats": seats})
        options = {}
        for option in (o for o in cls.options if o.web and o.choices and not (o.optional and o.default is None)):
            chosen = (option.default or option.values[0]).split(",")  # the form's initial values
            options[option.name] = {"P1": chosen[0], "P2": chosen[-1]} if option.per_seat else chosen[0]
        shown = {  # as the lobby sends them: an option shown only for some value of another is left out otherwise
            name: value
            for name, value in options.items()
            if (when := next(o.shown_when for o in cls.options if o.name == name)) is None
            or options.get(when[0]) in when[1]
        }
        if shown:
            examples.append({"game": name, "options": shown, "seats": seats, "seed": 7})
    return examples


class NewGame(BaseModel):
    """A new game: which game, its configuration (a config JSON, or the values of its declared options),
    and who plays each seat."""

    model_config = ConfigDict(json_schema_extra={"examples": cast("list[JsonValue]", _new_game_examples())})

    game: str = Field(description="a registered game, as /api/meta lists them")
    config: dict[str, Any] | None = Field(
        default=None,
        description="the game's config JSON (each game's own fields: see the examples); files on the server are "
        "refused. Null: the game's default",
    )
    options: dict[str, Any] | None = Field(
        default=None,
        description="instead of a config: values of the game's options as /api/meta lists them, a per-seat "
        'option as {"P1": ..., "P2": ...}; "random" where an option allows it',
    )
    rules: dict[str, str] | None = Field(
        default=None,
        description="rule variants as /api/meta lists them per game (`cardlab rules GAME`): name -> value; "
        "left out: the spec's rulings",
    )
    seats: dict[str, str] = Field(
        description='{"P1": ..., "P2": ...}: "human" (a seat token is returned for it) or an agent spec such as '
        '"heuristic" or "ismcts:iterations=200"'
    )
    seed: int | None = Field(default=None, ge=0, lt=2**63, description="the deal's seed; null: drawn by the server")


class ActionRequest(BaseModel):
    token: str = Field(max_length=200, pattern=TOKEN)
    action: str = Field(max_length=200)
    version: int | None = Field(default=None, ge=0, lt=2**31)
    """The version of the view the client acted on; a stale one is refused (409)."""


class TokenRequest(BaseModel):
    token: str = Field(max_length=200, pattern=TOKEN)


class ExplainRequest(BaseModel):
    token: str = Field(max_length=200, pattern=TOKEN)
    action: str = Field(max_length=200, description="an action the seat may or may not choose now")


def glossary_json(game: Game) -> dict[str, Any]:
    """How a game is won and what its words mean: the same for every viewer (nothing in it is secret)."""
    cards = [_card_json(card, words) for card in game.card_catalog() if (words := game.card_words(card))]
    return {"game": game.name, "title": game.title, "how_to_win": game.how_to_win(), "glossary": dict(game.glossary()),
            "cards": cards, "reasons": reasons_json(type(game))}  # fmt: skip


def _card_json(card: str, words: CardWords) -> dict[str, Any]:
    return {"id": card, "name": words.name, "stats": words.stats, "abilities": list(words.abilities),
            "keywords": list(words.keywords)}  # fmt: skip


def body_problem(body: bytes) -> str | None:
    """Why a request body is not plain JSON, or None.

    Python's json module accepts what JSON does not (NaN, Infinity, numbers that overflow to
    infinity, lone surrogates); such values would fail deep inside the server, so they are
    refused at the door.
    """
    try:
        data = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        return "the body is not UTF-8 text"
    except RecursionError:
        return "the body is nested too deeply"
    except ValueError as exc:  # malformed JSON, or an integer too long to read
        return f"the body is not valid JSON: {str(exc)[:120]}"
    try:
        json.dumps(data, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except UnicodeEncodeError:
        return "a string in the body holds a lone surrogate (not valid Unicode)"
    except RecursionError:
        return "the body is nested too deeply"
    except ValueError:
        return "NaN, Infinity and numbers beyond the float range are not JSON"
    return None


def _validation_error(exc: RequestValidationError) -> dict[str, Any]:
    """The first problem, by field, without echoing the input back (it may not even print)."""
    problems = []
    for error in exc.errors():
        where = ".".join(str(part) for part in error.get("loc", ())[1:]) or "body"
        problems.append(f"{where}: {error.get('msg', 'invalid')}")
    return {"error": "; ".join(problems[:3]) or "invalid request"}


def create_app(
    db_path: Path | str, agent_delay: float = 0.6, limits: ServerLimits | None = None, lab: LabSettings | None = None
) -> FastAPI:
    """The app over one SQLite database; `agent_delay` paces the AI's moves for people; `lab`: the Lab's folder,
    database and token (default: the current folder, no token)."""
    manager = GameManager(PlayDB(db_path), agent_delay, limits)
    lab_routes, lab_jobs = lab_router(lab or default_settings(), STATIC, glossary_json)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        manager.resume_agents()  # agents to move after a restart play on without waiting for a visitor
        yield
        lab_jobs.close()
        manager.close()

    app = FastAPI(
        title="cardlab",
        description="Play cardlab games against the AI or a friend.",
        lifespan=lifespan,
        docs_url=None,  # Swagger UI loads from a CDN: /docs below is rendered here instead
        redoc_url=None,
    )
    app.state.manager = manager
    static = Path(str(_WEB.joinpath("static")))

    @app.middleware("http")
    async def limit_body(request: Request, call_next: Any) -> Response:
        length = request.headers.get("content-length")
        if length is not None and not length.isdigit():
            return JSONResponse({"error": "Content-Length must be a number of bytes"}, status_code=400)
        if length is not None and int(length) > MAX_BODY:
            return JSONResponse({"error": f"request body larger than {MAX_BODY} bytes"}, status_code=413)
        if request.method == "POST" and length is None:
            return JSONResponse({"error": "a Content-Length header is required"}, status_code=411)
        if request.method == "POST" and length != "0":
            problem = body_problem(await request.body())
            if problem is not None:
                return JSONResponse({"error": problem}, status_code=422)
        response: Response = await call_next(request)
        # Pages and answers may carry seat tokens (in their URL or body): never cache them, never
        # send their URL on to another site.
        response.headers["Referrer-Policy"] = "no-referrer"
        if not request.url.path.startswith("/static/"):
            response.headers["Cache-Control"] = "no-store"
        return response

    @app.exception_handler(Rejected)
    async def rejected(_: Request, exc: Rejected) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(_validation_error(exc), status_code=422)

    @app.exception_handler(Exception)
    async def failed(request: Request, exc: Exception) -> JSONResponse:
        _log.exception("unexpected error on %s %s", request.method, request.url.path)
        return JSONResponse({"error": "internal error; the request changed nothing it had not committed"}, 500)

    app.include_router(lab_routes)  # before the game routes: /api/games/lab-N/replay is a stored lab game's
    app.state.lab_jobs = lab_jobs

    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        games = {}
        for name in game_names():
            cls = game_class(name)
            options = [option.to_json() for option in cls.options if option.web]
            agents = agent_choices(name, manager.limits.policies)
            games[name] = {"title": cls.title, "agents": agents, "options": options, "rules": rules_json(cls),
                           "agent_words": {spec: agent_words(name, spec) for spec in agents},
                           "reasons": reasons_json(cls)}  # fmt: skip
        return {"games": games, "agents": AGENT_CHOICES}

    @app.post("/api/games", status_code=201)
    async def create_game(body: NewGame) -> dict[str, Any]:
        created = manager.create(body.game, body.config, body.seats, body.seed, options=body.options, rules=body.rules)
        manager.get(created["id"])  # load it now, so that an agent holding the first move starts playing
        return created

    @app.get("/api/games/{game_id}")
    async def get_game(game_id: str, token: str | None = None) -> dict[str, Any]:
        live = manager.get(game_id)
        return manager.view(live, manager.seat_for(live, token), token)

    @app.post("/api/games/{game_id}/actions")
    async def post_action(game_id: str, body: ActionRequest) -> dict[str, Any]:
        live = manager.get(game_id)
        seat = manager.seat_for(live, body.token)
        assert seat is not None
        await manager.act(live, seat, body.action, body.version)
        return manager.view(live, seat, body.token)

    @app.post("/api/games/{game_id}/rematch", status_code=201)
    async def rematch(game_id: str, body: TokenRequest) -> dict[str, Any]:
        live = manager.get(game_id)
        seat = manager.seat_for(live, body.token)
        assert seat is not None
        if not live.over:
            raise Rejected(409, "a rematch starts once the game is over")
        return manager.rematch(live, seat, body.token)

    @app.post("/api/games/{game_id}/explain")
    async def explain(game_id: str, body: ExplainRequest) -> dict[str, Any]:
        """Whether the seat to move may choose an action now and, if not, why (a rule in player words);
        nothing is played."""
        live = manager.get(game_id)
        seat = manager.seat_for(live, body.token)
        assert seat is not None
        return manager.explain(live, seat, body.action)

    @app.get("/api/games/{game_id}/glossary")
    async def game_glossary(game_id: str) -> dict[str, Any]:
        """How this game (with its configuration) is won, and its keywords, skills and key rules explained."""
        return glossary_json(manager.get(game_id).game)

    @app.get("/api/glossary/{game}")
    async def glossary(game: str) -> dict[str, Any]:
        """How a game is won, and its keywords, skills and key rules explained (its default configuration)."""
        if game not in game_names():
            raise Rejected(404, f"unknown game {game!r}; known games: {list(game_names())}")
        return glossary_json(game_class(game)())

    @app.get("/api/games/{game_id}/replay")
    async def replay(game_id: str, token: str | None = None) -> dict[str, Any]:
        """Each step as the viewer saw it: a seat (with its token) its own secrets, anyone else public
        information; the whole game once it is over."""
        live = manager.get(game_id)
        return await manager.replay(live, manager.seat_for(live, token))

    @app.get("/api/rules/{game}", response_class=HTMLResponse)
    async def rules_fragment(game: str) -> str:
        page = _asset(game, "rules.html")
        if page is None:
            raise Rejected(404, f"no rules page for {game!r}")
        return page.read_text(encoding="utf-8")

    @app.get("/static/render/{game}.js", include_in_schema=False)
    def game_renderer(game: str) -> Response:
        """The game's own board renderer (its package's web/render.js); 404: the page uses a generic one."""
        script = _asset(game, "render.js")
        if script is None:
            raise Rejected(404, f"no renderer for {game!r}")
        return Response(script.read_text(encoding="utf-8"), media_type="text/javascript")

    @app.get("/static/render/{game}.css", include_in_schema=False)
    def game_styles(game: str) -> Response:
        """The game's board styles (web/style.css); empty for a game without its own."""
        styles = _asset(game, "style.css")
        return Response("" if styles is None else styles.read_text(encoding="utf-8"), media_type="text/css")

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
        try:
            live = manager.get(game_id)  # again: the game may have been reloaded while we waited
            manager.subscribe(live, key, seat, token, websocket.send_text)
        except Rejected as exc:
            await websocket.close(code=1013, reason=exc.error)  # too many sockets: try again later
            return
        try:
            await websocket.send_json(manager.view(live, seat, token))
            while True:  # clients only listen: text is ignored, a binary frame closes the socket
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if message.get("bytes") is not None:
                    await websocket.close(code=1003, reason="this socket accepts text frames only")
                    break
        except (WebSocketDisconnect, RuntimeError):  # the client vanished mid-send
            pass
        finally:
            manager.unsubscribe(live, key)

    def page(name: str) -> FileResponse:
        return FileResponse(static / name, media_type="text/html")

    @app.get("/docs", include_in_schema=False, response_class=HTMLResponse)
    def api_docs() -> str:
        return api_page(app.openapi())

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

    app.mount("/static", StaticFiles(directory=static), name="static")  # after the routes: they come first
    return app
