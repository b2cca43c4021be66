"""Dreadnought's observation tensor (issue #18): one seat's observation as a fixed-size float32 vector.

`make_encoding(game)` lays out named segments (`cardlab.core.encoding`); the table is in
docs/encodings.md (section *Dreadnought*). The tensor is read from the observation dict alone
(`DreadnoughtState.observation`, docs/dreadnought-position.md), never from the state, so it holds no
card the viewer may not know: the opponent's hand, gear and mulligan, every deck, HP cards and bursts,
a closed dummy's real card and secret enchant materials are counts or blanks there, and so here.

Seats are **relative**: every `me.*` segment is the viewer's, every `opp.*` segment the opponent's
(a spectator's tensor puts P1 first), and whatever names a seat (to move, first player, token,
attacker, trigger controller, enchant placer) says "me" or "opponent"; `viewer` gives the absolute
seat. A field object is found by its place, one of 14: the first seat's `SLOTS` (BA1.C ... IDOL)
then the other's. Card ids are indexed in the order of `game.card_set` (the packaged D23 set, then
the config's card files), so the size follows the config's card set. Counts are scaled to roughly
[0, 1] by the constants below (a value may exceed 1 in a rare position, and `bp_mod` may be negative).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardlab.core.encoding import Encoding, Segment, Writer
from cardlab.core.game import PLAYER_NAMES
from cardlab.games.dreadnought.actions import AREAS, DESTINATIONS, SLOTS
from cardlab.games.dreadnought.cards import CARD_TYPES, MAX_COPIES, SIZES, SPEEDS
from cardlab.games.dreadnought.frames import (
    ACTION_TURN_CAP,
    MAX_ENGRAVES,
    OPENING_HAND,
    PHASES,
    TURN_CAP,
)
from cardlab.games.dreadnought.game import DUMMY_CARD
from cardlab.games.dreadnought.position import _PLAY_KINDS, _WINDOWS, DECISION_DATA

if TYPE_CHECKING:
    from cardlab.games.dreadnought.game import Dreadnought

WINDOWS: tuple[str, ...] = (
    *(f"{phase}_window" for phase in _WINDOWS),
    *(kind for kind in DECISION_DATA if kind != "win"),
    "over",
)
"""Every `window` an observation names (`position.window_name`; the renderer's `WINDOW_NAMES`)."""
PLAY_KINDS: tuple[str, ...] = _PLAY_KINDS
MATERIALS = ("boost", "weaken", "engrave")
REASONS = ("hp", "turn_limit", "concede")
PLACES = 2 * len(SLOTS)
"""Field places: the first seat's 7 slots, then the other seat's."""

# scales: a count divided by its usual maximum
DECK_SCALE = 50.0  # D3: a deck's 50 cards
HAND_SCALE = 10.0  # above the hand limit of 7 (D11.2), which only the end phase enforces
SPEED_SCALE = 10.0
HP_SCALE = 5.0  # casters start with 3 or 4 HP (D23.1)
BURST_SCALE = 10.0
BP_SCALE = 200.0  # the largest printed BP of the sample set
MOD_SCALE = 100.0  # bp_mod, shield, attack_mod amounts
LOG_SCALE = 5.0
TRIGGER_SCALE = 8.0
TARGET_SCALE = 3.0
SHIFT_SCALE = 3.0

COUNT_FIELDS: tuple[tuple[str, float], ...] = (
    ("deck", DECK_SCALE),
    ("hand", HAND_SCALE),
    ("known_hand", HAND_SCALE),
    ("discard", DECK_SCALE),
    ("speed", SPEED_SCALE),
    ("gear", 1.0),
    ("mulligan", float(OPENING_HAND)),
    ("limbo", 4.0),
    ("placement", 2.0),
)
"""The entries of `me.counts` / `opp.counts`: each zone's size (a list's length or the count the
observation gives), over its scale."""
CARD_ZONES = ("hand", "known_hand", "discard", "speed", "gear", "mulligan", "limbo", "placement")
"""Zones with a `<zone>_cards` segment per seat: copies of each card id where the observation lists the
cards (all zeros where it gives only a count), over MAX_COPIES."""

SLOT_FEATURES: tuple[str, ...] = (
    "occupied",
    "card_known",  # the card id is shown (false only for a closed dummy the viewer may not know)
    "dummy",
    "dummy_known",  # a dummy whose real card the opponent knows (it was cast from the open speed area)
    "checked",
    *(f"type_{kind}" for kind in CARD_TYPES),
    *(f"size_{size}" for size in SIZES),
    "bp",  # the current BP the observation derives (D13.1), / BP_SCALE; 0 for a caster
    "printed_bp",  # / BP_SCALE
    "bp_mod",  # / MOD_SCALE, may be negative
    "speed",  # the printed speed's index (C = 0 ... A+++ = 5) / 5
    "cost",  # / LOG_SCALE
    "upkeep",  # / LOG_SCALE
    "hp",  # a caster's printed HP / HP_SCALE
    "boosts_by_me",  # enchants under it (D14.2), by type and placer, / MAX_COPIES
    "boosts_by_opp",
    "weakens_by_me",
    "weakens_by_opp",
    "attached",  # codes attached to it (D14.5), / MAX_COPIES
    "shield",  # the stored shield until end of turn, / MOD_SCALE
    "shields",  # the derived shields, statics included (D13.2), / MOD_SCALE
    "moved",
    "has_arms",
)
"""The first entries of every slot segment; the arms one-hot (over the card set's arms) and the card
one-hot (over every card id) follow. A dummy's type, size and printed values are the dummy token's
(unit, S, BP 50, D15.1); its card one-hot is its real card when the observation shows it."""

PLAY_FEATURES: tuple[str, ...] = (
    "present",
    *(f"kind_{kind}" for kind in PLAY_KINDS),
    "by_me",
    "by_opp",
    "log",  # log still to pay, / LOG_SCALE
    "discard",  # discards still to pay, / TARGET_SCALE
    "action",  # an ACTION item (D10.4)
    *(f"dest_{dest}" for dest in DESTINATIONS),
    "open_targets",  # targets chosen that are no field place (none was legal, or it left), / TARGET_SCALE
)
"""The first entries of a play segment (the decision's half-done play, the pending ACTION item); then
its source's place (14), its targets' places (14, multi-hot) and its card id (one-hot): the card of its
`ref`, or for a cast, arms or upkeep play without one, the played card in limbo."""


def _place_index(place: Any, order: Sequence[str]) -> int | None:
    """The index (0-13) of a field place `P1:BA1.U1` in the tensor's seat order; None for a card in a zone
    (`P2:limbo:0`) or no place."""
    if not isinstance(place, str):
        return None
    seat, _, where = place.partition(":")
    if where not in SLOTS:
        return None
    return order.index(seat) * len(SLOTS) + SLOTS.index(where)


def _ref_card(ref: str) -> str:
    """The card id of an ability reference: `C:<id>`, `A:<id>:<i>`, `G:<id>:<i>` or `S:<id>`."""
    return ref.split(":")[1]


def make_encoding(game: Dreadnought) -> Encoding:
    """The observation tensor for `game`'s configuration (its card set fixes the size)."""
    card_ids = list(game.card_set.by_id)
    card_index = {card_id: i for i, card_id in enumerate(card_ids)}
    arms_ids = [card.id for card in game.card_set.by_id.values() if card.type == "arms"]
    n_cards, n_arms = len(card_ids), len(arms_ids)
    slot_size = len(SLOT_FEATURES) + n_arms + n_cards
    play_size = len(PLAY_FEATURES) + 2 * PLACES + n_cards
    feature = {name: i for i, name in enumerate(SLOT_FEATURES)}
    play_feature = {name: i for i, name in enumerate(PLAY_FEATURES)}

    def card_of(card_id: str) -> int:
        try:
            return card_index[card_id]
        except KeyError:
            raise KeyError(f"dreadnought encoding: card {card_id!r} is not in the game's card set") from None

    play_parts = f"{len(PLAY_FEATURES)} PLAY_FEATURES, source place (14), target places (14), card one-hot ({n_cards})"
    places = "the first seat's BA1.C, BA1.U1, BA1.U2, BA2.C, BA2.U1, BA2.U2, IDOL, then the other seat's"
    segments = [
        Segment("viewer", 2, "the viewer's absolute seat, one-hot P1, P2 (zeros for a spectator)"),
        Segment("to_move", 2, "who decides now: me, opponent (zeros once the game is over)"),
        Segment("phase", len(PHASES), f"phase one-hot: {', '.join(PHASES)}"),
        Segment("window", len(WINDOWS), f"the decision pending, one-hot: {', '.join(WINDOWS)}"),
        Segment("turn", 1, f"the turn counter (D11.6) / {TURN_CAP}"),
        Segment("first", 2, "this turn's first player F (D6.5): me, opponent (zeros until decided)"),
        Segment("token", 2, "the tiebreak token holder (D4.7): me, opponent"),
        Segment("outcome", 3, "once over: I won, the opponent won, a draw"),
        Segment("reason", len(REASONS), f"once over, why, one-hot: {', '.join(REASONS)}"),
        Segment("cost_reduction", 1, f"log still taken off the code being paid (D18.3) / {LOG_SCALE:g}"),
        Segment("attack", 1, "an attack is in progress (D10.5-D10.7)"),
        Segment("attack.player", 2, "the attacking seat: me, opponent"),
        Segment("attack.area", len(AREAS), "the attacked battle area: BA1, BA2"),
        Segment("attack.attackers", PLACES, f"attackers by place ({places}), multi-hot"),
        Segment("attack.attackers_gone", 1, "attackers that left the field / 4"),
        Segment("attack.blocker", PLACES, "the blocker's place, one-hot (zeros until chosen or once it left)"),
        Segment("attack.mod", 1, f"the sum of attack_mod amounts so far / {MOD_SCALE:g}"),
        Segment("triggers", 2, f"triggered abilities waiting (D5.5), by controller me, opponent, / {TRIGGER_SCALE:g}"),
        Segment("triggers.sources", PLACES, "waiting triggers by their source's field place, counts / 4"),
        Segment("triggers.cards", n_cards, "waiting triggers by the card id of their ability, counts / 4"),
        Segment("decision.passes", 1, "an action turn's or reaction right's `passes` (D10.3, D10.4)"),
        Segment("decision.count", 1, f"an action turn's `count` (D10.3) / {ACTION_TURN_CAP}"),
        Segment("decision.material", len(MATERIALS), f"a material pick's kind: {', '.join(MATERIALS)}"),
        Segment("decision.object", PLACES, "the object being moved (move_to) or whose upkeep is due, by place"),
        Segment("decision.host", PLACES, "a material pick's host, by place (zeros for an engrave)"),
        Segment("decision.attackers", PLACES, "the attackers chosen so far (abuild), multi-hot by place"),
        Segment("decision.play", play_size, f"the decision's half-done play (dest, target, pay_*): {play_parts}"),
        Segment(
            "pending_action",
            play_size,
            f"the ACTION item that resolves after its reaction window (D10.4): {play_parts}",
        ),
    ]
    counts = ", ".join(f"{zone} / {scale:g}" for zone, scale in COUNT_FIELDS)
    slot_parts = f"{len(SLOT_FEATURES)} SLOT_FEATURES, arms one-hot ({n_arms}), card one-hot ({n_cards})"
    for prefix, whose in (("me", "my"), ("opp", "the opponent's")):
        segments += [
            Segment(f"{prefix}.counts", len(COUNT_FIELDS), f"{whose} zone sizes: {counts}"),
            Segment(f"{prefix}.hp", len(AREAS), f"{whose} HP cards under the BA1, BA2 casters (D2.4) / {HP_SCALE:g}"),
            Segment(f"{prefix}.bursts", 2, f"{whose} bursts (D12.2): normal, checked, / {BURST_SCALE:g}"),
            Segment(f"{prefix}.engraves", 2, f"{whose} engraves (D16): normal, checked, / {MAX_ENGRAVES}"),
            Segment(f"{prefix}.engrave_cards", n_cards, f"{whose} engraves by card id / {MAX_ENGRAVES}"),
            Segment(
                f"{prefix}.speed_grade",
                len(SPEEDS) + 1,
                f"{whose} current speed (D6.2), one-hot: none, {', '.join(SPEEDS)}",
            ),
            Segment(f"{prefix}.speed_shift", 1, f"{whose} speed_shift steps this turn (D6.2) / {SHIFT_SCALE:g}"),
            Segment(f"{prefix}.geared", 1, f"{whose} gear change made this turn (D6.3)"),
        ]
        segments += [
            Segment(f"{prefix}.{zone}_cards", n_cards, f"{whose} {zone} by card id, where listed, / {MAX_COPIES}")
            for zone in CARD_ZONES
        ]
        segments += [Segment(f"{prefix}.{slot}", slot_size, f"{whose} {slot} object: {slot_parts}") for slot in SLOTS]

    def fill(observation: Mapping[str, Any], out: Writer) -> None:
        viewer = observation["viewer"]
        order = (viewer, PLAYER_NAMES[1 - PLAYER_NAMES.index(viewer)]) if viewer is not None else PLAYER_NAMES

        def seat(name: str | None, segment: str) -> None:
            if name is not None:
                out.set(segment, order.index(name))

        def place(value: Any, segment: str, amount: float = 1.0) -> bool:
            index = _place_index(value, order)
            if index is not None:
                out.add(segment, index, amount)
            return index is not None

        def zone_card(value: Any) -> str | None:
            """The card id at a zone place (`P1:limbo:0`) where the observation lists that zone."""
            if not isinstance(value, str):
                return None
            seat_name, _, where = value.partition(":")
            zone, _, index = where.partition(":")
            cards = observation["players"][seat_name].get(zone)
            if not index.isdigit() or not isinstance(cards, list) or int(index) >= len(cards):
                return None
            card_id: str = cards[int(index)]
            return card_id

        def play(data: Mapping[str, Any] | None, segment: str) -> None:
            if data is None:
                return
            at = play_feature
            out.set(segment, at["present"])
            out.set(segment, at[f"kind_{data['kind']}"])
            out.set(segment, at["by_me"] if order.index(data["player"]) == 0 else at["by_opp"])
            out.set(segment, at["log"], data["log"] / LOG_SCALE)
            out.set(segment, at["discard"], data["discard"] / TARGET_SCALE)
            out.set(segment, at["action"], float(data["action"]))
            if data["dest"] is not None:
                out.set(segment, at[f"dest_{data['dest']}"])
            start = len(PLAY_FEATURES)
            source = _place_index(data["source"], order)
            if source is not None:
                out.set(segment, start + source)
            for target in data["targets"]:
                index = _place_index(target, order)
                if index is None:
                    out.add(segment, at["open_targets"], 1 / TARGET_SCALE)
                else:
                    out.set(segment, start + PLACES + index)
            card_id = _ref_card(data["ref"]) if data["ref"] else zone_card(data["card"])
            if card_id is not None:
                out.set(segment, start + 2 * PLACES + card_of(card_id))

        def slot(obj: Mapping[str, Any] | None, segment: str, caster: bool) -> None:
            if obj is None:
                return
            at = feature
            out.set(segment, at["occupied"])
            out.set(segment, at["checked"], float(obj["checked"]))
            card_id = obj["card"]
            dummy = not caster and bool(obj["dummy"])
            printed = DUMMY_CARD if dummy else game.card_set[card_id]
            if card_id is not None:
                out.set(segment, at["card_known"])
                out.set(segment, len(SLOT_FEATURES) + n_arms + card_of(card_id))
            if dummy:
                out.set(segment, at["dummy"])
                out.set(segment, at["dummy_known"], float(obj["known"]))
            out.set(segment, at[f"type_{printed.type}"])
            if printed.size:
                out.set(segment, at[f"size_{printed.size}"])
            out.set(segment, at["printed_bp"], printed.bp / BP_SCALE)
            if printed.speed:
                out.set(segment, at["speed"], SPEEDS.index(printed.speed) / (len(SPEEDS) - 1))
            out.set(segment, at["cost"], printed.cost / LOG_SCALE)
            out.set(segment, at["upkeep"], printed.upkeep / LOG_SCALE)
            out.set(segment, at["hp"], printed.hp / HP_SCALE)
            out.set(segment, at["shield"], obj["shield"] / MOD_SCALE)
            if caster:
                if obj["arms"] is not None:
                    out.set(segment, at["has_arms"])
                    out.set(segment, len(SLOT_FEATURES) + arms_ids.index(obj["arms"]))
                return
            out.set(segment, at["bp"], obj["bp"] / BP_SCALE)
            out.set(segment, at["bp_mod"], obj["bp_mod"] / MOD_SCALE)
            out.set(segment, at["shields"], obj["shields"] / MOD_SCALE)
            out.set(segment, at["moved"], float(obj["moved"]))
            out.set(segment, at["attached"], len(obj["attached"]) / MAX_COPIES)
            for enchant in obj["enchants"]:
                mine = order.index(enchant["owner"]) == 0
                name = f"{enchant['kind']}s_by_{'me' if mine else 'opp'}"
                out.add(segment, at[name], 1 / MAX_COPIES)

        out.one_hot("viewer", PLAYER_NAMES, viewer)
        seat(observation["to_move"], "to_move")
        out.one_hot("phase", PHASES, observation["phase"])
        out.one_hot("window", WINDOWS, observation["window"])
        out.set("turn", 0, observation["turn"] / TURN_CAP)
        seat(observation["first"], "first")
        seat(observation["token"], "token")
        if observation["winner"] is not None:
            out.set("outcome", order.index(observation["winner"]))
        elif observation["draw"]:
            out.set("outcome", 2)
        if observation["reason"]:
            out.one_hot("reason", REASONS, observation["reason"])
        out.set("cost_reduction", 0, observation["cost_reduction"] / LOG_SCALE)

        attack = observation["attack"]
        if attack is not None:
            out.set("attack", 0)
            seat(attack["player"], "attack.player")
            out.one_hot("attack.area", AREAS, attack["area"])
            for attacker in attack["attackers"]:
                if not place(attacker, "attack.attackers"):
                    out.add("attack.attackers_gone", 0, 0.25)
            place(attack["blocker"], "attack.blocker")
            out.set("attack.mod", 0, attack["mod"] / MOD_SCALE)
        for trigger in observation["triggers"]:
            out.add("triggers", order.index(trigger["player"]), 1 / TRIGGER_SCALE)
            place(trigger["source"], "triggers.sources", 0.25)
            out.add("triggers.cards", card_of(_ref_card(trigger["ability"])), 0.25)

        decision = observation["decision"] or {}
        if "passes" in decision:
            out.set("decision.passes", 0, float(decision["passes"]))
        if "count" in decision:
            out.set("decision.count", 0, decision["count"] / ACTION_TURN_CAP)
        if "material" in decision:
            out.one_hot("decision.material", MATERIALS, decision["material"])
        place(decision.get("object"), "decision.object")
        place(decision.get("host"), "decision.host")
        for attacker in decision.get("attackers", ()):
            place(attacker, "decision.attackers")
        play(decision.get("play"), "decision.play")
        play(observation["pending_action"], "pending_action")

        for prefix, name in zip(("me", "opp"), order, strict=True):
            data = observation["players"][name]
            sizes = [(data[zone] if isinstance(data[zone], int) else len(data[zone])) / s for zone, s in COUNT_FIELDS]
            out.values(f"{prefix}.counts", sizes)
            out.values(f"{prefix}.hp", [data[area]["hp"] / HP_SCALE for area in AREAS])
            for pile, scale in (("bursts", BURST_SCALE), ("engraves", float(MAX_ENGRAVES))):
                checked = sum(1 for entry in data[pile] if entry["checked"])
                out.values(f"{prefix}.{pile}", [(len(data[pile]) - checked) / scale, checked / scale])
            for entry in data["engraves"]:
                out.add(f"{prefix}.engrave_cards", card_of(entry["card"]), 1 / MAX_ENGRAVES)
            out.set(f"{prefix}.speed_grade", data["speed_grade"] + 1)
            out.set(f"{prefix}.speed_shift", 0, data["speed_shift"] / SHIFT_SCALE)
            out.set(f"{prefix}.geared", 0, float(data["geared"]))
            for zone in CARD_ZONES:
                if not isinstance(data[zone], int):
                    for card_id in data[zone]:
                        out.add(f"{prefix}.{zone}_cards", card_of(card_id), 1 / MAX_COPIES)
            for area in AREAS:
                slot(data[area]["caster"], f"{prefix}.{area}.C", caster=True)
                for i, unit in enumerate(data[area]["units"]):
                    slot(unit, f"{prefix}.{area}.U{i + 1}", caster=False)
            slot(data["idol"], f"{prefix}.IDOL", caster=False)

    return Encoding("dreadnought", tuple(segments), fill)


__all__ = ["COUNT_FIELDS", "PLAY_FEATURES", "SLOT_FEATURES", "WINDOWS", "make_encoding"]
