"""The designer's own decks and cards in tables through the commands (issue 33 item 3): `balance`, `report`,
`compare` and `sweep` of Aterial and Dreadnought take `--entrants` and `--cards`, name the entrants in words,
and refuse a broken file with every problem listed (file, line, rule id) before anything is played."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from cardlab.cli import main
from tests.designer_files import NEW_CARD, packaged_deck_copy

BROKEN_CARDS = (
    NEW_CARD.replace("cost = 2", "cost = -1").replace("hp = 3", "hp = 0")
    + """
[[cards]]
type = "leader"
id = "L90"
name = "Bad Leader"
lp = 20
attack = 2
cost = 2
dominance = 1
races = ["human"]
abilities = [{ key = "flyy" }]
"""
)


@pytest.fixture
def aterial_files(tmp_path: Path) -> tuple[Path, Path]:
    deck = packaged_deck_copy("aterial", "D1", tmp_path, "my_deck.toml")
    text = deck.read_text().replace('name = "Vanguard of Dawn"', 'name = "My Dawn"').replace("S37 = 2", "S37 = 1")
    deck.write_text(text.replace("S40 = 1 }", "S40 = 1, S90 = 1 }"))
    cards = tmp_path / "my_cards.toml"
    cards.write_text(NEW_CARD)
    return deck, cards


def _common(tmp_path: Path) -> list[str]:
    return ["--agent", "random", "--workers", "1", "--db", str(tmp_path / "lab.sqlite")]


def test_balance_plays_the_designers_entrants_and_names_them(capsys, tmp_path: Path, aterial_files) -> None:
    deck, cards = aterial_files
    own = ["--entrants", f"{deck}:L01,D2:L04", "--cards", str(cards)]
    argv = [
        "balance",
        "aterial",
        *own,
        "--games",
        "3",
        *_common(tmp_path),
        "--out",
        str(tmp_path / "x"),
        "--engine",
        "reference",
    ]  # per-game rows in results.csv (a kernel stores batches)
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "My Dawn · Marshal Odette Renn" in printed and "Ashfang Pack · Matriarch Greytusk" in printed
    summary = json.loads((tmp_path / "x" / "summary.json").read_text())
    assert summary["variant"].startswith("starter+entrants=") and summary["total_games"] == 6
    assert summary["entrant_names"] == {
        "my_deck/L01": "My Dawn · Marshal Odette Renn",
        "D2/L04": "Ashfang Pack · Matriarch Greytusk",
    }
    assert set(summary["entrants"]) == {"my_deck/L01", "D2/L04"}  # the entrants' totals, by id
    with (tmp_path / "x" / "results.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert {(row["p1"], row["p1_name"]) for row in rows} == set(summary["entrant_names"].items())
    assert "My Dawn · Marshal Odette Renn (my_deck/L01)" in (tmp_path / "x" / "report.html").read_text()

    assert main(argv) == 0  # a rerun adds to the same table
    assert "6 new + 6 stored games" in capsys.readouterr().out
    again = json.loads((tmp_path / "x" / "summary.json").read_text())
    assert again["variant"] == summary["variant"] and again["total_games"] == 12

    report = ["report", "aterial", *own, *_common(tmp_path)[:2], "--db", str(tmp_path / "lab.sqlite"),
              "--out", str(tmp_path / "r")]  # fmt: skip
    assert main(report) == 0
    assert "My Dawn · Marshal Odette Renn" in capsys.readouterr().out
    assert json.loads((tmp_path / "r" / "summary.json").read_text())["total_games"] == 12
    assert main(["report", "aterial", *_common(tmp_path)[:2], "--db", str(tmp_path / "lab.sqlite"),
                 "--out", str(tmp_path / "d")]) == 2  # fmt: skip
    assert "no stored games for aterial starter" in capsys.readouterr().err  # never pooled with the default


def test_a_broken_card_file_lists_every_problem_and_plays_nothing(capsys, tmp_path: Path, aterial_files) -> None:
    deck, cards = aterial_files
    cards.write_text(BROKEN_CARDS)
    argv = ["balance", "aterial", "--entrants", f"{deck}:L01,D2:L04,D1:L99", "--cards", str(cards), "--games", "3",
            *_common(tmp_path), "--out", str(tmp_path / "x")]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "3 problems in the entrants, card and deck files; nothing was played:" in err
    assert f"{cards}:5: A4.4: card S90: field 'cost': expected an integer >= 0, got -1" in err
    assert f"{cards}:7: A4.4: card S90: field 'hp': expected an integer >= 1, got 0" in err
    assert f"{cards}:21: A17: card L90: field 'abilities[0].key': unknown ability key 'flyy'" in err
    assert "Traceback" not in err
    assert not (tmp_path / "x").exists() and not (tmp_path / "lab.sqlite").exists()  # nothing played or stored
    cards.write_text(NEW_CARD)  # fixed cards: now the deck rules, and the unknown leader, are checked
    assert main(argv) == 2
    assert "--entrants D1:L99: A5.5: unknown leader id 'L99'" in capsys.readouterr().err


def test_sweep_and_compare_take_the_designers_entrants(capsys, tmp_path: Path, aterial_files) -> None:
    deck, cards = aterial_files
    own = ["--entrants", f"{deck}:L01,D2:L04", "--cards", str(cards)]
    db = ["--workers", "1", "--db", str(tmp_path / "lab.sqlite")]
    sweep = ["sweep", "aterial", *own, "--patch", "S90.cost=2,3", "--agent", "random", "--games", "2", *db,
             "--out", str(tmp_path / "s")]  # fmt: skip
    assert main(sweep) == 0
    assert "My Dawn · Marshal Odette Renn" in capsys.readouterr().out
    result = json.loads((tmp_path / "s" / "sweep.json").read_text())
    assert result["entrants"] == ["my_deck/L01", "D2/L04"]
    assert result["entrant_names"]["my_deck/L01"] == "My Dawn · Marshal Odette Renn"
    assert [row["label"].split(" ")[0] for row in result["variants"]] == ["S90.cost=2", "S90.cost=3"]  # own card
    compare = ["compare", "aterial", *own, "--agents", "random,heuristic", "--games", "2", *db,
               "--out", str(tmp_path / "c")]  # fmt: skip
    assert main(compare) == 0
    assert "Ashfang Pack · Matriarch Greytusk" in capsys.readouterr().out
    comparison = json.loads((tmp_path / "c" / "comparison.json").read_text())
    assert comparison["variant"] == result["variant"] and "entrant_names" in comparison


def test_dreadnought_takes_decks_with_caster_pairs(capsys, tmp_path: Path) -> None:
    deck = packaged_deck_copy("dreadnought", "tide_grove", tmp_path, "my_deck.toml")
    deck.write_text(deck.read_text().replace('name = "Tide & Grove"', 'name = "My Tide"'))
    argv = ["balance", "dreadnought", "--entrants", f"ember_spark:X02+X03,{deck}:X04+X07", "--games", "1",
            *_common(tmp_path), "--out", str(tmp_path / "x")]  # fmt: skip
    assert main(argv) == 0
    assert "My Tide · Mira Tidewell + Tala Greenward" in capsys.readouterr().out
    summary = json.loads((tmp_path / "x" / "summary.json").read_text())
    assert list(summary["entrant_names"]) == ["ember_spark/X02+X03", "my_deck/X04+X07"]
    written = deck.read_text()
    deck.write_text(written.replace("G04 = 5", "G04 = 6").replace('casters = ["X04", "X06"]', "casters = 3"))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{deck}:6: D3.1: deck tide_grove: field 'casters': expected a list of caster ids, got 3" in err
    assert "D3.2" not in err  # the deck rules wait for the file to read
    deck.write_text(written.replace("G04 = 5", "G04 = 6"))
    assert main(argv) == 2
    assert f"{deck}:7: D3.2: the deck has 51 cards; it must have exactly 50" in capsys.readouterr().err


def test_the_options_are_in_the_help_of_the_deck_games_only(capsys) -> None:
    for command in ("balance", "report", "compare", "sweep"):
        with pytest.raises(SystemExit):
            main([command, "aterial", "--help"])
        out = " ".join(capsys.readouterr().out.split())
        assert "--entrants" in out and "my_deck.toml:L01,D2:L04" in out and "--cards FILE" in out
    with pytest.raises(SystemExit):
        main(["balance", "dreadnought", "--help"])
    assert "ember_spark:X02+X03,my_deck.toml:X04+X07" in " ".join(capsys.readouterr().out.split())
    assert main(["balance", "edelweiss", "--entrants", "GARU,EAGLE"]) == 2
    assert "--entrants is not an option of" in capsys.readouterr().err


@pytest.mark.parametrize("game", ["aterial", "dreadnought"])
def test_play_lists_every_problem_of_its_files_as_deck_validate_does(tmp_path, capsys, monkeypatch, game: str) -> None:
    """#51 item 3: `play --decks/--cards` stopped at the first problem of its files; it lists every one, the
    same lines `deck validate` prints (one checker), and an unreadable file is exit 2, never a traceback."""
    from cardlab.games import game_class

    cards = tmp_path / "bad_cards.toml"
    cards.write_text('[[cards]]\nid = "S90"\nname = "Bad"\ncost = "x"\nsize = "Q"\natk = -1\n')
    deck = tmp_path / "bad_deck.toml"
    deck.write_text('[[deck]]\nid = "mine"\nname = "Mine"\ncards = ["ZZZ"]\n')
    other = game_class(game).packaged_decks[0]
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", game, "--decks", f"{deck},{other}", "--cards", str(cards)]) == 2
    played = capsys.readouterr().err
    assert main(["deck", "validate", game, str(deck), "--cards", str(cards)]) == 2
    validated = capsys.readouterr().err
    lines = [line.strip() for line in validated.splitlines()[1:]]
    assert len(lines) >= 3 and all(line in played for line in lines), (played, validated)
    assert "Traceback" not in played and played.startswith("cardlab: error: ")
    unreadable = tmp_path / "broken.toml"
    unreadable.write_text("x = [\n")
    assert main(["play", game, "--cards", str(unreadable), "--decks", f"{tmp_path / 'missing.toml'},{other}"]) == 2
    err = capsys.readouterr().err
    assert re.search(r"broken\.toml:\d+: [A-Z]\d+\.\d+: invalid TOML", err), err
    assert re.search(r"missing\.toml: [A-Z]\d+\.\d+: cannot read the file", err), err
