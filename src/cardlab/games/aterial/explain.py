"""Why an Aterial choice is refused, in the words of the rules (issue #16: "cost 4 > dominance 2 on F1").

`why_illegal` reads the position only through what the player choosing may know (their own hand,
both fields, ready states), so the reason is safe to show to them and to send to their client.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardlab.core.actions import IndexedAction
from cardlab.core.explain import not_now
from cardlab.games.aterial.board import ATTACK_SQUARES, ORTHOGONAL, SQUARE_NAMES, column_of

if TYPE_CHECKING:
    from cardlab.games.aterial.state import AterialState

EMPTY = -1

VERBS: dict[str, tuple[str, ...]] = {
    "mulligan": ("KEEP", "MULLIGAN"),
    "move": ("MOVE", "END_MOVE"),
    "move_to": ("TO",),
    "action": ("DEPLOY", "ACTIVATE", "HAND", "END_ACTION"),
    "deploy_to": ("TO",),
    "ability_target": ("TARGET",),
    "trigger_target": ("TARGET",),
    "attack": ("ATTACK", "END_ATTACK"),
    "attack_target": ("TARGET",),
    "block": ("BLOCK", "NO_BLOCK"),
    "discard": ("DISCARD",),
}
"""The verbs each window takes (A10-A13, A6.4)."""

VERB_WORDS: dict[str, str] = {
    "KEEP": "keep your hand",
    "MULLIGAN": "take a mulligan",
    "MOVE": "move a unit",
    "END_MOVE": "end the move phase",
    "TO": "choose a square",
    "DEPLOY": "deploy a subordinate",
    "ACTIVATE": "use a unit's ability",
    "HAND": "use a card's ability from your hand",
    "END_ACTION": "end the action phase",
    "TARGET": "choose a target",
    "ATTACK": "attack",
    "END_ATTACK": "end the attack phase",
    "BLOCK": "block",
    "NO_BLOCK": "let the attack through",
    "DISCARD": "discard a card",
}
"""Each verb as a player says what it does: a refusal says what can be done now in these words."""

PHASES = {
    "mulligan": "the mulligan (A6.4)",
    "move": "the move phase (A10)",
    "move_to": "choosing where the unit moves (A10.2)",
    "action": "the action phase (A11)",
    "deploy_to": "choosing the square to deploy on (A11.3)",
    "ability_target": "choosing the ability's target (A16.4)",
    "trigger_target": "choosing the deploy ability's target (A17.14)",
    "attack": "the attack phase (A12)",
    "attack_target": "choosing the attack's target (A12.4)",
    "block": "the block decision (A12.5)",
    "discard": "discarding down to the hand limit (A13.2)",
}


def why_illegal(state: AterialState, action: IndexedAction) -> str:
    """A short reason `action` is not legal now; "" when there is nothing more to say than the legal list."""
    from cardlab.games.aterial.state import WINDOWS

    window = WINDOWS[state.window]
    if window == "over":
        return "the game is over"
    decoded = state._game.actions.decode(action)
    verb = decoded.verb
    if verb == "ATTACK" and state.turn == 1:
        return "the first player's first turn has no attack phase (A12.1)"
    verbs = VERBS[window]
    if window == "action" and state._game.flags.action_moves:  # rule deployed_move=yes (A10.8)
        verbs = (*verbs, "MOVE")
    if verb not in verbs:
        return not_now(VERB_WORDS.get(verb, verb.lower()), PHASES[window], [VERB_WORDS[v] for v in verbs])
    reason = ""
    if verb == "DEPLOY" and decoded.card is not None:
        reason = _deploy(state, decoded.card)
    elif verb == "TO" and decoded.square is not None:
        reason = _deploy_to(state, decoded.square) if window == "deploy_to" else _move_to(state, decoded.square)
    elif verb == "MOVE" and decoded.square is not None:
        reason = _move(state, decoded.square)
    elif verb == "ATTACK" and decoded.square is not None:
        reason = _attack(state, decoded.square)
    elif verb == "TARGET" and decoded.square is not None and decoded.seat is not None:
        reason = _target(state, window, decoded.seat, decoded.square)
    elif verb == "DISCARD" and decoded.card is not None:
        reason = _in_hand(state, decoded.card)
    elif verb == "HAND" and decoded.card is not None:
        missing = f"{decoded.card} has no {_ability(decoded.key)} ability to use from the hand"
        reason = _in_hand(state, decoded.card) or missing
    elif verb == "ACTIVATE" and decoded.square is not None and decoded.key is not None:
        reason = _activate(state, decoded.square, decoded.key)
    return reason


def _ability(key: str | None) -> str:
    """An ability key as its glossary word: `tap_heal` -> 'tap heal' (A17)."""
    from cardlab.games.aterial.words import ABILITY_WORDS

    return ABILITY_WORDS[key][0] if key in ABILITY_WORDS else str(key).replace("_", " ")


def _square(square: int) -> str:
    return SQUARE_NAMES[square]


def _best_supply(state: AterialState) -> tuple[int, int]:
    """The most dominance an empty square of the active player gets, and that square (-1, -1 when none is empty)."""
    me = state.active
    empty = [sq for sq in range(6) if state.field[me][sq] == EMPTY]
    if not empty:
        return -1, -1
    best = max(empty, key=lambda sq: state.supply(me, sq))
    return state.supply(me, best), best


def _in_hand(state: AterialState, card_id: str) -> str:
    if any(state.cards[inst].id == card_id for inst in state.hands[state.active]):
        return ""
    return f"{card_id} is not in your hand"


def _deploy(state: AterialState, card_id: str) -> str:
    missing = _in_hand(state, card_id)
    if missing:
        return missing
    if state.turn == 1 and not state._game.first_turn_deploy:
        return "the first player may not deploy on turn 1 under these rules (first_turn_deploy=second_only, A11.8)"
    card = state._game.card_set.cards[card_id]  # a subordinate: leaders are never in a hand (A14.5)
    supply, square = _best_supply(state)
    if square < 0:
        return "your field is full: no empty square to deploy on (A11.3)"
    if card.cost < state.supply_needed(card):
        return f"{_zero_cost(supply, square)}, the best empty square"
    return f"cost {card.cost} > dominance {supply} on {_square(square)}, the best empty square (A11.2, A11.3)"


def _zero_cost(supply: int, square: int) -> str:
    """Why a cost-0 card may not go where the supply is 0, under rule zero_cost=supplied (A11.7)."""
    return (
        f"a cost-0 card needs dominance 1 under these rules (zero_cost=supplied, A11.7): "
        f"dominance {supply} on {_square(square)}"
    )


def _deploy_to(state: AterialState, square: int) -> str:
    me = state.active
    if state.field[me][square] != EMPTY:
        return f"{_square(square)} is occupied: deploy on an empty square (A11.3)"
    card = state.cards[state.selected]
    if card.cost < state.supply_needed(card):
        return _zero_cost(state.supply(me, square), square)
    return f"cost {card.cost} > dominance {state.supply(me, square)} on {_square(square)} (A11.2, A11.3)"


def _move(state: AterialState, square: int) -> str:
    inst = state.field[state.active][square]
    if inst == EMPTY:
        return f"no unit of yours on {_square(square)}"
    if state.moves[inst] >= state.move_limit[inst]:
        return f"the unit on {_square(square)} has no move left this turn (A10.4)"
    return f"every square next to {_square(square)} is occupied (A10.2)"


def _move_to(state: AterialState, square: int) -> str:
    start = state.selected
    if square not in ORTHOGONAL[start]:
        return f"{_square(square)} is not one orthogonal step from {_square(start)} (A10.2)"
    return f"{_square(square)} is occupied: only the leader may step onto a friendly subordinate (A10.3)"


def _attack(state: AterialState, square: int) -> str:
    inst = state.field[state.active][square]
    if inst == EMPTY:
        return f"no unit of yours on {_square(square)}"
    if not state.ready[inst]:
        return f"the unit on {_square(square)} is not ready: it has acted this turn (A12.3)"
    keys = state.keys[inst]
    if "cannot_attack" in keys:
        return f"{state.cards[inst].name} on {_square(square)} cannot attack"
    if inst == state.leader[state.active] and not state._game.flags.leader_attacks:
        return "the leader does not attack under these rules (leader_attacks=no, A12.10)"
    if square >= 3 and "ranged" not in keys and not state.can_attack(square):
        if state._game.flags.back_row_attacks:  # rule engaged_row=both (A12.4)
            return (
                f"{_square(square)} is in the back row: only a ranged unit attacks from there while your "
                "front row holds a unit (A12.3; engaged_row=both)"
            )
        return f"{_square(square)} is in the back row: only a ranged unit attacks from there (A12.3)"
    return f"no enemy unit faces {_square(square)} or its diagonals in the engaged row (A12.4)"


def _target(state: AterialState, window: str, seat: int, square: int) -> str:
    me = state.active
    if window == "attack_target":
        if seat == me:
            return "an attack targets an enemy unit"
        facing, diagonals = ATTACK_SQUARES[column_of(state.selected)][state._engaged_row(1 - me)]
        reach = ", ".join(_square(sq) for sq in (facing, *diagonals))
        return f"{_square(square)} is out of reach: the attacker reaches {reach} of the engaged row (A12.4)"
    wanted = me if state.selected_key == "hand_rally" else 1 - me
    if seat != wanted:
        return "this ability targets " + ("a friendly unit" if wanted == me else "an enemy subordinate")
    if state.field[seat][square] == EMPTY:
        return f"no unit on {_square(square)}"
    return "the enemy leader cannot be targeted by this ability" if seat != me else ""


def _activate(state: AterialState, square: int, key: str) -> str:
    me = state.active
    inst = state.field[me][square]
    if inst == EMPTY:
        return f"no unit of yours on {_square(square)}"
    if key not in state._game.activated_keys[state.cards[inst].id]:
        return f"{state.cards[inst].name} on {_square(square)} has no {_ability(key)} ability"
    if key == "devour":
        if state.devoured[inst]:
            return "devour is used once per turn (A16.4)"
        return "devour needs a subordinate in your discard pile (A16.4)"
    if not state.ready[inst]:
        return f"the unit on {_square(square)} is not ready: tap abilities need a ready unit (A16.4)"
    return "no enemy subordinate to target"
