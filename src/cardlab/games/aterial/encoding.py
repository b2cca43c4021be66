"""Aterial's observation tensor for learning agents (issue #18; layout: docs/encodings.md).

The tensor is computed from the observation dict alone (`state.observation(player)`, A18.4), so it
holds nothing the player may not know, and every state of one information set gives the same one.
Static card data (cost, dominance, abilities, races) is read from the config's card set by card id:
public for both seats.

Egocentric: "own" is the viewer (`observation["player"]`; P1 for a spectator), "opp" the other seat;
`viewer` says which seat that is. Only the viewer's own hand is encoded, as counts per card id, never
the opponent's (not even from an open replay observation), and no deck order. The layout follows the
card set (extra card files, patches), so the size is fixed for one config: per-card entries follow
`game.card_set` order (file order, packaged cards first).

Field blocks are square-major: 12 equal blocks (own F0 F1 F2 B0 B1 B2, then opp F0 .. B2), each
`unit`, `card`, `abilities`, `races`, so `vector[start : start + 12 * block].reshape(12, block)` is a
per-square feature matrix.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cardlab.core.encoding import Encoding, Segment, Writer
from cardlab.core.game import PLAYER_NAMES
from cardlab.games.aterial.board import SQUARE_INDEX, SQUARE_NAMES
from cardlab.games.aterial.cards import ABILITY_KINDS, DECK_SIZE, MAX_COPIES
from cardlab.games.aterial.state import WINDOWS

if TYPE_CHECKING:
    from cardlab.games.aterial.game import Aterial

SIDES = ("own", "opp")
TURN_SCALE = 2 * DECK_SIZE
"""Turns are scaled by 60: each player draws once a turn from a 30-card deck (A5, A9), so games end by then."""
HAND_SCALE = 10
"""Hand sizes are scaled by 10 (the limit is 6 at end of turn, A13.2; a hand may hold more meanwhile)."""
MOVE_SCALE = 2
"""Moves made this move phase: 1, or 2 with `nimble` (A10, A17.12)."""
TRIGGER_SCALE = 4
PENDING_ABILITIES = ("tap_snipe", "hand_rally", "deploy_strike")
"""The abilities that wait for a target (windows `ability_target`, `trigger_target`)."""
TRIGGERED_KEYS = tuple(key for key, kind in ABILITY_KINDS.items() if kind == "triggered")
REASONS = ("lp", "deck_out", "simultaneous_loss", "concede")
UNIT_FEATURES = (
    "occupied",
    "leader",
    "ready",
    "moves",
    "devoured",
    "cost",
    "dominance",
    "attack",
    "printed_attack",
    "hp",
    "damage",
    "hp_left",
    "attack_bonus",
    "supply",
    *(f"attacks_{square}" for square in SQUARE_NAMES),
)


def _slots() -> list[str]:
    return [f"{side}.{square}" for side in SIDES for square in SQUARE_NAMES]


def make_encoding(game: Aterial) -> Encoding:
    """The fixed-size tensor of one seat's Aterial observation, for `game`'s config (its card set)."""
    cards = game.card_set.cards
    card_ids = list(cards)
    subordinates = [card.id for card in game.card_set.subordinates()]
    sub_index = {card_id: index for index, card_id in enumerate(subordinates)}
    card_index = {card_id: index for index, card_id in enumerate(card_ids)}
    races = sorted({race for card in cards.values() for race in card.races})
    keys = list(ABILITY_KINDS)
    # Scales: the packaged set's largest values, or the card set's when patches or extra cards exceed them.
    cost_scale = max(6, *(card.cost for card in cards.values()))
    stat_scale = max(8, *(max(card.attack, card.hp) for card in cards.values()))
    n_sub, n_cards = len(subordinates), len(card_ids)
    ends = f": {subordinates[0]} .. {subordinates[-1]}" if subordinates else ""
    sub_order = f"one entry per subordinate card id in card-set order ({n_sub}{ends})"

    segments: list[Segment] = [
        Segment("viewer", 2, "whose view it is: P1, P2 (both 0 for a spectator, who is seen as P1)"),
        Segment("to_move", 2, "who must choose now: own, opp (both 0 once the game is over)"),
        Segment("active", 2, "the active player (A0.3): own, opp"),
        Segment("first", 2, "who took turn 1: own, opp"),
        Segment("window", len(WINDOWS), f"one-hot decision window: {', '.join(WINDOWS)}"),
        Segment("turn", 1, f"turn number / {TURN_SCALE} (0 during the mulligans)"),
        Segment("lp", 2, "LP / the starting LP of that player's leader: own, opp (may be <= 0 at the end)"),
        Segment("deck_size", 2, f"cards in deck / {DECK_SIZE}: own, opp"),
        Segment("hand_size", 2, f"cards in hand / {HAND_SCALE}: own, opp"),
        Segment("discard_size", 2, f"cards in discard / {DECK_SIZE}: own, opp"),
        Segment("removed_size", 2, f"cards removed from the game / {DECK_SIZE}: own, opp"),
        Segment("hand", n_sub, f"the viewer's own hand, copies / {MAX_COPIES}; {sub_order}; 0 for a spectator"),
    ]
    for side in SIDES:
        for zone in ("discard", "removed"):
            segments.append(Segment(f"{side}.{zone}", n_sub, f"{side} {zone} pile, copies / {MAX_COPIES}; {sub_order}"))
    unit_meaning = (
        f"{', '.join(UNIT_FEATURES)}: flags (occupied, leader, ready = not yet acted, devour used), "
        f"moves this move phase / {MOVE_SCALE}, printed cost and dominance / {cost_scale}, effective and printed "
        f"attack, effective HP (subordinates), damage, HP left and attack bonus / {stat_scale}; supply: dominance "
        f"its neighbours supply to this square when empty (A11.2) / {cost_scale}; attacks_*: the enemy squares the "
        "unit may attack now (A12.3-A12.4)"
    )
    for slot in _slots():
        segments += [
            Segment(f"{slot}.unit", len(UNIT_FEATURES), unit_meaning),
            Segment(f"{slot}.card", n_cards, f"one-hot card id of the unit, card-set order ({n_cards} cards)"),
            Segment(f"{slot}.abilities", len(keys), f"the unit's printed ability keys (A17): {', '.join(keys)}"),
            Segment(f"{slot}.races", len(races), f"the unit's printed races: {', '.join(races)}"),
        ]
    slots_meaning = "own F0 F1 F2 B0 B1 B2, then opp F0 .. B2"
    segments += [
        Segment("pending.unit", 12, f"the unit chosen to move or attack, or the attacker at block: {slots_meaning}"),
        Segment("pending.target", 12, f"the attack target awaiting the block decision: {slots_meaning}"),
        Segment("pending.side", 1, "1 if the pending attack is a side attack (block window)"),
        Segment("pending.card", n_sub, f"the card chosen to deploy (deploy_to); {sub_order}"),
        Segment(
            "pending.ability", len(PENDING_ABILITIES), f"ability awaiting a target: {', '.join(PENDING_ABILITIES)}"
        ),
        Segment("pending.amount", 1, f"its amount / {stat_scale}"),
        Segment(
            "triggers",
            2 * len(TRIGGERED_KEYS),
            f"waiting triggers / {TRIGGER_SCALE} per controller (own, opp) and key: {', '.join(TRIGGERED_KEYS)}",
        ),
        Segment("winner", 2, "the winner once over: own, opp"),
        Segment("draw", 1, "1 if the game ended in a draw"),
        Segment("reason", len(REASONS), f"one-hot end reason: {', '.join(REASONS)}"),
    ]

    def slot_of(seat_square: str, seats: Sequence[str]) -> int:
        seat, square = seat_square.split(":")
        return seats.index(seat) * 6 + SQUARE_INDEX[square]

    def fill(observation: Mapping[str, Any], writer: Writer) -> None:
        viewer = observation.get("player")
        own = viewer if viewer is not None else PLAYER_NAMES[0]
        seats = (own, PLAYER_NAMES[1 - PLAYER_NAMES.index(own)])
        writer.one_hot("viewer", PLAYER_NAMES, viewer)
        writer.one_hot("to_move", seats, observation.get("to_move"))
        writer.one_hot("active", seats, observation["active"])
        writer.one_hot("first", seats, observation["first"])
        writer.one_hot("window", WINDOWS, observation["window"])
        writer.set("turn", 0, observation["turn"] / TURN_SCALE)
        players = observation["players"]
        for index, (side, seat) in enumerate(zip(SIDES, seats, strict=True)):
            entry = players[seat]
            field = entry["field"]
            leader = next(
                cards[u["card"]] for u in field.values() if u is not None and cards[u["card"]].type == "leader"
            )
            writer.set("lp", index, entry["lp"] / leader.lp)
            writer.set("deck_size", index, entry["deck_size"] / DECK_SIZE)
            writer.set("hand_size", index, entry["hand_size"] / HAND_SCALE)
            writer.set("discard_size", index, len(entry["discard"]) / DECK_SIZE)
            writer.set("removed_size", index, len(entry["removed"]) / DECK_SIZE)
            if seat == viewer and entry["hand"] is not None:  # never another seat's hand
                for card_id in entry["hand"]:
                    writer.add("hand", sub_index[card_id], 1 / MAX_COPIES)
            for zone in ("discard", "removed"):
                for card_id in entry[zone]:
                    writer.add(f"{side}.{zone}", sub_index[card_id], 1 / MAX_COPIES)
            supply = entry["supply"]
            for square in SQUARE_NAMES:
                slot = f"{side}.{square}"
                unit = field[square]
                if unit is None:
                    writer.set(f"{slot}.unit", UNIT_FEATURES.index("supply"), supply[square] / cost_scale)
                    continue
                card = cards[unit["card"]]
                hp = unit.get("hp", 0)
                values = [
                    1.0,
                    float(card.type == "leader"),
                    float(unit["ready"]),
                    unit["moves"] / MOVE_SCALE,
                    float(unit["devoured"]),
                    card.cost / cost_scale,
                    card.dominance / cost_scale,
                    unit["attack"] / stat_scale,
                    card.attack / stat_scale,
                    hp / stat_scale,
                    unit["damage"] / stat_scale,
                    max(0, hp - unit["damage"]) / stat_scale,
                    unit["attack_bonus"] / stat_scale,
                    0.0,
                ]
                targets = [0.0] * 6
                for target in unit["attack_targets"]:
                    targets[SQUARE_INDEX[target.split(":")[1]]] = 1.0
                writer.values(f"{slot}.unit", values + targets)
                writer.set(f"{slot}.card", card_index[card.id])
                for ability in card.abilities:
                    writer.set(f"{slot}.abilities", keys.index(ability.key))
                for race in card.races:
                    writer.set(f"{slot}.races", races.index(race))
        pending = observation["pending"]
        if pending is not None:
            if "square" in pending:  # a square of the active player's
                writer.set("pending.unit", seats.index(observation["active"]) * 6 + SQUARE_INDEX[pending["square"]])
            elif "card" in pending:
                writer.set("pending.card", sub_index[pending["card"]])
            elif "ability" in pending:
                writer.one_hot("pending.ability", PENDING_ABILITIES, pending["ability"])
                writer.set("pending.amount", 0, pending["amount"] / stat_scale)
            else:
                writer.set("pending.unit", slot_of(pending["attacker"], seats))
                writer.set("pending.target", slot_of(pending["target"], seats))
                writer.set("pending.side", 0, float(pending["side"]))
        for trigger in observation["triggers"]:
            index = seats.index(trigger["player"]) * len(TRIGGERED_KEYS) + TRIGGERED_KEYS.index(trigger["ability"])
            writer.add("triggers", index, 1 / TRIGGER_SCALE)
        writer.one_hot("winner", seats, observation.get("winner"))
        writer.set("draw", 0, float(bool(observation.get("draw"))))
        writer.one_hot("reason", REASONS, observation.get("reason"))

    return Encoding(game.name, tuple(segments), fill)
