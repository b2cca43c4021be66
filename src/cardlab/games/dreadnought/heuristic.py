"""A documented rule-of-thumb player for Dreadnought (see docs/agents.md).

`choose(state, rng)` reads only what the player to move may know — the field (units, BP,
shields, HP counts, checked/normal), open speed cards, its own hand and speed area, burst and
engrave counts — so it is safe on a canonical or sampled world. The decision itself (its window and
data, the attack, a pending `ACTION` item, hands, HP, bursts, engraves, speeds) comes from the
player's observation, in its lean form (`dump_observation(lean=True)`: a search calls the heuristic at
every rollout step); the field's objects are still read through the state's public methods (BP and
shields with statics, legal targets, payability). It is deterministic
(`rng` is unused) and searches nothing: every window is a few static estimates.

Values are in "HP units": an HP card is worth `HP_VALUE`; a unit on the field `1 + BP/60`
(a dummy 0.5); breaking the last unit in front of a caster with HP adds `EXPOSE`. A card
played from hand costs `CARD_COST`, one log `LOG_COST`, an engrave `ENGRAVE_COST`.

Combat is judged by the same small calculator everywhere. An attack of total damage D on a
battle area is answered by the defender's cheapest block: a unit survives when D minus its
shields is below its BP (nothing lost), else it breaks (and the caster loses an HP card when
no unit is left there, D10.8); the caster loses floor(D / hp_value) HP cards (D10.7). A
reaction or an `ACTION` item is valued by applying its effects to a `_Scenario` (BP and shield
changes, objects gone, extra attack damage) and comparing what the pending attack or item
then does; in the cast, fast and action windows it also counts the change in both players'
best attack plans.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardlab.core.actions import IndexedAction
from cardlab.core.game import PLAYER_NAMES, State
from cardlab.games.dreadnought.actions import AREAS, SLOTS, Decoded
from cardlab.games.dreadnought.cards import Ability, CardDef, Effect, Selector
from cardlab.games.dreadnought.position import dump_observation
from cardlab.games.dreadnought.state import BA1, BA2, EMPTY, IDOL_AREA, DreadnoughtState

HP_VALUE = 4.0
"""One HP card; both casters at 0 HP lose the game (D21.1)."""
WIN_BONUS = 100.0
"""Added when a loss would take the last HP card of both casters."""
EXPOSE = 1.0
"""Breaking (or removing) the last unit in front of a caster with HP opens it to attacks."""
DUMMY_VALUE = 0.5
"""A dummy on the field: a blocker for this turn only (D15.3)."""
CARD_COST = 0.6
"""A card spent from hand (played, discarded, cast as a dummy)."""
SPEED_CARD_COST = 0.1
"""A speed-area card is discarded in the end phase anyway (D11.3)."""
LOG_COST = 0.25
"""Log refreshes every end phase (D11.4), so spending it is cheap; it is still gone for this turn."""
ENGRAVE_COST = 0.6
"""A checked engrave is discarded (D11.3, D16.4)."""
CHECK_COST = 0.3
"""Checking an object for its ability (`check_self`): a caster or idol then pays no log this turn."""
PLAN_WEIGHT = 0.5
"""How much a change in the attack plans (own minus opponent's) counts outside combat."""
GUARD_DISCOUNT = 0.6
"""A spell's break counts this much less when a visible enemy shield ability could save the unit."""
PLAY_THRESHOLD = 0.1
"""An item is used when its estimated gain exceeds its price by more than this."""
ATTACK_THRESHOLD = 0.3
"""The least attack-plan score worth an attack."""
PUMP_RISK = 40
"""Damage an opponent may add or shield in reaction; blocks and attacks keep some margin for it."""
BURST_KEEP = 4
"""God draw (D17) only bursts beyond this many: bursts are the log income of every later turn."""
HAND_CAP = 8
"""God draw only while the hand holds fewer cards than this (the hand limit is 7 at the end phase, D11.2)."""
MAX_MULLIGAN = 3
"""Set aside at most this many cards in the mulligan (D4.6)."""
WANT_FIRST = True
"""Try to be the first player F (D6.5) with free means: a gear change, Overclock, a speed ability."""

_BENEFICIAL = frozenset({"shield", "normalize", "attach", "hp_gain"})


@dataclass
class _Scenario:
    """Hypothetical changes to the field, applied on top of the real state."""

    bp: dict[int, int] = field(default_factory=dict)
    shield: dict[int, int] = field(default_factory=dict)
    gone: dict[int, str] = field(default_factory=dict)  # object -> "break" / "bounce" / "move"
    atk: int = 0
    misc: float = 0.0

    def copy(self) -> _Scenario:
        return _Scenario(dict(self.bp), dict(self.shield), dict(self.gone), self.atk, self.misc)


@dataclass(frozen=True)
class _Play:
    """A play read from the observation (`decision.play`, `pending_action`), its places as field objects
    (EMPTY: none, or a card that is not on the field)."""

    kind: str
    player: int
    source: int
    ref: str
    targets: tuple[int, ...]


@dataclass
class _Item:
    """A code, sub-effect, activated ability or arms the player could use now, and its price."""

    effects: tuple[Effect, ...]
    source: int
    cost: float
    card: CardDef | None = None
    grants: tuple[Ability, ...] = ()


@dataclass(frozen=True, slots=True)
class _Defence:
    """An area's blockers as the attack calculator needs them (D10.6-D10.8): the defender blocks with
    whatever loses least, so nothing is lost while some unit survives the damage (`breaks_all` is the
    damage that breaks every unit there); beyond it the cheapest unit (`lost_unit`) or the caster, which
    loses (damage - shields) // hp_value of its `hp` cards (`hp` 0: no caster to block with)."""

    has_units: bool
    breaks_all: int
    lost_unit: float
    caster_shields: int
    hp_value: int
    hp: int
    total_hp: int

    def loss(self, damage: int) -> float:
        """The loss of the defender's cheapest block of `damage`."""
        if self.has_units and damage < self.breaks_all:
            return 0.0
        loss = self.lost_unit
        if self.hp:
            lost = min(max(0, damage - self.caster_shields) // self.hp_value, self.hp)
            loss = min(loss, HP_VALUE * lost + (WIN_BONUS if lost and lost >= self.total_hp else 0.0))
        return loss if loss < math.inf else 0.0

    def plan_score(self, damage: int, count: int) -> float:
        """An attack of `count` units dealing `damage` here: mostly its loss, some of it kept against a
        shield or pump in reaction (`PUMP_RISK`), and as few units as will do."""
        loss = self.loss(damage)
        if loss <= 0:
            return 0.0
        return 0.7 * loss + 0.3 * self.loss(damage - PUMP_RISK) - 0.05 * count


def unit_value(s: DreadnoughtState, obj: int) -> float:
    """What a unit on the field is worth to its owner: 1 + BP/60, an idol 0.5 more, a dummy `DUMMY_VALUE`."""
    if s.is_dummy(obj):
        return DUMMY_VALUE
    return 1.0 + s.cards[obj].bp / 60 + (0.5 if s.area_of[obj] == IDOL_AREA else 0.0)


class _View:
    """One decision's read of the player's observation and of the field, with BP and shields cached
    (statics are costly to sum)."""

    def __init__(self, s: DreadnoughtState, obs: Mapping[str, Any]) -> None:
        self.s = s
        self.obs = obs
        self.decision: Mapping[str, Any] = obs["decision"]
        self.me = PLAYER_NAMES.index(obs["to_move"])
        self.game = s.game
        self.seats: tuple[Mapping[str, Any], Mapping[str, Any]] = (obs["players"]["P1"], obs["players"]["P2"])
        self.mine = self.seats[self.me]
        self.attack: Mapping[str, Any] | None = obs["attack"]
        self._hp = [[seat[area]["hp"] for area in AREAS] for seat in self.seats]
        pending = obs["pending_action"]
        self.pending_play = None if pending is None else self.play(pending)
        self.waiting: tuple[_Play, ...] = ()
        if s.game.reaction_stack:  # rule reactions=stack (R-VD4): reactions on the public stack, next to resolve first
            self.waiting = tuple(_Play(f[1].kind, f[1].player, f[1].source, f[1].ref, f[1].targets)
                                 for f in reversed(s.stack) if f[0] == "resolve" and not f[1].action)  # fmt: skip
        self._bp: dict[int, int] = {}
        self._sh: dict[int, int] = {}
        self._plans: dict[Any, float] = {}
        self._guard: int | None = None

    # -- reading the observation ------------------------------------------------------------

    def obj(self, place: str | None) -> int:
        """The field object at an observation's place (`P2:BA1.U1`); EMPTY for null or a card in a zone."""
        if place is None:
            return EMPTY
        seat, _, slot = place.partition(":")
        if slot not in SLOTS:
            return EMPTY
        return self.s.object_at(PLAYER_NAMES.index(seat), SLOTS.index(slot))

    def seen(self, place: str) -> Mapping[str, Any]:
        """The observation's entry for the field object at `place` (`P1:BA2.U1`, `P1:IDOL`)."""
        seat, _, slot = place.partition(":")
        player = self.obs["players"][seat]
        if slot == "IDOL":
            found: Mapping[str, Any] = player["idol"]
            return found
        area, _, spot = slot.partition(".")
        if spot == "C":
            found = player[area]["caster"]
            return found
        found = player[area]["units"][int(spot[1:]) - 1]
        return found

    def card_at(self, place: str) -> CardDef:
        """The card at a zone place (`P1:limbo:0`) or of the field object there."""
        seat, _, rest = place.partition(":")
        zone, _, index = rest.partition(":")
        card_id = self.obs["players"][seat][zone][int(index)] if index else self.seen(place)["card"]
        return self.game.card_set[card_id]

    def weight_at(self, place: str) -> int:
        """D8.3: a field object's weight (a dummy is size S)."""
        entry = self.seen(place)
        return 1 if entry.get("dummy") else self.game.card_set[entry["card"]].weight

    def play(self, data: Mapping[str, Any]) -> _Play:
        return _Play(data["kind"], PLAYER_NAMES.index(data["player"]), self.obj(data["source"]), data["ref"],
                     tuple(self.obj(t) for t in data["targets"]))  # fmt: skip

    def attacking(self) -> bool:
        return self.attack is not None

    def attackers(self) -> list[int]:
        """The pending attack's attackers (all on the field: an attacker that leaves it is dropped, D10.7)."""
        return [] if self.attack is None else [self.obj(place) for place in self.attack["attackers"]]

    # -- reading the field ------------------------------------------------------------------

    def bp(self, obj: int, sc: _Scenario | None = None) -> int:
        value = self._bp.get(obj)
        if value is None:
            value = self._bp[obj] = self.s.bp(obj)
        return value + (sc.bp.get(obj, 0) if sc is not None else 0)

    def shields(self, obj: int, sc: _Scenario | None = None) -> int:
        value = self._sh.get(obj)
        if value is None:
            value = self._sh[obj] = self.s.shields(obj)
        return value + (sc.shield.get(obj, 0) if sc is not None else 0)

    def uval(self, obj: int) -> float:
        """What a unit on the field is worth to its owner."""
        return unit_value(self.s, obj)

    def hp(self, player: int, area: int) -> int:
        hp: int = self._hp[player][area]
        return hp

    def total_hp(self, player: int) -> int:
        return self.hp(player, BA1) + self.hp(player, BA2)

    def sign(self, player: int) -> float:
        return 1.0 if player == self.me else -1.0

    def area_units(self, player: int, area: int, sc: _Scenario | None = None) -> list[int]:
        units = self.s.units[player][area]
        if sc is None or not sc.gone:
            return list(units)
        return [u for u in units if u not in sc.gone]

    def log_sources(self, player: int) -> int:
        return self.s.log_sources(player)

    def normal_bursts(self, player: int) -> int:
        return sum(1 for burst in self.seats[player]["bursts"] if not burst["checked"])

    def excess_bursts(self) -> int:
        """Normal bursts beyond the income to keep (BURST_KEEP)."""
        return min(self.normal_bursts(self.me), len(self.mine["bursts"]) - BURST_KEEP)

    def hand_size(self, player: int) -> int:
        hand = self.seats[player]["hand"]
        return len(hand) if isinstance(hand, list) else int(hand)

    def has_card(self, card_id: str, from_speed: bool) -> bool:
        """Whether my hand (or speed area) holds the card."""
        return card_id in self.mine["speed" if from_speed else "hand"]

    def decode(self, action: IndexedAction) -> Decoded:
        return self.game.decode[action]

    # -- combat -----------------------------------------------------------------------------

    def block_loss(self, blocker: int, damage: int, sc: _Scenario) -> float:
        """The defender's loss when `blocker` takes `damage` (D10.7, D10.8)."""
        s = self.s
        owner = s.owner[blocker]
        dealt = max(0, damage - self.shields(blocker, sc))
        if s.is_caster(blocker):
            hp = self.hp(owner, s.area_of[blocker])
            lost = min(dealt // s.cards[blocker].hp_value, hp)
            loss = HP_VALUE * lost
            if lost and lost >= self.total_hp(owner):
                loss += WIN_BONUS
            return loss
        if dealt < self.bp(blocker, sc):
            return 0.0
        area = s.area_of[blocker]
        loss = self.uval(blocker)
        others = [u for u in self.area_units(owner, area, sc) if u != blocker]
        if not others and self.hp(owner, area):
            loss += HP_VALUE
            if self.total_hp(owner) == 1:
                loss += WIN_BONUS
        return loss

    def defence(self, defender: int, area: int, sc: _Scenario) -> _Defence:
        """How `defender` can block an attack on `area` (D10.6): its units there and its caster."""
        units = self.area_units(defender, area, sc)
        hp = self.hp(defender, area)
        total_hp = self.total_hp(defender)
        lost_unit = math.inf  # the cheapest unit to lose, once the damage breaks every blocker
        for unit in units:
            loss = self.uval(unit)
            if len(units) == 1 and hp:
                loss += HP_VALUE + (WIN_BONUS if total_hp == 1 else 0.0)
            lost_unit = min(lost_unit, loss)
        breaks_all = max((self.bp(unit, sc) + self.shields(unit, sc) for unit in units), default=0)
        caster = self.s.casters[defender][area]
        if not hp:
            return _Defence(bool(units), breaks_all, lost_unit, 0, 1, 0, total_hp)
        return _Defence(bool(units), breaks_all, lost_unit, self.shields(caster, sc), self.s.cards[caster].hp_value,
                        hp, total_hp)  # fmt: skip

    def _plan_inputs(self, player: int, sc: _Scenario) -> tuple[list[int], list[int], list[tuple[int, _Defence]]]:
        s = self.s
        enemy = 1 - player
        units = [u for area in (BA1, BA2) for u in s.units[player][area] if not s.checked[u] and u not in sc.gone]
        areas = [a for a in (BA1, BA2) if self.area_units(enemy, a, sc) or self.hp(enemy, a)]
        if not units or not areas:
            return [], [], []
        return units, [self.bp(u, sc) for u in units], [(area, self.defence(enemy, area, sc)) for area in areas]

    def attack_plans(
        self, player: int, sc: _Scenario, required: Sequence[int] = ()
    ) -> list[tuple[float, tuple[int, ...], int]]:
        """(score, attackers, area) of every attack `player` could declare now (D10.5)."""
        units, bps, defences = self._plan_inputs(player, sc)
        need = 0
        for u in required:
            if u in units:
                need |= 1 << units.index(u)
        plans = []
        for mask in range(1, 1 << len(units)):
            if mask & need != need:
                continue
            chosen = tuple(u for i, u in enumerate(units) if mask >> i & 1)
            damage = max(0, sum(b for i, b in enumerate(bps) if mask >> i & 1))
            for area, defence in defences:
                plans.append((defence.plan_score(damage, len(chosen)), chosen, area))
        return plans

    def best_plan(self, player: int, sc: _Scenario) -> float:
        """The score of `player`'s best attack now (0 when none is worth anything)."""
        units, bps, defences = self._plan_inputs(player, sc)
        sums = [0] * (1 << len(units))
        counts = [0] * (1 << len(units))
        fewest: dict[int, int] = {}  # damage -> the fewest attackers dealing it: of equal damage, the best plan
        for mask in range(1, 1 << len(units)):
            low = mask & -mask
            damage = sums[mask] = sums[mask ^ low] + bps[low.bit_length() - 1]
            count = counts[mask] = counts[mask ^ low] + 1
            if count < fewest.get(damage, count + 1):
                fewest[damage] = count
        best = 0.0
        for _, defence in defences:
            floor = defence.breaks_all if defence.has_units else -math.inf  # below it every block survives
            for damage, count in fewest.items():
                if damage >= floor:
                    score = defence.plan_score(damage, count)
                    if score > best:
                        best = score
        return best

    # -- scenario values ------------------------------------------------------------------------

    def loss_value(self, obj: int, reason: str, sc: _Scenario) -> float:
        """The owner's loss when `obj` leaves (or, for "move", leaves its area)."""
        s = self.s
        owner = s.owner[obj]
        if reason == "break":
            value = self.uval(obj)
        elif reason == "bounce":
            value = 0.0 if s.is_dummy(obj) else self.uval(obj) - CARD_COST - 0.2
        else:
            value = 0.0
        area = s.area_of[obj]
        if area in (BA1, BA2) and self.hp(owner, area) and not self.area_units(owner, area, sc):
            value += EXPOSE
        return value

    def attack_term(self, sc: _Scenario) -> float:
        """The pending attack's result for me (D10.7): plus when I attack, minus when I defend."""
        attack = self.attack
        if attack is None or attack["blocker"] is None:  # no blocker yet, or it has left the field
            return 0.0
        blocker = self.obj(attack["blocker"])
        if blocker in sc.gone:
            return 0.0
        alive = [a for a in self.attackers() if a not in sc.gone]
        if not alive:
            return 0.0
        damage = max(0, sum(self.bp(a, sc) for a in alive) + attack["mod"] + sc.atk)
        loss = self.block_loss(blocker, damage, sc)
        return loss if attack["player"] == PLAYER_NAMES[self.me] else -loss

    def pending(self) -> _Play | None:
        """An `ACTION` item waiting for its reaction window to close (D10.4; the observation's `pending_action`)."""
        return self.pending_play

    def value(self, sc: _Scenario, plans: bool) -> float:
        """My value of the scenario once the waiting reactions (rule reactions=stack) and the pending item (if any)
        resolve."""
        for waiting in self.waiting:
            sc = self.apply_play(sc, waiting)
        play = self.pending()
        if play is not None:
            sc = self.apply_play(sc, play)
        v = sc.misc + self.attack_term(sc)
        s = self.s
        for obj, reason in sc.gone.items():
            v -= self.sign(s.owner[obj]) * self.loss_value(obj, reason, sc)
        if plans:
            key = (tuple(sorted(sc.bp.items())), tuple(sorted(sc.gone)))
            delta = self._plans.get(key)
            if delta is None:
                delta = self._plans[key] = self.best_plan(self.me, sc) - self.best_plan(1 - self.me, sc)
            v += PLAN_WEIGHT * delta
        return v

    def apply_play(self, sc: _Scenario, play: _Play) -> _Scenario:
        """A pending play's effects on its chosen targets."""
        sc = sc.copy()
        j = 0
        for effect in self.game.effects.get(play.ref, ()):
            target = effect.args.get("target")
            if isinstance(target, Selector) and not target.is_group:
                obj = play.targets[j] if j < len(play.targets) else EMPTY
                j += 1
                if obj != EMPTY and obj not in sc.gone and (self.s.on_field(obj) or self.s.is_caster(obj)):
                    self.apply(sc, effect, obj, play.player)
            elif isinstance(target, Selector):
                for obj in self.s.candidates(target, play.player, play.source):
                    if obj not in sc.gone:
                        self.apply(sc, effect, obj, play.player)
            else:
                self.apply(sc, effect, EMPTY, play.player)
        return sc

    def apply(self, sc: _Scenario, effect: Effect, obj: int, controller: int) -> None:
        """One effect (D22.2) on the scenario, in place."""
        s = self.s
        args = effect.args
        name = effect.name
        sign = self.sign(controller)
        if name == "damage":
            dealt = effect.number("amount") - self.shields(obj, sc)
            if dealt >= self.bp(obj, sc):
                sc.gone[obj] = "break"
                if controller == self.me and s.owner[obj] != self.me and dealt - self.guard() < self.bp(obj, sc):
                    sc.misc -= GUARD_DISCOUNT * self.loss_value(obj, "break", sc)  # a visible shield may save it
        elif name == "break":
            sc.gone[obj] = "break"
        elif name in ("enchant", "bp_mod"):
            if name == "enchant":
                delta = 20 * effect.number("count") * (1 if args["kind"] == "boost" else -1)
            else:
                delta = effect.number("amount")
            sc.bp[obj] = sc.bp.get(obj, 0) + delta
            if self.bp(obj, sc) <= 0:
                sc.gone[obj] = "break"
        elif name == "shield":
            sc.shield[obj] = sc.shield.get(obj, 0) + effect.number("amount")
        elif name == "attach":
            for static in effect.statics:
                if static.name == "static_shield":
                    sc.shield[obj] = sc.shield.get(obj, 0) + static.number("amount")
                else:
                    sc.bp[obj] = sc.bp.get(obj, 0) + static.number("amount")
        elif name == "attack_mod":
            if self.attacking():
                sc.atk += effect.number("amount")
        elif name == "draw":
            sc.misc += sign * 0.9 * effect.number("n")
        elif name == "burst":
            sc.misc += sign * 0.4 * min(effect.number("n"), self.deck_size(controller))
        elif name == "engrave":
            room = max(0, 3 - len(self.seats[controller]["engraves"]))
            sc.misc += sign * 0.5 * min(effect.number("n"), room + 1)
        elif name == "normalize":
            if s.checked[obj] and not s.is_dummy(obj) and obj not in sc.gone:
                sc.misc += self.sign(s.owner[obj]) * 0.8
        elif name == "check":
            if not s.checked[obj] and obj not in sc.gone and not s.is_caster(obj):
                sc.misc -= self.sign(s.owner[obj]) * 0.4
        elif name == "bounce":
            sc.gone[obj] = "bounce"
        elif name == "move":
            area = s.area_of[obj]
            if area in (BA1, BA2) and s.fits(s.owner[obj], 1 - area, s.weight(obj)):
                sc.gone[obj] = "move"
        elif name == "hp_break":
            lost = min(effect.number("n"), self.hp(s.owner[obj], s.area_of[obj]))
            sc.misc -= self.sign(s.owner[obj]) * HP_VALUE * lost
            if lost and lost >= self.total_hp(s.owner[obj]):
                sc.misc -= self.sign(s.owner[obj]) * WIN_BONUS
        elif name == "hp_gain":
            gained = min(effect.number("n"), self.deck_size(s.owner[obj]))
            sc.misc += self.sign(s.owner[obj]) * HP_VALUE * gained

    def deck_size(self, player: int) -> int:
        size: int = self.seats[player]["deck"]
        return size

    def guard(self) -> int:
        """The biggest shield the opponent can still add by a visible REACTION ability (a normal caster,
        idol or unit whose cost is payable); cards in hand are unknown and not counted."""
        if self._guard is None:
            s, enemy = self.s, 1 - self.me
            best = 0
            objects = [*s.casters[enemy], *s.units_of(enemy)]
            for obj in objects:
                if obj == EMPTY or s.is_dummy(obj) or s.checked[obj]:
                    continue
                for _, ability in self.activated(obj):
                    cost = ability.cost
                    if "REACTION" not in ability.timing or ability.require:
                        continue
                    amount = sum(e.number("amount") for e in ability.effects if e.name == "shield")
                    if amount > best and s.payable(enemy, cost.log, cost.discard, exclude=obj, engrave=cost.engrave):
                        best = amount
            self._guard = best
        return self._guard

    def best_target(self, sc: _Scenario, effect: Effect, candidates: Sequence[int], plans: bool) -> tuple[float, int]:
        """The candidate whose effect leaves me best off (ties: my biggest friend, their biggest foe)."""
        s = self.s
        best: tuple[float, int] | None = None
        for obj in candidates:
            trial = sc.copy()
            if obj != EMPTY:
                self.apply(trial, effect, obj, self.me)
            score = self.value(trial, plans)
            if obj != EMPTY and not s.is_caster(obj):
                score += 0.0001 * self.bp(obj) * (1 if _helps(effect) == (s.owner[obj] == self.me) else -1)
            if obj != EMPTY and s.is_caster(obj):
                score -= 0.0001 * self.hp(s.owner[obj], s.area_of[obj])
            if best is None or score > best[0]:
                best = (score, obj)
        assert best is not None
        return best

    def item_gain(self, item: _Item, plans: bool) -> float:
        """My gain from using the item now, each target chosen greedily, less its price."""
        base = _Scenario()
        before = self.value(base, plans)
        if item.grants:  # arms (D2.8): this turn only
            gain = 0.0
            for ability in item.grants:
                if "REACTION" in ability.timing:
                    gain = max(gain, 0.8)
                elif "ACTION" in ability.timing:
                    trial = self._effects_value(base.copy(), ability.effects, EMPTY, plans) - before
                    gain = max(gain, 0.5 + max(0.0, trial))
            return gain - item.cost
        return self._effects_value(base, item.effects, item.source, plans) - before - item.cost

    def _effects_value(self, sc: _Scenario, effects: Sequence[Effect], source: int, plans: bool) -> float:
        """The value after the effects, in order: groups hit every match, single targets the best one."""
        for effect in effects:
            target = effect.args.get("target")
            if not isinstance(target, Selector):
                self.apply(sc, effect, EMPTY, self.me)
                continue
            candidates = self.s.candidates(target, self.me, source)
            if target.is_group:
                for obj in candidates:
                    self.apply(sc, effect, obj, self.me)
            elif candidates:
                _, obj = self.best_target(sc, effect, candidates, plans)
                self.apply(sc, effect, obj, self.me)
        return self.value(sc, plans)

    # -- items ------------------------------------------------------------------------------

    def activated(self, obj: int) -> list[tuple[str, Ability]]:
        """An object's activated abilities in USE order: its own, then its arms' grants (D2.9)."""
        s = self.s
        found = list(self.game.activated.get(s.cards[obj].id, ()))
        arms = s.arms.get(obj, EMPTY)
        if arms != EMPTY:
            found += self.game.activated.get(s.cards[arms].id, ())
        return found

    def item(self, action: IndexedAction) -> _Item | None:
        """What a PLAY, SUB or USE action would do and cost (None for other actions)."""
        decoded = self.decode(action)
        verb = decoded.verb
        s = self.s
        if verb in ("PLAY", "SUB"):
            if not self.has_card(decoded.card, decoded.from_speed):
                return None
            card = self.game.card_set[decoded.card]
            price = SPEED_CARD_COST if decoded.from_speed else CARD_COST
            if verb == "SUB":
                assert card.sub is not None
                cost = card.sub.cost
                return _Item(card.sub.effects, EMPTY, price + _price(cost.log, cost.engrave, cost.discard), card)
            extra = card.extra
            price += _price(card.cost, extra.engrave, extra.discard)
            if card.type == "arms":
                return _Item((), EMPTY, price, card, card.grants)
            return _Item(card.effects, EMPTY, price, card)
        if verb == "USE":
            obj = s.object_at(self.me, SLOTS.index(decoded.slot))
            ability = self.activated(obj)[decoded.index][1]
        elif verb == "USE@S":
            obj = self.speed_card(decoded.card)
            ability = self.game.activated[decoded.card][decoded.index][1]
        else:
            return None
        cost = ability.cost
        price = _price(cost.log, cost.engrave, cost.discard) + (CHECK_COST if cost.check_self else 0.0)
        return _Item(ability.effects, obj, price)

    def speed_card(self, card_id: str) -> int:
        """My speed-area card with this id, the source of its `speed`-zone ability (the newest copy)."""
        speed = self.s.speed[self.me]
        return next((inst for inst in reversed(speed) if self.s.cards[inst].id == card_id), EMPTY)

    def card_value(self, card_id: str) -> float:
        """How much a card in hand is worth keeping (for discards, dummies and the mulligan)."""
        card = self.game.card_set[card_id]
        if card.type in ("unit", "idol"):
            return 1.0 + card.bp / 100 - 0.1 * max(0, card.cost - 2)
        if card.type == "arms":
            return 0.7
        value = 1.0
        if "REACTION" in card.timing:
            value += 0.2
        if any(e.name in ("hp_gain", "hp_break") for e in card.effects):
            value += 0.5
        return value


def _price(log: int, engrave: int, discard: int) -> float:
    return LOG_COST * log + ENGRAVE_COST * engrave + CARD_COST * discard


def _helps(effect: Effect) -> bool:
    """Whether an effect is good for the object it hits (tie-breaks between equal targets)."""
    name = effect.name
    if name == "enchant":
        return effect.args["kind"] == "boost"
    if name == "bp_mod":
        return effect.number("amount") > 0
    return name in _BENEFICIAL


# ---- windows ----------------------------------------------------------------------------


def _named(v: _View, legal: tuple[IndexedAction, ...], text: str) -> IndexedAction:
    """The fixed action `text` (DONE, PASS, KEEP, ...), which the engine lists last."""
    for action in reversed(legal):
        if v.decode(action).verb == text:
            return action
    return legal[-1]


def _place(v: _View, legal: tuple[IndexedAction, ...]) -> IndexedAction:
    """D4.1: the placement does not matter to this player; the first caster goes to BA1."""
    return legal[0]


def _mulligan(v: _View, legal: tuple[IndexedAction, ...]) -> IndexedAction:
    """D4.6: set aside expensive cards (cost >= 3, or a non-unit of cost >= 2, or arms), at most three,
    and only while the hand holds fewer than four units."""
    if len(v.mine["mulligan"]) >= MAX_MULLIGAN:
        return _named(v, legal, "KEEP")
    units = sum(1 for card_id in v.mine["hand"] if v.game.card_set[card_id].type in ("unit", "idol"))
    if units >= 4:
        return _named(v, legal, "KEEP")
    worst: tuple[float, IndexedAction] | None = None
    for action in legal:
        decoded = v.decode(action)
        if decoded.verb != "MULL":
            continue
        card = v.game.card_set[decoded.card]
        expensive = card.cost >= 3 or (card.type not in ("unit", "idol") and card.cost >= 2) or card.type == "arms"
        if expensive:
            score = v.card_value(decoded.card)
            if worst is None or score < worst[0]:
                worst = (score, action)
    return worst[1] if worst is not None else _named(v, legal, "KEEP")


def _ahead(v: _View, mine: int, theirs: int) -> bool:
    """D6.5: a higher speed is F; the tiebreak token holder wins a tie (D4.7)."""
    return mine > theirs or (mine == theirs and v.obs["token"] == PLAYER_NAMES[v.me])


def _speed(v: _View, legal: tuple[IndexedAction, ...]) -> IndexedAction:
    """D6.3-D6.4: become F by the cheapest means when behind: a gear change (the card stays usable
    this turn, D5.7), else Overclock-like `speed_shift` items that are enough to overtake."""
    me = v.me
    done = _named(v, legal, "DONE")
    mine, theirs = v.mine["speed_grade"], v.seats[1 - me]["speed_grade"]
    shift = v.mine["speed_shift"]
    if v.mine["gear"]:  # my own closed gear card sets my speed when it opens (D6.5)
        mine = min(5, v.game.card_set[v.mine["gear"][-1]].speed_index + shift)
    if not WANT_FIRST or _ahead(v, mine, theirs):
        return done
    gears = []
    for action in legal:
        decoded = v.decode(action)
        if decoded.verb != "GEAR":
            continue
        card = v.game.card_set[decoded.card]
        if _ahead(v, min(5, card.speed_index + shift), theirs):
            castable = card.type == "unit" and card.cost == 0
            gears.append((not castable, v.card_value(decoded.card), action))
    if gears:
        return min(gears, key=lambda g: (g[0], g[1]))[2]
    for action in legal:
        item = v.item(action)
        if item is None:
            continue
        steps = sum(e.number("steps") for e in item.effects if e.name == "speed_shift")
        if steps and _ahead(v, min(5, mine + steps), theirs) and item.cost <= CARD_COST + 0.01:
            return action
    return done


def _defence_needed(v: _View) -> bool:
    """Whether the opponent has, or may still cast (it casts after me), units to attack with."""
    s, enemy = v.s, 1 - v.me
    if any(s.units[enemy][a] for a in (BA1, BA2)):
        return True
    return v.obs["first"] == PLAYER_NAMES[v.me] and bool(v.hand_size(enemy) or v.seats[enemy]["speed"])


def _cast(v: _View, legal: tuple[IndexedAction, ...]) -> IndexedAction:
    """D8.2, in order: god draw surplus bursts; cast units and idols, biggest BP first; useful CAST
    items; move a unit in front of an unguarded caster; dummies (free speed-area cards first) in front
    of every caster with HP that has no unit, and as a second blocker from speed-area cards; done."""
    s, me = v.s, v.me
    by_verb: dict[str, list[tuple[IndexedAction, Decoded]]] = {}
    for action in legal:
        decoded = v.decode(action)
        by_verb.setdefault(decoded.verb, []).append((action, decoded))
    goddraw = by_verb.get("GODDRAW")
    if goddraw and v.excess_bursts() > 0 and v.hand_size(me) < HAND_CAP:
        return goddraw[0][0]
    casts = []
    for action, decoded in by_verb.get("CAST", ()):
        card = v.game.card_set[decoded.card]
        idol_first = card.type == "idol" and v.mine["idol"] is None
        casts.append((not idol_first, -card.bp, not decoded.from_speed, action))
    if casts:
        return min(casts)[3]
    best = _best_item(v, legal, plans=True, wait_for_fast=True)
    if best is not None:
        return best
    guard = _defence_needed(v)
    open_areas = [a for a in (BA1, BA2) if v.hp(me, a) and not s.units[me][a]]
    if guard and open_areas:
        for action, decoded in by_verb.get("MOVE", ()):
            obj = s.object_at(me, SLOTS.index(decoded.slot))
            area = s.area_of[obj]
            if area == IDOL_AREA or not s.units[me][area]:
                continue
            spare = len(s.units[me][area]) > 1 or not v.hp(me, area)
            if spare and any(s.fits(me, a, s.weight(obj)) for a in open_areas):
                return action
    dummies = by_verb.get("DUMMY", [])
    if guard and dummies:
        single = [a for a in (BA1, BA2) if v.hp(me, a) and len(s.units[me][a]) == 1]
        choices = []
        for action, decoded in dummies:
            from_speed = decoded.from_speed
            area = decoded.area
            if area in open_areas or (area in single and from_speed):
                value = v.card_value(decoded.card)
                choices.append((area not in open_areas, not from_speed, value, -v.hp(me, area), action))
        if choices:
            return min(choices, key=lambda c: c[:4])[4]
        if open_areas and goddraw and not v.hand_size(me):
            return goddraw[0][0]
    return _named(v, legal, "DONE")


def _fast(v: _View, legal: tuple[IndexedAction, ...]) -> IndexedAction:
    """D9: arms and FAST items whose estimated gain (combat plans included) beats their price."""
    best = _best_item(v, legal, plans=True)
    return best if best is not None else _named(v, legal, "DONE")


def _best_item(
    v: _View, legal: tuple[IndexedAction, ...], *, plans: bool, wait_for_fast: bool = False
) -> IndexedAction | None:
    """The item whose estimated gain beats its price by the most (more than PLAY_THRESHOLD), if any.

    `wait_for_fast`: FAST codes (boosts and the like) wait for the fast phase, when both fields are known.
    """
    best: tuple[float, IndexedAction] | None = None
    for action in legal:
        item = v.item(action)
        if item is None:
            continue
        if wait_for_fast and item.card is not None and "FAST" in item.card.timing and item.card.type == "code":
            continue
        gain = v.item_gain(item, plans=plans)
        if gain > PLAY_THRESHOLD and (best is None or gain > best[0]):
            best = (gain, action)
    return best[1] if best is not None else None


def _window(v: _View, legal: tuple[IndexedAction, ...]) -> IndexedAction:
    phase = v.decision["phase"]
    if phase == "speed":
        return _speed(v, legal)
    if phase == "cast":
        return _cast(v, legal)
    return _fast(v, legal)


def _area_score(v: _View, area: int, weight: int) -> tuple[int, int, int]:
    """Where a unit or dummy helps most: in front of a caster with HP and few units."""
    s, me = v.s, v.me
    units = s.units[me][area]
    return (1 if v.hp(me, area) else 0, -len(units), -sum(s.weight(u) for u in units) - weight)


def _destination(v: _View, legal: tuple[IndexedAction, ...]) -> IndexedAction:
    """Idols to the idol area (no upkeep, D19.4, and a log source); units in front of the caster
    with HP that has the fewest units."""
    play = v.decision["play"]
    options = [(action, v.decode(action).area) for action in legal]
    if play["kind"] == "idol":
        for action, dest in options:
            if dest == IDOL_AREA:
                return action
    weight = v.card_at(play["card"]).weight
    areas = [(dest, action) for action, dest in options if dest != IDOL_AREA]
    scored = [(_area_score(v, area, weight), action) for area, action in areas]
    if not scored:
        return legal[0]
    return max(scored, key=lambda item: item[0])[1]


def _move_to(v: _View, legal: tuple[IndexedAction, ...]) -> IndexedAction:
    weight = v.weight_at(v.decision["object"])
    scored = [(_area_score(v, d, weight), a) for a in legal if (d := v.decode(a).area) != IDOL_AREA]
    if not scored:
        return legal[0]
    return max(scored, key=lambda item: item[0])[1]


def _upkeep(v: _View, legal: tuple[IndexedAction, ...]) -> IndexedAction:
    """D19.4: pay while at least one log is left over afterwards; else the idol is checked."""
    upkeep = v.card_at(v.decision["object"]).upkeep
    for action in legal:
        if v.decode(action).verb == "UPKEEP PAY" and v.log_sources(v.me) - upkeep >= 1:
            return action
    return _named(v, legal, "UPKEEP CHECK")


def _target(v: _View, legal: tuple[IndexedAction, ...]) -> IndexedAction:
    """The target that leaves me best off by the scenario calculator (arms: a caster without its
    own activated abilities, so that the grant's check_self does not compete with them)."""
    s = v.s
    play = v.decision["play"]
    objects = []
    for action in legal:
        decoded = v.decode(action)
        objects.append((s.object_at(decoded.seat, SLOTS.index(decoded.slot)), action))
    if play["kind"] == "arms":
        return min(objects, key=lambda o: (len(v.activated(o[0])), -v.hp(v.me, s.area_of[o[0]])))[1]
    effects = v.game.effects.get(play["ref"], ())
    singles = [e for e in effects if isinstance(target := e.args.get("target"), Selector) and not target.is_group]
    index = len(play["targets"])
    if index >= len(singles):
        return legal[0]
    effect = singles[index]
    in_combat = v.attacking() or v.pending() is not None
    _, obj = v.best_target(_Scenario(), effect, [o for o, _ in objects], plans=not in_combat)
    return next(action for o, action in objects if o == obj)


def _pay_discard(v: _View, legal: tuple[IndexedAction, ...]) -> IndexedAction:
    """D12.3: speed-area cards first (they go at the end phase anyway), then the least valuable card."""
    choices = []
    for action in legal:
        decoded = v.decode(action)
        choices.append((not decoded.from_speed, v.card_value(decoded.card), action))
    return min(choices, key=lambda c: (c[0], c[1]))[2]


def _ability_still_useful(v: _View, caster: int) -> bool:
    """Whether a caster has an activated ability usable later this turn (then it should stay normal)."""
    phase = v.obs["phase"]
    later = {"speed": ("SPEED", "CAST", "FAST", "ACTION", "REACTION"), "cast": ("CAST", "FAST", "ACTION", "REACTION"),
             "fast": ("FAST", "ACTION", "REACTION")}.get(phase, ("ACTION", "REACTION"))  # fmt: skip
    return any(set(ability.timing) & set(later) for _, ability in v.activated(caster))


def _pay_source(v: _View, legal: tuple[IndexedAction, ...]) -> IndexedAction:
    """D12.1: bursts (refreshed every end phase), the idol, casters whose abilities are no longer
    needed this turn, engraves when the slots are full, casters with abilities, other engraves; a
    PAYMENT sub-effect (a card) last."""
    s, me = v.s, v.me
    ranked = []
    for action in legal:
        decoded = v.decode(action)
        source = decoded.source if decoded.verb == "PAY" else ""
        if source == "BURST":
            rank = 0
        elif source == "IDOL":
            rank = 1
        elif source in AREAS:
            caster = s.casters[me][AREAS.index(source)]
            rank = 4 if _ability_still_useful(v, caster) else 2
        elif source == "ENGRAVE":
            rank = 3 if len(v.mine["engraves"]) >= 3 else 5
        else:
            rank = 6
        ranked.append((rank, action))
    return min(ranked, key=lambda r: r[0])[1]


def _action_turn(v: _View, legal: tuple[IndexedAction, ...]) -> IndexedAction:
    """D10.2: the best of the best attack plan and the best ACTION item, if worth it; else god draw
    surplus bursts; else pass."""
    s, me = v.s, v.me
    plans = v.attack_plans(me, _Scenario())
    attack = max(plans, key=lambda p: p[0], default=None)
    best_item: tuple[float, IndexedAction] | None = None
    for action in legal:
        item = v.item(action)
        if item is None:
            continue
        gain = v.item_gain(item, plans=True)
        if best_item is None or gain > best_item[0]:
            best_item = (gain, action)
    attack_score = attack[0] if attack is not None else 0.0
    item_score = best_item[0] if best_item is not None else 0.0
    if attack is not None and attack_score >= ATTACK_THRESHOLD and attack_score >= item_score:
        slots = {s.object_at(me, SLOTS.index(v.decode(a).slot)): a for a in legal if v.decode(a).verb == "ATTACKER"}
        for unit in attack[1]:
            if unit in slots:
                return slots[unit]
    if best_item is not None and item_score > PLAY_THRESHOLD:
        return best_item[1]
    for action in legal:
        if v.decode(action).verb == "GODDRAW" and v.excess_bursts() > 0 and v.hand_size(me) < HAND_CAP:
            return action
    return _named(v, legal, "PASS")


def _attack_build(v: _View, legal: tuple[IndexedAction, ...]) -> IndexedAction:
    """D10.5: complete the best plan that contains the units already chosen."""
    s, me = v.s, v.me
    chosen = tuple(v.obj(place) for place in v.decision["attackers"])
    plans = v.attack_plans(me, _Scenario(), chosen)
    areas = {v.decode(a).area: a for a in legal if v.decode(a).verb == "ATTACK"}
    plans = [p for p in plans if p[2] in areas]
    if not plans:
        return next(iter(areas.values()), legal[-1])
    _, units, area = max(plans, key=lambda p: p[0])
    slots = {s.object_at(me, SLOTS.index(v.decode(a).slot)): a for a in legal if v.decode(a).verb == "ATTACKER"}
    for unit in units:
        if unit not in chosen and unit in slots:
            return slots[unit]
    return areas[area]


def _block(v: _View, legal: tuple[IndexedAction, ...]) -> IndexedAction:
    """D10.6: the blocker that loses least, counting a possible pump by the attacker; among equal
    ones the less valuable unit."""
    s, me = v.s, v.me
    sc = _Scenario()
    damage = max(0, sum(v.bp(a) for a in v.attackers()) + (v.attack["mod"] if v.attack is not None else 0))
    scored = []
    for action in legal:
        decoded = v.decode(action)
        if decoded.verb != "BLOCK":
            continue
        obj = s.object_at(me, SLOTS.index(decoded.slot))
        score = v.block_loss(obj, damage, sc) + 0.3 * v.block_loss(obj, damage + PUMP_RISK, sc)
        score += 0.01 * (v.uval(obj) if not s.is_caster(obj) else 0.5)
        scored.append((score, action))
    if not scored:
        return legal[-1]
    return min(scored, key=lambda item: item[0])[1]


def _react(v: _View, legal: tuple[IndexedAction, ...]) -> IndexedAction:
    """D10.4: the reaction with the best gain over its price (a pump that crosses a break or HP
    threshold, a shield or boost that saves the blocker or the target, a damage that breaks an
    attacker or blocker); pass when nothing is worth it."""
    best = _best_item(v, legal, plans=False)
    return best if best is not None else _named(v, legal, "PASS")


def _first(v: _View, legal: tuple[IndexedAction, ...]) -> IndexedAction:
    return legal[0]


def _scrap(v: _View, legal: tuple[IndexedAction, ...]) -> IndexedAction:
    """D16.3: drop a checked engrave (it goes at the end phase anyway) before a normal one."""
    engraves = v.mine["engraves"]
    for action in legal:
        index = v.decode(action).index
        if index < len(engraves) and engraves[index]["checked"]:
            return action
    return legal[0]


def _hp_draw(v: _View, legal: tuple[IndexedAction, ...]) -> IndexedAction:
    """D20.1 (and rule library_out=every_use, D20.2): take the HP card from the caster with more HP."""
    return max(legal, key=lambda a: v.hp(v.me, v.decode(a).area))


def _limit(v: _View, legal: tuple[IndexedAction, ...]) -> IndexedAction:
    """D11.2: discard the least valuable card."""
    return min(legal, key=lambda a: v.card_value(v.decode(a).card))


_WINDOWS: dict[str, Callable[[_View, tuple[IndexedAction, ...]], IndexedAction]] = {
    "place": _place,
    "mull": _mulligan,
    "win": _window,
    "dest": _destination,
    "move_to": _move_to,
    "upkeep_idol": _upkeep,
    "target": _target,
    "pay_discard": _pay_discard,
    "pay_src": _pay_source,
    "aturn": _action_turn,
    "abuild": _attack_build,
    "block": _block,
    "react": _react,
    "pick": _first,
    "scrap": _scrap,
    "order": _first,
    "hpdraw": _hp_draw,
    "hpdeck": _hp_draw,
    "limit": _limit,
}


def choose(state: State, rng: random.Random) -> IndexedAction:
    """The heuristic's action at the current decision (deterministic; `rng` is unused): the window and its
    data come from the deciding player's observation (`decision`)."""
    assert isinstance(state, DreadnoughtState), "the Dreadnought heuristic plays Dreadnought states"
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    player = state.current_player()
    assert player is not None
    view = _View(state, dump_observation(state, player, lean=True))
    return _WINDOWS[view.decision["kind"]](view, legal)


EVAL_SCALE = 2.0 * HP_VALUE
"""HP units for odds of e to 1 (about 73%) in `evaluate`: two HP cards."""


def _material(s: DreadnoughtState, player: int) -> float:
    """HP cards (`HP_VALUE` each), units on the field (as `_View.uval`), cards in hand (`CARD_COST`)."""
    value = HP_VALUE * (len(s.hp[player][BA1]) + len(s.hp[player][BA2])) + CARD_COST * len(s.hand[player])
    return value + sum(unit_value(s, obj) for obj in s.units_of(player))


def evaluate(state: State, player: int) -> float:
    """`player`'s chance of winning as the heuristic sees it, from public material (HP cards, units) and
    hand sizes: a search's estimate where it stops a rollout before the end."""
    outcome = state.outcome()
    if outcome is not None:
        return 0.5 if outcome.winner is None else float(outcome.winner == player)
    assert isinstance(state, DreadnoughtState)
    lead = _material(state, player) - _material(state, 1 - player)
    return 1.0 / (1.0 + math.exp(-lead / EVAL_SCALE))
