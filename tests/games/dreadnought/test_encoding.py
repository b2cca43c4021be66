"""Dreadnought's observation tensor (issue #18, `cardlab.games.dreadnought.encoding`): a fixed float32 layout
read from the observation alone, so equal for every state of one information set and blind to hidden cards;
its table covers every entry once; a known position encodes as documented; the size follows the card set."""

from __future__ import annotations

import copy
import random
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from cardlab.core import State, sample_world
from cardlab.core.encoding import Encoding
from cardlab.games.dreadnought import Dreadnought, DreadnoughtConfig
from cardlab.games.dreadnought.cards import packaged_deck
from cardlab.games.dreadnought.encoding import (
    BP_SCALE,
    CARD_ZONES,
    COUNT_FIELDS,
    LOG_SCALE,
    SLOT_FEATURES,
    WINDOWS,
    make_encoding,
)
from cardlab.games.dreadnought.render import WINDOW_NAMES

from .dreadnought_positions import GAME, dummy, enchant, load, make_position, rest_of_turn, unit

ENCODING = make_encoding(GAME)
CARD_IDS = list(GAME.card_set.by_id)
FEATURE = {name: i for i, name in enumerate(SLOT_FEATURES)}
ARMS = [card.id for card in GAME.card_set.by_id.values() if card.type == "arms"]


def sampled_states(game: Dreadnought, games: int, every: int, name: str) -> tuple[State, ...]:
    """Every `every`-th decision of `games` seeded random games, each game's end included."""
    rng, found = random.Random(name), []
    for seed in range(games):
        state, step = game.new_state(seed, record_events=False), 0
        while state.current_player() is not None:
            if step % every == 0:
                found.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
            step += 1
        found.append(state)
    return tuple(found)


@cache
def positions() -> tuple[State, ...]:
    return sampled_states(GAME, 20, 9, "encoding")


def entry(encoding: Encoding, segment: str, index: int = 0) -> int:
    return encoding.offsets[segment] + index


def slot_entry(segment: str, name: str) -> int:
    return entry(ENCODING, segment, FEATURE[name])


def card_entry(segment: str, card_id: str) -> int:
    """A slot segment's card one-hot entry for `card_id` (after the features and the arms one-hot)."""
    return entry(ENCODING, segment, len(SLOT_FEATURES) + len(ARMS) + CARD_IDS.index(card_id))


def test_game_encoding_is_the_package_encoding():
    encoding = Dreadnought().encoding()
    assert encoding is not None and encoding.game == "dreadnought"
    assert encoding.shape == ENCODING.shape and encoding.table() == ENCODING.table()


def test_windows_are_the_renderer_windows():
    assert set(WINDOWS) == set(WINDOW_NAMES) and len(WINDOWS) == len(set(WINDOWS))


def test_random_games_encode_to_fixed_finite_float32_vectors():
    windows = set()
    for state in positions():
        mover = state.current_player()
        for viewer in (0, 1, None) if mover is None else (mover, 1 - mover, None):
            observation = state.observation(viewer)
            vector = ENCODING.encode(observation)
            assert vector.shape == ENCODING.shape and vector.dtype == np.float32
            assert np.isfinite(vector).all()
            assert vector.min() >= -1.0 and vector.max() <= 2.0  # scaled to roughly [0, 1]
            windows.add(observation["window"])
            assert vector[entry(ENCODING, "window", WINDOWS.index(observation["window"]))] == 1.0
    assert {"speed_window", "cast_window", "aturn", "over"} <= windows


def test_one_information_set_one_tensor():
    """A sampled world (what the player cannot see re-dealt) encodes as the true state does, for the player
    to move and for the other one."""
    rng = random.Random(18)
    for state in positions():
        mover = state.current_player()
        if mover is None:
            continue
        for player in (mover, 1 - mover):
            truth = ENCODING.encode(state.observation(player))
            world = sample_world(state, player, rng)
            np.testing.assert_array_equal(ENCODING.encode(world.observation(player)), truth)


def test_no_hidden_card_reaches_the_tensor_of_random_games():
    """Sampled worlds change what the player may not see, which the opponent's tensor (its own hand, its
    dummies) shows; the player's tensor never changes with them."""
    rng, changed, compared = random.Random(7), 0, 0
    for state in positions()[::3]:
        mover = state.current_player()
        if mover is None:
            continue
        truth = ENCODING.encode(state.observation(mover))
        for _ in range(3):
            world = sample_world(state, mover, rng)
            np.testing.assert_array_equal(ENCODING.encode(world.observation(mover)), truth)
            compared += 1
            other = ENCODING.encode(world.observation(1 - mover))
            changed += not np.array_equal(other, ENCODING.encode(state.observation(1 - mover)))
    assert compared and changed > compared // 2  # the worlds really re-deal; the opponent's view tells


def test_no_hidden_card_reaches_the_tensor_of_a_position():
    """Two positions that differ only in what P1 may not know (P2's hand cards, both decks, every HP card and
    burst, P2's closed dummy, a secret enchant) give P1 and a spectator the same tensor; P2 sees a difference."""

    def position(hand, deck, hp, bursts, real, material):
        return make_position(
            p1={"ba1": [unit("R02", enchants=[enchant("boost", "P1", material, secret=True)])],
                "deck": deck[0], "hp": hp[0], "bursts": bursts[0]},
            p2={"hand": hand, "ba1": [dummy(real)], "deck": deck[1], "hp": hp[1], "bursts": bursts[1]},
        )  # fmt: skip

    one = load(position(["B01", "G01"], (["N01"] * 6, ["N01"] * 6), ((3, 3), (3, 4)), (2, 1), "G01", "R01"))
    two = load(
        position(
            ["G02", "B03"],
            (["R01", "Y02", "R03", "N02", "R07", "Y01"], ["G04", "B02", "G05", "G06", "B07", "B08"]),
            ((["R01", "Y03", "R04"], ["Y01", "Y02", "R05"]), (["G01", "G02", "B01"], ["B04", "B05", "B06", "G07"])),
            (["R05", "Y04"], ["G03"]),
            "B01",
            "Y05",
        )
    )
    assert one.observation(0) == two.observation(0)  # the premise: P1 sees no difference
    for viewer in (0, None):
        np.testing.assert_array_equal(
            ENCODING.encode(one.observation(viewer)), ENCODING.encode(two.observation(viewer))
        )
    mine, theirs = (ENCODING.encode(state.observation(1)) for state in (one, two))
    assert not np.array_equal(mine, theirs)
    hand = slice(entry(ENCODING, "me.hand_cards"), entry(ENCODING, "me.hand_cards", len(CARD_IDS)))
    assert not np.array_equal(mine[hand], theirs[hand])  # P2's own hand
    assert mine[card_entry("me.BA1.U1", "G01")] == 1.0 and theirs[card_entry("me.BA1.U1", "B01")] == 1.0
    p1_view = ENCODING.encode(one.observation(0))
    assert p1_view[slot_entry("opp.BA1.U1", "dummy")] == 1.0 and p1_view[slot_entry("opp.BA1.U1", "card_known")] == 0
    assert not p1_view[card_entry("opp.BA1.U1", CARD_IDS[0]) : card_entry("opp.BA1.U1", CARD_IDS[-1]) + 1].any()
    assert not p1_view[entry(ENCODING, "opp.hand_cards") : entry(ENCODING, "opp.hand_cards", len(CARD_IDS))].any()


def test_layout_table_covers_every_entry_exactly_once():
    table = ENCODING.table()
    assert [row["segment"] for row in table] == [segment.name for segment in ENCODING.segments]
    assert len({row["segment"] for row in table}) == len(table)
    covered = np.zeros(ENCODING.size, dtype=int)
    start = 0
    for row in table:
        assert row["start"] == start and row["size"] > 0 and row["meaning"]
        covered[row["start"] : row["start"] + row["size"]] += 1
        start += row["size"]
    assert start == ENCODING.size and (covered == 1).all()
    n = len(CARD_IDS)
    slot = len(SLOT_FEATURES) + len(ARMS) + n
    assert all(ENCODING.segments[i].size == slot for i, s in enumerate(ENCODING.segments) if s.name.endswith(".C"))
    assert {row["size"] for row in table if row["segment"].endswith("_cards")} == {n}


def test_known_position_encodes_hand_counts_and_bp_as_documented():
    """P1 holds R02 R02 Y03; P2's BA1.U1 is a G01 (printed BP 70) with one boost by P2 (+20, D13.1)."""
    state = load(
        p1={"hand": ["R02", "R02", "Y03"], "ba2": ["R02"]},
        p2={"hand": ["B01"], "ba1": [unit("G01", enchants=[enchant("boost", "P2")])]},
    )
    observation = state.observation(0)
    assert observation["players"]["P2"]["BA1"]["units"][0]["bp"] == 90
    vector = ENCODING.encode(observation)
    hand = entry(ENCODING, "me.hand_cards")
    assert vector[hand + CARD_IDS.index("R02")] == 0.5 and vector[hand + CARD_IDS.index("Y03")] == 0.25
    assert vector[hand : hand + len(CARD_IDS)].sum() == 0.75
    counts = [name for name, _ in COUNT_FIELDS]
    assert vector[entry(ENCODING, "me.counts", counts.index("hand"))] == pytest.approx(0.3)
    assert vector[entry(ENCODING, "opp.counts", counts.index("hand"))] == pytest.approx(0.1)
    assert not vector[entry(ENCODING, "opp.hand_cards") : entry(ENCODING, "opp.hand_cards", len(CARD_IDS))].any()
    slot = "opp.BA1.U1"
    assert vector[slot_entry(slot, "occupied")] == 1.0 and vector[card_entry(slot, "G01")] == 1.0
    assert vector[slot_entry(slot, "bp")] == pytest.approx(90 / BP_SCALE)
    assert vector[slot_entry(slot, "printed_bp")] == pytest.approx(70 / BP_SCALE)
    assert vector[slot_entry(slot, "boosts_by_opp")] == 0.25 and vector[slot_entry(slot, "boosts_by_me")] == 0
    assert vector[slot_entry(slot, "type_unit")] == 1.0 and vector[slot_entry(slot, "size_S")] == 1.0
    assert vector[slot_entry("opp.BA1.U2", "occupied")] == 0.0
    assert vector[slot_entry("me.BA2.U1", "bp")] == pytest.approx(100 / BP_SCALE)
    assert vector[slot_entry("me.BA1.C", "type_caster")] == 1.0 and vector[card_entry("me.BA1.C", "X01")] == 1.0
    assert vector[entry(ENCODING, "viewer", 0)] == 1.0 and vector[entry(ENCODING, "to_move", 0)] == 1.0
    assert vector[entry(ENCODING, "phase", 3)] == 1.0  # cast
    # P2's tensor: its own seat first, so the same unit is `me.BA1.U1` and the boost is its own
    other = ENCODING.encode(state.observation(1))
    assert other[slot_entry("me.BA1.U1", "bp")] == pytest.approx(90 / BP_SCALE)
    assert other[slot_entry("me.BA1.U1", "boosts_by_me")] == 0.25
    assert other[entry(ENCODING, "me.hand_cards", CARD_IDS.index("B01"))] == 0.25
    assert other[entry(ENCODING, "viewer", 1)] == 1.0 and other[entry(ENCODING, "to_move", 1)] == 1.0


def test_attack_and_decision_play_are_encoded_by_place():
    state = load(phase="action", first="P1", p1={"ba1": ["R02"]}, p2={"ba1": ["G01"]})
    state.apply("ATTACKER BA1.U1")
    vector = ENCODING.encode(state.observation(1))  # P2: P1's BA1.U1 is the opponent's slot 1, place 8
    assert vector[entry(ENCODING, "window", WINDOWS.index("abuild"))] == 1.0
    assert vector[entry(ENCODING, "decision.attackers", 7 + 1)] == 1.0
    assert vector[entry(ENCODING, "decision.attackers") : entry(ENCODING, "decision.attackers", 14)].sum() == 1.0


def test_waiting_triggers_are_encoded_by_controller_source_and_card():
    state = load(
        make_position(
            phase="end",
            first="P1",
            p1={"ba1": ["G02"], "ba2": ["Y03"]},
            stack=[*rest_of_turn("end"), ["cleanup"], ["hand_limit", "P2"], ["hand_limit", "P1"], ["settle"],
                   ["next_trigger"]],
            triggers=[{"player": "P1", "source": "P1:BA1.U1", "ability": "A:G02:0"},
                      {"player": "P1", "source": "P1:BA2.U1", "ability": "A:Y03:0"}],
        )
    )  # fmt: skip
    assert state.observation(0)["window"] == "order" and len(state.observation(0)["triggers"]) == 2
    mine, theirs = (ENCODING.encode(state.observation(viewer)) for viewer in (0, 1))
    assert mine[entry(ENCODING, "triggers", 0)] == theirs[entry(ENCODING, "triggers", 1)] == 0.25
    assert mine[entry(ENCODING, "triggers", 1)] == theirs[entry(ENCODING, "triggers", 0)] == 0
    assert mine[entry(ENCODING, "triggers.sources", 1)] == theirs[entry(ENCODING, "triggers.sources", 7 + 4)] == 0.25
    for card_id in ("G02", "Y03"):
        assert mine[entry(ENCODING, "triggers.cards", CARD_IDS.index(card_id))] == 0.25


def card_file(path: Path) -> Path:
    path.write_text(
        '[[cards]]\nid = "Z01"\nname = "Zed Scout"\ntype = "unit"\ncluster = ["red"]\ncond = []\nspeed = "A"\n'
        'cost = 0\nsize = "S"\nbp = 60\n\n'
        '[[cards]]\nid = "Z02"\nname = "Zed Blade"\ntype = "arms"\ncluster = ["red"]\ncond = ["red"]\nspeed = "B"\n'
        'cost = 1\ngrants = [ { kind = "activated", timing = ["ACTION"], zone = "field", cost = { check_self = true },'
        ' effects = ["damage(target=enemy_unit, amount=10)"] } ]\n',
        encoding="utf-8",
    )
    return path


def test_other_deck_pair_encodes_with_the_same_layout():
    game = Dreadnought(DreadnoughtConfig(decks=("tide_grove", "ember_spark")))
    encoding = game.encoding()
    assert encoding is not None and encoding.table() == ENCODING.table()
    rng = random.Random(3)
    for state in sampled_states(game, 2, 15, "tide"):
        player = state.current_player()
        for viewer in (0, 1):
            vector = encoding.encode(state.observation(viewer))
            assert vector.shape == encoding.shape and np.isfinite(vector).all()
        if player is not None:
            world = sample_world(state, player, rng)
            np.testing.assert_array_equal(
                encoding.encode(world.observation(player)), encoding.encode(state.observation(player))
            )


def test_extra_card_file_grows_every_card_indexed_segment(tmp_path):
    """Each added card id adds one entry to every by-card-id segment (35: 3 global, 16 per seat); an added arms
    one more to each of the 14 slots. A deck playing the new cards encodes them."""
    cards = card_file(tmp_path / "zed.toml")
    ember = packaged_deck("ember_spark")
    counts = {**ember.cards, "N01": 0, "N02": 0, "Z01": 2, "Z02": 2}
    deck = tmp_path / "zed_deck.toml"
    listed = ", ".join(f"{card} = {n}" for card, n in counts.items() if n)
    deck.write_text(
        f'[[deck]]\nid = "zed"\nname = "Zed"\ncasters = ["X01", "X03"]\ncards = {{ {listed} }}\n', encoding="utf-8"
    )
    game = Dreadnought(DreadnoughtConfig(decks=(str(deck), "tide_grove"), cards=(str(cards),)))
    encoding = game.encoding()
    assert encoding is not None
    assert list(game.card_set.by_id)[-2:] == ["Z01", "Z02"]
    card_segments = 3 + 2 * (1 + len(CARD_ZONES) + 7)
    assert encoding.size == ENCODING.size + 2 * card_segments + 14
    seen = 0
    for state in sampled_states(game, 3, 4, "zed"):
        vector = encoding.encode(state.observation(0))
        assert vector.shape == encoding.shape and np.isfinite(vector).all()
        hand = encoding.offsets["me.hand_cards"] + len(game.card_set.by_id) - 2
        seen += bool(vector[hand] or vector[hand + 1])
    assert seen  # P1 held a Z card at some point


def test_patched_card_data_reaches_the_printed_features():
    """A patch (`R02.bp=120`, `X01.hp=4`) keeps the layout and changes the printed values in the slot."""
    patched = Dreadnought(DreadnoughtConfig(patches=("R02.bp=120", "X01.hp=4", "R02.cost=3")))
    encoding = patched.encoding()
    assert encoding is not None and encoding.table() == ENCODING.table()
    position = make_position(p1={"ba1": ["R02"]})
    for game, bp, hp, cost in ((GAME, 100, 3, None), (patched, 120, 4, 3)):
        vector = make_encoding(game).encode(game.load_position(position).observation(0))
        assert vector[slot_entry("me.BA1.U1", "printed_bp")] == pytest.approx(bp / BP_SCALE)
        assert vector[slot_entry("me.BA1.C", "hp")] == pytest.approx(hp / 5)
        if cost is not None:
            assert vector[slot_entry("me.BA1.U1", "cost")] == pytest.approx(cost / LOG_SCALE)


def test_encoding_reads_only_the_observation():
    """The fill sees the observation dict and nothing else: a copy of it, detached from any state, encodes the
    same, and so does the observation of a clone."""
    state = positions()[len(positions()) // 2]
    player = state.current_player() or 0
    observation = state.observation(player)
    np.testing.assert_array_equal(
        ENCODING.encode(copy.deepcopy(observation)), ENCODING.encode(state.clone().observation(player))
    )
