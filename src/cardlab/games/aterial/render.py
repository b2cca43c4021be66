"""Aterial for people: the two 2x3 fields as a grid, events in words, a hint per window."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table

WINDOW_HINTS = {
    "mulligan": "Keep these 5 cards, or draw 5 new ones and shuffle the old ones back (A6.4).",
    "move": "Move a unit one square (the leader may retire a friendly subordinate by stepping onto it), "
    "or end the move phase (A10).",
    "move_to": "Where to? One orthogonal step inside your field (A10.2).",
    "action": "Deploy a subordinate where the dominance supply covers its cost, use an ability, "
    "or end the action phase (A11).",
    "deploy_to": "Which empty square? Its supply must be at least the card's cost (A11.3).",
    "ability_target": "Choose the ability's target (A16.4, A16.5).",
    "trigger_target": "Choose the target of the deploy ability (A17.14).",
    "attack": "Attack with a ready front-row unit (or a ranged one), or end the attack phase (A12).",
    "attack_target": "Facing square: front attack; diagonal: side attack, which a subordinate facing it may block.",
    "block": "Block the side attack with the subordinate on its facing square? It becomes a front attack (A12.5).",
    "discard": "Discard down to 6 cards (A13.2).",
}


def _unit(unit: dict[str, Any] | None) -> str:
    if unit is None:
        return "[dim]·[/]"
    state = "" if unit["ready"] else " [dim](acted)[/]"
    if "hp" not in unit:  # the leader
        return f"[bold]{unit['card']}[/] ATK {unit['attack']}{state}"
    return f"{unit['card']} {unit['attack']}/{unit['hp'] - unit['damage']}{state}"


def _rows(player: dict[str, Any], columns: tuple[int, ...], back_first: bool) -> list[list[str]]:
    rows = [[_unit(player["field"][f"{row}{c}"]) for c in columns] for row in ("F", "B")]
    return rows[::-1] if back_first else rows


def render_board(view: dict[str, Any]) -> RenderableType:
    """The viewer's own field at the bottom; columns as the viewer sees them (A3.2)."""
    me = view["player"]
    them = "P2" if me == "P1" else "P1"
    columns = (0, 1, 2) if me == "P1" else (2, 1, 0)
    grid = Table(show_header=True, box=None, padding=(0, 2))
    grid.add_column("")
    for c in columns:
        grid.add_column(f"col {c}", justify="center", min_width=14)
    for label, cells in zip(("B", "F"), _rows(view["players"][them], columns, back_first=True), strict=True):
        grid.add_row(f"{them} {label}", *cells)
    for label, cells in zip(("F", "B"), _rows(view["players"][me], columns, back_first=False), strict=True):
        grid.add_row(f"[bold]{me} {label}[/]", *cells)
    lines = []
    for seat in (them, me):
        p = view["players"][seat]
        lines.append(
            f"{seat}: LP {p['lp']} · hand {p['hand_size']} · deck {p['deck_size']} · "
            f"discard {len(p['discard'])} · removed {len(p['removed'])}"
        )
    lines.append(f"your hand: {', '.join(view['players'][me]['hand']) or '-'}")
    title = f"Turn {view['turn']} · {view['active']} active · {view['window']} · you are {me}"
    return Panel(Group(grid, *lines), title=title)


def event_text(event: dict[str, Any]) -> str:
    """One event view as a sentence."""
    kind, who = event["kind"], event.get("player", "")
    sentences = {
        "draw": lambda: f"{who} draws {event['card']}." if "card" in event else f"{who} draws a card.",
        "keep": lambda: f"{who} keeps the opening hand.",
        "mulligan": lambda: f"{who} takes a mulligan.",
        "turn": lambda: f"Turn {event['turn']}: {who} is active.",
        "move": lambda: f"{who} moves {event['card']} from {event['frm']} to {event['to']}.",
        "retired": lambda: f"{who}'s {event['card']} is retired.",
        "deploy": lambda: f"{who} deploys {event['card']} on {event['square']}.",
        "trigger": lambda: f"{who}'s {event['source']}: {event['ability']} {event['amount']}.",
        "activate": lambda: f"{who} uses {event['card']}'s {event['ability']}.",
        "hand_ability": lambda: f"{who} discards {event['card']} for {event['ability']}.",
        "ability_target": lambda: f"{who}'s {event['ability']} targets {event['target']} at {event['square']}.",
        "attack": lambda: f"{who}'s {event['card']} attacks {event['target']} at {event['square']}"
        + (" (side attack)." if event["side"] else " (front attack)."),
        "block": lambda: f"{who} blocks with {event['card']}.",
        "damage": lambda: f"{who}'s {event['card']} takes {event['amount']} damage.",
        "lp_loss": lambda: f"{who} loses {event['amount']} LP ({event['lp']} left).",
        "destroyed": lambda: f"{who}'s {event['card']} is destroyed.",
        "discard": lambda: f"{who} discards {event['card']} (hand limit).",
        "concede": lambda: f"{who} concedes.",
        "game_over": lambda: "Game over: draw."
        if event["winner"] is None
        else f"Game over: {event['winner']} wins ({event['reason'].replace('_', ' ')}).",
    }
    return sentences[kind]() if kind in sentences else kind
