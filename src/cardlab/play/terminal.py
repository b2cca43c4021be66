"""Play any cardlab game at the terminal against an agent.

Each game contributes a `render` module with `render_board(observation)`, `event_text(event)`
and `WINDOW_HINTS`; this loop knows nothing else about the game.
"""

from __future__ import annotations

import argparse
from importlib import import_module

from rich.console import Console

from cardlab.agents import make_agent
from cardlab.core.errors import IllegalActionError
from cardlab.core.game import Game, parse_player
from cardlab.core.rng import derive_seed, make_rng


def play_game(game: Game, args: argparse.Namespace, console: Console) -> int:
    """Loop: show the board and new events, read a choice, let the opponent agent answer."""
    render = import_module(f"cardlab.games.{game.name}.render")
    me = parse_player(args.seat)
    state = game.new_state(args.seed)
    opponent = make_agent(args.vs)
    rng = make_rng(derive_seed(args.seed, "opponent"))
    assert state.events is not None
    seen = 0
    while (player := state.current_player()) is not None:
        for event in state.events.for_player(me, seen):
            console.print(f"  · {render.event_text(event)}")
        seen = len(state.events)
        if player != me:
            state.apply(opponent.act(state.infoset(player), rng))
            continue
        view = state.observation(me)
        console.print(render.render_board(view))
        legal = state.legal_actions()
        console.print(f"[dim]{render.WINDOW_HINTS.get(view['window'], '')}[/]")
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
        console.print(f"  · {render.event_text(event)}")
    outcome = state.outcome()
    assert outcome is not None
    verdict = "Draw" if outcome.winner is None else ("You win" if outcome.winner == me else "You lose")
    console.print(f"[bold]{verdict}[/] ({outcome.reason.replace('_', ' ')}).")
    return 0
