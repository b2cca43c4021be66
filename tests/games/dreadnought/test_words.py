"""Dreadnought cards, keywords and rules in a player's words (`words.py`, issue #35 items 1-2; D2, D22)."""

from __future__ import annotations

import pytest

from cardlab.core.cardwords import ENGINE_NOTATION
from cardlab.games.dreadnought import Dreadnought
from cardlab.games.dreadnought.cards import parse_effect
from cardlab.games.dreadnought.words import effects_words

GAME = Dreadnought()


@pytest.mark.parametrize("card_id", list(GAME.card_set.by_id))
def test_every_card_reads_in_player_words_with_glossary_keywords(card_id: str) -> None:
    words = GAME.card_words(card_id)
    assert words is not None
    for text in (words.name, words.stats, *words.abilities):
        assert not ENGINE_NOTATION.search(text), text
    assert set(words.keywords) <= set(GAME.glossary()), set(words.keywords) - set(GAME.glossary())
    assert GAME.card_text(card_id) == words.text()


def test_the_cards_the_issue_names_read_as_a_player_says_them() -> None:
    """#35: `static_bp(target=all_own_units[zone=battle], amount=10)` and the arms R11 in words (D19.3, D2.9)."""
    idol = GAME.card_words("R09")
    assert idol is not None
    assert "Always while in the idol area: Each of your units in a battle area has +10 BP." in idol.abilities
    assert idol.stats == "idol · speed B · cost 1 · size S · BP 60 · upkeep 1 · red"
    arms = GAME.card_words("magma gauntlet")
    assert arms is not None and arms == GAME.card_words("R11")
    assert "Gives its caster: Use at action timing (check it): Deal 40 damage to an enemy unit." in arms.abilities
    assert {"arms", "check", "action"} <= set(arms.keywords)
    cub = GAME.card_words("R01")
    assert cub is not None and cub.abilities == (
        "Sub-effect (fast or reaction, free): One of your units named Ashfang Cub gets +30 BP this turn.",
    )


def test_selectors_filters_and_every_effect_have_words() -> None:
    """D22.2, D22.3, D22.6."""
    cases = {
        "damage(target=enemy_unit[bp<=120,zone=battle], amount=50)": "Deal 50 damage to an enemy unit with BP 120 or "
        "less in a battle area",
        "enchant(kind=weaken, target=enemy_unit, count=2)": "Put 2 weakens on an enemy unit (-20 BP each)",
        "hp_break(target=enemy_caster, n=1)": "An enemy caster loses up to 1 HP card",
        "speed_shift(steps=2)": "Your speed goes 2 grades up this turn",
        "bounce(target=any_unit[size=S])": "Return any unit of size S to its owner's hand",
    }
    for effect, words in cases.items():
        assert effects_words((parse_effect(effect),)) == words


def test_glossary_explains_the_jargon() -> None:
    """#35: burst, engrave, god draw, dummy, idol and a caster down, with their rule ids."""
    glossary = GAME.glossary()
    assert "(D17)" in glossary["god draw"] and "(D15)" in glossary["dummy"] and "(D16)" in glossary["engrave"]
    assert "0 HP" in glossary["down"] and "D13.5" in glossary["down"]
    assert "D12.1" in glossary["log"] and "D19.1" in glossary["idol"]
