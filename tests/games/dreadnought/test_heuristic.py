"""The Dreadnought heuristic (docs/agents.md): always legal, blind to hidden cards, deterministic,
sensible in the windows it documents, and clearly stronger than the uniform random player."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardlab.agents import make_agent
from cardlab.agents.policies import heuristic_policy, policy_by_name
from cardlab.games.dreadnought import Dreadnought, DreadnoughtConfig, DreadnoughtState
from cardlab.games.dreadnought.heuristic import choose
from cardlab.sim import play_match

from .dreadnought_positions import legal, load, make_position, rest_of_turn

CONFIGS = (
    DreadnoughtConfig(),
    DreadnoughtConfig(decks=("tide_grove", "ember_spark")),
    DreadnoughtConfig(decks=("ember_spark", "ember_spark"), casters=(("X02", "X03"), None)),
    DreadnoughtConfig(decks=("tide_grove", "tide_grove"), casters=(None, ("X07", "X04"))),
)
WINDOWS = {"place", "mull", "win", "dest", "move_to", "upkeep_idol", "target", "pay_discard", "pay_src", "aturn",
           "abuild", "block", "react", "pick", "hpdraw", "limit"}  # fmt: skip
"""Decision windows random games reach in the sweep below ("scrap" and "order" are rarer: see their tests)."""


def _pick(state: DreadnoughtState, player: int) -> str:
    assert state.current_player() == player
    return str(choose(state.infoset(player).canonical_world, random.Random(0)))


def test_registered_as_the_dreadnought_heuristic() -> None:
    assert heuristic_policy("dreadnought") is choose
    assert policy_by_name("dreadnought", "heuristic") is choose


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(c.decks) + ("+casters" if any(c.casters) else ""))
def test_legal_and_blind_at_every_decision_of_random_games(config: DreadnoughtConfig) -> None:
    """At every decision random play reaches, the heuristic's answer on the player's canonical world is legal,
    equals its answer on the true state (it reads nothing the player cannot know) and on a sampled world is
    legal there."""
    game = Dreadnought(config)
    seen: Counter[str] = Counter()
    for seed in range(12):
        state = game.new_state(seed, record_events=False)
        rng = random.Random(seed)
        while (player := state.current_player()) is not None:
            actions = state.legal_actions()
            infoset = state.infoset(player)
            action = choose(infoset.canonical_world, rng)
            window = state.stack[-1][0]
            seen[window] += 1
            assert action in actions, (seed, window, str(action))
            assert choose(state, rng) == action, (seed, window, "the answer depends on hidden cards")
            if seen[window] % 7 == 0:
                world = infoset.sample_world(rng)
                assert choose(world, rng) in world.legal_actions()
            state.apply(rng.choice(actions))
    assert seen
    if config == CONFIGS[0]:
        assert WINDOWS - {"move_to", "pay_discard", "hpdraw", "limit", "upkeep_idol"} <= set(seen)


@pytest.mark.parametrize("opponent", ["heuristic", "random"])
def test_legal_and_deterministic_in_whole_games(opponent: str) -> None:
    heuristic, other = make_agent("heuristic"), make_agent(opponent)
    windows: Counter[str] = Counter()
    for config in CONFIGS[:2]:
        game = Dreadnought(config)
        for seed in range(6):
            record = play_match(game, (heuristic, other), seed)
            assert record.winner is not None or record.reason, record
            assert play_match(game, (heuristic, other), seed).actions == record.actions
            state = game.new_state(seed, record_events=False)
            for text in record.actions:  # replay: every heuristic move was legal where it was made
                windows[state.stack[-1][0]] += 1
                state.apply(text)
    assert {"mull", "win", "aturn", "abuild", "block", "react", "pay_src", "target"} <= set(windows)


def test_the_rng_does_not_matter() -> None:
    state = Dreadnought().new_state(3, record_events=False)
    for _ in range(60):
        player = state.current_player()
        assert player is not None
        world = state.infoset(player).canonical_world
        answers = {choose(world, random.Random(k)) for k in range(3)}
        assert len(answers) == 1
        state.apply(answers.pop())


def test_beats_random_clearly() -> None:
    """Not a strength benchmark (docs/agents.md has the measured figures) but a guard against a broken policy:
    both deck orders, seats swapped."""
    heuristic, rand = make_agent("heuristic"), make_agent("random")
    wins = games = 0
    for config in CONFIGS[:2]:
        game = Dreadnought(config)
        for index in range(60):
            first_is_heuristic = index % 2 == 0
            agents = (heuristic, rand) if first_is_heuristic else (rand, heuristic)
            record = play_match(game, agents, 1000 + index // 2)
            games += 1
            wins += record.winner == (0 if first_is_heuristic else 1)
    assert wins >= 0.9 * games, f"{wins}/{games}"


# ---- single windows -------------------------------------------------------------------------


def _attack(p2: dict, *actions: str, p1: dict | None = None) -> DreadnoughtState:
    """P1's action turn with the given fields, after `actions`."""
    state = load(phase="action", first="P1", p1=p1 or {"ba1": ["R02"]}, p2=p2)
    for action in actions:
        state.apply(action)
    return state


def test_attacks_where_the_cheapest_block_still_loses_something() -> None:
    """R02 (100) breaks G01 (70), the only unit in front of Mira (and her HP card, D10.8); B03 (200) holds."""
    state = _attack({"ba1": ["G01"], "ba2": ["B03"]})
    assert _pick(state, 0) == "ATTACKER BA1.U1"
    state.apply("ATTACKER BA1.U1")
    assert _pick(state, 0) == "ATTACK BA1"


def test_passes_when_every_block_survives() -> None:
    state = _attack({"ba1": ["B03"], "ba2": ["B03"]})
    assert _pick(state, 0) == "PASS"


def test_blocks_with_a_unit_that_survives() -> None:
    state = _attack({"ba1": ["N06", "G01"]}, "ATTACKER BA1.U1", "ATTACK BA1")  # N06: 120 BP, static shield 10
    assert "BLOCK BA1.C" in legal(state)
    assert _pick(state, 1) == "BLOCK BA1.U1"


def test_chump_blocks_with_a_dummy_rather_than_the_caster() -> None:
    """100 damage: the caster would lose 2 HP cards, the dummy costs itself and 1 HP card (D10.8)."""
    state = _attack({"ba1": [{"card": "G07", "dummy": True, "checked": True, "known": False}]},
                    "ATTACKER BA1.U1", "ATTACK BA1")  # fmt: skip
    assert _pick(state, 1) == "BLOCK BA1.U1"


def test_blocks_with_the_caster_when_the_damage_is_below_its_hp_value() -> None:
    """Y04 (60) against Mira: floor(60 / 50) = 1 HP card; G01 (70) survives and loses nothing."""
    state = _attack({"ba1": ["G01"]}, "ATTACKER BA1.U1", "ATTACK BA1", p1={"ba1": ["Y04"]})
    assert _pick(state, 1) == "BLOCK BA1.U1"
    state = _attack({"ba1": []}, p1={"ba1": ["R04"]})  # 80 + 10 on attack: 1 HP card, worth an attack
    assert _pick(state, 0) == "ATTACKER BA1.U1"


P1_WAR_CRY = {"ba1": ["R02"], "hand": ["R07"], "bursts": 1}


def test_war_cry_when_it_crosses_the_break_threshold() -> None:
    """R02 (100) into N06 (120, static shield 10): War Cry (+40, D22.2 attack_mod) makes 140 >= 130."""
    p2 = {"ba1": ["N06"], "checked": (True, True)}  # P2 has no reaction: the right passes to P1 at once
    state = _attack(p2, "ATTACKER BA1.U1", "ATTACK BA1", "BLOCK BA1.U1", p1=P1_WAR_CRY)
    assert state.current_player() == 0
    assert _pick(state, 0) == "PLAY R07"


def test_no_war_cry_when_it_changes_nothing() -> None:
    p2 = {"ba1": ["B03"], "checked": (True, True)}
    state = _attack(p2, "ATTACKER BA1.U1", "ATTACK BA1", "BLOCK BA1.U1", p1=P1_WAR_CRY)
    assert state.current_player() == 0
    assert _pick(state, 0) == "PASS"


def test_shields_the_blocker_it_saves() -> None:
    """Mira's REACTION shield (30, log 1) keeps G02 (90) alive against R02 (100)."""
    state = _attack({"ba1": ["G02", "G01"], "bursts": 1}, "ATTACKER BA1.U1", "ATTACK BA1", "BLOCK BA1.U1")
    assert _pick(state, 1) == "USE BA1.C 0"
    state.apply("USE BA1.C 0")
    assert _pick(state, 1) == "TARGET P2:BA1.U1"


def test_gear_changes_to_become_first() -> None:
    """P1 is faster (A against C) and done; P2 gear-changes its one card that beats A (D6.3, D6.5)."""
    state = load(phase="speed", first=None, token="P1", to_move="P2",
                 p1={"speed": ["R01"]}, p2={"speed": ["R03"], "hand": ["Y04", "R05"]})  # fmt: skip
    assert _pick(state, 1) == "GEAR Y04"


def test_guards_an_open_caster_with_a_dummy() -> None:
    state = load(phase="cast", first="P1", p1={"hand": ["R05"]}, p2={"ba1": ["G01"]})
    assert _pick(state, 0).startswith("DUMMY R05 ")


def test_casts_the_biggest_unit_first_and_pays_with_bursts() -> None:
    state = load(phase="cast", first="P1", p1={"hand": ["R01", "R03"], "bursts": 2}, p2={"ba1": ["G01"]})
    assert _pick(state, 0) == "CAST R03"
    state.apply("CAST R03")
    assert _pick(state, 0) in ("TO BA1", "TO BA2")
    state.apply(_pick(state, 0))
    assert _pick(state, 0) == "PAY BURST"


def test_trigger_order_and_engrave_overflow_windows() -> None:
    state = load(make_position(
        phase="end", first="P1", p1={"ba1": ["G02"], "ba2": ["Y03"]},
        stack=[*rest_of_turn("end"), ["cleanup"], ["hand_limit", "P2"], ["hand_limit", "P1"], ["settle"],
               ["next_trigger"]],
        triggers=[{"player": "P1", "source": "P1:BA1.U1", "ability": "A:G02:0"},
                  {"player": "P1", "source": "P1:BA2.U1", "ability": "A:Y03:0"}],
    ))  # fmt: skip
    assert state.stack[-1][0] == "order"
    assert _pick(state, 0) in legal(state)
    engraves = [{"card": "N01", "checked": True}, "N01", "N01"]
    p1 = {"hand": ["G05"], "engraves": engraves, "bursts": 2, "discard": ["R01", "R02"]}
    state = load(phase="cast", first="P1", p1=p1, p2={"ba1": ["G01"]})
    state.apply("PLAY G05")
    while state.current_player() == 0 and state.stack[-1][0] != "scrap":
        state.apply(_pick(state, 0))
    assert state.stack[-1][0] == "scrap"
    assert _pick(state, 0) == "SCRAP 0"  # the checked engrave goes first (it is discarded at the end phase)


def test_the_lean_observation_and_the_attack_plans_change_no_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Step-level sameness of the heuristic's fast paths (BENCHMARKS.md, search rollouts): at every decision of
    mixed heuristic/random games it answers as it does reading the full observation, and every best attack plan
    it scores equals the plain maximum over every subset of attackers and every defended area."""
    from cardlab.games.dreadnought import heuristic

    fast_best_plan = heuristic._View.best_plan
    checked = 0

    def checked_best_plan(view: heuristic._View, player: int, sc: heuristic._Scenario) -> float:
        nonlocal checked
        checked += 1
        plain = max((score for score, _, _ in view.attack_plans(player, sc)), default=0.0)
        fast = fast_best_plan(view, player, sc)
        assert fast == max(plain, 0.0), (fast, plain)
        return fast

    fast_defence = heuristic._View.defence

    def checked_defence(view: heuristic._View, defender: int, area: int, sc: heuristic._Scenario) -> heuristic._Defence:
        """Its loss is the cheapest single block (D10.6), each blocker judged alone by `block_loss`."""
        defence = fast_defence(view, defender, area, sc)
        blockers = view.area_units(defender, area, sc) + ([view.s.casters[defender][area]] if defence.hp else [])
        for damage in range(-60, 400, 10):
            plain = min(view.block_loss(blocker, damage, sc) for blocker in blockers)
            assert defence.loss(damage) == plain, (damage, defence, plain)
        return defence

    monkeypatch.setattr(heuristic._View, "best_plan", checked_best_plan)
    monkeypatch.setattr(heuristic._View, "defence", checked_defence)
    for config in CONFIGS[:2]:
        game = Dreadnought(config)
        for seed in range(6):
            state = game.new_state(seed, record_events=False)
            rng = random.Random(seed)
            while state.current_player() is not None:
                lean_choice = choose(state, rng)
                with monkeypatch.context() as full:
                    full.setattr(heuristic, "dump_observation", lambda s, viewer, lean: s.observation(viewer))
                    assert choose(state, rng) == lean_choice
                state.apply(lean_choice if seed % 2 or rng.random() < 0.7 else rng.choice(state.legal_actions()))
    assert checked > 100
