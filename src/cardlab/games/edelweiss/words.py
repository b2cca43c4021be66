"""Edelweiss in a player's words: what each suit does, the characters and their skills under the game's
standard, and the key rules (E2-E9). Ranks never matter (E0.3), so a card's words are its suit's."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from cardlab.core.cardwords import CardWords
from cardlab.games.edelweiss.cards import CARD_NAMES, CHARACTERS, SUITS, Skill

if TYPE_CHECKING:
    from cardlab.games.edelweiss.game import Edelweiss

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
"""The suit letters of card ids and the symbols players write (E0.2)."""

SUIT_WORDS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "S": (
        "spade",
        ("Enters your field tapped (E4.2).", "Attack: tap an upright spade to attack (E5.1)."),
        ("summon", "tapped", "attack"),
    ),
    "H": (
        "heart",
        ("Enters your field upright (E4.2).", "Block: tap an upright heart to stop an attack (E5.3)."),
        ("summon", "upright", "block"),
    ),
    "C": (
        "club",
        (
            "Enters your field tapped (E4.2).",
            "Pursuit stance: tap an upright club to untap your attacking spade (E5.5).",
            "Lionheart: as defender, tap an upright club to untap one of your hearts (E5.2).",
        ),
        ("summon", "tapped", "pursuit stance", "Lionheart", "counter"),
    ),
    "D": (
        "diamond",
        (
            "Never goes on a field: it stays in your hand (E2.2).",
            "Guard with it to cause a counter (E5.3).",
            "A hand of only diamonds skips your summon: Diamond Dust (E4.3).",
        ),
        ("guard", "counter", "Diamond Dust"),
    ),
}
"""E2.2, E4.2, E5: what a card of each suit does; its keywords."""

SKILL_NAMES: dict[Skill, str] = {
    Skill.GUARDIAN: "Guardian",
    Skill.BUDDY_SUMMONER: "Buddy Summoner",
    Skill.WIZARD: "Wizard",
    Skill.POISON_BIND: "Poison Bind",
}
"""E7.2: the skill each suit of skill card gives."""

STANDARD_NAMES = {"symbolic": "Symbolic", "accel2": "Accel 2"}

_SKILL_WORDS: dict[str, dict[Skill, str]] = {
    "symbolic": {
        Skill.GUARDIAN: "Defending with an empty hand, you may discard any tapped card of your field as a "
        "guard; it causes a counter (E8.1).",
        Skill.BUDDY_SUMMONER: "After you summon a spade or club, you may also put a heart from your hand on your "
        "field, tapped (E8.2).",
        Skill.WIZARD: "Your clubs enter your field upright (E8.3).",
        Skill.POISON_BIND: "Whenever you cause a counter, one upright club of the attacker is tapped before they "
        "pay it (E8.4).",
    },
    "accel2": {
        Skill.GUARDIAN: "Defending, you may discard a tapped spade of your field as a guard, whatever your hand; "
        "it causes a counter. Attacking, you may protect against a counter (E8.1, E8.5).",
        Skill.BUDDY_SUMMONER: "After you summon a spade or club, you may also put a heart from your hand on your "
        "field, upright (E8.2).",
        Skill.WIZARD: "Your clubs enter your field upright (E8.3).",
        Skill.POISON_BIND: "Whenever you cause a counter, one upright club of the attacker is tapped before they "
        "pay it. Attacking, you may protect against a counter (E8.4, E8.5).",
    },
}
"""E8 per standard (E7.4): each skill in one or two sentences."""

GLOSSARY: dict[str, str] = {
    "summon": "Each turn you must put one non-diamond card from your hand on your field: hearts enter upright, "
    "spades and clubs tapped (E4.1, E4.2).",
    "upright": "A field card standing normally: it can attack, block or pay for a club ability (E0.5, E2.3).",
    "tapped": "A field card turned sideways after use; your cards untap at your draw step (E2.3, E3.2).",
    "attack": "Tap an upright spade: the defender must guard, block, or lose the game (E5.1, E5.3).",
    "guard": "Defend by discarding a card from your hand; a diamond guard causes a counter (E5.3).",
    "block": "Defend by tapping an upright heart of your field (E5.3).",
    "no defense": "Making no defense loses the game at once: the attack succeeds (E5.3, E6.1).",
    "counter": "After a diamond guard (or a field guard) the attacker must discard the attacking spade or an "
    "upright club (E5.4).",
    "pursuit stance": "After the defense, the attacker may tap an upright club to untap the attacking spade, so "
    "it can attack again (E5.5).",
    "break": "If a block met a pursuit stance, both the blocking heart and the pursuit club are discarded (E5.6).",
    "Lionheart": "Before defending, the defender may tap an upright club to untap one of their tapped hearts (E5.2).",
    "Diamond Dust": "With only diamonds in hand you show them and summon nothing this turn (E4.3).",
    "deck-out": "When a draw step finds the deck empty, the player with more cards in hand wins; a tie goes to "
    "P2 (E6.2).",
    "rank": "A card's rank never matters, only its suit (E0.3).",
    "field guard": "Guardian's guard made with a card from your field instead of your hand; it causes a "
    "counter (E8.1).",
    "protection": "Under Accel 2, an attacker with Guardian or Poison Bind may tap an upright club instead of "
    "discarding anything for a counter (E8.5).",
    "standard": "A skills game is played under one standard, Symbolic or Accel 2, which sets the exact skills (E7.4).",
    "character": "In a skills game each player is a character: a pair of two skills chosen by their skill "
    "cards' suits (E7.2, E9).",
}
"""The key rules of Edelweiss; the skills are added per standard by `glossary`."""

HOW_TO_WIN = (
    "Win by attacking when your opponent cannot (or does not) guard or block; if the deck runs out, the "
    "player with more cards in hand wins, P2 on a tie (E6.1, E6.2)."
)


def _standard(game: Edelweiss) -> str:
    return game.config.standard or "symbolic"


def card_words(game: Edelweiss, card: str) -> CardWords | None:
    """A card (`5S`, `5♠`, any case) by its suit, or a character (`VIRIDIAN`) by its skills."""
    wanted = card.strip().upper()
    for letter, symbol in SUIT_SYMBOLS.items():
        wanted = wanted.replace(symbol, letter)
    if wanted in CARD_NAMES:
        suit, does, keywords = SUIT_WORDS[wanted[-1]]
        name = wanted[:-1] + SUIT_SYMBOLS[wanted[-1]]
        return CardWords(name, f"{suit} · its rank does not matter (E0.3)", does, keywords)
    character = CHARACTERS.get(wanted)
    if character is None:
        return None
    standard = _standard(game)
    skills = [skill for skill in SKILL_NAMES if skill & character.skills]
    return CardWords(
        f"{character.id} {character.name}",
        f"character · skills {' + '.join(SKILL_NAMES[s] for s in skills)} "
        f"({' + '.join(SUIT_SYMBOLS[s] for s in character.suits)}) · {STANDARD_NAMES[standard]} standard",
        tuple(f"{SKILL_NAMES[s]}: {_SKILL_WORDS[standard][s]}" for s in skills),
        tuple(SKILL_NAMES[s] for s in skills),
    )


def card_catalog(game: Edelweiss) -> tuple[str, ...]:
    """One card of each suit (the rank never matters, E0.3), then the characters with their skills as the
    game's standard has them (Symbolic in a game without skills, as in `glossary`)."""
    return tuple(f"A{suit}" for suit in SUITS) + tuple(CHARACTERS)


def glossary(game: Edelweiss) -> Mapping[str, str]:
    """The key rules, and each skill as the game's standard has it (Symbolic in a game without skills)."""
    standard = _standard(game)
    skills = {name: _SKILL_WORDS[standard][skill] for skill, name in SKILL_NAMES.items()}
    return {**GLOSSARY, **skills}


def how_to_win(game: Edelweiss) -> str:
    return HOW_TO_WIN


# Why a game ended, as the result banner and the terminal's last line say it ({winner}, {loser}: seats).
WIN_REASONS: dict[str, str] = {
    "attack": "{loser} could not guard or block {winner}'s attack",
    "deck_out": "the deck ran out and {winner} holds more cards (a tie goes to P2)",
}
DRAW_REASONS: dict[str, str] = {"deck_out": "the deck ran out with equal hands"}

# Each rule variant's values in words, for the lobby's advanced rules (rule name -> value -> words).
RULE_VALUES: dict[str, dict[str, str]] = {
    "first_draw": {"yes": "the first player draws on turn 1", "no": "the first player skips the turn-1 draw"},
    "opening_hand": {
        "standard": "4 cards (5 in a skills game)",
        **{count: f"{count} cards" for count in ("3", "4", "5", "6")},
    },
    "accel2_guardian": {"spades": "spade field guard only", "symbolic_too": "also the Symbolic field guard"},
    "symbolic_field_guard": {"any_suit": "any tapped card", "spades": "a tapped spade only"},
    "deck_out_tie": {"P2": "P2 wins a tie", "draw": "a tie is a draw"},
    "accel2_protection": {
        "as_written": "as written: tapping a club replaces the discard",
        "none": "no protection",
        "club_still_owed": "the tap keeps the spade, a club is still owed",
        "defender": "the countered attacker protects",
    },
    "poison_bind_trigger": {"any_counter": "after any counter", "diamond_guard": "only after a diamond guard"},
    "poison_bind_timing": {
        "before_counter": "before the counter is paid",
        "after_counter": "after the counter is paid",
    },
}
