"""The Dreadnought rules engine (D4-D21) on the core State protocol.

Every physical card is an instance id; a dummy on the field is a token id (one of four per
player above the cards) whose real card sits, closed, in that player's dummy slots. Zones hold
instance ids (a deck's top card is its last element); per-object dicts hold what only field
objects have (orientation, enchants, modifiers until end of turn).

The rules run as a small interpreter: `stack` holds frames (tuples, top last). Automatic frames
(`frames.AUTO`) do one step of the rules and may push more; a decision frame waits for the player
it names (`decisions.OPTIONS` lists its legal actions, `decisions.APPLY` performs one). Both modules
import this one only for type checking, so the package has no import cycle. Because frames are
plain data, a state clones by copying lists, and a position (with whatever is half done: a payment,
a reaction window, a trigger queue) round-trips through JSON.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from cardlab.core.actions import IndexedAction
from cardlab.core.events import Event, EventLog
from cardlab.core.game import PLAYER_NAMES, Action, HiddenGroup, Outcome, Player, SteppingState, player_name
from cardlab.games.dreadnought.actions import AREAS, SLOTS
from cardlab.games.dreadnought.cards import CardDef, Effect, Selector
from cardlab.games.dreadnought.decisions import APPLY, OPTIONS
from cardlab.games.dreadnought.frames import (
    ACTION_TURN_CAP,
    AREA_UNITS,
    AREA_WEIGHT,
    AUTO,
    BA1,
    BA2,
    BOOST,
    DUMMY_BP,
    DUMMY_SLOTS,
    EMPTY,
    ENCHANT_BP,
    ENGRAVE,
    HAND_LIMIT,
    IDOL_AREA,
    MAX_ENGRAVES,
    OPENING_HAND,
    PHASES,
    TIE_REVEALS,
    TURN_CAP,
    WEAKEN,
    Frame,
    Play,
)

if TYPE_CHECKING:
    from cardlab.games.dreadnought.game import Dreadnought

__all__ = ["ACTION_TURN_CAP", "AREA_UNITS", "AREA_WEIGHT", "BA1", "BA2", "BOOST", "DUMMY_BP", "DUMMY_SLOTS", "EMPTY",
           "ENCHANT_BP", "ENGRAVE", "HAND_LIMIT", "IDOL_AREA", "MAX_ENGRAVES", "OPENING_HAND", "PHASES",
           "POSITION_KEYS", "TIE_REVEALS", "TURN_CAP", "WEAKEN", "DreadnoughtState", "Frame", "Play"]  # fmt: skip
"""The state and, for the modules that read positions, the constants and `Play` of `frames`."""


POSITION_KEYS = ("game", "config", "turn", "phase", "first", "token", "players", "attack", "triggers",
                 "cost_reduction", "stack", "winner", "draw", "reason")  # fmt: skip
"""The top-level fields of a position JSON (`position()`; `Dreadnought.position_keys`, read by `load_position`)."""

_CONTINUATIONS = frozenset({"dest", "move_to", "target", "pay_src", "pay_discard"})
"""Decision kinds that finish the choice the player's previous action began (`continues_decision`)."""


class DreadnoughtState(SteppingState[IndexedAction]):
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

    def legal_actions(self) -> tuple[IndexedAction, ...]:
        """Real choices only (R-D1): each a decision's action of this game's fixed action space (D22.8)."""
        return self._legal

    def current_player(self) -> Player | None:
        if self.phase == "over" or not self.stack:
            return None
        return int(self.stack[-1][1])

    def continues_decision(self) -> bool:
        """A destination or place after a card, its targets, its payment (log sources, discards)."""
        return self.phase != "over" and bool(self.stack) and self.stack[-1][0] in _CONTINUATIONS

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

    def why_illegal(self, action: Action) -> str:
        from cardlab.games.dreadnought.explain import why_illegal

        return why_illegal(self, action) if isinstance(action, IndexedAction) else ""

    def turn_number(self) -> int:
        return self.turn

    def position(self) -> dict[str, Any]:
        from cardlab.games.dreadnought.position import dump_position

        return dump_position(self)

    def observation(self, player: Player | None) -> dict[str, Any]:
        """What `player` may see (None: a spectator), as JSON-able data (D1.5; docs/dreadnought-position.md).

        The position's shape with hidden cards as counts or nulls, unit objects with their derived `bp`
        (D13.1) and `shields` (D13.2), each player's `speed_grade` (D6.2), plus:

        - `viewer`: the seat it is for (None: a spectator);
        - `window`: the decision now pending (a decision frame's kind, `speed_window`, `cast_window` or
          `fast_window` for a sequential window, `over` at the end);
        - `to_move`: the seat that decides now (None once the game is over);
        - `decision`: that decision by name, None once the game is over: `kind` (the decision frame's kind:
          `win`, `dest`, `target`, `aturn`, ...), `player` (the seat deciding) and the frame's data
          (`position.DECISION_DATA`): `phase` of a sequential window (`speed`, `cast`, `fast`, D5.2);
          `play` (the half-done play, as the stack writes plays) for `dest`, `target`, `pay_discard` and
          `pay_src`; `object`, the place of the object being moved (`move_to`) or the idol whose upkeep is
          due (`upkeep_idol`, D19.4); `passes` and `count` of an action turn (D10.2-D10.3); `attackers`
          chosen so far (`abuild`, D10.5, places); `passes` of a reaction right (D10.4); `host` (a place,
          null for an engrave) and `material` (`boost`, `weaken` or `engrave`) of a material pick (D14.2,
          D16.1);
        - `pending_action`: the `ACTION` item (a play) that resolves once its reaction window closes
          (D10.4), else None.

        Every added field is also readable from the public `stack`; nothing hidden is added.
        """
        from cardlab.games.dreadnought.position import dump_observation

        return dump_observation(self, player)

    def open_observation(self) -> dict[str, Any]:
        """The spectator's observation with both hands face up (each `hand` as its owner sees it): what a
        replay shows once the game is over. Never shown while the game runs."""
        data = self.observation(None)
        for p, seat in enumerate(PLAYER_NAMES):
            entry = data["players"][seat]
            entry["hand"] = self.observation(p)["players"][seat]["hand"]
            if "hand_complete" in entry:  # games whose observations mark a partly known hand
                entry["hand_complete"] = True
        return data

    def __str__(self) -> str:
        """A compact multi-line board for developers (the open observation: hands face up; decks, bursts and
        HP stacks as counts), see `render.board_text`."""
        from cardlab.games.dreadnought.render import board_text

        return board_text(self.open_observation())

    def status(self) -> str:
        """'turn 3, P1 to act (window cast_window)', or once over 'turn 7, over: P1 wins (P2's casters have no HP
        left)'."""
        from cardlab.games.dreadnought.position import window_name

        if self.phase == "over":
            from cardlab.core.plugin import outcome_words
            from cardlab.games.dreadnought.words import DRAW_REASONS, WIN_REASONS

            winner = None if self.draw or self.winner is None else player_name(self.winner)
            words = outcome_words(WIN_REASONS, DRAW_REASONS, self.reason, winner)
            return f"turn {self.turn}, over: {'a draw' if winner is None else f'{winner} wins'} ({words})"
        player = self.current_player()
        who = "nobody" if player is None else player_name(player)
        return f"turn {self.turn}, {who} to act (window {window_name(self)})"

    def notation(self) -> str:
        """The one-line position notation (docs/notation.md); `Dreadnought.parse_notation` reads it back."""
        from cardlab.games.dreadnought.notation import dump_notation

        return dump_notation(self)

    def __repr__(self) -> str:
        """`DreadnoughtState('<notation>')`: the notation inside reloads the state (`parse_notation`)."""
        return f"DreadnoughtState({self.notation()!r})"

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
            if effect.name != name:
                continue
            target = effect.args["target"]
            if isinstance(target, Selector) and self._static_applies(obj, target, controller, source):
                total += effect.number("amount")
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
        """D22.6 filters; `bp` filters read current BP (statics' own filters read BP before statics; rule
        bp_filter=printed: printed BP)."""
        card = self.cards[obj]
        for item in selector.filters:
            key, value = item.key, item.value
            if key == "bp":
                if self._game.printed_bp_filters:  # rule bp_filter=printed (D22.6)
                    bp = DUMMY_BP if self.is_dummy(obj) else card.bp
                else:
                    bp = self.bp(obj) if with_statics else self.base_bp(obj)
                if not isinstance(value, int) or not (bp <= value if item.op == "<=" else bp >= value):
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
            handler = AUTO.get(frame[0])
            if handler is None:
                return
            stack.pop()
            handler(self, *frame[1:])

    def _compute_legal(self) -> tuple[IndexedAction, ...]:
        if self.phase == "over" or not self.stack:
            return ()
        frame = self.stack[-1]
        return tuple(OPTIONS[frame[0]](self, *frame[1:]))

    def _do(self, action: Action) -> None:
        frame = self.stack.pop()
        APPLY[frame[0]](self, action, *frame[1:])
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
            if sub is None or inst == exclude or sub.cost.log or sub.cost.discard or sub.cost.engrave:
                continue
            if "PAYMENT" in sub.timing:
                found.append((inst, sum(e.number("n") for e in sub.effects if e.name == "cost_reduce")))
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
