"""The compiled ISMCTS for Dreadnought (`ismcts:...:backend=cpu`, issue #34 item 3): legal, leak-proof, deterministic.

- Determinization (D1.5, `DreadnoughtState.hidden_cards`): each iteration keeps everything the searcher may
  know and re-deals, as two pools, its own deck, bursts, HP stacks and unseen enchants (D1.2, D4.3, D14.2), and
  the opponent's same plus their hand less the cards seen going there (D15.2), closed speed card (D6.3),
  mulligan set-aside (R-D9) and unseen dummies (D15.1); the opponent's placement before it opens (D4.1) is a
  pool of its own.
- Twin worlds: two true states with the same information set give the same worlds, so the same choice.
- Whole kernel games with search seats are a function of (seed, game) only, whatever the threads or batches.
- The search plays: it beats random, always answers a legal action, and the reference engine's agent of that
  spec plays whole games through it.
- A spec the kernel cannot play is a CardlabError naming what is wrong.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from functools import cache

import numpy as np
import pytest

numba = pytest.importorskip("numba")

from cardlab.agents import make_agent  # noqa: E402
from cardlab.cli import main  # noqa: E402
from cardlab.core.errors import CardlabError  # noqa: E402
from cardlab.fast.rng import new_rng  # noqa: E402
from cardlab.games.dreadnought.fast import cpu as k  # noqa: E402
from cardlab.games.dreadnought.fast import search as s  # noqa: E402
from cardlab.games.dreadnought.fast.tables import MAX_INSTANCES, PER_PLAYER  # noqa: E402
from cardlab.games.dreadnought.game import Dreadnought  # noqa: E402
from cardlab.games.dreadnought.state import DreadnoughtState  # noqa: E402
from cardlab.sim.engines import check_engine  # noqa: E402

SEARCH = "ismcts:iterations=30:backend=cpu"

FEATURES: dict[str, Callable[[DreadnoughtState, int], bool]] = {
    "known hand": lambda st, opp: bool(st.known_hand[opp]) and any(i in st.hand[opp] for i in st.known_hand[opp]),
    "secret enchant": lambda st, opp: any(any(flags) for flags in st.ench_secret.values()),
    "opponent's mulligan": lambda st, opp: bool(st.mull[opp]),
    "placement": lambda st, opp: st.casters[opp][0] == k.EMPTY,
    "closed dummy": lambda st, opp: any(
        st.dummy_cards[opp][i] != k.EMPTY and not st.dummy_known[opp][i] for i in range(4)
    ),
    "closed speed card": lambda st, opp: bool(st.gear[opp]),
    "any": lambda st, opp: True,
}
"""Kinds of hidden cards a position may hold (`hidden_cards`); `positions` keeps a few of each."""


@cache
def positions(per_feature: int = 6, seed: int = 0) -> tuple[tuple[str, DreadnoughtState], ...]:
    """Reference states at decisions, reached by heuristic play with one random move in two, `per_feature` of
    each kind in `FEATURES` (every kind of hidden card, each of them in several positions)."""
    rng = random.Random(seed)
    game = Dreadnought()
    heuristic = make_agent("heuristic", "dreadnought")
    kept: Counter[str] = Counter()
    found: list[tuple[str, DreadnoughtState]] = []
    for game_seed in range(2000):
        state = game.new_state(game_seed, record_events=False)
        while (player := state.current_player()) is not None:
            for name, holds in FEATURES.items():
                if kept[name] < per_feature and holds(state, 1 - player) and rng.random() < 0.3:
                    kept[name] += 1
                    found.append((name, state.clone()))
                    break
            if rng.random() < 0.5:
                action = rng.choice(state.legal_actions())
            else:
                action = heuristic.act(state.infoset(player), rng)
            state.apply(action)
        if all(kept[name] >= per_feature for name in FEATURES):
            return tuple(found)
    raise AssertionError(f"not every kind of hidden card turned up: {kept}")


def buffers() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    return (
        np.zeros(k.ROW_SIZE, dtype=np.int64),
        np.zeros(2 * MAX_INSTANCES, dtype=np.int64),
        np.zeros(2 * MAX_INSTANCES, dtype=np.int64),
        np.zeros(MAX_INSTANCES, dtype=np.int64),
    )


def world(root: np.ndarray, me: int, seed: int) -> np.ndarray:
    row, slots, pool, mark = buffers()
    s._determinize(row, root, me, new_rng(seed), slots, pool, mark)
    assert not mark.any()
    return row


def hidden_offsets(state: DreadnoughtState, me: int) -> list[list[int]]:
    """The row offsets of each pool of `state.hidden_cards(me)`, read from the reference's own groups."""
    zone_ids = {"deck": k.Z_DECK, "bursts": k.Z_BURST, "hand": k.Z_HAND, "gear": k.Z_GEAR, "mull": k.Z_MULL,
                "placed": k.Z_PLACED}  # fmt: skip
    zones = state.card_zones()
    groups = []
    for group in state.hidden_cards(me):
        offsets = []
        for zone, indices in group:
            parts = zone.split(":")
            count = len(zones[zone]) if zone in zones else 0
            chosen = range(count) if indices is None else indices
            if parts[0] in zone_ids:
                base = k._zbase(zone_ids[parts[0]], ("P1", "P2").index(parts[1]))
            elif parts[0] == "hp":
                p, area = ("P1", "P2").index(parts[1]), ("BA1", "BA2").index(parts[2])
                base = k.HPS + (2 * p + area) * PER_PLAYER
            elif parts[0] == "ench":
                base = k.ENCH + int(parts[1]) * k.ENCH_CAP
                chosen = indices
            elif parts[0] == "dummy":
                base = k.DUMMY + 4 * ("P1", "P2").index(parts[1])
                chosen = indices
            else:
                raise AssertionError(zone)
            offsets += [base + i for i in chosen]
        groups.append(offsets)
    return groups


def test_determinization_redeals_exactly_the_hidden_pools() -> None:
    """D1.5: against the canonical world (R-D9 applied), a world differs only at the offsets of
    `hidden_cards(me)`, each pool keeps its cards (as a set) and every slot its flags; every pool is re-dealt."""
    redealt: Counter[str] = Counter()
    for index, (name, state) in enumerate(positions()):
        me = state.current_player()
        assert me is not None
        canonical = state.infoset(me).canonical_world
        base = k.load_row(canonical)
        groups = hidden_offsets(canonical, me)
        hidden = sorted(offset for group in groups for offset in group)
        opp_hand = k._zbase(k.Z_HAND, 1 - me)
        n_hand = len(canonical.hand[1 - me])
        for attempt in range(8):
            row = world(k.load_row(state), me, 100 * index + attempt)
            mask = np.ones(k.ROW_SIZE, dtype=bool)
            mask[hidden] = False
            mask[opp_hand : opp_hand + n_hand] = False  # its seen cards' order is the search's own (below)
            assert np.array_equal(row[mask], base[mask]), f"{name}: a world changed a card the searcher knows"
            known = [slot for slot in range(opp_hand, opp_hand + n_hand) if slot not in hidden]
            assert sorted(row[known]) == sorted(base[known]), f"{name}: the opponent's seen hand cards moved"
            for group in groups:
                assert sorted(row[group] & 255) == sorted(base[group] & 255), f"{name}: a pool lost a card"
                assert np.array_equal(row[group] >> 8, base[group] >> 8), f"{name}: a slot lost its flags"
                redealt[name] += not np.array_equal(row[group], base[group])
    assert all(redealt[name] > 10 for name in FEATURES), redealt


def test_twin_worlds_get_the_same_worlds_and_the_same_choice() -> None:
    """Two true states that the player to move cannot tell apart: the same worlds, the same search, the same
    answer, for every kind of hidden card (their hidden cards differ in nearly every pair)."""
    differing: Counter[str] = Counter()
    agent = make_agent(SEARCH, "dreadnought")
    tree = s.Tree(61)
    for index, (name, state) in enumerate(positions()):
        me = state.current_player()
        assert me is not None
        twin = state.infoset(me).sample_world(random.Random(index))
        first, tab = k.load_state(state)
        second = k.load_row(twin)
        differing[name] += not np.array_equal(first, second)
        for seed in range(3):
            assert np.array_equal(world(first, me, seed), world(second, me, seed)), (
                f"{name}: a world remembers where a hidden card really was"
            )
        assert s.search_action(first, tab, 40, seed=index, tree=tree) == s.search_action(
            second, tab, 40, seed=index, tree=tree
        )
        a = agent.act(state.infoset(me), random.Random(index))
        b = agent.act(twin.infoset(me), random.Random(index))
        assert a == b and a in state.legal_actions()
    assert all(differing[name] >= 4 for name in FEATURES), differing


def test_the_search_always_returns_a_legal_action() -> None:
    out = np.empty(1024, dtype=np.int64)
    tree = s.Tree(61)
    for index, (_, state) in enumerate(positions()):
        root, tab = k.load_state(state)
        legal = {int(a) for a in out[: k.legal_actions(root, tab, out)]}
        assert legal == {int(a) for a in state.legal_actions()}
        assert s.search_action(root, tab, 60, seed=index, tree=tree) in legal
    timed = make_agent("ismcts:time=0.005:backend=cpu", "dreadnought")
    _, state = positions()[-1]
    assert timed.act(state.infoset(state.current_player()), random.Random(1)) in state.legal_actions()


def test_stopping_early_returns_the_full_searchs_move() -> None:
    stopped = 0
    for index, (_, state) in enumerate(positions()[:20]):
        root, tab = k.load_state(state)
        full = s.search_action(root, tab, 120, seed=index, stop_early=False)
        tree = s.Tree(121)
        assert s.search_action(root, tab, 120, seed=index, tree=tree) == full
        stopped += int(tree.visits[0]) < 120
    assert stopped > 2, "the shortcut is taken in clear positions"


def test_the_compiled_estimate_is_the_heuristics_evaluate() -> None:
    """`heuristic.evaluate` (HP cards, units on the field, hand sizes; D21 at the end), where `ismcts:depth=D`
    cuts a rollout short, is the same number on the kernel's row at every decision and at the end."""
    from cardlab.games.dreadnought.fast import heuristic as hk
    from cardlab.games.dreadnought.heuristic import evaluate

    rng = random.Random(21)
    compared = ended = 0
    for config in ({}, {"rules": {"draw_bursts": "2"}}):
        game = Dreadnought.from_config(config)
        for _ in range(4):
            state = game.new_state(rng.getrandbits(32), record_events=False)
            while True:
                row, tab = k.load_row(state), k.game_table(game)
                for player in (0, 1):
                    assert hk.evaluate(row, tab, player) == pytest.approx(evaluate(state, player), abs=1e-12)
                compared += 1
                if state.current_player() is None:
                    ended += 1
                    break
                state.apply(rng.choice(state.legal_actions()))
    assert compared > 300 and ended == 8


def test_a_depth_cut_search_stops_its_rollouts_and_asks_the_estimate() -> None:
    """With `depth` longer than any game the search is the uncut one, move for move; a one-action cut changes the
    backups, so some choices differ."""
    differ = 0
    tree = s.Tree(61)
    for index, (_, state) in enumerate(positions()[:24]):
        root, tab = k.load_row(state), k.game_table(state.game)
        args = dict(rollout="heuristic", seed=index, tree=tree, stop_early=False)
        uncut = s.search_action(root, tab, 60, **args)
        assert s.search_action(root, tab, 60, depth=10**6, **args) == uncut
        differ += s.search_action(root, tab, 60, depth=1, **args) != uncut
    assert differ >= 2, differ


def test_the_search_plays_heuristic_seats_and_the_labs_table_agent_beats_the_heuristic() -> None:
    """The agent batch plays `heuristic` seats (the compiled heuristic, `heuristic:epsilon=0` the same games) and
    the lab's table agent (`cardlab balance dreadnought` without --agent), the search with heuristic rollouts cut
    at 30 actions and a small UCB constant (docs/balance.md), beats it, seats swapped on common deals."""
    from cardlab.games.dreadnought.fast import heuristic as hk
    from cardlab.sim.balance import matchups_for

    game = Dreadnought()
    plain = hk.play_game(game, ("heuristic", "random"), 24, 3)
    batch = s.play_agents(game, "heuristic:epsilon=0", "random", 24, 3)
    for column, name in zip(plain, ("winner", "reason", "turns", "decisions"), strict=True):
        assert np.array_equal(column, getattr(batch, name)), name
    strong = matchups_for("dreadnought", None).strong_agent
    assert strong is not None and s.kernel_agent(strong).depth == 30 and s.kernel_agent(strong).c < 0.7
    as_p1 = s.play_agents(game, strong, "heuristic", 10, 5)
    as_p2 = s.play_agents(game, "heuristic", strong, 10, 5)
    assert int((as_p1.winner == 0).sum() + (as_p2.winner == 1).sum()) >= 11


def test_kernel_games_with_search_seats_are_a_function_of_the_seed_whatever_the_threads() -> None:
    game = Dreadnought()
    specs = (SEARCH, "random")
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = s.play_agents(game, *specs, 8, 11)
        numba.set_num_threads(max(2, before))
        two = s.play_agents(game, *specs, 8, 11)
        pieces = [s.play_agents(game, *specs, 4, 11, first) for first in (0, 4)]
    finally:
        numba.set_num_threads(before)
    for name in ("winner", "reason", "turns", "decisions"):
        assert np.array_equal(getattr(one, name), getattr(two, name)), name
        assert np.array_equal(getattr(one, name), np.concatenate([getattr(p, name) for p in pieces])), name
    assert sum(one.seat_decisions) == int(one.decisions.sum())
    assert one.decision_ms_total[0] > 20 * one.decision_ms_total[1] > 0
    other = s.play_agents(game, *specs, 8, 12)
    assert not np.array_equal(one.decisions, other.decisions), "another seed plays other games"


def test_the_search_beats_random_clearly() -> None:
    """Seat-swapped on common deals (random against random wins about half)."""
    game = Dreadnought()
    as_p1 = s.play_agents(game, SEARCH, "random", 10, 5)
    as_p2 = s.play_agents(game, "random", SEARCH, 10, 5)
    wins = int((as_p1.winner == 0).sum() + (as_p2.winner == 1).sum())
    assert wins >= 16, wins  # 16 or more of 20 at even odds: 0.6%


def test_the_lab_plays_the_search_in_the_kernel() -> None:
    kernels = Dreadnought.kernels()
    assert kernels is not None
    config = Dreadnought().config_json()
    run = kernels.run(config, (SEARCH, "random"), 6, 4, "cpu")
    assert len(run) == 6 and (run.winner == 0).sum() >= 5
    assert run.decision_ms[0] > 10 * run.decision_ms[1] > 0
    assert sum(run.seat_decisions) == int(run.decisions.sum())


def test_the_reference_engine_plays_whole_games_through_the_compiled_search(
    capsys: pytest.CaptureFixture[str],
) -> None:
    search = Dreadnought.compiled_search()
    assert search is not None and search.time_capacity == s.TIME_CAPACITY and search.cuts_rollouts
    agent = make_agent("ismcts:iterations=50:backend=cpu", "dreadnought")
    _, state = positions()[3]
    infoset = state.infoset(state.current_player())
    chosen = {agent.act(infoset, random.Random(9)) for _ in range(3)}
    assert len(chosen) == 1 and chosen <= set(infoset.legal_actions)
    argv = ["simulate", "dreadnought", "--agents", "ismcts:iterations=20:backend=cpu,random", "--games", "2"]
    assert main([*argv, "--workers", "1", "--seed", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["engine"] == "reference" and result["games"] == 2 and result["wins"] == [2, 0]
    assert result["decision_ms"][0] > 0


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:iterations=lots:backend=cpu", "iterations must be an integer, not 'lots'"),
        ("ismcts:iterations=0:backend=cpu", "give iterations >= 1 or time > 0"),
        ("ismcts:rollout=greedy:backend=cpu", "rollout must be one of ['heuristic', 'random'], not 'greedy'"),
        ("ismcts:width=4:backend=cpu", "'rollout', 'depth', 'backend'], not ['width']"),
        ("ismcts:depth=-2:backend=cpu", "depth must be >= 0"),
        ("heuristic:epsilon=1.5", "epsilon must be between 0 and 1"),
        ("ismcts:c=-1:backend=cpu", "c must be >= 0"),
        ("ismcts:time=soon:backend=cpu", "time must be a number, not 'soon'"),
        ("ismcts:iterations", "bad parameter 'iterations' (write key=value)"),
        ("ismcts:iterations=50", "not 'ismcts:iterations=50'"),
        ("pimc", "not 'pimc'"),
    ],
)
def test_a_spec_the_kernel_cannot_play_is_a_clear_cardlab_error(spec: str, message: str) -> None:
    with pytest.raises(CardlabError) as error:
        check_engine("cpu", "dreadnought", ("random", spec), warm=False)
    assert message in str(error.value)
    if spec in ("pimc", "ismcts:iterations=50"):
        assert "ismcts:...:backend=cpu" in str(error.value), "the refusal names the search the kernel plays"


def test_the_command_line_refuses_a_bad_search_spec_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "dreadnought", "--engine", "cpu", "--agents", "ismcts:iterations=x:backend=cpu,random"]
    assert main([*argv, "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardlab: error:") and "iterations" in err and "Traceback" not in err
