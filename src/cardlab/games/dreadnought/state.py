"""The Dreadnought rules engine (D4-D21) on the core State protocol.

Every physical card is an instance id; a dummy on the field is a token id (one of four per
player above the cards) whose real card sits, closed, in that player's dummy slots. Zones hold
instance ids (a deck's top card is its last element); per-object dicts hold what only field
objects have (orientation, enchants, modifiers until end of turn).

The rules run as a small interpreter: `stack` holds frames (tuples, top last). Automatic frames
do one step of the rules and may push more; a decision frame waits for the player it names.
Because frames are plain data, a state clones by copying lists, and a position (with whatever
is half done: a payment, a reaction window, a trigger queue) round-trips through JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, NamedTuple

from cardlab.core.actions import IndexedAction
from cardlab.core.events import Event, EventLog
from cardlab.core.game import HiddenGroup, Outcome, Player, SteppingState, player_name
from cardlab.games.dreadnought.actions import AREAS, DESTINATIONS, SLOTS
from cardlab.games.dreadnought.cards import CardDef, Effect, Selector

if TYPE_CHECKING:
    from cardlab.games.dreadnought.game import Dreadnought

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


PLAY_INSTANCE_FIELDS = ("card", "source")
Frame = tuple[Any, ...]


class DreadnoughtState(SteppingState):
    """A position of Dreadnought; see `cardlab.games.dreadnought.position` for its JSON form."""

    def __init__(self, game: Dreadnought, cards: tuple[CardDef, ...], owner: tuple[int, ...], record_events: bool):
        self._game = game
        self.cards = cards  # per instance, then the dummy tokens; shared between clones
        self.owner = owner
        self.n_cards = len(cards) - 2 * DUMMY_SLOTS
        self.deck: tuple[list[int], list[int]] = ([], [])
        self.hand: tuple[list[int], list[int]] = ([], [])
        self.discard: tuple[list[int], list[int]] = ([], [])
        self.speed: tuple[list[int], list[int]] = ([], [])
        self.gear: tuple[list[int], list[int]] = ([], [])  # closed speed card (D6.3)
        self.bursts: tuple[list[int], list[int]] = ([], [])
        self.burst_checked: tuple[list[bool], list[bool]] = ([], [])
        self.engraves: tuple[list[int], list[int]] = ([], [])
        self.engrave_checked: tuple[list[bool], list[bool]] = ([], [])
        self.mull: tuple[list[int], list[int]] = ([], [])  # set aside in the mulligan, not yet shown
        self.limbo: tuple[list[int], list[int]] = ([], [])  # being played (D5.3)
        self.dummy_cards: tuple[list[int], list[int]] = ([EMPTY] * DUMMY_SLOTS, [EMPTY] * DUMMY_SLOTS)
        self.dummy_known: tuple[list[bool], list[bool]] = ([False] * DUMMY_SLOTS, [False] * DUMMY_SLOTS)
        self.placed: tuple[list[int], list[int]] = ([], [])  # caster choice before both open (D4.1)
        self.casters: tuple[list[int], list[int]] = ([EMPTY, EMPTY], [EMPTY, EMPTY])  # by battle area
        self.hp: tuple[tuple[list[int], list[int]], tuple[list[int], list[int]]] = (([], []), ([], []))
        self.units: tuple[tuple[list[int], list[int]], tuple[list[int], list[int]]] = (([], []), ([], []))
        self.idol = [EMPTY, EMPTY]
        self.known_hand: tuple[list[int], list[int]] = ([], [])  # hand cards the opponent has seen
        self.area_of = [EMPTY] * len(cards)  # BA1, BA2 or IDOL_AREA for field objects
        self.checked = [False] * len(cards)
        self.arms: dict[int, int] = {}  # caster -> arms card
        self.ench: dict[int, list[int]] = {}  # host -> material cards
        self.ench_kind: dict[int, list[int]] = {}  # BOOST / WEAKEN, per material
        self.ench_owner: dict[int, list[int]] = {}
        self.ench_secret: dict[int, list[bool]] = {}  # material taken unseen from the deck top
        self.attached: dict[int, list[int]] = {}  # host -> attached codes (D14.5)
        self.bp_mod: dict[int, int] = {}
        self.shield: dict[int, int] = {}
        self.moved: list[int] = []  # objects moved this cast phase (R-D8.2)
        self.speed_shift = [0, 0]
        self.geared = [False, False]
        self.token = 0  # tiebreak token holder (D4.7)
        self.first: int = EMPTY  # this turn's F, once decided
        self.turn = 0
        self.phase = "setup"
        self.attackers: list[int] = []
        self.attack_player = EMPTY
        self.attack_area = EMPTY
        self.blocker = EMPTY
        self.attack_mod = 0
        self.triggers: list[tuple[int, int, str]] = []  # (controller, source, ref)
        self.cost_reduction = 0
        self.stack: list[Frame] = []
        self._statics: list[tuple[int, int, Effect]] | None = None
        self.winner: Player | None = None
        self.draw = False
        self.reason = ""
        self._legal: tuple[IndexedAction, ...] = ()
        self.events: EventLog | None = EventLog() if record_events else None

    # -- protocol ---------------------------------------------------------------------------

    @property
    def game(self) -> Dreadnought:
        return self._game

    def current_player(self) -> Player | None:
        if self.phase == "over" or not self.stack:
            return None
        return int(self.stack[-1][1])

    def outcome(self) -> Outcome | None:
        if self.phase != "over":
            return None
        return Outcome(None if self.draw else self.winner, self.reason)

    _PLAIN = ("_game", "cards", "owner", "n_cards", "token", "first", "turn", "phase", "attack_player", "attack_area",
              "blocker", "attack_mod", "cost_reduction", "winner", "draw", "reason", "_legal", "_statics")  # fmt: skip
    _LISTS = ("idol", "area_of", "checked", "moved", "speed_shift", "geared", "attackers", "triggers", "stack")
    _PAIRS = ("deck", "hand", "discard", "speed", "gear", "bursts", "burst_checked", "engraves", "engrave_checked",
              "mull", "limbo", "dummy_cards", "dummy_known", "placed", "casters", "known_hand")  # fmt: skip

    def clone(self, *, record_events: bool = False) -> DreadnoughtState:
        other = DreadnoughtState.__new__(DreadnoughtState)
        d = other.__dict__
        s = self.__dict__
        for name in self._PLAIN:
            d[name] = s[name]
        for name in self._LISTS:
            d[name] = s[name][:]
        for name in self._PAIRS:
            pair = s[name]
            d[name] = (pair[0][:], pair[1][:])
        for name in ("hp", "units"):
            a, b = s[name]
            d[name] = ((a[0][:], a[1][:]), (b[0][:], b[1][:]))
        for name in ("ench", "ench_kind", "ench_owner", "ench_secret", "attached"):
            d[name] = {key: value[:] for key, value in s[name].items()}
        d["arms"] = dict(self.arms)
        d["bp_mod"] = dict(self.bp_mod)
        d["shield"] = dict(self.shield)
        other.events = self.events.copy() if record_events and self.events is not None else None
        return other

    def card_zones(self) -> dict[str, list[int]]:
        zones: dict[str, list[int]] = {}
        for p, seat in enumerate(("P1", "P2")):
            for name in ("deck", "hand", "discard", "speed", "gear", "bursts", "engraves", "mull", "limbo", "placed"):
                zones[f"{name}:{seat}"] = getattr(self, name)[p]
            zones[f"dummy:{seat}"] = self.dummy_cards[p]
            for area in (BA1, BA2):
                zones[f"hp:{seat}:{AREAS[area]}"] = self.hp[p][area]
        for host, materials in self.ench.items():
            zones[f"ench:{host}"] = materials
        return zones

    def hidden_cards(self, player: Player) -> list[HiddenGroup]:
        """D1.5: what `player` cannot identify, as two pools (own cards, opponent's cards).

        Own: deck order, bursts, HP stacks and enchants taken unseen from the deck (D1.2, D13.4,
        D14.2). Opponent's: also their hand (less the cards this player has seen go there),
        closed speed card, mulligan set-aside, dummies' real cards and, while this player is
        still to place casters, the opponent's placement (D4.1).
        """
        groups: list[HiddenGroup] = []
        for owner in (player, 1 - player):
            seat = player_name(owner)
            group: HiddenGroup = [(f"deck:{seat}", None), (f"bursts:{seat}", None)]
            group += [(f"hp:{seat}:{area}", None) for area in AREAS]
            for host, secret in self.ench_secret.items():
                slots = [i for i, hidden in enumerate(secret) if hidden and self.ench_owner[host][i] == owner]
                if slots:
                    group.append((f"ench:{host}", slots))
            if owner != player:
                known = list(self.known_hand[owner])
                hand_slots = []
                for i, inst in enumerate(self.hand[owner]):
                    if inst in known:
                        known.remove(inst)
                    else:
                        hand_slots.append(i)
                group += [(f"hand:{seat}", hand_slots), (f"gear:{seat}", None), (f"mull:{seat}", None)]
                known_dummies = self.dummy_known[owner]
                dummies = [
                    i for i, inst in enumerate(self.dummy_cards[owner]) if inst != EMPTY and not known_dummies[i]
                ]
                if dummies:
                    group.append((f"dummy:{seat}", dummies))
                if self.casters[owner][0] == EMPTY:  # not yet opened (D4.1): a pool of its own
                    groups.append([(f"placed:{seat}", None)])
            groups.append(group)
        return groups

    def forget_unseen(self, player: Player) -> None:
        """R-D9: the opponent's unrevealed mulligan goes back to their hand; their hand is put in a
        fixed order (known cards first) so that a world never depends on where hidden cards sat."""
        them = 1 - player
        if self.mull[them]:
            self.hand[them].extend(self.mull[them])
            self.mull[them].clear()
        known = list(self.known_hand[them])
        first = []
        for inst in sorted(self.hand[them], key=lambda i: self.cards[i].id):
            if inst in known:
                known.remove(inst)
                first.append(inst)
        self.hand[them][:] = first + [inst for inst in self.hand[them] if inst not in first]

    def _resync(self) -> bool:
        if self.phase == "over":
            return True
        self._legal = self._compute_legal()
        return len(self._legal) >= 2

    def position(self) -> dict[str, Any]:
        from cardlab.games.dreadnought.position import dump_position

        return dump_position(self)

    def observation(self, player: Player | None) -> dict[str, Any]:
        from cardlab.games.dreadnought.position import dump_observation

        return dump_observation(self, player)

    # -- reading the field ------------------------------------------------------------------

    @property
    def attacking(self) -> bool:
        """An attack is in progress (declared, not yet resolved), even if its attackers have left."""
        return self.attack_player != EMPTY

    def is_caster(self, obj: int) -> bool:
        return self.cards[obj].type == "caster"

    def is_dummy(self, obj: int) -> bool:
        return obj >= self.n_cards

    def on_field(self, obj: int) -> bool:
        return obj != EMPTY and self.area_of[obj] != EMPTY

    def units_of(self, player: Player) -> list[int]:
        """Every unit of `player` on the field: battle-area units, then the idol in the idol area."""
        a, b = self.units[player]
        found = a + b
        if self.idol[player] != EMPTY:
            found.append(self.idol[player])
        return found

    def slot_of(self, obj: int) -> int:
        """Index into SLOTS of a field object of its owner."""
        area = self.area_of[obj]
        if area == IDOL_AREA:
            return 6
        if self.is_caster(obj):
            return 3 * area
        return 3 * area + 1 + self.units[self.owner[obj]][area].index(obj)

    def object_at(self, player: Player, slot: int) -> int:
        if slot == 6:
            return self.idol[player]
        area, place = divmod(slot, 3)
        if place == 0:
            return self.casters[player][area]
        units = self.units[player][area]
        return units[place - 1] if place - 1 < len(units) else EMPTY

    def hp_of(self, caster: int) -> int:
        return len(self.hp[self.owner[caster]][self.area_of[caster]])

    def weight(self, obj: int) -> int:
        return 1 if self.is_dummy(obj) else self.cards[obj].weight

    def fits(self, player: Player, area: int, obj_weight: int, leaving: int = EMPTY) -> bool:
        """D8.3: at most two units weighing at most 3 in a battle area (a moving unit not counted twice)."""
        units = [u for u in self.units[player][area] if u != leaving]
        return len(units) < AREA_UNITS and sum(self.weight(u) for u in units) + obj_weight <= AREA_WEIGHT

    def _static_sources(self) -> list[tuple[int, int, Effect]]:
        """(controller, source object, static effect) for every static in force (D22.3, D19.3).

        Kept until the field, an arms, an attachment or a speed area changes (`_statics = None`).
        """
        if self._statics is None:
            self._statics = list(self._find_statics())
        return self._statics

    def _find_statics(self) -> Iterator[tuple[int, int, Effect]]:
        game = self._game
        for p in (0, 1):
            for obj in self.casters[p]:
                if obj == EMPTY:
                    continue
                for effect in game.statics.get(self.cards[obj].id, {}).get("field", ()):
                    yield p, obj, effect
                arms = self.arms.get(obj, EMPTY)
                if arms != EMPTY:
                    for effect in game.statics.get(self.cards[arms].id, {}).get("field", ()):
                        yield p, obj, effect
            for obj in self.units_of(p):
                if self.is_dummy(obj):
                    continue
                zones = game.statics.get(self.cards[obj].id)
                if zones:
                    zone = "idol" if self.area_of[obj] == IDOL_AREA else "battle"
                    for effect in (*zones.get(zone, ()), *zones.get("field", ())):
                        yield p, obj, effect
            for card in self.speed[p]:
                for effect in game.statics.get(self.cards[card].id, {}).get("speed", ()):
                    yield p, card, effect
        for host, codes in self.attached.items():
            for code in codes:
                for effect in game.attach_statics.get(self.cards[code].id, ()):
                    yield self.owner[code], host, effect  # `host` is the source's object

    def _static_total(self, obj: int, name: str) -> int:
        if not self._game.has_statics:
            return 0
        total = 0
        for controller, source, effect in self._static_sources():
            if effect.name == name and self._static_applies(obj, effect.args["target"], controller, source):  # type: ignore[arg-type]
                total += effect.args["amount"]  # type: ignore[operator]
        return total

    def _static_applies(self, obj: int, selector: Selector, controller: int, source: int) -> bool:
        base = selector.base
        if base in ("self", "host", "bearer"):
            hit = obj == source
        elif base == "all_own_units":
            hit = self.owner[obj] == controller and not self.is_caster(obj)
        else:  # all_enemy_units
            hit = self.owner[obj] != controller and not self.is_caster(obj)
        return hit and self._passes(obj, selector, with_statics=False)

    def base_bp(self, obj: int) -> int:
        """D13.1 without statics: printed (dummy 50) + enchants + BP changes until end of turn."""
        value = DUMMY_BP if self.is_dummy(obj) else self.cards[obj].bp
        kinds = self.ench_kind.get(obj)
        if kinds:
            value += ENCHANT_BP * sum(kinds)
        return value + self.bp_mod.get(obj, 0)

    def bp(self, obj: int) -> int:
        """D13.1: current BP."""
        return self.base_bp(obj) + self._static_total(obj, "static_bp")

    def shields(self, obj: int) -> int:
        """D13.2: shields and static shields in force on `obj`."""
        return self.shield.get(obj, 0) + self._static_total(obj, "static_shield")

    def current_speed(self, player: Player) -> int:
        """D6.2: the newest open speed card's grade index (-1: none) shifted, at most A+++."""
        speed = self.speed[player]
        base = self.cards[speed[-1]].speed_index if speed else -1
        return min(5, base + self.speed_shift[player])

    def _passes(self, obj: int, selector: Selector, *, with_statics: bool = True) -> bool:
        """D22.6 filters; `bp` filters read current BP (statics' own filters read BP before statics)."""
        card = self.cards[obj]
        for item in selector.filters:
            key, value = item.key, item.value
            if key == "bp":
                bp = self.bp(obj) if with_statics else self.base_bp(obj)
                if not (bp <= value if item.op == "<=" else bp >= value):  # type: ignore[operator]
                    return False
            elif key == "size":
                if ("S" if self.is_dummy(obj) else card.size) != value:
                    return False
            elif key == "name":
                if self.is_dummy(obj) or card.name != value:
                    return False
            elif key == "zone":
                if ("idol" if self.area_of[obj] == IDOL_AREA else "battle") != value:
                    return False
            elif key == "state":
                if self.checked[obj] != (value == "checked"):
                    return False
            elif key == "cluster" and (self.is_dummy(obj) or value not in card.cluster):
                return False
        return True

    def candidates(self, selector: Selector, controller: int, source: int) -> list[int]:
        """Objects a single-target (or group) selector may pick now (D22.6)."""
        base = selector.base
        if base in ("self", "bearer"):
            found = [source] if self.on_field(source) else []
        elif base == "blocker":
            found = [self.blocker] if self.on_field(self.blocker) else []
        elif base == "attacker":
            found = [obj for obj in self.attackers if self.on_field(obj)]
        elif base in ("own_unit", "all_own_units"):
            found = self.units_of(controller)
        elif base in ("enemy_unit", "all_enemy_units"):
            found = self.units_of(1 - controller)
        elif base == "any_unit":
            found = self.units_of(controller) + self.units_of(1 - controller)
        elif base == "own_caster":
            found = list(self.casters[controller])
        elif base == "enemy_caster":
            found = list(self.casters[1 - controller])
        else:  # host: only inside attach statics
            found = []
        if selector.filters:
            found = [obj for obj in found if self._passes(obj, selector)]
        return found

    def _effects(self, ref: str) -> tuple[Effect, ...]:
        return self._game.effects[ref]

    # -- logging ----------------------------------------------------------------------------

    def _log(
        self, kind: str, secret: dict[str, Any] | None = None, secret_to: Player | None = None, **public: Any
    ) -> None:
        """Record an event; callers check `self.events` first so that no text is built when off."""
        assert self.events is not None
        self.events.append(Event(kind, public, secret, secret_to))

    def describe(self, obj: int) -> str:
        """A public name for a field object: its slot, seat and (unless a dummy) card id."""
        label = f"{player_name(self.owner[obj])}:{SLOTS[self.slot_of(obj)]}"
        return f"{label} dummy" if self.is_dummy(obj) else f"{label} {self.cards[obj].id}"

    # -- the interpreter --------------------------------------------------------------------

    def _then(self, *frames: Frame) -> None:
        """Schedule frames to run in the order given, before whatever is already scheduled."""
        self.stack.extend(reversed(frames))

    def _run(self) -> None:
        """Run automatic frames until a decision frame is on top or the game is over."""
        stack = self.stack
        while stack and self.phase != "over":
            frame = stack[-1]
            handler = _AUTO.get(frame[0])
            if handler is None:
                return
            stack.pop()
            handler(self, *frame[1:])

    def _compute_legal(self) -> tuple[IndexedAction, ...]:
        if self.phase == "over" or not self.stack:
            return ()
        frame = self.stack[-1]
        return tuple(_OPTIONS[frame[0]](self, *frame[1:]))

    def _do(self, action: IndexedAction) -> None:
        frame = self.stack.pop()
        _APPLY[frame[0]](self, action, *frame[1:])
        self._run()

    def start(self) -> None:
        """Run the automatic steps from the start frames to the first decision."""
        self._run()
        self._advance()

    # -- zone moves ---------------------------------------------------------------------------

    def _hand_or_speed(self, player: Player, card_id: str, from_speed: bool) -> int:
        zone = self.speed[player] if from_speed else self.hand[player]
        for inst in reversed(zone):
            if self.cards[inst].id == card_id:
                return inst
        raise AssertionError(f"{card_id} not in the zone")  # options only name cards that are there

    def _take(self, player: Player, inst: int) -> None:
        """Remove a card from hand or speed area (wherever it is)."""
        self._statics = None
        if inst in self.hand[player]:
            self.hand[player].remove(inst)
            if inst in self.known_hand[player]:
                self.known_hand[player].remove(inst)
        else:
            self.speed[player].remove(inst)

    def _to_discard(self, inst: int) -> None:
        self.discard[self.owner[inst]].append(inst)

    def _draw_card(self, player: Player) -> bool:
        """Top deck card to hand; False if the deck is empty."""
        deck = self.deck[player]
        if not deck:
            return False
        inst = deck.pop()
        self.hand[player].append(inst)
        if self.events is not None:
            self._log("draw", {"card": self.cards[inst].id}, player, player=player_name(player))
        return True

    def _add_burst(self, player: Player, inst: int, checked: bool) -> None:
        self.bursts[player].append(inst)
        self.burst_checked[player].append(checked)

    def _deck_to_burst(self, player: Player) -> None:
        if self.deck[player]:
            self._add_burst(player, self.deck[player].pop(), False)

    def _lose_hp(self, caster: int, count: int) -> int:
        """D13.4: HP cards move closed and checked to the owner's burst area."""
        player = self.owner[caster]
        stack = self.hp[player][self.area_of[caster]]
        lost = min(count, len(stack))
        for _ in range(lost):
            self._add_burst(player, stack.pop(), True)
        if lost and self.events is not None:
            self._log("hp_loss", player=player_name(player), caster=self.cards[caster].id, amount=lost, hp=len(stack))
        return lost

    def _drop_enchants(self, obj: int) -> None:
        """Boosts, weakens and attached codes go to their owners' discards (D14.4)."""
        self._statics = None
        for material in self.ench.pop(obj, ()):
            self._to_discard(material)
        for name in ("ench_kind", "ench_owner", "ench_secret"):
            getattr(self, name).pop(obj, None)
        for code in self.attached.pop(obj, ()):
            self._to_discard(code)

    def _clear_object(self, obj: int) -> None:
        """Enchants and until-end-of-turn changes leave with the object."""
        self._drop_enchants(obj)
        self.bp_mod.pop(obj, None)
        self.shield.pop(obj, None)
        self.checked[obj] = False
        if obj in self.moved:
            self.moved.remove(obj)

    def _leave_field(self, obj: int) -> int:
        """Take a unit or idol off the field; returns its real card (a dummy's closed card)."""
        player = self.owner[obj]
        area = self.area_of[obj]
        if area == IDOL_AREA:
            self.idol[player] = EMPTY
        else:
            self.units[player][area].remove(obj)
        self.area_of[obj] = EMPTY
        self._clear_object(obj)
        if obj in self.attackers:  # an attacker that leaves deals no damage (D10.7)
            self.attackers.remove(obj)
        if self.is_dummy(obj):
            slot = obj - self.n_cards - DUMMY_SLOTS * player
            real = self.dummy_cards[player][slot]
            self.dummy_cards[player][slot] = EMPTY
            self.dummy_known[player][slot] = False
            return real
        return obj

    def _break(self, obj: int) -> None:
        """D13.3: to the discard with its enchants; its on_break triggers fire from there."""
        zone = "idol" if self.area_of[obj] == IDOL_AREA else "battle"
        if self.events is not None:
            self._log("break", player=player_name(self.owner[obj]), unit=self.describe(obj))
        dummy = self.is_dummy(obj)
        real = self._leave_field(obj)
        self._to_discard(real)
        if not dummy:
            for ref, ability in self._game.triggers.get(self.cards[obj].id, ()):
                if ability.event == "on_break" and ability.zone in (zone, "field"):
                    self.triggers.append((self.owner[obj], obj, ref))

    def _place(self, obj: int, player: Player, area: int) -> None:
        self._statics = None
        if area == IDOL_AREA:
            self.idol[player] = obj
        else:
            self.units[player][area].append(obj)
        self.area_of[obj] = area

    def _queue_event(self, event: str, objects: list[int]) -> None:
        """Queue the `event` triggers of objects (D5.5); casters include their arms' grants."""
        game = self._game
        for obj in objects:
            if obj == EMPTY or self.is_dummy(obj):
                continue
            area = self.area_of[obj]
            zone = "speed" if area == EMPTY else "idol" if area == IDOL_AREA else "battle"
            sources = [self.cards[obj].id]
            if self.is_caster(obj):
                zone = "field"
                if obj in self.arms:
                    sources.append(self.cards[self.arms[obj]].id)
            for card_id in sources:
                for ref, ability in game.triggers.get(card_id, ()):
                    if ability.event == event and (
                        ability.zone == zone or (ability.zone == "field" and zone != "speed")
                    ):
                        self.triggers.append((self.owner[obj], obj, ref))

    def _everything(self, player: Player) -> list[int]:
        """Objects and speed cards whose triggers a phase event reaches, in a fixed order."""
        return [*self.casters[player], *self.units_of(player), *self.speed[player]]

    def _order(self) -> tuple[int, int]:
        """(F, S), or (token holder, other) before F is decided (D5.5)."""
        first = self.first if self.first != EMPTY else self.token
        return first, 1 - first

    # -- costs (D12) --------------------------------------------------------------------------

    def log_sources(self, player: Player, exclude: int = EMPTY, engraves_used: int = 0) -> int:
        """D12.1: log available now (normal bursts, engraves, casters, the idol in the idol area)."""
        total = self.burst_checked[player].count(False)
        total += max(0, self.engrave_checked[player].count(False) - engraves_used)
        total += sum(1 for c in self.casters[player] if c != exclude and not self.checked[c])
        idol = self.idol[player]
        if idol != EMPTY and idol != exclude and not self.checked[idol]:
            total += 1
        return total

    def _reducers(self, player: Player, exclude: int) -> list[tuple[int, int]]:
        """(card, reduction) of PAYMENT sub-effects usable now (D18.3), largest first."""
        found = []
        for inst in self._usable_cards(player):
            sub = self.cards[inst].sub
            free = sub is not None and not (sub.cost.log or sub.cost.discard or sub.cost.engrave)
            if inst != exclude and free and "PAYMENT" in sub.timing:  # type: ignore[union-attr]
                found.append((inst, sum(e.args["n"] for e in sub.effects if e.name == "cost_reduce")))  # type: ignore[misc, union-attr]
        found.sort(key=lambda item: -item[1])
        return found

    def payable(self, player: Player, log: int, discard: int, *, exclude: int = EMPTY, engrave: int = 0,
                code: bool = False, played: int = EMPTY, spent: tuple[int, ...] = ()) -> bool:  # fmt: skip
        """D12.4: can the whole cost still be paid? (`spent`: cards already discarded towards it)."""
        if self.engrave_checked[player].count(False) < engrave:
            return False
        sources = self.log_sources(player, exclude, engrave)
        pool = [inst for inst in self._usable_cards(player) if inst != played and inst not in spent]
        shortfall = max(0, log - sources)
        used = 0
        if shortfall and code:
            for inst, amount in self._reducers(player, played):
                if shortfall <= 0:
                    break
                if inst in pool:
                    shortfall -= amount
                    used += 1
        return shortfall <= 0 and len(pool) - used >= discard

    def _usable_cards(self, player: Player) -> list[int]:
        """Hand, plus the speed area once F is decided (D5.7)."""
        if self.first == EMPTY:
            return list(self.hand[player])
        return self.hand[player] + self.speed[player]

    def _check_engraves(self, player: Player, count: int) -> None:
        flags = self.engrave_checked[player]
        for i, checked in enumerate(flags):
            if count and not checked:
                flags[i] = True
                count -= 1

    # -- turn structure -----------------------------------------------------------------------

    def _finish(self, winner: Player | None, reason: str) -> None:
        self.winner = winner
        self.draw = winner is None
        self.reason = reason
        self.phase = "over"
        self.stack.clear()
        self.triggers.clear()
        self._legal = ()
        if self.events is not None:
            self._log("game_over", winner=None if winner is None else player_name(winner), reason=reason)

    def _game_end(self) -> bool:
        """D21.1: both casters at 0 HP loses; both players at once is a draw."""
        out = [all(not self.hp[p][a] for a in (BA1, BA2)) for p in (0, 1)]
        if self.phase == "setup" or not (out[0] or out[1]):
            return False
        self._finish(None if out[0] and out[1] else (1 if out[0] else 0), "hp")
        return True

    def concede(self, player: Player) -> None:
        """A player gives up and loses at once (never offered as a legal action)."""
        if self.phase == "over":
            raise ValueError("the game is over")
        self._finish(1 - player, "concede")


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
    """D4.6: the set-aside cards go to the discard (the spec's ruling) and as many are drawn, then turn 1."""
    draws: list[Frame] = []
    for p in (0, 1):
        draws += [("draw1", p)] * len(s.mull[p])
        if s.events is not None:
            s._log("mulligan", player=player_name(p), cards=[s.cards[i].id for i in s.mull[p]])
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
    """D6.5-D6.6: higher speed is F; ties re-reveal up to three times, then the token decides."""
    speeds = (s.current_speed(0), s.current_speed(1))
    if speeds[0] != speeds[1]:
        first = 0 if speeds[0] > speeds[1] else 1
    elif reveals < TIE_REVEALS and s.deck[0] and s.deck[1]:
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
    """D7.1: F draws 1 and S draws 2 as one step; D7.2: one burst each from the deck."""
    s.phase = "draw"
    first, second = s._order()
    s._then(("draw1", first), ("draw1", second), ("draw1", second), ("draw_bursts",))


def _f_draw_bursts(s: DreadnoughtState) -> None:
    for p in s._order():
        s._deck_to_burst(p)
    s._then(("settle",))


def _f_draw1(s: DreadnoughtState, player: Player) -> None:
    """D20.1, D20.3: an empty deck draws an HP card instead (the player picks the caster)."""
    if s._draw_card(player):
        return
    with_hp = [area for area in (BA1, BA2) if s.hp[player][area]]
    if len(with_hp) == 2:
        s._then(("hpdraw", player))
    elif with_hp:
        _take_hp(s, player, with_hp[0])


def _take_hp(s: DreadnoughtState, player: Player, area: int) -> None:
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
        s.token = 1 - s.first
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
    """D5.5: F's triggers first, in the order F picks, then S's."""
    first, second = s._order()
    player = first if any(t[0] == first for t in s.triggers) else second
    choices = _trigger_choices(s, player)
    if len(choices) > 1:
        s._then(("order", player))
    else:
        _start_trigger(s, choices[0])


def _trigger_choices(s: DreadnoughtState, player: Player) -> list[int]:
    """Indices into the queue of `player`'s triggers, one per different (source card, ability)."""
    seen: set[tuple[str, str]] = set()
    found = []
    for i, (controller, source, ref) in enumerate(s.triggers):
        key = (s.cards[source].id, ref)
        if controller == player and key not in seen:
            seen.add(key)
            found.append(i)
    return found


def _start_trigger(s: DreadnoughtState, index: int) -> None:
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
    elif play.action:
        s._then(("react", 1 - p, 0), ("resolve", play))
    elif play.kind != "upkeep":
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
    args = effect.args
    selector = args.get("target")
    if isinstance(selector, Selector):
        if selector.is_group:
            targets = s.candidates(selector, play.player, play.source)
        else:  # bp filters were read when the target was chosen (D22.6); the rest must still hold (D5.3)
            target = _target_of(s, play, index)
            still = Selector(selector.base, tuple(f for f in selector.filters if f.key != "bp"))
            legal = target != EMPTY and target in s.candidates(still, play.player, play.source)
            targets = [target] if legal else []
        for target in targets:
            _EFFECTS[effect.name](s, play, effect, target)
    else:
        _EFFECTS[effect.name](s, play, effect, EMPTY)
    if s.events is not None:
        s._log("effect", player=player_name(play.player), effect=str(effect))


def _e_damage(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    """D13.2: one instance, less shields, against current BP; damage is never kept."""
    dealt = max(0, effect.args["amount"] - s.shields(obj))  # type: ignore[operator]
    if dealt >= s.bp(obj):
        s._break(obj)


def _e_enchant(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    kind = BOOST if effect.args["kind"] == "boost" else WEAKEN
    s._then(("material", play.player, obj, kind, effect.args["count"]))


def _e_bp_mod(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    s.bp_mod[obj] = s.bp_mod.get(obj, 0) + effect.args["amount"]  # type: ignore[operator]


def _e_attack_mod(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    if s.attacking:
        s.attack_mod += effect.args["amount"]  # type: ignore[operator]


def _e_draw(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    s._then(*[("draw1", play.player)] * effect.args["n"])  # type: ignore[operator]


def _e_burst(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    for _ in range(effect.args["n"]):  # type: ignore[call-overload]
        s._deck_to_burst(play.player)


def _e_engrave(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    s._then(("material", play.player, EMPTY, ENGRAVE, effect.args["n"]))


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
    s._lose_hp(obj, effect.args["n"])  # type: ignore[arg-type]


def _e_hp_gain(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    """D13.6: top deck cards under the caster, no upper limit; an empty deck gives nothing (D20.2)."""
    player = s.owner[obj]
    for _ in range(effect.args["n"]):  # type: ignore[call-overload]
        if s.deck[player]:
            s.hp[player][s.area_of[obj]].append(s.deck[player].pop())


def _e_shield(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    s.shield[obj] = s.shield.get(obj, 0) + effect.args["amount"]  # type: ignore[operator]


def _e_speed_shift(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    s.speed_shift[play.player] += effect.args["steps"]  # type: ignore[operator]


def _e_cost_reduce(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    s.cost_reduction += effect.args["n"]  # type: ignore[operator]


def _e_attach(s: DreadnoughtState, play: Play, effect: Effect, obj: int) -> None:
    """D14.5: the code becomes an open enchant on its target instead of going to the discard."""
    if play.card in s.limbo[play.player]:
        s.limbo[play.player].remove(play.card)
        s.attached.setdefault(obj, []).append(play.card)
        s._statics = None


def _f_material(s: DreadnoughtState, player: Player, host: int, kind: int, count: int) -> None:
    """D14.2, D16.1: each enchant or engrave takes a card of the player's discard, else the deck top."""
    if count <= 0 or (host != EMPTY and not s.on_field(host)):
        return
    discard = s.discard[player]
    if len({s.cards[c].id for c in discard}) > 1:
        s._then(("pick", player, host, kind), ("material", player, host, kind, count - 1))
        return
    if discard:
        card, secret = discard.pop(), False
    elif s.deck[player]:
        card, secret = s.deck[player].pop(), kind != ENGRAVE  # a closed enchant nobody has seen
    else:
        return  # D14.2: nothing to make it from
    s._then(("material", player, host, kind, count - 1))
    _add_material(s, player, host, kind, card, secret=secret)


def _add_material(s: DreadnoughtState, player: Player, host: int, kind: int, card: int, *, secret: bool) -> None:
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
    if _blockers(s):
        s._then(("block", 1 - s.attack_player))
    else:
        _end_attack(s)


def _blockers(s: DreadnoughtState) -> list[int]:
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
    """D10.7 attack damage, D10.8 attack bonus."""
    attackers = [a for a in s.attackers if s.on_field(a)]
    blocker, area, defender = s.blocker, s.attack_area, 1 - s.attack_player
    if attackers and blocker != EMPTY and s.on_field(blocker) and s.area_of[blocker] == area:
        damage = max(0, sum(s.bp(a) for a in attackers) + s.attack_mod)
        dealt = max(0, damage - s.shields(blocker))
        if s.events is not None:
            s._log("attack_damage", player=player_name(s.attack_player), damage=dealt, blocker=s.describe(blocker))
        if s.is_caster(blocker):
            s._lose_hp(blocker, dealt // s.cards[blocker].hp_value)
        elif dealt >= s.bp(blocker):
            s._break(blocker)
            if not s.units[defender][area]:
                s._lose_hp(s.casters[defender][area], 1)
    _end_attack(s)
    s._then(("settle",))


_AUTO: dict[str, Callable[..., None]] = {
    "setup": _f_setup,
    "mull_done": _f_mull_done,
    "turn": _f_turn,
    "speed_phase": _f_speed_phase,
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

_EFFECTS: dict[str, Callable[[DreadnoughtState, Play, Effect, int], None]] = {
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

from cardlab.games.dreadnought.decisions import APPLY as _APPLY  # noqa: E402
from cardlab.games.dreadnought.decisions import OPTIONS as _OPTIONS  # noqa: E402
