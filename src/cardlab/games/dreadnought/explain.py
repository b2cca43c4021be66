"""Why a Dreadnought choice is refused, in the words of the rules (issue #35: `CAST R11` said nothing).

`why_illegal` reads only what the player choosing may know: their own hand and speed area, the open
field, the counts and states of their own bursts and engraves, and the attack in progress. It never
names a card the player cannot see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardlab.core.actions import IndexedAction
from cardlab.core.explain import not_now
from cardlab.games.dreadnought.actions import AREAS, SLOTS
from cardlab.games.dreadnought.cards import CardDef, Selector
from cardlab.games.dreadnought.frames import IDOL_AREA

if TYPE_CHECKING:
    from cardlab.games.dreadnought.state import DreadnoughtState

EMPTY = -1

WINDOW_VERBS: dict[str, tuple[tuple[str, ...], str]] = {
    "place": (("PLACE",), "caster placement (D4.1)"),
    "mull": (("MULL", "KEEP"), "the mulligan (D4.6)"),
    "speed_window": (("GEAR", "PLAY", "USE", "SUB", "GODDRAW", "DONE"), "your speed actions (D6.3)"),
    "cast_window": (
        ("CAST", "DUMMY", "MOVE", "REMOVE", "PLAY", "USE", "SUB", "GODDRAW", "DONE"),
        "your cast actions (D8.2)",
    ),
    "fast_window": (("PLAY", "USE", "SUB", "GODDRAW", "DONE"), "your fast actions (D9)"),
    "dest": (("TO",), "choosing where the card goes (D8.3)"),
    "move_to": (("TO",), "choosing where the unit moves (D8.2)"),
    "upkeep_idol": (("UPKEEP PAY", "UPKEEP CHECK"), "idol upkeep (D19.4)"),
    "target": (("TARGET",), "choosing a target (D5.3)"),
    "pay_discard": (("DISCARD",), "paying a discard cost (D12.3)"),
    "pay_src": (("PAY", "SUB"), "paying log (D12.1)"),
    "aturn": (("GODDRAW", "ATTACKER", "PLAY", "USE", "SUB", "PASS"), "your action turn (D10.2)"),
    "abuild": (("ATTACKER", "ATTACK"), "declaring an attack (D10.5)"),
    "block": (("GODDRAW", "BLOCK"), "choosing a blocker (D10.6)"),
    "react": (("GODDRAW", "PLAY", "USE", "SUB", "PASS"), "your reaction right (D10.4)"),
    "pick": (("MATERIAL",), "choosing material from your discard (D14.2)"),
    "scrap": (("SCRAP",), "discarding an engrave over 3 (D16.3)"),
    "order": (("FIRST",), "ordering your triggers (D5.5)"),
    "hpdraw": (("HPDRAW",), "taking an HP card for a draw (D20.1)"),
    "hpdeck": (("HPDRAW",), "taking an HP card for a deck use (D20.2)"),
    "limit": (("DISCARD",), "the hand limit (D11.2)"),
}
"""The verbs each decision takes (D22.8), and the decision in a player's words."""

VERB_WORDS: dict[str, str] = {
    "PLACE": "place a caster in BA1",
    "MULL": "set a card aside",
    "KEEP": "keep your hand",
    "GEAR": "gear change a hand card",
    "PLAY": "play a code or arms",
    "USE": "use an ability",
    "SUB": "use a sub-effect",
    "GODDRAW": "god draw a burst",
    "DONE": "finish",
    "CAST": "cast a unit or idol",
    "DUMMY": "cast a dummy",
    "MOVE": "move a unit",
    "REMOVE": "remove a unit",
    "TO": "choose where it goes",
    "UPKEEP PAY": "pay the idol's upkeep",
    "UPKEEP CHECK": "check the idol instead",
    "TARGET": "choose a target",
    "DISCARD": "discard a card",
    "PAY": "pay with a log source",
    "ATTACKER": "add an attacker",
    "ATTACK": "attack an enemy battle area",
    "PASS": "pass",
    "BLOCK": "choose a blocker",
    "MATERIAL": "choose a material",
    "SCRAP": "discard an engrave",
    "FIRST": "choose the trigger to resolve first",
    "HPDRAW": "take an HP card",
}
"""Each verb as a player says what it does: a refusal says what can be done now in these words."""

_PLACES = {"C": "caster", "U1": "unit 1", "U2": "unit 2"}

TIMING_OF_WINDOW = {
    "speed_window": "SPEED",
    "cast_window": "CAST",
    "fast_window": "FAST",
    "aturn": "ACTION",
    "react": "REACTION",
}


def why_illegal(state: DreadnoughtState, action: IndexedAction) -> str:
    """A short reason `action` is not legal now; "" when there is nothing more to say than the legal list."""
    from cardlab.games.dreadnought.position import window_name

    window = window_name(state)
    player = state.current_player()
    if window == "over" or player is None:
        return "the game is over"
    decoded = state.game.decode[action]
    verb = "USE" if decoded.verb == "USE@S" else decoded.verb
    verbs, during = WINDOW_VERBS.get(window, ((), window))
    if verb not in verbs:
        return not_now(_doing(verb), during, [_doing(v) for v in verbs])
    if verb == "GODDRAW":
        if state.burst_checked[player].count(False) == 0:
            return "you have no normal burst to god draw (D17.1)"
        return "god draws are allowed in your cast actions, action turn, reaction right and before blocking (D17.2)"
    if decoded.card and verb in ("CAST", "PLAY", "SUB", "DUMMY", "GEAR", "MULL", "DISCARD"):
        return _card(state, player, window, verb, decoded.card, decoded.from_speed, decoded.area)
    if verb == "USE":
        return _use(state, player, window, decoded.slot, decoded.card, decoded.index)
    if verb in ("ATTACKER", "MOVE", "REMOVE", "BLOCK") and decoded.slot:
        return _slot(state, player, verb, decoded.slot)
    if verb == "ATTACK":
        enemy = 1 - player
        if not state.units[enemy][decoded.area] and not state.hp[enemy][decoded.area]:
            return f"the enemy {AREAS[decoded.area]} has no unit and its caster is down at 0 HP (D10.5, D13.5)"
    if verb == "PAY":
        return _pay(state, player, decoded.source)
    if verb == "MATERIAL":
        return f"{decoded.card} is not in your discard pile (D14.2, D16.1)"
    if verb == "PLACE":
        return f"{decoded.card} is not one of your casters (D4.1)"
    if verb == "TARGET":
        seat = ("P1", "P2")[decoded.seat]
        return f"{seat}'s {_place(decoded.slot)} is not a legal target for this effect (D5.3, D22.6)"
    if verb == "TO":
        return "there is no room for it there: two units weighing 3 at most, one idol (D8.3, D19.1)"
    return ""


def _doing(verb: str) -> str:
    return VERB_WORDS.get(verb, verb.lower())


def _place(slot: str) -> str:
    """`BA1.U1` -> 'BA1 unit 1', `IDOL` -> 'idol area': a field place as the board names it."""
    if slot == "IDOL":
        return "idol area"
    area, _, spot = slot.partition(".")
    return f"{area} {_PLACES.get(spot, spot)}"


def _card(state: DreadnoughtState, player: int, window: str, verb: str, card_id: str, speed: bool, area: int) -> str:
    place = "speed area" if speed else "hand"
    pile = state.speed[player] if speed else state.hand[player]
    card = next((state.cards[inst] for inst in pile if state.cards[inst].id == card_id), None)
    if card is None:
        return f"{card_id} is not in your {place}"
    if speed and state.first == EMPTY:
        return "speed-area cards can be used once the first player is decided (D5.7)"
    if verb == "CAST":
        return _cast(state, player, card)
    if verb == "DUMMY":
        return f"{AREAS[area]} has no room for a dummy (size S): at most two units weighing 3 (D8.3, D15.1)"
    if verb == "PLAY":
        return _play(state, player, window, card)
    if verb == "SUB":
        if card.sub is None:
            return f"{card.name} has no sub-effect (D18)"
        timed = _timed(state, player, window, card.name, card.sub.timing, card.sub.require, "its sub-effect")
        return timed or f"{card.name}'s sub-effect cannot be paid or has no legal target now (D12.4, D5.3a)"
    if verb == "GEAR":
        return "one gear change per speed phase (D6.3)"
    return ""


def _cast(state: DreadnoughtState, player: int, card: CardDef) -> str:
    if card.type == "arms":
        return f"{card.name} is an arms: play it onto one of your casters in your fast actions (D2.8, D9.2)"
    if card.type == "code":
        return f"{card.name} is a code: play it at its timing (D2.7, D5.4)"
    if not any(state.fits(player, area, card.weight) for area in (0, 1)) and not (
        card.type == "idol" and state.idol[player] == EMPTY
    ):
        return f"no battle area has room for size {card.size}: at most two units weighing 3 in all (D8.3)"
    return _cost(state, player, card)


def _play(state: DreadnoughtState, player: int, window: str, card: CardDef) -> str:
    if card.type in ("unit", "idol"):
        return f"{card.name} is a {card.type}: cast it in your cast actions (D8.2)"
    if card.type == "arms":
        if window != "fast_window":
            return f"{card.name} is an arms: it is played in your fast actions (D9.2)"
        if all(caster in state.arms for caster in state.casters[player]):
            return "each of your casters already holds an arms, one at most (D2.8)"
        return _cost(state, player, card)
    return _timed(state, player, window, card.name, card.timing, card.require, "") or _cost(state, player, card)


def _timed(state: DreadnoughtState, player: int, window: str, name: str, timing: tuple[str, ...], require: str,
           what: str) -> str:  # fmt: skip
    """Why a code (`what` empty) or a sub-effect or ability (`what` names it) cannot be used in this window:
    its timing (D5.4) or its require (D22.5)."""
    now = TIMING_OF_WINDOW.get(window)
    if now not in timing:
        subject = f"{name}: {what}" if what else name
        return f"{subject} is used at {' or '.join(t.lower() for t in timing)} timing, not now (D5.4)"
    if require and not state.attacking:
        return f"{name} needs an attack in progress (D22.5)"
    if require == "own_attack" and state.attack_player != player:
        return f"{name} works only during your own attack (D22.5)"
    if require == "enemy_attack" and state.attack_player == player:
        return f"{name} works only during an enemy attack (D22.5)"
    return ""


def _cost(state: DreadnoughtState, player: int, card: CardDef) -> str:
    available = state.log_sources(player)
    if card.cost > available:
        return f"{card.name} costs {card.cost} log; you have {available} normal log source(s) (D12.1, D12.4)"
    if card.extra.engrave > state.engrave_checked[player].count(False):
        return f"{card.name} also needs {card.extra.engrave} normal engrave(s) to check (D12.3)"
    if card.extra.discard:
        return f"{card.name} also needs {card.extra.discard} other card(s) to discard (D12.3)"
    return _no_target(state, player, EMPTY, f"C:{card.id}", card.name)


def _no_target(state: DreadnoughtState, player: int, source: int, ref: str, name: str) -> str:
    """D5.3a: which target the effect needs and lacks, as the card text names it (`words.target_words`)."""
    from cardlab.games.dreadnought.words import target_words

    for effect in state.game.effects.get(ref, ()):
        target = effect.args.get("target")
        if isinstance(target, Selector) and not target.is_group and not state.candidates(target, player, source):
            return f"{name} needs {target_words(target)} to target, and there is none now (D5.3a)"
    return f"{name} has no legal target now (D5.3a)"


def _use(state: DreadnoughtState, player: int, window: str, slot: str, card_id: str, index: int) -> str:
    """An activated ability of an own object (or of a card in the speed area): what stops it now (D22.4)."""
    if card_id:
        obj = next((inst for inst in state.speed[player] if state.cards[inst].id == card_id), EMPTY)
        where = f"{card_id} in your speed area"
    else:
        obj = state.object_at(player, SLOTS.index(slot))
        where = f"your {_place(slot)}"
    if obj == EMPTY:
        return f"you have nothing on your {_place(slot)}" if slot else f"{card_id} is not in your speed area"
    abilities = list(state.game.activated.get(state.cards[obj].id, ()))
    arms = state.arms.get(obj, EMPTY)
    if arms != EMPTY:
        abilities += state.game.activated.get(state.cards[arms].id, ())
    if not 0 <= index < len(abilities):
        return f"{where} has no ability {index + 1}"
    ref, ability = abilities[index]
    name = state.cards[obj].name
    if not card_id and not state.is_caster(obj) and ability.zone in ("battle", "idol"):
        here = "idol" if state.area_of[obj] == IDOL_AREA else "battle"
        if here != ability.zone:
            needed = "in a battle area" if ability.zone == "battle" else "in the idol area"
            return f"{name}'s ability works only while it stands {needed}, and it is in your {_place(slot)} (D19.3)"
    if ability.cost.check_self and state.checked[obj]:
        return f"{name} is checked: its ability needs it normal (D12.3)"
    timed = _timed(state, player, window, name, ability.timing, ability.require, "its ability")
    if timed:
        return timed
    if ability.cost.log > state.log_sources(player, exclude=obj if ability.cost.check_self else EMPTY):
        return f"{name}'s ability costs {ability.cost.log} log, more than you can pay now (D12.1, D12.4)"
    if ability.cost.discard or ability.cost.engrave:
        return f"{name}'s ability also needs a card to discard or a normal engrave to check (D12.3)"
    return _no_target(state, player, obj, ref, f"{name}'s ability")


def _slot(state: DreadnoughtState, player: int, verb: str, slot: str) -> str:
    obj = state.object_at(player, SLOTS.index(slot))
    if obj == EMPTY:
        return f"you have nothing on your {_place(slot)}"
    if verb == "ATTACKER":
        if slot == "IDOL":
            return "an idol in the idol area cannot attack (D19.2)"
        if state.checked[obj]:
            return f"the unit on your {_place(slot)} is checked: only normal units attack (D10.5)"
        return "casters do not attack; choose a normal unit (D10.5)"
    if verb == "MOVE":
        if obj in state.moved:
            return f"the unit on your {_place(slot)} has already moved this cast phase (D8.2)"
        return f"the other battle area has no room for the unit on your {_place(slot)} (D8.3)"
    if verb == "BLOCK":
        if state.is_caster(obj) and not state.hp[player][SLOTS.index(slot) // 3]:
            return "a caster at 0 HP is down and cannot block (D13.5)"
        return f"the blocker must stand in the attacked battle area, {AREAS[state.attack_area]} (D10.6)"
    return ""


def _pay(state: DreadnoughtState, player: int, source: str) -> str:
    if source == "BURST":
        return "you have no normal burst left to check (D12.1)"
    if source == "ENGRAVE":
        return "you have no normal engrave left to check (D12.1)"
    if source == "IDOL":
        return "you need a normal idol in your idol area to pay with it (D12.1)"
    return f"your {source} caster is checked or is the one using this ability (D12.1, D12.3)"
