"""Aterial's observation tensor (issue #18): fixed layout, computed from the observation alone, no leak."""

from __future__ import annotations

import json
import random
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest

from cardlab.core import sample_world
from cardlab.core.encoding import Encoding
from cardlab.games.aterial import Aterial, AterialConfig
from cardlab.games.aterial.board import SQUARE_NAMES
from cardlab.games.aterial.cards import MAX_COPIES
from cardlab.games.aterial.encoding import UNIT_FEATURES, make_encoding

from .aterial_positions import GAME, load, make_position

ENCODING = make_encoding(GAME)

EXTRA_CARDS = """
[[cards]]
type = "subordinate"
id = "X01"
name = "Breach Ram"
cost = 2
attack = 5
hp = 3
dominance = 1
races = ["golem"]
abilities = [{ key = "pierce" }]
"""


def segment(encoding: Encoding, vector: np.ndarray, name: str) -> np.ndarray:
    start = encoding.offsets[name]
    size = next(s.size for s in encoding.segments if s.name == name)
    return vector[start : start + size]


def check_vector(encoding: Encoding, vector: np.ndarray) -> None:
    assert vector.shape == encoding.shape
    assert vector.dtype == np.float32
    assert np.isfinite(vector).all()


def test_random_games_fixed_shape_and_same_tensor_across_the_information_set():
    """At every decision of random games, both seats' tensors are well formed, and each seat (the player
    to move above all) gets the same tensor in a sampled world (another state of its information set)."""
    game = Aterial()
    encoding = game.encoding()
    assert encoding is not None and encoding.shape == (encoding.size,)
    rng = random.Random(0)
    checked = 0
    for seed in range(30):
        state = game.new_state(seed)
        while (to_move := state.current_player()) is not None:
            for player in (to_move, 1 - to_move):
                mine = encoding.encode(state.observation(player))
                check_vector(encoding, mine)
                world = sample_world(state, player, random.Random(rng.random()))
                assert np.array_equal(mine, encoding.encode(world.observation(player)))
            checked += 1
            state.apply(rng.choice(state.legal_actions()))
        for player in (0, 1, None):
            check_vector(encoding, encoding.encode(state.observation(player)))
        final = encoding.encode(state.observation(0))
        assert segment(encoding, final, "winner").sum() + segment(encoding, final, "draw").sum() == 1
    assert checked > 1000


def test_sampled_worlds_that_differ_in_the_opponents_hand_encode_equally_for_the_player():
    state = GAME.new_state(3)
    rng = random.Random(1)
    while state.turn < 6:
        state.apply(rng.choice(state.legal_actions()))
    me = state.current_player()
    assert me is not None
    them = 1 - me
    true_hand = sorted(state.observation(them)["players"][("P1", "P2")[them]]["hand"])
    differing = 0
    for index in range(20):
        world = sample_world(state, me, random.Random(index))
        hand = sorted(world.observation(them)["players"][("P1", "P2")[them]]["hand"])
        assert np.array_equal(ENCODING.encode(world.observation(me)), ENCODING.encode(state.observation(me)))
        if hand != true_hand:
            differing += 1
            assert not np.array_equal(
                ENCODING.encode(world.observation(them)), ENCODING.encode(state.observation(them))
            )
    assert differing > 0


def test_changing_the_opponents_hand_in_the_true_state_does_not_change_the_players_tensor():
    one = load(p1=dict(hand=["S06"]), p2=dict(hand=["S01", "S25"]))
    other = load(p1=dict(hand=["S06"]), p2=dict(hand=["S40", "S41"]))
    assert np.array_equal(ENCODING.encode(one.observation(0)), ENCODING.encode(other.observation(0)))
    assert np.array_equal(ENCODING.encode(one.observation(None)), ENCODING.encode(other.observation(None)))
    assert not np.array_equal(ENCODING.encode(one.observation(1)), ENCODING.encode(other.observation(1)))
    # A replay's open observation shows both hands; the tensor still holds neither for a spectator.
    assert np.array_equal(ENCODING.encode(one.open_observation()), ENCODING.encode(one.observation(None)))
    assert not segment(ENCODING, ENCODING.encode(one.open_observation()), "hand").any()


def test_the_tensor_is_a_function_of_the_observation_alone():
    state = load(p1=dict(hand=["S01", "S06"], field={"F0": "S14"}), p2=dict(field={"B1": "S23"}))
    observation = state.observation(0)
    copy = json.loads(json.dumps(observation))
    assert np.array_equal(ENCODING.encode(observation), ENCODING.encode(copy))


def test_the_layout_table_covers_every_entry_exactly_once():
    table = ENCODING.table()
    assert [row["segment"] for row in table] == [s.name for s in ENCODING.segments]
    assert len({row["segment"] for row in table}) == len(table)
    covered = np.zeros(ENCODING.size, dtype=int)
    for row in table:
        assert row["size"] >= 1 and row["meaning"]
        covered[row["start"] : row["start"] + row["size"]] += 1
    assert (covered == 1).all()
    assert table[0]["start"] == 0 and table[-1]["start"] + table[-1]["size"] == ENCODING.size
    # The field is square-major: 12 equal, contiguous blocks.
    starts = [ENCODING.offsets[f"{side}.{square}.unit"] for side in ("own", "opp") for square in SQUARE_NAMES]
    assert len({b - a for a, b in pairwise(starts)}) == 1


def test_the_default_size():
    n_cards, n_sub = len(GAME.card_set.cards), len(GAME.card_set.subordinates())
    assert (n_cards, n_sub) == (46, 41)
    assert ENCODING.size == 1425


def test_hand_counts_and_unit_features_of_a_known_position():
    state = load(
        turn=5,
        p1=dict(hand=["S01", "S01", "S25"], field={"F0": "S14"}, discard=["S03"], lp=11),
        p2=dict(hand=["S40"], field={"B1": "S23"}),
    )
    vector = ENCODING.encode(state.observation(0))
    subordinates = [card.id for card in GAME.card_set.subordinates()]
    hand = segment(ENCODING, vector, "hand")
    expected = np.zeros(len(subordinates), dtype=np.float32)
    expected[subordinates.index("S01")] = 2 / MAX_COPIES
    expected[subordinates.index("S25")] = 1 / MAX_COPIES
    assert np.array_equal(hand, expected)
    assert segment(ENCODING, vector, "own.discard")[subordinates.index("S03")] == pytest.approx(1 / MAX_COPIES)
    assert segment(ENCODING, vector, "viewer").tolist() == [1, 0]
    assert segment(ENCODING, vector, "to_move").tolist() == [1, 0]
    assert segment(ENCODING, vector, "lp")[0] == pytest.approx(11 / 22)
    assert segment(ENCODING, vector, "hand_size").tolist() == pytest.approx([0.3, 0.1])
    # Own F0 holds S14 (cost 2, attack 2, HP 4, armor), own F1 the leader L01.
    f0 = dict(zip(UNIT_FEATURES, segment(ENCODING, vector, "own.F0.unit").tolist(), strict=True))
    assert f0["occupied"] == 1 and f0["leader"] == 0 and f0["cost"] == pytest.approx(2 / 6)
    assert f0["printed_attack"] == pytest.approx(2 / 8)
    card_ids = list(GAME.card_set.cards)
    assert segment(ENCODING, vector, "own.F0.card").argmax() == card_ids.index("S14")
    assert segment(ENCODING, vector, "own.F1.card").argmax() == card_ids.index("L01")
    assert segment(ENCODING, vector, "own.F1.unit")[UNIT_FEATURES.index("leader")] == 1
    assert segment(ENCODING, vector, "opp.B1.card").argmax() == card_ids.index("S23")
    observation = state.observation(0)
    assert observation["players"]["P1"]["supply"]["F2"] == 2  # L01 on F1 supplies dominance 2
    assert segment(ENCODING, vector, "own.F2.unit")[UNIT_FEATURES.index("supply")] == pytest.approx(2 / 6)
    assert not segment(ENCODING, vector, "own.F2.card").any()
    # The opponent's view: P2 is "own" now, and its own hand (S40) is what it sees.
    theirs = ENCODING.encode(state.observation(1))
    assert segment(ENCODING, theirs, "viewer").tolist() == [0, 1]
    assert segment(ENCODING, theirs, "hand")[subordinates.index("S40")] == pytest.approx(1 / MAX_COPIES)
    assert segment(ENCODING, theirs, "hand").sum() == pytest.approx(1 / MAX_COPIES)
    assert segment(ENCODING, theirs, "opp.F0.card").argmax() == card_ids.index("S14")


def test_pending_choices():
    block = load(
        window="block",
        pending={"attacker": "P1:F0", "target": "P2:F1", "side": False},
        p1=dict(field={"F0": "S14"}),
        p2=dict(field={"F0": "S07"}),
    )
    assert block.observation(1)["window"] == "block"
    vector = ENCODING.encode(block.observation(1))  # P2 decides: own = P2
    assert segment(ENCODING, vector, "to_move").tolist() == [1, 0]
    assert segment(ENCODING, vector, "active").tolist() == [0, 1]
    assert segment(ENCODING, vector, "pending.unit").tolist() == [0] * 6 + [1] + [0] * 5  # opp F0
    assert segment(ENCODING, vector, "pending.target").tolist() == [0, 1] + [0] * 10  # own F1
    moving = ENCODING.encode(load(window="move_to", pending={"square": "F1"}).observation(0))
    assert segment(ENCODING, moving, "pending.unit").tolist() == [0, 1] + [0] * 10
    deploying = load(window="deploy_to", pending={"card": "S06"}, p1=dict(hand=["S06", "S01"]))
    subordinates = [card.id for card in GAME.card_set.subordinates()]
    for player in (0, 1):  # the chosen card is known to both seats (A18.4)
        vector = ENCODING.encode(deploying.observation(player))
        assert segment(ENCODING, vector, "pending.card").argmax() == subordinates.index("S06")
        assert segment(ENCODING, vector, "window")[4] == 1  # deploy_to


def test_a_game_with_an_extra_card_file_encodes_and_its_size_follows_the_card_set(tmp_path: Path):
    path = tmp_path / "extra.toml"
    path.write_text(EXTRA_CARDS, encoding="utf-8")
    game = Aterial(AterialConfig(cards=(str(path),)))
    encoding = game.encoding()
    assert encoding is not None
    # One more card: +1 in hand, 4 piles and the pending card; +1 card and +1 race ("golem") per square.
    assert encoding.size == ENCODING.size + 6 + 12 * 2
    assert "X01" in encoding.segments[[s.name for s in encoding.segments].index("hand")].meaning
    state = game.new_state(0)
    rng = random.Random(0)
    while (player := state.current_player()) is not None:
        check_vector(encoding, encoding.encode(state.observation(player)))
        state.apply(rng.choice(state.legal_actions()))


def test_a_patched_game_encodes_with_its_patched_values():
    game = Aterial(AterialConfig(first="P1", patches=("S14.cost=3", "S41.attack=12")))
    encoding = make_encoding(game)
    assert encoding.size == ENCODING.size  # same card set, same layout
    state = game.load_position(make_position(config=game.config_json(), p1=dict(field={"F0": "S14"})))
    vector = encoding.encode(state.observation(0))
    check_vector(encoding, vector)
    f0 = dict(zip(UNIT_FEATURES, segment(encoding, vector, "own.F0.unit").tolist(), strict=True))
    assert f0["cost"] == pytest.approx(3 / 6)
    assert f0["printed_attack"] == pytest.approx(2 / 12)  # attack scaled by the patched set's largest value


def test_the_documented_layout_matches_the_default_table():
    """docs/encodings.md's Aterial table lists every segment with its first index and size."""
    text = (Path(__file__).parents[3] / "docs" / "encodings.md").read_text(encoding="utf-8")
    section = text.split("## Soukoku no Aterial", 1)[1].split("\n## ", 1)[0]
    rows = [line.split("|")[1:4] for line in section.splitlines() if line.startswith("| `")]
    documented = [(name.strip().strip("`"), int(start), int(size)) for name, start, size in rows]
    assert documented == [(row["segment"], row["start"], row["size"]) for row in ENCODING.table()]
