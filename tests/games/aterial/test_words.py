"""Aterial cards, keywords and rules in a player's words (`words.py`, issue #35 items 1-2; A4, A17)."""

from __future__ import annotations

import pytest

from cardlab.core.cardwords import ENGINE_NOTATION
from cardlab.games.aterial import Aterial
from cardlab.games.aterial.cards import ABILITY_KINDS
from cardlab.games.aterial.words import ABILITY_WORDS, GLOSSARY, ability_tag

GAME = Aterial()


@pytest.mark.parametrize("card_id", list(GAME.card_set.cards))
def test_every_card_reads_in_player_words_with_glossary_keywords(card_id: str) -> None:
    card = GAME.card_set.cards[card_id]
    words = GAME.card_words(card_id)
    assert words is not None and words.name == f"{card.id} {card.name}"
    assert len(words.abilities) == len(card.abilities)
    for text in (words.name, words.stats, *words.abilities):
        assert not ENGINE_NOTATION.search(text), text
    assert set(words.keywords) <= set(GAME.glossary()), set(words.keywords) - set(GAME.glossary())
    assert GAME.card_text(card_id) == words.text()


def test_every_ability_key_of_a17_has_words_and_a_glossary_entry() -> None:
    assert set(ABILITY_WORDS) == set(ABILITY_KINDS)
    assert {word for word, _ in ABILITY_WORDS.values()} <= set(GLOSSARY)


def test_cards_are_found_by_id_or_name_in_any_case() -> None:
    assert GAME.card_words("pack wolf") == GAME.card_words("S17") == GAME.card_words("s17")


def test_stats_and_abilities_say_what_a_player_decides_with() -> None:
    """A4.2-A4.4: cost, ATK, HP (LP for a leader), dominance and races; A17.8, A17.9, A17.17 in words."""
    wolf = GAME.card_words("S17")
    assert wolf is not None and wolf.stats == "cost 2 · ATK 2 · HP 3 · dominance 1 · beast"
    assert wolf.abilities == (
        "Kinship: +1 ATK while another friendly beast stands next to it.",
        "Nimble: may move twice in the move phase.",
    )
    assert wolf.keywords == ("kinship", "nimble")
    leader = GAME.card_words("L01")
    assert leader is not None and leader.stats.startswith("leader · cost 2 · ATK 2 · LP 22")
    assert leader.abilities == ("Aura: every other friendly human subordinate gets +1 HP.",)
    acolyte = GAME.card_words("S02")
    assert acolyte is not None and acolyte.abilities == (
        "Tap heal: tap it in your action phase; your leader gains 1 LP.",
    )


def test_glossary_explains_the_key_rules_with_their_ids() -> None:
    glossary = GAME.glossary()
    assert "equal to the attacker's cost" in glossary["LP loss"] and "(A12.7" in glossary["LP loss"]
    assert "deals none back" in glossary["damage"] and "A8.1" in glossary["damage"]
    assert "(A17.17, A16.4)" in glossary["tap heal"]
    assert "A12.5" in glossary["block"] and "A11.2" in glossary["dominance"]


def test_ability_tags_keep_the_numbers_for_the_hand_list() -> None:
    card = GAME.card_set.cards
    assert [ability_tag(a) for a in card["S14"].abilities] == ["armor 1"]
    assert [ability_tag(a) for a in card["L01"].abilities] == ["aura human +0/+1"]
    assert [ability_tag(a) for a in card["S17"].abilities] == ["kinship beast +1", "nimble"]
