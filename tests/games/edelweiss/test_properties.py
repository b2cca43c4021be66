"""Property tests over random Edelweiss games: every deck, every character pairing, both standards.

At every step of every game: card conservation, the E6.3 length bound, at least two legal
actions (E14.3), every legal action applies, illegal ids raise and change nothing, the
position round-trips through JSON, observations and sampled worlds leak nothing and agree
with what the player knows, and replays are deterministic.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.core import IllegalActionError, canonical_world, sample_world
from cardlab.games.edelweiss import Edelweiss, EdelweissAction, EdelweissConfig
from cardlab.games.edelweiss.cards import CARD_NAMES

CHARACTER_IDS = ("GARU", "ACCELA", "RAIHA", "VIRIDIAN", "VERDI", "EAGLE")

CONFIGS = [EdelweissConfig(deck="full"), EdelweissConfig(deck="short")] + [
    EdelweissConfig(deck="skills", standard=standard, characters=(first, second))
    for standard in ("symbolic", "accel2")
    for first in CHARACTER_IDS
    for second in CHARACTER_IDS
]
GAMES = {config: Edelweiss(config) for config in CONFIGS}

DECK_SIZE = {"full": 52, "short": 36, "skills": 36}
HAND_SIZE = {"full": 4, "short": 4, "skills": 5}
ALL_IDS = list(EdelweissAction)
CARD_ORDER = {name: index for index, name in enumerate(CARD_NAMES)}


def max_turn(deck: str) -> int:
    """E6.3: after the opening hands every turn draws one card; the draw step that finds the
    deck empty ends the game, so the last possible turn is (draws available) + 1:
    52 - 8 + 1 = 45 (full), 36 - 8 + 1 = 29 (short), 36 - 10 + 1 = 27 (skills)."""
    return DECK_SIZE[deck] - 2 * HAND_SIZE[deck] + 1


@pytest.mark.parametrize("deck", ["full", "short", "skills"])
def test_e6_3_bounds_derived_from_the_rules(deck: str) -> None:
    """The sizes the bound is computed from are the engine's: a fresh game has dealt HAND_SIZE cards
    to each player (E1.4), P1 has drawn its turn-1 card (E3.2), and the deck holds the rest."""
    config = EdelweissConfig("skills", "symbolic") if deck == "skills" else EdelweissConfig(deck)
    for seed in range(5):
        position = Edelweiss(config).new_state(seed).position()
        assert position["turn"] == 1 and [len(position["players"][seat]["hand"]) for seat in ("P1", "P2")] == [
            HAND_SIZE[deck] + 1,
            HAND_SIZE[deck],
        ]
        assert len(position["deck"]) + 2 * HAND_SIZE[deck] + 1 == DECK_SIZE[deck]
    assert (max_turn("full"), max_turn("short"), max_turn("skills")) == (45, 29, 27)


# -- helpers -----------------------------------------------------------------------------------


def card_of(entry: str) -> str:
    return entry.split(":")[0]


def zone_cards(position: dict[str, Any]) -> list[str]:
    cards = list(position["deck"]) + list(position["discard"])
    for seat in position["players"].values():
        cards += seat["hand"] + [card_of(entry) for entry in seat["field"]]
    return cards


def revealed(position: dict[str, Any], player: str) -> list[str]:
    return position.get("revealed", {}).get(player, [])


def hidden_from(position: dict[str, Any], player: int) -> set[str]:
    """Card names `player` cannot know right now: the deck and the opponent's unrevealed hand."""
    opponent = "P2" if player == 0 else "P1"
    hand = Counter(position["players"][opponent]["hand"]) - Counter(revealed(position, opponent))
    return set(position["deck"]) | set(hand)


def strings_in(data: Any) -> set[str]:
    """Every string in a JSON-like value, field orientation suffixes stripped."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(card_of(item))
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def check_conservation(state, config: EdelweissConfig) -> None:
    position = state.position()
    cards = zone_cards(position)
    assert len(cards) == DECK_SIZE[config.deck], "E1.1: card count changed"
    assert len(set(cards)) == len(cards), "a card is in two places"
    for seat in position["players"].values():
        assert not any(card_of(entry).endswith("D") for entry in seat["field"]), "E2.2: diamond on a field"
    # E2.4 ruling: only draws change the deck. Every turn draws once (P1 too, E3.2 ruling) except
    # the final draw step that finds the deck empty.
    turn = position["turn"]
    start = DECK_SIZE[config.deck] - 2 * HAND_SIZE[config.deck]
    if position.get("win_reason") == "deck_out":
        assert position["deck"] == [] and turn == start + 1
    else:
        assert len(position["deck"]) == start - turn
    assert turn <= max_turn(config.deck), "E6.3 bound exceeded"


def check_round_trip(game, state) -> None:
    position = state.position()
    reloaded = game.load_position(json.loads(json.dumps(position)))
    assert reloaded.position() == position
    assert list(reloaded.legal_actions()) == list(state.legal_actions())
    assert reloaded.current_player() == state.current_player()


def check_actions(state, config: EdelweissConfig, rng: random.Random) -> None:
    legal = list(state.legal_actions())
    if state.current_player() is None:
        assert legal == [] and state.outcome() is not None
        assert state.position()["window"] == "over"
        return
    assert len(legal) >= 2, "E14.3: a single-option decision was offered"
    assert len(set(legal)) == len(legal)
    mask = state.legal_action_mask()
    assert [i for i, allowed in enumerate(mask) if allowed] == sorted(int(a) for a in legal)
    for action in legal:  # every legal action applies
        child = state.clone()
        child.apply(action)
        check_conservation(child, config)
    before = state.position()
    illegal = [action for action in ALL_IDS if action not in legal]
    for action in rng.sample(illegal, min(4, len(illegal))):
        with pytest.raises(IllegalActionError) as info:
            state.apply(action if rng.random() < 0.5 else str(action))
        assert set(info.value.legal) == set(legal)
        assert state.position() == before
    assert list(state.legal_actions()) == legal


def check_knowledge(state, config: EdelweissConfig, rng: random.Random, samples: int) -> None:
    position = state.position()
    for p, name in enumerate(("P1", "P2")):
        other = "P2" if p == 0 else "P1"
        observation = state.observation(p)
        hidden = hidden_from(position, p)
        assert not hidden & strings_in(observation), "observation shows a hidden card"
        if state.events is not None:
            assert not hidden & strings_in(state.events.for_player(p)), "event log shows a hidden card"
        infoset = state.infoset(p)
        assert infoset.observation == observation
        assert tuple(infoset.legal_actions) == (tuple(state.legal_actions()) if state.current_player() == p else ())
        worlds = [canonical_world(state, p)] + [sample_world(state, p, rng) for _ in range(samples)]
        worlds.append(infoset.sample_world(rng))
        for world in worlds:
            assert world.observation(p) == observation
            w = world.position()
            assert w["players"][name] == position["players"][name]
            assert w["players"][other]["field"] == position["players"][other]["field"]
            assert w["discard"] == position["discard"]
            assert len(w["deck"]) == len(position["deck"])
            assert len(w["players"][other]["hand"]) == len(position["players"][other]["hand"])
            assert Counter(revealed(position, other)) <= Counter(w["players"][other]["hand"])
            assert w.get("revealed") == position.get("revealed")
            assert sorted(zone_cards(w)) == sorted(zone_cards(position))
    if state.events is not None:
        spectator_hidden = set(position["deck"])
        for name in ("P1", "P2"):
            spectator_hidden |= set(Counter(position["players"][name]["hand"]) - Counter(revealed(position, name)))
        assert not spectator_hidden & strings_in(state.events.for_player(None))


def check_worlds_vary(state, rng: random.Random) -> None:
    """Sampled worlds re-deal what p cannot know: the deck order and the opponent's unrevealed hand vary."""
    position = state.position()
    for p in (0, 1):
        other = "P2" if p == 0 else "P1"
        unrevealed = len(position["players"][other]["hand"]) - len(revealed(position, other))
        worlds = [sample_world(state, p, rng).position() for _ in range(16)]
        if len(position["deck"]) >= 4:
            assert len({tuple(w["deck"]) for w in worlds}) > 1, "deck order never varies"
        if unrevealed and len(position["deck"]) >= 4:
            assert len({tuple(w["players"][other]["hand"]) for w in worlds}) > 1, "opponent hand never varies"


def twin(game, state, p: int, rng: random.Random):
    """A state p cannot tell apart from `state`: the deck and the opponent's unrevealed hand
    re-dealt by this test (not by the engine). None if loading it moved on automatically."""
    position = json.loads(json.dumps(state.position()))
    other = "P2" if p == 0 else "P1"
    known = Counter(revealed(position, other))
    hand = position["players"][other]["hand"]
    kept = list((Counter(hand) & known).elements())
    secret = list((Counter(hand) - known).elements())
    pool = position["deck"] + secret
    rng.shuffle(pool)
    position["deck"] = pool[: len(position["deck"])]
    position["players"][other]["hand"] = sorted(kept + pool[len(position["deck"]) :], key=lambda c: CARD_ORDER[c])
    loaded = game.load_position(position)
    return loaded if loaded.position() == position else None


def check_indistinguishable(game, state, rng: random.Random) -> None:
    """Observation invariance: twins give p the same observation, infoset and canonical world."""
    for p in (0, 1):
        other = twin(game, state, p, rng)
        if other is None:
            continue
        assert other.observation(p) == state.observation(p)
        assert other.infoset(p).observation == state.infoset(p).observation
        assert canonical_world(other, p).position() == canonical_world(state, p).position()


def choose(legal: list[Any], rng: random.Random, stubborn: bool) -> Any:
    """A random action; in stubborn games the attacker is cautious and the defender almost never
    gives up, so games run to deck-out."""
    if stubborn and EdelweissAction.NO_DEFENSE in legal and rng.random() < 0.95:
        legal = [action for action in legal if action != EdelweissAction.NO_DEFENSE]
    if stubborn and EdelweissAction.END_TURN in legal and rng.random() < 0.8:
        return EdelweissAction.END_TURN
    return rng.choice(legal)


def play(config: EdelweissConfig, seed: int, *, deep: bool, record_events: bool = True) -> list[Any]:
    """Play one random game checking every step; returns the actions taken.

    Odd seeds play a stubborn defense (see `choose`) so that long games and deck-outs occur.
    """
    game = GAMES[config]
    rng = random.Random(seed ^ 0x5EED)
    state = game.new_state(seed, record_events=record_events)
    actions = []
    varied = False
    while True:
        check_conservation(state, config)
        check_actions(state, config, rng)
        check_round_trip(game, state)
        if deep:
            check_knowledge(state, config, rng, samples=2)
            check_indistinguishable(game, state, rng)
            if not varied and len(state.position()["deck"]) >= 6:
                check_worlds_vary(state, rng)
                varied = True
        if state.current_player() is None:
            break
        action = choose(list(state.legal_actions()), rng, stubborn=seed % 2 == 1)
        state.apply(action)
        actions.append(action)
    assert state.position()["turn"] <= max_turn(config.deck)
    assert state.outcome().winner in (0, 1)
    assert state.outcome().reason in ("attack", "deck_out")
    return actions, state


def replay(config: EdelweissConfig, seed: int, actions: list[Any]) -> list[dict[str, Any]]:
    state = GAMES[config].new_state(seed, record_events=False)
    positions = [state.position()]
    for action in actions:
        state.apply(action)
        positions.append(state.position())
    return positions


# -- seeded sweeps -----------------------------------------------------------------------------


def config_id(config: EdelweissConfig) -> str:
    if config.characters is None:
        return config.deck
    return f"{config.standard}-{config.characters[0]}-{config.characters[1]}"


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_random_games_keep_every_invariant(config):
    """Seeded random games in every configuration; deep knowledge checks on some of them."""
    games = 100 if config.characters is None else 24
    reasons = Counter()
    for seed in range(games):
        _, final = play(config, seed * 7918 + seed % 2, deep=seed % 6 < 2, record_events=seed % 3 != 2)
        reasons[final.outcome().reason] += 1
    assert reasons["attack"] > 0 and reasons["deck_out"] > 0  # both endings are exercised


@pytest.mark.parametrize("config", CONFIGS[:2] + CONFIGS[2::7], ids=config_id)
def test_same_seed_same_actions_same_game(config):
    """Determinism: same seed and same action sequence give identical positions."""
    for seed in range(3):
        actions, _ = play(config, seed, deep=False)
        assert replay(config, seed, actions) == replay(config, seed, actions)
        assert GAMES[config].new_state(seed).position() == GAMES[config].new_state(seed).position()
        fresh = Edelweiss(config)  # a separate Game object gives the same game too
        assert fresh.new_state(seed).position() == GAMES[config].new_state(seed).position()


def test_different_seeds_give_different_deals():
    game = GAMES[CONFIGS[0]]
    deals = {json.dumps(game.new_state(seed).position()["deck"]) for seed in range(20)}
    assert len(deals) == 20


def test_random_characters_games():
    """Skills games with characters picked from the seed (E7.1) also keep the invariants."""
    for standard in ("symbolic", "accel2"):
        config = EdelweissConfig(deck="skills", standard=standard)
        GAMES.setdefault(config, Edelweiss(config))
        for seed in range(20):
            play(config, seed, deep=seed % 5 == 0)


def test_clone_is_independent():
    """clone(): playing on the copy leaves the original untouched."""
    game = GAMES[CONFIGS[0]]
    state = game.new_state(11)
    before = state.position()
    copy = state.clone()
    rng = random.Random(3)
    while copy.current_player() is not None:
        copy.apply(rng.choice(list(copy.legal_actions())))
    assert state.position() == before


# -- hypothesis ----------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(min_value=0, max_value=2**63 - 1))
def test_hypothesis_random_games(config, seed):
    """Hypothesis picks the configuration and seed; every step is checked."""
    play(config, seed, deep=seed % 3 == 0)


@settings(max_examples=60, deadline=None)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(min_value=0, max_value=2**32), data=st.data())
def test_hypothesis_replay_is_deterministic(config, seed, data):
    """Hypothesis chooses the actions; replaying them from the same seed gives the same positions."""
    game = GAMES[config]
    state = game.new_state(seed, record_events=False)
    actions = []
    while state.current_player() is not None:
        action = data.draw(st.sampled_from(list(state.legal_actions())))
        state.apply(action)
        actions.append(action)
    positions = replay(config, seed, actions)
    assert positions[-1] == state.position()
    assert replay(config, seed, [str(action) for action in actions]) == positions
