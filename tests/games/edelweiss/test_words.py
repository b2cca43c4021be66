"""Edelweiss cards, characters, skills and rules in a player's words (`words.py`, issue #35; E2-E9)."""

from __future__ import annotations

import random

import pytest

from cardlab.core.cardwords import ENGINE_NOTATION
from cardlab.games.edelweiss import Edelweiss
from cardlab.games.edelweiss.cards import CARD_NAMES, CHARACTERS

PLAIN = Edelweiss()
ACCEL2 = Edelweiss.from_options({"deck": "skills", "standard": "accel2"}, random.Random(0))


@pytest.mark.parametrize("game", [PLAIN, ACCEL2])
def test_every_card_and_character_reads_in_player_words_with_glossary_keywords(game: Edelweiss) -> None:
    for name in [*CARD_NAMES, *CHARACTERS]:
        words = game.card_words(name)
        assert words is not None, name
        for text in (words.name, words.stats, *words.abilities):
            assert not ENGINE_NOTATION.search(text), text
        assert set(words.keywords) <= set(game.glossary()), (name, set(words.keywords) - set(game.glossary()))


def test_a_card_is_its_suit_and_symbols_name_it_too() -> None:
    """E0.3: the rank never matters; E2.2, E4.2: what the suit does on a field."""
    heart = PLAIN.card_words("7♥")
    assert heart is not None and heart == PLAIN.card_words("7h")
    assert heart.name == "7♥" and "rank does not matter (E0.3)" in heart.stats
    assert "Enters your field upright (E4.2)." in heart.abilities
    diamond = PLAIN.card_words("QD")
    assert diamond is not None and any("Diamond Dust" in text for text in diamond.abilities)


def test_a_character_lists_its_skills_as_the_standard_has_them() -> None:
    """E7.2, E8.1, E8.4, E8.5, E9: Viridian is Guardian + Poison Bind; Accel 2 adds protection."""
    symbolic = PLAIN.card_words("viridian")
    accel2 = ACCEL2.card_words("VIRIDIAN")
    assert symbolic is not None and accel2 is not None
    assert symbolic.keywords == accel2.keywords == ("Guardian", "Poison Bind")
    assert "empty hand" in symbolic.abilities[0] and "Symbolic standard" in symbolic.stats
    assert (
        "tapped spade" in accel2.abilities[0]
        and "protect" in accel2.abilities[0]
        and "(E8.1, E8.5)" in accel2.abilities[0]
    )
    assert PLAIN.glossary()["Guardian"] != ACCEL2.glossary()["Guardian"]


def test_glossary_has_every_skill_and_key_rule() -> None:
    glossary = PLAIN.glossary()
    for term in ("Guardian", "Buddy Summoner", "Wizard", "Poison Bind", "counter", "pursuit stance", "Lionheart",
                 "Diamond Dust", "block", "guard", "break", "deck-out"):  # fmt: skip
        assert term in glossary, term
    assert "(E5.4)" in glossary["counter"]
