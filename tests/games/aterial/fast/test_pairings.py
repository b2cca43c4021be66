"""The many-pairings entry (`fast.pairings`, issue #52) plays exactly the one-pairing batches' games.

A pairing's table assembled from its decks' card ids must equal `tables.build_table` of the pairing's own
config (a packaged deck under another leader, a generated deck as `cardlab meta` writes it, a designer's
card file); its games must be those `heuristic.play_game` plays for that config from the same seed, whatever
the other pairings of the call and the number of threads; and `cardlab meta`'s player must record the same
counts through it as pairing by pairing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardlab.core.deckspace import DeckSpace, Pick
from cardlab.games.aterial.game import Aterial
from tests.designer_files import NEW_CARD

pytest.importorskip("numba")

import numba

from cardlab.games.aterial.fast import heuristic as hk
from cardlab.games.aterial.fast.pairings import PairingTables, play_decks
from cardlab.games.aterial.fast.tables import build_table, dealt_cards

GENERATED = Pick.of("L03", {"S01": 4, "S02": 4, "S05": 3, "S07": 4, "S09": 4, "S11": 4, "S12": 4, "S14": 3})
"""A deck the search could make (30 cards, 4 of a name at most)."""


def _space(cards: tuple[str, ...] = ()) -> DeckSpace:
    space = Aterial.deck_space(cards)
    assert space is not None and space.deck_of is not None
    return space


def _deck_file(tmp: Path, pick: Pick) -> str:
    path = tmp / f"{pick.id}.toml"
    path.write_text(_space().deck_text(pick, pick.id, "generated"))
    return str(path)


def _configs(tmp: Path, cards: tuple[str, ...] | None = None) -> list[tuple[dict[str, Any], tuple[Any, Any]]]:
    """Pairings as configs (what the one-pairing path plays) with the decks the meta search hands the kernel."""
    space = _space(cards or ())
    deck_of = space.deck_of
    assert deck_of is not None
    by_id = {p.id: p for p in space.packaged}
    d1, d2 = by_id["D1/L01"], by_id["D2/L04"]
    generated = _deck_file(tmp, GENERATED)
    other_leader = deck_of(d1.deck, Pick("L05", d1.pick.cards))
    seats = [
        ((d1.deck, d2.deck), ("L05", "L04"), (other_leader, deck_of(d2.deck, d2.pick))),
        ((generated, d1.deck), ("L03", "L01"), (deck_of(generated, GENERATED), deck_of(d1.deck, d1.pick))),
        ((d2.deck, generated), ("L04", "L03"), (deck_of(d2.deck, d2.pick), deck_of(generated, GENERATED))),
    ]  # fmt: skip
    return [(Aterial.lab_config(decks, overrides, cards), pair) for decks, overrides, pair in seats]


@pytest.fixture(params=["packaged", "designer"])
def pairings(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[list[tuple[dict[str, Any], tuple[Any, Any]]]]:
    cards = None
    if request.param == "designer":
        (tmp_path / "cards.toml").write_text(NEW_CARD)
        cards = (str(tmp_path / "cards.toml"),)
    yield _configs(tmp_path, cards)


def test_a_pairing_table_is_build_tables_own(pairings) -> None:
    tables = PairingTables(Aterial.from_config(pairings[0][0]))
    for config, decks in pairings:
        game = Aterial.from_config(config)
        assert np.array_equal(tables.table(decks), build_table(game, dealt_cards(game))), config


@pytest.mark.parametrize("policies", [("heuristic", "heuristic"), ("heuristic", "random")])
def test_many_pairings_play_the_one_pairing_games(pairings, policies: tuple[str, str]) -> None:
    games, seeds = 40, [7, 2**63 + 5, 7]
    tables = PairingTables(Aterial.from_config(pairings[0][0]))
    together = play_decks(tables, [decks for _, decks in pairings], policies, games, seeds)
    for k, (config, _) in enumerate(pairings):
        alone = hk.play_game(Aterial.from_config(config), policies, games, seeds[k])
        for column, expected in zip(together, alone, strict=True):
            assert np.array_equal(column[k * games : (k + 1) * games], expected), (config, k)


def test_the_games_do_not_depend_on_the_threads(tmp_path: Path) -> None:
    pairings = _configs(tmp_path)
    tables = PairingTables(Aterial.from_config(pairings[0][0]))
    pairs = [decks for _, decks in pairings]
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = play_decks(tables, pairs, ("heuristic", "heuristic"), 50, [1, 2, 3])
    finally:
        numba.set_num_threads(threads)
    many = play_decks(tables, pairs, ("heuristic", "heuristic"), 50, [1, 2, 3])
    assert all(np.array_equal(a, b) for a, b in zip(one, many, strict=True))


def test_the_meta_player_records_the_same_counts_either_way(tmp_path: Path) -> None:
    """`Player` through `run_pairings` and pairing by pairing (`_play_each`): the same stored counts."""
    from cardlab.sim.meta import Entry, Player
    from cardlab.store.games_db import GamesDB

    space = _space()
    generated = Entry(GENERATED.id, _deck_file(tmp_path, GENERATED), GENERATED)
    packaged = [Entry(p.id, p.deck, p.pick) for p in space.packaged[:3]]
    pairs = [(generated, p) for p in packaged] + [(packaged[0], packaged[2])]
    records = []
    for name in ("many", "each"):
        with GamesDB(tmp_path / f"{name}.sqlite") as db:
            player = Player(space, db, "starter", "heuristic", "cpu", 6, 3, None, lambda tasks: iter(()))
            if name == "each":
                player._play_kernel = player._play_each  # type: ignore[method-assign]
            player.play(pairs)
            assert player.played == 6 * 2 * len(pairs)
            records.append({key: (r.wins, r.games, r.draws) for key, r in player.records.items()})
    assert records[0] == records[1]
