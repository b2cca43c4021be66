"""The determinized rollout search (`pimc`): whole decisions, the heuristic as yardstick, information sets only."""

from __future__ import annotations

import random

import pytest

from cardlab.agents import AgentSpecError, make_agent
from cardlab.agents.pimc import PIMCAgent, whole_decisions
from cardlab.core.game import State
from cardlab.games import game_class
from cardlab.sim.positions import reached_positions

TCGS = ("aterial", "dreadnought")


def _positions(name: str, count: int, seed: int = 7) -> list[State]:
    return reached_positions(name, count, seed, steps=(10, 80))


def _play(state: State, actions: tuple[object, ...]) -> State:
    world = state.clone()
    for action in actions:
        world.apply(action)  # type: ignore[arg-type]
    return world


@pytest.mark.parametrize("name", TCGS)
def test_whole_decisions_are_legal_sequences_that_finish_the_choice(name: str) -> None:
    """Each whole decision starts with a legal action and ends where the player's choice does."""
    policy = game_class(name).heuristic()
    assert policy is not None
    compound = 0
    for state in _positions(name, 12):
        player = state.current_player()
        decisions = whole_decisions(state, policy, random.Random(1), width=12)
        assert len(set(decisions)) == len(decisions)
        assert {decision[0] for decision in decisions} == set(state.legal_actions())  # every first action
        own = policy(state.clone(), random.Random(1))
        assert decisions[0][0] == own  # the heuristic's own decision comes first
        for decision in decisions:
            after = _play(state, decision)
            assert not (after.current_player() == player and after.continues_decision())
            compound += len(decision) > 1
    assert compound > 0  # some choices here took a destination, a target or a payment


def test_aterial_deploy_and_its_square_are_one_decision() -> None:
    """A11.3: DEPLOY names a card, then the square (`continues_decision`); the search lists both together."""
    policy = game_class("aterial").heuristic()
    assert policy is not None
    for state in _positions("aterial", 40):
        deploys = [a for a in state.legal_actions() if str(a).startswith("DEPLOY")]
        if not deploys:
            continue
        child = state.clone()
        child.apply(deploys[0])
        assert child.continues_decision() and child.current_player() == state.current_player()
        decisions = whole_decisions(state, policy, random.Random(0), width=64)
        squares = {d for d in decisions if d[0] == deploys[0]}
        assert squares == {(deploys[0], to) for to in child.legal_actions()}
        return
    pytest.fail("no deploy choice reached")


def test_dreadnought_a_cast_continues_with_its_place_and_payment() -> None:
    """D8.2 and D22.8: a card cast, then its battle area and cost sources, is one decision."""
    continued = set()
    for state in _positions("dreadnought", 40, seed=3):
        for action in state.legal_actions():
            child = state.clone()
            child.apply(action)
            if child.current_player() == state.current_player() and child.continues_decision():
                continued.add(child.stack[-1][0])  # type: ignore[attr-defined]
    assert continued and continued <= {"dest", "move_to", "target", "pay_src", "pay_discard"}


@pytest.mark.parametrize("name", TCGS)
def test_with_an_unreachable_margin_it_plays_the_heuristic(name: str) -> None:
    """The heuristic's choice is the yardstick: no other is taken unless it wins by `margin`."""
    agent = make_agent("pimc:worlds=2:depth=8:margin=1000000", name)
    policy = game_class(name).heuristic()
    assert policy is not None
    for state in _positions(name, 8):
        player = state.current_player()
        assert player is not None
        assert agent.act(state.infoset(player), random.Random(2)) == policy(state.clone(), random.Random(0))


@pytest.mark.parametrize("name", TCGS)
def test_it_reads_the_information_set_only(name: str) -> None:
    """Two true states the player cannot tell apart (a re-deal of the unknown cards) get the same move."""
    agent = make_agent("pimc:worlds=3:depth=10", name)
    for state in _positions(name, 6, seed=11):
        player = state.current_player()
        assert player is not None
        other = state.infoset(player).sample_world(random.Random(5))
        first = agent.act(state.infoset(player), random.Random(9))
        assert agent.act(other.infoset(player), random.Random(9)) == first


def test_a_worlds_budget_is_deterministic_for_its_rng() -> None:
    agent = make_agent("pimc:worlds=4", "aterial")
    for state in _positions("aterial", 4, seed=5):
        player = state.current_player()
        assert player is not None
        answers = {agent.act(state.infoset(player), random.Random(3)) for _ in range(2)}
        assert len(answers) == 1


def test_it_beats_the_heuristic_it_improves_on() -> None:
    """Seat-swapped Aterial deals; the ladders in docs/agents.md measure this at 200 games and more."""
    from cardlab.sim.match import play_match

    game = game_class("aterial")()
    search, heuristic = make_agent("pimc:worlds=4", "aterial"), make_agent("heuristic")
    wins = 0
    for deal in range(3):
        wins += play_match(game, (search, heuristic), deal, keep_actions=False).winner == 0
        wins += play_match(game, (heuristic, search), deal, keep_actions=False).winner == 1
    assert wins >= 5


def test_specs_are_checked_against_the_game() -> None:
    assert make_agent("pimc").spec == "pimc"
    assert make_agent("pimc:worlds=6:depth=20").spec == "pimc:worlds=6:depth=20"
    with pytest.raises(AgentSpecError, match="needs the game's position estimate, and edelweiss has none"):
        make_agent("pimc:depth=5", "edelweiss")
    with pytest.raises(AgentSpecError, match="give worlds >= 1 or time > 0"):
        make_agent("pimc:worlds=0")
    with pytest.raises(AgentSpecError, match="width must be 1 to 64"):
        make_agent("pimc:width=1000")


def test_edelweiss_plays_it_too_without_compound_decisions() -> None:
    """A game with no continuations: every legal action is a whole decision."""
    agent = PIMCAgent(worlds=2)
    game = game_class("edelweiss")()
    state = game.new_state(3, record_events=False)
    while state.current_player() is not None:
        player = state.current_player()
        assert player is not None
        state.apply(agent.act(state.infoset(player), random.Random(1)))
    assert state.outcome() is not None


@pytest.mark.parametrize("name", TCGS)
def test_the_position_estimate_reads_public_material_only(name: str) -> None:
    """The estimate is a chance: the two players' add to one, it ignores unknown cards, a finished game is 1 or 0."""
    evaluate = game_class(name).evaluator()
    assert evaluate is not None
    for state in _positions(name, 6):
        player = state.current_player()
        assert player is not None
        value = evaluate(state, player)
        assert 0 < value < 1 and value + evaluate(state, 1 - player) == pytest.approx(1.0)
        for seat in (0, 1):
            redealt = state.infoset(seat).sample_world(random.Random(4))
            assert evaluate(redealt, player) == pytest.approx(value)
    finished = game_class(name)().new_state(1, record_events=False)
    policy = game_class(name).heuristic()
    assert policy is not None
    while finished.current_player() is not None:
        finished.apply(policy(finished, random.Random(0)))
    outcome = finished.outcome()
    assert outcome is not None and outcome.winner is not None
    assert evaluate(finished, outcome.winner) == 1.0 and evaluate(finished, 1 - outcome.winner) == 0.0


@pytest.mark.parametrize("name", TCGS)
def test_it_answers_legally_anywhere_random_play_goes_mid_decision_included(name: str) -> None:
    """Positions from random play, half-way through a decision too: a legal answer every time."""
    game = game_class(name)()
    agent = make_agent("pimc:worlds=1:depth=3:width=6", name)
    rng = random.Random(13)
    asked = continuing = 0
    while asked < 40:
        state = game.new_state(rng.getrandbits(32), record_events=False)
        for _ in range(rng.randrange(1, 150)):
            if state.current_player() is None:
                break
            state.apply(rng.choice(state.legal_actions()))
        player = state.current_player()
        if player is None:
            continue
        continuing += state.continues_decision()
        assert agent.act(state.infoset(player), random.Random(asked)) in state.legal_actions()
        asked += 1
    assert continuing > 0


def test_a_few_equal_differences_are_not_certain() -> None:
    """`_pick` adds one tied world as a prior: two worlds where another choice beat the heuristic's by
    the same amount have no spread, yet are no reason at margin 2; ten such worlds are."""
    agent = PIMCAgent(margin=2.0)
    assert agent._pick([[0.0, 0.0], [1.0, 1.0]], [0, 1]) == 0
    assert agent._pick([[0.0] * 10, [1.0] * 10], [0, 1]) == 1
    assert PIMCAgent(margin=0.5)._pick([[0.0, 0.0], [1.0, 1.0]], [0, 1]) == 1


def test_depth_plays_exactly_that_many_decisions_before_the_estimate() -> None:
    """`depth=N`: N heuristic actions after the choice, then the game's estimate is the score."""
    policy = game_class("aterial").heuristic()
    assert policy is not None
    calls: list[int] = []

    def counting(world: State, rng: random.Random) -> object:
        calls.append(1)
        return policy(world, rng)

    state = _positions("aterial", 1, seed=3)[0]
    player = state.current_player()
    assert player is not None
    for depth in (1, 3):
        calls.clear()
        score = PIMCAgent(depth=depth)._score(state.clone(), (), player, counting, lambda world, me: 0.25, 1)
        assert (len(calls), score) == (depth, 0.25)
