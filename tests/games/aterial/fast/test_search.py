"""The compiled ISMCTS for Aterial (`ismcts:...:backend=cpu`, issue #34 item 3): legal, leak-proof, deterministic.

- Determinization (A18.4, `AterialState.hidden_cards`): each iteration keeps everything the searcher may
  know (fields, LP, discards, removed cards, its own hand, every zone's size) and re-deals only its own
  deck's order and the opponent's hand pooled with the opponent's deck; a card the opponent picked to
  deploy (window deploy_to, A11.4) stays put.
- Twin worlds: two true states with the same information set give the same worlds, so the same choice.
- Whole kernel games with search seats are a function of (seed, game) only, whatever the threads.
- The search plays: it beats random clearly, and the kernel's agent batch plays the heuristic's own game.
- A spec the kernel cannot play is a CardlabError naming what is wrong.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

numba = pytest.importorskip("numba")

from cardlab.agents import make_agent  # noqa: E402
from cardlab.cli import main  # noqa: E402
from cardlab.core.errors import CardlabError  # noqa: E402
from cardlab.fast.rng import new_rng  # noqa: E402
from cardlab.games.aterial.fast import cpu as k  # noqa: E402
from cardlab.games.aterial.fast import heuristic as hk  # noqa: E402
from cardlab.games.aterial.fast import search as s  # noqa: E402
from cardlab.games.aterial.game import Aterial  # noqa: E402
from cardlab.games.aterial.state import W_DEPLOY_TO, AterialState  # noqa: E402
from cardlab.sim.engines import check_engine  # noqa: E402

SEARCH = "ismcts:iterations=30:rollout=heuristic:backend=cpu"


def midgame_states(count: int, seed: int) -> list[AterialState]:
    """Reference states at decision points reached by mixed random and heuristic play (every window)."""
    rng = random.Random(seed)
    game = Aterial()
    states = []
    while len(states) < count:
        state = game.new_state(rng.getrandbits(32), record_events=False)
        for _ in range(rng.randrange(0, 160)):
            if state.current_player() is None:
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.current_player() is not None:
            states.append(state)
    return states


def known_part(row: np.ndarray, me: int) -> tuple:
    """What `me` may know of a kernel row: the row without both decks and the opponent's hand, plus the
    opponent's pool (hand and deck) and `me`'s deck as multisets of instances (A18.4)."""
    opp = 1 - me
    kept = row.copy()
    for p in (0, 1):
        kept[k.DECK + 64 * p : k.DECK + 64 * (p + 1)] = -9
    kept[k.HAND + 64 * opp : k.HAND + 64 * (opp + 1)] = -9
    own_deck = sorted(int(v) for v in row[k.DECK + 64 * me : k.DECK + 64 * me + row[k.NDECK + me]])
    pool = [int(v) for v in row[k.HAND + 64 * opp : k.HAND + 64 * opp + row[k.NHAND + opp]]]
    pool += [int(v) for v in row[k.DECK + 64 * opp : k.DECK + 64 * opp + row[k.NDECK + opp]]]
    return tuple(kept), tuple(own_deck), tuple(sorted(pool))


def buffers() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    return (
        np.zeros(k.ROW_SIZE, dtype=np.int64),
        np.zeros(128, dtype=np.int64),
        np.zeros(128, dtype=np.int64),
        np.zeros(64, dtype=np.int64),
    )


def test_determinization_keeps_what_the_searcher_knows_and_redeals_the_rest() -> None:
    """A18.4: own deck order, and the opponent's hand with their deck, are all that change."""
    redealt = Counter[str]()
    for index, state in enumerate(midgame_states(40, seed=1)):
        me = state.current_player()
        assert me is not None
        root, _ = k.load_state(state)
        row, slots, pool, mark = buffers()
        rng = new_rng(index)
        before = known_part(root, me)
        opp = 1 - me
        for _ in range(12):
            s._determinize(row, root, me, rng, slots, pool, mark)
            assert known_part(row, me) == before  # same knowledge, same sizes, same unseen instances
            own = slice(k.DECK + 64 * me, k.DECK + 64 * me + root[k.NDECK + me])
            theirs = slice(k.HAND + 64 * opp, k.HAND + 64 * opp + root[k.NHAND + opp])
            redealt["own deck"] += not np.array_equal(row[own], root[own])
            redealt["their hand"] += not np.array_equal(row[theirs], root[theirs])
    assert redealt["own deck"] > 100 and redealt["their hand"] > 100, redealt


def test_a_card_the_opponent_picked_to_deploy_stays_in_its_slot() -> None:
    """A11.4: at deploy_to the chosen card is known (it is about to be shown); the rest of the hand is not."""
    game = Aterial()
    for seed in range(200):
        state = game.new_state(seed, record_events=False)
        rng = random.Random(seed)
        while state.current_player() is not None and state.window != W_DEPLOY_TO:
            state.apply(rng.choice(state.legal_actions()))
        if state.window == W_DEPLOY_TO and len(state.hands[state.active]) > 2:
            break
    else:
        pytest.fail("no deploy_to window with a hand of three or more in 200 random games")
    root, _ = k.load_state(state)
    watcher = 1 - state.active
    hand = k.HAND + 64 * state.active
    at = hand + state.hands[state.active].index(state.selected)
    others = [hand + i for i in range(len(state.hands[state.active])) if hand + i != at]
    row, slots, pool, mark = buffers()
    rng = new_rng(1)
    changed = 0
    for _ in range(50):
        s._determinize(row, root, watcher, rng, slots, pool, mark)
        assert row[at] == state.selected
        assert known_part(row, watcher) == known_part(root, watcher)
        changed += not np.array_equal(row[others], root[others])
    assert changed > 40, "the rest of the hand is re-dealt"


def test_twin_worlds_get_the_same_choice() -> None:
    """Two true states that P to move cannot tell apart: the same worlds, the same search, the same answer."""
    checked = 0
    agent = make_agent(SEARCH, "aterial")
    for index, state in enumerate(midgame_states(24, seed=2)):
        me = state.current_player()
        assert me is not None
        twin = state.infoset(me).sample_world(random.Random(index))
        first, tab = k.load_state(state)
        second, _ = k.load_state(twin)
        if np.array_equal(first, second):
            continue
        checked += 1
        worlds = []
        for root in (first, second):
            row, slots, pool, mark = buffers()
            s._determinize(row, root, me, new_rng(index), slots, pool, mark)
            worlds.append(row)
        assert np.array_equal(worlds[0], worlds[1]), "a world remembers where a hidden card really was"
        assert s.search_action(first, tab, 60, seed=index) == s.search_action(second, tab, 60, seed=index)
        a = agent.act(state.infoset(me), random.Random(index))
        b = agent.act(twin.infoset(me), random.Random(index))
        assert a == b and a in state.legal_actions()
    assert checked > 15, "the twins differ in their hidden cards"


def test_the_search_always_returns_a_legal_action() -> None:
    out = np.empty(512, dtype=np.int64)
    tree = s.Tree(61)
    for index, state in enumerate(midgame_states(40, seed=3)):
        root, tab = k.load_state(state)
        legal = {int(a) for a in out[: k.legal_actions(root, tab, out)]}
        assert legal == {int(a) for a in state.legal_actions()}
        for rollout in ("random", "heuristic"):
            assert s.search_action(root, tab, 60, rollout=rollout, seed=index, tree=tree) in legal
    timed = make_agent("ismcts:time=0.005:rollout=heuristic:backend=cpu", "aterial")
    state = midgame_states(1, seed=4)[0]
    assert timed.act(state.infoset(state.current_player()), random.Random(1)) in state.legal_actions()


def test_stopping_early_returns_the_full_searchs_move() -> None:
    stopped = 0
    for index, state in enumerate(midgame_states(30, seed=5)):
        root, tab = k.load_state(state)
        full = s.search_action(root, tab, 200, rollout="heuristic", seed=index, stop_early=False)
        tree = s.Tree(201)
        assert s.search_action(root, tab, 200, rollout="heuristic", seed=index, tree=tree) == full
        stopped += int(tree.visits[0]) < 200
    assert stopped > 5, "the shortcut is taken in clear positions"


def test_the_compiled_estimate_is_the_heuristics_evaluate() -> None:
    """`heuristic.evaluate` (material from LP, units' cost and HP left, hand sizes), where `ismcts:depth=D`
    cuts a rollout short, is the same number on the kernel's row at every decision and at the end (A15)."""
    from cardlab.games.aterial.heuristic import evaluate

    rng = random.Random(12)
    compared = ended = 0
    for config in ({}, {"rules": {"retaliation": "yes"}}, {"patches": ["S11.hp=4", "L01.lp=18"]}):
        game = Aterial.from_config(config)
        for _ in range(8):
            state = game.new_state(rng.getrandbits(32), record_events=False)
            while True:
                root, tab = k.load_state(state)
                for player in (0, 1):
                    assert hk.evaluate(root, tab, player) == pytest.approx(evaluate(state, player), abs=1e-12)
                compared += 1
                if state.current_player() is None:
                    ended += 1
                    break
                state.apply(rng.choice(state.legal_actions()))
    assert compared > 1000 and ended == 24


def test_a_depth_cut_search_stops_its_rollouts_and_asks_the_estimate() -> None:
    """With `depth` longer than any game the search is the uncut one, move for move (a game's end scores 1,
    0 or a draw's 0.5 either way); a one-action cut changes the backups, so some choices differ."""
    same = differ = 0
    for index, state in enumerate(midgame_states(30, seed=8)):
        root, tab = k.load_state(state)
        uncut = s.search_action(root, tab, 80, rollout="heuristic", seed=index, stop_early=False)
        long_cut = s.search_action(root, tab, 80, rollout="heuristic", seed=index, stop_early=False, depth=10**6)
        short_cut = s.search_action(root, tab, 80, rollout="heuristic", seed=index, stop_early=False, depth=1)
        assert long_cut == uncut
        same += 1
        differ += short_cut != uncut
    assert same == 30 and differ >= 3, differ


def test_the_depth_cut_reaches_the_kernel_agents_and_the_reference_agent() -> None:
    """`ismcts:...:depth=D:backend=cpu` plays in the kernel's batch and behind the reference engine's agent."""
    game = Aterial()
    cut = "ismcts:iterations=30:rollout=heuristic:backend=cpu:depth=10"  # the canonical order
    assert s.kernel_agent(cut).depth == 10
    cut_games = s.play_agents(game, cut, "heuristic", 12, 3)
    uncut_games = s.play_agents(game, SEARCH, "heuristic", 12, 3)
    assert not np.array_equal(cut_games.decisions, uncut_games.decisions)
    agent = make_agent(cut, "aterial")
    assert agent.spec == cut
    state = midgame_states(1, seed=6)[0]
    infoset = state.infoset(state.current_player())
    root, tab = k.load_state(infoset.canonical_world)
    seed = random.Random(9).getrandbits(62)
    expected = s.search_action(root, tab, 30, rollout="heuristic", seed=seed, depth=10)
    assert int(agent.act(infoset, random.Random(9))) == expected


def test_kernel_games_with_search_seats_are_a_function_of_the_seed_whatever_the_threads() -> None:
    game = Aterial()
    specs = (SEARCH, "heuristic")
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = s.play_agents(game, *specs, 12, 11)
        numba.set_num_threads(max(2, before))
        two = s.play_agents(game, *specs, 12, 11)
        pieces = [s.play_agents(game, *specs, 6, 11, first) for first in (0, 6)]
    finally:
        numba.set_num_threads(before)
    for name in ("winner", "reason", "turns", "decisions"):
        assert np.array_equal(getattr(one, name), getattr(two, name)), name
        assert np.array_equal(getattr(one, name), np.concatenate([getattr(p, name) for p in pieces])), name
    assert sum(one.seat_decisions) == int(one.decisions.sum())
    assert one.decision_ms_total[0] > 20 * one.decision_ms_total[1] > 0
    other = s.play_agents(game, *specs, 12, 12)
    assert not np.array_equal(one.decisions, other.decisions), "another seed plays other games"


def test_the_search_beats_random_clearly() -> None:
    """Seat-swapped on common deals (random wins about 1% of its games against the heuristic itself)."""
    game = Aterial()
    as_p1 = s.play_agents(game, SEARCH, "random", 20, 5)
    as_p2 = s.play_agents(game, "random", SEARCH, 20, 5)
    wins = int((as_p1.winner == 0).sum() + (as_p2.winner == 1).sum())
    assert wins >= 38, wins


@pytest.mark.parametrize("rules", [{}, {"deck_out": "empty", "draw_count": "2", "retaliation": "yes"}])
def test_the_agent_batch_plays_the_heuristics_own_games(rules: dict[str, str]) -> None:
    """`heuristic:epsilon=0` in the agent batch is the compiled heuristic's batch, game for game, under the
    config's rule options (A15.2, A9.1, A12.7: its table carries them, as every searched world's does)."""
    game = Aterial.from_config({"rules": rules})
    plain = hk.play_game(game, ("heuristic", "random"), 64, 3)
    batch = s.play_agents(game, "heuristic:epsilon=0", "random", 64, 3)
    for column, name in zip(plain, ("winner", "reason", "turns", "decisions"), strict=True):
        assert np.array_equal(column, getattr(batch, name)), name
    random_games = s.play_agents(game, "heuristic:epsilon=1", "heuristic", 400, 3)
    heuristic_games = s.play_agents(game, "heuristic", "heuristic", 400, 3)
    assert (random_games.winner == 0).mean() + 0.2 < (heuristic_games.winner == 0).mean()


def test_the_lab_plays_the_search_in_the_kernel() -> None:
    kernels = Aterial.kernels()
    assert kernels is not None
    config = Aterial().config_json()
    run = kernels.run(config, (SEARCH, "random"), 10, 4, "cpu")
    assert len(run) == 10 and (run.winner == 0).sum() >= 9
    assert run.decision_ms[0] > 10 * run.decision_ms[1] > 0
    assert sum(run.seat_decisions) == int(run.decisions.sum())


def test_the_labs_default_table_agent_is_the_cut_search_played_in_the_kernel() -> None:
    """`cardlab balance aterial` without --agent plays the search with cut rollouts and a small UCB constant
    (docs/balance.md), in the kernel where the fast extra is installed, and it beats the heuristic."""
    from cardlab.sim.balance import matchups_for

    strong = matchups_for("aterial", None).strong_agent
    assert strong is not None and s.kernel_agent(strong).depth > 0 and s.kernel_agent(strong).c < 0.7
    check_engine("cpu", "aterial", (strong, strong), warm=False)
    kernels = Aterial.kernels()
    assert kernels is not None
    as_p1 = kernels.run(Aterial().config_json(), (strong, "heuristic"), 10, 4, "cpu")
    as_p2 = kernels.run(Aterial().config_json(), ("heuristic", strong), 10, 4, "cpu")
    assert int((as_p1.winner == 0).sum() + (as_p2.winner == 1).sum()) >= 16


def test_the_reference_engine_agent_uses_the_compiled_search() -> None:
    search = Aterial.compiled_search()
    assert search is not None and search.time_capacity == s.TIME_CAPACITY
    agent = make_agent("ismcts:iterations=50:backend=cpu", "aterial")
    assert agent.spec == "ismcts:iterations=50:backend=cpu"
    state = midgame_states(1, seed=6)[0]
    infoset = state.infoset(state.current_player())
    chosen = {agent.act(infoset, random.Random(9)) for _ in range(3)}
    assert len(chosen) == 1 and chosen <= set(infoset.legal_actions)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:iterations=lots:backend=cpu", "iterations must be an integer, not 'lots'"),
        ("ismcts:iterations=0:backend=cpu", "give iterations >= 1 or time > 0"),
        ("ismcts:rollout=greedy:backend=cpu", "rollout must be one of ['fast', 'heuristic', 'random'], not 'greedy'"),
        ("ismcts:width=4:backend=cpu", "'rollout', 'depth', 'backend'], not ['width']"),
        ("ismcts:depth=-1:backend=cpu", "depth must be >= 0"),
        ("ismcts:depth=two:backend=cpu", "depth must be an integer, not 'two'"),
        ("ismcts:c=-1:backend=cpu", "c must be >= 0"),
        ("heuristic:epsilon=2", "epsilon must be between 0 and 1"),
        ("ismcts:iterations", "bad parameter 'iterations' (write key=value)"),
        ("ismcts:iterations=50", "it also plays heuristic:epsilon=E and ismcts:...:backend=cpu"),
        ("pimc", "plays the agents ['random', 'heuristic'], not 'pimc'"),
    ],
)
def test_a_spec_the_kernel_cannot_play_is_a_clear_cardlab_error(spec: str, message: str) -> None:
    with pytest.raises(CardlabError) as error:
        check_engine("cpu", "aterial", ("heuristic", spec), warm=False)
    assert message in str(error.value)


def test_the_command_line_refuses_a_bad_search_spec_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "aterial", "--engine", "cpu", "--agents", "ismcts:iterations=x:backend=cpu,heuristic"]
    assert main([*argv, "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardlab: error:") and "iterations" in err and "Traceback" not in err
