"""The compiled ISMCTS (`ismcts:...:backend=cpu`) is the reference search, leak-proof and deterministic.

- Determinization: each iteration keeps everything the searcher may know (own hand, both fields,
  discard, revealed cards, hand and deck sizes) and re-deals only the opponent's other hand cards
  and the deck, uniformly (E2.5's hidden information, `EdelweissState.hidden_cards`).
- Twin worlds: two true states with the same information set give the same choice for a seed.
- Early stopping returns exactly the move the full iteration budget would.
- Strength: at equal iterations it plays on par with the reference `ismcts` (a seat-swapped
  head-to-head whose Wilson interval contains 50 %): 60 games by default, 1000 in the `slow`
  variant (`pytest -m slow`; `CARDLAB_ISMCTS_PARITY_GAMES` sets its size).
- Whole kernel games with search seats are a function of (seed, game) only, whatever the threads.
- Rule options: worlds keep the row's rules; a draw is backed up as half a win (as the reference's
  (returns + 1) / 2); the search finds a field guard only a rule allows; games with search seats
  (`play_agents`, the lab's `EdelweissKernels.run`) are dealt and played under the config's rules.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import numpy as np
import pytest

numba = pytest.importorskip("numba")

from cardlab.agents import AgentSpecError, make_agent  # noqa: E402
from cardlab.games.edelweiss import Edelweiss, EdelweissConfig  # noqa: E402
from cardlab.games.edelweiss.fast import cpu as k  # noqa: E402
from cardlab.games.edelweiss.fast import search as s  # noqa: E402
from cardlab.sim.stats import wilson_interval  # noqa: E402
from tests.games.edelweiss.fast.test_cpu import RULE_CONFIGS, kernel_turn_limit  # noqa: E402

PARITY_GAMES = int(os.environ.get("CARDLAB_ISMCTS_PARITY_GAMES", "1000"))
"""Games of the full (`slow`) parity test; the default run plays `CI_PARITY_GAMES`."""
CI_PARITY_GAMES = 60
CONFIGS = [EdelweissConfig("full"), EdelweissConfig("skills", "symbolic"), EdelweissConfig("skills", "accel2")]


def midgame_states(count: int, seed: int) -> list:
    """Reference states at decision points reached by random play, over the three deck kinds."""
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        game = Edelweiss(CONFIGS[len(states) % len(CONFIGS)])
        state = game.new_state(rng.getrandbits(32), record_events=False)
        for _ in range(rng.randrange(0, 40)):
            if state.current_player() is None:
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.current_player() is not None:
            states.append(state)
    return states


def known_part(row: np.ndarray, me: int) -> tuple:
    """What `me` may know of a kernel row (everything but the opponent's unrevealed hand and the deck order)."""
    opp = me ^ 1
    hidden_hand = [int(row[k.HAND + 4 * opp + suit] & ~row[k.REVEALED + 4 * opp + suit]) for suit in range(4)]
    kept = row.copy()
    kept[k.HAND + 4 * opp : k.HAND + 4 * opp + 4] = row[k.REVEALED + 4 * opp : k.REVEALED + 4 * opp + 4]
    kept[k.DECK : k.DECK + k.DECK_CAP] = 0
    unseen = sorted(int(c) for c in row[k.DECK : k.DECK + row[k.DECK_LEN]])
    unseen += [rank * 4 + suit for suit in range(4) for rank in range(13) if (hidden_hand[suit] >> rank) & 1]
    return tuple(kept), sum(bin(h).count("1") for h in hidden_hand), tuple(sorted(unseen))


def test_determinization_keeps_what_the_searcher_knows_and_redeals_the_rest() -> None:
    for state in midgame_states(60, seed=1):
        me = state.current_player()
        root = k.from_position(state.position(), validate=False)
        row = np.zeros_like(root)
        pool = np.zeros(64, dtype=np.int64)
        rng = k.game_rng(7, 0)
        before = known_part(root, me)
        deals = set()
        for _ in range(20):
            s._determinize(row, root, me, rng, pool)
            assert known_part(row, me) == before  # same knowledge, same hidden sizes, same unseen cards
            deals.add(tuple(row[k.DECK : k.DECK + row[k.DECK_LEN]]))
        if before[2] and len(before[2]) > 3:
            assert len(deals) > 1, "the unseen cards are re-dealt"


def test_determinization_is_uniform_over_the_unseen_cards() -> None:
    """Each unseen card lands in the opponent's hand with probability hand size / unseen cards."""
    state = Edelweiss(EdelweissConfig("full")).new_state(5, record_events=False)
    me = state.current_player()
    root = k.from_position(state.position(), validate=False)
    _, hand_size, unseen = known_part(root, me)
    row, pool, rng = np.zeros_like(root), np.zeros(64, dtype=np.int64), k.game_rng(3, 0)
    counts = dict.fromkeys(unseen, 0)
    draws = 20_000
    opp = me ^ 1
    for _ in range(draws):
        s._determinize(row, root, me, rng, pool)
        for suit in range(4):
            bits = int(row[k.HAND + 4 * opp + suit])
            for rank in range(13):
                if (bits >> rank) & 1:
                    counts[rank * 4 + suit] += 1
    expected = draws * hand_size / len(unseen)
    chi2 = sum((count - expected) ** 2 / expected for count in counts.values())
    assert chi2 < len(unseen) + 6 * np.sqrt(2 * len(unseen)), chi2  # far inside a chi-square's range


def test_twin_worlds_get_the_same_choice() -> None:
    """Two true states that P to move cannot tell apart: the same search, the same answer."""
    checked = 0
    for index, state in enumerate(midgame_states(40, seed=2)):
        me = state.current_player()
        twin = state.infoset(me).sample_world(random.Random(index))
        first = k.from_position(state.position(), validate=False)
        second = k.from_position(twin.position(), validate=False)
        if np.array_equal(first, second):
            continue
        checked += 1
        assert s.search_action(first, 200, seed=index) == s.search_action(second, 200, seed=index)
        agent = make_agent("ismcts:iterations=200:backend=cpu")
        a = agent.act(state.infoset(me), random.Random(index))
        b = agent.act(twin.infoset(me), random.Random(index))
        assert a == b and a in state.legal_actions()
    assert checked > 20, "the twins differ in their hidden cards"


def test_stopping_early_returns_the_full_searchs_move() -> None:
    stopped = 0
    for index, state in enumerate(midgame_states(80, seed=3)):
        root = k.from_position(state.position(), validate=False)
        full = s.search_action(root, 400, seed=index, stop_early=False)
        assert s.search_action(root, 400, seed=index) == full
        tree = s.Tree(401)
        s.search_action(root, 400, seed=index, tree=tree)
        stopped += int(tree.visits[0]) < 400
    assert stopped > 10, "the shortcut is taken in clear positions"


def test_finds_the_winning_attack_and_the_surviving_defense() -> None:
    """The reference agent's tactical checks (tests/agents/test_ismcts.py), compiled."""
    from tests.agents.test_ismcts import _position

    state = Edelweiss().load_position(_position(["10S:U"], [], ["4C:T", "9H:T"]))
    agent = make_agent("ismcts:iterations=100:backend=cpu")
    assert str(agent.act(state.infoset(0), random.Random(3))) == "ATTACK"
    position = _position(["10S:T", "8C:T"], ["3D"], ["9H:U"])
    position.update(window="defense", attack={"spade": "10S", "defense": None, "guard_card": None,
                                              "blocker": None, "counter": False, "pursuit_club": None})  # fmt: skip
    state = Edelweiss().load_position(position)
    assert str(agent.act(state.infoset(1), random.Random(0))) != "NO_DEFENSE"


def test_the_spec_is_checked_and_deterministic() -> None:
    with pytest.raises(AgentSpecError, match="plays its rollouts to the end"):  # no cut rollouts here, said so
        make_agent("ismcts:depth=5:backend=cpu", "edelweiss")
    with pytest.raises(AgentSpecError, match="backend"):
        make_agent("ismcts:backend=gpu")
    assert make_agent("ismcts:iterations=300:backend=cpu").spec == "ismcts:iterations=300:backend=cpu"
    state = midgame_states(1, seed=4)[0]
    infoset = state.infoset(state.current_player())
    agent = make_agent("ismcts:iterations=300:backend=cpu:rollout=heuristic")
    assert len({agent.act(infoset, random.Random(9)) for _ in range(3)}) == 1
    timed = make_agent("ismcts:time=0.01:backend=cpu")
    assert timed.act(infoset, random.Random(1)) in infoset.legal_actions


def test_kernel_games_with_search_seats_do_not_depend_on_threads() -> None:
    config = EdelweissConfig("skills", "accel2")
    specs = ("ismcts:iterations=60:backend=cpu", "heuristic")
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = s.play_agents(config, *specs, 130, 11)
        numba.set_num_threads(max(2, before))
        two = s.play_agents(config, *specs, 130, 11)
    finally:
        numba.set_num_threads(before)
    for a, b in zip(
        (one.winner, one.reason, one.turns, one.decisions),
        (two.winner, two.reason, two.turns, two.decisions),
        strict=True,
    ):
        assert np.array_equal(a, b)
    assert set(one.winner.tolist()) <= {0, 1}
    assert one.seat_decisions[0] > 0 and one.decision_ms_total[0] > 50 * one.decision_ms_total[1] > 0
    assert sum(one.seat_decisions) == int(one.decisions.sum())


def test_search_beats_random_in_the_kernel() -> None:
    batch = s.play_agents(EdelweissConfig("skills", "symbolic"), "ismcts:iterations=200:backend=cpu", "random", 200, 5)
    assert (batch.winner == 0).mean() > 0.8


@pytest.mark.parametrize(
    "games", [pytest.param(CI_PARITY_GAMES, id="ci"), pytest.param(PARITY_GAMES, id="slow", marks=pytest.mark.slow)]
)
def test_on_par_with_the_reference_search_at_equal_iterations(games: int) -> None:
    """Seat-swapped deals, 50 iterations each: the compiled search is the reference one, compiled."""
    from cardlab.sim import play_match

    game = Edelweiss(EdelweissConfig("skills", "symbolic"))
    compiled, reference = make_agent("ismcts:iterations=50:backend=cpu"), make_agent("ismcts:iterations=50")
    wins = 0
    for index in range(games):
        swapped = index % 2 == 1
        record = play_match(game, (reference, compiled) if swapped else (compiled, reference), 1000 + index // 2)
        wins += record.winner == (1 if swapped else 0)
    low, high = wilson_interval(wins, games)
    assert low <= 0.5 <= high, (wins, games, low, high)


def test_the_kernel_plays_the_heuristic_with_an_epsilon() -> None:
    """`heuristic:epsilon=E` in the kernel: 0 is the heuristic's own game, 1 plays like random."""
    config = EdelweissConfig("skills", "symbolic")
    plain = k.play_config(config, "heuristic", "random", 400, 3)
    zero = s.play_agents(config, "heuristic:epsilon=0", "random", 400, 3)
    assert np.array_equal(plain[0], zero.winner) and np.array_equal(plain[3], zero.decisions)
    one = s.play_agents(config, "heuristic:epsilon=1", "heuristic", 2000, 3)
    reference = k.play_config(config, "random", "heuristic", 2000, 3)
    assert abs((one.winner == 0).mean() - (reference[0] == 0).mean()) < 0.04
    tenth = s.play_agents(config, "heuristic:epsilon=0.1", "heuristic", 2000, 3)
    assert (reference[0] == 0).mean() + 0.1 < (tenth.winner == 0).mean() < 0.45


# -- rule options (issue #17) ---------------------------------------------------------------------


def test_determinization_keeps_the_rule_options() -> None:
    """Worlds re-dealt from a row keep its RULES and OPENING_HAND (the search plays them under the rules)."""
    pool, row = np.zeros(64, dtype=np.int64), k.new_row()
    rng_py = random.Random(12)
    for index, config in enumerate(RULE_CONFIGS.values()):
        state = Edelweiss(config).new_state(rng_py.getrandbits(32), record_events=False)
        for _ in range(rng_py.randrange(0, 30)):
            if state.current_player() is None:
                break
            state.apply(rng_py.choice(state.legal_actions()))
        if state.current_player() is None:
            continue
        root = k.from_position(state.position(), validate=False)
        assert (root[k.RULES], root[k.OPENING_HAND]) == k.rule_codes(config)
        before = known_part(root, state.current_player())
        s._determinize(row, root, state.current_player(), k.game_rng(index, 0), pool)
        assert known_part(row, state.current_player()) == before
        assert k.to_position(row)["config"] == state.position()["config"]


def draw_or_lose(rules: dict[str, str]) -> dict:
    """P2 defends with an empty deck: BLOCK keeps the hands level (a deck-out tie: P2's by E6.2, a draw by
    rule deck_out_tie), GUARD C leaves P2 a card short (P1 wins the deck-out), NO_DEFENSE loses at once."""
    return {
        "game": "edelweiss", "config": {"deck": "full", "standard": None, "characters": None, "rules": rules},
        "turn": 30, "turn_player": "P1", "window": "defense", "deck": [], "discard": ["2S", "3S"],
        "players": {"P1": {"hand": ["4H"], "field": ["5S:T"]}, "P2": {"hand": ["6C"], "field": ["7H:U"]}},
        "attack": {"spade": "5S", "defense": None, "guard_card": None, "blocker": None, "counter": False,
                   "pursuit_club": None},
        "winner": None,
    }  # fmt: skip


def test_a_draw_is_backed_up_as_half_a_win() -> None:
    """Under deck_out_tie=draw, BLOCK is a sure draw and every other defense a sure loss: the search backs
    each draw up as the reference does ((0 + 1) / 2 = 0.5 per visit) and prefers the draw, as the
    reference search does; without the rule the same BLOCK is a sure win."""
    from cardlab.games.edelweiss import EdelweissAction as A

    for rules, value in (({"deck_out_tie": "draw"}, 0.5), ({}, 1.0)):
        position = draw_or_lose(rules)
        state = Edelweiss().load_position(position)
        assert state.legal_actions() == (A.GUARD_C, A.BLOCK, A.NO_DEFENSE)
        root = k.from_position(position)
        tree = s.Tree(301)
        for seed in range(10):
            assert s.search_action(root, 300, seed=seed, tree=tree, stop_early=False) == A.BLOCK, (rules, seed)
            block = tree.child[0, A.BLOCK]
            assert tree.visits[block] > 0 and tree.reward[block] == value * tree.visits[block]
            guard = tree.child[0, A.GUARD_C]
            assert tree.reward[guard] == 0.0
        specs = ("ismcts:iterations=200:backend=cpu", "ismcts:iterations=200", "ismcts:iterations=200:rollout=fast")
        for spec in specs:  # rollout=fast: the reference search with kernel rollouts, a draw returning (0, 0)
            assert make_agent(spec).act(state.infoset(1), random.Random(1)) == A.BLOCK, spec
    state = Edelweiss().load_position(draw_or_lose({"deck_out_tie": "draw"}))
    assert k.rollout(state, "heuristic", 0) == (0.0, 0.0)  # the heuristic blocks: the kernel rollout's draw
    state.apply(A.BLOCK)
    assert state.is_terminal() and state.returns() == (0.0, 0.0)


def guard_or_lose(rules: dict[str, str]) -> dict:
    """Accel 2, P2 (GARU, Guardian) attacked with an empty hand, one tapped heart and no spade: only the
    Symbolic field guard that rule accel2_guardian=symbolic_too keeps can save the game (E8.1)."""
    return {
        "game": "edelweiss",
        "config": {"deck": "skills", "standard": "accel2", "characters": {"P1": "EAGLE", "P2": "GARU"},
                   "rules": rules},
        "turn": 8, "turn_player": "P1", "window": "defense", "deck": ["2S", "3S", "4S", "2C", "3C"],
        "discard": [], "players": {"P1": {"hand": ["4H"], "field": ["5S:T"]}, "P2": {"hand": [], "field": ["7H:T"]}},
        "attack": {"spade": "5S", "defense": None, "guard_card": None, "blocker": None, "counter": False,
                   "pursuit_club": None},
        "winner": None,
    }  # fmt: skip


def test_the_search_uses_the_field_guard_a_rule_allows() -> None:
    from cardlab.games.edelweiss import EdelweissAction as A

    row = k.from_position(guard_or_lose({}))  # E8.1 Accel 2: no field guard of a heart, NO_DEFENSE is forced
    assert k.current_player(row) == -1 and row[k.WINNER] == 0
    position = guard_or_lose({"accel2_guardian": "symbolic_too"})
    state = Edelweiss().load_position(position)
    assert state.legal_actions() == (A.FIELD_GUARD_H, A.NO_DEFENSE)
    root = k.from_position(position)
    assert k.legal_ids(root) == [A.FIELD_GUARD_H, A.NO_DEFENSE]
    assert s.search_action(root, 200, seed=3) == A.FIELD_GUARD_H
    assert make_agent("ismcts:iterations=200:backend=cpu").act(state.infoset(1), random.Random(2)) == A.FIELD_GUARD_H


def test_kernel_games_with_search_seats_play_the_rules() -> None:
    """`play_agents` (and the lab's `EdelweissKernels.run` for a search seat) deal and play under the
    config's rules: drawn deck-outs occur under deck_out_tie=draw (winner -1, reason deck_out), never
    without it; turns stay within E6.3's bound under the rules' deal."""
    from cardlab.games.edelweiss.kernels import EdelweissKernels

    specs = ("ismcts:iterations=40:backend=cpu", "heuristic")
    for name in ("deck_out_tie=draw/short", "all five/symbolic", "opening_hand=6/accel2"):
        config = RULE_CONFIGS[name]
        batch = s.play_agents(config, *specs, 200, 7)
        draws = int((batch.winner == -1).sum())
        assert (draws > 0) == (config.rule("deck_out_tie") == "draw"), (name, draws)
        assert (batch.reason[batch.winner == -1] == k.REASON_DECK_OUT).all()
        assert batch.turns.max() <= kernel_turn_limit(config)
    config = RULE_CONFIGS["deck_out_tie=draw/short"]
    run = EdelweissKernels().run(config.to_json(), specs, 200, 7, "cpu")
    again = s.play_agents(config, *specs, 200, 7)
    assert np.array_equal(run.winner, again.winner) and (run.winner == -1).sum() > 0


def test_the_search_cache_is_flushed_when_the_rules_source_changes(monkeypatch) -> None:
    """numba keys a cache on the function's own file; the search inlines `cpu`'s rules, so a cache
    compiled against other rules (a stamp of another digest) is flushed, and a matching stamp keeps it.
    (tests/fast/test_stale_cache.py changes a source for real.)"""
    from numba.core.registry import CPUDispatcher

    import cardlab.games.edelweiss.fast.search as search
    from cardlab.fast.search import flush_stale_cache

    flushed: list[str] = []
    own = [v for v in vars(search).values() if isinstance(v, CPUDispatcher) and v.py_func.__module__ == search.__name__]
    for dispatcher in own:
        monkeypatch.setattr(dispatcher._cache, "flush", lambda name=dispatcher.__name__: flushed.append(name))
    folder = Path(own[0]._cache.cache_path)
    for stamp in folder.glob("search.rules-*"):
        stamp.unlink()
    (folder / "search.rules-0000000000000000").touch()  # compiled against other rules
    flush_stale_cache(search)
    assert sorted(flushed) == sorted(d.__name__ for d in own) and len(own) >= 5
    stamps = list(folder.glob("search.rules-*"))
    assert len(stamps) == 1 and stamps[0].name != "search.rules-0000000000000000"
    flushed.clear()
    flush_stale_cache(search)  # the same rules: the cache is kept
    assert flushed == []
