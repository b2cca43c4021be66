"""Dreadnought in a player's words: each card's effects, every keyword and the key rules (D2, D12-D22),
read from the parsed effects so that no engine notation (`damage(target=...)`) reaches a player."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from cardlab.core.cardwords import CardWords
from cardlab.games.dreadnought.cards import Ability, CardDef, Cost, Effect, Filter, Selector

if TYPE_CHECKING:
    from cardlab.games.dreadnought.game import Dreadnought

_SELECTORS: dict[str, str] = {
    "self": "it",
    "own_unit": "one of your units",
    "enemy_unit": "an enemy unit",
    "any_unit": "any unit",
    "own_caster": "one of your casters",
    "enemy_caster": "an enemy caster",
    "bearer": "the caster holding it",
    "host": "the unit it is attached to",
    "attacker": "an attacking unit",
    "blocker": "the blocker",
    "all_own_units": "each of your units",
    "all_enemy_units": "each enemy unit",
}
"""D22.6 selectors as a player says them."""

_TIMINGS: dict[str, str] = {
    "SPEED": "speed",
    "CAST": "cast",
    "FAST": "fast",
    "ACTION": "action",
    "REACTION": "reaction",
    "PAYMENT": "payment",
}
_EVENTS: dict[str, str] = {
    "on_cast": "When cast",
    "on_attack": "When it attacks",
    "on_block": "When it blocks",
    "on_break": "When broken",
    "on_speed_reveal": "When opened as a speed card",
    "start_of_action_phase": "At the start of the action phase",
    "end_of_turn": "At the end of the turn",
}
_ZONES: dict[str, str] = {
    "battle": "while in a battle area",
    "idol": "while in the idol area",
    "field": "",
    "speed": "while in your speed area",
}
_REQUIRES: dict[str, str] = {
    "own_attack": "during your attack",
    "enemy_attack": "during an enemy attack",
    "attack": "during an attack",
}


def _filter(item: Filter) -> str:
    if item.key == "bp":
        return f"with BP {item.value} or {'less' if item.op == '<=' else 'more'}"
    if item.key == "size":
        return f"of size {item.value}"
    if item.key == "zone":
        return "in a battle area" if item.value == "battle" else "in the idol area"
    if item.key == "name":
        return f"named {item.value}"
    if item.key == "state":
        return f"that is {item.value}"
    return f"of cluster {item.value}"


def target_words(selector: Selector, owner: str = "your") -> str:
    """`enemy_unit[bp<=120]` -> 'an enemy unit with BP 120 or less'; `owner` says whose 'own' units are
    ("your" on a card, "P1's" in P1's log line)."""
    base = _SELECTORS.get(selector.base, selector.base.replace("_", " ")).replace("your", owner)
    return " ".join([base, *(_filter(f) for f in selector.filters)])


def _top(count: int) -> str:
    return "the top card" if count == 1 else f"the top {count} cards"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _effect(effect: Effect, owner: str) -> str:
    args = effect.args
    selector = args.get("target")
    target = target_words(selector, owner) if isinstance(selector, Selector) else ""

    def number(key: str) -> int:
        return effect.number(key)

    words: dict[str, Callable[[], str]] = {
        "damage": lambda: f"deal {number('amount')} damage to {target}",
        "enchant": lambda: f"put {_plural(number('count'), str(args['kind']))} on {target} "
        f"({'+' if args['kind'] == 'boost' else '-'}20 BP{' each' if number('count') > 1 else ''})",
        "bp_mod": lambda: f"{target} gets {number('amount'):+d} BP this turn",
        "attack_mod": lambda: f"the attack deals {number('amount')} more damage",
        "draw": lambda: f"draw {_plural(number('n'), 'card')}",
        "burst": lambda: f"put {_top(number('n'))} of {owner} deck into {owner} burst area",
        "engrave": lambda: f"engrave {number('n')} (a card from {owner} discard becomes a reusable log source)",
        "normalize": lambda: f"make {target} normal again",
        "check": lambda: f"check {target}",
        "break": lambda: f"break {target}",
        "bounce": lambda: f"return {target} to its owner's hand",
        "move": lambda: f"move {target} to its other battle area",
        "hp_break": lambda: f"{target} loses up to {_plural(number('n'), 'HP card')}",
        "hp_gain": lambda: f"put {_top(number('n'))} of {owner} deck under {target} as HP",
        "shield": lambda: f"{target} takes {number('amount')} less from each damage this turn",
        "speed_shift": lambda: f"{owner} speed goes {_plural(number('steps'), 'grade')} up this turn",
        "cost_reduce": lambda: f"the code you are paying for costs {number('n')} log less",
        "attach": lambda: f"attach it to {target}; while attached, "
        + "; ".join(_effect(s, owner) for s in effect.statics),
        "static_bp": lambda: f"{target} has {number('amount'):+d} BP",
        "static_shield": lambda: f"{target} takes {number('amount')} less from each damage",
    }
    return words[effect.name]() if effect.name in words else effect.name.replace("_", " ")


def effects_words(effects: Sequence[Effect], owner: str = "your") -> str:
    """A list of effects as one sentence, capitalized; `owner` as in `target_words`."""
    text = "; ".join(_effect(e, owner) for e in effects) or "nothing"
    return text[0].upper() + text[1:]


def _cost(cost: Cost) -> str:
    parts = []
    if cost.check_self:
        parts.append("check it")
    if cost.log:
        parts.append(f"pay {cost.log} log")
    if cost.engrave:
        parts.append(f"check {_plural(cost.engrave, 'engrave')}")
    if cost.discard:
        parts.append(f"discard {_plural(cost.discard, 'card')}")
    return ", ".join(parts) or "free"


def _timings(timing: Sequence[str]) -> str:
    """('CAST', 'FAST', 'REACTION') -> 'cast, fast or reaction'."""
    names = [_TIMINGS.get(t, t.lower()) for t in timing]
    return " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 2 else names)


def ability_words(ability: Ability, granted: bool = False) -> str:
    """One D22.4 ability as a sentence: when it works, what it costs, what it does."""
    where = _ZONES.get(ability.zone, "")
    effects = effects_words(ability.effects)
    if ability.kind == "static":
        return f"Always{' ' + where if where else ''}: {effects}."
    if ability.kind == "trigger":
        when = _EVENTS.get(ability.event, ability.event.replace("_", " "))
        where = where if ability.zone == "idol" else ""  # a trigger's own event says where it is
        return f"{when}{' (' + where + ')' if where else ''}: {effects}."
    require = f" {_REQUIRES[ability.require]}" if ability.require in _REQUIRES else ""
    require += f" {where}" if ability.zone in ("battle", "idol") else ""  # D19.3: the text says where it works
    holder = "Gives its caster: " if granted else ""
    return f"{holder}Use at {_timings(ability.timing)} timing{require} ({_cost(ability.cost)}): {effects}."


def _keywords(card: CardDef) -> tuple[str, ...]:
    """The glossary terms the card's text uses."""
    found: list[str] = []
    effects = [*card.effects, *(e for a in (*card.abilities, *card.grants) for e in a.effects)]
    if card.sub is not None:
        effects += card.sub.effects
        found.append("sub-effect")
    names = {e.name for e in effects} | {s.name for e in effects for s in e.statics}
    for name, word in (("engrave", "engrave"), ("burst", "burst"), ("break", "break"),
                       ("shield", "shield"), ("static_shield", "shield"), ("check", "check"), ("normalize", "normal"),
                       ("attack_mod", "attack damage"), ("speed_shift", "speed"), ("hp_break", "HP"),
                       ("hp_gain", "HP"), ("cost_reduce", "log"), ("attach", "enchant")):  # fmt: skip
        if name in names:
            found.append(word)
    found += [str(e.args["kind"]) for e in effects if e.name == "enchant"]
    costs = [a.cost for a in (*card.abilities, *card.grants)] + ([card.sub.cost] if card.sub else []) + [card.extra]
    if any(c.log for c in costs) or card.cost:
        found.append("log")
    if any(c.check_self for c in costs):
        found.append("check")
    if any(c.engrave for c in costs):
        found.append("engrave")
    timings = [*card.timing, *(t for a in (*card.abilities, *card.grants) for t in a.timing)]
    timings += list(card.sub.timing) if card.sub else []
    found += [_TIMINGS[t] for t in timings if t in _TIMINGS]
    found += {"idol": ["idol", "upkeep"], "arms": ["arms"], "code": ["code"], "caster": ["caster"]}.get(card.type, [])
    if card.bp:
        found.append("BP")
    return tuple(dict.fromkeys(found))


def card_words_of(card: CardDef) -> CardWords:
    """A loaded card in player words (D2, D22)."""
    stats = [card.type]
    for label, value in (("speed", card.speed), ("cost", card.cost if card.type != "caster" else ""),
                         ("size", card.size), ("BP", card.bp), ("HP", card.hp), ("upkeep", card.upkeep)):  # fmt: skip
        if value or (label == "cost" and card.type != "caster"):
            stats.append(f"{label} {value}")
    if card.type == "caster" and card.hp_value and card.hp_value != 50:
        stats.append(f"{card.hp_value} damage per HP card")
    stats.append("/".join(card.cluster) or "no cluster")
    abilities: list[str] = []
    extra = _cost(Cost(engrave=card.extra.engrave, discard=card.extra.discard))
    if extra != "free":
        abilities.append(f"Also costs: {extra}.")
    if card.type == "code":
        require = f" {_REQUIRES[card.require]}" if card.require in _REQUIRES else ""
        abilities.append(f"Play at {_timings(card.timing)} timing{require}: {effects_words(card.effects)}.")
    if card.type == "arms":
        abilities.append("Attach to one of your casters in your fast actions; discarded at the end of the turn.")
    abilities += [ability_words(a) for a in card.abilities]
    abilities += [ability_words(a, granted=True) for a in card.grants]
    if card.sub is not None:
        require = f" {_REQUIRES[card.sub.require]}" if card.sub.require in _REQUIRES else ""
        abilities.append(
            f"Sub-effect ({_timings(card.sub.timing)}{require}, {_cost(card.sub.cost)}): "
            f"{effects_words(card.sub.effects)}."
        )
    return CardWords(f"{card.id} {card.name}", " · ".join(stats), tuple(abilities), _keywords(card))


def card_words(game: Dreadnought, card: str) -> CardWords | None:
    """The card with id or name `card` (any case) in player words; None when the game has none."""
    wanted = card.strip().upper()
    cards = game.card_set.by_id
    found = cards.get(wanted) or next((c for c in cards.values() if c.name.upper() == wanted), None)
    return None if found is None else card_words_of(found)


GLOSSARY: dict[str, str] = {
    "caster": "Each player has two casters, one per battle area; their HP cards are your life. A caster at 0 HP "
    "is down: it stays and can still pay log, but cannot block (D2.4, D13.5).",
    "HP": "A caster's HP is its stack of face-down HP cards; an attack on it removes one card per 50 damage. "
    "When both your casters are at 0 HP you lose (D13.4, D21.1).",
    "down": "A caster at 0 HP: it can no longer block, and its battle area can be attacked only while a unit "
    "stands there (D13.5).",
    "unit": "A creature cast into a battle area; its BP is both its strength in an attack and the damage it "
    "takes to break (D2.5, D13.3).",
    "BP": "Battle points: printed BP, +20 per boost, -20 per weaken, plus effects. Damage that reaches a unit's "
    "BP breaks it; damage never adds up between hits (D13.1, D13.2).",
    "size": "Units are S, M or L and weigh 1, 2 or 3; a battle area holds at most two units weighing 3 in all "
    "(D2.5, D8.3).",
    "battle area": "BA1 and BA2: each holds one caster and up to two units; an attack targets a whole battle "
    "area, and its defender picks the blocker there (D1.3, D10.5, D10.6).",
    "idol": "A unit that may stand in your idol area instead, where it cannot attack or block but can pay 1 log "
    "(D19.1, D19.2).",
    "upkeep": "An idol in a battle area must be paid its upkeep in log at the start of your cast actions, or it "
    "is checked (D19.4).",
    "code": "A one-shot spell played at one of its timings, then discarded (D2.7).",
    "arms": "Equipment played in your fast actions onto one of your casters, giving it an ability until the end "
    "of the turn (D2.8, D9.2).",
    "log": "What costs are paid in: check a normal burst, engrave, caster or idol in the idol area for 1 log "
    "each; unspent log is lost (D12.1).",
    "burst": "A face-down card in your burst area: check it to pay 1 log, or god draw it. One comes from your "
    "deck every draw phase (D7.2, D12.2).",
    "god draw": "Take one normal burst into your hand, as often as you like, in your cast actions, your action "
    "turn, your reaction right or before you block (D17).",
    "engrave": "A card from your discard put face up in an engrave slot: it pays 1 log or an engrave cost and "
    "stays from turn to turn while unused; 3 at most (D16).",
    "dummy": "Any card cast face down into a battle area for free: an S unit with BP 50 that enters checked, "
    "can block, and is discarded at the end of the turn (D15).",
    "cast": "In your cast actions, put a unit or idol from your hand or speed area into a battle area (or idol "
    "area), paying its cost (D8.2).",
    "normal": "Upright and usable: a normal card can attack, be checked to pay, or use an ability (D11.4, D12.1).",
    "check": "Turn a card sideways: attacking, paying log and many abilities check a card; everything is made "
    "normal again at the end of the turn (D10.5, D11.4, D12.1).",
    "boost": "A face-down card under a unit: +20 BP each until the end of the turn (D14.1).",
    "weaken": "A checked card under a unit: -20 BP each until the end of the turn; at 0 BP the unit breaks "
    "(D14.1, D13.3).",
    "enchant": "Boosts, weakens and attached codes on a unit; all are discarded at the end of the turn (D14).",
    "shield": "Each damage to the shielded unit or caster is reduced by the shield amount (D13.2, D22.2).",
    "break": "A unit broken by damage at least its BP, by BP 0 or by an effect goes to the discard with its "
    "enchants (D13.3).",
    "attack": "Check one or more normal units and attack an enemy battle area; the defender picks a blocker "
    "there and the damage is the attackers' total BP (D10.5-D10.7).",
    "attack damage": "The attackers' BP plus any bonuses, dealt to the blocker: a unit breaks if it is at "
    "least its BP, a caster loses one HP card per 50 (D10.7).",
    "block": "The defender must choose one unit or caster (HP 1 or more) in the attacked battle area to take "
    "the attack (D10.6).",
    "attack bonus": "When an attack breaks the last unit in a battle area, that area's caster also loses one "
    "HP card (D10.8).",
    "speed": "Each turn's top deck card sets your speed grade (C < B < A < A+ < A++ < A+++); the faster player "
    "acts first in the turn (D6.1, D6.2, D6.5).",
    "gear change": "Once in your speed actions, put a hand card face down in your speed area: when it opens it "
    "sets your speed (D6.3, D6.5).",
    "sub-effect": "An alternative use of a card from your hand or speed area, with its own timing and cost (D18).",
    "reaction": "After an attack's blocker is chosen or an action is paid, the players take turns to play one "
    "reaction item each, starting with the other player, until both pass (D10.4).",
    "action": "In the action phase the players alternate action turns: attack, play one action item, or pass; "
    "two passes in a row end the phase (D10.2, D10.3).",
    "fast": "Your fast actions, after the cast phase: play arms, fast codes, abilities and sub-effects (D9).",
    "payment": "Used only while you pay the log cost of a code you are playing, to lower it (D18.3).",
    "library out": "With an empty deck you do not lose: each draw takes one of your own HP cards instead (D20.1).",
}
"""The keywords and key rules of Dreadnought, in player words."""

HOW_TO_WIN = (
    "Bring both enemy casters to 0 HP: an attack on a caster removes one HP card per 50 damage, and breaking "
    "the last unit of a battle area takes one more (D21.1, D10.7, D10.8)."
)


def card_catalog(game: Dreadnought) -> tuple[str, ...]:
    """Every card of the game's card set (packaged and the designer's files), as filed."""
    return tuple(game.card_set.by_id)


def glossary(game: Dreadnought) -> Mapping[str, str]:
    return GLOSSARY


def how_to_win(game: Dreadnought) -> str:
    return HOW_TO_WIN


# Why a game ended, as the result banner and the terminal's last line say it ({winner}, {loser}: seats).
WIN_REASONS: dict[str, str] = {"hp": "{loser}'s casters have no HP left", "concede": "{loser} conceded"}
DRAW_REASONS: dict[str, str] = {
    "hp": "both players' casters ran out of HP at once",
    "turn_limit": "the turn limit was reached",
}

# Each rule variant's values in words, for the lobby's advanced rules (rule name -> value -> words).
RULE_VALUES: dict[str, dict[str, str]] = {
    "draw_counts": {
        "1_2": "faster player 1, slower 2",
        "1_1": "1 card each",
        "2_2": "2 cards each",
        "0_1": "faster player 0, slower 1",
    },
    "draw_bursts": {"1": "1 burst a turn", "0": "no bursts", "2": "2 bursts a turn"},
    "library_out": {"draws": "HP card for empty draws", "every_use": "HP card for every deck use"},
    "god_draw_windows": {"seed": "as written", "every_window": "also in speed and fast actions"},
    "token_to": {"second": "to the slower player", "first": "to the faster player"},
    "mulligan_to": {"discard": "set-aside cards discarded", "deck": "set-aside cards back in the deck"},
    "tie_reveals": {
        "3": "up to 3 re-reveals",
        "0": "no re-reveal",
        "1": "1 re-reveal",
        "no_limit": "until speeds differ",
    },
    "trigger_order": {"first": "faster player first", "second": "slower player first"},
    "reaction_first": {"defender": "the defender reacts first", "actor": "the attacker reacts first"},
    "reactions": {"immediate": "resolve at once", "stack": "stack, last played first"},
    "blocker": {"fixed": "a blocker stays chosen", "rechosen": "a blocker that leaves is replaced"},
    "bp_filter": {"current": "current BP", "printed": "printed BP"},
}
