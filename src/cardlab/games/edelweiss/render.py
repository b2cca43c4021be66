"""Words and pictures for people: events in plain English, hints per window, a text board."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import RenderableType
from rich.panel import Panel
from rich.table import Table

from cardlab.core.plugin import outcome_words, ungrouped
from cardlab.games.edelweiss.cards import CHARACTERS
from cardlab.games.edelweiss.words import DRAW_REASONS, SKILL_NAMES, STANDARD_NAMES, SUIT_SYMBOLS, WIN_REASONS

WINDOW_HINTS: Mapping[str, str] = {
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


_PASSES = {
    "intercept": "{who} does not use Lionheart (E5.2).",
    "pursuit": "{who} takes no pursuit stance (E5.5).",
    "special_summon": "{who} makes no special summon (E8.2).",
}
"""A pass, by the window it declines."""


def event_text(event: Mapping[str, Any]) -> str:
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
        "pass": lambda: _PASSES.get(event["window"], f"{who} passes ({event['window']}).").format(who=who),
        "guard": lambda: f"{who} guards with {card}"
        + (
            ": counter! The attacker must discard the attacking spade or an upright club (E5.4)."
            if event["card"].endswith("D")
            else "."
        ),
        "block": lambda: f"{who} blocks with {card}.",
        "field_guard": lambda: f"{who} discards {card} from the field as a guard (Guardian): counter!",
        "no_defense": lambda: f"{who} makes no defense: the attack succeeds (E6.1).",
        "poison_bind": lambda: f"{who}'s Poison Bind taps the attacker's {card_text(event['club'])}.",
        "counter_discard": lambda: f"{who} pays the counter by discarding {card}.",
        "protect": lambda: f"{who} protects the attacking spade by tapping {card}.",
        "pursuit": lambda: f"{who} taps {card_text(event['club'])} to untap {card} (pursuit stance).",
        "break": lambda: f"Break: {card_text(event['club'])} and {card_text(event['heart'])} are discarded "
        "(a block met a pursuit stance, E5.6).",
        "game_over": lambda: f"Game over: {event['winner']} wins "
        f"({outcome_words(WIN_REASONS, DRAW_REASONS, event['reason'], event['winner'])}).",
    }
    return sentences[kind]() if kind in sentences else kind


def render_board(view: Mapping[str, Any]) -> RenderableType:
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
    config = view["config"]
    if config.get("characters"):  # a skills game (E7): the standard, and each side's character and skills
        other = "P2" if me == "P1" else "P1"
        table.add_row("[bold]Skills[/]", f"{STANDARD_NAMES[config['standard']]} standard (E7.4)")
        table.add_row("", f"you: {_seat_heading(me, config)}")
        table.add_row("", f"opponent: {_seat_heading(other, config)}")
    title = f"Turn {view['turn']} · {view['turn_player']}'s turn · {view['window']} · you are {me}"
    return Panel(table, title=title)


# -- plain text (`str(state)`) ------------------------------------------------------------------

_SUITS_ON_FIELD = "SHC"  # E2.2: never a diamond on a field


def _by_suit(names: list[str], suits: str) -> str:
    """'S 2S 5S | H - | C 8C:T': cards grouped by suit, each group in the given order (E14.2)."""
    groups = []
    for suit in suits:
        cards = [name for name in names if name.split(":")[0].rstrip("*").endswith(suit)]
        groups.append(f"{suit} {' '.join(cards) or '-'}")
    return " | ".join(groups)


def _seat_heading(seat: str, config: Mapping[str, Any]) -> str:
    characters = config.get("characters")
    if not characters:
        return seat
    character = CHARACTERS[characters[seat]]
    skills = ", ".join(name for skill, name in SKILL_NAMES.items() if skill & character.skills)
    return f"{seat} {character.id} ({character.name}): {skills}"  # E7.2, E9


def _attack_line(attack: Mapping[str, Any]) -> str:
    defense = attack["defense"]
    if defense is None:
        what = "defense to come"
    elif defense == "block":
        what = f"blocked by {attack['blocker']}"
    else:
        what = f"{defense.replace('_', ' ')} {attack['guard_card']}"
    counter = ", counter" if attack["counter"] else ""
    return f"attack: {attack['spade']} attacks, {what}{counter} (E5)"


def position_text(position: Mapping[str, Any]) -> str:
    """A position JSON (E14.5) as a few lines for people: what `str(state)` prints.

    P2 sits at the top, P1 at the bottom, each with hand and field grouped by suit (fields keep
    their arrival order inside a suit, hands their rank order: the order E14.2 takes cards in).
    A `*` marks a hand card the opponent has seen (Diamond Dust, E2.5).
    """
    config = position["config"]
    deck_name = f"{config['deck']} deck"
    if config.get("standard"):
        deck_name += f", {STANDARD_NAMES[config['standard']]}"
    window = position["window"]
    turn_player = position["turn_player"]
    if window == "over":
        words = outcome_words(WIN_REASONS, DRAW_REASONS, position["win_reason"], position["winner"])
        status = f"over: {position['winner']} wins ({words})"
    else:
        defending = window in ("intercept", "defense")
        to_move = ("P2" if turn_player == "P1" else "P1") if defending else turn_player
        status = f"{to_move} to move ({window})"
    lines = [f"Edelweiss ({deck_name}): turn {position['turn']}, {turn_player}'s turn, {status}"]
    revealed = position.get("revealed", {})
    for seat in ("P2", "P1"):
        player = position["players"][seat]
        shown = set(revealed.get(seat, ()))
        hand = [card + "*" if card in shown else card for card in player["hand"]]
        rows = [
            f"  hand  {len(hand)}: {_by_suit(hand, 'SHCD')}",
            f"  field {len(player['field'])}: {_by_suit(player['field'], _SUITS_ON_FIELD)}",
        ]
        lines.append(_seat_heading(seat, config))
        lines.extend(rows if seat == "P2" else rows[::-1])  # the fields face each other
    if position.get("attack"):
        lines.append(_attack_line(position["attack"]))
    discard = position["discard"]
    top = f" (top {discard[-1]})" if discard else ""
    lines.append(f"deck {len(position['deck'])}, discard {len(discard)}{top}")
    return "\n".join(lines)


def option_groups(view: Mapping[str, Any], actions: Sequence[str]) -> list[tuple[str, list[int]]]:
    """Edelweiss offers a handful of choices at a time: they read best as they come."""
    return ungrouped(view, actions)
