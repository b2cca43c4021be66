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
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardlab.games.dreadnought.cards import CardDef

SPEED_GRADES = ("C", "B", "A", "A+", "A++", "A+++")
AREAS = ("BA1", "BA2")

WINDOW_HINTS: dict[str, str] = {
    "place": "Choose the caster that starts in battle area BA1 (PLACE X01); the other one takes BA2 (D4.1).",
    "mull": "Mulligan, once (D4.6): set cards aside one at a time with MULL <card>; they go to your discard and "
    "as many are drawn. KEEP when done.",
    "speed_window": "Speed actions (D6.3): at most one gear change (GEAR <card> puts a hand card closed into your "
    "speed area; it opens at D6.5 and sets your speed), SPEED codes and abilities (PLAY, USE). DONE when finished.",
    "cast_window": "Cast actions (D8.2): CAST <card> then TO BA1/BA2/IDOL then PAY ... for its log cost; "
    "DUMMY <card> BA1 casts it face down into BA1 (a closed S unit, BP 50, D15); MOVE or REMOVE an own unit; "
    "PLAY a CAST code; USE an ability; GODDRAW takes a normal burst into hand (D17). <card>@S is a card in your "
    "speed area. DONE ends your window.",
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
    "aturn": "Your action turn (D10.2): GODDRAW as often as you like, then one action: ATTACKER <slot> to start an "
    "attack, PLAY an ACTION code (e.g. PLAY R05 then TARGET P2:BA1.U1 then PAY BURST), USE an ACTION ability, "
    "or PASS. Two passes in a row end the action phase.",
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
    """A card's printed data on one line, its effects in player words (D2, D22): what a player weighs
    before casting or playing it."""
    facts = [card.type, f"cluster {'/'.join(card.cluster) or '-'}"]
    for label, value in (("speed", card.speed), ("cost", card.cost), ("size", card.size), ("BP", card.bp),
                         ("HP", card.hp), ("upkeep", card.upkeep)):  # fmt: skip
        if value:
            facts.append(f"{label} {value}")
    if card.timing:
        facts.append(f"timing {', '.join(card.timing)}")
    does = [effect_text(str(effect)) for effect in card.effects]
    does += [f"{ability.kind}: " + ", ".join(effect_text(str(effect)) for effect in ability.effects)
             for ability in card.abilities]  # fmt: skip
    does += [f"gives its host {ability.kind}: " + ", ".join(effect_text(str(effect)) for effect in ability.effects)
             for ability in card.grants]  # fmt: skip
    if card.sub is not None:
        does.append("sub: " + ", ".join(effect_text(str(effect)) for effect in card.sub.effects))
    return f"{card.id} {card.name} — {', '.join(facts)}; {'; '.join(does) or 'no effect'}"


_SLOT_WORDS = {"C": "caster", "U1": "unit 1", "U2": "unit 2"}


def option_groups(view: Mapping[str, Any], actions: Sequence[str]) -> list[tuple[str, list[int]]]:
    """The legal actions grouped for reading (issue #16): by the card they use (headed by its facts), then by
    the board object they act with (a caster's ability, an attacker); the rest (DONE, PAY ...) last."""
    from cardlab.games.dreadnought.actions import decode

    cards = _cards_for(view)
    board = _Board(view)
    groups: dict[str, list[int]] = {}
    rest: list[int] = []
    for index, text in enumerate(actions):
        decoded = decode(text)
        if decoded.card and decoded.card in cards:
            where = " (in your speed area)" if decoded.from_speed or decoded.verb == "USE@S" else ""
            heading = card_facts(cards[decoded.card]) + where
        elif decoded.slot and decoded.verb != "TARGET":
            area, _, place = decoded.slot.partition(".")
            what = "your idol" if decoded.slot == "IDOL" else f"your {area} {_SLOT_WORDS[place]}"
            own = f"{board.viewer}:{decoded.slot}" if board.viewer else decoded.slot
            card = board.card_at(own)
            shown = card_facts(cards[card]) if card in cards else _plain(board.object_at(own)).removeprefix(own)
            heading = f"{what}: {shown.strip()}"
        else:
            rest.append(index)
            continue
        groups.setdefault(heading, []).append(index)
    return [*groups.items(), *([("", rest)] if rest else [])]


def _grade(index: int | None) -> str:
    if index is None or index < 0:
        return "none"
    return SPEED_GRADES[min(index, len(SPEED_GRADES) - 1)]


def _other(seat: str) -> str:
    return "P2" if seat == "P1" else "P1"


class _Board:
    """Text pieces of one observation; `names` gives card names."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.view = view
        self.names = _names_for(view)
        self.viewer: str | None = view.get("viewer")

    def card(self, card_id: str | None) -> str:
        if card_id is None:
            return "?"
        name = self.names.get(card_id)
        return escape(f"{card_id} {name}" if name else card_id)

    def cards(self, ids: Sequence[str]) -> str:
        return ", ".join(self.card(c) for c in ids) if ids else "-"

    def caster(self, block: Mapping[str, Any]) -> str:
        caster = block.get("caster")
        if caster is None:
            return "[dim]no caster[/]"
        hp = block.get("hp")
        hp_count = len(hp) if isinstance(hp, list) else hp
        parts = [f"[bold]{self.card(caster['card'])}[/]", f"HP {hp_count}"]
        if caster.get("checked"):
            parts.append("[yellow]checked[/]")
        if caster.get("arms"):
            parts.append(f"arms {self.card(caster['arms'])}")
        if caster.get("shield"):
            parts.append(f"shield {caster['shield']}")
        return " · ".join(parts)

    def unit(self, unit: Mapping[str, Any] | None) -> str:
        if unit is None:
            return "[dim]·[/]"
        if unit.get("dummy"):
            real = unit.get("card")
            label = f"dummy ({self.card(real)})" if real else "dummy"
        else:
            label = self.card(unit.get("card"))
        parts = [label]
        if "bp" in unit:
            parts.append(f"BP {unit['bp']}")
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
        if unit.get("bp_mod"):
            parts.append(f"BP mod {unit['bp_mod']:+d}")
        shields = unit.get("shields", unit.get("shield", 0))
        if shields:
            parts.append(f"shield {shields}")
        if unit.get("moved"):
            parts.append("[dim]moved[/]")
        return " · ".join(parts)

    def field(self, seat: str) -> Table:
        player = self.view["players"][seat]
        table = Table(show_header=True, box=None, padding=(0, 2), expand=False)
        table.add_column("", style="dim")
        for name in AREAS:
            table.add_column(f"{seat} {name}", min_width=24)
        table.add_column(f"{seat} IDOL", min_width=16)
        blocks = [player.get(name) or {"caster": None, "hp": 0, "units": []} for name in AREAS]
        table.add_row("caster", *(self.caster(block) for block in blocks), "")
        idol = self.unit(player.get("idol"))
        for row in range(2):
            cells = []
            for block in blocks:
                units = block.get("units") or []
                cells.append(self.unit(units[row]) if row < len(units) else "[dim]·[/]")
            table.add_row(f"unit {row + 1}", *cells, idol if row == 0 else "")
        return table

    def resources(self, seat: str) -> list[str]:
        player = self.view["players"][seat]
        mine = self.viewer == seat
        bursts = player.get("bursts") or []
        checked = sum(1 for b in bursts if b.get("checked"))
        engraves = player.get("engraves") or []
        engrave_text = (
            ", ".join(self.card(e.get("card")) + (" (checked)" if e.get("checked") else "") for e in engraves) or "-"
        )
        discard = player.get("discard") or []
        deck = player.get("deck")
        deck_count = len(deck) if isinstance(deck, list) else deck
        hand = player.get("hand")
        hand_count = len(hand) if isinstance(hand, list) else hand
        speed = player.get("speed") or []
        shift = player.get("speed_shift") or 0
        grade = _grade(player.get("speed_grade"))
        speed_text = f"speed {self.cards(speed)} → grade {grade}" + (f" (shift {shift:+d})" if shift else "")
        gear = player.get("gear")
        if isinstance(gear, list) and gear:
            speed_text += f" · closed speed card {self.cards(gear)}"
        elif isinstance(gear, int) and gear:
            speed_text += f" · {gear} closed speed card"
        lines = [
            f"hand {hand_count} · deck {deck_count} · discard {len(discard)}"
            + (f" (top {self.card(discard[-1])})" if discard else "")
            + f" · bursts {len(bursts)} ({len(bursts) - checked} normal, {checked} checked) · engraves {engrave_text}",
            speed_text,
        ]
        known = player.get("known_hand") or []
        if not mine and known:
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
        return f"{seat} hand: {hand} card{'' if hand == 1 else 's'}"

    def side(self, seat: str) -> list[RenderableType]:
        who = "you" if seat == self.viewer else "opponent" if self.viewer else "spectating"
        header = f"[bold]{seat}[/] ({who})"
        return [header, self.field(seat), *self.resources(seat), self.hand(seat)]


def render_board(view: Mapping[str, Any]) -> RenderableType:
    """The opponent's side on top, the viewer's below (a spectator sees P2 on top)."""
    board = _Board(view)
    me = board.viewer or "P1"
    them = _other(me)
    parts: list[RenderableType] = [*board.side(them), ""]
    attack = board.attack()
    if attack:
        parts += [attack, ""]
    parts += board.side(me)
    triggers = view.get("triggers") or []
    if triggers:
        waiting = ", ".join(f"{t['player']} {escape(str(t.get('source')))} {escape(str(t.get('ability')))}"
                            for t in triggers)  # fmt: skip
        parts.append(f"triggers waiting: {waiting}")
    if view.get("cost_reduction"):
        parts.append(f"cost reduction for the code being paid: {view['cost_reduction']}")
    window = view.get("window", "")
    to_move = view.get("to_move")
    if window == "over":
        result = "draw" if view.get("draw") or not view.get("winner") else f"{view['winner']} wins"
        parts.append(f"[bold]Game over: {result}[/] ({escape(str(view.get('reason', '')).replace('_', ' '))})")
    elif to_move:
        parts.append(f"[bold]{to_move}[/] to decide: {WINDOW_NAMES.get(window, window)}")
    who = f"you are {me}" if board.viewer else "spectator"
    step = WINDOW_NAMES.get(window, window)
    title = f"Dreadnought · {who} · turn {view.get('turn')} · {view.get('phase')} phase · {step}"
    subtitle = f"first player {view.get('first') or '-'} · tiebreak token {view.get('token')}"
    return Panel(Group(*parts), title=escape(title), subtitle=escape(subtitle))


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
        lines.append(f"game over: {result} ({str(view.get('reason', '')).replace('_', ' ')})")
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


_EFFECT_WORDS: dict[str, str] = {
    "damage": "{amount} damage to {target}",
    "enchant": "{count} {kind} enchant(s) on {target}",
    "bp_mod": "{target} {amount} BP this turn",
    "attack_mod": "{amount} damage added to the attack",
    "draw": "draws {n}",
    "burst": "the top {n} deck card(s) go to the burst area",
    "engrave": "creates {n} engrave(s)",
    "normalize": "{target} back to normal",
    "check": "{target} checked",
    "break": "{target} broken",
    "bounce": "{target} back to its owner's hand",
    "move": "{target} moves to its other battle area",
    "hp_break": "{target} loses up to {n} HP card(s)",
    "hp_gain": "the top {n} deck card(s) join {target}'s HP",
    "shield": "{target} takes {amount} less per damage this turn",
    "static_bp": "{target} {amount} BP while active",
    "static_shield": "{target} takes {amount} less per damage while active",
    "speed_shift": "speed {steps} grade(s) up this turn",
    "cost_reduce": "the code being paid costs {n} log less",
    "attach": "the code is attached to {target}",
}
"""D22.2's effects in words, by their parameters."""


def _split_args(text: str) -> dict[str, str]:
    """`k=v, k2=v2` at the top level (a value may hold brackets: a selector's filters, attach's statics)."""
    args: dict[str, str] = {}
    depth, start = 0, 0
    for index, char in enumerate(text + ","):
        if char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        if char == "," and depth == 0:
            key, _, value = text[start:index].strip().partition("=")
            if key:
                args[key] = value
            start = index + 1
    return args


def effect_text(effect: str) -> str:
    """An effect string (`burst(n=1)`, `damage(target=enemy_unit[size=S], amount=50)`) in player words."""
    name, _, rest = effect.partition("(")
    template = _EFFECT_WORDS.get(name)
    if template is None or not rest.endswith(")"):
        return effect
    args = {key: value.replace("_", " ") for key, value in _split_args(rest[:-1]).items()}
    if name in ("bp_mod", "static_bp") and not args.get("amount", "").startswith("-"):
        args["amount"] = "+" + args.get("amount", "")
    try:
        return template.format(**args)
    except KeyError:
        return effect


def _ability(ref: Any) -> str:
    """An ability reference (`A:X01:0`, `G:R11:0`, `S:R01`, `C:R05`) in words."""
    kind, _, rest = str(ref).partition(":")
    card, _, index = rest.partition(":")
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
    "move": lambda e, who: f"{who} moves {e['unit']}.",
    "remove": lambda e, who: f"{who} removes {e['unit']} from the field.",
    "play": lambda e, who: f"{who} plays {e['card']}.",
    "sub": lambda e, who: f"{who} uses the sub-effect of {e['card']}.",
    "use": lambda e, who: f"{who} uses {_ability(e['ability'])}.",
    "trigger": lambda e, who: f"{who}'s {e['card']} triggers ({_ability(e['ability'])}).",
    "effect": lambda e, who: f"{who}: {effect_text(e['effect'])}.",
    "arms": lambda e, who: f"{who} attaches {e['card']} to {e['caster']}.",
    "boost": lambda e, who: f"{who} puts a boost enchant on {e['unit']}.",
    "weaken": lambda e, who: f"{who} puts a weaken enchant on {e['unit']}.",
    "engrave": lambda e, who: f"{who} engraves {e['card']}.",
    "bounce": lambda e, who: f"{e['card'] or 'A dummy'} returns to {who}'s hand.",
    "break": lambda e, who: f"{who}'s {e['unit']} is broken.",
    "hp_loss": lambda e, who: f"{who}'s {e['caster']} loses {e['amount']} HP ({e['hp']} left).",
    "attack": lambda e, who: f"{who} attacks {_other(who)}'s {e['area']} with {_list(e['attackers'])}.",
    "block": lambda e, who: f"{who} blocks with {e['blocker']}.",
    "attack_damage": lambda e, who: f"{who}'s attack deals {e['damage']} damage to {e['blocker']}.",
    "pass": lambda e, who: f"{who} passes.",
    "discard": lambda e, who: f"{who} discards {e['card']} (hand limit).",
    "end_of_turn": lambda e, who: f"Turn {e['turn']} ends; the tiebreak token goes to {e['token']}.",
    "game_over": lambda e, who: f"Game over: draw ({str(e.get('reason', '')).replace('_', ' ')})."
    if e.get("winner") is None
    else f"Game over: {e['winner']} wins ({str(e.get('reason', '')).replace('_', ' ')}).",
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
