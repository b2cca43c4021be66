"""Aterial for people: the two 2x3 fields as a grid, events in words, a hint per window."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table

from cardlab.core.plugin import outcome_words, ungrouped
from cardlab.games.aterial.cards import CardDef, CardSet, load_card_set
from cardlab.games.aterial.words import DRAW_REASONS, WIN_REASONS, ability_tag

WINDOW_HINTS: Mapping[str, str] = {
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
    "discard": "Discard down to the hand limit: 6 cards unless the game's rules set another (A13.2).",
}


def unit_text(unit: Mapping[str, Any] | None, markup: bool = False, printed: CardDef | None = None) -> str:
    """'S14 2/3' (effective attack / HP left), 'L01 ATK 2' for a leader, '(acted)' once used; rich markup
    optional. With the `printed` card (the player's board), a value an aura, kinship or rally changed is
    marked against it, and damage is named: 'S11 1/3 (+0/+1)', 'S14 2/2 (2 dmg)' (A4.6, A14.1, A16.2)."""
    if unit is None:
        return "[dim]·[/]" if markup else "."
    acted = "" if unit["ready"] else " [dim](acted)[/]" if markup else " (acted)"
    changes = []
    attack = 0 if printed is None else unit["attack"] - printed.attack
    hp = 0 if printed is None or "hp" not in unit else unit["hp"] - printed.hp
    if attack or hp:
        changes.append(f"{attack:+d}" if "hp" not in unit else f"{attack:+d}/{hp:+d}")
    if printed is not None and unit.get("damage"):
        changes.append(f"{unit['damage']} dmg")
    mark = f" ({', '.join(changes)})" if changes else ""
    if "hp" not in unit:  # the leader
        card = f"[bold]{unit['card']}[/]" if markup else unit["card"]
        return f"{card} ATK {unit['attack']}{mark}{acted}"
    return f"{unit['card']} {unit['attack']}/{unit['hp'] - unit['damage']}{mark}{acted}"


def _rows(
    player: Mapping[str, Any], columns: tuple[int, ...], back_first: bool, markup: bool, cards: CardSet | None = None
) -> list[list[str]]:
    rows = [[_square_text(player, f"{row}{c}", markup, cards) for c in columns] for row in ("F", "B")]
    return rows[::-1] if back_first else rows


def _square_text(player: Mapping[str, Any], square: str, markup: bool, cards: CardSet | None = None) -> str:
    """A unit, or for an empty square the dominance supplied there (`dom 2`, A11.2) when the view has it."""
    unit = player["field"][square]
    supply = player.get("supply", {}).get(square)
    if unit is None and supply is not None and markup:
        return f"[dim]· dom {supply}[/]"
    printed = None if unit is None or cards is None else cards.cards.get(unit["card"])
    return unit_text(unit, markup, printed)


@cache
def _card_set(extra: tuple[str, ...] | None, patches: tuple[str, ...] = ()) -> CardSet:
    paths = [Path(path) for path in extra] if extra else None
    return load_card_set(paths, with_sample_set=True, patches=patches)


def _view_cards(view: Mapping[str, Any]) -> CardSet:
    config = view["config"]
    return _card_set(tuple(config["cards"]) if config.get("cards") else None, tuple(config.get("patches") or ()))


def hand_lines(view: Mapping[str, Any]) -> list[str]:
    """The viewer's hand card by card: name, cost, ATK/HP, dominance and its abilities as glossary words with
    their numbers (`words.ability_tag`, A4.2-A4.4, A17); `card ID` shows the whole text."""
    hand = view["players"][view["player"]]["hand"] or []
    cards = _view_cards(view).cards
    lines = []
    for card_id in hand:
        card = cards.get(card_id)
        if card is None:  # a card file the viewer's config no longer finds: the id alone
            lines.append(f"  {card_id}")
            continue
        keywords = ", ".join(ability_tag(ability) for ability in card.abilities)
        lines.append(
            f"  {card.id} {card.name} · cost {card.cost} · {card.attack}/{card.hp} · dom {card.dominance}"
            + (f" · {keywords}" if keywords else "")
        )
    return lines


def zones_text(player: Mapping[str, Any], separator: str = " · ") -> str:
    """'LP 20 · hand 5 · deck 24 · discard 0 · removed 0': the public counts of one seat (A18.4)."""
    counts = (
        f"LP {player['lp']}",
        f"hand {player['hand_size']}",
        f"deck {player['deck_size']}",
        f"discard {len(player['discard'])}",
        f"removed {len(player['removed'])}",
    )
    return separator.join(counts)


def render_board(view: Mapping[str, Any]) -> RenderableType:
    """The viewer's own field at the bottom; columns as the viewer sees them (A3.2)."""
    me = view["player"]
    them = "P2" if me == "P1" else "P1"
    columns = (0, 1, 2) if me == "P1" else (2, 1, 0)
    grid = Table(show_header=True, box=None, padding=(0, 2))
    grid.add_column("")
    for c in columns:
        grid.add_column(f"col {c}", justify="center", min_width=14)
    cards = _view_cards(view)
    theirs = _rows(view["players"][them], columns, True, True, cards)
    mine = _rows(view["players"][me], columns, False, True, cards)
    rows = [(f"{them} {label}", cells) for label, cells in zip("BF", theirs, strict=True)]
    rows += [(f"[bold]{me} {label}[/]", cells) for label, cells in zip("FB", mine, strict=True)]
    for label, cells in rows:
        grid.add_row(label, *cells)
    lines = [f"{seat}: {zones_text(view['players'][seat])}" for seat in (them, me)]
    hand = hand_lines(view)
    if any("(+" in cell or "(-" in cell or " dmg" in cell for _, cells in rows for cell in cells):
        lines.append("(+a/+h): ATK/HP changed from the printed card; dmg: damage, gone at its turn start (A8.1)")
    lines.append("your hand (cost · ATK/HP · dominance · abilities; card ID, help WORD):" if hand else "your hand: -")
    lines.extend(hand)
    title = f"Turn {view['turn']} · {view['active']} active · {view['window']} · you are {me}"
    return Panel(Group(grid, *lines), title=title)


def board_text(view: Mapping[str, Any]) -> str:
    """An observation as plain text, P2 at the top and P1 at the bottom, columns 0-2 (A3.2).

    What `str(state)` prints (from `open_observation`, so both hands show); a hand the view
    does not know is written '?'.
    """
    to_move = view["to_move"]
    if to_move is None:
        result = "draw" if view["winner"] is None else f"{view['winner']} wins"
        status = f"over: {result} ({outcome_words(WIN_REASONS, DRAW_REASONS, view['reason'], view['winner'])})"
    else:
        status = f"{to_move} to move ({view['window']})"
    lines = [f"Aterial: turn {view['turn']}, {view['active']} active, {status}; {view['first']} played first"]
    grid = [["", "col 0", "col 1", "col 2"]]
    for seat, back_first, labels in (("P2", True, "BF"), ("P1", False, "FB")):
        rows = _rows(view["players"][seat], (0, 1, 2), back_first, markup=False)
        grid += [[f"{seat} {label}", *cells] for label, cells in zip(labels, rows, strict=True)]
    widths = [max(len(row[c]) for row in grid) for c in range(4)]
    board = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in grid]
    seats = {}
    for seat in ("P2", "P1"):
        player = view["players"][seat]
        hand = "?" if player["hand"] is None else ", ".join(player["hand"]) or "-"
        seats[seat] = [f"{seat}: {zones_text(player, ', ')}", f"{seat} hand: {hand}"]
    lines += [*seats["P2"], *board, *seats["P1"]]
    if view["pending"] is not None:
        lines.append("pending: " + ", ".join(f"{key} {value}" for key, value in view["pending"].items()))
    if view["triggers"]:
        queued = ", ".join(f"{t['player']} {t['ability']} {t['amount']} ({t['source']})" for t in view["triggers"])
        lines.append(f"triggers: {queued}")
    return "\n".join(lines)


def _name(card_id: Any) -> str:
    """'S14 Shield Sister' from the packaged set (the id alone for a card of another file)."""
    card = _card_set(None).cards.get(str(card_id))
    return f"{card_id} {card.name}" if card is not None else str(card_id)


def _damage(event: Mapping[str, Any], who: str) -> str:
    """A damage event as a player sees it: unit and square, armor's share, HP left or destroyed (A14.2,
    A14.3); after an attack, that the target hits nothing back (A12.7)."""
    where = f" on {event['square']}" if "square" in event else ""
    text = f"{who}'s {_name(event['card'])}{where} takes {event['amount']} damage"
    cause = event.get("cause")
    if cause in ("tap_snipe", "deploy_strike"):
        text += f" ({str(cause).replace('_', ' ')})"
    elif cause == "retaliation":
        text += " back from its target (retaliation rule)"
    if event.get("armor"):
        text += f", armor absorbs {event['armor']}"
    if "left" in event:
        text += ": destroyed" if event["left"] <= 0 else f": survives at {event['left']} HP"
    if cause == "attack" and not event.get("back"):
        text += "; the target deals no damage back (A12.7)"
    return text + "."


def _lp_loss(event: Mapping[str, Any], who: str) -> str:
    """LP a→b, and why: an attack takes the attacker's cost (plus siege), pierce the excess (A12.7, A17.5)."""
    amount, lp = event["amount"], event["lp"]
    text = f"{who} loses {amount} LP ({lp + amount} → {lp})"
    if event.get("cause") == "attack":
        siege = amount - event["cost"]
        extra = f" + siege {siege}" if siege else ""
        text += f": a leader loses LP equal to the attacker's cost ({_name(event['attacker'])}: cost {event['cost']}"
        text += f"{extra}), not its ATK (A12.7)"
    elif event.get("cause") == "pierce":
        text += f": {_name(event['attacker'])} pierces, the damage beyond its target's HP (A17.5)"
    return text + "."


def event_text(event: Mapping[str, Any]) -> str:
    """One event view as a sentence, naming cards and squares and saying what came of each hit."""
    kind, who = event["kind"], event.get("player", "")
    sentences = {
        "draw": lambda: f"{who} draws {_name(event['card'])}." if "card" in event else f"{who} draws a card.",
        "keep": lambda: f"{who} keeps the opening hand.",
        "mulligan": lambda: f"{who} takes a mulligan.",
        "turn": lambda: f"Turn {event['turn']}: {who} is active; {who}'s subordinates lose all damage and every "
        f"unit of {who} is ready again (A8.1, A8.2).",
        "move": lambda: f"{who} moves {_name(event['card'])} from {event['frm']} to {event['to']}.",
        "retired": lambda: f"{who}'s {_name(event['card'])} is retired.",
        "deploy": lambda: f"{who} deploys {_name(event['card'])} on {event['square']}.",
        "trigger": lambda: f"{who}'s {_name(event['source'])}: {event['ability'].replace('_', ' ')} {event['amount']}.",
        "activate": lambda: f"{who} uses {_name(event['card'])}'s {event['ability'].replace('_', ' ')}.",
        "hand_ability": lambda: f"{who} discards {_name(event['card'])} for {event['ability'].replace('_', ' ')}.",
        "ability_target": lambda: f"{who}'s {event['ability'].replace('_', ' ')} targets {_name(event['target'])} "
        f"at {event['square']}.",
        "attack": lambda: f"{who}'s {_name(event['card'])} attacks {_name(event['target'])} at {event['square']}"
        + (" (side attack)." if event["side"] else " (front attack)."),
        "block": lambda: f"{who} blocks with {_name(event['card'])}: it takes the attack, now a front attack (A12.5).",
        "damage": lambda: _damage(event, who),
        "lp_loss": lambda: _lp_loss(event, who),
        "destroyed": lambda: f"{who}'s {_name(event['card'])} is destroyed (A14.3).",
        "discard": lambda: f"{who} discards {_name(event['card'])} (hand limit).",
        "concede": lambda: f"{who} concedes.",
        "game_over": lambda: ("Game over: draw" if event["winner"] is None else f"Game over: {event['winner']} wins")
        + f" ({outcome_words(WIN_REASONS, DRAW_REASONS, event['reason'], event['winner'])}).",
    }
    return sentences[kind]() if kind in sentences else kind


def option_groups(view: Mapping[str, Any], actions: Sequence[str]) -> list[tuple[str, list[int]]]:
    """Aterial names each choice by its card or square, and the board lists the hand's facts: read as they come."""
    return ungrouped(view, actions)
