"""`cardlab deck validate` and `balance --cards` list a card file's problems alike (issue 51 item 3): every
problem, each as `FILE:LINE: RULE: message`, from the one checker (`cardlab.core.datacheck`); it once stopped
at the first problem, with neither line nor rule id."""

from __future__ import annotations

import re
from importlib import import_module, resources
from pathlib import Path

import pytest

from cardlab.cli import main
from cardlab.games import game_class, game_names

DECK_GAMES = [name for name in game_names() if game_class(name).deck_files]
LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+): (?P<rule>[A-Z]\d+(?:\.\d+)*): (?P<message>.+)$")


def two_problem_cards(game: str) -> str:
    """One packaged card with an ability, given a new id, an unknown ability word and a bad `hp`."""
    data = import_module(game_class(game).cards_module)
    with resources.as_file(data.sample_cards()) as path:
        text = path.read_text(encoding="utf-8")
    for table in text.split("[[cards]]")[1:]:
        lines = table.strip().splitlines()
        if any(line.startswith("hp =") for line in lines) and any(
            re.match(r"abilities = \[\s*[^\]\s]", line) for line in lines
        ):
            break
    else:
        raise AssertionError(f"{game}: no packaged card with hp and abilities")
    out = []
    for line in lines:
        if line.startswith("id ="):
            line = re.sub(r'"(\w)\w*"', r'"\g<1>99"', line)
        elif line.startswith("hp ="):
            line = "hp = -5"
        elif line.startswith("abilities ="):
            line = re.sub(r'= "[^"]*"', '= "flnak"', line, count=1)
        out.append(line)
    return "[[cards]]\n" + "\n".join(out) + "\n"


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if LINE.match(line.strip())]


@pytest.mark.parametrize("game", DECK_GAMES)
def test_deck_validate_lists_every_card_problem_as_balance_does(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cards = tmp_path / "bad_cards.toml"
    cards.write_text(two_problem_cards(game))
    cls = game_class(game)
    deck_file = import_module(cls.cards_module).packaged_deck_file(cls.packaged_decks[0])
    with resources.as_file(deck_file) as deck:
        code = main(["deck", "validate", game, str(deck), "--cards", str(cards)])
    out, err = capsys.readouterr()
    assert code == 2 and "Traceback" not in out + err  # an error, as `balance` says it
    found = _lines(err)
    assert len(found) == 2, out + err
    matches = [LINE.match(line) for line in found]
    assert all(m is not None and m["file"] == str(cards) for m in matches), found
    assert any("flnak" in m["message"] for m in matches if m is not None), found
    assert any("hp" in m["message"] for m in matches if m is not None), found

    assert main(["balance", game, "--cards", str(cards), "--out", str(tmp_path / "out")]) != 0
    out, err = capsys.readouterr()
    assert _lines(out + err) == found


@pytest.mark.parametrize("game", DECK_GAMES)
def test_deck_rule_violations_name_their_line(game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A deck file naming a card no set holds: the line that names it, and the rule."""
    cls = game_class(game)
    with resources.as_file(import_module(cls.cards_module).packaged_deck_file(cls.packaged_decks[0])) as packaged:
        text = packaged.read_text(encoding="utf-8")
    known = re.search(r"\b([A-Z]\d\d)\s*=\s*\d", text)
    assert known is not None
    deck = tmp_path / "deck.toml"
    deck.write_text(text.replace(known.group(1), "Q77", 1))
    assert main(["deck", "validate", game, str(deck)]) == 1  # the deck reads: its violations are the answer
    found = [LINE.match(line) for line in _lines(capsys.readouterr().out)]
    naming = [m for m in found if m is not None and "Q77" in m["message"]]
    assert naming and text.replace(known.group(1), "Q77", 1).splitlines()[int(naming[0]["line"]) - 1].count("Q77")
