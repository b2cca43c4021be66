"""One or more tests per numbered rule and ruling of shared/rules/edelweiss.md.

Each test name or docstring cites the rule it checks. Positions are built with
`make_position` (defaults filled in) and loaded; the engine then advances through every
automatic step and forced window (E14.3) to the first real choice.
"""

from __future__ import annotations

from collections import Counter

import pytest

from cardlab.core import IllegalActionError, make_rng
from cardlab.games.edelweiss import Edelweiss, EdelweissAction, EdelweissConfig
from cardlab.games.edelweiss.cards import CARD_NAMES, CHARACTERS, Skill, deck_cards

from .edelweiss_positions import GAME, attack_obj, field, hand, kinds, legal, load, make_position, skills

A = EdelweissAction

ALL_CHARACTERS = ("GARU", "ACCELA", "RAIHA", "VIRIDIAN", "VERDI", "EAGLE")


def all_cards(position: dict) -> list[str]:
    """Every card of a position, field orientation stripped."""
    cards = list(position["deck"]) + list(position["discard"])
    for player in position["players"].values():
        cards += player["hand"] + [entry.split(":")[0] for entry in player["field"]]
    return cards


def event_of(state, kind: str, player: int | None = None) -> dict:
    matches = [event for event in state.events.for_player(player) if event["kind"] == kind]
    assert matches, f"no {kind!r} event"
    return matches[-1]


# -- E1 Components and set-up -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("deck", "standard", "characters", "size", "ranks"),
    [
        ("full", None, None, 52, set("23456789") | {"10", "J", "Q", "K", "A"}),
        ("short", None, None, 36, set("23456789") | {"10"}),
        ("skills", "symbolic", ("GARU", "EAGLE"), 36, set("23456789") | {"10"}),
        ("skills", "accel2", ("RAIHA", "VERDI"), 36, set("23456789") | {"10"}),
    ],
)
def test_e1_1_deck_variants(deck, standard, characters, size, ranks):
    """E1.1: full = 52 cards; short = 2-10 (36); skills = the 36-card short deck, no J/Q/K/A in play."""
    game = Edelweiss(EdelweissConfig(deck=deck, standard=standard, characters=characters))
    for seed in range(5):
        cards = all_cards(game.new_state(seed).position())
        assert len(cards) == size
        assert len(set(cards)) == size
        assert {card[:-1] for card in cards} == ranks
        assert Counter(card[-1] for card in cards) == {suit: size // 4 for suit in "SHCD"}


@pytest.mark.parametrize(("deck", "standard", "size"), [("full", None, 4), ("short", None, 4), ("skills", "accel2", 5)])
def test_e1_4_opening_hand_sizes_and_dealing_ruling(deck, standard, size):
    """E1.4 + ruling: 4 cards each (5 in a skills game), P1's whole hand dealt from the top
    first, then P2's; then P1's first draw (E3.2 ruling) takes the next card."""
    characters = ("VERDI", "VERDI") if deck == "skills" else None
    game = Edelweiss(EdelweissConfig(deck=deck, standard=standard, characters=characters))
    checked = 0
    for seed in range(60):
        state = game.new_state(seed)
        position = state.position()
        if position["turn"] != 1 or position["window"] != "main":
            continue  # the first main step was a forced summon: the hands already changed
        order = [CARD_NAMES[card] for card in deck_cards(deck)]
        make_rng(seed).shuffle(order)  # order[0] is the top card of the shuffled deck
        assert sorted(position["players"]["P1"]["hand"]) == sorted([*order[:size], order[2 * size]])
        assert sorted(position["players"]["P2"]["hand"]) == sorted(order[size : 2 * size])
        assert position["deck"] == order[2 * size + 1 :]
        assert event_of(state, "draw", 0)["card"] == order[2 * size]
        checked += 1
    assert checked >= 10


def test_e1_4_opening_hand_sizes_from_card_counts():
    """E1.4: after P1's first draw P2 still holds its 4 (skills: 5) dealt cards."""
    for deck, standard, size in (("full", None, 4), ("skills", "symbolic", 5)):
        game = Edelweiss(EdelweissConfig(deck=deck, standard=standard, characters=None if standard is None else
                                         ("GARU", "GARU")))  # fmt: skip
        for seed in range(20):
            state = game.new_state(seed)
            if state.position()["turn"] == 1:
                assert len(hand(state, "P2")) == size
                assert len(hand(state, "P1")) + len(field(state, "P1")) == size + 1


def test_e7_1_characters_picked_when_unset():
    """E7.1: a skills game without configured characters still has two characters fixed at set-up."""
    game = Edelweiss(EdelweissConfig(deck="skills", standard="symbolic"))
    picked = set()
    for seed in range(30):
        characters = game.new_state(seed).position()["config"]["characters"]
        assert set(characters) == {"P1", "P2"}
        assert characters["P1"] in CHARACTERS and characters["P2"] in CHARACTERS
        picked.add(characters["P1"])
    assert len(picked) > 1


# -- E2 Zones ----------------------------------------------------------------------------------


def test_e2_2_diamonds_never_summoned():
    """E2.2: a diamond is never offered for a summon."""
    state = load(p1_hand=["2D", "3H", "4S"], p1_field=[])
    assert legal(state) == ["SUMMON H", "SUMMON S"]
    with pytest.raises(ValueError):
        A.parse("SUMMON D")


def test_e2_4_discard_is_newest_last_and_never_touches_the_deck():
    """E2.4 + ruling: discards go on top (newest last) and never change the deck count."""
    state = load(window="attack", p1_field=["6S:U", "8C:U"], p2_hand=["4C"], p2_field=["9H:U"], discard=["2D"],
                 deck_size=7)  # fmt: skip
    deck_before = state.position()["deck"]
    for action in ("ATTACK", "BLOCK", "PURSUIT"):
        state.apply(action)
    assert state.position()["discard"] == ["2D", "8C", "9H"]
    assert state.position()["deck"] == deck_before


# -- E3 Turn structure -------------------------------------------------------------------------


def test_e3_2a_deck_out_at_start_of_draw_step():
    """E3.2 a: an empty deck at the start of the draw step ends the game at once (E6.2)."""
    state = load(window="draw", turn=9, turn_player="P2", deck=[], p1_hand=["2S"], p2_hand=["3S", "4S"])
    position = state.position()
    assert position["window"] == "over"
    assert (position["winner"], position["win_reason"]) == ("P2", "deck_out")
    assert state.current_player() is None
    assert list(state.legal_actions()) == []
    assert position["players"]["P2"]["hand"] == ["3S", "4S"]  # nothing was drawn


def test_e3_2b_draws_the_top_card():
    """E3.2 b: the turn player draws the top card (deck lists are top card first)."""
    state = load(window="draw", deck=["9S", "3H", "4H"], p1_hand=["2H"], p1_field=["5S:U"])
    assert hand(state, "P1") == ["2H", "9S"]
    assert state.position()["deck"] == ["3H", "4H"]
    assert event_of(state, "draw", 0) == {"kind": "draw", "player": "P1", "card": "9S"}


def test_e3_2c_untaps_only_the_turn_players_cards():
    """E3.2 c: the turn player untaps all of their own cards; the defender's stay tapped."""
    state = load(window="draw", deck=["9H", "3H"], p1_hand=["2S"], p1_field=["5S:T", "8C:T", "6H:T", "7S:U"],
                 p2_field=["4S:T", "3C:T", "5H:T"])  # fmt: skip
    assert field(state, "P1") == ["5S:U", "8C:U", "6H:U", "7S:U"]
    assert field(state, "P2") == ["4S:T", "3C:T", "5H:T"]


def test_e3_2d_drawing_the_last_card_does_not_end_the_game():
    """E3.2 d (W5): taking the last card is fine; deck-out is checked at the next draw step."""
    state = load(window="draw", turn=20, turn_player="P2", deck=["7H"], p1_hand=["2D", "5D"], p1_field=["4H:U"],
                 p2_hand=["3D", "8D"], p2_field=["6S:T", "9C:T"])  # fmt: skip
    position = state.position()
    assert position["window"] == "attack"  # 7H was the only non-diamond: summoned automatically
    assert position["deck"] == []
    assert position["players"]["P2"] == {"hand": ["3D", "8D"], "field": ["6S:U", "9C:U", "7H:U"]}
    state.apply("END_TURN")
    position = state.position()
    assert (position["winner"], position["win_reason"]) == ("P2", "deck_out")  # 2 v 2: tie to P2


def test_e3_2_ruling_p1_draws_on_turn_one():
    """E3.2 ruling: P1 also draws on the very first turn."""
    for seed in range(10):
        state = GAME.new_state(seed)
        first = state.events.for_player(None)[0]
        assert first == {"kind": "draw", "player": "P1"}
        assert len(state.position()["deck"]) <= 52 - 8 - 1


def test_e3_3_nobody_attacks_in_their_first_turn():
    """E3.3: a spade enters tapped, so ATTACK is never legal in turns 1 and 2."""
    for deck, standard in (("full", None), ("short", None), ("skills", "symbolic"), ("skills", "accel2")):
        game = Edelweiss(EdelweissConfig(deck=deck, standard=standard))
        for seed in range(40):
            state = game.new_state(seed)
            rng = make_rng(seed)
            while state.position()["turn"] <= 2 and state.current_player() is not None:
                assert A.ATTACK not in state.legal_actions()
                state.apply(rng.choice(state.legal_actions()))
            assert not any(kind == "attack" for kind in kinds(state)[:-1]) or state.position()["turn"] > 2


def test_e3_3_main_step_hand_never_empty_in_play():
    """E3.3: at every main step of a real game the turn player holds a card."""
    game = Edelweiss(EdelweissConfig(deck="short"))
    for seed in range(40):
        state = game.new_state(seed)
        rng = make_rng(seed)
        while state.current_player() is not None:
            position = state.position()
            if position["window"] == "main":
                assert position["players"][position["turn_player"]]["hand"]
            state.apply(rng.choice(state.legal_actions()))


def test_e3_3_defender_taps_last_through_the_turn():
    """E3.3: a heart the defender tapped to block stays tapped for the rest of the attacker's turn."""
    state = load(window="attack", p1_field=["3S:U", "4S:U"], p2_field=["10H:U"])
    state.apply("ATTACK")
    state.apply("BLOCK")
    assert field(state, "P2") == ["10H:T"]
    assert legal(state) == ["ATTACK", "END_TURN"]
    state.apply("ATTACK")  # P2 can no longer block: empty hand, tapped heart -> forced NO_DEFENSE
    assert state.position()["winner"] == "P1"


# -- E4 Main step ------------------------------------------------------------------------------


def test_e4_1_summon_is_mandatory_and_any_non_diamond_suit():
    """E4.1: one non-diamond must be summoned; no pass, no end of turn in the main step."""
    state = load(p1_hand=["2S", "3H", "4C", "5D"], p1_field=["6S:U"] + [f"{r}H:T" for r in "789"])
    assert legal(state) == ["SUMMON C", "SUMMON H", "SUMMON S"]
    for action in ("END_TURN", "PASS", "ATTACK"):
        with pytest.raises(IllegalActionError):
            state.apply(action)


def test_e4_1_single_non_diamond_is_summoned_automatically():
    """E4.1 + E14.3: with one non-diamond suit in hand the summon is forced and applied."""
    state = load(p1_hand=["2S", "3S", "5D"], p1_field=["6S:U"])
    assert field(state, "P1") == ["6S:U", "2S:T"]
    assert hand(state, "P1") == ["3S", "5D"]
    assert legal(state) == ["ATTACK", "END_TURN"]


@pytest.mark.parametrize(("action", "entry"), [("SUMMON H", "3H:U"), ("SUMMON S", "2S:T"), ("SUMMON C", "4C:T")])
def test_e4_2_entry_orientation(action, entry):
    """E4.2: hearts enter upright, spades and clubs tapped (no skills)."""
    state = load(p1_hand=["2S", "3H", "4C"], p1_field=["9S:U"])
    state.apply(action)
    assert field(state, "P1") == ["9S:U", entry]


def test_e4_3_diamond_dust_is_automatic():
    """E4.3 + ruling: an all-diamond hand is revealed, nothing is summoned, play goes on."""
    state = load(p1_hand=["2D", "3D"], p1_field=["5S:U"])
    assert state.position()["window"] == "attack"
    assert legal(state) == ["ATTACK", "END_TURN"]
    assert field(state, "P1") == ["5S:U"]
    assert hand(state, "P1") == ["2D", "3D"]
    dust = event_of(state, "diamond_dust", 1)
    assert dust == {"kind": "diamond_dust", "player": "P1", "cards": ["2D", "3D"]}
    assert event_of(state, "diamond_dust", None) == dust  # shown to everyone
    assert state.observation(1)["players"]["P1"]["hand"] == ["2D", "3D"]
    assert state.observation(1)["players"]["P1"]["hand_complete"] is True


def test_e4_3_ruling_no_diamond_dust_with_a_non_diamond():
    """E4.3 ruling: Diamond Dust is impossible while the hand holds any non-diamond."""
    state = load(p1_hand=["2D", "3D", "4H", "5C"], p1_field=["5S:U"])
    assert legal(state) == ["SUMMON C", "SUMMON H"]
    assert "diamond_dust" not in kinds(state)
    assert state.observation(1)["players"]["P1"]["hand"] == []


def test_e4_4_ruling_empty_hand_main_step_does_nothing():
    """E4.4 ruling: a (hand-built) main step with an empty hand: no summon, no reveal."""
    state = load(p1_hand=[], p1_field=["5S:U"])
    assert state.position()["window"] == "attack"
    assert field(state, "P1") == ["5S:U"]
    assert "diamond_dust" not in kinds(state)
    assert "revealed" not in state.position()


def test_e4_5_one_normal_summon_per_main_step():
    """E4.5: after one summon the main step is over (attack phase next)."""
    state = load(p1_hand=["2S", "3H", "4C"], p1_field=["5S:U"])
    state.apply("SUMMON H")
    assert state.position()["window"] == "attack"
    assert legal(state) == ["ATTACK", "END_TURN"]
    assert hand(state, "P1") == ["2S", "4C"]
    with pytest.raises(IllegalActionError):
        state.apply("SUMMON S")


# -- E5 Attack step ----------------------------------------------------------------------------


def test_e5_1a_attack_taps_a_spade_and_opens_a_sequence():
    """E5.1 a: ATTACK taps the spade; the sequence goes to the defender."""
    state = load(window="attack", p1_field=["5S:U"], p2_hand=["2H"], p2_field=["3H:U"])
    state.apply("ATTACK")
    position = state.position()
    assert position["players"]["P1"]["field"] == ["5S:T"]
    assert position["window"] == "defense"  # intercept was a forced PASS
    assert state.current_player() == 1
    assert position["attack"] == attack_obj("5S")


def test_e5_1b_without_upright_spade_the_turn_ends():
    """E5.1 b: no upright spade -> END_TURN is forced and the opponent's draw step runs."""
    state = load(window="attack", turn=5, p1_field=["5S:T", "6C:U"], deck=["9H", "8H"], p2_hand=["2S"],
                 p2_field=["4S:T"])  # fmt: skip
    position = state.position()
    assert (position["turn"], position["turn_player"]) == (6, "P2")
    assert position["players"]["P2"]["hand"] == ["2S", "9H"]  # P2 drew 9H
    assert position["players"]["P2"]["field"] == ["4S:U"]  # and untapped
    assert legal(state) == ["SUMMON H", "SUMMON S"]


def test_e5_1_ruling_attacking_is_optional():
    """E5.1 ruling: END_TURN is legal even with upright spades."""
    state = load(window="attack", p1_field=["5S:U", "6S:U"], p2_hand=["2H", "3S"])
    assert legal(state) == ["ATTACK", "END_TURN"]
    state.apply("END_TURN")
    assert state.position()["turn_player"] == "P2"
    assert field(state, "P1") == ["5S:U", "6S:U"]


def test_e5_1_ruling_one_spade_per_sequence_several_sequences():
    """E5.1 ruling: each spade attacks in its own sequence; several sequences per turn."""
    state = load(window="attack", p1_field=["5S:U", "6S:U"], p2_hand=["2H", "3H", "4C"])
    state.apply("ATTACK")
    assert field(state, "P1") == ["5S:T", "6S:U"]
    state.apply("GUARD H")
    assert state.position()["window"] == "attack"  # no counter, no club for pursuit, no break
    assert state.position()["attack"] is None
    state.apply("ATTACK")
    assert field(state, "P1") == ["5S:T", "6S:T"]
    assert state.position()["attack"] == attack_obj("6S")


def test_e5_1_ruling_spade_attacks_again_after_pursuit():
    """E5.1 ruling: a spade untapped by pursuit stance may attack again."""
    state = load(window="attack", p1_field=["6S:U", "8C:U"], p2_hand=["4C", "5C"])
    state.apply("ATTACK")
    state.apply("GUARD C")
    state.apply("PURSUIT")
    assert field(state, "P1") == ["6S:U", "8C:T"]
    assert legal(state) == ["ATTACK", "END_TURN"]
    state.apply("ATTACK")
    assert state.position()["attack"]["spade"] == "6S"


def test_e5_2_lionheart_taps_club_untaps_heart():
    """E5.2 (W4 sequence 2): tap an upright club to untap a tapped heart, then defend."""
    state = load(window="attack", p1_field=["4S:U"], p2_field=["10H:T", "2C:U"])
    state.apply("ATTACK")
    assert state.position()["window"] == "intercept"
    assert state.current_player() == 1
    assert legal(state) == ["LIONHEART", "PASS"]
    state.apply("LIONHEART")
    assert field(state, "P2") == ["10H:U", "2C:T"]
    assert legal(state) == ["BLOCK", "NO_DEFENSE"]
    assert event_of(state, "lionheart") == {"kind": "lionheart", "player": "P2", "club": "2C", "heart": "10H"}


def test_e5_2_ruling_lionheart_needs_a_tapped_heart():
    """E5.2 ruling (W4 sequence 1): an upright club but no tapped heart -> PASS only (automatic)."""
    state = load(window="attack", p1_field=["3S:U", "4S:U"], p2_field=["10H:U", "2C:U"])
    state.apply("ATTACK")
    assert state.position()["window"] == "defense"
    assert field(state, "P2") == ["10H:U", "2C:U"]
    assert legal(state) == ["BLOCK", "NO_DEFENSE"]


def test_e5_2_ruling_one_lionheart_per_intercept():
    """E5.2 ruling: after one Lionheart the intercept phase is over, even with more clubs and hearts."""
    state = load(window="attack", p1_field=["4S:U"], p2_field=["10H:T", "9H:T", "2C:U", "3C:U"])
    state.apply("ATTACK")
    state.apply("LIONHEART")
    assert state.position()["window"] == "defense"
    assert A.LIONHEART not in state.legal_actions()
    assert field(state, "P2") == ["10H:U", "9H:T", "2C:T", "3C:U"]


def test_e5_3a_guard_with_any_suit_reveals_the_card():
    """E5.3 a: the defender may guard with any hand card; it is discarded face up."""
    state = load(window="attack", p1_field=["5S:U", "6S:U"], p2_hand=["2S", "3H", "4C", "5D"])
    state.apply("ATTACK")
    assert legal(state) == ["GUARD C", "GUARD D", "GUARD H", "GUARD S", "NO_DEFENSE"]
    state.apply("GUARD H")
    assert state.position()["discard"] == ["3H"]
    assert hand(state, "P2") == ["2S", "4C", "5D"]
    assert event_of(state, "guard", 0)["card"] == "3H"
    assert event_of(state, "guard", None)["card"] == "3H"


def test_e5_3a_non_diamond_guard_causes_no_counter():
    """E5.3 a: a spade/heart/club guard causes nothing: no counter phase."""
    state = load(window="attack", p1_field=["5S:U", "6C:U"], p2_hand=["2S", "5D"])
    state.apply("ATTACK")
    state.apply("GUARD S")
    position = state.position()
    assert position["window"] == "pursuit"
    assert position["attack"]["counter"] is False
    assert legal(state) == ["PASS", "PURSUIT"]


def test_e5_3a_diamond_guard_causes_a_counter():
    """E5.3 a (W3): a diamond guard causes a counter."""
    state = load(window="attack", p1_field=["7S:U", "5C:U", "10C:T"], p2_hand=["6D", "2S"], p2_field=["3S:T"])
    state.apply("ATTACK")
    state.apply("GUARD D")
    position = state.position()
    assert position["window"] == "counter"
    assert position["attack"] == attack_obj("7S", defense="guard", guard_card="6D", counter=True)
    assert state.current_player() == 0


def test_e5_3b_block_taps_an_upright_heart():
    """E5.3 b: a block taps an upright heart, which becomes the blocking heart."""
    state = load(window="attack", p1_field=["6S:U", "8C:U"], p2_hand=["4C"], p2_field=["9H:U", "2C:T"])
    state.apply("ATTACK")
    assert legal(state) == ["BLOCK", "GUARD C", "NO_DEFENSE"]
    state.apply("BLOCK")
    assert field(state, "P2") == ["9H:T", "2C:T"]
    assert state.position()["attack"] == attack_obj("6S", defense="block", blocker="9H")


def test_e5_3d_no_defense_wins_for_the_attacker():
    """E5.3 d / E6.1: no defense -> the attacker wins at once."""
    state = load(window="attack", p1_field=["5S:U", "6C:U"], p2_hand=["2S"], p2_field=["3H:U"])
    state.apply("ATTACK")
    state.apply("NO_DEFENSE")
    position = state.position()
    assert (position["winner"], position["win_reason"], position["window"]) == ("P1", "attack", "over")
    assert state.outcome().winner == 0
    assert state.returns() == (1.0, -1.0)
    assert field(state, "P1") == ["5S:T", "6C:U"]  # no pursuit or later phase was played


def test_e5_3_ruling_free_choice_and_no_defense_always_legal():
    """E5.3 ruling: guard, block and no-defense are all offered side by side."""
    state = load(window="attack", p1_field=["5S:U"], p2_hand=["2D"], p2_field=["3H:U"])
    state.apply("ATTACK")
    assert legal(state) == ["BLOCK", "GUARD D", "NO_DEFENSE"]


def test_e5_3_forced_no_defense_is_automatic():
    """E5.3 d + E14.3 (W1): without any defense the attack wins right after ATTACK."""
    state = load(window="attack", p1_field=["5S:U"], p2_field=["4S:T", "3C:T", "2H:T"])
    state.apply("ATTACK")
    assert state.position()["winner"] == "P1"


def test_e5_3_ruling_poison_bind_resolves_before_the_counter_phase():
    """E5.3 ruling / E8.4: after a counter-causing defense, Poison Bind taps a club before the counter choice."""
    state = skills(("RAIHA", "VIRIDIAN"), window="attack", p1_field=["5S:U", "2C:U", "3C:U"], p2_hand=["4D"])
    state.apply("ATTACK")
    state.apply("GUARD D")
    position = state.position()
    assert position["window"] == "counter"
    assert position["players"]["P1"]["field"] == ["5S:T", "2C:T", "3C:U"]
    assert legal(state) == ["DISCARD_CLUB", "DISCARD_SPADE"]
    assert kinds(state)[-2:] == ["guard", "poison_bind"]


def test_e5_4a_discard_the_attacking_spade():
    """E5.4 a (W3b): the attacker discards the attacking spade; no pursuit; clubs stay upright."""
    state = load(window="attack", p1_field=["7S:U", "5C:U", "10C:T"], p2_hand=["6D", "2S"], p2_field=["3S:T"])
    state.apply("ATTACK")
    state.apply("GUARD D")
    state.apply("DISCARD_SPADE")
    position = state.position()
    assert position["discard"] == ["6D", "7S"]
    assert position["players"]["P1"]["field"] == ["5C:U", "10C:T"]
    assert position["turn_player"] == "P2"  # no pursuit possible, no spade: turn ended


def test_e5_4b_discard_an_upright_club_not_a_tapped_one():
    """E5.4 b + ruling (W3): the club discarded is an upright one; the tapped 10C is not eligible."""
    state = load(window="attack", p1_field=["10C:T", "7S:U", "5C:U"], p2_hand=["6D", "2S"], p2_field=["3S:T"])
    state.apply("ATTACK")
    state.apply("GUARD D")
    assert legal(state) == ["DISCARD_CLUB", "DISCARD_SPADE"]
    state.apply("DISCARD_CLUB")
    assert state.position()["discard"] == ["6D", "5C"]
    assert field(state, "P1") == ["10C:T", "7S:T"]


def test_e5_4b_the_first_field_card_counts_as_an_upright_club():
    """E5.4 b: an upright club first on the field (index 0) still offers the choice; nothing is forced."""
    state = load(window="attack", p1_field=["5C:U", "7S:U"], p2_hand=["6D", "2S"], p2_field=["3S:T"])
    state.apply("ATTACK")
    state.apply("GUARD D")
    assert legal(state) == ["DISCARD_CLUB", "DISCARD_SPADE"]
    state.apply("DISCARD_CLUB")
    assert state.position()["discard"] == ["6D", "5C"]


def test_e5_4_ruling_no_upright_club_forces_discarding_the_spade():
    """E5.4 ruling: with only tapped clubs the attacking spade is discarded automatically."""
    state = load(window="attack", p1_field=["7S:U", "10C:T"], p2_hand=["6D", "2S", "3H"])
    state.apply("ATTACK")
    state.apply("GUARD D")
    assert state.position()["discard"] == ["6D", "7S"]
    assert field(state, "P1") == ["10C:T"]
    assert state.position()["turn_player"] == "P2"


def test_e5_4_no_counter_no_counter_phase():
    """E5.4: without a counter nothing happens (straight to pursuit)."""
    state = load(window="attack", p1_field=["7S:U", "5C:U"], p2_field=["9H:U"])
    state.apply("ATTACK")
    state.apply("BLOCK")
    assert state.position()["window"] == "pursuit"
    assert state.position()["discard"] == []


def test_e5_5_pursuit_stance_untaps_the_attacking_spade():
    """E5.5: tap an upright club to untap the attacking spade; the club is the pursuit club."""
    state = load(window="attack", p1_field=["6S:U", "8C:U", "9C:U"], p2_hand=["4C", "5C"])
    state.apply("ATTACK")
    state.apply("GUARD C")
    assert legal(state) == ["PASS", "PURSUIT"]
    state.apply("PURSUIT")
    assert field(state, "P1") == ["6S:U", "8C:T", "9C:U"]
    assert event_of(state, "pursuit") == {"kind": "pursuit", "player": "P1", "club": "8C", "card": "6S"}


def test_e5_5_ruling_one_pursuit_per_phase():
    """E5.5 ruling: after a pursuit stance the sequence ends (back to the attack phase)."""
    state = load(window="attack", p1_field=["6S:U", "8C:U", "9C:U"], p2_hand=["4C", "5C"])
    state.apply("ATTACK")
    state.apply("GUARD C")
    state.apply("PURSUIT")
    assert state.position()["window"] == "attack"
    assert A.PURSUIT not in state.legal_actions()


def test_e5_5_ruling_no_pursuit_after_the_spade_was_discarded():
    """E5.5 ruling (W3b): pursuit is impossible once the attacking spade was discarded."""
    state = load(window="attack", p1_field=["7S:U", "6S:U", "5C:U"], p2_hand=["6D", "2S"])
    state.apply("ATTACK")
    state.apply("GUARD D")
    state.apply("DISCARD_SPADE")
    position = state.position()
    assert position["window"] == "attack"  # pursuit was a forced PASS
    assert position["players"]["P1"]["field"] == ["6S:U", "5C:U"]


def test_e5_5_ruling_pursuit_after_guard_with_counter():
    """E5.5 ruling: pursuit is still available after a diamond guard (counter paid with a club)."""
    state = load(window="attack", p1_field=["7S:U", "5C:U", "4C:U"], p2_hand=["6D", "2S"])
    state.apply("ATTACK")
    state.apply("GUARD D")
    state.apply("DISCARD_CLUB")
    assert legal(state) == ["PASS", "PURSUIT"]
    state.apply("PURSUIT")
    assert field(state, "P1") == ["7S:U", "4C:T"]


def test_e5_5_ruling_pursuit_after_block():
    """E5.5 ruling: pursuit is available after a block."""
    state = load(window="attack", p1_field=["7S:U", "5C:U"], p2_field=["9H:U"])
    state.apply("ATTACK")
    state.apply("BLOCK")
    assert legal(state) == ["PASS", "PURSUIT"]


def test_e5_5_ruling_pursuit_after_field_guard():
    """E5.5 ruling: pursuit is available after a Guardian field guard."""
    state = skills(("GARU", "RAIHA"), window="attack", p1_field=["7S:U", "5C:U", "4C:U"], p2_field=["9S:T"])
    state.apply("ATTACK")
    state.apply("FIELD_GUARD S")
    state.apply("DISCARD_CLUB")
    assert legal(state) == ["PASS", "PURSUIT"]


def test_e5_6_break_discards_pursuit_club_then_heart():
    """E5.6 + ruling (W2): block + pursuit -> discard the pursuit club, then the blocking heart."""
    state = load(window="attack", p1_field=["6S:U", "8C:U"], p2_hand=["4C"], p2_field=["9H:U", "2C:T"])
    state.apply("ATTACK")
    state.apply("BLOCK")
    state.apply("PURSUIT")
    position = state.position()
    assert position["discard"] == ["8C", "9H"]
    assert position["players"]["P1"]["field"] == ["6S:U"]
    assert position["players"]["P2"]["field"] == ["2C:T"]
    assert event_of(state, "break") == {"kind": "break", "club": "8C", "heart": "9H"}
    assert position["window"] == "attack" and position["attack"] is None


def test_e5_6_no_break_without_pursuit_or_without_block():
    """E5.6: block without pursuit, or pursuit after a guard, discards nothing."""
    state = load(window="attack", p1_field=["6S:U", "8C:U", "7S:U"], p2_hand=["4C"], p2_field=["9H:U"])
    state.apply("ATTACK")
    state.apply("BLOCK")
    state.apply("PASS")
    assert state.position()["discard"] == []
    assert field(state, "P2") == ["9H:T"]

    state = load(window="attack", p1_field=["6S:U", "8C:U"], p2_hand=["4C"], p2_field=["9H:U"])
    state.apply("ATTACK")
    state.apply("GUARD C")
    state.apply("PURSUIT")
    assert state.position()["discard"] == ["4C"]
    assert field(state, "P1") == ["6S:U", "8C:T"]
    assert field(state, "P2") == ["9H:U"]


def test_e5_7_attack_step_terminates():
    """E5.7: with clubs for pursuit the attacker can re-attack only as long as clubs last."""
    state = load(window="attack", p1_field=["6S:U", "2C:U", "3C:U"], p2_hand=["2H", "3H", "4H", "5H", "6H"])
    attacks = 0
    while state.position()["turn"] == 5 and A.ATTACK in state.legal_actions():
        state.apply("ATTACK")
        attacks += 1
        state.apply("GUARD H")
        if A.PURSUIT in state.legal_actions():
            state.apply("PURSUIT")
    assert attacks == 3


# -- E6 End of the game ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("notation", "winner"),
    [
        ("full 30 P1 draw 2D,5D/- 3D,8D/- - - - -", "P2"),  # W5: tie goes to P2
        ("full 30 P1 draw 2D,5D,6D/- 3D,8D/- - - - -", "P1"),  # W5c
        ("full 30 P1 draw 2D/- 3D,8D/- - - - -", "P2"),  # W5b
        ("full 30 P1 draw -/- -/- - - - -", "P2"),
        ("full 30 P1 draw 2D/- -/- - - - -", "P1"),
    ],
)
def test_e6_2_deck_out_more_hand_cards_wins_tie_to_p2(notation, winner):
    """E6.2: at deck-out (E3.2 a: the draw step finds the deck empty) the larger hand wins; equal hands -> P2.

    Positions in the one-line notation of docs/notation.md; the test id is the notation.
    """
    state = GAME.parse_notation(notation)
    assert (state.position()["winner"], state.position()["win_reason"]) == (winner, "deck_out")
    assert state.outcome().reason == "deck_out"
    assert state.notation() == notation.replace(" draw ", " over ").removesuffix(" -") + f" {winner}:deck_out"


def test_e6_2_ruling_only_hand_cards_count():
    """E6.2 ruling: field and discard cards are not counted, only hands at that moment."""
    state = load(window="draw", turn=30, turn_player="P2", deck=[], p1_hand=["2D"], discard=["9S", "9H", "9C"],
                 p1_field=["3S:T", "4H:U", "5C:U", "6S:T"], p2_hand=["7D", "8D"])  # fmt: skip
    assert state.position()["winner"] == "P2"
    state = load(window="draw", turn=30, turn_player="P1", deck=[], p1_hand=["2D", "3D"],
                 p2_field=["3S:T", "4H:U", "5C:U", "6S:T"], p2_hand=["7D"])  # fmt: skip
    assert state.position()["winner"] == "P1"


# -- E7 Skills game ----------------------------------------------------------------------------


@pytest.mark.parametrize(("char_id", "suits"), [("GARU", "SH"), ("ACCELA", "HC"), ("RAIHA", "SC"), ("VIRIDIAN", "SD"),
                                                ("VERDI", "HD"), ("EAGLE", "CD")])  # fmt: skip
def test_e7_2_and_e9_characters_are_suit_pairs(char_id, suits):
    """E7.2/E9: each character is two distinct suits; S=Guardian, H=Buddy, C=Wizard, D=Poison Bind."""
    skill_of = {"S": Skill.GUARDIAN, "H": Skill.BUDDY_SUMMONER, "C": Skill.WIZARD, "D": Skill.POISON_BIND}
    assert CHARACTERS[char_id].suits == suits
    assert CHARACTERS[char_id].skills == skill_of[suits[0]] | skill_of[suits[1]]


def test_e7_2_skills_change_play_wizard():
    """E7.2: a character's club suit gives Wizard (EAGLE's clubs enter upright, VERDI's do not)."""
    eagle = skills(("EAGLE", "VERDI"), p1_hand=["2C", "3S"], p1_field=["9S:U"])
    eagle.apply("SUMMON C")
    assert field(eagle, "P1") == ["9S:U", "2C:U"]
    verdi = skills(("VERDI", "EAGLE"), p1_hand=["2C", "3S"], p1_field=["9S:U"])
    verdi.apply("SUMMON C")
    assert field(verdi, "P1") == ["9S:U", "2C:T"]


def test_e7_3_skill_cards_are_not_in_play():
    """E7.3/E7.6: queens, kings, jacks and aces never appear in any zone of a skills game."""
    game = Edelweiss(EdelweissConfig(deck="skills", standard="accel2", characters=("GARU", "EAGLE")))
    rng = make_rng(7)
    for seed in range(20):
        state = game.new_state(seed)
        while state.current_player() is not None:
            assert not any(card[:-1] in ("J", "Q", "K", "A") for card in all_cards(state.position()))
            state.apply(rng.choice(state.legal_actions()))


def test_e7_5_ruling_mirror_match_is_legal():
    """E7.5 ruling: both players may have the same character; both get its skills."""
    state = skills(("EAGLE", "EAGLE"), window="attack", turn=4, turn_player="P2", p2_field=["5S:T"],
                   p1_hand=["2C", "3S"], p2_hand=["4C"], deck=["6C", "7C", "8C"])  # fmt: skip
    # P2 ends the turn; P1 draws 6C and summons a club: Wizard for P1 too.
    assert legal(state) == ["SUMMON C", "SUMMON S"]
    state.apply("SUMMON C")
    assert field(state, "P1") == ["2C:U"]
    assert state.position()["config"]["characters"] == {"P1": "EAGLE", "P2": "EAGLE"}


# -- E8.1 Guardian -----------------------------------------------------------------------------


def test_e8_1_symbolic_field_guard_needs_an_empty_hand():
    """E8.1 Symbolic: with cards in hand there is no field guard."""
    state = skills(("RAIHA", "GARU"), window="attack", p1_field=["5S:U"], p2_hand=["2H"], p2_field=["9S:T"])
    state.apply("ATTACK")
    assert legal(state) == ["GUARD H", "NO_DEFENSE"]


def test_e8_1_symbolic_field_guard_any_tapped_suit_causes_counter():
    """E8.1 Symbolic + ruling: empty hand -> any tapped S/H/C may be discarded as a guard, causing a counter."""
    state = skills(("RAIHA", "GARU"), window="attack", p1_field=["5S:U", "2C:U"],
                   p2_field=["9S:T", "8H:T", "7C:T", "6S:U", "5H:U"])  # fmt: skip
    state.apply("ATTACK")
    assert legal(state) == ["BLOCK", "FIELD_GUARD C", "FIELD_GUARD H", "FIELD_GUARD S", "NO_DEFENSE"]
    state.apply("FIELD_GUARD H")
    position = state.position()
    assert position["discard"] == ["8H"]
    assert position["window"] == "counter"
    assert position["attack"] == attack_obj("5S", defense="field_guard", guard_card="8H", counter=True)


def test_e8_1_symbolic_upright_cards_cannot_be_field_guarded():
    """E8.1 Symbolic: only tapped cards qualify."""
    state = skills(("RAIHA", "GARU"), window="attack", p1_field=["5S:U"], p2_field=["6S:U", "5C:U", "4H:U"])
    state.apply("ATTACK")
    assert legal(state) == ["BLOCK", "NO_DEFENSE"]


def test_e8_1_ruling_field_guard_is_a_guard_never_a_break():
    """E8.1 ruling: a field guard is not a block: pursuit after it causes no break."""
    state = skills(("RAIHA", "GARU"), window="attack", p1_field=["5S:U", "2C:U", "3C:U"],
                   p2_field=["8H:T", "9H:T"])  # fmt: skip
    state.apply("ATTACK")
    state.apply("FIELD_GUARD H")
    state.apply("DISCARD_CLUB")
    state.apply("PURSUIT")
    position = state.position()
    assert position["discard"] == ["8H", "2C"]
    assert position["players"]["P1"]["field"] == ["5S:U", "3C:T"]
    assert position["players"]["P2"]["field"] == ["9H:T"]


def test_e8_1_ruling_lionheart_club_may_be_field_guarded():
    """E8.1 ruling: the club tapped for Lionheart in the same sequence is a tapped card for a field guard."""
    state = skills(("RAIHA", "GARU"), window="attack", p1_field=["5S:U", "2C:U"], p2_field=["8H:T", "7C:U"])
    state.apply("ATTACK")
    state.apply("LIONHEART")
    assert field(state, "P2") == ["8H:U", "7C:T"]
    assert legal(state) == ["BLOCK", "FIELD_GUARD C", "NO_DEFENSE"]
    state.apply("FIELD_GUARD C")
    assert state.position()["discard"] == ["7C"]


def test_e8_1_accel2_spade_field_guard_with_cards_in_hand():
    """E8.1 Accel 2 (1) (W6): a tapped spade may be field-guarded whatever the hand size."""
    state = skills(("VIRIDIAN", "EAGLE"), standard="accel2", window="attack", turn=6, turn_player="P2",
                   p2_field=["8S:U", "3C:U", "5C:U"], p1_hand=["4H"], p1_field=["9S:T", "6H:T"],
                   deck=["2S", "3S"])  # fmt: skip
    state.apply("ATTACK")
    assert legal(state) == ["FIELD_GUARD S", "GUARD H", "NO_DEFENSE"]
    state.apply("FIELD_GUARD S")
    position = state.position()
    assert position["discard"] == ["9S"]
    assert position["players"]["P2"]["field"] == ["8S:T", "3C:T", "5C:U"]  # Poison Bind: oldest upright club
    assert legal(state) == ["DISCARD_CLUB", "DISCARD_SPADE", "PROTECT"]
    state.apply("PROTECT")
    position = state.position()
    assert position["discard"] == ["9S"]
    assert position["players"]["P2"]["field"] == ["8S:T", "3C:T", "5C:T"]
    # W6: no upright spade left -> the turn ended; P1 then drew 2S and untapped 6H (E3.2).
    assert (position["turn_player"], position["window"]) == ("P1", "main")
    assert position["players"]["P1"] == {"hand": ["2S", "4H"], "field": ["6H:U"]}


def test_e8_1_accel2_ruling_empty_hand_still_only_spades():
    """E8.1 Accel 2 ruling: the Symbolic any-suit field guard is not kept, even with an empty hand."""
    state = skills(("RAIHA", "GARU"), standard="accel2", window="attack", p1_field=["5S:U"],
                   p2_field=["8H:T", "7C:T", "9S:T"])  # fmt: skip
    state.apply("ATTACK")
    assert legal(state) == ["FIELD_GUARD S", "NO_DEFENSE"]
    state = skills(("RAIHA", "GARU"), standard="accel2", window="attack", p1_field=["5S:U"],
                   p2_field=["8H:T", "7C:T"])  # fmt: skip
    state.apply("ATTACK")
    assert state.position()["winner"] == "P1"  # nothing but NO_DEFENSE: forced


def test_e8_1_symbolic_w6b():
    """E8.1 Symbolic (W6b): guard empties the hand, then a field guard of a tapped heart."""
    state = skills(("VIRIDIAN", "EAGLE"), standard="symbolic", window="attack", turn=6, turn_player="P2",
                   p2_field=["8S:U", "3C:U", "5C:U"], p1_hand=["4H"], p1_field=["9S:T", "6H:T"],
                   deck=["2S", "3H"])  # fmt: skip
    state.apply("ATTACK")
    assert legal(state) == ["GUARD H", "NO_DEFENSE"]
    state.apply("GUARD H")
    state.apply("PURSUIT")
    state.apply("ATTACK")
    assert legal(state) == ["FIELD_GUARD H", "FIELD_GUARD S", "NO_DEFENSE"]
    state.apply("FIELD_GUARD H")
    position = state.position()
    assert position["discard"] == ["4H", "6H", "8S"]
    assert position["players"]["P2"]["field"] == ["3C:T", "5C:T"]
    # The turn ended; P1 drew 2S (a single suit: summoned automatically, entering tapped).
    assert (position["turn_player"], position["window"]) == ("P1", "attack")
    assert position["players"]["P1"] == {"hand": [], "field": ["9S:U", "2S:T"]}


def test_e8_1_guardian_not_for_attacker_or_non_owner():
    """E8.1: only the defender who owns Guardian may field-guard."""
    state = skills(("GARU", "EAGLE"), window="attack", p1_field=["5S:U", "6S:T"], p2_field=["9S:T"])
    state.apply("ATTACK")
    assert state.position()["winner"] == "P1"  # EAGLE has no Guardian: no defense at all


# -- E8.2 Buddy Summoner -----------------------------------------------------------------------


@pytest.mark.parametrize(("standard", "entry"), [("symbolic", "3H:T"), ("accel2", "3H:U")])
@pytest.mark.parametrize("summon", ["SUMMON S", "SUMMON C"])
def test_e8_2_special_summon_after_spade_or_club(standard, entry, summon):
    """E8.2: after a spade/club summon with a heart in hand, a heart may be special-summoned
    (tapped under Symbolic, upright under Accel 2); the lowest heart goes (E14.2)."""
    state = skills(("GARU", "EAGLE"), standard=standard, p1_hand=["2S", "2C", "3H", "9H"], p1_field=["9S:U"])
    state.apply(summon)
    assert state.position()["window"] == "special_summon"
    assert legal(state) == ["PASS", "SPECIAL_SUMMON"]
    state.apply("SPECIAL_SUMMON")
    assert field(state, "P1")[-1] == entry
    assert hand(state, "P1").count("9H") == 1 and "3H" not in hand(state, "P1")
    assert state.position()["window"] == "attack"


def test_e8_2_special_summon_is_optional():
    """E8.2: PASS declines the special summon."""
    state = skills(("GARU", "EAGLE"), p1_hand=["2S", "3H"], p1_field=["9S:U"])
    state.apply("SUMMON S")
    state.apply("PASS")
    assert field(state, "P1") == ["9S:U", "2S:T"]
    assert hand(state, "P1") == ["3H"]
    assert legal(state) == ["ATTACK", "END_TURN"]


def test_e8_2_no_heart_in_hand_no_trigger():
    """E8.2 condition: without a heart in hand there is no special summon window."""
    state = skills(("GARU", "EAGLE"), p1_hand=["2S", "3C"], p1_field=["9S:U"])
    state.apply("SUMMON S")
    assert state.position()["window"] == "attack"


def test_e8_2_ruling_heart_summon_does_not_trigger():
    """E8.2 ruling: summoning a heart does not trigger a special summon."""
    state = skills(("GARU", "EAGLE"), p1_hand=["2S", "3H", "4H"], p1_field=["9S:U"])
    state.apply("SUMMON H")
    assert state.position()["window"] == "attack"
    assert field(state, "P1") == ["9S:U", "3H:U"]


def test_e8_2_ruling_at_most_one_special_summon():
    """E8.2 ruling: one special summon per normal summon, and it triggers nothing."""
    state = skills(("GARU", "EAGLE"), p1_hand=["2S", "3H", "4H", "5H"], p1_field=["9S:U"])
    state.apply("SUMMON S")
    state.apply("SPECIAL_SUMMON")
    assert state.position()["window"] == "attack"
    assert hand(state, "P1") == ["4H", "5H"]
    assert legal(state) == ["ATTACK", "END_TURN"]


def test_e8_2_ruling_diamond_dust_does_not_trigger():
    """E8.2 ruling: Diamond Dust does not trigger a special summon (and a hearts hand isn't all diamonds)."""
    state = skills(("GARU", "EAGLE"), p1_hand=["2D", "3D"], p1_field=["9S:U"])
    assert state.position()["window"] == "attack"
    assert "special_summon" not in kinds(state)


def test_e8_2_non_owner_has_no_special_summon():
    """E8.2: only the owner of Buddy Summoner gets the window."""
    state = skills(("EAGLE", "GARU"), p1_hand=["2S", "3H"], p1_field=["9S:U"])
    state.apply("SUMMON S")
    assert state.position()["window"] == "attack"


# -- E8.3 Wizard -------------------------------------------------------------------------------


@pytest.mark.parametrize("standard", ["symbolic", "accel2"])
def test_e8_3_wizard_clubs_enter_upright(standard):
    """E8.3: under both standards a Wizard's clubs enter upright; spades still enter tapped."""
    state = skills(("ACCELA", "GARU"), standard=standard, p1_hand=["2C", "3S"], p1_field=["9S:U"])
    state.apply("SUMMON C")
    assert field(state, "P1") == ["9S:U", "2C:U"]
    state = skills(("ACCELA", "GARU"), standard=standard, p1_hand=["2C", "3S"], p1_field=["9S:U"])
    state.apply("SUMMON S")
    assert field(state, "P1") == ["9S:U", "3S:T"]


def test_e8_3_wizard_club_can_pursue_in_the_same_turn():
    """E8.3 consequence: a freshly summoned upright club pays for pursuit stance at once."""
    state = skills(("RAIHA", "GARU"), p1_hand=["2C", "3S"], p1_field=["9S:U"], p2_hand=["4H", "5H"])
    state.apply("SUMMON C")
    state.apply("ATTACK")
    state.apply("GUARD H")
    assert legal(state) == ["PASS", "PURSUIT"]


# -- E8.4 Poison Bind --------------------------------------------------------------------------


def test_e8_4_poison_bind_on_diamond_guard_taps_oldest_upright_club():
    """E8.4 + ruling: on a diamond-guard counter, the attacker's oldest upright club is tapped."""
    state = skills(("GARU", "EAGLE"), window="attack", p1_field=["9C:T", "5S:U", "10C:U", "2C:U"],
                   deck_size=3, p2_hand=["4D"])  # fmt: skip
    state.apply("ATTACK")
    state.apply("GUARD D")
    assert field(state, "P1") == ["9C:T", "5S:T", "10C:T", "2C:U"]
    assert event_of(state, "poison_bind", 0) == {"kind": "poison_bind", "player": "P2", "club": "10C"}


def test_e8_4_ruling_triggers_on_field_guard_counter():
    """E8.4 ruling: Poison Bind triggers on a counter caused by its owner's Guardian field guard."""
    state = skills(("EAGLE", "VIRIDIAN"), window="attack", p1_field=["5S:U", "2C:U", "3C:U"], p2_field=["9S:T"])
    state.apply("ATTACK")
    state.apply("FIELD_GUARD S")
    assert field(state, "P1") == ["5S:T", "2C:T", "3C:U"]


def test_e8_4_single_club_is_bound_so_spade_must_go():
    """E8.4 effect (W6c): with one upright club, Poison Bind taps it and the spade must be discarded."""
    state = skills(("VIRIDIAN", "EAGLE"), standard="accel2", window="attack", turn=6, turn_player="P2",
                   p2_field=["8S:U", "3C:U"], p1_hand=["4H"], p1_field=["9S:T", "6H:T"],
                   deck=["2S", "3H"])  # fmt: skip
    state.apply("ATTACK")
    state.apply("FIELD_GUARD S")
    position = state.position()
    assert position["discard"] == ["9S", "8S"]
    assert position["players"]["P2"]["field"] == ["3C:T"]


def test_e8_4_no_trigger_without_counter_or_without_owner():
    """E8.4: no counter -> no Poison Bind; an attacker's own Poison Bind does not tap its clubs."""
    state = skills(("GARU", "EAGLE"), window="attack", p1_field=["5S:U", "2C:U"], p2_hand=["4H", "6D"])
    state.apply("ATTACK")
    state.apply("GUARD H")
    assert field(state, "P1") == ["5S:T", "2C:U"]
    state = skills(("EAGLE", "GARU"), window="attack", p1_field=["5S:U", "2C:U", "3C:U"], p2_hand=["4H", "6D"])
    state.apply("ATTACK")
    state.apply("GUARD D")
    assert field(state, "P1") == ["5S:T", "2C:U", "3C:U"]
    assert "poison_bind" not in kinds(state)


def test_e8_4_no_upright_club_nothing_happens():
    """E8.4: with no upright club Poison Bind does nothing (and the spade is forced out)."""
    state = skills(("GARU", "EAGLE"), window="attack", p1_field=["5S:U", "2C:T"], p2_hand=["6D", "7D"])
    state.apply("ATTACK")
    state.apply("GUARD D")
    assert "poison_bind" not in kinds(state)
    assert state.position()["discard"] == ["6D", "5S"]


def test_e8_4_rule_poison_bind_trigger_diamond_guard_skips_field_guards():
    """E8.4, rule poison_bind_trigger=diamond_guard: Viridian's field-guard counter binds no club; its diamond
    guard still does."""
    rules = {"poison_bind_trigger": "diamond_guard"}
    state = skills(("EAGLE", "VIRIDIAN"), window="attack", p1_field=["5S:U", "2C:U", "3C:U"], p2_field=["9S:T"],
                   rules=rules)  # fmt: skip
    state.apply("ATTACK")
    state.apply("FIELD_GUARD S")
    assert field(state, "P1") == ["5S:T", "2C:U", "3C:U"]
    assert "poison_bind" not in kinds(state)
    state = skills(("EAGLE", "VIRIDIAN"), window="attack", p1_field=["5S:U", "2C:U", "3C:U"], p2_hand=["6D", "7D"],
                   rules=rules)  # fmt: skip
    state.apply("ATTACK")
    state.apply("GUARD D")
    assert field(state, "P1") == ["5S:T", "2C:T", "3C:U"]


def test_e8_4_rule_poison_bind_timing_after_counter_binds_once_the_counter_is_paid():
    """E8.4, rule poison_bind_timing=after_counter: the counter is paid with the clubs untouched (both may pay),
    then Poison Bind taps the oldest upright club left, which would have paid for pursuit."""
    state = skills(("EAGLE", "VIRIDIAN"), window="attack", p1_field=["5S:U", "2C:U", "3C:U"], p2_hand=["6D", "7D"],
                   rules={"poison_bind_timing": "after_counter"})  # fmt: skip
    state.apply("ATTACK")
    state.apply("GUARD D")
    assert field(state, "P1") == ["5S:T", "2C:U", "3C:U"] and "poison_bind" not in kinds(state)
    state.apply("DISCARD_CLUB")
    assert state.position()["discard"] == ["6D", "2C"]
    assert event_of(state, "poison_bind", 0) == {"kind": "poison_bind", "player": "P2", "club": "3C"}
    order = kinds(state)
    assert order.index("counter_discard") < order.index("poison_bind")
    assert "pursuit" not in order  # the bound club cannot pay for pursuit


# -- E8.5 Protection ---------------------------------------------------------------------------


@pytest.mark.parametrize("attacker", ["GARU", "RAIHA", "VIRIDIAN", "VERDI", "EAGLE"])
def test_e8_5_protection_for_accel2_guardian_or_poison_bind(attacker):
    """E8.5: under Accel 2, an attacker with Guardian or Poison Bind may PROTECT."""
    state = skills((attacker, "GARU"), standard="accel2", window="attack", p1_field=["5S:U", "2C:U"],
                   p2_hand=["6D", "7D"])  # fmt: skip
    state.apply("ATTACK")
    state.apply("GUARD D")
    assert legal(state) == ["DISCARD_CLUB", "DISCARD_SPADE", "PROTECT"]


def test_e8_5_no_protection_for_accela_or_under_symbolic():
    """E8.5 / E8.6: Accela (no Guardian, no Poison Bind) never protects; nobody does under Symbolic."""
    for characters, standard in ((("ACCELA", "GARU"), "accel2"), (("VIRIDIAN", "GARU"), "symbolic")):
        state = skills(characters, standard=standard, window="attack", p1_field=["5S:U", "2C:U"], p2_hand=["6D", "7D"])
        state.apply("ATTACK")
        state.apply("GUARD D")
        assert legal(state) == ["DISCARD_CLUB", "DISCARD_SPADE"]


def test_e8_5_ruling_protection_replaces_the_discard():
    """E8.5 ruling: protecting taps the club; nothing is discarded and the spade stays."""
    state = skills(("GARU", "RAIHA"), standard="accel2", window="attack", p1_field=["5S:U", "2C:U", "3C:U"],
                   p2_hand=["6D", "7D"])  # fmt: skip
    state.apply("ATTACK")
    state.apply("GUARD D")
    state.apply("PROTECT")
    position = state.position()
    assert position["discard"] == ["6D"]
    assert position["players"]["P1"]["field"] == ["5S:T", "2C:T", "3C:U"]
    assert position["window"] == "pursuit"


def test_e8_5_ruling_one_protection_per_counter_then_pursuit():
    """E8.5 rulings: Viridian gets one protection per counter; pursuit with another club remains."""
    state = skills(("VIRIDIAN", "GARU"), standard="accel2", window="attack", p1_field=["5S:U", "2C:U", "3C:U"],
                   p2_hand=["6D", "7D"])  # fmt: skip
    state.apply("ATTACK")
    state.apply("GUARD D")
    assert [str(a) for a in state.legal_actions()].count("PROTECT") == 1
    state.apply("PROTECT")
    assert legal(state) == ["PASS", "PURSUIT"]
    state.apply("PURSUIT")
    assert field(state, "P1") == ["5S:U", "2C:T", "3C:T"]
    assert state.position()["discard"] == ["6D"]


def _countered(characters: tuple[str, str], protection: str, clubs: int, standard: str = "accel2"):
    """P1 attacks with 5S and `clubs` upright clubs; P2's diamond guard causes a counter (E5.3 a)."""
    club_cards = ["2C:U", "3C:U", "4C:U"][:clubs]
    state = skills(characters, standard=standard, window="attack", p1_field=["5S:U", *club_cards],
                   p2_hand=["6D", "7D"], rules={"accel2_protection": protection})  # fmt: skip
    state.apply("ATTACK")
    state.apply("GUARD D")
    return state


@pytest.mark.parametrize("protection", ["as_written", "none", "club_still_owed", "defender"])
def test_e8_5_rule_accel2_protection_never_applies_under_symbolic(protection):
    """E8.5 is an Accel 2 ability: no reading of it (rule accel2_protection) gives protection under Symbolic."""
    for characters in (("VIRIDIAN", "GARU"), ("ACCELA", "VIRIDIAN")):
        assert legal(_countered(characters, protection, 2, standard="symbolic")) == ["DISCARD_CLUB", "DISCARD_SPADE"]


def test_e8_5_rule_accel2_protection_none_removes_protection():
    """E8.5, rule accel2_protection=none: the counter phase is E5.4 (a)/(b) only, even for Viridian."""
    for characters in (("VIRIDIAN", "GARU"), ("GARU", "ACCELA"), ("ACCELA", "VIRIDIAN")):
        assert legal(_countered(characters, "none", 2)) == ["DISCARD_CLUB", "DISCARD_SPADE"]


def test_e8_5_rule_accel2_protection_club_still_owed_taps_one_club_and_discards_another():
    """E8.5, rule accel2_protection=club_still_owed: the tap keeps the spade, and the counter still takes the
    oldest other upright club (E14.2); with only one upright club nothing more is discarded."""
    state = _countered(("GARU", "RAIHA"), "club_still_owed", 3)
    assert legal(state) == ["DISCARD_CLUB", "DISCARD_SPADE", "PROTECT"]
    state.apply("PROTECT")
    assert state.position()["discard"] == ["6D", "3C"]
    assert field(state, "P1") == ["5S:T", "2C:T", "4C:U"]
    alone = _countered(("GARU", "RAIHA"), "club_still_owed", 1)
    alone.apply("PROTECT")
    assert alone.position()["discard"] == ["6D"]  # play has moved on (forced windows), with spade and club kept
    assert [entry.split(":")[0] for entry in field(alone, "P1")][:2] == ["5S", "2C"]


def test_e8_5_rule_accel2_protection_defender_moves_protection_to_the_holders_opponent():
    """E8.5, rule accel2_protection=defender: Accela attacking Viridian (Guardian + Poison Bind) may protect,
    Viridian attacking Garu may not; protecting still replaces the discard (E8.5 ruling)."""
    state = _countered(("ACCELA", "VIRIDIAN"), "defender", 3)
    assert field(state, "P1") == ["5S:T", "2C:T", "3C:U", "4C:U"]  # E8.4: Viridian's Poison Bind tapped 2C
    assert legal(state) == ["DISCARD_CLUB", "DISCARD_SPADE", "PROTECT"]
    state.apply("PROTECT")
    assert state.position()["discard"] == ["6D"]
    assert field(state, "P1")[:3] == ["5S:T", "2C:T", "3C:T"]
    assert legal(_countered(("VIRIDIAN", "GARU"), "defender", 2)) == ["DISCARD_CLUB", "DISCARD_SPADE", "PROTECT"]
    assert legal(_countered(("VIRIDIAN", "ACCELA"), "defender", 2)) == ["DISCARD_CLUB", "DISCARD_SPADE"]


# -- E14 Notation ------------------------------------------------------------------------------

E14_TABLE = [
    "SUMMON S", "SUMMON H", "SUMMON C", "SPECIAL_SUMMON", "ATTACK", "END_TURN", "LIONHEART", "GUARD S", "GUARD H",
    "GUARD C", "GUARD D", "BLOCK", "FIELD_GUARD S", "FIELD_GUARD H", "FIELD_GUARD C", "NO_DEFENSE",
    "DISCARD_SPADE", "DISCARD_CLUB", "PROTECT", "PURSUIT", "PASS",
]  # fmt: skip


def test_e14_1_action_ids_and_strings():
    """E14.1: 21 actions, ids 0-20, strings exactly as in the table; parse(str(a)) round-trips."""
    assert len(A) == 21 == GAME.num_actions
    for action_id, text in enumerate(E14_TABLE):
        action = A(action_id)
        assert int(action) == action_id
        assert str(action) == text
        assert f"{action}" == text
        assert A.parse(text) is action
        assert GAME.parse_action(str(action)) is action
    assert A.parse("  summon   s ") is A.SUMMON_S
    for bad in ("SUMMON D", "FIELD_GUARD D", "SUMMON", "", "ATTACK 5S"):
        with pytest.raises(ValueError):
            A.parse(bad)


def test_e14_1_apply_accepts_strings_and_ids():
    """E14.1: apply takes the action value or its string; bad text is an IllegalActionError."""
    state = load(p1_hand=["2S", "3H"])
    state.clone().apply(A.SUMMON_S)
    state.clone().apply("SUMMON S")
    before = state.position()
    with pytest.raises(IllegalActionError) as info:
        state.apply("SUMMON X")
    assert info.value.action == "SUMMON X"
    assert state.position() == before


def test_e14_2_hand_card_is_lowest_rank():
    """E14.2: from a hand, the lowest-ranked card of the suit (2 < ... < 10 < J < Q < K < A)."""
    state = load(p1_hand=["KS", "10S", "JS", "AH"], p1_field=["9S:U"])
    state.apply("SUMMON S")
    assert field(state, "P1") == ["9S:U", "10S:T"]
    state = load(window="attack", p1_field=["5S:U"], p2_hand=["AH", "QH", "9C"])
    state.apply("ATTACK")
    state.apply("GUARD H")
    assert state.position()["discard"] == ["QH"]


def test_e14_2_field_card_is_the_oldest_eligible():
    """E14.2: the oldest eligible field card is used (attack, block, Lionheart, club discard)."""
    state = load(window="attack", p1_field=["5S:T", "9S:U", "3S:U", "9C:T", "KC:U", "2C:U"],
                 p2_hand=["6D"], p2_field=["7H:T", "8H:U", "2H:U", "5C:U", "6H:T"])  # fmt: skip
    state.apply("ATTACK")
    assert field(state, "P1")[:3] == ["5S:T", "9S:T", "3S:U"]
    state.apply("LIONHEART")
    assert field(state, "P2") == ["7H:U", "8H:U", "2H:U", "5C:T", "6H:T"]
    state.apply("GUARD D")
    state.apply("DISCARD_CLUB")
    assert state.position()["discard"] == ["6D", "KC"]
    state.apply("PASS")
    state.apply("ATTACK")  # 3S now
    state.apply("BLOCK")
    assert field(state, "P2") == ["7H:T", "8H:U", "2H:U", "5C:T", "6H:T"]
    assert state.position()["attack"]["blocker"] == "7H"


def test_e14_2_field_guard_takes_the_oldest_tapped_card_of_the_suit():
    """E14.2: FIELD_GUARD S discards the oldest tapped spade."""
    state = skills(("RAIHA", "GARU"), standard="accel2", window="attack", p1_field=["5S:U", "2C:U"],
                   p2_field=["9S:U", "8S:T", "2S:T"])  # fmt: skip
    state.apply("ATTACK")
    state.apply("FIELD_GUARD S")
    assert state.position()["discard"] == ["8S"]


def test_e14_3_no_decision_has_a_single_option():
    """E14.3: every legal-action list has at least two entries (forced ones are applied)."""
    for config in (EdelweissConfig(), EdelweissConfig(deck="skills", standard="symbolic")):
        game = Edelweiss(config)
        for seed in range(30):
            state = game.new_state(seed)
            rng = make_rng(seed)
            while state.current_player() is not None:
                assert len(state.legal_actions()) >= 2
                state.apply(rng.choice(state.legal_actions()))
            assert list(state.legal_actions()) == []


def test_e14_3_w1_game_ends_right_after_attack():
    """E14.3 (W1): forced intercept PASS and NO_DEFENSE are automatic; the game ends after ATTACK."""
    state = load(window="draw", turn=1, deck=["9S"] + [f"{r}D" for r in "2345"], p1_hand=["2H"], p1_field=["5S:T"],
                 p2_field=["4S:T", "3C:T"])  # fmt: skip
    assert legal(state) == ["SUMMON H", "SUMMON S"]
    state.apply("SUMMON S")
    assert legal(state) == ["ATTACK", "END_TURN"]
    state.apply("ATTACK")
    position = state.position()
    assert position["winner"] == "P1"
    assert position["players"]["P1"] == {"hand": ["2H"], "field": ["5S:T", "9S:T"]}
    assert len(position["deck"]) == 4


def test_e14_5_hands_dumped_in_canonical_order():
    """E14.5: hands are dumped by rank (E14.2 order) then suit S, H, C, D; deck/discard keep their order."""
    state = load(window="attack", p1_hand=["KS", "2D", "10H", "2S", "AC", "10S"], p1_field=["5S:U"],
                 deck=["9D", "3C", "7H"], discard=["QD", "4C"])  # fmt: skip
    position = state.position()
    assert position["players"]["P1"]["hand"] == ["2S", "2D", "10S", "10H", "KS", "AC"]
    assert position["deck"] == ["9D", "3C", "7H"]
    assert position["discard"] == ["QD", "4C"]


def test_e14_5_win_reason_only_with_winner():
    """E14.5: `win_reason` is present only when `winner` is set."""
    state = load(window="attack", p1_field=["5S:U"], p2_hand=["2H"])
    assert "win_reason" not in state.position()
    assert state.position()["winner"] is None
    state.apply("ATTACK")
    state.apply("NO_DEFENSE")
    assert state.position()["win_reason"] == "attack"


def test_e14_5_attack_null_outside_sequences_and_when_over():
    """E14.5: `attack` is null at main/attack windows and once over; an object inside a sequence."""
    state = load(p1_hand=["2S", "3H"], p1_field=["5S:U"], p2_hand=["2H", "3D"])
    assert state.position()["attack"] is None  # main
    state.apply("SUMMON H")
    assert state.position()["attack"] is None  # attack
    state.apply("ATTACK")
    assert state.position()["attack"] == attack_obj("5S")
    state.apply("NO_DEFENSE")
    assert state.position()["window"] == "over"
    assert state.position()["attack"] is None


def test_e14_5_turn_after_deck_out_is_the_new_turn():
    """E14.5: a deck-out reports the turn and player of the draw step that found the deck empty."""
    state = load(window="attack", turn=20, turn_player="P2", deck=[], p2_field=["5S:U"], p1_hand=["2D"])
    state.apply("END_TURN")
    position = state.position()
    assert (position["turn"], position["turn_player"], position["window"]) == (21, "P1", "over")
    assert (position["winner"], position["win_reason"]) == ("P1", "deck_out")


def test_e14_5_turn_after_attack_win_is_the_attackers_turn():
    """E14.5: an attack win reports the attacker's turn and turn player."""
    state = load(window="attack", turn=20, turn_player="P2", deck=[], p2_field=["5S:U"], p1_hand=["2D"])
    state.apply("ATTACK")
    state.apply("NO_DEFENSE")
    position = state.position()
    assert (position["turn"], position["turn_player"], position["window"]) == (20, "P2", "over")
    assert (position["winner"], position["win_reason"]) == ("P2", "attack")


def test_e14_5_guard_card_after_field_guard():
    """E14.5: after a field guard, `attack.guard_card` holds the discarded field card."""
    state = skills(("RAIHA", "RAIHA"), window="attack", p1_field=["5S:U", "2C:U"], p2_field=["9S:T"])
    state.apply("ATTACK")
    state.apply("FIELD_GUARD S")
    attack = state.position()["attack"]
    assert attack["defense"] == "field_guard"
    assert attack["guard_card"] == "9S"
    assert attack["counter"] is True


def test_e14_5_position_at_counter_loads_without_repeating_poison_bind():
    """E14.5: a position at the counter window already includes Poison Bind; loading applies nothing twice."""
    state = skills(("GARU", "EAGLE"), window="attack", p1_field=["5S:U", "2C:U", "3C:U"], p2_hand=["4D", "5D"])
    state.apply("ATTACK")
    state.apply("GUARD D")
    position = state.position()
    reloaded = GAME.load_position(position)
    assert reloaded.position() == position
    assert reloaded.position()["players"]["P1"]["field"] == ["5S:T", "2C:T", "3C:U"]


def test_e14_5_loaded_at_draw_runs_the_draw_step():
    """E14.5: a position at `draw` runs the draw step before the first action."""
    position = make_position(window="draw", deck=["9H", "8H"], p1_hand=["2S"], p1_field=["3S:T"])
    state = GAME.load_position(position)
    assert hand(state, "P1") == ["2S", "9H"]
    assert field(state, "P1") == ["3S:U"]
    assert state.position()["window"] == "main"


def test_e14_5_revealed_extension_round_trips():
    """E14.5 (Diamond Dust extension): revealed cards survive a dump/load and stay visible."""
    state = load(p1_hand=["2D", "3D"], p1_field=["5S:U"], p2_hand=["4H"])
    position = state.position()
    assert position["revealed"]["P1"] == ["2D", "3D"]
    reloaded = GAME.load_position(position)
    assert reloaded.position() == position
    assert reloaded.observation(1)["players"]["P1"]["hand"] == ["2D", "3D"]


def test_e8_2_r_e5_special_summon_window_without_heart_is_passed():
    """E8.2 condition / docs R-E5: a loaded special_summon window without a heart in hand passes automatically."""
    state = skills(("GARU", "EAGLE"), window="special_summon", p1_hand=["2S"], p1_field=["9S:U", "3C:T"])
    assert state.position()["window"] == "attack"
    assert field(state, "P1") == ["9S:U", "3C:T"]


def test_e8_2_special_summon_window_needs_buddy_summoner():
    """E8.2 / R-E5: without Buddy Summoner a loaded special-summon window is passed automatically."""
    position = make_position(deck_kind="skills", standard="symbolic", characters=("EAGLE", "RAIHA"),
                             window="special_summon", p1_hand=["2S", "3H"], p1_field=["9S:U", "4C:U"])  # fmt: skip
    state = GAME.load_position(position)
    assert state.position()["window"] == "attack"
    assert A.SPECIAL_SUMMON not in state.legal_actions()
    assert state.position()["players"]["P1"]["hand"] == ["2S", "3H"]


def test_e14_6_special_summon_window_position_round_trips():
    """E14.5: a position at the Buddy Summoner window round-trips and keeps its choice."""
    state = skills(("GARU", "EAGLE"), p1_hand=["2S", "3H"])
    state.apply("SUMMON S")
    position = state.position()
    assert position["window"] == "special_summon"
    reloaded = GAME.load_position(position)
    assert reloaded.position() == position
    assert legal(reloaded) == ["PASS", "SPECIAL_SUMMON"]
