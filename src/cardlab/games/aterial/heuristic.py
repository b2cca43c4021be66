"""A documented rule-of-thumb player for Aterial (see docs/agents.md).

`choose(state, rng)` reads only what the player to move may know — both fields, LP, zone
sizes, its own hand — so it is safe on a canonical or sampled world and cheap enough to be an
MCTS rollout policy. Scores are simple: LP taken from the enemy leader counts double,
destroying a unit counts its cost plus one, chip damage counts little. Under the rule options it
reads what they change (retaliation, a blocked attack's flank, siege on pierce, losing on an empty
deck, moves in the action phase) and plays the spec's game exactly as without them.
"""

from __future__ import annotations

import math
import random

from cardlab.core.actions import IndexedAction
from cardlab.games.aterial.state import (
    EMPTY,
    W_ABILITY_TARGET,
    W_ACTION,
    W_ATTACK,
    W_ATTACK_TARGET,
    W_BLOCK,
    W_DEPLOY_TO,
    W_DISCARD,
    W_MOVE,
    W_MOVE_TO,
    W_MULLIGAN,
    W_TRIGGER_TARGET,
    AterialState,
)

_SUPPORT_KEYS = frozenset({"ranged", "rear_support", "wide_reach", "cannot_attack"})


def _remaining(state: AterialState, inst: int) -> int:
    return state.hp_value(inst) - state.damage[inst]


def _attack_score(state: AterialState, attacker: int, target: int, side: bool) -> float:
    """What an attack is worth: LP loss x2 on the leader; cost + 1 for a kill; a little for damage;
    under rule retaliation=yes, less the attacker's cost + 1 when the target's answer destroys it."""
    score = _hit_score(state, attacker, target, side)
    if state.game.flags.retaliation and attacker != state.leader[state.owner[attacker]]:
        back = max(0, state.attack_value(target) - state.amounts[attacker].get("armor", 0))
        if back >= _remaining(state, attacker):
            score -= 1.0 + state.cards[attacker].cost
    return score


def _hit_score(state: AterialState, attacker: int, target: int, side: bool) -> float:
    enemy = state.owner[target]
    siege = state.amounts[attacker].get("siege", 0)
    if target == state.leader[enemy]:
        return 2.0 * (state.cards[attacker].cost + siege)
    dealt = max(0, state.attack_value(attacker, side) - state.amounts[target].get("armor", 0))
    if dealt >= _remaining(state, target):
        excess = dealt - _remaining(state, target) if "pierce" in state.keys[attacker] else 0
        if excess and state.game.flags.siege_pierce:  # rule siege_pierce=yes (A17.23)
            excess += siege
        return 1.0 + state.cards[target].cost + excess
    return 0.25 * dealt


def _best_attack(state: AterialState, square: int) -> tuple[float, int]:
    """(score, target square) of the best attack of the unit on `square` (no block assumed)."""
    targets, facing = state.attack_targets(square)  # public: the observation's `attack_targets`
    attacker = state.field[state.active][square]
    enemy = state.field[1 - state.active]
    scored = [(_attack_score(state, attacker, enemy[sq], sq != facing), -sq) for sq in targets]
    score, negative_square = max(scored, default=(0.0, 0))
    return score, -negative_square


def _deploy_square(state: AterialState, inst: int, squares: list[int]) -> int:
    """Support units (ranged, rear_support, wide_reach, cannot_attack, big dominance) go back; others front."""
    card = state.cards[inst]
    supportive = bool(state.keys[inst] & _SUPPORT_KEYS) or (card.dominance >= 2 and card.attack <= 1)
    preferred = [sq for sq in squares if (sq >= 3) == supportive]
    return (preferred or squares)[0]


def _safe_draws(state: AterialState) -> int:
    """How many cards the active player may draw now without losing (A15.2; one fewer under deck_out=empty)."""
    return len(state.decks[state.active]) - state.game.flags.deck_out_empty


def _step_forward(state: AterialState, legal: tuple[IndexedAction, ...]) -> IndexedAction | None:
    """`MOVE sq` for an attacker in the back row whose front square is empty (not the leader, not a support unit)."""
    me = state.active
    acts = state.game.actions
    for square in (3, 4, 5):
        inst = state.field[me][square]
        movable = inst not in (EMPTY, state.leader[me]) and acts.move[square] in legal
        if movable and not state.keys[inst] & _SUPPORT_KEYS and state.field[me][square - 3] == EMPTY:
            return acts.move[square]
    return None


def _action(state: AterialState, legal: tuple[IndexedAction, ...]) -> IndexedAction:
    me = state.active
    acts = state.game.actions
    lp, cap = state.lp[me], state.cards[state.leader[me]].lp
    for action in legal:
        move = acts.decode(action)
        if move.verb == "ACTIVATE" and move.square is not None:
            key = move.key
            if key == "devour" or (key == "tap_heal" and (lp < cap or not state.game.heal_capped)):  # A14.4
                return action
            source = state.field[me][move.square]
            if key == "tap_snipe" and _snipe_target(state, state.amounts[source][key]) is not None:
                return action
    card_set = state.game.card_set
    costs = {a: card_set[m.card].cost for a in legal if (m := acts.decode(a)).verb == "DEPLOY" and m.card is not None}
    if state.game.flags.deck_out_empty:  # no card whose deploy_draw would empty the deck (rule deck_out=empty)
        safe = _safe_draws(state)
        costs = {
            a: cost for a, cost in costs.items() if card_set[acts.decode(a).card or ""].amount("deploy_draw") <= safe
        }
    if costs:  # the most expensive card we can place
        return max(costs, key=lambda a: (costs[a], a.text))
    cycle = [a for a in legal if acts.decode(a).key == "hand_cycle"]
    if cycle and len(state.hands[me]) >= 4 and (not state.game.flags.deck_out_empty or _safe_draws(state) >= 1):
        return cycle[0]
    if state.game.flags.action_moves:  # rule deployed_move=yes: the move phase's steps, after deploying (A10.8)
        step = _step_forward(state, legal)
        if step is not None:
            return step
    return acts.end_action


def _snipe_target(state: AterialState, amount: int) -> int | None:
    """The enemy subordinate square to hit with a damage ability: a kill if possible, else the strongest."""
    enemy = 1 - state.active
    best: tuple[float, int] | None = None
    for sq, inst in enumerate(state.field[enemy]):
        if inst in (EMPTY, state.leader[enemy]):
            continue
        dealt = max(0, amount - state.amounts[inst].get("armor", 0))
        score = 10.0 + state.cards[inst].cost if dealt >= _remaining(state, inst) else state.attack_value(inst) / 10
        if best is None or score > best[0]:
            best = (score, sq)
    return None if best is None else best[1]


def choose(state: AterialState, rng: random.Random) -> IndexedAction:
    """The heuristic's action at the current window (deterministic; `rng` is unused)."""
    legal = state.legal_actions()
    acts = state.game.actions
    window = state.window
    me = state.active
    if window == W_MULLIGAN:  # keep a hand that can put two cheap cards down
        cheap = sum(1 for inst in state.hands[state.chooser] if state.cards[inst].cost <= 2)
        return acts.keep if cheap >= 2 else acts.mulligan
    if window == W_MOVE:  # step attackers from the back row into an empty front square
        step = _step_forward(state, legal)
        return acts.end_move if step is None else step
    if window == W_MOVE_TO:
        front = [a for a in legal if acts.to.index(a) < 3]
        return (front or list(legal))[0]
    if window == W_ACTION:
        return _action(state, legal)
    if window == W_DEPLOY_TO:
        squares = [acts.to.index(a) for a in legal]
        return acts.to[_deploy_square(state, state.selected, squares)]
    if window == W_ATTACK:
        options = [(_best_attack(state, acts.attack.index(a))[0], a) for a in legal if a != acts.end_attack]
        score, action = max(options, key=lambda option: option[0], default=(0.0, acts.end_attack))
        return action if score > 0 else acts.end_attack
    if window == W_ATTACK_TARGET:
        return acts.target[1 - me][_best_attack(state, state.selected)[1]]
    if window == W_BLOCK:  # block when the blocker survives, or to save LP from an expensive attacker
        defender = 1 - me
        blocker = state.field[defender][state.facing_square()]
        side = state.game.flags.blocked_side  # rule blocked_attack=side: flank still adds (A12.5)
        dealt = max(0, state.attack_value(state.attacker, side) - state.amounts[blocker].get("armor", 0))
        on_leader = state.target == state.leader[defender]
        survives = dealt < _remaining(state, blocker)
        return acts.block if survives or (on_leader and state.cards[state.attacker].cost >= 3) else acts.no_block
    if window in (W_ABILITY_TARGET, W_TRIGGER_TARGET):
        if state.selected_key == "hand_rally":
            return legal[0]
        target = _snipe_target(state, state.pending_amount)
        return acts.target[1 - me][target] if target is not None else legal[0]
    if window == W_DISCARD:  # drop the cheapest card
        cheapest = min(state.hands[me], key=lambda inst: (state.cards[inst].cost, state.cards[inst].id))
        return acts.discard[state.cards[cheapest].id]
    raise ValueError(f"no decision at window {window} in {state!r}")


EVAL_SCALE = 6.0
"""Material points for odds of e to 1 (about 73%) in `evaluate`."""


def _material(state: AterialState, player: int) -> float:
    """LP count double (as in attacks), a unit its cost + 1 scaled by the HP it has left, a hand card 0.3."""
    value = 2.0 * state.lp[player] + 0.3 * len(state.hands[player])
    leader = state.leader[player]
    for inst in state.field[player]:
        if inst != EMPTY and inst != leader:
            value += (state.cards[inst].cost + 1.0) * max(0, _remaining(state, inst)) / max(1, state.hp_value(inst))
    return value


def evaluate(state: AterialState, player: int) -> float:
    """`player`'s chance of winning as the heuristic sees it, from public material (LP, units) and hand
    sizes: a search's estimate where it stops a rollout before the end."""
    outcome = state.outcome()
    if outcome is not None:
        return 0.5 if outcome.winner is None else float(outcome.winner == player)
    lead = _material(state, player) - _material(state, 1 - player)
    return 1.0 / (1.0 + math.exp(-lead / EVAL_SCALE))
