"""Live games behind the web app: authoritative states, seat views, agents and subscribers.

Each game is rebuilt from its stored config, seed and actions (the engine is deterministic),
so a restarted server resumes every game exactly, and an idle game can be dropped from memory
and rebuilt when it is next asked for. One asyncio lock per game serialises its actions; a
failure in one game never touches another.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from cardlab.agents import Agent, AgentSpecError, cap_thinking, make_agent, parse_spec
from cardlab.core.cardwords import CardWords
from cardlab.core.errors import CardlabError
from cardlab.core.game import PLAYER_NAMES, Game, Player, State, parse_player
from cardlab.core.plugin import Renderer
from cardlab.core.rng import derive_seed, make_rng
from cardlab.core.rules import with_rules
from cardlab.games import game_class, game_names
from cardlab.store.play_db import PlayDB

HUMAN = "human"


class Rejected(Exception):
    """A request the server refuses: an HTTP status, a reason and, for actions, the legal set."""

    def __init__(self, status: int, error: str, legal: list[str] | None = None) -> None:
        super().__init__(error)
        self.status = status
        self.error = error
        self.legal = legal

    def body(self) -> dict[str, Any]:
        return {"error": self.error} if self.legal is None else {"error": self.error, "legal": self.legal}


TOKEN_SPLIT = re.compile(r"[\s:@]+")
"""Where a string of a view is cut into the words that may name a card ("7S:T", "R06@S BA1")."""
MAX_CARD_TOKEN = 40
"""Longer words are never card ids or names: they are not looked up."""


def _strings(node: Any) -> list[str]:
    """Every string of a JSON value, keys included."""
    if isinstance(node, str):
        return [node]
    if isinstance(node, Mapping):
        return [text for key, value in node.items() for text in (*_strings(key), *_strings(value))]
    if isinstance(node, list | tuple):
        return [text for value in node for text in _strings(value)]
    return []


def words_json(words: CardWords) -> dict[str, Any]:
    """One card in a player's words, as every client reads it."""
    abilities, keywords = list(words.abilities), list(words.keywords)
    return {"name": words.name, "stats": words.stats, "abilities": abilities, "keywords": keywords}


Send = Callable[[str], Awaitable[None]]
"""Sends one JSON text to one subscriber."""


@dataclass(frozen=True)
class ServerLimits:
    """What one server spends on its games: no game, agent or crowd may take it all."""

    think_time: float = 2.0
    """Seconds an agent may think per decision, whatever its spec asks for."""
    max_iterations: int = 5000
    """The most search iterations (or sampled worlds) a web seat may ask for."""
    agent_workers: int = 4
    """Threads that run agents' decisions, shared fairly (first come, first served) by all games."""
    max_live_games: int = 256
    """Games kept in memory at most; idle ones beyond this are dropped (and rebuilt on demand)."""
    idle_seconds: float = 600.0
    """A game nobody has touched for this long is dropped from memory."""
    max_sockets: int = 64
    """Websockets per game (seats and spectators together)."""
    policies: tuple[str, ...] = ()
    """Policy files (`policy:path=FILE`) the server offers its seats (`cardlab serve --policy FILE`); a
    browser may name only these: any other path is refused without being read."""


@dataclass
class Subscriber:
    seat: str | None
    token: str | None
    send: Send


@dataclass
class LiveGame:
    id: str
    game: Game
    seed: int
    seats: dict[str, str]
    state: State
    actions: list[str]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: dict[int, Subscriber] = field(default_factory=dict)
    agents: dict[str, Agent] = field(default_factory=dict)
    agent_task: asyncio.Task[None] | None = None
    rematch: str | None = None  # id of the rematch game, once asked for
    replays: dict[str | None, tuple[int, asyncio.Future[dict[str, Any]]]] = field(default_factory=dict)
    touched: float = field(default_factory=time.monotonic)
    words: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    """Each word of its views already looked up by `Game.card_words` (None: names no card)."""

    def cards(self, *payloads: Any) -> dict[str, dict[str, Any]]:
        """The cards named in `payloads`, in a player's words, by the word that names them.

        Only words the payloads already show are looked up, so this adds no name a viewer could
        not read there: their hidden cards stay hidden.
        """
        found: dict[str, dict[str, Any]] = {}
        texts = {word for payload in payloads for string in _strings(payload) for word in TOKEN_SPLIT.split(string)}
        for text in texts:
            if not text or len(text) > MAX_CARD_TOKEN:
                continue
            if text not in self.words:
                words = self.game.card_words(text)
                self.words[text] = None if words is None else words_json(words)
            entry = self.words[text]
            if entry is not None:
                found[text] = entry
        return dict(sorted(found.items()))

    @property
    def over(self) -> bool:
        return self.state.current_player() is None

    @property
    def busy(self) -> bool:
        """Someone is watching, acting or thinking: the game must stay in memory."""
        thinking = self.agent_task is not None and not self.agent_task.done()
        return bool(self.subscribers) or self.lock.locked() or thinking


def _web_game(cls: type[Game], config: Mapping[str, Any] | None, options: Mapping[str, Any] | None, seed: int) -> Game:
    """The game a browser asked for, by config JSON or by the values of the game's declared options.

    A browser may choose only what the game offers it: no option that names files, no value off the
    listed choices, no config naming a file on the server.
    """
    if options is not None:
        if config is not None:
            raise Rejected(422, "give config or options, not both")
        if not isinstance(options, Mapping):
            raise Rejected(422, "options: expected an object")
        declared = {option.name: option for option in cls.options if option.web}
        unknown = sorted(str(name) for name in options if name not in declared)
        if unknown:
            raise Rejected(422, f"options.{unknown[0]}: not an option of {cls.name}; options: {sorted(declared)}")
        # an option left out (e.g. one the form shows only for another option's value) keeps its default
        values = {
            name: option.check_web(options[name]) if name in options else None for name, option in declared.items()
        }
        return cls.from_options(values, make_rng(derive_seed(seed, "options")))
    if not config:
        return cls()
    if isinstance(config, Mapping):
        cls.check_web_config(config)
    return cls.from_config(config)


def rematch_token(token: str, rematch_id: str) -> str:
    """A seat's token in the rematch game, derived from its token in this one.

    Only the holder of this game's token can compute it, so the server never stores it in
    clear, and every request of that seat (or view of its) finds the same one.
    """
    digest = hmac.new(token.encode(), f"rematch:{rematch_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


class GameManager:
    """Creates, loads, advances and watches games; the HTTP layer only translates."""

    def __init__(self, db: PlayDB, agent_delay: float = 0.6, limits: ServerLimits | None = None) -> None:
        self.db = db
        self.agent_delay = agent_delay
        self.limits = limits or ServerLimits()
        self._live: OrderedDict[str, LiveGame] = OrderedDict()
        self._pool = ThreadPoolExecutor(self.limits.agent_workers, thread_name_prefix="cardlab-agent")

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    # -- creating and loading ---------------------------------------------------------------

    def _check_agent(self, game: str, seat: str, spec: str) -> None:
        """Build the agent now: a spec that cannot play this game is refused before anything is stored."""
        limits = self.limits
        try:
            _, params = parse_spec(spec)
            if "path" in params and params["path"] not in limits.policies:  # never open a file a browser names
                offered = ", ".join(limits.policies) or "none (cardlab serve --policy FILE offers one)"
                raise Rejected(422, f"seats.{seat}: this server offers these policy files only: {offered}")
            make_agent(spec, game)
        except AgentSpecError as exc:
            raise Rejected(422, f"seats.{seat}: {exc}") from None
        budget = max(params.get("iterations", 0), params.get("worlds", 0))
        if budget > limits.max_iterations or params.get("time", 0.0) > limits.think_time:
            raise Rejected(
                422,
                f"seats.{seat}: at most {limits.max_iterations} iterations (or worlds) or {limits.think_time:g} s "
                "per decision",
            )

    def create(
        self,
        game: str,
        config: Mapping[str, Any] | None,
        seats: Mapping[str, str],
        seed: int | None = None,
        *,
        with_tokens: bool = True,
        options: Mapping[str, Any] | None = None,
        rules: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A new game, by config JSON or by option values; returns its id, each human seat's token and
        link, and the spectator link.

        Without tokens the seats are claimed later, one by one (`db.add_token`), as in a rematch.
        """
        if not isinstance(game, str) or game not in game_names():
            raise Rejected(422, f"unknown game {game!r}; known games: {list(game_names())}")
        if not isinstance(seats, Mapping) or set(seats) != set(PLAYER_NAMES):
            raise Rejected(422, 'seats must be {"P1": "human" | agent spec, "P2": ...}')
        for seat, who in seats.items():
            if not isinstance(who, str):
                raise Rejected(422, f"seats.{seat} must be a string")
            if who != HUMAN:
                self._check_agent(game, seat, who)
        seed = secrets.randbits(62) if seed is None else int(seed)
        try:
            built = _web_game(game_class(game), config, options, seed)
            if rules:  # rule variants on top of the config (validated by the game: config.rules.NAME)
                if not isinstance(rules, Mapping):
                    raise Rejected(422, "rules: expected an object of rule name -> value")
                built = built.from_config(with_rules(built.config_json(), rules))
            built.new_state(seed, record_events=False)  # rejects a bad config before anything is stored
        except (CardlabError, ValueError, TypeError) as exc:
            text = str(exc)
            raise Rejected(422, text if text.startswith(("config", "options")) else f"config: {text}") from None
        game_id = secrets.token_urlsafe(9)
        humans = [seat for seat, who in seats.items() if who == HUMAN and with_tokens]
        tokens = {seat: secrets.token_urlsafe(18) for seat in humans}
        self.db.create(game_id, game, built.config_json(), seed, dict(seats), tokens)
        return {
            "id": game_id,
            "tokens": tokens,
            "urls": {seat: f"/play/{game_id}?token={token}" for seat, token in tokens.items()},
            "spectator_url": f"/play/{game_id}",
        }

    def get(self, game_id: str) -> LiveGame:
        """The live game, rebuilt from the database if this process does not hold it now."""
        live = self._live.get(game_id)
        if live is None:
            live = self._load(game_id)
            self._live[game_id] = live
            self._schedule_agents(live)
        self._live.move_to_end(game_id)
        live.touched = time.monotonic()
        self._evict(keep=game_id)
        return live

    def _load(self, game_id: str) -> LiveGame:
        record = self.db.load(game_id)
        if record is None:
            raise Rejected(404, f"no game {game_id!r}")
        try:
            game = game_class(record.game).from_config(record.config)
            state = game.new_state(record.seed, record_events=True)
            for action in record.actions:
                state.apply(action)
            agents = {seat: make_agent(who, record.game) for seat, who in record.seats.items() if who != HUMAN}
        except (CardlabError, ValueError, TypeError) as exc:  # stored by an older version that checked less
            raise Rejected(409, f"game {game_id!r} cannot be resumed by this version: {exc}") from None
        for agent in agents.values():
            cap_thinking(agent, self.limits.think_time)
        live = LiveGame(record.id, game, record.seed, record.seats, state, record.actions, agents=agents)
        live.rematch = self.db.rematch_of(game_id)
        if live.over:
            self.db.mark_finished(game_id)
        return live

    def _evict(self, keep: str) -> None:
        """Drop idle games, oldest first, beyond the cap or past the idle time; they reload on demand.

        `keep` (the game being served) and busy games stay: a request never acts on a dropped copy.
        """
        limits = self.limits
        now = time.monotonic()
        for game_id, live in list(self._live.items()):
            excess = len(self._live) > limits.max_live_games
            if not excess and now - live.touched < limits.idle_seconds:
                break  # ordered by last use: every later game is younger
            if game_id != keep and not live.busy:
                del self._live[game_id]

    def resume_agents(self) -> int:
        """After a restart: load every unfinished game with an agent seat, so agents to move play on."""
        resumed = 0
        for game_id in self.db.unfinished_with_agents():
            try:
                live = self.get(game_id)
            except Rejected:
                continue
            resumed += not live.over
        return resumed

    def seat_for(self, live: LiveGame, token: str | None) -> str | None:
        """None for a spectator (no token); a wrong token is refused."""
        if token is None:
            return None
        seat = self.db.seat_of(live.id, token)
        if seat is None:
            raise Rejected(403, "wrong token for this game")
        return seat

    # -- views --------------------------------------------------------------------------------

    def view(self, live: LiveGame, seat: str | None, token: str | None = None) -> dict[str, Any]:
        """Everything one seat (or a spectator) may see; built from that seat's observation."""
        state = live.state
        player = None if seat is None else parse_player(seat)
        observation = state.observation(player)
        render = live.game.renderer()
        assert state.events is not None
        events = [dict(event, text=render.event_text(event)) for event in state.events.for_player(player)]
        to_move = state.current_player()
        outcome = state.outcome()
        legal = [str(a) for a in state.legal_actions()] if player is not None and to_move == player else []
        return {
            "id": live.id,
            "game": live.game.name,
            "title": live.game.title,
            "seat": seat,
            "seats": live.seats,
            "status": "over" if outcome else "running",
            "version": len(live.actions),
            "observation": observation,
            "legal": legal,
            "cards": live.cards(observation, legal),
            "hint": render.WINDOW_HINTS.get(observation.get("window", ""), ""),
            "events": events,
            "result": None
            if outcome is None
            else {"winner": None if outcome.winner is None else PLAYER_NAMES[outcome.winner], "reason": outcome.reason},
            "rematch_url": self._rematch_url(live, seat, token),
        }

    def _rematch_url(self, live: LiveGame, seat: str | None, token: str | None) -> str | None:
        """This seat's own link into the rematch, once either player asked for one."""
        if live.rematch is None or seat is None or token is None or live.seats.get(seat) != HUMAN:
            return None
        own = rematch_token(token, live.rematch)
        self.db.add_token(live.rematch, seat, own)
        return f"/play/{live.rematch}?token={own}"

    async def replay(self, live: LiveGame, seat: str | None) -> dict[str, Any]:
        """Every step of the game as `seat` (None: anyone) saw it; all of it once the game is over.

        Built in a worker thread, once per version and viewer: replays never stall the event loop.
        """
        viewer = "all" if live.over else seat
        version = len(live.actions)
        cached = live.replays.get(viewer)
        if cached is None or cached[0] != version:
            actions = tuple(live.actions)
            player = None if seat is None else parse_player(seat)
            work = asyncio.get_running_loop().run_in_executor(
                None, _build_replay, live.id, live.game, live.seed, actions, player, live.over
            )
            cached = (version, asyncio.ensure_future(work))
            live.replays[viewer] = cached
        built = await asyncio.shield(cached[1])
        frames = built["frames"]
        seen = [frame["observation"] for frame in frames], [frame["action"] for frame in frames]
        return {**built, "cards": live.cards(*seen)}

    # -- acting -------------------------------------------------------------------------------

    async def act(self, live: LiveGame, seat: str, action: str, version: int | None = None) -> None:
        """Validate, commit to the database, apply, tell every subscriber; then let agents move.

        `version` is the version of the view the client acted on: a stale one (a repeated or
        crossed request) is refused, so an action is never applied twice.
        """
        async with live.lock:
            state = live.state
            legal = [str(a) for a in state.legal_actions()]
            if version is not None and version != len(live.actions):
                raise Rejected(409, f"stale version {version}: the game is at version {len(live.actions)}", legal)
            to_move = state.current_player()
            if to_move is None:
                raise Rejected(409, "the game is over", [])
            if PLAYER_NAMES[to_move] != seat:
                raise Rejected(409, f"it is not {seat}'s turn", [])
            if not isinstance(action, str) or action not in legal:
                reason = self.why_illegal(live, action)
                raise Rejected(409, f"illegal action {action!r}{f': {reason}' if reason else ''}", legal)
            self._commit(live, action)
        await self.broadcast(live)
        self._schedule_agents(live)

    def why_illegal(self, live: LiveGame, action: str) -> str:
        """Why `action` is refused now, in the rules' words ("" when the legal list says it all).

        Only for the seat to move: the game's explanation reads what that player may know.
        """
        try:
            parsed = live.game.parse_action(action)
        except ValueError as exc:
            return str(exc)
        return live.state.why_illegal(parsed)

    def explain(self, live: LiveGame, seat: str, action: str) -> dict[str, Any]:
        """Whether `seat` may choose `action` now and, if not, why: what a click on a card it cannot play
        answers, without sending a move."""
        to_move = live.state.current_player()
        if to_move is None:
            raise Rejected(409, "the game is over")
        if PLAYER_NAMES[to_move] != seat:
            raise Rejected(409, f"it is not {seat}'s turn")
        if action in (str(a) for a in live.state.legal_actions()):
            return {"action": action, "legal": True, "reason": ""}
        reason = self.why_illegal(live, action)
        return {"action": action, "legal": False, "reason": reason or "not one of your choices now"}

    def _commit(self, live: LiveGame, action: str) -> None:
        """The database first: an action is acknowledged only once it is stored."""
        self.db.append_action(live.id, len(live.actions), action)
        live.state.apply(action)
        live.actions.append(action)
        live.touched = time.monotonic()
        if live.over:
            self.db.mark_finished(live.id)

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
        """Agents play their turns with a short delay, so that people can follow.

        Decisions run in the shared agent pool, each bounded by the think time, so a searching
        agent delays other games by at most that much per decision it holds a thread.
        """
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.agent_delay)
            async with live.lock:
                player = live.state.current_player()
                if player is None or PLAYER_NAMES[player] not in live.agents:
                    return
                infoset = live.state.infoset(player)
                rng = make_rng(derive_seed(live.seed, "web-agent", len(live.actions)))
                agent = live.agents[PLAYER_NAMES[player]]
                action = await loop.run_in_executor(self._pool, agent.act, infoset, rng)
                self._commit(live, str(action))
            await self.broadcast(live)

    # -- subscribers --------------------------------------------------------------------------

    def subscribe(self, live: LiveGame, key: int, seat: str | None, token: str | None, send: Send) -> None:
        """Add a socket; refused once the game has as many as the server allows."""
        if len(live.subscribers) >= self.limits.max_sockets:
            raise Rejected(429, f"this game already has {self.limits.max_sockets} connections")
        live.subscribers[key] = Subscriber(seat, token, send)

    def unsubscribe(self, live: LiveGame, key: int) -> None:
        live.subscribers.pop(key, None)

    async def broadcast(self, live: LiveGame) -> None:
        """Each subscriber gets its own seat's view, built once per seat; a dead socket is dropped."""
        texts: dict[tuple[str | None, str | None], str] = {}
        for subscriber in live.subscribers.values():
            key = (subscriber.seat, subscriber.token)
            if key not in texts:
                texts[key] = json.dumps(self.view(live, subscriber.seat, subscriber.token))

        async def push(key: int, subscriber: Subscriber) -> None:
            text = texts[(subscriber.seat, subscriber.token)]
            try:
                await asyncio.wait_for(subscriber.send(text), timeout=5.0)
            except Exception:  # any failure of one client must not reach the others
                live.subscribers.pop(key, None)

        await asyncio.gather(*(push(key, sub) for key, sub in list(live.subscribers.items())))

    def rematch(self, live: LiveGame, seat: str, token: str) -> dict[str, Any]:
        """The game's one rematch (same config and seats, a new deal); this seat's own link into it.

        Whichever seat asks first creates it; every later request, from either seat, lands in the
        same game. Each seat receives only its own token.
        """
        if live.rematch is None:
            created = self.create(live.game.name, live.game.config_json(), live.seats, with_tokens=False)
            live.rematch = self.db.set_rematch(live.id, created["id"])
        rematch_id = live.rematch
        own = rematch_token(token, rematch_id)
        tokens = {}
        if live.seats.get(seat) == HUMAN:
            self.db.add_token(rematch_id, seat, own)
            tokens[seat] = own
        self.get(rematch_id)
        return {
            "id": rematch_id,
            "tokens": tokens,
            "urls": {s: f"/play/{rematch_id}?token={t}" for s, t in tokens.items()},
            "spectator_url": f"/play/{rematch_id}",
        }


def _build_replay(
    game_id: str, game: Game, seed: int, actions: tuple[str, ...], player: Player | None, full: bool
) -> dict[str, Any]:
    """The frames of a replay: each viewer sees at each step what it saw then, all once the game is over.

    Another player's action text is shown only in a full replay: it can name a card the viewer
    never saw (a placed caster, a mulligan); the frame's events carry its public part.
    """
    state = game.new_state(seed, record_events=True)
    render = game.renderer()
    frames = [_frame(state, None, None, 0, player, full, render)]
    for action in actions:
        actor = state.current_player()
        seen = len(state.events or [])
        state.apply(action)
        frames.append(_frame(state, action, actor, seen, player, full, render))
    return {"id": game_id, "game": game.name, "status": "over" if full else "running", "frames": frames}


def _frame(
    state: State,
    action: str | None,
    actor: int | None,
    seen: int,
    player: Player | None,
    full: bool,
    render: Renderer,
) -> dict[str, Any]:
    # after the end nothing is secret any more: a full replay shows both hands
    observation = state.open_observation() if full else state.observation(player)
    assert state.events is not None
    events = list(state.events)[seen:]
    views = [event.view(event.secret_to if full else player) for event in events]
    shown = full or (actor is not None and actor == player)
    return {
        "action": action if shown else None,
        "actor": None if actor is None else PLAYER_NAMES[actor],
        "observation": observation,
        "events": [dict(view, text=render.event_text(view)) for view in views],
    }
