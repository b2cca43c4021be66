"""Every problem of a designer's card and deck files at once, each with file, line and rule id (issue 33 item 3).

Checked through both deck-building games: their own loaders find the problems (A4, A17, A21.1 for Aterial;
D2, D22 for Dreadnought), the shared checker keeps going after each one."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardlab.core.datacheck import DataProblem, DataProblems, DataRules, card_file_problems, deck_file_problems
from cardlab.games.aterial import Aterial
from cardlab.games.aterial import cards as aterial_cards
from cardlab.games.dreadnought import Dreadnought
from cardlab.games.dreadnought import cards as dreadnought_cards
from tests.designer_files import NEW_CARD

ATERIAL_BAD = """# three cards, five problems
[[cards]]
type = "subordinate"
id = "S90"
name = "Dawn Herald"
cost = -1
attack = 2
hp = 0
dominance = 1
races = ["human"]
abilities = [{ key = "deploy_draw", amount = 1 }]
colour = "red"

[[cards]]
type = "leader"
id = "L90"
name = "Bad Leader"
lp = 20
attack = 2
cost = 2
dominance = 1
races = ["human"]
abilities = [{ key = "armor", amount = 1 }]

[[cards]]
type = "subordinate"
id = "S01"
name = "Copy"
cost = 1
attack = 1
hp = 1
dominance = 0
races = ["human"]
abilities = []
"""


def _aterial(paths: list[Path]) -> list[DataProblem]:
    return card_file_problems(paths, aterial_cards.sample_cards(), aterial_cards.parse_card, Aterial.data_rules)


def test_every_problem_of_a_card_file_with_its_line_and_rule(tmp_path: Path) -> None:
    """Two problems in one card (A4.4 twice) and an unknown field (A21.1), a leader-only key on a leader (A17.22),
    an id the packaged set has (A4.2): all five, in file order, none from the packaged cards used as stand-ins."""
    path = tmp_path / "my_cards.toml"
    path.write_text(ATERIAL_BAD)
    found = [(p.where, p.line, p.rule, p.message.split(":")[0]) for p in _aterial([path])]
    where = str(path)
    assert found == [
        (where, 6, "A4.4", "card S90"),  # cost = -1
        (where, 8, "A4.4", "card S90"),  # hp = 0
        (where, 12, "A21.1", "card S90"),  # colour: an unknown field
        (where, 23, "A17.22", "card L90"),  # armor on a leader
        (where, 27, "A4.2", "card S01"),  # the packaged set's id
    ]
    messages = [p.message for p in _aterial([path])]
    assert "field 'cost': expected an integer >= 0, got -1" in messages[0]
    assert "field 'hp': expected an integer >= 1, got 0" in messages[1]
    assert "duplicate card id 'S01': also in the packaged card set" in messages[4]


def test_a_good_card_file_has_no_problem_and_a_second_copy_is_a_duplicate(tmp_path: Path) -> None:
    one, two = tmp_path / "a.toml", tmp_path / "b.toml"
    one.write_text(NEW_CARD)
    two.write_text(NEW_CARD)
    assert _aterial([one]) == []
    [problem] = _aterial([one, two])
    assert (problem.where, problem.line, problem.rule) == (str(two), 3, "A4.2")
    assert f"also earlier in {one}" in problem.message


def test_a_syntax_error_and_a_missing_file_are_problems_of_their_file(tmp_path: Path) -> None:
    broken, missing = tmp_path / "broken.toml", tmp_path / "missing.toml"
    broken.write_text('[[cards]]\nid = "S90"\nname = = "x"\n')
    problems = _aterial([broken, missing])
    assert [(p.where, p.line, p.rule) for p in problems] == [(str(broken), 3, "A21.1"), (str(missing), None, "A21.1")]
    assert problems[0].message.startswith("invalid TOML") and "cannot read the file" in problems[1].message


def test_dreadnought_card_problems_cite_d2_and_d22(tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_text(
        '[[cards]]\nid = "B90"\nname = "Runner"\ntype = "unit"\ncluster = ["blue"]\ncond = ["blue"]\nspeed = "Z"\n'
        'cost = 1\nsize = "XL"\nbp = 0\n\n[[cards]]\nid = "B91"\nname = "Bad Code"\ntype = "code"\ncluster = []\n'
        'cond = []\nspeed = "A"\ncost = 1\ntiming = ["CAST"]\neffects = ["fireball(n=2)"]\n'
    )
    problems = card_file_problems(
        [path], dreadnought_cards.sample_cards(), dreadnought_cards.parse_card, Dreadnought.data_rules
    )
    assert [(p.line, p.rule) for p in problems] == [(7, "D2.2"), (9, "D2.5"), (10, "D2.5"), (21, "D22.2")]
    assert "unknown effect 'fireball'" in problems[-1].message


def test_a_deck_files_shape_problems_all_at_once(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    path.write_text('[[deck]]\nid = "X"\nname = "Mine"\nleader = "L01"\ncolour = "red"\ncards = { S02 = 0, S05 = 2 }\n')
    checked = deck_file_problems(
        path,
        aterial_cards.parse_deck,
        [aterial_cards.packaged_deck_file("D1")],
        Aterial.data_rules,
    )
    assert checked.deck is None  # a value had to be replaced: the deck rules wait for the file to read
    assert [(p.line, p.rule) for p in checked.problems] == [(5, "A21.1"), (6, "A21.1")]
    assert "field 'cards.S02': expected an integer >= 1, got 0" in checked.problems[1].message


def test_an_unknown_field_alone_leaves_the_deck_to_the_rules(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    path.write_text('[[deck]]\nid = "X"\nname = "Mine"\nleader = "L01"\nnote = "hi"\ncards = { S02 = 2 }\n')
    checked = deck_file_problems(
        path, aterial_cards.parse_deck, [aterial_cards.packaged_deck_file("D1")], Aterial.data_rules
    )
    assert checked.deck is not None and checked.deck.cards == {"S02": 2}
    assert checked.line_naming("the deck has 2 cards; it must have exactly 30") == 6
    assert checked.line_naming("unknown card id 'S02' in the deck") == 6
    assert checked.line_naming("leader S01 'Tin Scout' is not a leader card") == 4
    assert checked.line_naming("nothing written here") == 1  # nothing named: the deck's header


def test_rules_cited_in_the_text_win_and_fields_pick_by_card_type() -> None:
    rules = DataRules("A21.1", {"leader.cost": "A4.3", "cost": "A4.4", "deck.leader": "A5.4"})
    assert rules.of("leader", "cost", "expected an integer") == "A4.3"
    assert rules.of("subordinate", "cost", "expected an integer") == "A4.4"
    assert rules.of("deck", "leader", "missing required field") == "A5.4"
    assert rules.of("deck", "cost", "expected") == "A21.1"  # a card field's rule is not a deck file's
    assert rules.of("leader", "abilities[0].key", "'armor' is valid only on subordinates (A17.22)") == "A17.22"
    assert rules.of("leader", "cost", "unknown field; valid fields: id") == "A21.1"


def test_problems_are_listed_file_by_file_in_line_order_and_pickle() -> None:
    import pickle

    problems = DataProblems(
        [
            DataProblem("b.toml", 9, "A4.4", "x"),
            DataProblem("a.toml", 3, "", "y"),
            DataProblem("b.toml", 2, "A4.2", "z"),
        ]
    )
    assert [str(p) for p in problems.problems] == ["b.toml:2: A4.2: z", "b.toml:9: A4.4: x", "a.toml:3: y"]
    assert str(problems).startswith("3 problems in the entrants, card and deck files; nothing was played:")
    assert pickle.loads(pickle.dumps(problems)).problems == problems.problems


@pytest.mark.parametrize("count", [1, 2])
def test_the_header_counts_the_problems(count: int) -> None:
    text = str(DataProblems([DataProblem("a.toml", n, "A4.4", "x") for n in range(count)]))
    assert text.startswith(f"{count} problem{'s' if count > 1 else ''} in")
