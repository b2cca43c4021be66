"""The shape every game's card text and glossary share (`core/cardwords.py`, issue #35 items 1-2)."""

from __future__ import annotations

import re

import pytest

from cardlab.core.cardwords import ENGINE_NOTATION, CardWords, find_term, normalize_term, plain_card_text
from cardlab.games import game_class, game_names

RULE_IDS = re.compile(r"\((?:[AED]\d+(?:\.\d+)?(?:\([0-9a-z]\))?(?:-[AED]?\d+(?:\.\d+)?)?(?:, )?)+\)\.?$")
"""A glossary entry ends with its rule ids: '(A9.2)', '(D10.5-D10.7)', '(E8.1, E8.5).'"""


@pytest.mark.parametrize(
    "text",
    [
        "damage(target=enemy_unit, amount=80)",
        "own unit[name=Ashfang Cub]",
        "aura(demon, 1, 0)",
        "tap_heal 1",
        "static_bp(target=all_own_units[zone=battle], amount=10)",
    ],
)
def test_engine_notation_is_recognized(text: str) -> None:
    assert ENGINE_NOTATION.search(text)


@pytest.mark.parametrize(
    "text", ["Deal 80 damage to an enemy unit.", "Tap heal: tap it; your leader gains 1 LP (A17.17).", "7♥ — heart"]
)
def test_player_words_are_not_taken_for_notation(text: str) -> None:
    assert not ENGINE_NOTATION.search(text)


def test_terms_are_found_whatever_the_case_spacing_or_plural() -> None:
    glossary = {"god draw": "take a burst", "Poison Bind": "tap a club", "tap heal": "gain LP"}
    assert find_term(glossary, "GODDRAW") == ("god draw", "take a burst")
    assert find_term(glossary, "poison-bind") == ("Poison Bind", "tap a club")
    assert find_term(glossary, "tap_heal") == ("tap heal", "gain LP")
    assert find_term(glossary, "god draws") == ("god draw", "take a burst")
    assert find_term(glossary, "flank") is None and find_term(glossary, "  ") is None
    assert normalize_term(" Tap  Heal ") == normalize_term("tap_heal")


def test_suit_symbols_read_as_letters() -> None:
    assert plain_card_text("card 5♠ 10♥ J♣ A♦") == "card 5S 10H JC AD"
    assert plain_card_text("SUMMON ♡") == "SUMMON H"


def test_card_words_lay_out_as_lines_and_as_one_line() -> None:
    words = CardWords("S06 Militia Pikeman", "cost 1 · ATK 2 · HP 2", ("Flank 1: +1 ATK.",), ("flank",))
    assert words.text().splitlines() == [
        "S06 Militia Pikeman — cost 1 · ATK 2 · HP 2",
        "  • Flank 1: +1 ATK.",
        "  keywords: flank (help WORD explains one)",
    ]
    assert words.line() == "S06 Militia Pikeman · cost 1 · ATK 2 · HP 2 · Flank 1: +1 ATK."


@pytest.mark.parametrize("name", game_names())
def test_every_game_says_how_to_win_and_every_glossary_entry_cites_its_rules(name: str) -> None:
    game = game_class(name)()
    assert game.how_to_win() and RULE_IDS.search(game.how_to_win()), game.how_to_win()
    glossary = game.glossary()
    assert len(glossary) >= 15
    for term, text in glossary.items():
        assert RULE_IDS.search(text), (term, text)
        assert not ENGINE_NOTATION.search(text), (term, text)
        assert len(text) < 260, term  # one or two sentences
    assert game.card_words("NO SUCH CARD") is None and game.card_text("NO SUCH CARD") is None


@pytest.mark.parametrize("name", game_names())
def test_cardlab_games_lists_how_to_win_and_the_glossary(capsys: pytest.CaptureFixture[str], name: str) -> None:
    """#35 item 1: `cardlab games` shows the same player words as the clients."""
    import json

    from cardlab.cli import main

    game = game_class(name)()
    assert main(["games", name, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["how_to_win"] == game.how_to_win() and data["glossary"] == dict(game.glossary())
    assert main(["games", name]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "how to win" in out and "keywords" in out
