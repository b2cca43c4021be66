"""Live games behind the web app: authoritative states, seat views, agents and subscribers.

Each game is rebuilt from its stored config, seed and actions (the engine is deterministic),
so a restarted server resumes every game exactly. One asyncio lock per game serialises its
actions; a failure in one game never touches another.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from cardlab.agents import Agent, AgentSpecError, make_agent, parse_spec
from cardlab.core.errors import CardlabError
from cardlab.core.game import PLAYER_NAMES, Game, State, parse_player
from cardlab.core.rng import derive_seed, make_rng
from cardlab.games import GAME_NAMES, game_class
from cardlab.store.play_db import PlayDB

HUMAN = "human"
GAME_TITLES = {"edelweiss": "Arcana Fight! Edelweiss", "aterial": "Soukoku no Aterial", "dreadnought": "Dreadnought"}


class Rejected(Exception):
    """A request the server refuses: an HTTP status, a reason and, for actions, the legal set."""

    def __init__(self, status: int, error: str, legal: list[str] | None = None) -> None:
        super().__init__(error)
        self.status = status
        self.error = error
        self.legal = legal

    def body(self) -> dict[str, Any]:
        return {"error": self.error} if self.legal is None else {"error": self.error, "legal": self.legal}


Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass
class LiveGame:
    id: str
    game: Game
    seed: int
    seats: dict[str, str]
    state: State
    actions: list[str]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: dict[int, tuple[str | None, Send]] = field(default_factory=dict)
    agents: dict[str, Agent] = field(default_factory=dict)
    agent_task: asyncio.Task[None] | None = None
    rematch: dict[str, str] = field(default_factory=dict)  # seat -> link of the rematch game

    @property
    def over(self) -> bool:
        return self.state.current_player() is None


MAX_ITERATIONS = 5000
MAX_SECONDS = 2.0
"""Search budgets a web seat may ask for: one game must not tie up the server."""


def _check_agent(seat: str, spec: str) -> None:
    try:
        _, params = parse_spec(spec)
    except AgentSpecError as exc:
        raise Rejected(422, f"seats.{seat}: {exc}") from None
    if params.get("iterations", 0) > MAX_ITERATIONS or params.get("time", 0.0) > MAX_SECONDS:
        raise Rejected(422, f"seats.{seat}: at most {MAX_ITERATIONS} iterations or {MAX_SECONDS} s per decision")


def _renderer(game: str) -> Any:
    return import_module(f"cardlab.games.{game}.render")


def _check_no_files(game: str, config: Mapping[str, Any] | None) -> None:
    """A browser may pick packaged decks only: a path would make the server open files of its choosing."""
    if not isinstance(config, Mapping) or game == "edelweiss":
        return
    if config.get("cards") is not None:
        raise Rejected(422, "config.cards: card files are not accepted over the web; use the packaged card set")
    decks = config.get("decks")
    if isinstance(decks, Mapping):
        packaged = import_module(f"cardlab.games.{game}.cards").PACKAGED_DECKS
        for seat, deck in decks.items():
            if deck not in packaged:
                choices = ", ".join(packaged)
                raise Rejected(422, f"config.decks.{seat}: expected a packaged deck ({choices}), got {deck!r}")


class GameManager:
    """Creates, loads, advances and watches games; the HTTP layer only translates."""

    def __init__(self, db: PlayDB, agent_delay: float = 0.6) -> None:
        self.db = db
        self.agent_delay = agent_delay
        self._live: dict[str, LiveGame] = {}

    # -- creating and loading ---------------------------------------------------------------

    def create(
        self, game: str, config: Mapping[str, Any] | None, seats: Mapping[str, str], seed: int | None = None
    ) -> dict[str, Any]:
        """A new game; returns its id, each human seat's token and link, and the spectator link."""
        if game not in GAME_NAMES:
            raise Rejected(422, f"unknown game {game!r}; known games: {list(GAME_NAMES)}")
        if not isinstance(seats, Mapping) or set(seats) != set(PLAYER_NAMES):
            raise Rejected(422, 'seats must be {"P1": "human" | agent spec, "P2": ...}')
        for seat, who in seats.items():
            if not isinstance(who, str):
                raise Rejected(422, f"seats.{seat} must be a string")
            if who != HUMAN:
                _check_agent(seat, who)
        _check_no_files(game, config)
        try:
            built = game_class(game).from_config(config or {}) if config else game_class(game)()
            seed = secrets.randbits(62) if seed is None else int(seed)
            built.new_state(seed, record_events=False)  # rejects a bad config before anything is stored
        except (CardlabError, ValueError, TypeError) as exc:
            raise Rejected(422, f"config: {exc}") from None
        game_id = secrets.token_urlsafe(9)
        tokens = {seat: secrets.token_urlsafe(18) for seat, who in seats.items() if who == HUMAN}
        self.db.create(game_id, game, built.config_json(), seed, dict(seats), tokens)
        return {
            "id": game_id,
            "tokens": tokens,
            "urls": {seat: f"/play/{game_id}?token={token}" for seat, token in tokens.items()},
            "spectator_url": f"/play/{game_id}",
        }

    def get(self, game_id: str) -> LiveGame:
        """The live game, rebuilt from the database if this process has not seen it yet."""
        live = self._live.get(game_id)
        if live is not None:
            return live
        record = self.db.load(game_id)
        if record is None:
            raise Rejected(404, f"no game {game_id!r}")
        game = game_class(record.game).from_config(record.config)
        state = game.new_state(record.seed, record_events=True)
        for action in record.actions:
            state.apply(action)
        live = LiveGame(record.id, game, record.seed, record.seats, state, record.actions)
        live.agents = {seat: make_agent(who) for seat, who in record.seats.items() if who != HUMAN}
        self._live[game_id] = live
        self._schedule_agents(live)
        return live

    def seat_for(self, live: LiveGame, token: str | None) -> str | None:
        """None for a spectator (no token); a wrong token is refused."""
        if token is None:
            return None
        seat = self.db.seat_of(live.id, token)
        if seat is None:
            raise Rejected(403, "wrong token for this game")
        return seat

    # -- views --------------------------------------------------------------------------------

    def view(self, live: LiveGame, seat: str | None) -> dict[str, Any]:
        """Everything one seat (or a spectator) may see; built from that seat's observation."""
        state = live.state
        player = None if seat is None else parse_player(seat)
        observation = state.observation(player)
        render = _renderer(live.game.name)
        assert state.events is not None
        events = [dict(event, text=render.event_text(event)) for event in state.events.for_player(player)]
        to_move = state.current_player()
        outcome = state.outcome()
        return {
            "id": live.id,
            "game": live.game.name,
            "title": GAME_TITLES.get(live.game.name, live.game.name),
            "seat": seat,
            "seats": live.seats,
            "status": "over" if outcome else "running",
            "version": len(live.actions),
            "observation": observation,
            "legal": [str(a) for a in state.legal_actions()] if player is not None and to_move == player else [],
            "hint": render.WINDOW_HINTS.get(observation["window"], ""),
            "events": events,
            "result": None
            if outcome is None
            else {"winner": None if outcome.winner is None else PLAYER_NAMES[outcome.winner], "reason": outcome.reason},
            "rematch_url": live.rematch.get(seat or ""),
        }

    def replay(self, live: LiveGame) -> dict[str, Any]:
        """Every step of the game: public views while it runs, the full view once it is over."""
        full = live.over
        state = live.game.new_state(live.seed, record_events=True)
        render = _renderer(live.game.name)
        frames = [self._frame(state, None, None, 0, full, render)]
        for action in live.actions:
            actor = state.current_player()
            seen = len(state.events or [])
            state.apply(action)
            frames.append(self._frame(state, action, actor, seen, full, render))
        return {"id": live.id, "game": live.game.name, "status": "over" if full else "running", "frames": frames}

    @staticmethod
    def _frame(state: State, action: str | None, actor: int | None, seen: int, full: bool, render: Any) -> dict:
        observation = state.observation(None)
        if full:  # after the end nothing is secret any more: show both hands
            for p, seat in enumerate(PLAYER_NAMES):
                observation["players"][seat]["hand"] = state.observation(p)["players"][seat]["hand"]
                if "hand_complete" in observation["players"][seat]:
                    observation["players"][seat]["hand_complete"] = True
        assert state.events is not None
        events = list(state.events)[seen:]
        views = [event.view(event.secret_to if full else None) for event in events]
        return {
            "action": action,
            "actor": None if actor is None else PLAYER_NAMES[actor],
            "observation": observation,
            "events": [dict(view, text=render.event_text(view)) for view in views],
        }

    # -- acting -------------------------------------------------------------------------------

    async def act(self, live: LiveGame, seat: str, action: str) -> None:
        """Validate, commit to the database, apply, tell every subscriber; then let agents move."""
        async with live.lock:
            state = live.state
            legal = [str(a) for a in state.legal_actions()]
            if state.current_player() is None:
                raise Rejected(409, "the game is over", [])
            if PLAYER_NAMES[state.current_player()] != seat:
                raise Rejected(409, f"it is not {seat}'s turn", [])
            if not isinstance(action, str) or action not in legal:
                raise Rejected(409, f"illegal action {action!r}", legal)
            self._commit(live, action)
        await self.broadcast(live)
        self._schedule_agents(live)

    def _commit(self, live: LiveGame, action: str) -> None:
        """The database first: an action is acknowledged only once it is stored."""
        self.db.append_action(live.id, len(live.actions), action)
        live.state.apply(action)
        live.actions.append(action)

    def _schedule_agents(self, live: LiveGame) -> None:
        player = live.state.current_player()
        if player is None or PLAYER_NAMES[player] not in live.agents:
            return
        if live.agent_task is None or live.agent_task.done():
            try:
                live.agent_task = asyncio.get_running_loop().create_task(self._run_agents(live))
            except RuntimeError:  # no running loop (e.g. a synchronous caller): agents move on next access
                live.agent_task = None

    async def _run_agents(self, live: LiveGame) -> None:
        """Agents play their turns with a short delay, so that people can follow."""
        while True:
            await asyncio.sleep(self.agent_delay)
            async with live.lock:
                player = live.state.current_player()
                if player is None or PLAYER_NAMES[player] not in live.agents:
                    return
                infoset = live.state.infoset(player)
                rng = make_rng(derive_seed(live.seed, "web-agent", len(live.actions)))
                agent = live.agents[PLAYER_NAMES[player]]
                action = await asyncio.to_thread(agent.act, infoset, rng)
                self._commit(live, str(action))
            await self.broadcast(live)

    # -- subscribers --------------------------------------------------------------------------

    def subscribe(self, live: LiveGame, key: int, seat: str | None, send: Send) -> None:
        live.subscribers[key] = (seat, send)

    def unsubscribe(self, live: LiveGame, key: int) -> None:
        live.subscribers.pop(key, None)

    async def broadcast(self, live: LiveGame) -> None:
        """Each subscriber gets its own seat's view; a dead socket is dropped."""
        for key, (seat, send) in list(live.subscribers.items()):
            try:
                await send(self.view(live, seat))
            except Exception:  # any failure of one client must not reach the others
                live.subscribers.pop(key, None)

    def rematch(self, live: LiveGame) -> dict[str, Any]:
        """A new game with the same config and seats; each human seat of this game is told its link."""
        created = self.create(live.game.name, live.game.config_json(), live.seats)
        live.rematch.update(created["urls"])
        self.get(created["id"])
        return created
