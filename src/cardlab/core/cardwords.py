"""Cards, keywords and rules in a player's words: the one shape every client shows them in.

A game says what its cards do through `Game.card_words` and what its terms mean through
`Game.glossary`; the terminal, the browser and `cardlab games` only lay these out. Nothing here
knows a game.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

ENGINE_NOTATION = re.compile(r"\b[a-z][a-z_]*\(|\([^()]*=[^()]*\)|\[[^\[\]]*=[^\[\]]*\]|\b[a-z]+_[a-z_]+\b")
"""Engine notation a player must never read: `name(...)` calls, `(key=value)`, `[zone=battle]`, `snake_case`."""


@dataclass(frozen=True, slots=True)
class CardWords:
    """One card as a player reads it: name, stats line, each ability in plain words, and the glossary
    keywords those abilities use (each one a key of the game's glossary)."""

    name: str
    stats: str
    abilities: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()

    def text(self) -> str:
        """The card on a few lines: name and stats, then one line per ability, then the keywords."""
        lines = [f"{self.name} — {self.stats}" if self.stats else self.name]
        lines += [f"  • {ability}" for ability in self.abilities]
        if self.keywords:
            lines.append(f"  keywords: {', '.join(self.keywords)} (help WORD explains one)")
        return "\n".join(lines)

    def line(self) -> str:
        """The card on one line, for lists such as a hand or an option heading."""
        return " · ".join([self.name, self.stats, *self.abilities])


def normalize_term(word: str) -> str:
    """A term as looked up: case, spaces, hyphens and underscores do not matter ('GODDRAW' = 'god draw')."""
    return re.sub(r"[\s_\-]+", "", word.strip().lower())


def find_term(glossary: Mapping[str, str], word: str) -> tuple[str, str] | None:
    """The glossary entry `word` names (its term and text), ignoring case and spacing, or a trailing
    plural 's'; None when there is none."""
    wanted = normalize_term(word)
    if not wanted:
        return None
    by_key = {normalize_term(term): term for term in glossary}
    for candidate in (wanted, wanted.removesuffix("s"), wanted.removesuffix("es")):
        term = by_key.get(candidate)
        if term is not None:
            return term, glossary[term]
    return None


_SUIT_LETTERS = str.maketrans({"♠": "S", "♥": "H", "♣": "C", "♦": "D", "♤": "S", "♡": "H", "♧": "C", "♢": "D"})


def plain_card_text(text: str) -> str:
    """Suit symbols as the letters card ids use ('5♠' -> '5S'), so a player may type either."""
    return text.translate(_SUIT_LETTERS)
