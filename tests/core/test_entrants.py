"""A designer's own entrants in a balance table (issue 33 item 3): ids, names, the table's variant name (so that
tables of other entrants or cards never pool), and every problem of the files and entrants at once.

Checked through both deck-building games: Aterial entrants are a deck and a leader (A5.4), Dreadnought entrants
a deck and a caster pair (D3.1, D3.4)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardlab.core.datacheck import DataProblems
from cardlab.core.errors import CardlabError
from cardlab.sim.balance import matchups_for
from tests.designer_files import NEW_CARD, packaged_deck_copy


def own(game: str, entrants: list[str], cards: list[str] | None = None):  # type: ignore[no-untyped-def]
    lab = matchups_for(game, None)
    from cardlab.games import game_class

    own_matchups = game_class(game).lab().own  # type: ignore[union-attr]
    assert own_matchups is not None
    return own_matchups(lab, entrants, cards or [])


@pytest.fixture
def aterial_files(tmp_path: Path) -> tuple[Path, Path]:
    """my_deck.toml: D1 with one S37 swapped for the new card S90 of my_cards.toml."""
    deck = packaged_deck_copy("aterial", "D1", tmp_path, "my_deck.toml")
    text = deck.read_text().replace('name = "Vanguard of Dawn"', 'name = "My Dawn"')
    deck.write_text(text.replace("S37 = 2", "S37 = 1").replace("S40 = 1 }", "S40 = 1, S90 = 1 }"))
    cards = tmp_path / "my_cards.toml"
    cards.write_text(NEW_CARD)
    return deck, cards


def test_own_entrants_are_named_by_deck_and_leader(aterial_files: tuple[Path, Path]) -> None:
    deck, cards = aterial_files
    matchups = own("aterial", [f"{deck}:L01", "D2:L04"], [str(cards)])
    assert matchups.entrants == ("my_deck/L01", "D2/L04")
    assert matchups.names == {
        "my_deck/L01": "My Dawn · Marshal Odette Renn",
        "D2/L04": "Ashfang Pack · Matriarch Greytusk",
    }
    assert matchups.variant.startswith("starter+entrants=") and "+cards=" in matchups.variant
    assert matchups.deal_variant == "starter"  # the default table's deals: common random numbers
    config = matchups.config("my_deck/L01", "D2/L04")
    assert config["decks"] == {"P1": str(deck.resolve()), "P2": "D2"}
    assert config["leaders"] == {"P1": "L01", "P2": "L04"} and config["cards"] == [str(cards.resolve())]
    from cardlab.games.aterial import Aterial

    game = Aterial.from_config(config)
    assert game.decks[0].cards["S90"] == 1 and game.new_state(1).position()


def test_a_leader_left_out_is_the_decks_own(aterial_files: tuple[Path, Path]) -> None:
    deck, cards = aterial_files
    assert own("aterial", [str(deck), "D2"], [str(cards)]).entrants == ("my_deck/L01", "D2/L04")


def test_the_variant_follows_the_files_contents_not_their_place(aterial_files: tuple[Path, Path], tmp_path: Path):
    deck, cards = aterial_files
    first = own("aterial", [f"{deck}:L01", "D2:L04"], [str(cards)]).variant
    assert own("aterial", [f"{deck}:L01", "D2:L04"], [str(cards)]).variant == first  # a rerun: the same table
    elsewhere = tmp_path / "moved"
    elsewhere.mkdir()
    moved = [Path(shutil.copy(path, elsewhere / path.name)) for path in (deck, cards)]
    assert own("aterial", [f"{moved[0]}:L01", "D2:L04"], [str(moved[1])]).variant == first
    cards.write_text(NEW_CARD.replace("attack = 2", "attack = 3"))
    assert own("aterial", [f"{deck}:L01", "D2:L04"], [str(cards)]).variant != first  # other cards: another table
    assert own("aterial", [f"{deck}:L02", "D2:L04"], [str(cards)]).variant != first  # another leader: another


def test_the_default_table_keeps_its_name_and_configs() -> None:
    """A stored default table still matches: its variant name and configs are those of before (no --entrants)."""
    default = matchups_for("aterial", None)
    assert default.variant == "starter" and len(default.entrants) == 10
    assert default.config("D1/L01", "D2/L04") == {
        "decks": {"P1": "D1", "P2": "D2"}, "leaders": {"P1": "L01", "P2": "L04"}, "first": "P1", "cards": None,
    }  # fmt: skip
    assert default.names["D1/L03"] == "Vanguard of Dawn · Duke Morvane of the Ashen Court"
    spelled = own("aterial", list(default.entrants))  # the default entrants written out: the default table
    assert (spelled.variant, spelled.entrants, spelled.deals) == ("starter", default.entrants, None)
    dread = matchups_for("dreadnought", None)
    assert dread.variant == "starter"
    assert dread.config("ember_spark/X01+X03", "tide_grove/X04+X06") == {
        "decks": {"P1": "ember_spark", "P2": "tide_grove"},
        "casters": {"P1": ["X01", "X03"], "P2": ["X04", "X06"]},
        "cards": None,
    }
    assert dread.names["tide_grove/X04+X07"] == "Tide & Grove · Mira Tidewell + Tala Greenward"


def test_cards_alone_keep_the_default_entrants_in_another_table(aterial_files: tuple[Path, Path]) -> None:
    _, cards = aterial_files
    matchups = own("aterial", [], [str(cards)])
    assert matchups.entrants == matchups_for("aterial", None).entrants
    assert matchups.variant.startswith("starter+cards=") and "entrants=" not in matchups.variant


def test_dreadnought_entrants_are_a_deck_and_a_caster_pair(tmp_path: Path) -> None:
    deck = packaged_deck_copy("dreadnought", "tide_grove", tmp_path, "my-tide.toml")
    deck.write_text(deck.read_text().replace('name = "Tide & Grove"', 'name = "My Tide"'))
    matchups = own("dreadnought", ["ember_spark:X02+X03", f"{deck}:X04+X07", str(deck)])
    assert matchups.entrants == ("ember_spark/X02+X03", "my_tide/X04+X07", "my_tide/X04+X06")  # '-' splits cells
    assert matchups.names["my_tide/X04+X07"] == "My Tide · Mira Tidewell + Tala Greenward"
    assert matchups.config("my_tide/X04+X07", "my_tide/X04+X06")["casters"] == {"P1": ["X04", "X07"], "P2": None}


def test_every_problem_of_the_entrants_at_once(aterial_files: tuple[Path, Path], tmp_path: Path) -> None:
    deck, cards = aterial_files
    bad = tmp_path / "bad_deck.toml"
    bad.write_text('[[deck]]\nid = "BAD"\nname = "Bad"\nleader = "S01"\ncards = { S02 = 6, L01 = 1, S99 = 1 }\n')
    entrants = [f"{deck}:L01", "D1:L99", str(bad), str(tmp_path / "nowhere.toml"), "D2:L04"]
    with pytest.raises(DataProblems) as caught:
        own("aterial", entrants, [str(cards)])
    found = [(p.where, p.line, p.rule) for p in caught.value.problems]
    assert found == [
        ("--entrants D1:L99", None, "A5.5"),  # the override's problem: an unknown leader
        (str(bad), 4, "A5.4"),  # a subordinate as the leader
        (str(bad), 5, "A5.1"),
        (str(bad), 5, "A5.2"),
        (str(bad), 5, "A5.5"),
        (str(bad), 5, "A5.3"),
        (f"--entrants {tmp_path / 'nowhere.toml'}", None, "A21.1"),
    ]


def test_a_broken_card_file_is_listed_and_no_deck_is_judged_by_it(aterial_files: tuple[Path, Path]) -> None:
    deck, cards = aterial_files
    cards.write_text(NEW_CARD.replace("hp = 3", "hp = 0").replace("cost = 2", "cost = -2"))
    with pytest.raises(DataProblems) as caught:
        own("aterial", [f"{deck}:L01", "D2:L04"], [str(cards)])
    assert [(p.line, p.rule) for p in caught.value.problems] == [(5, "A4.4"), (7, "A4.4")]
    assert "2 of the entrants' decks are checked against the deck rules once their files read" in str(caught.value)


def test_a_caster_pair_not_written_as_one_and_a_repeated_entrant(tmp_path: Path) -> None:
    with pytest.raises(DataProblems, match=r"--entrants tide_grove:X04: a caster pair is two caster ids"):
        own("dreadnought", ["ember_spark:X02+X03", "tide_grove:X04"])
    with pytest.raises(DataProblems, match=r"the same entrant as D1:L01 \(D1/L01\)"):
        own("aterial", ["D1:L01", "D1/L01", "D2:L04"])
    with pytest.raises(CardlabError, match="a table needs at least two entrants"):
        own("aterial", ["D1:L01"])
