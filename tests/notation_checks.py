"""The notation checks every game's tests share (docs/notation.md): a position read back from its
notation is the same position, and play from it goes on identically; a corrupted notation loads or
raises `CardlabError`, never anything else."""

from __future__ import annotations

import random

from cardlab.core.errors import CardlabError, PositionError
from cardlab.core.game import Game, State

CONTINUE = 4
"""Random actions played from each reloaded position beside the original."""


def check_round_trip(state: State) -> None:
    """`parse_notation(notation(s))` is `s`: the same position JSON, the same notation, a `repr` that
    holds it, and the same positions over a few random actions from both."""
    text = state.notation()
    loaded = state.game.parse_notation(text)
    assert loaded.position() == state.position(), text
    assert loaded.notation() == text
    assert repr(state) == f"{type(state).__name__}({text!r})"
    original = state.clone()
    rng = random.Random(text)
    for _ in range(CONTINUE):
        if original.is_terminal():
            break
        action = rng.choice(list(original.legal_actions()))
        original.apply(action)
        loaded.apply(action)
        assert loaded.position() == original.position(), f"after {action} from {text}"


def play_and_check(game: Game, seed: int, max_steps: int) -> int:
    """Play a seeded random game, checking the round trip at every position; the positions checked."""
    state = game.new_state(seed)
    rng = random.Random(seed)
    checked = 0
    for _ in range(max_steps):
        check_round_trip(state)
        checked += 1
        if state.is_terminal():
            break
        state.apply(rng.choice(list(state.legal_actions())))
    return checked


def corrupt(text: str, rng: random.Random) -> str:
    """`text` with one character deleted, replaced or inserted, from the notation's own alphabet."""
    alphabet = sorted(set(text) | set('|/,-{}[]="%+ x'))
    at = rng.randrange(len(text) + 1)
    kind = rng.randrange(3)
    if kind == 0 and at < len(text):
        return text[:at] + text[at + 1 :]
    return text[:at] + rng.choice(alphabet) + text[at + (kind == 1) :]


def loads_or_says_why(game: Game, text: str) -> None:
    """A notation either loads (and round-trips) or raises `CardlabError`; a syntax error names the column."""
    try:
        state = game.parse_notation(text)
    except PositionError as error:
        assert error.field and error.problem, text
        return
    except CardlabError:
        return
    again = state.game.parse_notation(state.notation())
    assert again.position() == state.position()
