"""Play any cardlab game at the terminal against an agent, with undo, save and load.

Each game's `Game.renderer()` gives `render_board(observation)`, `event_text(event)` and
`WINDOW_HINTS`; this loop knows nothing else about the game. A game in progress is its
config, seed and action list (the engine is deterministic), which is what `save` writes.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from cardlab.agents import make_agent
from cardlab.core.datafile import DataFileError, read_json
from cardlab.core.errors import CardlabError, IllegalActionError
from cardlab.core.game import PLAYER_NAMES, Game, State, parse_player
from cardlab.core.rng import derive_seed, make_rng
from cardlab.games import game_class, game_names

COMMANDS = "number or action; help; card ID; undo; save FILE; q to quit"
HELP = """Commands:
  NUMBER or ACTION   play one of the listed choices (its number, or its text)
  help               this list, and what the current decision is about
  card ID            everything printed on a card
  undo               take back your last decision (and the opponent's answer)
  save FILE          save the game; continue with `cardlab play GAME --load FILE`
  q                  quit (asks first if you have made a move since the last save)"""
SAVE_KEYS = ("game", "config", "seed", "seat", "vs", "actions")
"""The fields of a save file, as `Session.to_json` writes them."""


@dataclass
class Session:
    """A terminal game: who sits where, and every action so far with who made it."""

    game: Game
    seed: int
    seat: int
    vs: str
    history: list[tuple[int, str]] = field(default_factory=list)

    def rebuild(self) -> State:
        state = self.game.new_state(self.seed)
        for _, action in self.history:
            state.apply(action)
        return state

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game.name,
            "config": self.game.config_json(),
            "seed": self.seed,
            "seat": PLAYER_NAMES[self.seat],
            "vs": self.vs,
            "actions": [a for _, a in self.history],
        }

    @classmethod
    def load(cls, path: Path) -> tuple[Session, State]:
        """Rebuild a saved game; every field is checked and every action replayed, and any problem is a
        CardlabError naming the file and the field."""
        try:
            return cls._load(read_json(path))
        except DataFileError as exc:
            raise CardlabError(f"cannot load {path}: {exc.problem}") from None
        except CardlabError as exc:  # PositionError, AgentSpecError, IllegalActionError, ...: the text names the field
            raise CardlabError(f"cannot load {path}: {exc}") from None

    @classmethod
    def _load(cls, data: Any) -> tuple[Session, State]:
        if not isinstance(data, dict):
            raise CardlabError(f"expected a JSON object with {', '.join(SAVE_KEYS)}")
        for key in SAVE_KEYS:
            if key not in data:
                raise CardlabError(f"{key}: missing")
        unknown = sorted(set(data) - set(SAVE_KEYS))
        if unknown:
            raise CardlabError(f"{unknown[0]}: unknown field (expected {', '.join(SAVE_KEYS)})")
        if data["game"] not in game_names():
            raise CardlabError(f"game: unknown game {data['game']!r}; known games: {', '.join(game_names())}")
        game = game_class(data["game"]).from_config(data["config"])
        seed = data["seed"]
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise CardlabError(f"seed: expected an integer, got {seed!r}")
        if data["seat"] not in PLAYER_NAMES:
            raise CardlabError(f"seat: expected 'P1' or 'P2', got {data['seat']!r}")
        vs = data["vs"]
        if not isinstance(vs, str):
            raise CardlabError(f"vs: expected an agent spec such as 'random', got {vs!r}")
        try:
            make_agent(vs)  # a bad spec is the file's fault: say so now, not when the opponent first moves
        except CardlabError as exc:
            raise CardlabError(f"vs: {exc}") from None
        actions = data["actions"]
        if not isinstance(actions, list):
            raise CardlabError("actions: expected a list of action texts")
        session = cls(game, seed, parse_player(data["seat"]), vs)
        state = game.new_state(seed)
        for index, action in enumerate(actions):
            if not isinstance(action, str):
                raise CardlabError(f"actions[{index}]: expected an action text, got {action!r}")
            actor = state.current_player()
            try:
                state.apply(action)
            except IllegalActionError as exc:
                raise CardlabError(f"actions[{index}]: {exc}") from None
            session.history.append((actor if actor is not None else 0, action))
        return session, state


def play_game(game: Game, args: argparse.Namespace, console: Console) -> int:
    """Loop: show the board and new events, read a choice, let the opponent agent answer."""
    if getattr(args, "load", None):
        session, state = Session.load(Path(args.load))
        if session.game.name != game.name:
            raise CardlabError(
                f"{args.load} is a saved {session.game.name} game, not {game.name}: "
                f"cardlab play {session.game.name} --load {args.load}"
            )
    else:
        session = Session(game, args.seed, parse_player(args.seat), args.vs)
        state = session.game.new_state(session.seed)
    render = session.game.renderer()
    config = session.game.config_json()
    if config.get("rules") or config.get("patches"):  # a what-if game: say what differs from the spec
        changed = [f"{name}={value}" for name, value in (config.get("rules") or {}).items()]
        console.print(f"[yellow]playing with {', '.join(changed + list(config.get('patches') or []))}[/]")
    opponent = make_agent(session.vs)
    me = session.seat
    assert state.events is not None
    seen = 0
    saved = len(session.history)  # what the last save (or load) holds
    while (player := state.current_player()) is not None:
        for event in state.events.for_player(me, seen):
            console.print(f"  · {render.event_text(event)}")
        seen = len(state.events)
        if player != me:
            rng = make_rng(derive_seed(session.seed, "opponent", len(session.history)))
            move = str(opponent.act(state.infoset(player), rng))
            state.apply(move)
            session.history.append((player, move))
            continue
        view = state.observation(me)
        console.print(render.render_board(view))
        legal = state.legal_actions()
        console.print(f"[dim]{render.WINDOW_HINTS.get(view.get('window', ''), '')}[/]")
        _print_options(console, render.option_groups(view, [str(action) for action in legal]), legal)
        try:
            answer = console.input(f"choose ({COMMANDS}): ").strip()
        except EOFError:
            return 0
        if answer.lower() in ("q", "quit"):
            if len(session.history) == saved or _confirm(console, "quit without saving? (y/N) "):
                return 0
            continue
        if answer.lower() in ("help", "?"):
            console.print(HELP)
            console.print(
                f"[dim]now: {render.WINDOW_HINTS.get(view.get('window', ''), '') or 'choose one of the list'}[/]"
            )
            continue
        if answer.lower() == "card" or answer.lower().startswith("card "):
            _show_card(session.game, answer[4:].strip(), console)
            continue
        if answer.lower() == "undo":
            state, seen = _undo(session, state, console)
            continue
        if answer.lower().startswith("save"):
            if _save(session, answer[4:].strip(), console):
                saved = len(session.history)
            continue
        try:
            chosen = legal[int(answer) - 1] if answer.isdigit() and 0 < int(answer) <= len(legal) else answer
            state.apply(chosen)
            session.history.append((me, str(chosen)))
        except IllegalActionError as exc:
            console.print(f"[red]{exc}[/]")
    assert state.events is not None  # the session records them
    for event in state.events.for_player(me, seen):
        console.print(f"  · {render.event_text(event)}")
    outcome = state.outcome()
    assert outcome is not None
    verdict = "Draw" if outcome.winner is None else ("You win" if outcome.winner == me else "You lose")
    console.print(f"[bold]{verdict}[/] ({outcome.reason.replace('_', ' ')}).")
    return 0


def _print_options(console: Console, groups: list[tuple[str, list[int]]], legal: Sequence[object]) -> None:
    """Numbered options; a group with a heading (a card and its facts) lists its options on one line under it."""
    for heading, indices in groups:
        options = [f"[bold]{index + 1}[/] {escape(str(legal[index]))}" for index in indices]
        if heading:
            console.print(f"  {escape(heading)}", style="cyan", highlight=False)
            console.print("     " + "   ".join(options), highlight=False)
        else:
            for option in options:
                console.print(f"  {option}", highlight=False)


def _undo(session: Session, state: State, console: Console) -> tuple[State, int]:
    """Take back your last decision and everything the opponent did after it."""
    if not any(actor == session.seat for actor, _ in session.history):
        console.print("[yellow]nothing to undo[/]")
        return state, len(state.events or [])
    while session.history:
        actor, _ = session.history.pop()
        if actor == session.seat:
            break
    rebuilt = session.rebuild()
    console.print("[yellow]undone: back to your previous decision[/]")
    return rebuilt, len(rebuilt.events or [])


def _show_card(game: Game, ident: str, console: Console) -> None:
    if not ident:
        console.print("[red]card needs an id: card ID[/]")
        return
    text = game.card_text(ident)
    if text is None:
        console.print(f"[red]no card {ident!r} in this game[/]")
    else:
        console.print(text, markup=False, highlight=False)


def _confirm(console: Console, question: str) -> bool:
    """A yes/no question; the end of the input counts as yes (nothing more will be typed)."""
    try:
        return console.input(question).strip().lower() in ("y", "yes")
    except EOFError:
        return True


def _save(session: Session, target: str, console: Console) -> bool:
    if not target:
        console.print("[red]save needs a file name: save FILE[/]")
        return False
    try:
        Path(target).write_text(json.dumps(session.to_json(), indent=1) + "\n")
    except OSError as exc:
        console.print(f"[red]cannot save to {target}: {exc.strerror}[/]")
        return False
    console.print(f"saved to {target}; continue later with: cardlab play {session.game.name} --load {target}")
    return True
