"""The Edelweiss heuristic: E11's summon policy and a sensible choice in every other window."""

from __future__ import annotations

import random

import pytest

from cardlab.agents import make_agent
from cardlab.games.edelweiss import Edelweiss, EdelweissAction, EdelweissConfig
from cardlab.games.edelweiss.heuristic import choose

A = EdelweissAction
GAME = Edelweiss()


def _main_step(p1_hand: list[str], p1_field: list[str], p2_field: list[str]) -> object:
    """A P1 main step with the given cards (deck padding keeps the game going)."""
    used = set(p1_hand) | {c.split(":")[0] for c in p1_field + p2_field}
    deck = [c for c in ("2D", "3D", "4D", "5D", "6D", "7D") if c not in used]
    return GAME.load_position({
        "game": "edelweiss", "config": {"deck": "full", "standard": None, "characters": None},
        "turn": 3, "turn_player": "P1", "window": "main", "deck": deck, "discard": [],
        "players": {"P1": {"hand": p1_hand, "field": p1_field}, "P2": {"hand": ["8D"], "field": p2_field}},
        "attack": None, "winner": None,
    })  # fmt: skip


@pytest.mark.parametrize(
    ("hand", "mine", "theirs", "expected"),
    [
        # E11.2 defend: oppS >= 1 and oppS + oppC >= myH -> heart.
        (["2S", "3H", "4C"], [], ["5S:T"], A.SUMMON_H),
        (["2S", "3H", "4C"], ["6H:U"], ["5S:T", "7C:U"], A.SUMMON_H),
        # Defend wanted but no heart in hand -> fallback spade, then club (E11.5).
        (["2S", "4C"], [], ["5S:T"], A.SUMMON_S),
        # E11.3 support: myH >= oppS + oppC + 1 and oppH <= 1 -> club.
        (["2S", "3H", "4C"], ["6H:U", "7H:T"], ["5S:T"], A.SUMMON_C),
        # E11.3 support: own spade on field, none in hand -> club.
        (["3H", "4C"], ["6S:T"], [], A.SUMMON_C),
        # Support wanted, no club -> spade before heart (E11.5).
        (["3H", "5S"], ["6H:U", "7H:T"], ["8S:T"], A.SUMMON_S),
        # E11.4 default: spade.
        (["2S", "3H", "4C"], [], [], A.SUMMON_S),
        # Default wanted, no spade -> heart before club.
        (["3H", "4C"], [], [], A.SUMMON_H),
    ],
)
def test_e11_summon_policy(hand: list[str], mine: list[str], theirs: list[str], expected: A) -> None:
    state = _main_step(hand, mine, theirs)
    assert state.position()["window"] == "main"
    assert choose(state, random.Random(0)) == expected


def _play_heuristic_game(config: EdelweissConfig, seed: int) -> list[tuple[str, tuple[A, ...], A]]:
    """Heuristic self-play, returning (window, legal, choice) at every decision."""
    state = Edelweiss(config).new_state(seed, record_events=False)
    agent, rng, trace = make_agent("heuristic"), random.Random(seed), []
    while (player := state.current_player()) is not None:
        legal = state.legal_actions()
        action = agent.act(state.infoset(player), rng)
        trace.append((state.position()["window"], legal, action))
        state.apply(action)
    return trace


@pytest.mark.parametrize("config", [EdelweissConfig("full"), EdelweissConfig("skills", "symbolic"),
                                    EdelweissConfig("skills", "accel2")])  # fmt: skip
def test_heuristic_always_legal_and_never_gives_up_a_defense(config: EdelweissConfig) -> None:
    decisions = 0
    for seed in range(60):
        for window, legal, action in _play_heuristic_game(config, seed):
            decisions += 1
            assert action in legal
            if window == "defense":
                assert action != A.NO_DEFENSE  # NO_DEFENSE is never the only option at a decision
            if window == "attack":
                assert action == A.ATTACK
            if window == "counter" and A.PROTECT in legal:
                assert action == A.PROTECT
    assert decisions > 600


def test_heuristic_beats_random_clearly() -> None:
    """Not a strength benchmark (see docs/agents.md) but a guard against a broken policy."""
    from cardlab.sim import play_match

    game = Edelweiss(EdelweissConfig("skills", "symbolic"))
    heuristic, rand = make_agent("heuristic"), make_agent("random")
    wins = 0
    for index in range(200):
        first_is_heuristic = index % 2 == 0
        record = play_match(game, (heuristic, rand) if first_is_heuristic else (rand, heuristic), index // 2)
        wins += (record.winner == 0) == first_is_heuristic
    assert wins >= 170


def test_epsilon_mixes_in_random_moves() -> None:
    """`heuristic:epsilon=E` plays a random legal move with probability E, else the heuristic (docs/balance.md)."""
    from cardlab.agents import AgentSpecError

    assert make_agent("heuristic:epsilon=0").spec == "heuristic"
    assert make_agent("heuristic:epsilon=0.1").spec == "heuristic:epsilon=0.1"
    with pytest.raises(AgentSpecError, match="between 0 and 1"):
        make_agent("heuristic:epsilon=1.5")
    game = Edelweiss(EdelweissConfig("skills", "accel2"))
    differs = {0.0: 0, 1.0: 0}
    decisions = 0
    for seed in range(30):
        state = game.new_state(seed, record_events=False)
        rng = random.Random(seed)
        while (player := state.current_player()) is not None:
            infoset = state.infoset(player)
            rule = choose(infoset.canonical_world, random.Random(0))
            for epsilon in differs:
                action = make_agent(f"heuristic:epsilon={epsilon:g}").act(infoset, random.Random(seed))
                differs[epsilon] += action != rule
            state.apply(rng.choice(state.legal_actions()))
            decisions += 1
    assert differs[0.0] == 0, "epsilon 0 is the heuristic"
    assert 0.3 * decisions < differs[1.0] < 0.8 * decisions, (differs, decisions)  # random: about half differ
