"""Edelweiss events as a player reads them (issue #35 item 3): what a pass declines, what a counter asks
of the attacker, why a game ends (E5.2-E5.6, E6.1)."""

from __future__ import annotations

import random

from cardlab.games.edelweiss import Edelweiss, render


def test_passes_counters_breaks_and_a_lost_defense_say_what_they_mean() -> None:
    assert render.event_text({"kind": "pass", "player": "P2", "window": "intercept"}) == (
        "P2 does not use Lionheart (E5.2)."
    )
    assert render.event_text({"kind": "pass", "player": "P1", "window": "pursuit"}) == (
        "P1 takes no pursuit stance (E5.5)."
    )
    assert render.event_text({"kind": "guard", "player": "P2", "card": "4D"}) == (
        "P2 guards with 4♦: counter! The attacker must discard the attacking spade or an upright club (E5.4)."
    )
    assert render.event_text({"kind": "guard", "player": "P2", "card": "4C"}) == "P2 guards with 4♣."
    assert render.event_text({"kind": "no_defense", "player": "P1"}) == (
        "P1 makes no defense: the attack succeeds (E6.1)."
    )
    assert "(a block met a pursuit stance, E5.6)" in render.event_text({"kind": "break", "club": "5C", "heart": "7H"})


def test_every_event_of_random_skills_games_reads_as_a_sentence() -> None:
    game = Edelweiss.from_options({"deck": "skills", "standard": "accel2"}, random.Random(1))
    for seed in range(10):
        state, rng = game.new_state(seed), random.Random(seed)
        while state.current_player() is not None:
            state.apply(rng.choice(state.legal_actions()))
        assert state.events is not None
        for event in state.events.for_player(0):
            text = render.event_text(event)
            assert text.endswith((".", "!")) and "_" not in text, text
