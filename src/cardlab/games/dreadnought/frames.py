"""The rules interpreter's automatic frames (D4-D21) and effects (D22.2), with the data they share.

A frame is a tuple `(kind, *data)` on `DreadnoughtState.stack` (top last). An automatic frame
runs by itself: `AUTO[kind](state, *data)` does one step of the rules and may schedule more
frames; a decision frame waits for the player it names (`cardlab.games.dreadnought.decisions`).
This module imports neither the state nor the decisions at run time, so that both can import it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from cardlab.core.game import Player, player_name
from cardlab.games.dreadnought.actions import AREAS, DESTINATIONS
from cardlab.games.dreadnought.cards import Effect, Selector

if TYPE_CHECKING:
    from cardlab.games.dreadnought.state import DreadnoughtState

EMPTY = -1
BA1, BA2, IDOL_AREA = 0, 1, 2
OPENING_HAND = 6  # D4.5
HAND_LIMIT = 7  # D11.2
MAX_ENGRAVES = 3  # D16.3
AREA_UNITS, AREA_WEIGHT = 2, 3  # D8.3
ENCHANT_BP = 20  # D13.1
DUMMY_BP = 50  # D15.1
DUMMY_SLOTS = 4  # at most two units in each of two battle areas
TIE_REVEALS = 3  # D6.6
ACTION_TURN_CAP = 200  # D10.3
TURN_CAP = 100  # D21.3
BOOST, WEAKEN, ENGRAVE = 1, -1, 0  # material kinds (D14.2, D16.1)
PHASES = ("setup", "speed", "draw", "cast", "fast", "action", "end", "over")


class Play(NamedTuple):
    """Something being played, carried from frame to frame (D5.3).

    `ref` names the effects: `C:<id>` a code's, `A:<id>:<i>` ability i of a card, `G:<id>:<i>`
    grant i of an arms, `S:<id>` a sub-effect. `card` is the played card (in limbo), `source`
    the object whose ability it is; `targets` holds one object per single-target selector.
    """

    kind: str  # code, arms, ability, sub, trigger, unit, idol, dummy, upkeep
    player: int
    card: int = EMPTY
    source: int = EMPTY
    ref: str = ""
    targets: tuple[int, ...] = ()
    log: int = 0
    discard: int = 0
    action: bool = False
    dest: int = EMPTY


Frame = tuple[Any, ...]


# ---- automatic frames -----------------------------------------------------------------------


def _f_setup(s: DreadnoughtState) -> None:
    """D4.1 (casters opened together), D4.3 HP, D4.4 first burst, D4.5 hand."""
    for p in (0, 1):
        for area, caster in enumerate(s.placed[p]):
            s.casters[p][area] = caster
            s.area_of[caster] = area
            for _ in range(s.cards[caster].hp):
                if s.deck[p]:
                    s.hp[p][area].append(s.deck[p].pop())
        s.placed[p].clear()
        s._deck_to_burst(p)
        for _ in range(OPENING_HAND):
            s._draw_card(p)
    if s.events is not None:
        for p in (0, 1):
            s._log("casters", player=player_name(p), BA1=s.cards[s.casters[p][0]].id, BA2=s.cards[s.casters[p][1]].id)
    s._then(("mull", 0), ("mull", 1), ("mull_done",))


def _f_mull_done(s: DreadnoughtState) -> None:
    """D4.6: the set-aside cards go to the discard (the spec's ruling; rule mulligan_to=deck: shuffled back into the
    deck, R-VD1) and as many are drawn, then turn 1."""
    draws: list[Frame] = []
    for p in (0, 1):
        draws += [("draw1", p)] * len(s.mull[p])
        if s.events is not None:
            s._log("mulligan", player=player_name(p), cards=[s.cards[i].id for i in s.mull[p]])
        if s._game.mulligan_to_deck and s.mull[p]:
            deck = s.deck[p]
            deck.extend(s.mull[p])
            # The state holds no random stream: the deck's own (seeded, hidden) order seeds the shuffle (R-VD1),
            # by card id, which a position keeps (instance numbers differ in a reloaded one).
            random.Random(",".join(s.cards[i].id for i in deck)).shuffle(deck)
        else:
            s.discard[p].extend(s.mull[p])
        s.mull[p].clear()
    s._then(*draws, ("turn",))


def _f_turn(s: DreadnoughtState) -> None:
    s.turn += 1
    s.first = EMPTY
    s.speed_shift[:] = [0, 0]
    s.geared[:] = [False, False]
    if s.events is not None:
        s._log("turn", turn=s.turn, token=player_name(s.token))
    s._then(("speed_phase",), ("draw_phase",), ("cast_phase",), ("fast_phase",), ("action_phase",), ("end_phase",),
            ("turn",))  # fmt: skip


def _reveal(s: DreadnoughtState, player: Player) -> bool:
    """D6.1: the deck's top card opens in the speed area; False if the deck is empty."""
    if not s.deck[player]:
        return False
    card = s.deck[player].pop()
    s.speed[player].append(card)
    s._statics = None
    if s.events is not None:
        s._log("speed_reveal", player=player_name(player), card=s.cards[card].id)
    return True


def _f_speed_phase(s: DreadnoughtState) -> None:
    s.phase = "speed"
    _f_reveals(s)


def _f_reveals(s: DreadnoughtState) -> None:
    """D6.1: both players reveal (under rule library_out=every_use an empty deck first takes an HP card)."""
    if s._game.hp_for_every_use:
        for p in s._order():
            if hp_for_deck(s, p, 1, ("reveals",)):
                return
    for p in s._order():
        if _reveal(s, p):
            s._queue_event("on_speed_reveal", [s.speed[p][-1]])
    s._then(("settle",), ("speed_windows",))


def _f_speed_windows(s: DreadnoughtState) -> None:
    """D6.2-D6.4: the faster player (token holder on a tie) acts first."""
    speeds = (s.current_speed(0), s.current_speed(1))
    faster = s.token if speeds[0] == speeds[1] else (0 if speeds[0] > speeds[1] else 1)
    s._then(("win", faster, "speed"), ("win", 1 - faster, "speed"), ("decide",))


def _f_decide(s: DreadnoughtState) -> None:
    """D6.5: closed speed cards open; their reveal triggers resolve before the comparison."""
    for p in s._order():
        if s.gear[p]:
            card = s.gear[p].pop()
            s.speed[p].append(card)
            s._statics = None
            if s.events is not None:
                s._log("gear_open", player=player_name(p), card=s.cards[card].id)
            s._queue_event("on_speed_reveal", [card])
    s._then(("settle",), ("compare", 0))


def _f_compare(s: DreadnoughtState, reveals: int) -> None:
    """D6.5-D6.6: higher speed is F; ties re-reveal up to three times (rule tie_reveals), then the token decides."""
    speeds = (s.current_speed(0), s.current_speed(1))
    if speeds[0] != speeds[1]:
        first = 0 if speeds[0] > speeds[1] else 1
    elif reveals < s._game.tie_reveals and can_reveal(s, 0) and can_reveal(s, 1):  # rule tie_reveals
        if s._game.hp_for_every_use:
            for p in s._order():
                if hp_for_deck(s, p, 1, ("compare", reveals)):
                    return
        for p in s._order():
            _reveal(s, p)
            s._queue_event("on_speed_reveal", [s.speed[p][-1]])
        s._then(("settle",), ("compare", reveals + 1))
        return
    else:
        first = s.token
    s.first = first
    if s.events is not None:
        s._log("first", player=player_name(first), speeds=list(speeds))


def _f_draw_phase(s: DreadnoughtState) -> None:
    """D7.1: F draws 1 and S draws 2 as one step (rule draw_counts); D7.2: one burst each from the deck."""
    s.phase = "draw"
    first, second = s._order()
    f_draws, s_draws = s._game.draws
    s._then(*[("draw1", first)] * f_draws, *[("draw1", second)] * s_draws, ("draw_bursts",))


def _f_draw_bursts(s: DreadnoughtState) -> None:
    """D7.2: one burst each from the deck (rule draw_bursts), none from an empty deck (D20.2)."""
    count = s._game.draw_bursts
    if s._game.hp_for_every_use:
        for p in s._order():
            if hp_for_deck(s, p, count, ("draw_bursts",)):
                return
    for p in s._order():
        for _ in range(count):
            s._deck_to_burst(p)
    s._then(("settle",))


def can_reveal(s: DreadnoughtState, player: Player) -> bool:
    """D6.6: a deck card to reveal, or (rule library_out=every_use) an HP card standing in for it."""
    return bool(s.deck[player]) or (s._game.hp_for_every_use and bool(s.hp[player][BA1] or s.hp[player][BA2]))


def hp_for_deck(s: DreadnoughtState, player: Player, needed: int, resume: Frame) -> bool:
    """Rule library_out=every_use (D20.2): a deck use that needs `needed` cards from a shorter deck takes HP
    cards instead, as a draw does (D20.1). One HP card goes under the deck (the player picks the caster when
    both have HP), then `resume` runs the use again; False (nothing scheduled) when no HP card is needed or left.
    """
    if len(s.deck[player]) >= needed:
        return False
    with_hp = [area for area in (BA1, BA2) if s.hp[player][area]]
    if not with_hp:
        return False
    s._then(resume)
    if len(with_hp) == 2:
        s._then(("hpdeck", player))
    else:
        hp_to_deck(s, player, with_hp[0])
    return True


def hp_to_deck(s: DreadnoughtState, player: Player, area: int) -> None:
    """The top HP card of `area` goes, still closed, under the deck: the deck use takes it like a deck card."""
    s.deck[player].insert(0, s.hp[player][area].pop())
    if s.events is not None:
        s._log("hp_to_deck", player=player_name(player), area=AREAS[area], hp=len(s.hp[player][area]))


def _f_draw1(s: DreadnoughtState, player: Player) -> None:
    """D20.1, D20.3: an empty deck draws an HP card instead (the player picks the caster)."""
    if s._draw_card(player):
        return
    with_hp = [area for area in (BA1, BA2) if s.hp[player][area]]
    if len(with_hp) == 2:
        s._then(("hpdraw", player))
    elif with_hp:
        take_hp(s, player, with_hp[0])


def take_hp(s: DreadnoughtState, player: Player, area: int) -> None:
    card = s.hp[player][area].pop()
    s.hand[player].append(card)
    if s.events is not None:
        s._log("hp_draw", {"card": s.cards[card].id}, player, player=player_name(player), area=AREAS[area])


def _f_cast_phase(s: DreadnoughtState) -> None:
    """D8.1: F's upkeep and cast actions, then S's."""
    s.phase = "cast"
    s.moved.clear()
    first, second = s._order()
    s._then(("upkeep", first), ("win", first, "cast"), ("upkeep", second), ("win", second, "cast"))


def _f_upkeep(s: DreadnoughtState, player: Player) -> None:
    """D19.4: every idol in a battle area is paid for or checked."""
    idols = [u for area in (BA1, BA2) for u in s.units[player][area] if s.cards[u].type == "idol" and not s.is_dummy(u)]
    s._then(*[("upkeep_idol", player, idol) for idol in idols])


def _f_fast_phase(s: DreadnoughtState) -> None:
    s.phase = "fast"
    first, second = s._order()
    s._then(("win", first, "fast"), ("win", second, "fast"))


def _f_action_phase(s: DreadnoughtState) -> None:
    """D10.1: start_of_action_phase triggers (F's first), then F's first action turn."""
    s.phase = "action"
    first, second = s._order()
    s._queue_event("start_of_action_phase", s._everything(first) + s._everything(second))
    s._then(("settle",), ("aturn", first, 0, 0))


def _f_end_phase(s: DreadnoughtState) -> None:
    """D11.1 end_of_turn triggers, D11.2 hand limits, then cleanup."""
    s.phase = "end"
    first, second = s._order()
    s._queue_event("end_of_turn", s._everything(first) + s._everything(second))
    s._then(("settle",), ("hand_limit", first), ("hand_limit", second), ("cleanup",))


def _f_hand_limit(s: DreadnoughtState, player: Player) -> None:
    if len(s.hand[player]) > HAND_LIMIT:
        s._then(("limit", player), ("hand_limit", player))


def _f_cleanup(s: DreadnoughtState) -> None:
    """D11.3 cleanup, D11.4 refresh, D11.5 end of turn effects, D11.6 token (D6.7) and turn cap (D21.3)."""
    s._statics = None
    for p in (0, 1):
        s.discard[p].extend(s.speed[p])
        s.speed[p].clear()
        for caster in s.casters[p]:
            arms = s.arms.pop(caster, EMPTY)
            if arms != EMPTY:
                s._to_discard(arms)
        for unit in s.units_of(p):
            if s.is_dummy(unit):
                s._to_discard(s._leave_field(unit))
            else:
                s._drop_enchants(unit)
        engraves = list(zip(s.engraves[p], s.engrave_checked[p], strict=True))
        s.discard[p].extend(card for card, checked in engraves if checked)  # D16.4
        s.engraves[p][:] = [card for card, checked in engraves if not checked]
        s.engrave_checked[p][:] = [False] * len(s.engraves[p])
        s.burst_checked[p][:] = [False] * len(s.burst_checked[p])
        for obj in (*s.casters[p], *s.units_of(p)):
            s.checked[obj] = False
    s._statics = None
    s.bp_mod.clear()
    s.shield.clear()
    s.speed_shift[:] = [0, 0]
    if s.first != EMPTY:  # D6.7: to this turn's S; a loaded position may end a turn whose F it never decided
        s.token = s.first if s._game.token_to_first else 1 - s.first  # rule token_to=first: to F
    if s.events is not None:
        s._log("end_of_turn", turn=s.turn, token=player_name(s.token))
    if s.turn >= TURN_CAP:
        s._finish(None, "turn_limit")


def _f_settle(s: DreadnoughtState) -> None:
    """D5.6 rule check: break units at BP <= 0, trim engraves, check the end; then triggers (D5.5)."""
    while True:
        # Statics only ever add BP unless the card set has a negative one, so base BP > 0 is enough then.
        exact = s._game.negative_statics
        doomed = [u for p in (0, 1) for u in s.units_of(p) if (exact or s.base_bp(u) <= 0) and s.bp(u) <= 0]
        if not doomed:
            break
        for unit in doomed:
            if s.on_field(unit):
                s._break(unit)
    for p in s._order():
        if len(s.engraves[p]) > MAX_ENGRAVES:
            s._then(("scrap", p), ("settle",))
            return
    if s._game_end():
        return
    if s.triggers:
        s._then(("next_trigger",), ("settle",))


def _f_next_trigger(s: DreadnoughtState) -> None:
    """D5.5: F's triggers first, in the order F picks, then S's (rule trigger_order=second: S's first)."""
    first, second = s._order()
    if s._game.second_triggers_first:
        first, second = second, first
    player = first if any(t[0] == first for t in s.triggers) else second
    choices = trigger_choices(s, player)
    if len(choices) > 1:
        s._then(("order", player))
    else:
        start_trigger(s, choices[0])


def trigger_choices(s: DreadnoughtState, player: Player) -> list[int]:
    """Indices into the queue of `player`'s triggers, one per different (source card, ability)."""
    seen: set[tuple[str, str]] = set()
    found = []
    for i, (controller, source, ref) in enumerate(s.triggers):
        key = (s.cards[source].id, ref)
        if controller == player and key not in seen:
            seen.add(key)
            found.append(i)
    return found


def start_trigger(s: DreadnoughtState, index: int) -> None:
    controller, source, ref = s.triggers.pop(index)
    if s.events is not None:
        s._log("trigger", player=player_name(controller), card=s.cards[source].id, ability=ref)
    s._then(("targets", Play("trigger", controller, source=source, ref=ref)))


def _selectors(s: DreadnoughtState, play: Play) -> list[Selector]:
    """The single-target selectors of the play's effects, in order (D5.3)."""
    if play.kind in ("unit", "idol", "dummy", "upkeep", "arms"):
        return []
    found = []
    for effect in s._effects(play.ref):
        target = effect.args.get("target")
        if isinstance(target, Selector) and not target.is_group:
            found.append(target)
    return found


def _f_targets(s: DreadnoughtState, play: Play) -> None:
    """Choose a target per single-target selector; a trigger without one gets none (D5.3a)."""
    selectors = _selectors(s, play)
    if len(play.targets) == len(selectors):
        s._then(("resolve", play) if play.kind == "trigger" else ("pay", play))
        return
    selector = selectors[len(play.targets)]
    found = s.candidates(selector, play.player, play.source)
    if not found:
        s._then(("targets", play._replace(targets=(*play.targets, EMPTY))))
    elif selector.base in ("self", "bearer", "blocker"):
        s._then(("targets", play._replace(targets=(*play.targets, found[0]))))
    else:
        s._then(("target", play.player, play))


def _f_pay(s: DreadnoughtState, play: Play) -> None:
    """D12.3: check the source and the engraves, then discards, then log."""
    if play.kind in ("ability",) and s._game.ability_of[play.ref].cost.check_self:
        s.checked[play.source] = True
    engrave = _extra_engrave(s, play)
    if engrave:
        s._check_engraves(play.player, engrave)
    if play.discard:
        s._then(("pay_discard", play.player, play))
    else:
        s._then(("pay_log", play))


def _extra_engrave(s: DreadnoughtState, play: Play) -> int:
    game = s._game
    if play.kind == "ability":
        return game.ability_of[play.ref].cost.engrave
    if play.kind == "sub":
        return game.sub_of[play.ref].cost.engrave
    if play.kind in ("code", "arms", "unit", "idol"):
        return s.cards[play.card].extra.engrave
    return 0


def _f_pay_log(s: DreadnoughtState, play: Play) -> None:
    log = play.log
    if s.cost_reduction:
        log = max(0, log - s.cost_reduction)  # D22.2 cost_reduce: the code being paid
        s.cost_reduction = 0
    if log:
        s._then(("pay_src", play.player, play._replace(log=log)))
    else:
        s._then(("settle",), ("paid", play))


def _f_paid(s: DreadnoughtState, play: Play) -> None:
    p = play.player
    if play.kind in ("unit", "idol"):
        _enter(s, play)
    elif play.kind == "arms":
        caster = play.targets[0]
        s.limbo[p].remove(play.card)
        s.arms[caster] = play.card
        s._statics = None
        if s.events is not None:
            s._log("arms", player=player_name(p), card=s.cards[play.card].id, caster=s.cards[caster].id)
    elif play.action:  # D10.4: the other player reacts first (rule reaction_first=actor: the actor)
        s._then(("react", p if s._game.actor_reacts_first else 1 - p, 0), ("resolve", play))
    elif play.kind != "upkeep":
        if s._game.reaction_stack and s.stack and s.stack[-1][0] == "react":
            # rule reactions=stack (R-VD4): a reaction waits below the window, on the ones played before it
            s._then(s.stack.pop(), ("resolve", play))
        else:
            s._then(("resolve", play))


def _enter(s: DreadnoughtState, play: Play) -> None:
    """D8.2(1), D19.1: the cast card enters open and normal; its on_cast triggers resolve."""
    p = play.player
    s.limbo[p].remove(play.card)
    s._place(play.card, p, play.dest)
    if s.events is not None:
        s._log("cast", player=player_name(p), card=s.cards[play.card].id, to=DESTINATIONS[play.dest])
    s._queue_event("on_cast", [play.card])
    s._then(("settle",))


def _f_resolve(s: DreadnoughtState, play: Play) -> None:
    count = len(s._effects(play.ref))
    s._then(*[("effect", play, i) for i in range(count)], ("finish", play), ("settle",))


def _f_finish(s: DreadnoughtState, play: Play) -> None:
    """A played code goes to the discard unless attached (D2.7); a used sub's card too (D18.2)."""
    if play.card != EMPTY and play.card in s.limbo[play.player]:
        s.limbo[play.player].remove(play.card)
        s._to_discard(play.card)


def _target_of(s: DreadnoughtState, play: Play, index: int) -> int:
    """The object chosen for effect `index` (a group's objects are found at resolution)."""
    effects = s._effects(play.ref)
    j = 0
    for effect in effects[:index]:
        target = effect.args.get("target")
        if isinstance(target, Selector) and not target.is_group:
            j += 1
    return play.targets[j]


def _f_effect(s: DreadnoughtState, play: Play, index: int) -> None:
    """D22.2: one effect; a target no longer legal is skipped (D5.3)."""
    effect = s._effects(play.ref)[index]
    needs_deck = s._game.hp_for_every_use and effect.name in _DECK_EFFECTS  # rule library_out=every_use (D20.2)
    if needs_deck and hp_for_deck(s, play.player, effect.number("n"), ("effect", play, index)):
        return
    args = effect.args
    selector = args.get("target")
    hits: list[dict[str, Any]] = []  # what each target was before the effect, for the event's words
    if isinstance(selector, Selector):
        if selector.is_group:
            targets = s.candidates(selector, play.player, play.source)
        else:  # bp filters were read when the target was chosen (D22.6); the rest must still hold (D5.3)
            target = _target_of(s, play, index)
            still = Selector(selector.base, tuple(f for f in selector.filters if f.key != "bp"))
            legal = target != EMPTY and target in s.candidates(still, play.player, play.source)
            targets = [target] if legal else []
        for target in targets:
            if s.events is not None:
                unit = not s.is_caster(target)
                hits.append({"target": s.describe(target), "bp": s.bp(target) if unit else None,
                             "shield": s.shields(target)})  # fmt: skip
            EFFECTS[effect.name](s, play, effect, target)
            if hits:
                hits[-1]["gone"] = not s.on_field(target)
    else:
        EFFECTS[effect.name](s, play, effect, EMPTY)
    if s.events is not None:
        s._log("effect", player=player_name(play.player), effect=str(effect), hits=hits)


def _e_damage(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    """D13.2: one instance, less shields, against current BP; damage is never kept."""
    dealt = max(0, effect.number("amount") - s.shields(obj))
    if dealt >= s.bp(obj):
        s._break(obj)


def _e_enchant(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    kind = BOOST if effect.args["kind"] == "boost" else WEAKEN
    s._then(("material", play.player, obj, kind, effect.number("count")))


def _e_bp_mod(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    s.bp_mod[obj] = s.bp_mod.get(obj, 0) + effect.number("amount")


def _e_attack_mod(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    if s.attacking:
        s.attack_mod += effect.number("amount")


_DECK_EFFECTS = frozenset({"burst", "hp_gain"})
"""Effects that take cards from the deck top (D22.2), so an HP card stands in under library_out=every_use."""


def _e_draw(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    s._then(*[("draw1", play.player)] * effect.number("n"))


def _e_burst(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    for _ in range(effect.number("n")):
        s._deck_to_burst(play.player)


def _e_engrave(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    s._then(("material", play.player, EMPTY, ENGRAVE, effect.number("n")))


def _e_normalize(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    s.checked[obj] = False


def _e_check(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    s.checked[obj] = True


def _e_break(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    s._break(obj)


def _e_bounce(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    """D15.2: to the owner's hand (a dummy's real card too; an open unit stays known there)."""
    player = s.owner[obj]
    known = not s.is_dummy(obj) or s.dummy_known[player][obj - s.n_cards - DUMMY_SLOTS * player]
    card = s._leave_field(obj)
    s.hand[player].append(card)
    if known:
        s.known_hand[player].append(card)
    if s.events is not None:
        s._log("bounce", player=player_name(player), card=s.cards[card].id if known else None)


def _e_move(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    """To the owner's other battle area if it fits; a unit in the idol area stays (R-D7)."""
    area = s.area_of[obj]
    player = s.owner[obj]
    if area == IDOL_AREA or not s.fits(player, 1 - area, s.weight(obj)):
        return
    s.units[player][area].remove(obj)
    s._place(obj, player, 1 - area)


def _e_hp_break(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    s._lose_hp(obj, effect.number("n"))


def _e_hp_gain(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    """D13.6: top deck cards under the caster, no upper limit; an empty deck gives nothing (D20.2)."""
    player = s.owner[obj]
    for _ in range(effect.number("n")):
        if s.deck[player]:
            s.hp[player][s.area_of[obj]].append(s.deck[player].pop())


def _e_shield(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    s.shield[obj] = s.shield.get(obj, 0) + effect.number("amount")


def _e_speed_shift(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    s.speed_shift[play.player] += effect.number("steps")


def _e_cost_reduce(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    s.cost_reduction += effect.number("n")


def _e_attach(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    """D14.5: the code becomes an open enchant on its target instead of going to the discard."""
    if play.card in s.limbo[play.player]:
        s.limbo[play.player].remove(play.card)
        s.attached.setdefault(obj, []).append(play.card)
        s._statics = None


def _f_material(s: DreadnoughtState, player: Player, host: int, kind: int, count: int) -> None:
    """D14.2, D16.1: each enchant or engrave takes a card of the player's discard, else the deck top; an
    enchant whose host has left the field (a position names such a dummy null) is not made."""
    if count <= 0 or (kind != ENGRAVE and not s.on_field(host)):
        return
    discard = s.discard[player]
    if len({s.cards[c].id for c in discard}) > 1:
        s._then(("pick", player, host, kind), ("material", player, host, kind, count - 1))
        return
    if discard:
        card, secret = discard.pop(), False
    elif s.deck[player]:
        card, secret = s.deck[player].pop(), kind != ENGRAVE  # a closed enchant nobody has seen
    elif s._game.hp_for_every_use and hp_for_deck(s, player, 1, ("material", player, host, kind, count)):
        return  # rule library_out=every_use: an HP card stands in for the deck's top card
    else:
        return  # D14.2: nothing to make it from
    s._then(("material", player, host, kind, count - 1))
    add_material(s, player, host, kind, card, secret=secret)


def add_material(s: DreadnoughtState, player: Player, host: int, kind: int, card: int, *, secret: bool) -> None:
    if kind == ENGRAVE:
        s.engraves[player].append(card)
        s.engrave_checked[player].append(False)
        if s.events is not None:
            s._log("engrave", player=player_name(player), card=s.cards[card].id)
        if len(s.engraves[player]) > MAX_ENGRAVES:
            s._then(("scrap", player))  # D16.3: at once, before the next engrave arrives
        return
    s.ench.setdefault(host, []).append(card)
    s.ench_kind.setdefault(host, []).append(kind)
    s.ench_owner.setdefault(host, []).append(player)
    s.ench_secret.setdefault(host, []).append(secret)
    if s.events is not None:
        s._log("boost" if kind == BOOST else "weaken", player=player_name(player), unit=s.describe(host))


def _f_block_step(s: DreadnoughtState) -> None:
    """D10.6: no legal blocker left after on_attack triggers ends the attack without damage."""
    if blockers(s):
        s._then(("block", 1 - s.attack_player))
    else:
        _end_attack(s)


def blockers(s: DreadnoughtState) -> list[int]:
    defender, area = 1 - s.attack_player, s.attack_area
    found = list(s.units[defender][area])
    caster = s.casters[defender][area]
    if s.hp[defender][area]:
        found.append(caster)
    return found


def _end_attack(s: DreadnoughtState) -> None:
    s.attackers.clear()
    s.attack_player = s.attack_area = s.blocker = EMPTY
    s.attack_mod = 0


def _f_attack_damage(s: DreadnoughtState) -> None:
    """D10.7 attack damage, D10.8 attack bonus. Rule blocker=rechosen: a blocker that left is chosen again."""
    attackers = [a for a in s.attackers if s.on_field(a)]
    blocker, area, defender = s.blocker, s.attack_area, 1 - s.attack_player
    left = blocker == EMPTY or not s.on_field(blocker) or s.area_of[blocker] != area
    if attackers and left and s._game.blocker_rechosen and blockers(s):
        s.blocker = EMPTY  # R-VD5: a new blocker, its on_block triggers and a new reaction window
        s._then(("block", defender))
        return
    if attackers and blocker != EMPTY and s.on_field(blocker) and s.area_of[blocker] == area:
        damage = max(0, sum(s.bp(a) for a in attackers) + s.attack_mod)
        dealt = max(0, damage - s.shields(blocker))
        if s.events is not None:
            s._log("attack_damage", player=player_name(s.attack_player), damage=dealt, blocker=s.describe(blocker),
                   absorbed=damage - dealt, bp=None if s.is_caster(blocker) else s.bp(blocker))  # fmt: skip
        if s.is_caster(blocker):
            s._lose_hp(blocker, dealt // s.cards[blocker].hp_value)
        elif dealt >= s.bp(blocker):
            s._break(blocker)
            if not s.units[defender][area]:
                s._lose_hp(s.casters[defender][area], 1)
    _end_attack(s)
    s._then(("settle",))


AUTO: dict[str, Callable[..., None]] = {
    "setup": _f_setup,
    "mull_done": _f_mull_done,
    "turn": _f_turn,
    "speed_phase": _f_speed_phase,
    "reveals": _f_reveals,
    "speed_windows": _f_speed_windows,
    "decide": _f_decide,
    "compare": _f_compare,
    "draw_phase": _f_draw_phase,
    "draw_bursts": _f_draw_bursts,
    "draw1": _f_draw1,
    "cast_phase": _f_cast_phase,
    "upkeep": _f_upkeep,
    "fast_phase": _f_fast_phase,
    "action_phase": _f_action_phase,
    "end_phase": _f_end_phase,
    "hand_limit": _f_hand_limit,
    "cleanup": _f_cleanup,
    "settle": _f_settle,
    "next_trigger": _f_next_trigger,
    "targets": _f_targets,
    "pay": _f_pay,
    "pay_log": _f_pay_log,
    "paid": _f_paid,
    "resolve": _f_resolve,
    "finish": _f_finish,
    "effect": _f_effect,
    "material": _f_material,
    "block_step": _f_block_step,
    "attack_damage": _f_attack_damage,
}

EFFECTS: dict[str, Callable[[DreadnoughtState, Play, Effect, int], None]] = {
    "damage": _e_damage,
    "enchant": _e_enchant,
    "bp_mod": _e_bp_mod,
    "attack_mod": _e_attack_mod,
    "draw": _e_draw,
    "burst": _e_burst,
    "engrave": _e_engrave,
    "normalize": _e_normalize,
    "check": _e_check,
    "break": _e_break,
    "bounce": _e_bounce,
    "move": _e_move,
    "hp_break": _e_hp_break,
    "hp_gain": _e_hp_gain,
    "shield": _e_shield,
    "speed_shift": _e_speed_shift,
    "cost_reduce": _e_cost_reduce,
    "attach": _e_attach,
}
