"""Why an Edelweiss choice is refused, in the words of the rules (issue #35: every game says why).

`why_illegal` reads only what the player to move may know: their own hand, both fields (open),
both players' skills (revealed at set-up, E7.1) and the attack in progress.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardlab.core.explain import not_now
from cardlab.games.edelweiss.actions import FIELD_GUARD_BY_SUIT, GUARD_BY_SUIT, SUMMON_BY_SUIT
from cardlab.games.edelweiss.actions import EdelweissAction as A
from cardlab.games.edelweiss.cards import CLUB, SPADE, TAPPED, Skill

if TYPE_CHECKING:
    from cardlab.games.edelweiss.state import EdelweissState

SUIT_NAMES = ("spade", "heart", "club", "diamond")

ACTION_WORDS: dict[A, str] = {
    **{action: "summon a card from your hand" for action in SUMMON_BY_SUIT},
    A.SPECIAL_SUMMON: "special summon a heart",
    A.ATTACK: "attack with an upright spade",
    A.END_TURN: "end your turn",
    A.LIONHEART: "use Lionheart",
    **{action: "guard with a hand card" for action in GUARD_BY_SUIT},
    A.BLOCK: "block with an upright heart",
    **{action: "guard with a tapped field card" for action in FIELD_GUARD_BY_SUIT},
    A.NO_DEFENSE: "make no defense",
    A.DISCARD_SPADE: "discard a spade",
    A.DISCARD_CLUB: "discard an upright club",
    A.PROTECT: "use protection",
    A.PURSUIT: "take a pursuit stance",
    A.PASS: "pass",
}
"""Each action as a player says what it does: a refusal says what can be done now in these words."""

WINDOW_ACTIONS: dict[str, tuple[tuple[A, ...], str]] = {
    "main": (SUMMON_BY_SUIT, "your main step, when you summon (E4.1)"),
    "special_summon": ((A.SPECIAL_SUMMON, A.PASS), "Buddy Summoner's special summon (E8.2)"),
    "attack": ((A.ATTACK, A.END_TURN), "your attack phase (E5.1)"),
    "intercept": ((A.LIONHEART, A.PASS), "the intercept phase, before you defend (E5.2)"),
    "defense": ((*GUARD_BY_SUIT, A.BLOCK, *FIELD_GUARD_BY_SUIT, A.NO_DEFENSE), "the defense phase (E5.3)"),
    "counter": ((A.DISCARD_SPADE, A.DISCARD_CLUB, A.PROTECT), "paying a counter (E5.4)"),
    "pursuit": ((A.PURSUIT, A.PASS), "the pursuit phase (E5.5)"),
}
"""The actions each window takes, and the window in a player's words."""


def _has(field: list[int], suit: int, tapped: bool) -> bool:
    """Whether a field holds a card of `suit` in that orientation (an entry is card * 2 + tapped)."""
    return any((entry >> 1) & 3 == suit and bool(entry & TAPPED) == tapped for entry in field)


def why_illegal(state: EdelweissState, action: A) -> str:
    """A short reason `action` is not legal now; "" when the legal list says it all."""
    window = str(state.window)
    if window == "over":
        return "the game is over"
    actions, during = WINDOW_ACTIONS[window]
    if action not in actions:
        return not_now(ACTION_WORDS[action], during, [ACTION_WORDS[a] for a in actions])
    me = state.current_player()
    assert me is not None
    hand, field = state.hands[me], state.fields[me]
    in_hand = {card & 3 for card in hand}
    if action in SUMMON_BY_SUIT or action in GUARD_BY_SUIT:
        suit = SUMMON_BY_SUIT.index(action) if action in SUMMON_BY_SUIT else GUARD_BY_SUIT.index(action)
        return "" if suit in in_hand else f"you have no {SUIT_NAMES[suit]} in your hand"
    if action == A.ATTACK:
        return "you have no upright spade: spades enter tapped and untap at your draw step (E4.2, E5.1)"
    if action == A.LIONHEART:
        if not _has(field, CLUB, tapped=False):
            return "Lionheart needs an upright club of yours (E5.2)"
        return "Lionheart needs a tapped heart of yours to untap (E5.2)"
    if action == A.BLOCK:
        return "you have no upright heart to block with (E5.3)"
    if action in FIELD_GUARD_BY_SUIT:
        return _field_guard(state, me, FIELD_GUARD_BY_SUIT.index(action))
    if action == A.DISCARD_CLUB:
        return "you have no upright club to discard (E5.4)"
    if action == A.PROTECT:
        return "protection needs Guardian or Poison Bind under Accel 2, and an upright club (E8.5)"
    if action == A.PURSUIT:
        return "pursuit stance needs an upright club and the attacking spade still on your field (E5.5)"
    if action == A.SPECIAL_SUMMON:
        if not state.skills[me] & Skill.BUDDY_SUMMONER:
            return "only Buddy Summoner may special summon (E8.2)"
        return "you have no heart in your hand (E8.2)"
    return ""


def _field_guard(state: EdelweissState, me: int, suit: int) -> str:
    if not state.skills[me] & Skill.GUARDIAN:
        return "only Guardian may guard with a field card (E8.1)"
    if not _has(state.fields[me], suit, tapped=True):
        return f"you have no tapped {SUIT_NAMES[suit]} on your field (E8.1)"
    if state.game.accel2 and suit != SPADE:
        return "under Accel 2, Guardian guards with a tapped spade only (E8.1)"
    return "under Symbolic, Guardian guards from the field only with an empty hand (E8.1)"
