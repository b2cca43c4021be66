"""Words and pictures for people: events in plain English, hints per window, a text board."""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from rich.panel import Panel
from rich.table import Table

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}

WINDOW_HINTS = {
    "main": "Summon one non-diamond card: hearts enter upright, spades and clubs tapped (E4.1-E4.2).",
    "special_summon": "Buddy Summoner: you may also put one heart from hand onto your field (E8.2).",
    "attack": "Attack with your oldest upright spade, or end the turn (E5.1).",
    "intercept": "Lionheart: tap an upright club to untap a tapped heart before defending (E5.2).",
    "defense": "Guard (discard a hand card; a diamond causes a counter), block with an upright heart, "
    "or make no defense and lose (E5.3).",
    "counter": "A counter was caused: discard the attacking spade or an upright club (E5.4).",
    "pursuit": "Pursuit stance: tap an upright club to untap the attacking spade (E5.5).",
}


def card_text(name: str) -> str:
    """'10H' -> '10♥', '7S:T' -> '7♠ (tapped)'."""
    base, _, orientation = name.partition(":")
    text = base[:-1] + SUIT_SYMBOLS[base[-1]]
    return f"{text} (tapped)" if orientation == "T" else text


def cards_text(names: list[str]) -> str:
    return ", ".join(card_text(name) for name in names) or "-"


def event_text(event: dict[str, Any]) -> str:
    """One event view (see `Event.view`) as a sentence."""
    kind = event["kind"]
    who = event.get("player", "")
    card = card_text(event["card"]) if "card" in event else None
    if kind == "draw":
        return f"{who} draws {card}." if card else f"{who} draws a card."
    if kind in ("summon", "special_summon"):
        how = "tapped" if event["tapped"] else "upright"
        extra = " (Buddy Summoner)" if kind == "special_summon" else ""
        return f"{who} summons {card}{extra}, {how}."
    sentences = {
        "diamond_dust": lambda: f"{who} shows an all-diamond hand ({cards_text(event['cards'])}): Diamond Dust.",
        "attack": lambda: f"{who} attacks with {card}.",
        "end_turn": lambda: f"{who} ends the turn.",
        "lionheart": lambda: f"{who} taps {card_text(event['club'])} to untap {card_text(event['heart'])} (Lionheart).",
        "pass": lambda: f"{who} passes ({event['window']}).",
        "guard": lambda: f"{who} guards with {card}" + (": counter!" if event["card"].endswith("D") else "."),
        "block": lambda: f"{who} blocks with {card}.",
        "field_guard": lambda: f"{who} discards {card} from the field as a guard (Guardian): counter!",
        "no_defense": lambda: f"{who} makes no defense.",
        "poison_bind": lambda: f"{who}'s Poison Bind taps the attacker's {card_text(event['club'])}.",
        "counter_discard": lambda: f"{who} pays the counter by discarding {card}.",
        "protect": lambda: f"{who} protects the attacking spade by tapping {card}.",
        "pursuit": lambda: f"{who} taps {card_text(event['club'])} to untap {card} (pursuit stance).",
        "break": lambda: f"Break: {card_text(event['club'])} and {card_text(event['heart'])} are discarded.",
        "game_over": lambda: f"Game over: {event['winner']} wins ({event['reason'].replace('_', ' ')}).",
    }
    return sentences[kind]() if kind in sentences else kind


def render_board(view: dict[str, Any]) -> RenderableType:
    """A player's observation as a panel: both fields with orientation, own hand, counts."""
    me = view["player"]
    you, them = view["players"][me], view["players"]["P2" if me == "P1" else "P1"]
    table = Table(show_header=False, box=None, padding=(0, 1))
    known = f" incl. {cards_text(them['hand'])}" if them["hand"] else ""
    table.add_row("[bold]Opponent[/]", f"hand: {them['hand_size']} card(s){known}")
    table.add_row("", "field: " + (", ".join(card_text(c) for c in them["field"]) or "-"))
    last = card_text(view["discard"][-1]) if view["discard"] else "-"
    table.add_row("[bold]Table[/]", f"deck: {view['deck_size']} · discard: {len(view['discard'])} (last: {last})")
    table.add_row("[bold]You[/]", "field: " + (", ".join(card_text(c) for c in you["field"]) or "-"))
    table.add_row("", f"hand: {cards_text(you['hand'])}")
    title = f"Turn {view['turn']} · {view['turn_player']}'s turn · {view['window']} · you are {me}"
    return Panel(table, title=title)
