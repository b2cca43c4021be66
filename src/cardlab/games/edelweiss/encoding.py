"""Edelweiss observations as a tensor for learning agents (issue #18; layout in docs/encodings.md).

Only suits matter (E0.3), so cards are counted per suit: the viewer's hand, the opponent's cards it
has seen (Diamond Dust, E2.5), both fields by suit and orientation, the discard pile. The opponent's
hand is a count; the deck's order is never there (the observation does not hold it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardlab.core.encoding import Encoding, Segment, Writer
from cardlab.games.edelweiss.cards import CHARACTERS, Skill, Window
from cardlab.games.edelweiss.variants import RULE_OPTIONS

if TYPE_CHECKING:
    from cardlab.games.edelweiss.game import Edelweiss

SUITS = "SHCD"
WINDOWS = tuple(window.name.lower() for window in Window)
STANDARDS = (None, "symbolic", "accel2")
DEFENSES = (None, "guard", "block", "field_guard")
SKILLS = tuple(Skill)
CARDS = 13.0  # ranks per suit: counts are scaled by it


def make_encoding(game: Edelweiss) -> Encoding:
    """The same layout for every Edelweiss config (deck, standard, characters and rules are inputs)."""
    segments = (
        Segment("viewer", 2, "one-hot: the viewer is P1, P2"),
        Segment("turn_player", 1, "1 when it is the viewer's turn (E3)"),
        Segment("to_move", 1, "1 when the viewer must choose now"),
        Segment("window", len(WINDOWS), f"one-hot window: {', '.join(WINDOWS)}"),
        Segment("turn", 1, "turn number / 50"),
        Segment("deck", 1, "cards left in the deck / 52"),
        Segment("standard", 3, "one-hot standard: none (no skills), Symbolic, Accel 2 (E7.4)"),
        Segment("skills", 8, "skill bits of the viewer, then the opponent: Guardian, Buddy Summoner, Wizard, "
                "Poison Bind (E7.2)"),
        Segment("hand", 4, "the viewer's hand by suit S, H, C, D / 13"),
        Segment("opponent_hand", 1, "cards in the opponent's hand / 13"),
        Segment("opponent_known", 4, "opponent hand cards the viewer has seen (Diamond Dust) by suit / 13"),
        Segment("field", 16, "fields by suit and orientation / 13: viewer S, H, C, D upright then tapped; "
                "opponent the same"),
        Segment("discard", 4, "discard pile by suit / 13"),
        Segment("attack", 1 + len(DEFENSES) + 2, "an attack sequence runs; its defense one-hot (none, guard, block, "
                "field guard); a counter was caused; a pursuit club is chosen (E5)"),
        Segment("rules", sum(len(option.values) for option in RULE_OPTIONS), "one-hot per rule option, in "
                "`cardlab rules edelweiss` order: " + ", ".join(option.name for option in RULE_OPTIONS)),
    )  # fmt: skip
    return Encoding("edelweiss", segments, _fill)


def _suit(card: str) -> int:
    return SUITS.index(card.split(":")[0][-1])


def _fill(view: Mapping[str, Any], out: Writer) -> None:
    viewer = view["player"]
    if viewer not in ("P1", "P2"):
        raise ValueError("an Edelweiss tensor is a seat's view: observation(player) for P1 or P2")
    other = "P2" if viewer == "P1" else "P1"
    out.one_hot("viewer", ("P1", "P2"), viewer)
    out.set("turn_player", 0, float(view["turn_player"] == viewer))
    out.set("to_move", 0, float(view.get("to_move") == viewer))
    out.one_hot("window", WINDOWS, view["window"])
    out.set("turn", 0, min(view["turn"], 50) / 50.0)
    out.set("deck", 0, view["deck_size"] / 52.0)
    config = view["config"]
    out.one_hot("standard", STANDARDS, config.get("standard"))
    characters = config.get("characters") or {}
    for offset, seat in ((0, viewer), (4, other)):
        char_id = characters.get(seat)
        if char_id is not None:
            skills = CHARACTERS[char_id].skills
            for index, skill in enumerate(SKILLS):
                out.set("skills", offset + index, float(bool(skills & skill)))
    players = view["players"]
    for card in players[viewer]["hand"]:
        out.add("hand", _suit(card), 1 / CARDS)
    out.set("opponent_hand", 0, players[other]["hand_size"] / CARDS)
    for card in players[other]["hand"]:  # only the cards the viewer has seen are listed
        out.add("opponent_known", _suit(card), 1 / CARDS)
    for offset, seat in ((0, viewer), (8, other)):
        for entry in players[seat]["field"]:
            out.add("field", offset + 4 * entry.endswith(":T") + _suit(entry), 1 / CARDS)
    for card in view["discard"]:
        out.add("discard", _suit(card), 1 / CARDS)
    attack = view.get("attack")
    if attack:
        out.set("attack", 0)
        out.set("attack", 1 + DEFENSES.index(attack["defense"]))
        out.set("attack", 1 + len(DEFENSES), float(bool(attack["counter"])))
        out.set("attack", 2 + len(DEFENSES), float(attack["pursuit_club"] is not None))
    rules = config.get("rules") or {}
    start = 0
    for option in RULE_OPTIONS:
        out.set("rules", start + option.values.index(rules.get(option.name, option.default)))
        start += len(option.values)
