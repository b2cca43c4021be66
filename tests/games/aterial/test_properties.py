"""Property tests over seeded random Aterial games: both starter decks, several leader pairings.

At every step: card conservation (31 cards a player, each in exactly one place), the A15.6
length bound, at least two legal actions at every decision (A7.4), every legal action applies,
other action ids raise and change nothing, the position round-trips through JSON, and the
legal action mask agrees. On some steps: observations and event logs leak no hidden card and no
shuffle seed, sampled worlds keep what the player knows and re-deal what they do not, and
states differing only in hidden cards look the same. Replays are deterministic.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from cardlab.core import IllegalActionError, canonical_world, sample_world
from cardlab.games.aterial import Aterial, AterialConfig
from cardlab.games.aterial.cards import load_card_set, packaged_deck

CONFIGS = [
    AterialConfig(decks=("D1", "D2")),
    AterialConfig(decks=("D2", "D1"), first="P1"),
    AterialConfig(decks=("D1", "D1"), leaders=("L02", "L03")),
    AterialConfig(decks=("D2", "D2"), leaders=("L05", "L01"), first="P2"),
    AterialConfig(decks=("D2", "D1"), leaders=("L03", "L05")),
    AterialConfig(decks=("D1", "D2"), leaders=("L04", "L02")),
]
GAMES = {config: Aterial(config) for config in CONFIGS}
CARD_IDS = set(load_card_set().cards)
SEATS = ("P1", "P2")
MAX_TURN = 51  # A15.6
ZONES = ("deck", "hand", "discard", "removed")


def config_id(config: AterialConfig) -> str:
    leaders = "-".join(leader or "deck" for leader in config.leaders)
    return f"{config.decks[0]}{config.decks[1]}-{leaders}-{config.first or 'seed'}"


def expected_cards(config: AterialConfig) -> dict[str, Counter]:
    """Each seat's 31 card ids: the decklist and the leader (override or the deck's)."""
    result = {}
    for seat, (deck_id, leader) in enumerate(zip(config.decks, config.leaders, strict=True)):
        deck = packaged_deck(deck_id)
        result[SEATS[seat]] = Counter(deck.card_list()) + Counter([leader or deck.leader])
    return result


EXPECTED = {config: expected_cards(config) for config in CONFIGS}


# -- helpers -----------------------------------------------------------------------------------


def seat_cards(seat: dict[str, Any]) -> list[str]:
    cards = [card for zone in ZONES for card in seat[zone]]
    return cards + [unit["card"] for unit in seat["field"].values() if unit is not None]


def strings_in(data: Any) -> set[str]:
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def ints_in(data: Any) -> set[int]:
    found: set[int] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, int) and not isinstance(item, bool):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def public_ids(position: dict[str, Any]) -> set[str]:
    """Card ids anyone can see now: fields, discards, removed zones, triggers, a pending deployment
    (a card chosen to deploy is committed: R-A5 offers DEPLOY only with a square to go to)."""
    ids: set[str] = set()
    for seat in position["players"].values():
        ids |= set(seat["discard"]) | set(seat["removed"])
        ids |= {unit["card"] for unit in seat["field"].values() if unit is not None}
    ids |= {trigger["source"] for trigger in position["triggers"]}
    if position["pending"] and "card" in position["pending"]:
        ids.add(position["pending"]["card"])
    return ids


def hidden_from(position: dict[str, Any], viewer: int | None) -> set[str]:
    """Card ids `viewer` (None: a spectator) must not find anywhere in what they are shown:
    ids in hidden zones (decks, the other hands) that are neither public nor the viewer's own."""
    secret: set[str] = set()
    own: set[str] = set()
    for p, name in enumerate(SEATS):
        seat = position["players"][name]
        if p == viewer:
            own |= set(seat["hand"]) | set(seat["deck"])  # own draws are told to the viewer
        else:
            secret |= set(seat["hand"]) | set(seat["deck"])
    if viewer is not None:
        secret |= set(position["players"][SEATS[1 - viewer]]["deck"])
    return secret - own - public_ids(position)


def check_conservation(state, config: AterialConfig) -> None:
    position = state.position()
    for p, name in enumerate(SEATS):
        cards = seat_cards(position["players"][name])
        assert len(cards) == 31, f"{name} has {len(cards)} cards"
        assert Counter(cards) == EXPECTED[config][name], "a card changed identity"
        places = [*state.decks[p], *state.hands[p], *state.discards[p], *state.removed[p]]
        places += [inst for inst in state.field[p] if inst != -1]
        assert len(places) == len(set(places)) == 31, "a card is in two places"
        assert all(state.owner[inst] == p for inst in places), "a card crossed to the other player"
    assert position["turn"] <= MAX_TURN, "A15.6 bound exceeded"


def check_round_trip(game: Aterial, state) -> None:
    position = state.position()
    reloaded = game.load_position(json.loads(json.dumps(position)))
    assert reloaded.position() == position
    assert [str(a) for a in reloaded.legal_actions()] == [str(a) for a in state.legal_actions()]
    assert reloaded.current_player() == state.current_player()


def check_actions(game: Aterial, state, config: AterialConfig, rng: random.Random) -> None:
    legal = list(state.legal_actions())
    if state.current_player() is None:
        assert legal == [] and state.outcome() is not None
        assert state.position()["window"] == "over"
        return
    assert len(legal) >= 2, f"A7.4: a single-option decision was offered: {legal}"
    assert len(set(legal)) == len(legal)
    mask = state.legal_action_mask()
    assert len(mask) == game.num_actions
    assert [i for i, allowed in enumerate(mask) if allowed] == sorted(int(a) for a in legal)
    for action in legal:  # every legal action applies
        child = state.clone()
        child.apply(action)
        check_conservation(child, config)
    before = state.position()
    illegal = [action for action in game.actions.space if action not in legal]
    for action in rng.sample(illegal, min(5, len(illegal))):
        with pytest.raises(IllegalActionError) as info:
            state.apply(action if rng.random() < 0.5 else str(action))
        assert set(info.value.legal) == set(legal)
        assert state.position() == before
    assert list(state.legal_actions()) == legal


def check_knowledge(game: Aterial, state, rng: random.Random) -> None:
    position = state.position()
    seed = position["shuffle_seed"]
    for viewer in (0, 1, None):
        hidden = hidden_from(position, viewer)
        if viewer is not None:
            observation = state.observation(viewer)
            assert not hidden & strings_in(observation), "observation shows a hidden card"
            assert "shuffle_seed" not in strings_in(observation) and seed not in ints_in(observation)
        if state.events is not None:
            events = state.events.for_player(viewer)
            assert not hidden & strings_in(events), f"event log shows a hidden card to {viewer}"
            assert "shuffle_seed" not in strings_in(events) and (seed == 0 or seed not in ints_in(events))
    for p, name in enumerate(SEATS):
        other = SEATS[1 - p]
        observation = state.observation(p)
        infoset = state.infoset(p)
        assert infoset.observation == observation
        assert tuple(infoset.legal_actions) == (tuple(state.legal_actions()) if state.current_player() == p else ())
        worlds = [canonical_world(state, p), sample_world(state, p, rng), infoset.sample_world(rng)]
        for world in worlds:
            assert world.observation(p) == observation
            w = world.position()
            mine, theirs = w["players"][name], w["players"][other]
            real_mine, real_theirs = position["players"][name], position["players"][other]
            assert mine["hand"] == real_mine["hand"] and mine["lp"] == real_mine["lp"]
            assert Counter(mine["deck"]) == Counter(real_mine["deck"])
            for seat, real in ((mine, real_mine), (theirs, real_theirs)):
                for key in ("field", "discard", "removed", "lp"):
                    assert seat[key] == real[key]
            assert len(theirs["hand"]) == len(real_theirs["hand"])
            assert len(theirs["deck"]) == len(real_theirs["deck"])
            assert Counter(theirs["hand"] + theirs["deck"]) == Counter(real_theirs["hand"] + real_theirs["deck"])
            for key in ("turn", "active", "window", "pending", "triggers", "winner"):
                assert w[key] == position[key]
            check_round_trip(game, world)
            if world.legal_actions():
                world.clone().apply(world.legal_actions()[0])


def twin(game: Aterial, state, p: int, rng: random.Random):
    """A state p cannot tell from `state`, built by this test: the opponent's hand and deck pooled
    and re-dealt, p's own deck reshuffled (a pending deployment keeps its card in hand). None if
    the re-dealt hand leaves the mover a single option, so that loading it moves on."""
    position = json.loads(json.dumps(state.position()))
    mine, theirs = position["players"][SEATS[p]], position["players"][SEATS[1 - p]]
    kept = []
    pending = position["pending"] or {}
    if "card" in pending and position["active"] != SEATS[p]:
        kept = [pending["card"]]
        theirs["hand"].remove(pending["card"])
    size = len(theirs["hand"])
    pool = theirs["hand"] + theirs["deck"]
    rng.shuffle(pool)
    theirs["hand"], theirs["deck"] = sorted(kept + pool[:size]), pool[size:]
    rng.shuffle(mine["deck"])
    position["shuffle_seed"] = rng.getrandbits(63)
    loaded = game.load_position(position)
    return loaded if loaded.position() == position else None  # moved on by itself (A7.4): not a twin


def check_indistinguishable(game: Aterial, state, rng: random.Random) -> None:
    """Observation invariance: hidden cards re-dealt -> same observation and infoset for p."""
    for p in (0, 1):
        other = twin(game, state, p, rng)
        if other is None:
            continue
        assert other.observation(p) == state.observation(p)
        assert other.infoset(p).observation == state.infoset(p).observation
        if state.current_player() == p:
            assert [str(a) for a in other.legal_actions()] == [str(a) for a in state.legal_actions()]


def check_worlds_vary(state, rng: random.Random) -> bool:
    """Sampled worlds re-deal what p cannot know: the opponent's hand and p's own deck order vary."""
    position = state.position()
    checked = False
    for p, name in enumerate(SEATS):
        mine, theirs = position["players"][name], position["players"][SEATS[1 - p]]
        if len(set(mine["deck"])) < 4 or len(set(theirs["hand"] + theirs["deck"])) < 4 or not theirs["hand"]:
            continue
        worlds = [sample_world(state, p, rng).position()["players"] for _ in range(16)]
        assert len({tuple(w[name]["deck"]) for w in worlds}) > 1, "own deck order never varies"
        assert len({tuple(w[SEATS[1 - p]]["hand"]) for w in worlds}) > 1, "opponent hand never varies"
        assert len({tuple(w[SEATS[1 - p]]["deck"]) for w in worlds}) > 1, "opponent deck never varies"
        checked = True
    return checked


def play(
    config: AterialConfig,
    seed: int,
    *,
    full: bool,
    deep_every: int = 0,
    record_events: bool = True,
    stats: Counter | None = None,
):
    """One random game, checked at every step (`full`: actions and round trip too; `deep_every`:
    knowledge checks every n-th step). Returns the actions taken and the final state."""
    game = GAMES[config]
    rng = random.Random(seed ^ 0xA7E)
    state = game.new_state(seed, record_events=record_events)
    actions: list[Any] = []
    varied = False
    step = 0
    while True:
        check_conservation(state, config)
        if full:
            check_actions(game, state, config, rng)
            check_round_trip(game, state)
        if deep_every and step % deep_every == 0:
            check_knowledge(game, state, rng)
            if state.current_player() is not None:
                check_indistinguishable(game, state, rng)
                if not varied:
                    varied = check_worlds_vary(state, rng)
            if stats is not None:
                stats["deep"] += 1
                stats["hidden"] += bool(hidden_from(state.position(), 0) and hidden_from(state.position(), 1))
        if state.current_player() is None:
            break
        legal = state.legal_actions()
        assert len(legal) >= 2
        action = rng.choice(legal)
        state.apply(action if rng.random() < 0.8 else str(action))
        actions.append(action)
        step += 1
    if stats is not None:
        stats["varied"] += varied
    outcome = state.outcome()
    assert outcome is not None and state.position()["turn"] <= MAX_TURN
    assert outcome.reason in ("lp", "deck_out")
    assert outcome.winner in (0, 1)  # A15.5: a draw cannot arise with the A21 abilities
    return actions, state


def replay(config: AterialConfig, seed: int, actions: list[Any]) -> list[dict[str, Any]]:
    state = GAMES[config].new_state(seed, record_events=False)
    positions = [state.position()]
    for action in actions:
        state.apply(action)
        positions.append(state.position())
    return positions


# -- sweeps -----------------------------------------------------------------------------------------


def test_a15_6_bound_derived_from_the_rules():
    """A15.6: 30 - 5 = 25 cards after the opening hand; each turn draws one, so the first player's
    26th turn (global turn 2 * 26 - 1 = 51) is the last possible."""
    position = Aterial().new_state(0).position()  # before the mulligans: each deck less the opening hand
    seats = [position["players"][seat] for seat in ("P1", "P2")]
    assert [(len(seat["deck"]), len(seat["hand"])) for seat in seats] == [(30 - 5, 5)] * 2
    assert 2 * (len(seats[0]["deck"]) + 1) - 1 == MAX_TURN


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_random_games_keep_every_invariant(config):
    """Seeded random games: every step fully checked; knowledge checks on every 4th step of half."""
    stats: Counter = Counter()
    for index in range(8):
        seed = 7919 * index + CONFIGS.index(config)
        deep = 4 if index % 2 == 0 else 0
        play(config, seed, full=True, deep_every=deep, record_events=index % 4 != 3, stats=stats)
    assert stats["varied"] == 4, "sampled worlds were never checked for variety"
    if config.decks[0] != config.decks[1]:  # mirror decks: every hidden id is also the viewer's own
        assert stats["hidden"] > stats["deep"] // 2, "the leak checks had nothing hidden to look for"


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_many_games_conserve_cards_and_end_by_turn_51(config):
    """Cheaper sweep: conservation and the A15.6 bound over many games; both endings occur."""
    reasons: Counter = Counter()
    winners: Counter = Counter()
    for seed in range(100, 180):
        _, final = play(config, seed, full=False, record_events=False)
        reasons[final.outcome().reason] += 1
        winners[final.outcome().winner] += 1
    assert reasons["lp"] > 0 and reasons["deck_out"] > 0


@pytest.mark.parametrize("config", CONFIGS[:3], ids=config_id)
def test_same_seed_same_actions_same_game(config):
    """A18.3 determinism: same seed and same action sequence give identical positions, also from a
    fresh Game object and with actions given as text."""
    for seed in range(3):
        actions, final = play(config, seed, full=False, record_events=False)
        positions = replay(config, seed, actions)
        assert positions == replay(config, seed, [str(action) for action in actions])
        assert positions[-1] == final.position()
        fresh = Aterial(config)
        state = fresh.new_state(seed, record_events=False)
        for action in actions:
            state.apply(str(action))
        assert state.position() == final.position()


def test_different_seeds_give_different_deals():
    game = GAMES[CONFIGS[0]]
    deals = {json.dumps(game.new_state(seed).position()["players"]["P1"]["deck"]) for seed in range(20)}
    assert len(deals) == 20


def test_mulligan_games_keep_invariants():
    """A6.4: games where both players mulligan (always, then random play) keep every invariant."""
    config = CONFIGS[0]
    game = GAMES[config]
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_state(seed)
        state.apply("MULLIGAN")
        state.apply("MULLIGAN")
        check_conservation(state, config)
        check_knowledge(game, state, rng)
        while state.current_player() is not None:
            state.apply(rng.choice(state.legal_actions()))
            check_conservation(state, config)


def test_clone_is_independent():
    """clone(): playing on the copy leaves the original untouched."""
    state = GAMES[CONFIGS[0]].new_state(11)
    before = state.position()
    copy = state.clone()
    rng = random.Random(3)
    while copy.current_player() is not None:
        copy.apply(rng.choice(copy.legal_actions()))
    assert state.position() == before


def test_action_space_covers_the_card_set():
    """Every card id of the set has DEPLOY and DISCARD actions; texts parse back to the same id."""
    game = GAMES[CONFIGS[0]]
    texts = {str(action) for action in game.actions.space}
    assert {f"DEPLOY {card}" for card in CARD_IDS} <= texts
    assert {f"DISCARD {card}" for card in CARD_IDS} <= texts
    for action in game.actions.space:
        assert game.parse_action(str(action)) == action
