"""Dreadnought decision points (D22.8): for each decision frame, its legal actions and their effect.

A decision frame is `(kind, player, *data)`. `OPTIONS[kind]` lists the legal actions from the
state alone (so a re-dealt world recomputes them), `APPLY[kind]` performs one of them; the
frame has already been popped, so an action that keeps the window open pushes it back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from cardlab.core.actions import IndexedAction
from cardlab.core.game import player_name
from cardlab.games.dreadnought.actions import AREAS, SLOTS
from cardlab.games.dreadnought.cards import Ability, Selector
from cardlab.games.dreadnought.frames import (
    ACTION_TURN_CAP,
    BA1,
    BA2,
    DUMMY_SLOTS,
    EMPTY,
    IDOL_AREA,
    Play,
    add_material,
    blockers,
    hp_to_deck,
    start_trigger,
    take_hp,
    trigger_choices,
)

if TYPE_CHECKING:
    from cardlab.games.dreadnought.state import DreadnoughtState as State

Options = list[IndexedAction]


def _distinct(s: State, cards: list[int]) -> list[str]:
    return sorted({s.cards[inst].id for inst in cards})


def _sources(s: State, player: int) -> list[tuple[int, bool]]:
    """Usable cards with where they are: (card, in speed area), one per (card id, zone) (D5.7)."""
    seen: set[tuple[str, bool]] = set()
    found = []
    for inst in s.hand[player]:
        key = (s.cards[inst].id, False)
        if key not in seen:
            seen.add(key)
            found.append((inst, False))
    if s.first != EMPTY:
        for inst in s.speed[player]:
            key = (s.cards[inst].id, True)
            if key not in seen:
                seen.add(key)
                found.append((inst, True))
    return found


def _card_action(s: State, verb: str, inst: int, from_speed: bool) -> IndexedAction:
    acts = s.game.actions
    table = acts.speed_card if from_speed else acts.card
    return table[verb, s.cards[inst].id]


def _require_ok(s: State, player: int, require: str) -> bool:
    """D22.5."""
    if not require:
        return True
    if not s.attacking:
        return False
    return require == "attack" or (require == "own_attack") == (s.attack_player == player)


def _targets_exist(s: State, player: int, source: int, ref: str) -> bool:
    """D5.3a: every single-target selector has a legal object now."""
    for effect in s.game.effects[ref]:
        target = effect.args.get("target")
        if isinstance(target, Selector) and not target.is_group and not s.candidates(target, player, source):
            return False
    return True


def _activated(s: State, obj: int) -> list[tuple[str, Ability]]:
    """An object's activated abilities in USE order: its own, then (casters) its arms' grants (D2.9)."""
    game = s.game
    found = list(game.activated.get(s.cards[obj].id, ()))
    arms = s.arms.get(obj, EMPTY)
    if arms != EMPTY:
        found += game.activated.get(s.cards[arms].id, ())
    return found


def _zone_ok(s: State, obj: int, zone: str) -> bool:
    """D19.3: an ability works only where its zone tag says."""
    if s.is_caster(obj):
        return True
    area = s.area_of[obj]
    if zone == "field":
        return True
    return zone == ("idol" if area == IDOL_AREA else "battle")


def item_options(s: State, player: int, timing: str) -> Options:
    """Codes, arms, activated abilities and sub-effects usable now at `timing` (D5.4)."""
    acts = s.game.actions
    found: Options = []
    for inst, from_speed in _sources(s, player):
        card = s.cards[inst]
        extra = card.extra
        if card.type == "code" and timing in card.timing and _require_ok(s, player, card.require):
            if _targets_exist(s, player, EMPTY, f"C:{card.id}") and s.payable(
                player, card.cost, extra.discard, engrave=extra.engrave, code=True, played=inst
            ):
                found.append(_card_action(s, "PLAY", inst, from_speed))
        elif (
            card.type == "arms"
            and timing == "FAST"
            and any(c not in s.arms for c in s.casters[player])
            and s.payable(player, card.cost, extra.discard, engrave=extra.engrave, played=inst)
        ):
            found.append(_card_action(s, "PLAY", inst, from_speed))
        sub = card.sub
        if (
            sub is not None
            and timing in sub.timing
            and _require_ok(s, player, sub.require)
            and _targets_exist(s, player, EMPTY, f"S:{card.id}")
            and s.payable(player, sub.cost.log, sub.cost.discard, engrave=sub.cost.engrave, played=inst)
        ):
            found.append(_card_action(s, "SUB", inst, from_speed))
    objects = [(slot, s.object_at(player, slot)) for slot in range(len(SLOTS))]
    for slot, obj in objects:
        if obj == EMPTY or s.is_dummy(obj):
            continue
        for k, (ref, ability) in enumerate(_activated(s, obj)):
            if _ability_ok(s, player, obj, ref, ability, timing):
                found.append(acts.use[SLOTS[slot], k])
    for inst in s.speed[player]:
        card_id = s.cards[inst].id
        for k, (ref, ability) in enumerate(s.game.activated.get(card_id, ())):
            if ability.zone == "speed" and _ability_ok(s, player, inst, ref, ability, timing, in_speed=True):
                action = acts.use_speed[card_id, k]
                if action not in found:
                    found.append(action)
    return found


def _ability_ok(
    s: State, player: int, obj: int, ref: str, ability: Ability, timing: str, *, in_speed: bool = False
) -> bool:
    cost = ability.cost
    if timing not in ability.timing or not _require_ok(s, player, ability.require):
        return False
    if not in_speed and not _zone_ok(s, obj, ability.zone):
        return False
    if cost.check_self and s.checked[obj]:
        return False
    exclude = obj if cost.check_self else EMPTY
    if not s.payable(player, cost.log, cost.discard, exclude=exclude, engrave=cost.engrave):
        return False
    return _targets_exist(s, player, obj, ref)


def _apply_item(s: State, player: int, action: IndexedAction, timing: str) -> bool:
    """Announce the item named by `action` (D5.3): schedule its targets and payment. False if not an item."""
    game = s.game
    decoded = game.decode[action]
    verb = decoded.verb
    is_action = timing == "ACTION"
    if verb == "USE":
        obj = s.object_at(player, SLOTS.index(decoded.slot))
        ref, ability = _activated(s, obj)[decoded.index]
        play = Play("ability", player, source=obj, ref=ref, log=ability.cost.log, discard=ability.cost.discard,
                    action=is_action)  # fmt: skip
    elif verb == "USE@S":
        obj = s._hand_or_speed(player, decoded.card, True)
        ref, ability = game.activated[decoded.card][decoded.index]
        play = Play("ability", player, source=obj, ref=ref, log=ability.cost.log, discard=ability.cost.discard,
                    action=is_action)  # fmt: skip
    elif verb in ("PLAY", "SUB"):
        inst = s._hand_or_speed(player, decoded.card, decoded.from_speed)
        card = s.cards[inst]
        s._take(player, inst)
        s.limbo[player].append(inst)
        if s.events is not None:
            s._log("sub" if verb == "SUB" else "play", player=player_name(player), card=card.id)
        if verb == "SUB":
            sub = card.sub
            assert sub is not None
            play = Play("sub", player, card=inst, ref=f"S:{card.id}", log=sub.cost.log, discard=sub.cost.discard,
                        action=is_action)  # fmt: skip
        elif card.type == "arms":
            s._then(("target", player, Play("arms", player, card=inst, log=card.cost, discard=card.extra.discard)))
            return True
        else:
            play = Play("code", player, card=inst, ref=f"C:{card.id}", log=card.cost, discard=card.extra.discard,
                        action=is_action)  # fmt: skip
    else:
        return False
    if verb.startswith("USE") and s.events is not None:
        s._log("use", player=player_name(player), card=s.cards[play.source].id, ability=play.ref)
    s._then(("targets", play))
    return True


def _god_draw(s: State, player: int) -> None:
    """D17.1: a normal burst to hand; no one knows any burst, so the first normal one is taken (R-D3)."""
    flags = s.burst_checked[player]
    index = flags.index(False)
    card = s.bursts[player].pop(index)
    flags.pop(index)
    s.hand[player].append(card)
    if s.events is not None:
        s._log("god_draw", {"card": s.cards[card].id}, player, player=player_name(player))


def _can_god_draw(s: State, player: int) -> bool:
    return False in s.burst_checked[player]


# ---- set-up -----------------------------------------------------------------------------


def _o_place(s: State, player: int) -> Options:
    acts = s.game.actions
    return [acts.place[s.cards[c].id] for c in sorted(s.placed[player], key=lambda c: s.cards[c].id)]


def _a_place(s: State, action: IndexedAction, player: int) -> None:
    """D4.1: the chosen caster goes to BA1, the other to BA2."""
    chosen = s.game.decode[action].card
    s.placed[player].sort(key=lambda c: s.cards[c].id != chosen)


def _o_mull(s: State, player: int) -> Options:
    acts = s.game.actions
    return [*(acts.card["MULL", card_id] for card_id in _distinct(s, s.hand[player])), acts.fixed["KEEP"]]


def _a_mull(s: State, action: IndexedAction, player: int) -> None:
    """D4.6: set cards aside one at a time (secretly), then KEEP."""
    decoded = s.game.decode[action]
    if decoded.verb == "KEEP":
        return
    inst = s._hand_or_speed(player, decoded.card, False)
    s.hand[player].remove(inst)
    s.mull[player].append(inst)
    s._then(("mull", player))


# ---- sequential windows (speed, cast, fast) ---------------------------------------------


def _o_win(s: State, player: int, phase: str) -> Options:
    acts = s.game.actions
    found: Options = []
    if phase == "speed":
        if not s.geared[player]:
            found += [acts.card["GEAR", card_id] for card_id in _distinct(s, s.hand[player])]  # D6.3
        found += item_options(s, player, "SPEED")
    elif phase == "cast":
        found += _cast_options(s, player)
        found += item_options(s, player, "CAST")
    else:
        found += item_options(s, player, "FAST")
    if (phase == "cast" or s.game.god_draw_everywhere) and _can_god_draw(s, player):  # D17.2 (rule god_draw_windows)
        found.append(acts.fixed["GODDRAW"])
    found.append(acts.fixed["DONE"])
    return found


def _unit_destinations(s: State, player: int, inst: int) -> list[int]:
    card = s.cards[inst]
    found = [area for area in (BA1, BA2) if s.fits(player, area, card.weight)]
    if card.type == "idol" and s.idol[player] == EMPTY:
        found.append(IDOL_AREA)  # D19.1
    return found


def _move_destinations(s: State, player: int, obj: int) -> list[int]:
    """D8.2(3), D19.5: a unit to the other battle area; an idol between battle and idol area."""
    if obj in s.moved:
        return []
    area = s.area_of[obj]
    weight = s.weight(obj)
    if area == IDOL_AREA:
        return [a for a in (BA1, BA2) if s.fits(player, a, weight)]
    found = [1 - area] if s.fits(player, 1 - area, weight) else []
    if not s.is_dummy(obj) and s.cards[obj].type == "idol" and s.idol[player] == EMPTY:
        found.append(IDOL_AREA)
    return found


def _cast_options(s: State, player: int) -> Options:
    """D8.2: casts, dummies, moves and removals."""
    acts = s.game.actions
    found: Options = []
    dummy_areas = [area for area in (BA1, BA2) if s.fits(player, area, 1)]
    for inst, from_speed in _sources(s, player):
        card = s.cards[inst]
        if (
            card.type in ("unit", "idol")
            and _unit_destinations(s, player, inst)
            and s.payable(player, card.cost, card.extra.discard, engrave=card.extra.engrave, played=inst)
        ):
            found.append(_card_action(s, "CAST", inst, from_speed))
        found += [acts.dummy[card.id, from_speed, area] for area in dummy_areas]
    for slot in ("BA1.U1", "BA1.U2", "BA2.U1", "BA2.U2", "IDOL"):
        obj = s.object_at(player, SLOTS.index(slot))
        if obj == EMPTY:
            continue
        if _move_destinations(s, player, obj):
            found.append(acts.move[slot])
        found.append(acts.remove[slot])
    return found


def _a_win(s: State, action: IndexedAction, player: int, phase: str) -> None:
    resume = ("win", player, phase)
    decoded = s.game.decode[action]
    verb = decoded.verb
    if verb == "DONE":
        return
    s._then(resume)
    if verb == "GODDRAW":
        _god_draw(s, player)
    elif verb == "GEAR":
        inst = s._hand_or_speed(player, decoded.card, False)
        s._take(player, inst)
        s.gear[player].append(inst)
        s.geared[player] = True
        if s.events is not None:
            s._log("gear_change", {"card": decoded.card}, player, player=player_name(player))
    elif verb == "DUMMY":
        _cast_dummy(s, player, s._hand_or_speed(player, decoded.card, decoded.from_speed), decoded.area)
    elif verb == "CAST":
        inst = s._hand_or_speed(player, decoded.card, decoded.from_speed)
        s._take(player, inst)
        s.limbo[player].append(inst)
        card = s.cards[inst]
        s._then(("dest", player, Play(card.type, player, card=inst, log=card.cost, discard=card.extra.discard)))
    elif verb == "MOVE":
        s._then(("move_to", player, s.object_at(player, SLOTS.index(decoded.slot))))
    elif verb == "REMOVE":
        obj = s.object_at(player, SLOTS.index(decoded.slot))
        if s.events is not None:
            s._log("remove", player=player_name(player), unit=s.describe(obj))
        s._to_discard(s._leave_field(obj))  # D8.2(4): not a break
    else:
        _apply_item(s, player, action, phase.upper())


def _cast_dummy(s: State, player: int, inst: int, area: int) -> None:
    """D15.1: closed and checked, size S, BP 50; a card taken from the open speed area stays known (R-D11)."""
    known = inst in s.speed[player]
    s._take(player, inst)
    slot = s.dummy_cards[player].index(EMPTY)
    s.dummy_cards[player][slot] = inst
    s.dummy_known[player][slot] = known
    token = s.n_cards + DUMMY_SLOTS * player + slot
    s._place(token, player, area)
    s.checked[token] = True
    if s.events is not None:
        card = {"card": s.cards[inst].id}
        s._log("dummy", None if known else card, player, player=player_name(player), to=AREAS[area],
               **(card if known else {}))  # fmt: skip


def _o_dest(s: State, player: int, play: Play) -> Options:
    fixed = s.game.actions.fixed
    return [fixed[f"TO {('BA1', 'BA2', 'IDOL')[area]}"] for area in _unit_destinations(s, player, play.card)]


def _a_dest(s: State, action: IndexedAction, player: int, play: Play) -> None:
    s._then(("pay", play._replace(dest=s.game.decode[action].area)))


def _o_move_to(s: State, player: int, obj: int) -> Options:
    fixed = s.game.actions.fixed
    return [fixed[f"TO {('BA1', 'BA2', 'IDOL')[area]}"] for area in _move_destinations(s, player, obj)]


def _a_move_to(s: State, action: IndexedAction, player: int, obj: int) -> None:
    dest = s.game.decode[action].area
    if s.area_of[obj] == IDOL_AREA:
        s.idol[player] = EMPTY
    else:
        s.units[player][s.area_of[obj]].remove(obj)
    s._place(obj, player, dest)
    s.moved.append(obj)
    if s.events is not None:
        s._log("move", player=player_name(player), unit=s.describe(obj))


def _o_upkeep(s: State, player: int, idol: int) -> Options:
    fixed = s.game.actions.fixed
    found = [fixed["UPKEEP CHECK"]]
    if not s.checked[idol] and s.payable(player, s.cards[idol].upkeep, 0):
        found.insert(0, fixed["UPKEEP PAY"])
    return found


def _a_upkeep(s: State, action: IndexedAction, player: int, idol: int) -> None:
    """D19.4: pay the upkeep in log, or the idol is checked."""
    if s.game.decode[action].verb == "UPKEEP PAY":
        s._then(("pay", Play("upkeep", player, source=idol, log=s.cards[idol].upkeep)))
    else:
        s.checked[idol] = True


# ---- targets and payment (D5.3, D12) ----------------------------------------------------


def _target_candidates(s: State, player: int, play: Play) -> list[int]:
    if play.kind == "arms":
        return [c for c in s.casters[player] if c not in s.arms]  # D2.8: one arms per caster
    selectors = []
    for effect in s.game.effects[play.ref]:
        target = effect.args.get("target")
        if isinstance(target, Selector) and not target.is_group:
            selectors.append(target)
    return s.candidates(selectors[len(play.targets)], player, play.source)


def _o_target(s: State, player: int, play: Play) -> Options:
    table = s.game.actions.target
    return [table[s.owner[obj]][s.slot_of(obj)] for obj in _target_candidates(s, player, play)]


def _a_target(s: State, action: IndexedAction, player: int, play: Play) -> None:
    decoded = s.game.decode[action]
    obj = s.object_at(decoded.seat, SLOTS.index(decoded.slot))
    play = play._replace(targets=(*play.targets, obj))
    s._then(("pay", play) if play.kind == "arms" else ("targets", play))


def _o_pay_discard(s: State, player: int, play: Play) -> Options:
    """D12.3 discard costs, never discarding a card the rest of the payment needs."""
    found = []
    for inst, from_speed in _sources(s, player):
        if s.payable(player, play.log, play.discard - 1, code=play.kind == "code", played=play.card, spent=(inst,)):
            found.append(_card_action(s, "DISCARD", inst, from_speed))
    return found


def _a_pay_discard(s: State, action: IndexedAction, player: int, play: Play) -> None:
    decoded = s.game.decode[action]
    inst = s._hand_or_speed(player, decoded.card, decoded.from_speed)
    s._take(player, inst)
    s._to_discard(inst)
    play = play._replace(discard=play.discard - 1)
    s._then(("pay_discard", player, play) if play.discard else ("pay_log", play))


def _o_pay_src(s: State, player: int, play: Play) -> Options:
    """D12.1 log sources by kind; D18.3 PAYMENT sub-effects while paying for a code."""
    fixed = s.game.actions.fixed
    found = []
    if False in s.burst_checked[player]:
        found.append(fixed["PAY BURST"])
    if False in s.engrave_checked[player]:
        found.append(fixed["PAY ENGRAVE"])
    for area in (BA1, BA2):
        if not s.checked[s.casters[player][area]]:
            found.append(fixed[f"PAY {AREAS[area]}"])
    idol = s.idol[player]
    if idol != EMPTY and not s.checked[idol]:
        found.append(fixed["PAY IDOL"])
    if play.kind == "code":
        for inst, from_speed in _sources(s, player):
            sub = s.cards[inst].sub
            if sub is not None and "PAYMENT" in sub.timing:
                reduction = sum(e.number("n") for e in sub.effects if e.name == "cost_reduce")
                rest = max(0, play.log - reduction) + sub.cost.log  # what the sources must still cover
                if s.payable(player, rest, sub.cost.discard, engrave=sub.cost.engrave, code=True, played=play.card,
                             spent=(inst,)):  # fmt: skip
                    found.append(_card_action(s, "SUB", inst, from_speed))
    return found


def _a_pay_src(s: State, action: IndexedAction, player: int, play: Play) -> None:
    decoded = s.game.decode[action]
    if decoded.verb == "SUB":
        s._then(("pay_log", play))
        _apply_item(s, player, action, "PAYMENT")
        return
    source = decoded.source
    if source == "BURST":
        flags = s.burst_checked[player]
        flags[flags.index(False)] = True
    elif source == "ENGRAVE":
        s._check_engraves(player, 1)
    elif source == "IDOL":
        s.checked[s.idol[player]] = True
    else:
        s.checked[s.casters[player][AREAS.index(source)]] = True
    s._then(("pay_log", play._replace(log=play.log - 1)))


# ---- action phase (D10) -----------------------------------------------------------------


def _attack_areas(s: State, player: int) -> list[int]:
    """D10.5(2): enemy battle areas with a unit or a caster with HP."""
    enemy = 1 - player
    return [area for area in (BA1, BA2) if s.units[enemy][area] or s.hp[enemy][area]]


def _attack_candidates(s: State, player: int) -> list[int]:
    """D10.5(1): own normal units in own battle areas."""
    return [u for area in (BA1, BA2) for u in s.units[player][area] if not s.checked[u]]


def _o_aturn(s: State, player: int, passes: int, count: int) -> Options:
    acts = s.game.actions
    found: Options = []
    if _can_god_draw(s, player):
        found.append(acts.fixed["GODDRAW"])
    if _attack_areas(s, player):
        found += [acts.attacker[SLOTS[s.slot_of(u)]] for u in _attack_candidates(s, player)]
    found += item_options(s, player, "ACTION")
    found.append(acts.fixed["PASS"])
    return found


def _a_aturn(s: State, action: IndexedAction, player: int, passes: int, count: int) -> None:
    """D10.2-D10.3: god draws keep the turn; pass twice in a row ends the phase; 200 turns cap it."""
    decoded = s.game.decode[action]
    verb = decoded.verb
    if verb == "GODDRAW":
        _god_draw(s, player)
        s._then(("aturn", player, passes, count))
        return
    if s.events is not None and verb == "PASS":
        s._log("pass", player=player_name(player))
    if verb == "PASS" and passes:
        return
    if count + 1 < ACTION_TURN_CAP:
        s._then(("aturn", 1 - player, 1 if verb == "PASS" else 0, count + 1))
    if verb == "ATTACKER":
        s._then(("abuild", player, (s.object_at(player, SLOTS.index(decoded.slot)),)))
    elif verb != "PASS":
        _apply_item(s, player, action, "ACTION")


def _o_abuild(s: State, player: int, attackers: tuple[int, ...]) -> Options:
    acts = s.game.actions
    found = [acts.attacker[SLOTS[s.slot_of(u)]] for u in _attack_candidates(s, player) if u not in attackers]
    return found + [acts.fixed[f"ATTACK {AREAS[area]}"] for area in _attack_areas(s, player)]


def _a_abuild(s: State, action: IndexedAction, player: int, attackers: tuple[int, ...]) -> None:
    """D10.5: one attack by every chosen unit; checking them is its cost; on_attack triggers resolve."""
    decoded = s.game.decode[action]
    if decoded.verb == "ATTACKER":
        s._then(("abuild", player, (*attackers, s.object_at(player, SLOTS.index(decoded.slot)))))
        return
    area = decoded.area
    s.attackers[:] = attackers
    s.attack_player, s.attack_area, s.blocker, s.attack_mod = player, area, EMPTY, 0
    for unit in attackers:
        s.checked[unit] = True
    if s.events is not None:
        s._log("attack", player=player_name(player), attackers=[s.describe(u) for u in attackers], area=AREAS[area])
    s._queue_event("on_attack", list(attackers))
    s._then(("settle",), ("block_step",))


def _o_block(s: State, player: int) -> Options:
    acts = s.game.actions
    found = [acts.fixed["GODDRAW"]] if _can_god_draw(s, player) else []
    return found + [acts.block[SLOTS[s.slot_of(obj)]] for obj in blockers(s)]


def _a_block(s: State, action: IndexedAction, player: int) -> None:
    """D10.6: the blocker is fixed; on_block triggers, then the defender's reaction right."""
    decoded = s.game.decode[action]
    if decoded.verb == "GODDRAW":
        _god_draw(s, player)
        s._then(("block", player))
        return
    s.blocker = s.object_at(player, SLOTS.index(decoded.slot))
    if s.events is not None:
        s._log("block", player=player_name(player), blocker=s.describe(s.blocker))
    s._queue_event("on_block", [s.blocker])
    first = 1 - player if s.game.actor_reacts_first else player  # D10.4 (rule reaction_first)
    s._then(("settle",), ("react", first, 0), ("attack_damage",))


def _o_react(s: State, player: int, passes: int) -> Options:
    acts = s.game.actions
    found = [acts.fixed["GODDRAW"]] if _can_god_draw(s, player) else []
    return found + item_options(s, player, "REACTION") + [acts.fixed["PASS"]]


def _a_react(s: State, action: IndexedAction, player: int, passes: int) -> None:
    """D10.4: reactions resolve at once; the right alternates; two passes in a row close the window."""
    verb = s.game.decode[action].verb
    if verb == "GODDRAW":
        _god_draw(s, player)
        s._then(("react", player, passes))
    elif verb == "PASS":
        if not passes:
            s._then(("react", 1 - player, 1))
    else:
        s._then(("react", 1 - player, 0))
        _apply_item(s, player, action, "REACTION")


# ---- choices inside resolution and the end phase ----------------------------------------


def _o_pick(s: State, player: int, host: int, kind: int) -> Options:
    acts = s.game.actions
    return [acts.card["MATERIAL", card_id] for card_id in _distinct(s, s.discard[player])]


def _a_pick(s: State, action: IndexedAction, player: int, host: int, kind: int) -> None:
    """D14.2, D16.1: the material card is the player's choice from their discard."""
    card_id = s.game.decode[action].card
    discard = s.discard[player]
    inst = next(i for i in reversed(discard) if s.cards[i].id == card_id)
    discard.remove(inst)
    add_material(s, player, host, kind, inst, secret=False)


def _scrap_choices(s: State, player: int) -> list[int]:
    seen: set[tuple[str, bool]] = set()
    found = []
    for i, (card, checked) in enumerate(zip(s.engraves[player], s.engrave_checked[player], strict=True)):
        key = (s.cards[card].id, checked)
        if key not in seen:
            seen.add(key)
            found.append(i)
    return found


def _o_scrap(s: State, player: int) -> Options:
    return [s.game.actions.scrap[i] for i in _scrap_choices(s, player)]


def _a_scrap(s: State, action: IndexedAction, player: int) -> None:
    """D16.3: one engrave of the owner's choice to the discard (settle asks again while over 3)."""
    index = s.game.decode[action].index
    card = s.engraves[player].pop(index)
    s.engrave_checked[player].pop(index)
    s._to_discard(card)


def _o_order(s: State, player: int) -> Options:
    return [s.game.actions.first[j] for j in range(len(trigger_choices(s, player)))]


def _a_order(s: State, action: IndexedAction, player: int) -> None:
    """D5.5: the controller picks which of their simultaneous triggers resolves next."""
    start_trigger(s, trigger_choices(s, player)[s.game.decode[action].index])


def _o_hpdraw(s: State, player: int) -> Options:
    fixed = s.game.actions.fixed
    return [fixed[f"HPDRAW {AREAS[area]}"] for area in (BA1, BA2) if s.hp[player][area]]


def _a_hpdraw(s: State, action: IndexedAction, player: int) -> None:
    """D20.1: the player picks which caster's HP card replaces the draw."""
    take_hp(s, player, s.game.decode[action].area)


def _a_hpdeck(s: State, action: IndexedAction, player: int) -> None:
    """Rule library_out=every_use (D20.2): the player picks which caster's HP card stands in for the deck card."""
    hp_to_deck(s, player, s.game.decode[action].area)


def _o_limit(s: State, player: int) -> Options:
    acts = s.game.actions
    return [acts.card["DISCARD", card_id] for card_id in _distinct(s, s.hand[player])]


def _a_limit(s: State, action: IndexedAction, player: int) -> None:
    """D11.2: discard down to 7, one card at a time."""
    inst = s._hand_or_speed(player, s.game.decode[action].card, False)
    s._take(player, inst)
    s._to_discard(inst)
    if s.events is not None:
        s._log("discard", player=player_name(player), card=s.cards[inst].id)


OPTIONS: dict[str, Callable[..., Options]] = {
    "place": _o_place,
    "mull": _o_mull,
    "win": _o_win,
    "dest": _o_dest,
    "move_to": _o_move_to,
    "upkeep_idol": _o_upkeep,
    "target": _o_target,
    "pay_discard": _o_pay_discard,
    "pay_src": _o_pay_src,
    "aturn": _o_aturn,
    "abuild": _o_abuild,
    "block": _o_block,
    "react": _o_react,
    "pick": _o_pick,
    "scrap": _o_scrap,
    "order": _o_order,
    "hpdraw": _o_hpdraw,
    "hpdeck": _o_hpdraw,
    "limit": _o_limit,
}

APPLY: dict[str, Callable[..., None]] = {
    "place": _a_place,
    "mull": _a_mull,
    "win": _a_win,
    "dest": _a_dest,
    "move_to": _a_move_to,
    "upkeep_idol": _a_upkeep,
    "target": _a_target,
    "pay_discard": _a_pay_discard,
    "pay_src": _a_pay_src,
    "aturn": _a_aturn,
    "abuild": _a_abuild,
    "block": _a_block,
    "react": _a_react,
    "pick": _a_pick,
    "scrap": _a_scrap,
    "order": _a_order,
    "hpdraw": _a_hpdraw,
    "hpdeck": _a_hpdeck,
    "limit": _a_limit,
}
