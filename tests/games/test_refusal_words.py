"""Refusals in a player's words in every game (#51 item 5): a choice made at the wrong moment says what the
player can do now in words, never in the action codes the engine reads ("DEPLOY is not a choice during the
mulligan (A6.4): choose KEEP or MULLIGAN")."""

from __future__ import annotations

import random
import re

import pytest

from cardlab.games import game_class

GAMES = ("edelweiss", "aterial", "dreadnought")


def _reasons(name: str, seed: int) -> list[str]:
    """Why each action seen legal somewhere in a random game is refused at the positions where it is not."""
    game = game_class(name)()
    rng = random.Random(seed)
    states, seen = [], {}
    state = game.new_state(seed)
    while state.current_player() is not None and len(states) < 400:
        if len(states) % 4 == 0:
            states.append(state.clone())
        for action in state.legal_actions():
            seen.setdefault(str(action).split()[0], str(action))
        state.apply(rng.choice(state.legal_actions()))
    reasons = []
    for position in states:
        legal = {str(action) for action in position.legal_actions()}
        for text in seen.values():
            if text not in legal:
                reasons.append(position.why_illegal(game.parse_action(text)))
    return reasons


@pytest.mark.parametrize("name", GAMES)
def test_a_refusal_names_no_action_code(name: str) -> None:
    game = game_class(name)()
    state = game.new_state(0)
    codes = set()
    rng = random.Random(0)
    while state.current_player() is not None:
        codes |= {str(action).split()[0] for action in state.legal_actions()}
        state.apply(rng.choice(state.legal_actions()))
    reasons = [reason for seed in (0, 1) for reason in _reasons(name, seed)]
    said = [reason for reason in reasons if "now you can" in reason]
    assert said, "no choice was refused for being made at the wrong moment"
    for reason in reasons:
        words = set(re.findall(r"\b[A-Z][A-Z_]+\b", reason))
        assert not words & codes, reason
