"""Dreadnought decisions (D22.8) as a fixed action space built from the card set.

Compound choices are sequences of small decisions, so every agent works and a legal mask of
fixed size exists: `PLAY R05` then `TARGET P2:BA1.U1` then `PAY BURST`; `CAST R02` then
`TO BA1` then `PAY BA2`; `ATTACKER BA1.U1`, `ATTACKER BA2.U1`, then `ATTACK BA2`. A dummy
names its area in the same action (`DUMMY G04@S BA2`), so its closed card never waits anywhere.
Slots without a seat (`BA1.U1`) are the acting player's own; targets name the seat. A card
in the speed area is written with `@S` (`CAST Y04@S`), one in hand without. `DreadnoughtActions.decode`
gives an action's parts by name (`Decoded`), so that nothing needs to split action texts.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardlab.core.actions import ActionSpace, IndexedAction

SLOTS = ("BA1.C", "BA1.U1", "BA1.U2", "BA2.C", "BA2.U1", "BA2.U2", "IDOL")
"""Every object place of one player: the caster and two unit slots per battle area, the idol area."""
UNIT_SLOTS = ("BA1.U1", "BA1.U2", "BA2.U1", "BA2.U2")
AREAS = ("BA1", "BA2")
DESTINATIONS = ("BA1", "BA2", "IDOL")
PAY_SOURCES = ("BURST", "ENGRAVE", "BA1", "BA2", "IDOL")
"""D12.1 log sources; sources of one kind are interchangeable (R-D2)."""
MAX_TRIGGER_CHOICES = 8
MAX_ENGRAVE_SLOTS = 4
CARD_VERBS = ("GEAR", "MULL", "MATERIAL")
"""Verbs on a card in hand (or in the discard, for MATERIAL) only."""
SOURCE_VERBS = ("CAST", "PLAY", "SUB", "DISCARD")
"""Verbs on a card in hand or (with `@S`) in the speed area (D5.7)."""
NO_ARGUMENT = ("DONE", "PASS", "KEEP", "GODDRAW", "UPKEEP PAY", "UPKEEP CHECK")
"""Actions that are their verb alone (D10.2 PASS, D17 GODDRAW, D19.4 upkeep, ...)."""
_AREA_VERBS = ("TO", "ATTACK", "HPDRAW")
_SLOT_VERBS = ("ATTACKER", "BLOCK", "MOVE", "REMOVE")


@dataclass(frozen=True, slots=True)
class Decoded:
    """An action's parts by name (D22.8); `str()` is the action's text. Parts a verb does not take keep
    their defaults ("", -1, False).

    `verb` is the first word (`USE@S` for an ability of a card in the speed area), or the whole text of
    an action without arguments (`DONE`, `UPKEEP PAY`, see `NO_ARGUMENT`).
    """

    verb: str
    card: str = ""
    """The card id of CARD_VERBS, SOURCE_VERBS, DUMMY, `USE@S` and PLACE."""
    from_speed: bool = False
    """The card is in the speed area (`@S`, D5.7): SOURCE_VERBS and DUMMY."""
    slot: str = ""
    """A slot name (SLOTS): the acting player's own for USE, ATTACKER, BLOCK, MOVE, REMOVE; the seat's for TARGET."""
    seat: int = -1
    """TARGET: the target's seat (0 P1, 1 P2)."""
    index: int = -1
    """USE, `USE@S`: the activated ability's index; SCRAP: the engrave slot; FIRST: the trigger's index."""
    area: int = -1
    """An index into DESTINATIONS: the battle area of DUMMY, ATTACK and HPDRAW (0 BA1, 1 BA2); TO's destination
    (2 IDOL as well)."""
    source: str = ""
    """PAY: the log source (PAY_SOURCES)."""

    def __str__(self) -> str:
        verb = self.verb
        if verb in NO_ARGUMENT:
            return verb
        if verb == "PAY":
            return f"PAY {self.source}"
        if verb == "TARGET":
            return f"TARGET {('P1', 'P2')[self.seat]}:{self.slot}"
        if verb in _AREA_VERBS:
            return f"{verb} {DESTINATIONS[self.area]}"
        if verb in _SLOT_VERBS:
            return f"{verb} {self.slot}"
        if verb == "USE":
            return f"USE {self.slot} {self.index}"
        if verb == "USE@S":
            return f"USE {self.card}@S {self.index}"
        if verb in ("SCRAP", "FIRST"):
            return f"{verb} {self.index}"
        card = self.card + ("@S" if self.from_speed else "")
        if verb == "DUMMY":
            return f"DUMMY {card} {AREAS[self.area]}"
        return f"{verb} {card}"  # PLACE, CARD_VERBS, SOURCE_VERBS


def decode(text: str) -> Decoded:
    """An action text's parts (the inverse of `str(Decoded)`); read once per action when the space is built."""
    words = text.split()
    verb = words[0]
    if text in NO_ARGUMENT:
        return Decoded(text)
    if verb == "PAY":
        return Decoded(verb, source=words[1])
    if verb == "DUMMY":
        card = words[1]
        return Decoded(verb, card.removesuffix("@S"), card.endswith("@S"), area=AREAS.index(words[2]))
    if verb in (*CARD_VERBS, *SOURCE_VERBS):
        card = words[1]
        return Decoded(verb, card.removesuffix("@S"), card.endswith("@S"))
    if verb == "TARGET":
        seat, slot = words[1].split(":")
        return Decoded(verb, slot=slot, seat=("P1", "P2").index(seat))
    if verb == "USE":
        if words[1].endswith("@S"):
            return Decoded("USE@S", words[1].removesuffix("@S"), index=int(words[2]))
        return Decoded(verb, slot=words[1], index=int(words[2]))
    if verb in ("SCRAP", "FIRST"):
        return Decoded(verb, index=int(words[1]))
    if verb in _AREA_VERBS:
        return Decoded(verb, area=DESTINATIONS.index(words[1]))
    if verb in _SLOT_VERBS:
        return Decoded(verb, slot=words[1])
    if verb == "PLACE":
        return Decoded(verb, words[1])
    raise ValueError(f"no Dreadnought action reads {text!r}")


@dataclass(frozen=True)
class DreadnoughtActions:
    """Ids and texts of every decision for one card set."""

    space: ActionSpace
    fixed: dict[str, IndexedAction]
    """DONE, PASS, KEEP, GODDRAW, UPKEEP PAY/CHECK, PAY <source>, TO <dest>, ATTACK <area>, HPDRAW <area>."""
    target: tuple[tuple[IndexedAction, ...], tuple[IndexedAction, ...]]  # by seat, then slot index
    attacker: dict[str, IndexedAction]  # by unit slot
    block: dict[str, IndexedAction]  # by own slot (no IDOL)
    move: dict[str, IndexedAction]  # by unit slot or IDOL
    remove: dict[str, IndexedAction]
    use: dict[tuple[str, int], IndexedAction]  # (slot, activated ability index)
    use_speed: dict[tuple[str, int], IndexedAction]  # (card id, index) for a card in the speed area
    scrap: tuple[IndexedAction, ...]  # by engrave slot
    first: tuple[IndexedAction, ...]  # trigger order: index in the pending list
    place: dict[str, IndexedAction]  # caster id -> "PLACE id" (that caster goes to BA1)
    dummy: dict[tuple[str, bool, int], IndexedAction]  # (card id, from speed area, battle area)
    card: dict[tuple[str, str], IndexedAction]  # (verb, card id) for CARD_VERBS and hand sources
    speed_card: dict[tuple[str, str], IndexedAction]  # (verb, card id) for a card in the speed area
    decoded: tuple[Decoded, ...]  # by action id

    def decode(self, action: IndexedAction) -> Decoded:
        """The action's parts by name (verb, card, from_speed, slot, seat, index, area, source)."""
        return self.decoded[action]


def build_actions(
    caster_ids: list[str], card_ids: list[str], max_uses: int, speed_uses: dict[str, int]
) -> DreadnoughtActions:
    """The action space for a card set (ids in file order): stable for that set.

    `max_uses` bounds the activated abilities of one object (a caster's own plus its arms'
    grants); `speed_uses` gives, per card with activated `speed`-zone abilities, how many.
    """
    texts = list(NO_ARGUMENT)
    texts += [f"PAY {source}" for source in PAY_SOURCES]
    texts += [f"TO {dest}" for dest in DESTINATIONS]
    texts += [f"ATTACK {area}" for area in AREAS]
    texts += [f"HPDRAW {area}" for area in AREAS]
    fixed_count = len(texts)
    texts += [f"TARGET {seat}:{slot}" for seat in ("P1", "P2") for slot in SLOTS]
    texts += [f"ATTACKER {slot}" for slot in UNIT_SLOTS]
    texts += [f"BLOCK {slot}" for slot in SLOTS[:-1]]
    texts += [f"MOVE {slot}" for slot in (*UNIT_SLOTS, "IDOL")]
    texts += [f"REMOVE {slot}" for slot in (*UNIT_SLOTS, "IDOL")]
    texts += [f"USE {slot} {k}" for slot in SLOTS for k in range(max_uses)]
    texts += [f"USE {card}@S {k}" for card, count in speed_uses.items() for k in range(count)]
    texts += [f"SCRAP {i}" for i in range(MAX_ENGRAVE_SLOTS)]
    texts += [f"FIRST {i}" for i in range(MAX_TRIGGER_CHOICES)]
    texts += [f"PLACE {caster}" for caster in caster_ids]
    texts += [f"{verb} {card}" for card in card_ids for verb in (*CARD_VERBS, *SOURCE_VERBS)]
    texts += [f"{verb} {card}@S" for card in card_ids for verb in SOURCE_VERBS]
    texts += [f"DUMMY {card}{at} {area}" for card in card_ids for at in ("", "@S") for area in AREAS]
    space = ActionSpace(texts)
    get = space.parse
    return DreadnoughtActions(
        space=space,
        fixed={text: space[i] for i, text in enumerate(texts[:fixed_count])},
        target=(tuple(get(f"TARGET P1:{slot}") for slot in SLOTS), tuple(get(f"TARGET P2:{slot}") for slot in SLOTS)),
        attacker={slot: get(f"ATTACKER {slot}") for slot in UNIT_SLOTS},
        block={slot: get(f"BLOCK {slot}") for slot in SLOTS[:-1]},
        move={slot: get(f"MOVE {slot}") for slot in (*UNIT_SLOTS, "IDOL")},
        remove={slot: get(f"REMOVE {slot}") for slot in (*UNIT_SLOTS, "IDOL")},
        use={(slot, k): get(f"USE {slot} {k}") for slot in SLOTS for k in range(max_uses)},
        use_speed={(card, k): get(f"USE {card}@S {k}") for card, count in speed_uses.items() for k in range(count)},
        scrap=tuple(get(f"SCRAP {i}") for i in range(MAX_ENGRAVE_SLOTS)),
        first=tuple(get(f"FIRST {i}") for i in range(MAX_TRIGGER_CHOICES)),
        place={caster: get(f"PLACE {caster}") for caster in caster_ids},
        dummy={
            (card, at == "@S", a): get(f"DUMMY {card}{at} {area}")
            for card in card_ids
            for at in ("", "@S")
            for a, area in enumerate(AREAS)
        },
        card={(verb, card): get(f"{verb} {card}") for card in card_ids for verb in (*CARD_VERBS, *SOURCE_VERBS)},
        speed_card={(verb, card): get(f"{verb} {card}@S") for card in card_ids for verb in SOURCE_VERBS},
        decoded=tuple(decode(action.text) for action in space),
    )
