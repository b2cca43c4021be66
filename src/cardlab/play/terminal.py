"""Play any cardlab game at the terminal against an agent, with undo, save and load.

Each game's `Game.renderer()` gives `render_board(observation)`, `event_text(event)`,
`option_groups` and `WINDOW_HINTS`, and the game itself its words (`card_words`, `glossary`,
`how_to_win`) and why a move is refused (`State.why_illegal`); this loop knows nothing else about
the game. The board is drawn again only after a move, so the answer to `help`, `card` or a refused
move stays on screen. A game in progress is its config, seed and action list (the engine is
deterministic), which is what `save` writes.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console, RenderableType
from rich.markup import escape
from rich.text import Text

from cardlab.agents import make_agent
from cardlab.core.cardwords import find_term, plain_card_text
from cardlab.core.datafile import DataFileError, read_json
from cardlab.core.errors import CardlabError, IllegalActionError
from cardlab.core.game import PLAYER_NAMES, Action, Game, State, parse_player
from cardlab.core.plugin import destructive_options, option_labels, reason_words
from cardlab.core.rng import derive_seed, make_rng
from cardlab.games import game_class, game_names

COMMANDS = "number or action; help [WORD]; card NAME; undo; save FILE; q"
DESTRUCTIVE_FROM = 51
"""Where the numbers of choices that throw away your own card start (#51 item 4): far from those typed by habit."""
HELP = f"""Commands:
  NUMBER or ACTION   play one of the listed choices: its number, or its full text in any case
                     (a choice keeps its number while it stays a choice of the same decision; a
                     removal of your own card is numbered from {DESTRUCTIVE_FROM})
  more               the choices that did not fit on the screen
  help               this list, what the current decision is about, and how to win
  help WORD          what a keyword, skill or rule means (e.g. help block)
  card NAME          what a card does (its id or name), or a keyword, skill or character
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


@dataclass
class Numbering:
    """Each choice's number while its decision lasts (#51 item 4: numbers shifted after every action, and a
    player typing one by habit removed their own unit). A decision is a window of a turn: its numbers survive
    the steps in between (a cast's destination and payment) and a choice keeps its number while it is legal;
    a new choice takes a number never given in that decision, so a number typed by habit plays the choice it
    named or is refused. Choices that throw away a player's own card are numbered from `DESTRUCTIVE_FROM`."""

    turn: object = None
    windows: dict[str, dict[str, int]] = field(default_factory=dict)

    def numbers(self, view: Mapping[str, Any], keys: Sequence[str], order: Sequence[int], destructive: set[int]
                ) -> dict[int, int]:  # fmt: skip
        """The number of each option (index into `keys`, what each option is: `choice_keys`), giving new ones
        in the order shown (`order`)."""
        if view.get("turn") != self.turn:
            self.turn, self.windows = view.get("turn"), {}
        window = str(view.get("window", ""))
        given = self.windows.get(window, {})
        if not any(key in given for key in keys):  # none of it is left: a new decision, numbered afresh
            given = self.windows[window] = {}
        used = set(given.values())
        for index in order:
            if keys[index] not in given:
                apart = index in destructive
                number = max((n for n in used if (n >= DESTRUCTIVE_FROM) == apart),
                             default=DESTRUCTIVE_FROM - 1 if apart else 0) + 1  # fmt: skip
                while number in used:
                    number += 1
                given[keys[index]] = number
                used.add(number)
        return {index: given[keys[index]] for index in order}


def choice_keys(texts: Sequence[str], groups: list[tuple[str, list[int]]], labels: Sequence[str] | None
                ) -> list[str]:  # fmt: skip
    """What each option is, for its number to follow: its action text with the card its words name (a slot's
    action such as `REMOVE BA2.U1` names another unit once the first has gone), without the facts in brackets
    that change while it stays the same choice (a unit's current BP, a card's cost)."""
    headings = {index: heading for heading, indices in groups for index in indices}
    return [
        " | ".join((text, _unbracketed(headings.get(index, "")), _unbracketed(labels[index] if labels else "")))
        for index, text in enumerate(texts)
    ]


def _unbracketed(words: str) -> str:
    """`words` without its bracketed asides, nested ones included."""
    while (plain := _BRACKETED.sub("", words)) != words:
        words = plain
    return words


_BRACKETED = re.compile(r"\s*\([^()]*\)")


def game_to_play(args: argparse.Namespace) -> Game:
    """The game `cardlab play` starts: the opponent's spec, then every problem of the `--decks`/`--cards` files
    at once, as `cardlab deck validate` lists them (#51 item 3: play stopped at the first), then the game."""
    from cardlab.agents import parse_spec
    from cardlab.core.datacheck import check_start_files
    from cardlab.sim.prepare import check_agents, game_from_options

    parse_spec(args.vs)
    check_start_files(game_class(args.game), vars(args))
    game = game_from_options(args.game, vars(args), args.seed)
    check_agents((args.vs,), game.name)
    return game


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
        console.print(f"[yellow]playing with {escape(', '.join(changed + list(config.get('patches') or [])))}[/]")
    opponent = make_agent(session.vs)
    me = session.seat
    assert state.events is not None
    if session.game.how_to_win():
        console.print(f"[bold]{escape(session.game.title)}[/] · how to win: {escape(session.game.how_to_win())}")
    seen = 0
    numbering = Numbering()
    saved = len(session.history)  # what the last save (or load) holds
    redraw = True  # the board is drawn again only once something has happened since it was last drawn
    while (player := state.current_player()) is not None:
        assert state.events is not None  # a rebuilt state (undo) records them too
        for event in state.events.for_player(me, seen):
            console.print(f"  · {escape(render.event_text(event))}", highlight=False)
        seen = len(state.events)
        if player != me:
            rng = make_rng(derive_seed(session.seed, "opponent", len(session.history)))
            move = str(opponent.act(state.infoset(player), rng))
            state.apply(move)
            session.history.append((player, move))
            continue
        view = state.observation(me)
        legal = state.legal_actions()
        hint = render.WINDOW_HINTS.get(view.get("window", ""), "")
        if redraw:
            texts = [str(action) for action in legal]
            more: list[str] = []
            groups, labels = render.option_groups(view, texts), option_labels(render, view, texts)
            numbers = numbering.numbers(view, choice_keys(texts, groups, labels),
                                        [i for _, indices in groups for i in indices],
                                        destructive_options(render, texts))  # fmt: skip
            shown = _decision(console, render.render_board(view), hint, groups, legal, labels, more, numbers)
            redraw = False
        try:
            answer = " ".join(console.input(f"choose ({COMMANDS}): ").split())
        except EOFError:
            return 0
        command, _, rest = answer.partition(" ")
        command = command.lower()
        if command in ("q", "quit") and not rest:
            if len(session.history) == saved or _confirm(console, "quit without saving? (y/N) "):
                return 0
        elif command in ("help", "?"):
            _help(session.game, rest, hint, console)
        elif command == "card":
            _show_card(session.game, rest, console)
        elif command == "more" and not rest:
            for line in more or ["[dim]every choice is on the screen[/]"]:
                console.print(line, highlight=False)
        elif command == "undo" and not rest:
            state, seen = _undo(session, state, console)
            redraw = True
        elif command == "save":
            if _save(session, rest, console):
                saved = len(session.history)
        else:
            chosen = _choice(session.game, answer, legal, shown, console)
            if chosen is None:
                continue
            try:
                state.apply(chosen)
            except IllegalActionError as exc:
                console.print(f"[red]{escape(_refusal(exc))}[/]", highlight=False)
                continue
            session.history.append((me, str(chosen)))
            redraw = True
    assert state.events is not None  # the session records them
    for event in state.events.for_player(me, seen):
        console.print(f"  · {escape(render.event_text(event))}", highlight=False)
    outcome = state.outcome()
    assert outcome is not None
    verdict = "Draw" if outcome.winner is None else ("You win" if outcome.winner == me else "You lose")
    winner = None if outcome.winner is None else PLAYER_NAMES[outcome.winner]
    console.print(f"[bold]{verdict}[/]: {escape(reason_words(type(session.game), outcome.reason, winner))}.")
    return 0


def _choice(
    game: Game, answer: str, legal: Sequence[Action], shown: Mapping[int, int], console: Console
) -> Action | str | None:
    """The legal action an answer names: its number as listed (`shown`: number -> index into `legal`), or its
    text in any case, suit symbols allowed for suit letters; else the answer itself, for the game to refuse
    with its reason. None (and a word on what to type) for an empty answer or a number off the list."""
    if not answer:
        console.print(f"[red]type a number ({_spans(shown)}), an action, or help[/]")
        return None
    if answer.isdigit():
        number = int(answer)
        if number in shown:
            return legal[shown[number]]
        console.print(f"[red]choose {_spans(shown)}: there is no choice {number}[/]")
        return None
    typed = plain_card_text(answer)
    matching = next((action for action in legal if str(action).upper() == typed.upper()), None)
    if matching is not None:
        return matching
    parsed = _parsed(game, typed.upper())  # an illegal action the game can still name, to say why it is refused
    return typed if parsed is None else parsed


def _spans(numbers: Iterable[int]) -> str:
    """The numbers on the screen, runs joined with a dash (`1-3, 5, 51-52` with en dashes)."""
    runs: list[list[int]] = []
    for number in sorted(numbers):
        if runs and number == runs[-1][-1] + 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    return ", ".join(f"{run[0]}–{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs)


def _parsed(game: Game, text: str) -> Action | None:
    """`text` as the game reads it, or None when it reads no action there."""
    try:
        return game.parse_action(text)
    except ValueError:
        return None


def _refusal(exc: IllegalActionError) -> str:
    """A refused move in a player's words: the action, and why (the game's reason) or where to look instead
    of the full legal list, which the numbered options already show."""
    if exc.reason:
        return f"illegal action {str(exc.action)!r}: {exc.reason}"
    return f"illegal action {str(exc.action)!r} now: choose one of the numbered options"


def _decision(
    console: Console,
    board: RenderableType,
    hint: str,
    groups: list[tuple[str, list[int]]],
    legal: Sequence[object],
    labels: Sequence[str] | None,
    more: list[str],
    numbers: Mapping[int, int] | None = None,
) -> dict[int, int]:
    """The board, the hint and the numbered options in one screen of `console.height` lines with the prompt
    (#51 item 4: at 80x24 the opponent's turn must not scroll away for 22 options): when they do not fit, the
    hint shrinks to a line (`help` gives it whole) and the options that do not fit go to `more`, numbered as
    they would be. Returns the index into `legal` of each number."""
    console.print(board)
    room = console.height - len(console.render_lines(board, console.options, pad=False)) - 1  # 1: the prompt
    lines: list[str] = []
    shown = _print_options(console, groups, legal, labels, lines, numbers)
    height = [len(Text.from_markup(line).wrap(console, console.width)) for line in lines]
    hinted = len(Text(hint).wrap(console, console.width)) if hint else 0
    if hinted + sum(height) > room and hint:  # the options come first: `help` repeats the hint whole
        short = _one_line(hint, console.width - len(" (help)") - 1) + " (help)"
        hint, hinted = (short, 1) if room - 1 > min(sum(height), 3) else ("", 0)
    if hint:
        console.print(f"[dim]{escape(hint)}[/]", highlight=False)
    room -= hinted
    fit = len(lines)
    if sum(height) > room:
        fit = 0
        while fit < len(lines) and sum(height[: fit + 1]) <= room - 1:  # 1: the line that says `more`
            fit += 1
    for line in lines[:fit]:
        console.print(line, highlight=False)
    more[:] = lines[fit:]
    if more:
        hidden = sum(line.count(_NUMBER) for line in more)
        console.print(f"  [dim]… {hidden} more choice{'s' if hidden != 1 else ''}: type [bold]more[/][/]")
    return shown


def _one_line(text: str, width: int) -> str:
    """`text` cut at a word to fit `width` columns, with an ellipsis where it was cut."""
    if len(text) <= width:
        return text
    return text[: width - 1].rsplit(" ", 1)[0] + "…"


def _print_options(
    console: Console,
    groups: list[tuple[str, list[int]]],
    legal: Sequence[object],
    labels: Sequence[str] | None = None,
    lines: list[str] | None = None,
    numbers: Mapping[int, int] | None = None,
) -> dict[int, int]:
    """List the options in the order of `groups`, each with its number (`numbers`: index into `legal` ->
    number; without it, number N is the N-th option shown): a group with a heading (a card and its facts)
    lists its options after it, on the same line when they fit, each without the card id the heading already
    names (or by its label, where the game words its options: `labels`); options without a heading share
    lines, a line never breaking an option. Printed, or gathered in `lines` for the caller to print. Returns
    number -> index into `legal`."""
    shown: dict[int, int] = {}
    out: list[str] = [] if lines is None else lines

    def numbered(indices: list[int], named: str) -> list[str]:
        texts = []
        for index in indices:
            number = len(shown) + 1 if numbers is None else numbers[index]
            shown[number] = index
            if labels is not None:
                texts.append(f"{_NUMBER}{number}[/] {escape(labels[index])}")
                continue
            words = str(legal[index]).split()
            short = [w for w in words if w != named and not w.startswith(f"{named}@")] if named else words
            texts.append(f"{_NUMBER}{number}[/] {escape(' '.join(short or words))}")
        return texts

    def packed(texts: list[str], indent: str) -> list[str]:
        rows: list[str] = []
        for text in texts:
            if rows and len(Text.from_markup(f"{rows[-1]}  {text}").plain) <= console.width:
                rows[-1] += f"  {text}"
            else:
                rows.append(f"{indent}{text}")
        return rows

    for heading, indices in groups:
        named = heading.split()[0] if heading else ""
        options = numbered(indices, named if all(named in str(legal[i]) for i in indices) else "")
        joined = "  ".join(options)
        if not heading:
            out += packed(options, "  ")
        elif len(heading) + 4 + len(Text.from_markup(joined).plain) <= console.width:
            out.append(f"  [cyan]{escape(heading)}[/]: {joined}")
        else:
            out.append(f"  [cyan]{escape(heading)}[/]")
            out += packed(options, "     ")
    if lines is None:
        for line in out:
            console.print(line, highlight=False)
    return shown


_NUMBER = "[bold]"
"""What starts each numbered option on an option line (its number is bold)."""


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


def _help(game: Game, word: str, hint: str, console: Console) -> None:
    """`help`: the commands, the decision at hand and how to win; `help WORD`: what WORD means."""
    if word:
        _show_card(game, word, console)
        return
    console.print(HELP, markup=False, highlight=False)
    console.print(f"now: {hint or 'choose one of the list'}", style="dim", markup=False, highlight=False)
    if game.how_to_win():
        console.print(f"how to win: {game.how_to_win()}", markup=False, highlight=False)
    terms = sorted(game.glossary(), key=str.lower)
    if terms:
        console.print(f"words help explains: {', '.join(terms)}", style="dim", markup=False, highlight=False)


def _show_card(game: Game, ident: str, console: Console) -> None:
    """A card in player words, else the glossary entry of a keyword, skill or rule of that name."""
    if not ident:
        console.print("[red]card needs a name: card ID, card NAME or card KEYWORD[/]")
        return
    words = game.card_words(plain_card_text(ident))
    term = find_term(game.glossary(), ident)
    if words is not None:
        console.print(words.text(), markup=False, highlight=False)
    elif term is not None:
        console.print(f"{term[0]}: {term[1]}", markup=False, highlight=False)
    else:
        console.print(f"[red]no card or keyword {escape(repr(ident))} in this game[/] (help lists the words)")


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
        console.print(f"[red]cannot save to {escape(target)}: {exc.strerror}[/]", soft_wrap=True)
        return False
    line = f"saved to {target}; continue later with: cardlab play {session.game.name} --load {target}"
    console.print(line, markup=False, emoji=False, soft_wrap=True, highlight=False)  # a path as typed, whole
    return True
