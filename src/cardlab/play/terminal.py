"""Play Edelweiss at the terminal against a uniformly random opponent."""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.panel import Panel
from rich.table import Table

from cardlab.agents import RandomAgent
from cardlab.core.errors import IllegalActionError
from cardlab.core.game import Game, State, parse_player
from cardlab.core.rng import derive_seed, make_rng
from cardlab.games.edelweiss.render import WINDOW_HINTS, card_text, cards_text, event_text


def render_board(state: State, me: int, console: Console) -> None:
    """The seat's own view: both fields with orientation, own hand, counts, whose turn."""
    view = state.infoset(me).observation
    you, them = view["players"][("P1", "P2")[me]], view["players"][("P1", "P2")[1 - me]]
    table = Table(show_header=False, box=None, padding=(0, 1))
    table.add_row("[bold]Opponent[/]", f"hand: {them['hand_size']} card(s)"
                  + (f" incl. {cards_text(them['hand'])}" if them["hand"] else ""))  # fmt: skip
    table.add_row("", "field: " + (", ".join(card_text(c) for c in them["field"]) or "-"))
    table.add_row("[bold]Table[/]", f"deck: {view['deck_size']} · discard: {len(view['discard'])} "
                  f"(last: {card_text(view['discard'][-1]) if view['discard'] else '-'})")  # fmt: skip
    table.add_row("[bold]You[/]", "field: " + (", ".join(card_text(c) for c in you["field"]) or "-"))
    table.add_row("", f"hand: {cards_text(you['hand'])}")
    title = f"Turn {view['turn']} · {view['turn_player']}'s turn · {view['window']} · you are {view['player']}"
    console.print(Panel(table, title=title))


def play_edelweiss(game: Game, args: argparse.Namespace, console: Console) -> int:
    """Loop: show the board and new events, read a choice, let the random opponent answer."""
    me = parse_player(args.seat)
    state = game.new_state(args.seed)
    opponent = RandomAgent()
    rng = make_rng(derive_seed(args.seed, "opponent"))
    assert state.events is not None
    seen = 0
    while (player := state.current_player()) is not None:
        for event in state.events.for_player(me, seen):
            console.print(f"  · {event_text(event)}")
        seen = len(state.events)
        if player != me:
            state.apply(opponent.act(state.infoset(player), rng))
            continue
        render_board(state, me, console)
        legal = state.legal_actions()
        console.print(f"[dim]{WINDOW_HINTS.get(state.position()['window'], '')}[/]")
        for number, action in enumerate(legal, 1):
            console.print(f"  [bold]{number}[/] {action}")
        try:
            answer = console.input("choose (number or action, q to quit): ").strip()
        except EOFError:
            return 0
        if answer.lower() in ("q", "quit"):
            return 0
        try:
            state.apply(legal[int(answer) - 1] if answer.isdigit() and 0 < int(answer) <= len(legal) else answer)
        except IllegalActionError as exc:
            console.print(f"[red]{exc}[/]")
    for event in state.events.for_player(me, seen):
        console.print(f"  · {event_text(event)}")
    outcome = state.outcome()
    assert outcome is not None
    console.print(f"[bold]{'You win' if outcome.winner == me else 'You lose'}[/] ({outcome.reason.replace('_', ' ')}).")
    return 0
