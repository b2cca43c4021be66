"""ISMCTS: finds forced wins, is deterministic for a seed, honours its budgets."""

from __future__ import annotations

import random

import pytest

from cardlab.agents import make_agent
from cardlab.games.edelweiss import Edelweiss, EdelweissAction, EdelweissConfig

A = EdelweissAction


def _position(p1_field: list[str], p2_hand: list[str], p2_field: list[str]) -> dict:
    return {
        "game": "edelweiss", "config": {"deck": "full", "standard": None, "characters": None},
        "turn": 5, "turn_player": "P1", "window": "attack",
        "deck": ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"], "discard": [],
        "players": {"P1": {"hand": ["2H"], "field": p1_field}, "P2": {"hand": p2_hand, "field": p2_field}},
        "attack": None, "winner": None,
    }  # fmt: skip


@pytest.mark.parametrize("spec", ["ismcts:iterations=50", "ismcts:iterations=100:rollout=heuristic"])
def test_finds_the_winning_attack(spec: str) -> None:
    """P2 has no hand card, no upright heart and no Lionheart: ATTACK wins at once (E6.1)."""
    state = Edelweiss().load_position(_position(["10S:U"], [], ["4C:T", "9H:T"]))
    assert state.legal_actions() == (A.ATTACK, A.END_TURN)
    assert make_agent(spec).act(state.infoset(0), random.Random(3)) == A.ATTACK


def test_finds_the_defense_that_survives() -> None:
    """Facing an attack with a block available, ISMCTS never chooses NO_DEFENSE (it loses)."""
    position = _position(["10S:T", "8C:T"], ["3D"], ["9H:U"])
    position.update(window="defense", attack={"spade": "10S", "defense": None, "guard_card": None,
                                              "blocker": None, "counter": False, "pursuit_club": None})  # fmt: skip
    state = Edelweiss().load_position(position)
    assert A.NO_DEFENSE in state.legal_actions() and A.BLOCK in state.legal_actions()
    choice = make_agent("ismcts:iterations=200").act(state.infoset(1), random.Random(0))
    assert choice in (A.BLOCK, A.GUARD_D)


def test_deterministic_for_a_seed_with_an_iteration_budget() -> None:
    game = Edelweiss(EdelweissConfig("skills", "accel2"))
    for seed in range(5):
        state = game.new_state(seed)
        infoset = state.infoset(state.current_player())
        choices = {make_agent("ismcts:iterations=120").act(infoset, random.Random(seed)) for _ in range(3)}
        assert len(choices) == 1
        assert choices <= set(infoset.legal_actions)


def test_time_budget_returns_a_legal_action() -> None:
    state = Edelweiss().new_state(4)
    infoset = state.infoset(state.current_player())
    assert make_agent("ismcts:time=0.01").act(infoset, random.Random(0)) in infoset.legal_actions


def test_plays_whole_games_against_the_heuristic() -> None:
    from cardlab.sim import play_match

    game = Edelweiss(EdelweissConfig("skills", "symbolic"))
    agents = (make_agent("ismcts:iterations=30"), make_agent("heuristic"))
    records = [play_match(game, agents if seed % 2 else agents[::-1], seed) for seed in range(4)]
    assert all(record.winner in (0, 1) for record in records)
    assert records == [play_match(game, agents if seed % 2 else agents[::-1], seed) for seed in range(4)]


def test_fast_rollouts_use_the_kernel_and_still_find_the_win() -> None:
    pytest.importorskip("numba")
    state = Edelweiss().load_position(_position(["10S:U"], [], ["4C:T", "9H:T"]))
    assert make_agent("ismcts:iterations=60:rollout=fast").act(state.infoset(0), random.Random(3)) == A.ATTACK
    game = Edelweiss(EdelweissConfig("skills", "accel2"))
    state = game.new_state(11)
    infoset = state.infoset(state.current_player())
    choices = {make_agent("ismcts:iterations=50:rollout=fast").act(infoset, random.Random(5)) for _ in range(2)}
    assert len(choices) == 1 and choices <= set(infoset.legal_actions)  # deterministic for a seed


def test_fast_rollouts_are_refused_for_a_game_without_a_kernel() -> None:
    from cardlab.games.aterial import Aterial

    state = Aterial().new_state(1)
    with pytest.raises(ValueError, match="no fast rollout for 'aterial'"):
        make_agent("ismcts:iterations=5:rollout=fast").act(state.infoset(state.current_player()), random.Random(0))


def test_a_game_is_checked_when_the_agent_is_built() -> None:
    """`make_agent(spec, game)` refuses a rollout the game does not have before any decision."""
    from cardlab.agents import AgentSpecError

    with pytest.raises(AgentSpecError, match="no fast rollout for 'dreadnought'"):
        make_agent("ismcts:iterations=5:rollout=fast", "dreadnought")
    assert (
        make_agent("ismcts:iterations=5:rollout=heuristic", "aterial").spec == "ismcts:iterations=5:rollout=heuristic"
    )


def test_one_agent_plays_two_games_with_each_games_rollout() -> None:
    """The rollout policy is resolved per game: the same agent moves in Edelweiss, then in Aterial."""
    from cardlab.games.aterial import Aterial

    agent = make_agent("ismcts:iterations=4:rollout=heuristic")
    for state in (Edelweiss().new_state(2), Aterial().new_state(2)):
        infoset = state.infoset(state.current_player())
        assert agent.act(infoset, random.Random(0)) in infoset.legal_actions


def test_max_seconds_caps_an_iteration_budget() -> None:
    """A server's cap stops the search early however many iterations the spec asks for."""
    import time

    from cardlab.agents import cap_thinking

    state = Edelweiss(EdelweissConfig("skills", "accel2")).new_state(3)
    infoset = state.infoset(state.current_player())
    agent = make_agent("ismcts:iterations=10000000")
    cap_thinking(agent, 0.05)
    start = time.perf_counter()
    assert agent.act(infoset, random.Random(0)) in infoset.legal_actions
    assert time.perf_counter() - start < 30, "ten million iterations would take hours"


def test_one_agent_moves_in_every_game_in_turn() -> None:
    """One agent, its rollout policy resolved per game: Edelweiss, Aterial, Dreadnought, then Edelweiss
    again under another config. A cache that ignored the game would roll Aterial out with Edelweiss's
    heuristic and fail."""
    from cardlab.games.aterial import Aterial
    from cardlab.games.dreadnought import Dreadnought

    agent = make_agent("ismcts:iterations=3:rollout=heuristic")
    games = (Edelweiss(), Aterial(), Dreadnought(), Edelweiss(EdelweissConfig("skills", "accel2")))
    for seed, game in enumerate(games):
        state = game.new_state(seed)
        player = state.current_player()
        assert player is not None
        infoset = state.infoset(player)
        assert len(infoset.legal_actions) > 1, game.name  # a real decision: the search and its rollouts run
        assert agent.act(infoset, random.Random(seed)) in infoset.legal_actions, game.name


def test_depth_cuts_rollouts_and_asks_the_games_estimate(monkeypatch: pytest.MonkeyPatch) -> None:
    """`depth=N`: a rollout stops after N actions and `Game.evaluator` judges the position instead."""
    from cardlab.agents import AgentSpecError
    from cardlab.games import game_class

    cls = game_class("aterial")
    real = cls.evaluator()
    assert real is not None
    asked: list[float] = []

    def counting(state: object, player: int) -> float:
        asked.append(value := real(state, player))  # type: ignore[arg-type]
        return value

    monkeypatch.setattr(cls, "evaluator", classmethod(lambda _: counting))
    state = cls().new_state(2, record_events=False)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    player = state.current_player()
    assert player is not None
    for spec, estimated in (("ismcts:iterations=30", False), ("ismcts:iterations=30:depth=3", True)):
        asked.clear()
        action = make_agent(spec, "aterial").act(state.infoset(player), random.Random(1))
        assert action in state.legal_actions() and bool(asked) == estimated
    assert len(asked) == 30 and all(0 < value < 1 for value in asked)  # every iteration cut short, none at the end
    with pytest.raises(AgentSpecError, match="edelweiss has none"):
        make_agent("ismcts:depth=5", "edelweiss")
    with pytest.raises(AgentSpecError, match="not rollout=fast"):
        make_agent("ismcts:depth=5:rollout=fast")
    with pytest.raises(AgentSpecError, match="plays its rollouts to the end"):
        make_agent("ismcts:depth=5:backend=cpu", "edelweiss")


def test_availability_counts_keep_the_search_exploring() -> None:
    """SO-ISMCTS's UCB uses each move's availability (how often it was legal when its parent was visited) in
    place of the parent's visits: at the root every legal move is legal in every sampled world, so each
    child's availability is the root's visits after its expansion, and with a large exploration constant
    every move keeps being visited (a search whose availabilities stopped growing would turn greedy)."""
    from cardlab.agents.ismcts import ISMCTSAgent, _Node

    state = Edelweiss(EdelweissConfig(deck="full")).new_state(seed=3)
    while len(state.legal_actions()) < 3:
        state.apply(state.legal_actions()[0])
    infoset = state.infoset(state.current_player())
    agent = ISMCTSAgent(iterations=1, c=20.0)
    agent.prepare("edelweiss")
    policy, fast = agent._rollouts["edelweiss"]
    root, rng = _Node(None), random.Random(5)
    for _ in range(300):
        agent._iterate(root, infoset.sample_world(rng), rng, policy, fast, None)
    children = root.children
    assert set(children) == set(infoset.legal_actions)
    expanded_at = {action: root.visits - child.available for action, child in children.items()}
    assert all(0 <= when < len(children) for when in expanded_at.values())  # each tried once before any twice
    assert min(child.visits for child in children.values()) > 300 / (4 * len(children))


def test_a_cut_rollout_backs_up_the_estimate_for_the_player_who_moved() -> None:
    """`depth`: the estimate is P1's chance of winning, so a move by P1 earns it and a move by P2 its
    complement; reading it from P2's side would reward every move of the player the estimate dooms."""
    from cardlab.agents.ismcts import ISMCTSAgent, _Node
    from cardlab.games import game_class

    state = game_class("aterial")().new_state(2, record_events=False)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    player = state.current_player()
    assert player is not None
    infoset = state.infoset(player)
    agent = ISMCTSAgent(iterations=1, depth=1)
    agent.prepare("aterial")
    policy, fast = agent._rollouts["aterial"]

    def p1_wins_for_sure(world: object, seat: int) -> float:
        return 1.0 if seat == 0 else 0.0

    root, rng = _Node(None), random.Random(4)
    for _ in range(40):
        agent._iterate(root, infoset.sample_world(rng), rng, policy, fast, p1_wins_for_sure)
    assert root.children
    for child in root.children.values():
        assert child.reward == (child.visits if child.player == 0 else 0.0)
