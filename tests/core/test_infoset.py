"""Lazy InfoSets (issue #15): nothing is built until asked for, a snapshot, no leak, the old results.

`State.infoset` keeps the true state behind a private weak reference until an agent reads a world
or the observation; these tests pin down that it (1) builds nothing before that, (2) describes the
position at creation or refuses (`StaleInfoSetError`), (3) exposes nothing of the hidden deal and
(4) gives exactly what the eager InfoSet gave (`EagerReference` below is that implementation).
"""

from __future__ import annotations

import gc
import pickle
import random
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import pytest

from cardlab.agents import RandomAgent, make_agent
from cardlab.core import Game, InfoSet, Player, State, canonical_world, sample_world
from cardlab.core import game as core
from cardlab.core.game import StaleInfoSetError
from cardlab.games.dreadnought import Dreadnought, DreadnoughtConfig
from cardlab.games.edelweiss import Edelweiss, EdelweissConfig
from cardlab.sim import play_match
from tests.every_game import every_game, every_game_class, toy_games_registered
from tests.reachability import reachable

GAMES: dict[str, Game] = {name: every_game_class(name)() for name in every_game()} | {
    "edelweiss-accel2": Edelweiss(EdelweissConfig("skills", "accel2")),
    "dreadnought-tide": Dreadnought(DreadnoughtConfig(decks=("tide_grove", "ember_spark"))),
}
"""Every game at its defaults, the toy game included, and two more configs: skills, and the other deck first."""
IDS = list(GAMES)


@pytest.fixture(autouse=True)
def toy_games() -> Iterator[None]:
    with toy_games_registered():  # agents find a game's heuristic and rollouts through the registry
        yield


@cache
def positions(name: str, games: int = 4, per_game: int = 8) -> tuple[State, ...]:
    """Positions of seeded random games (about `per_game` each, spread over the game), end included."""
    game, rng, found = GAMES[name], random.Random(name), []
    for seed in range(games):
        state, line = game.new_state(seed, record_events=False), []
        while state.current_player() is not None:
            line.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
        step = max(1, len(line) // per_game)
        found += line[::step]
        found.append(state)
    return tuple(found)


def fresh(name: str) -> Iterator[tuple[State, Player]]:
    """A private copy of every position, with each player (to move or not)."""
    for state in positions(name):
        for player in (0, 1):
            yield state.clone(), player


# -- the reference: the eager InfoSet as it was before issue #15 ---------------------------------


def _old_redeal(state: State, player: Player, rng: random.Random | None) -> State:
    for attempt in range(256):
        shuffle = rng if rng is not None else (random.Random(attempt) if attempt else None)
        world = _old_deal(state, player, shuffle)
        world.reseed_hidden(0 if rng is None else rng.getrandbits(63))
        if world._resync():
            return world
    raise RuntimeError("no consistent deal")


def _old_deal(state: State, player: Player, rng: random.Random | None) -> State:
    world = state.clone()
    world.forget_unseen(player)
    zones = world.card_zones()
    for group in world.hidden_cards(player):
        pool: list[int] = []
        for zone, indices in group:
            cards = zones[zone]
            pool.extend(cards if indices is None else [cards[i] for i in indices])
        pool.sort()
        if rng is not None:
            rng.shuffle(pool)
        start = 0
        for zone, indices in group:
            cards = zones[zone]
            if indices is None:
                cards[:] = pool[start : start + len(cards)]
                start += len(cards)
            else:
                for index in indices:
                    cards[index] = pool[start]
                    start += 1
    return world


class EagerReference:
    """The pre-#15 InfoSet: the canonical world built at once, everything read from it."""

    def __init__(self, state: State, player: Player) -> None:
        self.player = player
        self.legal_actions = tuple(state.legal_actions()) if state.current_player() == player else ()
        self.world = _old_redeal(state, player, None)
        self.observation = self.world.observation(player)
        self.game = self.world.game

    def sample_world(self, rng: random.Random) -> State:
        return _old_redeal(self.world, self.player, rng)


# -- (1) building an infoset builds nothing ------------------------------------------------------


class Counter:
    """Counts clones, deals and observations of one state class (all go through these)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, cls: type[State]) -> None:
        self.clones = self.deals = self.observations = 0

        def counting(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                setattr(self, name, getattr(self, name) + 1)
                return original(*args, **kwargs)

            return wrapper

        monkeypatch.setattr(cls, "clone", counting("clones", cls.clone))
        monkeypatch.setattr(cls, "observation", counting("observations", cls.observation))
        monkeypatch.setattr(core, "_deal", counting("deals", core._deal))

    @property
    def counts(self) -> tuple[int, int, int]:
        return (self.clones, self.deals, self.observations)


@pytest.mark.parametrize("name", IDS)
def test_building_an_infoset_clones_and_deals_nothing(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    state = positions(name)[1].clone()
    counter = Counter(monkeypatch, type(state))
    infoset = state.infoset(state.current_player() or 0)
    assert (infoset.player, infoset.game, infoset.legal_actions) == (
        state.current_player() or 0,
        state.game,
        tuple(state.legal_actions()),
    )
    assert counter.counts == (0, 0, 0)
    assert infoset.observation is infoset.observation  # read once, from the true state: no copy
    assert counter.counts == (0, 0, 1)
    world = infoset.canonical_world
    assert infoset.canonical_world is world and infoset._world is world  # built once
    clones, deals, _ = counter.counts
    assert clones >= 1 and deals >= 1
    infoset.sample_world(random.Random(1))
    assert counter.counts[1] > deals  # a sample is one more deal, the canonical world is not rebuilt


@pytest.mark.parametrize("name", every_game())
def test_play_match_with_random_agents_builds_no_world(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = GAMES[name]
    counter = Counter(monkeypatch, type(game.new_state(0)))
    record = play_match(game, (RandomAgent(), RandomAgent()), seed=3)
    assert record.decisions >= 2  # a whole game: Kuhn poker's shortest has two
    assert counter.counts == (0, 0, 0)


def test_observation_first_then_world_gives_the_same_observation() -> None:
    for name in IDS:
        for state, player in fresh(name):
            first, second = state.infoset(player), state.infoset(player)
            assert second.canonical_world  # built before the observation: read from the world
            assert first.observation == second.observation, name


# -- (2) a snapshot of the position at creation, or a clear refusal ------------------------------


@pytest.mark.parametrize("name", IDS)
def test_what_was_read_before_the_state_moved_on_stays(name: str) -> None:
    state = positions(name)[1].clone()
    player = state.current_player()
    assert player is not None
    reference = EagerReference(state, player)
    infoset = state.infoset(player)
    world, observation = infoset.canonical_world, infoset.observation
    while state.current_player() is not None:  # play the game out
        state.apply(state.legal_actions()[0])
    assert infoset.canonical_world is world
    assert world.position() == reference.world.position()
    assert infoset.observation == observation == reference.observation
    assert infoset.legal_actions == reference.legal_actions
    rng_a, rng_b = random.Random(7), random.Random(7)
    assert infoset.sample_world(rng_a).position() == reference.sample_world(rng_b).position()


@pytest.mark.parametrize("name", IDS)
def test_an_unread_infoset_refuses_once_the_state_moved_on(name: str) -> None:
    state = positions(name)[1].clone()
    player = state.current_player()
    assert player is not None
    infoset, other = state.infoset(player), state.infoset(1 - player)
    legal = infoset.legal_actions
    state.apply(state.legal_actions()[0])
    with pytest.raises(StaleInfoSetError, match="moved on"):
        _ = infoset.canonical_world
    with pytest.raises(StaleInfoSetError, match="moved on"):
        _ = infoset.observation
    with pytest.raises(StaleInfoSetError, match="moved on"):
        infoset.sample_world(random.Random(0))
    with pytest.raises(StaleInfoSetError):
        _ = other.observation
    assert infoset.legal_actions == legal and infoset.player == player  # still the old position's
    if state.current_player() is not None:  # a new infoset describes the new position
        assert state.infoset(0).canonical_world.position() == canonical_world(state, 0).position()


def test_a_refused_apply_does_not_stale_the_infoset() -> None:
    state = positions("edelweiss")[1].clone()
    infoset = state.infoset(0)
    with pytest.raises(ValueError):
        state.apply("NOT AN ACTION")
    assert infoset.canonical_world.position() == canonical_world(state, 0).position()


def test_an_infoset_of_a_clone_follows_the_clone_only() -> None:
    state = positions("aterial")[1].clone()
    copy = state.clone()
    infoset = copy.infoset(0)
    state.apply(state.legal_actions()[0])  # the original moves on, the clone does not
    assert infoset.canonical_world.position() == canonical_world(copy, 0).position()


def test_an_unread_infoset_refuses_once_the_state_is_gone() -> None:
    state = positions("dreadnought")[1].clone()
    infoset = state.infoset(0)
    del state
    gc.collect()
    with pytest.raises(StaleInfoSetError, match="dropped"):
        _ = infoset.canonical_world


def test_pickling_carries_the_world_not_the_state() -> None:
    state = positions("edelweiss")[2].clone()
    player = state.current_player()
    assert player is not None
    infoset = state.infoset(player)
    copy = pickle.loads(pickle.dumps(infoset))
    assert isinstance(copy, InfoSet)
    assert copy.canonical_world.position() == infoset.canonical_world.position()
    assert copy.observation == infoset.observation and copy.legal_actions == infoset.legal_actions


# -- (3) nothing reachable from an infoset tells the hidden deal ---------------------------------


def _mutable_parts(state: State) -> set[int]:
    """ids of the state and of every list, dict and set it holds (the card zones among them)."""
    found = {id(state)}
    stack: list[object] = list(vars(state).values())
    stack += [getattr(state, slot) for cls in type(state).__mro__ for slot in vars(cls).get("__slots__", ())]
    while stack:
        obj = stack.pop()
        if isinstance(obj, (list, dict, set)) and id(obj) not in found:
            found.add(id(obj))
            stack.extend(obj.values() if isinstance(obj, dict) else obj)
        elif isinstance(obj, tuple):
            stack.extend(obj)
    return found


@pytest.mark.parametrize("name", IDS)
def test_an_infoset_reaches_nothing_of_the_true_state(name: str) -> None:
    for state, player in fresh(name):
        secret = _mutable_parts(state) - _mutable_parts(state.clone())  # what a clone shares is static data
        assert id(state) in secret and all(id(cards) in secret for cards in state.card_zones().values())
        infoset = state.infoset(player)
        assert not secret & reachable(infoset, 20000), "a fresh InfoSet reaches the true state"
        assert all(getattr(infoset, attr) is not state for attr in dir(infoset) if not attr.startswith("_"))
        assert infoset.observation
        assert not secret & reachable(infoset, 20000), "the observation shares objects with the true state"
        infoset.sample_world(random.Random(0))
        assert not secret & reachable(infoset, 20000), "the world shares objects with the true state"
        assert infoset._InfoSet__source is None  # type: ignore[attr-defined]  # the weak reference is gone
        assert vars(infoset) == {}


@pytest.mark.parametrize("name", IDS)
def test_deals_that_differ_only_in_hidden_cards_give_the_same_infoset(name: str) -> None:
    differed = 0
    for index, (state, player) in enumerate(fresh(name)):
        twin = sample_world(state, player, random.Random(index))  # the same for `player`, another deal
        differed += twin.position() != state.position()
        mine, theirs = state.infoset(player), twin.infoset(player)
        assert mine.legal_actions == theirs.legal_actions
        assert mine.observation == theirs.observation
        assert mine.canonical_world.position() == theirs.canonical_world.position()
        for seed in (0, 1):
            rng_a, rng_b = random.Random(seed), random.Random(seed)
            assert mine.sample_world(rng_a).position() == theirs.sample_world(rng_b).position()
            assert rng_a.random() == rng_b.random()
    assert differed, "no position had a hidden card to re-deal: the test proves nothing"


# -- (4) the same answers as the eager InfoSet -----------------------------------------------------


@pytest.mark.parametrize("name", IDS)
def test_observation_of_the_true_state_is_the_canonical_worlds(name: str) -> None:
    for state, player in fresh(name):
        assert state.observation(player) == canonical_world(state, player).observation(player)


@pytest.mark.parametrize("name", IDS)
def test_infoset_answers_as_the_eager_infoset_did(name: str) -> None:
    for index, (state, player) in enumerate(fresh(name)):
        reference, infoset = EagerReference(state, player), state.infoset(player)
        assert infoset.player == reference.player and infoset.game is reference.game
        assert infoset.legal_actions == reference.legal_actions
        assert infoset.observation == reference.observation
        assert infoset.canonical_world.position() == reference.world.position()
        assert infoset.canonical_world.legal_actions() == reference.world.legal_actions()
        for seed in (index, index + 1000):
            rng_a, rng_b = random.Random(seed), random.Random(seed)
            new, old = infoset.sample_world(rng_a), reference.sample_world(rng_b)
            assert new.position() == old.position() and new.legal_actions() == old.legal_actions()
            assert rng_a.getstate() == rng_b.getstate()  # the same draws consumed


@pytest.mark.parametrize("name", [name for name in IDS if GAMES[name].heuristic() is not None])
@pytest.mark.parametrize("spec", ["heuristic:epsilon=0.2", "ismcts:iterations=12"])
def test_agents_choose_as_with_the_eager_infoset(name: str, spec: str) -> None:
    for index, state in enumerate(positions(name)[1::4]):
        player = state.current_player()
        if player is None:
            continue
        reference = EagerReference(state, player)
        eager = InfoSet(player, reference.legal_actions, reference.world)
        copy = state.clone()  # kept alive: the infoset holds its state weakly
        lazy = copy.infoset(player)
        assert make_agent(spec).act(lazy, random.Random(index)) == make_agent(spec).act(eager, random.Random(index))
