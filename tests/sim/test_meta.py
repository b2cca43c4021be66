"""`cardlab meta` (issue #52) on Duel, the toy deck game (tests/toygame/duel, rules T1-T3), at a small budget: a
planted overpowered card is found, run in the dominant deck and flagged first; the packaged pool flags nothing
beyond resolution; the same seed gives the same meta.json on one worker or two; the decks written play in
`balance --entrants`; every deck the search makes obeys T2. The real games' runs are `slow`."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardlab.cli import main
from cardlab.core.deckspace import Pick
from cardlab.games import REGISTRY, game_class
from cardlab.sim.meta import Builder

BROKEN = """[[cards]]
id = "X1"
name = "Titan"
type = "card"
colour = "red"
power = 12
"""
"""An overpowered card: power 12 where every other card has 3 (T1), so a deck drawing one wins almost surely."""

SMALL = ["--budget", "3000", "--confirm-games", "10", "--games", "10"]


@pytest.fixture(scope="module", autouse=True)
def duel() -> Iterator[None]:
    REGISTRY.register("duel", "tests.toygame.duel:Duel")
    yield
    REGISTRY.unregister("duel")


def _meta(tmp: Path, *extra: str, workers: str = "1") -> dict[str, Any]:
    argv = ["meta", "duel", *SMALL, "--workers", workers, "--out", str(tmp / "out"), "--db", str(tmp / "lab.sqlite")]
    assert main([*argv, *extra]) == 0
    result: dict[str, Any] = json.loads((tmp / "out" / "meta.json").read_text())
    return result


@pytest.fixture(scope="module")
def broken_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("broken")
    (tmp / "broken.toml").write_text(BROKEN)
    return tmp, _meta(tmp, "--cards", str(tmp / "broken.toml"))


@pytest.fixture(scope="module")
def plain_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return _meta(tmp_path_factory.mktemp("plain"))


def test_meta_json_has_the_issues_fields(broken_run) -> None:
    _, result = broken_run
    assert {"decks", "equilibrium", "cards", "verdict", "games", "evaluated_decks"} <= set(result)
    for deck in result["decks"]:
        assert {"id", "file", "cards", "champion", "traits", "win_vs_field", "win_vs_equilibrium"} <= set(deck)
        assert set(deck["traits"]) == {"mean power", "main colour share"}
        assert {"rate", "ci95"} <= set(deck["win_vs_field"]) and {"rate", "ci95"} <= set(deck["win_vs_equilibrium"])
    for weight in result["equilibrium"].values():
        assert set(weight) == {"weight", "ci95", "support_probability"}
    for card in result["cards"]:
        assert {"id", "name", "share_elites", "share_random", "effect_pp", "flagged"} <= set(card)
    assert result["evaluated_decks"] >= 16 and result["games"] > 3000


def test_a_planted_card_makes_a_dominant_deck_and_is_flagged_first(broken_run) -> None:
    _, result = broken_run
    assert result["verdict"].startswith("dominant deck: ")
    dominant = result["verdict"].split(": ")[1].split(" ")[0]
    deck = next(d for d in result["decks"] if d["id"] == dominant)
    assert deck["cards"].get("X1", 0) >= 3 and deck["win_vs_field"]["rate"] >= 0.70
    flagged = [card for card in result["cards"] if card["flagged"]]
    assert flagged and flagged[0]["id"] == "X1" and flagged[0]["effect_pp"]["ci95"][0] > 0
    broken_share = next(card for card in result["cards"] if card["id"] == "X1")
    assert broken_share["share_elites"] > broken_share["share_random"]


def test_the_packaged_pool_flags_no_card_beyond_resolution(plain_run) -> None:
    resolution = plain_run["effects"]["resolution_pp"]
    assert all(c["effect_pp"] is None or c["effect_pp"]["ci95"][0] <= resolution for c in plain_run["cards"])
    assert not plain_run["verdict"].startswith("dominant deck")


def test_the_same_seed_gives_the_same_meta_json_on_one_worker_or_two(plain_run, tmp_path: Path) -> None:
    two = _meta(tmp_path, workers="2")
    assert {k: v for k, v in two.items() if k != "timings"} == {k: v for k, v in plain_run.items() if k != "timings"}


def test_the_decks_written_play_in_balance_entrants(broken_run, capsys) -> None:
    tmp, result = broken_run
    own = [d for d in result["decks"] if d["file"]][:2]
    entrants = ",".join(f"{tmp / 'out' / d['file']}:{d['champion']}" for d in own)
    argv = ["balance", "duel", "--entrants", entrants, "--cards", str(tmp / "broken.toml"), "--games", "2",
            "--workers", "1", "--db", str(tmp / "check.sqlite"), "--out", str(tmp / "check")]  # fmt: skip
    assert main(argv) == 0
    summary = json.loads((tmp / "check" / "summary.json").read_text())
    assert summary["total_games"] == 4


def test_a_stopped_run_resumes_from_the_stored_games(broken_run, capsys) -> None:
    """A rerun with the same database replays the search from its stored games: nothing new is played."""
    tmp, result = broken_run
    again = _meta(tmp, "--cards", str(tmp / "broken.toml"))
    assert again["timings"]["new_games"] == 0 and again["verdict"] == result["verdict"]


def test_every_deck_the_search_makes_obeys_t2(tmp_path: Path) -> None:
    """T2.1 size 12, T2.2 deck cards only, T2.3 four of a name, T2.4 one champion: checked by the game's own
    validator for every random deck, mutation and replacement."""
    (tmp_path / "broken.toml").write_text(BROKEN)
    space = game_class("duel").deck_space([str(tmp_path / "broken.toml")])
    assert space is not None
    builder, rng = Builder(space), random.Random(7)
    decks = [builder.draw(rng) for _ in range(50)]
    decks += [builder.mutate(deck, rng) for deck in decks for _ in range(3)]
    decks += [builder.without(deck, deck.cards[0][0], lambda p: (0.0,)) for deck in decks[:20]]
    for deck in decks:
        assert space.problems(deck) == [] and deck.size == 12
        assert all(n <= 4 for _, n in deck.cards)  # T2.3 (each card its own name here)
    illegal = Pick.of("C1", {"X1": 5, "R1": 4, "G1": 3})
    assert [rule for rule, _ in space.problems(illegal)] == ["T2.3"]


def test_a_pool_that_cannot_make_a_deck_is_refused_in_words(tmp_path: Path, capsys) -> None:
    """T2.3: four of a name, so a deck of 12 needs three names; a run refuses a bad option before it plays."""
    assert main(["meta", "duel", "--games", "0", "--out", str(tmp_path / "o"), "--db", str(tmp_path / "l")]) == 2
    assert "--games must be at least 1" in capsys.readouterr().err
    assert main(["meta", "duel", "--budget", "soon", "--out", str(tmp_path / "o"), "--db", str(tmp_path / "l")]) == 2
    assert "--budget takes" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("game", ["aterial", "dreadnought"])
def test_the_real_games_search_gives_legal_decks_and_a_verdict(game: str, tmp_path: Path) -> None:
    """A5 (Aterial) and D3 (Dreadnought): every deck written passes the game's validator; a verdict is given."""
    argv = ["meta", game, "--budget", "4000", "--confirm-games", "4", "--agent", "heuristic", "--out",
            str(tmp_path / "out"), "--db", str(tmp_path / "lab.sqlite")]  # fmt: skip
    assert main(argv) == 0
    result = json.loads((tmp_path / "out" / "meta.json").read_text())
    space = game_class(game).deck_space()
    assert space is not None
    for deck in result["decks"]:
        if deck["file"]:
            override = deck.get("leader") or "+".join(deck.get("casters") or [])
            assert space.problems(Pick.of(override, deck["cards"])) == []
    assert result["verdict"] and result["evaluated_decks"] > 0
