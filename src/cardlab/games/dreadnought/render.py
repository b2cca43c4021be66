"""Dreadnought for people: each seat's battle areas, idol area and resources, events in words, a hint per window.

Everything shown comes from an observation (`position.dump_observation`), so nothing hidden from
the viewer can appear: the opponent's hand, bursts, HP cards and dummies' cards are counts or
blanks there (D1.5). Card names come from the card set named by the observation's config.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.text import Text

from cardlab.core.plugin import outcome_words
from cardlab.games.dreadnought.cards import CardDef, parse_effect
from cardlab.games.dreadnought.words import DRAW_REASONS, WIN_REASONS, card_words_of, effects_words

SPEED_GRADES = ("C", "B", "A", "A+", "A++", "A+++")
DUMMY_BP = 50
"""D15.1: a dummy's BP, the printed value its current BP is marked against."""
AREAS = ("BA1", "BA2")

WINDOW_HINTS: dict[str, str] = {
    "place": "Choose the caster that starts in battle area BA1 (PLACE X01); the other one takes BA2 (D4.1).",
    "mull": "Mulligan, once (D4.6): set cards aside one at a time with MULL <card>; they go to your discard and "
    "as many are drawn. KEEP when done.",
    "speed_window": "Speed actions (D6.3): at most one gear change (GEAR <card> puts a hand card closed into your "
    "speed area; it opens at D6.5 and sets your speed), SPEED codes and abilities (PLAY, USE). DONE when finished.",
    "cast_window": "Cast actions (D8.2): CAST a unit or idol, DUMMY a card face down (D15), MOVE or REMOVE a "
    "unit, PLAY or USE cast items, GODDRAW (D17); DONE ends.",
    "fast_window": "Fast actions (D9): PLAY an arms (then TARGET your caster, then PAY), FAST codes, abilities "
    "and sub-effects (SUB <card>). DONE ends your window.",
    "dest": "Where does it go? TO BA1 or TO BA2 (at most two units weighing 3 in all: S=1, M=2, L=3, D8.3), "
    "or TO IDOL for an idol (D19.1).",
    "move_to": "Move it to your other battle area (an idol also to or from the idol area) where it fits (D8.2(3)).",
    "upkeep_idol": "Idol upkeep (D19.4): UPKEEP PAY pays its upkeep in log; UPKEEP CHECK lets the idol be checked.",
    "target": "Choose a target (D5.3): TARGET P2:BA1.U1 is P2's first unit in battle area 1; .C is a caster, "
    "IDOL the idol area.",
    "pay_discard": "Pay the discard cost (D12.3): DISCARD <card> from your hand (<card>@S: from your speed area).",
    "pay_src": "Pay 1 log (D12.1) by checking a normal source: PAY BURST, PAY ENGRAVE, PAY BA1 / PAY BA2 (a caster), "
    "PAY IDOL (the idol in the idol area); or SUB <card> for a PAYMENT cost reduction (D18.3).",
    "aturn": "Your action turn (D10.2): GODDRAW any number of times, then one action: ATTACKER to start an attack, "
    "PLAY an action code, USE an action ability, or PASS; two passes in a row end the phase.",
    "abuild": "Add attackers (ATTACKER BA2.U1) or attack now: ATTACK BA1 / ATTACK BA2 names the enemy battle area "
    "(D10.5). The attackers are checked.",
    "block": "Choose the blocker in the attacked battle area (D10.6): BLOCK BA1.U1 for a unit, BLOCK BA1.C for the "
    "caster (it loses one HP card per 50 damage). GODDRAW first if you like.",
    "react": "Reaction right (D10.4): play one REACTION item (PLAY, USE, SUB) — it resolves at once — or PASS. "
    "Two passes in a row close the window; then the attack or action resolves.",
    "pick": "Choose the material from your discard (D14.2, D16.1): MATERIAL <card>.",
    "scrap": "More than 3 engraves (D16.3): SCRAP <n> discards the engrave in slot n.",
    "order": "Several of your triggers at once (D5.5): FIRST <n> resolves the n-th of them next.",
    "hpdraw": "Your deck is empty (D20.1): HPDRAW BA1 / HPDRAW BA2 takes an HP card of that caster into your hand.",
    "hpdeck": "Your deck is empty (rule library_out=every_use, D20.2): HPDRAW BA1 / HPDRAW BA2 puts an HP card of "
    "that caster, unseen, in place of the deck card (speed reveal, burst, enchant or engrave material, HP gain).",
    "limit": "Hand limit (D11.2): DISCARD <card> until you hold 7 cards.",
    "over": "The game is over.",
}

WINDOW_NAMES: dict[str, str] = {
    "place": "caster placement",
    "mull": "mulligan",
    "speed_window": "speed actions",
    "cast_window": "cast actions",
    "fast_window": "fast actions",
    "dest": "cast: destination",
    "move_to": "move: destination",
    "upkeep_idol": "idol upkeep",
    "target": "choose a target",
    "pay_discard": "pay: discard",
    "pay_src": "pay: log source",
    "aturn": "action turn",
    "abuild": "attack: attackers and area",
    "block": "choose a blocker",
    "react": "reaction right",
    "pick": "choose material",
    "scrap": "engrave overflow",
    "order": "trigger order",
    "hpdraw": "HP draw",
    "hpdeck": "HP card for the deck",
    "limit": "hand limit",
    "over": "game over",
}


@lru_cache(maxsize=8)
def _cards(extra: tuple[str, ...] | None, patches: tuple[str, ...] = ()) -> dict[str, CardDef]:
    """Card id -> card for the packaged set plus the config's card files, with the config's card edits; empty
    if they cannot be read."""
    from cardlab.games.dreadnought.cards import load_card_set

    try:
        paths = [Path(p) for p in extra] if extra else None
        card_set = load_card_set(paths, with_sample_set=True, patches=patches)
    except Exception:  # a moved or broken card file: show bare ids rather than fail to draw the board
        return {}
    return dict(card_set.by_id)


def _cards_for(view: Mapping[str, Any]) -> dict[str, CardDef]:
    config = view.get("config") or {}
    if not isinstance(config, Mapping):
        return _cards(None)
    cards, patches = config.get("cards"), config.get("patches")
    edits = tuple(str(p) for p in patches) if isinstance(patches, list) else ()
    return _cards(tuple(cards) if cards else None, edits)


def _names_for(view: Mapping[str, Any]) -> dict[str, str]:
    return {card_id: card.name for card_id, card in _cards_for(view).items()}


def card_facts(card: CardDef) -> str:
    """A card on one line in player words (`words.card_words_of`, D2, D22): what a player weighs before
    casting or playing it."""
    return card_words_of(card).line()


def short_facts(card: CardDef, speed_area: bool = False) -> str:
    """'R02 Blaze Warden (speed B · cost 0 · M · BP 100)', 'R05@S Flame Burst (speed A · cost 1 · action code)':
    the numbers that decide a cast, its speed grade first for a gear change (D6.2), for an option heading (`@S`:
    the copy in the speed area, as actions write it, D5.7); `card ID` gives the whole card."""
    parts = [] if card.type in ("unit", "code", "caster") else [card.type]  # a size or a timing says which
    if card.speed:
        parts.append(f"speed {card.speed}")
    if card.type != "caster":
        parts.append(f"cost {card.cost}")
    if card.size:
        parts += [card.size, f"BP {card.bp}"]
    if card.type == "code":
        parts.append("/".join(t.lower() for t in card.timing) + " code")
    facts = f" ({' · '.join(parts)})" if parts else ""
    return f"{card.id}{'@S' if speed_area else ''} {card.name}{facts}"


_SLOT_WORDS = {"C": "caster", "U1": "unit 1", "U2": "unit 2"}
VERB_ORDER = ("CAST", "PLAY", "SUB", "USE", "USE@S", "GEAR", "MULL", "MATERIAL", "DISCARD", "DUMMY", "MOVE", "REMOVE",
              "ATTACKER", "BLOCK")  # fmt: skip
"""Within a card's group, what to do with it: cast or play it first, then the other uses (D8.2, D15)."""


DESTRUCTIVE = ("REMOVE",)
"""Verbs that throw away a player's own card (D8.2(4)): listed after every other option, so that a number typed
by habit never removes a unit."""


def option_groups(view: Mapping[str, Any], actions: Sequence[str]) -> list[tuple[str, list[int]]]:
    """The legal actions grouped for reading (issue #35): by the card they use (headed by its name and key
    numbers), then by the board object they act with (a caster's ability, an attacker: headed by its current
    BP or HP), each group in the order its card first comes and its options by what they do (cast, play, ...,
    dummy); the rest (DONE, PASS, PAY, TARGET ...) after them, as they come; a REMOVE last of all (#51 item 4).
    Clients number the options in this order; `option_labels` says each in words."""
    from cardlab.games.dreadnought.actions import decode

    cards = _cards_for(view)
    board = _Board(view)
    groups: dict[str, list[int]] = {}
    rest: list[int] = []
    last: list[int] = []
    for index, text in enumerate(actions):
        decoded = decode(text)
        if decoded.verb in DESTRUCTIVE:
            last.append(index)
            continue
        if decoded.card and decoded.card in cards:
            heading = short_facts(cards[decoded.card], decoded.from_speed or decoded.verb == "USE@S")
        elif decoded.slot and decoded.verb != "TARGET":
            heading = board.place_heading(decoded.slot)
        else:
            rest.append(index)
            continue
        groups.setdefault(heading, []).append(index)

    def rank(index: int) -> tuple[int, int]:
        verb = decode(actions[index]).verb
        return (VERB_ORDER.index(verb) if verb in VERB_ORDER else len(VERB_ORDER), index)

    ordered = [(heading, sorted(indices, key=rank)) for heading, indices in groups.items()]
    return [*ordered, *([("", rest)] if rest else []), *([("remove from the field", last)] if last else [])]


def option_labels(view: Mapping[str, Any], actions: Sequence[str]) -> list[str]:
    """Each legal action in words, as `option_groups` lists it (#51 item 4): under a card's heading what to do
    with it ('cast', 'dummy into BA1', 'play: Deal 50 damage to an enemy unit'); a target, a blocker or a
    removal named by its card, its place and its current BP. Only the label changes: the action text the
    engine reads stays as it is, and typing it still works."""
    from cardlab.games.dreadnought.actions import decode

    cards = _cards_for(view)
    board = _Board(view)
    labels = []
    for text in actions:
        try:
            decoded = decode(text)
        except (ValueError, IndexError):
            labels.append(text)
            continue
        grouped = decoded.verb not in DESTRUCTIVE and (
            (bool(decoded.card) and decoded.card in cards) or (bool(decoded.slot) and decoded.verb != "TARGET")
        )
        labels.append(_label(decoded, text, cards, board, grouped))
    return labels


_LOOSE: dict[str, str] = {
    "DONE": "done",
    "PASS": "pass",
    "KEEP": "keep this hand",
    "GODDRAW": "god draw (a burst to hand)",
    "UPKEEP PAY": "pay the idol's upkeep",
    "UPKEEP CHECK": "check the idol instead",
    "PAY BURST": "pay 1 log: check a burst",
    "PAY ENGRAVE": "pay 1 log: check an engrave",
    "PAY IDOL": "pay 1 log: check the idol",
    "TO IDOL": "to the idol area",
}
"""Options without a card or place, in the words of the web view's labels (`web/render.js` actionLabel)."""


def _label(decoded: Any, text: str, cards: Mapping[str, CardDef], board: _Board, grouped: bool) -> str:
    """One option in words; `grouped`: its heading already names the card or place it uses."""
    verb = decoded.verb
    if text in _LOOSE:
        return _LOOSE[text]
    card = cards.get(decoded.card) if decoded.card else None
    name = "" if grouped or card is None else f" {card.id}{'@S' if decoded.from_speed else ''} {card.name}"
    area = AREAS[decoded.area] if verb in ("DUMMY", "ATTACK", "HPDRAW") and 0 <= decoded.area < 2 else ""
    own = f"{board.viewer}:{decoded.slot}" if board.viewer and decoded.slot else decoded.slot
    target = f"{('P1', 'P2')[max(decoded.seat, 0)]}:{decoded.slot}"
    simple = {
        "CAST": f"cast{name}",
        "GEAR": f"gear change{name}",
        "MULL": f"set aside{name}",
        "MATERIAL": f"material{name}",
        "DISCARD": f"discard{name}",
        "PLACE": f"to BA1{name}",
        "DUMMY": f"dummy into {area}{':' + name if name else ''}",
        "ATTACK": f"attack the enemy {area}",
        "HPDRAW": f"take an HP card of {area}",
        "SCRAP": f"discard engrave {decoded.index + 1}",
        "FIRST": f"resolve trigger {decoded.index + 1} first",
        "TARGET": f"target {board.named_place(target)}",
        "REMOVE": f"remove {board.named_place(own)} to your discard",
        "MOVE": "move to your other battle area" if grouped else f"move {board.named_place(own)}",
        "ATTACKER": "add as attacker" if grouped else f"attacker: {board.named_place(own)}",
        "BLOCK": "block with it" if grouped else f"block with {board.named_place(own)}",
    }
    if verb in simple:
        return simple[verb]
    if verb == "TO":
        return f"to battle area {text.split()[-1]}"
    if verb == "PAY":
        return f"pay 1 log: check your {decoded.source} caster"
    if verb in ("PLAY", "SUB") and card is not None:
        if verb == "SUB" and card.sub is not None:
            return f"sub-effect{name}: {effects_words(card.sub.effects)}"
        if card.type == "arms":
            return f"play{name} onto a caster"
        return f"play{name}: {effects_words(card.effects)}"
    if verb in ("USE", "USE@S"):
        ability = board.ability(decoded.slot, decoded.card, decoded.index)
        if ability is not None:
            return f"use{name}: {effects_words(ability.effects)}"
        return f"use ability {decoded.index + 1}"
    return text


def _grade(index: int | None) -> str:
    if index is None or index < 0:
        return "none"
    return SPEED_GRADES[min(index, len(SPEED_GRADES) - 1)]


def _other(seat: str) -> str:
    return "P2" if seat == "P1" else "P1"


class _Board:
    """Text pieces of one observation; `names` gives card names."""

    def __init__(self, view: Mapping[str, Any], marks: bool = False) -> None:
        self.view = view
        self.marks = marks
        """Whether a changed BP is marked against the printed BP (the player's board)."""
        self.cards_by_id = _cards_for(view)
        self.names = {card_id: card.name for card_id, card in self.cards_by_id.items()}
        self.viewer: str | None = view.get("viewer")

    def card(self, card_id: str | None) -> str:
        if card_id is None:
            return "?"
        name = self.names.get(card_id)
        return escape(f"{card_id} {name}" if name else card_id)

    def cards(self, ids: Sequence[str]) -> str:
        return ", ".join(self.card(c) for c in ids) if ids else "-"

    def caster(self, block: Mapping[str, Any]) -> str:
        """'X04 Mira Tidewell · HP 3'; a caster at 0 HP is marked down: it cannot block (D13.5)."""
        caster = block.get("caster")
        if caster is None:
            return "[dim]no caster[/]"
        hp = block.get("hp")
        hp_count = len(hp) if isinstance(hp, list) else hp
        parts = [f"[bold]{self.card(caster['card'])}[/]", f"HP {hp_count}"]
        if hp_count == 0:
            parts.append("[red]DOWN[/]")
        if caster.get("checked"):
            parts.append("[yellow]checked[/]")
        if caster.get("arms"):
            parts.append(f"arms {self.card(caster['arms'])}")
        if caster.get("shield"):
            parts.append(f"shield {caster['shield']}")
        return " · ".join(parts)

    def unit(self, unit: Mapping[str, Any] | None) -> str:
        """A unit with its current BP, marked against its printed BP when something changed it (D13.1)."""
        if unit is None:
            return "[dim]·[/]"
        card_id = unit.get("card")
        if unit.get("dummy"):
            label = f"dummy ({self.card(card_id)})" if card_id else "dummy"
            printed: int | None = DUMMY_BP
        else:
            label = self.card(card_id)
            known = self.cards_by_id.get(card_id or "")
            printed = None if known is None else known.bp
        parts = [label]
        if "bp" in unit:
            change = unit["bp"] - printed if printed is not None and self.marks else 0
            parts.append(f"BP {unit['bp']}" + (f" ({change:+d})" if change else ""))
        if unit.get("checked"):
            parts.append("[yellow]checked[/]")
        enchants = unit.get("enchants") or []
        boosts = sum(1 for e in enchants if e.get("kind") == "boost")
        weakens = len(enchants) - boosts
        if boosts:
            parts.append(f"+{boosts} boost")
        if weakens:
            parts.append(f"-{weakens} weaken")
        if unit.get("attached"):
            parts.append(f"attached {self.cards(unit['attached'])}")
        shields = unit.get("shields", unit.get("shield", 0))
        if shields:
            parts.append(f"shield {shields}")
        if unit.get("moved"):
            parts.append("[dim]moved[/]")
        return " · ".join(parts)

    def field(self, seat: str) -> Group:
        """A line per battle area: its caster, then its units (#51 item 4: side by side, two areas wrapped each
        unit onto three lines of 80 columns and the board alone filled a 24-line screen)."""
        player = self.view["players"][seat]
        lines = []
        for name in AREAS:
            block = player.get(name) or {"caster": None, "hp": 0, "units": []}
            units = [f"[dim]U{row + 1}[/] {self.unit(unit)}" for row, unit in enumerate(block.get("units") or [])]
            lines.append(" [dim]│[/] ".join([f"[dim]{seat} {name}[/] {self.caster(block)}", *units]))
        return Group(*lines)

    def idol_line(self, seat: str) -> str:
        """'P1 IDOL · · speed A+++ (Y04 Quickstep Courier; also R06, Y06)': idol area and speed (D6.2, D19)."""
        player = self.view["players"][seat]
        speed = player.get("speed") or []
        shift = player.get("speed_shift") or 0
        text = f"{seat} IDOL {self.unit(player.get('idol'))} · speed {_grade(player.get('speed_grade'))}"
        if shift:
            text += f" (shift {shift:+d})"
        if speed:
            older = f"; also {', '.join(escape(c) for c in speed[:-1])}" if len(speed) > 1 else ""
            text += f" ({self.card(speed[-1])}{older})"
        gear = player.get("gear")
        if isinstance(gear, list) and gear:
            text += f" · closed speed card {self.cards(gear)}"
        elif isinstance(gear, int) and gear:
            text += f" · {gear} closed speed card"
        return text

    def counts(self, seat: str, full: bool = False) -> str:
        """'P2 hand: 6 cards · deck 32 · discard 1 (top R05) · bursts 3 (1 checked) · engraves -' (D1.2), the hand
        count for the opponent only; `full` (the plain board) names the discard's top card and counts normal
        bursts too, with 'hand N' for every seat."""
        player = self.view["players"][seat]
        bursts = player.get("bursts") or []
        checked = sum(1 for b in bursts if b.get("checked"))
        engraves = player.get("engraves") or []
        discard = player.get("discard") or []
        deck = player.get("deck")
        hand = player.get("hand")
        parts = [f"hand {len(hand) if isinstance(hand, list) else hand}"] if full else []
        if not full and self.viewer != seat:  # the viewer's own hand has its line of cards
            parts.append(self.hand_count(seat))
        parts.append(f"deck {len(deck) if isinstance(deck, list) else deck}")
        top = (self.card(discard[-1]) if full else escape(discard[-1])) if discard else ""
        parts.append(f"discard {len(discard)}" + (f" (top {top})" if top else ""))
        if full:
            parts.append(f"bursts {len(bursts)} ({len(bursts) - checked} normal, {checked} checked)")
        else:
            parts.append(f"bursts {len(bursts)}" + (f" ({checked} checked)" if checked else ""))
        checked_mark = " (checked)" if full else " checked"
        engraved = [
            (self.card(e.get("card")) if full else escape(str(e.get("card")))) + (checked_mark * bool(e.get("checked")))
            for e in engraves
        ]
        parts.append(f"engraves {', '.join(engraved) or '-'}")
        return " · ".join(parts)

    def hand_count(self, seat: str) -> str:
        hand = self.view["players"][seat].get("hand")
        count = len(hand) if isinstance(hand, list) else hand
        return f"{seat} hand: {count} card{'' if count == 1 else 's'}"

    def speed_line(self, seat: str) -> str:
        """'speed R06 Searing Arrow, Y04 Quickstep Courier → grade A+++' and any closed speed card (D6)."""
        player = self.view["players"][seat]
        speed = player.get("speed") or []
        shift = player.get("speed_shift") or 0
        text = f"speed {self.cards(speed)} → grade {_grade(player.get('speed_grade'))}"
        text += f" (shift {shift:+d})" if shift else ""
        gear = player.get("gear")
        if isinstance(gear, list) and gear:
            text += f" · closed speed card {self.cards(gear)}"
        elif isinstance(gear, int) and gear:
            text += f" · {gear} closed speed card"
        return text

    def resources(self, seat: str) -> list[str]:
        """The plain board's lines of a seat: counts, speed, and what is set aside or being played."""
        player = self.view["players"][seat]
        return [self.counts(seat, full=True), self.speed_line(seat), *self.extras(seat, player)]

    def extras(self, seat: str, player: Mapping[str, Any]) -> list[str]:
        """What only some moments have: known hand cards, cards being played, a mulligan, casters to place."""
        lines = []
        known = player.get("known_hand") or []
        if self.viewer != seat and known:
            lines.append(f"known in hand: {self.cards(known)}")
        limbo = player.get("limbo") or []
        if limbo:
            lines.append(f"being played: {self.cards(limbo)}")
        mull = player.get("mulligan")
        if isinstance(mull, list) and mull:
            lines.append(f"set aside (mulligan): {self.cards(mull)}")
        elif isinstance(mull, int) and mull:
            lines.append(f"set aside (mulligan): {mull} cards")
        placement = player.get("placement")
        if isinstance(placement, list) and placement:
            lines.append(f"casters to place: {self.cards(placement)}")
        return lines

    def place_heading(self, slot: str) -> str:
        """'your BA1 unit 1: R02 Blaze Warden (BP 120, printed 100)': an own field place and what stands there,
        with its current BP (D13.1) or a caster's HP (#51 item 4: not the printed BP)."""
        own = f"{self.viewer}:{slot}" if self.viewer else slot
        area, _, place = slot.partition(".")
        what = "your idol" if slot == "IDOL" else f"your {area} {_SLOT_WORDS.get(place, place)}"
        return f"{what}: {self.standing(own)}"

    def standing(self, ref: str) -> str:
        """The card on a field place with its current numbers, in plain text ('a dummy (BP 50)')."""
        obj = self._object(ref)
        if obj is None:
            return "nothing"
        card = self.cards_by_id.get(obj.get("card") or "")
        label = "a dummy" if obj.get("dummy") else f"{card.id} {card.name}" if card else str(obj.get("card") or "?")
        facts = []
        if "bp" in obj:
            printed = DUMMY_BP if obj.get("dummy") else card.bp if card else None
            changed = printed is not None and printed != obj["bp"]
            facts.append(f"BP {obj['bp']}" + (f", printed {printed}" if changed else ""))
        if ref.endswith(".C"):
            seat, _, slot = ref.partition(":")
            hp = (self.view["players"].get(seat, {}).get(slot.partition(".")[0]) or {}).get("hp")
            facts.append(f"HP {len(hp) if isinstance(hp, list) else hp}")
        if obj.get("checked"):
            facts.append("checked")
        return f"{label} ({', '.join(facts)})" if facts else label

    def named_place(self, ref: str) -> str:
        """'R02 Blaze Warden (P2's BA1 unit 1, BP 120)': a target or a unit named by its card, place and numbers."""
        seat, _, slot = ref.partition(":")
        area, _, place = slot.partition(".")
        where = "idol area" if slot == "IDOL" else f"{area} {_SLOT_WORDS.get(place, place)}"
        whose = "your" if seat == self.viewer else f"{seat}'s"
        label, _, facts = self.standing(ref).partition(" (")
        return f"{label} ({whose} {where}{', ' + facts.removesuffix(')') if facts else ''})"

    def ability(self, slot: str, card_id: str, index: int) -> Any:
        """The activated ability USE names: a speed-area card's, or an own object's then its arms' grants (D2.9)."""
        if card_id:
            found = self.cards_by_id.get(card_id)
            abilities = [a for a in found.abilities if a.kind == "activated"] if found else []
        else:
            obj = self._object(f"{self.viewer}:{slot}" if self.viewer else slot) or {}
            own = self.cards_by_id.get(obj.get("card") or "")
            arms = self.cards_by_id.get(obj.get("arms") or "")
            abilities = [a for a in own.abilities if a.kind == "activated"] if own else []
            abilities += [a for a in arms.grants if a.kind == "activated"] if arms else []
        return abilities[index] if 0 <= index < len(abilities) else None

    def card_at(self, ref: str) -> str | None:
        """The id of the open card on `P1:BA1.U1` (None for an empty slot, a dummy or a hidden card)."""
        obj = self._object(ref)
        return None if obj is None or obj.get("dummy") else obj.get("card")

    def _object(self, ref: str) -> Mapping[str, Any] | None:
        seat, _, slot = ref.partition(":")
        player = self.view["players"].get(seat, {})
        area, _, place = slot.partition(".")
        obj: Mapping[str, Any] | None = None
        if area == "IDOL":
            obj = player.get("idol")
        elif area in AREAS:
            block = player.get(area) or {}
            if place == "C":
                obj = block.get("caster")
            elif place in ("U1", "U2"):
                units = block.get("units") or []
                index = int(place[1]) - 1
                obj = units[index] if index < len(units) else None
        return obj

    def object_at(self, ref: str | None) -> str:
        """`P2:BA1.U1` with the card there, as the viewer may see it."""
        if ref is None:
            return "(gone)"
        obj = self._object(ref)
        if obj is None:
            return escape(ref)
        if obj.get("dummy"):
            return escape(f"{ref} dummy")
        return f"{escape(ref)} {self.card(obj.get('card'))}"

    def attack(self) -> str | None:
        attack = self.view.get("attack")
        if not attack:
            return None
        attackers = ", ".join(self.object_at(ref) for ref in attack.get("attackers", []))
        defender = _other(attack["player"])
        text = f"[bold red]Attack[/] by {attack['player']}: {attackers} → {defender} {attack['area']}"
        blocker = attack.get("blocker")
        text += f" · blocker {self.object_at(blocker)}" if blocker else " · no blocker yet"
        if attack.get("mod"):
            text += f" · attack mod {attack['mod']:+d}"
        return text

    def hand(self, seat: str) -> str:
        hand = self.view["players"][seat].get("hand")
        if isinstance(hand, list):
            return f"[bold]{'your' if self.viewer == seat else seat} hand:[/] {self.cards(hand)}"
        return self.hand_count(seat)

    def side(self, seat: str) -> list[RenderableType]:
        """One seat in 4-6 lines: who and the counts, the battle areas, the idol area and speed."""
        who = "you" if seat == self.viewer else "opponent" if self.viewer else "spectating"
        lines: list[RenderableType] = [f"[bold]{seat}[/] ({who}) · {self.counts(seat)}", self.field(seat)]
        lines.append(self.idol_line(seat))
        lines += self.extras(seat, self.view["players"][seat])
        return lines


def render_board(view: Mapping[str, Any]) -> RenderableType:
    """The opponent's side on top, the viewer's below (a spectator sees P2 on top), in few enough lines that
    the board and a grouped option list share a 24-line, 80-column screen where they can."""
    board = _Board(view, marks=True)
    me = board.viewer or "P1"
    them = _other(me)
    window = view.get("window", "")
    who = f"you are {me}" if board.viewer else "spectator"
    step = WINDOW_NAMES.get(window, window)
    parts: list[RenderableType] = [
        f"[reverse] Dreadnought · {who} · turn {view.get('turn')} {view.get('phase')}: {escape(step)} · "
        f"first {view.get('first') or '-'}, token {view.get('token')} [/]",
        *board.side(them),
    ]
    attack = board.attack()
    if attack:
        parts.append(attack)
    parts += board.side(me)
    if board.viewer:
        parts.append(board.hand(me))
    triggers = view.get("triggers") or []
    if triggers:
        waiting = ", ".join(f"{t['player']} {escape(str(t.get('source')))} {escape(str(t.get('ability')))}"
                            for t in triggers)  # fmt: skip
        parts.append(f"triggers waiting: {waiting}")
    if view.get("cost_reduction"):
        parts.append(f"cost reduction for the code being paid: {view['cost_reduction']}")
    to_move = view.get("to_move")
    if window == "over":
        result = "draw" if view.get("draw") or not view.get("winner") else f"{view['winner']} wins"
        parts.append(f"[bold]Game over: {result}[/] ({escape(_outcome(view))})")
    elif to_move and to_move != board.viewer:
        parts.append(f"[bold]{to_move}[/] to decide: {WINDOW_NAMES.get(window, window)}")
    return Group(*parts)


def _outcome(over: Mapping[str, Any]) -> str:
    """Why the game ended (a finished view or the game_over event) in words: "P2's casters have no HP left"."""
    winner = None if over.get("draw") or not over.get("winner") else str(over["winner"])
    return outcome_words(WIN_REASONS, DRAW_REASONS, str(over.get("reason", "")), winner)


def _plain(markup: str) -> str:
    return Text.from_markup(markup).plain


def board_text(view: Mapping[str, Any]) -> str:
    """A compact plain-text board of an observation (`DreadnoughtState.__str__` draws its open observation):
    the turn and who decides, then per seat its resources and one line per battle area (caster with HP,
    then units) and the idol area; the attack, waiting triggers and pending steps last."""
    board = _Board(view)
    window = view.get("window", "")
    lines = [f"Dreadnought turn {view.get('turn')}, {view.get('phase')} phase (first {view.get('first') or '-'}, "
             f"token {view.get('token')})"]  # fmt: skip
    if window == "over":
        result = "draw" if view.get("draw") or not view.get("winner") else f"{view['winner']} wins"
        lines.append(f"game over: {result} ({_outcome(view)})")
    elif view.get("to_move"):
        lines.append(f"{view['to_move']} to decide: {WINDOW_NAMES.get(window, window)} ({window})")
    for seat in ("P2", "P1"):
        player = view["players"][seat]
        lines.append(_plain(board.hand(seat)))
        lines += [f"   {_plain(line)}" for line in board.resources(seat)]
        for name in AREAS:
            block = player.get(name) or {"caster": None, "hp": 0, "units": []}
            units = " | ".join(_plain(board.unit(unit)) for unit in block.get("units") or []) or "-"
            lines.append(f"   {name}  {_plain(board.caster(block))}  | {units}")
        lines.append(f"   IDOL {_plain(board.unit(player.get('idol')))}")
    attack = board.attack()
    if attack:
        lines.append(_plain(attack))
    triggers = view.get("triggers") or []
    if triggers:
        lines.append("triggers waiting: " + ", ".join(f"{t['player']} {t.get('source')} {t.get('ability')}"
                                                      for t in triggers))  # fmt: skip
    stack = view.get("stack") or []
    if stack:
        lines.append(f"stack ({len(stack)} steps, top last): " + " ".join(str(frame[0]) for frame in stack))
    return "\n".join(lines)


# ---- events -------------------------------------------------------------------------------


def effect_text(effect: str, owner: str = "your") -> str:
    """An effect as the engine logs it (`burst(n=1)`, `damage(target=enemy_unit[size=S], amount=50)`) in
    player words (`words.effects_words`, D22.2; `owner`: whose 'your'); an effect outside the vocabulary is
    shown as it is."""
    name = effect.partition("(")[0].strip()
    try:
        parsed = parse_effect(effect, static=name.startswith("static_"))
    except ValueError:
        return effect
    text = effects_words((parsed,), owner)
    return text if text.startswith(owner) else text[0].lower() + text[1:]


_PLACES = {"C": "caster", "U1": "unit 1", "U2": "unit 2"}


def unit_words(ref: Any) -> str:
    """`P2:BA1.U1 R02` (a field object as the engine describes it) -> "R02 Blaze Warden (P2's BA1 unit 1)"."""
    place, _, card = str(ref).partition(" ")
    seat, _, slot = place.partition(":")
    area, _, spot = slot.partition(".")
    where = "idol area" if area == "IDOL" else f"{area} {_PLACES.get(spot, spot)}".strip()
    name = _cards(None).get(card)
    what = "a dummy" if card == "dummy" else f"{card} {name.name}" if name else card
    return f"{what} ({seat}'s {where})" if seat and slot else str(ref)


def _effect_sentence(event: Mapping[str, Any], who: str) -> str:
    """What an effect did, naming each object it hit and, for damage, what became of it (D13.2, D13.3)."""
    effect = str(event["effect"])
    hits = event.get("hits") or []
    owner = f"{who}'s"
    if not effect.startswith("damage(") or not hits:
        named = "; ".join(unit_words(hit["target"]) for hit in hits)
        return f"{who}: {effect_text(effect, owner)}" + (f" — {named}." if named else ".")
    try:
        amount = parse_effect(effect).number("amount")
    except (ValueError, TypeError):
        return f"{who}: {effect_text(effect, owner)}."
    lines = []
    for hit in hits:
        shield = min(int(hit.get("shield") or 0), amount)
        dealt = amount - shield
        text = f"{amount} damage to {unit_words(hit['target'])}"
        if shield:
            text += f", shield absorbs {shield}"
        if hit.get("gone"):
            text += f": {dealt} ≥ BP {hit.get('bp')}, broken"
        else:
            text += f": {dealt} < BP {hit.get('bp')}, survives (damage is never kept, D13.2)"
        lines.append(text)
    return f"{who}: " + "; ".join(lines) + "."


def _attack_damage(event: Mapping[str, Any], who: str) -> str:
    """D10.7: the attack's damage on the blocker, what shields took, and a unit's fate (a caster's is the
    hp_loss line that follows)."""
    damage = int(event["damage"])
    text = f"{who}'s attack deals {damage} damage to {unit_words(event['blocker'])}"
    if event.get("absorbed"):
        text += f" (shield absorbed {event['absorbed']})"
    bp = event.get("bp")
    if bp is None:
        return text + ": one HP card per 50 damage (D10.7)."
    return text + (f": ≥ BP {bp}, broken." if damage >= bp else f": < BP {bp}, survives.")


def _hp_loss(event: Mapping[str, Any], who: str) -> str:
    """D13.4, D13.5: HP a → b, and a caster at 0 is down."""
    hp, amount = int(event["hp"]), int(event["amount"])
    name = _cards(None).get(str(event["caster"]))
    caster = f"{event['caster']} {name.name}" if name else str(event["caster"])
    text = f"{who}'s {caster} loses {amount} HP card{'s' if amount != 1 else ''}: HP {hp + amount} → {hp}"
    return text + (" — DOWN: it can no longer block (D13.5)." if hp == 0 else ".")


def _ability(ref: Any) -> str:
    """An ability reference (`A:X01:0`, `G:R11:0`, `S:R01`, `C:R05`) in words."""
    kind, _, rest = str(ref).partition(":")
    card_id, _, index = rest.partition(":")
    known = _cards(None).get(card_id)
    card = f"{card_id} {known.name}" if known else card_id
    if kind == "A":
        return f"ability {int(index) + 1 if index.isdigit() else index} of {card}"
    if kind == "G":
        return f"the ability {card} grants"
    if kind == "S":
        return f"the sub-effect of {card}"
    if kind == "C":
        return card
    return str(ref)


def _list(items: Any) -> str:
    return ", ".join(str(i) for i in items) if items else "nothing"


def _speeds(speeds: Any) -> str:
    if not isinstance(speeds, list) or len(speeds) != 2:
        return ""
    return f" (speeds: P1 {_grade(speeds[0])}, P2 {_grade(speeds[1])})"


def _secret(event: Mapping[str, Any], template: str, hidden: str) -> str:
    """`template` with the event's `card` when the viewer may know it, else `hidden`."""
    card = event.get("card")
    return template.format(card=card) if card else hidden


_SENTENCES: dict[str, Callable[[Mapping[str, Any], str], str]] = {
    "casters": lambda e, who: f"{who} places {e['BA1']} in BA1 and {e['BA2']} in BA2.",
    "mulligan": lambda e, who: f"{who} sets aside {len(e['cards'])} card{'s' if len(e['cards']) != 1 else ''} "
    f"({_list(e['cards'])}) and draws as many."
    if e.get("cards")
    else f"{who} keeps the opening hand.",
    "turn": lambda e, who: f"Turn {e['turn']} begins (tiebreak token: {e['token']}).",
    "speed_reveal": lambda e, who: f"{who} reveals {e['card']} as speed card.",
    "gear_change": lambda e, who: _secret(e, f"{who} gear-changes {{card}} (closed).", f"{who} gear-changes a card."),
    "gear_open": lambda e, who: f"{who}'s gear-changed card opens: {e['card']}.",
    "first": lambda e, who: f"{who} is first this turn{_speeds(e.get('speeds'))}.",
    "draw": lambda e, who: _secret(e, f"{who} draws {{card}}.", f"{who} draws a card."),
    "hp_draw": lambda e, who: _secret(
        e,
        f"{who} takes {{card}}, an HP card of {e['area']}, into hand (deck empty).",
        f"{who} takes an HP card of {e['area']} into hand (deck empty).",
    ),
    "hp_to_deck": lambda e, who: f"{who}'s deck is empty: an HP card of {e['area']} stands in for it "
    f"({e['hp']} HP left there).",
    "god_draw": lambda e, who: _secret(e, f"{who} god draws {{card}}.", f"{who} god draws a burst."),
    "cast": lambda e, who: f"{who} casts {e['card']} into {e['to']}.",
    "dummy": lambda e, who: _secret(
        e, f"{who} casts {{card}} as a dummy into {e['to']}.", f"{who} casts a dummy into {e['to']}."
    ),
    "move": lambda e, who: f"{who} moves {unit_words(e['unit'])}.",
    "remove": lambda e, who: f"{who} removes {unit_words(e['unit'])} from the field.",
    "play": lambda e, who: f"{who} plays {e['card']}.",
    "sub": lambda e, who: f"{who} uses the sub-effect of {e['card']}.",
    "use": lambda e, who: f"{who} uses {_ability(e['ability'])}.",
    "trigger": lambda e, who: f"{who}'s {e['card']} triggers ({_ability(e['ability'])}).",
    "effect": _effect_sentence,
    "arms": lambda e, who: f"{who} attaches {e['card']} to {e['caster']}.",
    "boost": lambda e, who: f"{who} puts a boost (+20 BP) on {unit_words(e['unit'])}.",
    "weaken": lambda e, who: f"{who} puts a weaken (-20 BP) on {unit_words(e['unit'])}.",
    "engrave": lambda e, who: f"{who} engraves {e['card']}.",
    "bounce": lambda e, who: f"{e['card'] or 'A dummy'} returns to {who}'s hand.",
    "break": lambda e, who: f"Broken: {unit_words(e['unit'])}.",
    "hp_loss": _hp_loss,
    "attack": lambda e, who: f"{who} attacks {_other(who)}'s {e['area']} with "
    f"{', '.join(unit_words(a) for a in e['attackers'])}.",
    "block": lambda e, who: f"{who} blocks with {unit_words(e['blocker'])}.",
    "attack_damage": _attack_damage,
    "pass": lambda e, who: f"{who} passes.",
    "discard": lambda e, who: f"{who} discards {e['card']} (hand limit).",
    "end_of_turn": lambda e, who: f"Turn {e['turn']} ends; the tiebreak token goes to {e['token']}.",
    "game_over": lambda e, who: f"Game over: draw ({_outcome(e)})."
    if e.get("winner") is None
    else f"Game over: {e['winner']} wins ({_outcome(e)}).",
}
EVENT_KINDS: frozenset[str] = frozenset(_SENTENCES)
"""Every event kind the engine logs has a sentence here."""


def event_text(event: Mapping[str, Any]) -> str:
    """One event view as a sentence; an unknown kind is shown with its fields rather than dropped."""
    kind = str(event.get("kind", ""))
    who = str(event.get("player", ""))
    sentence = _SENTENCES.get(kind)
    if sentence is not None:
        try:
            return sentence(event, who)
        except (KeyError, TypeError, ValueError):
            pass
    fields = ", ".join(f"{key}={value}" for key, value in event.items() if key != "kind")
    return f"{kind}: {fields}" if fields else kind
