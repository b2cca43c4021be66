"""Dreadnought card and deck data (D2, D3, D22, D23), loaded from TOML and checked on load.

Loading parses every effect string against the closed vocabulary of D22 and rejects anything the rules
engine could not play (unknown keys, effects, parameters, selectors or filters, free activated costs), so
the engine can trust every `CardDef`. Deck rules (D3) are a separate check, `validate_deck`, because a deck
file can be well formed and still illegal.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TypeAlias

from cardlab.core.carddata import (
    CardDataError,
    CardIndex,
    DataTable,
    check_fields,
    load_cards,
    load_deck_table,
    require_card_id,
    require_int,
    require_int_map,
    require_str,
    require_table_list,
)
from cardlab.core.errors import PositionError
from cardlab.core.rules import parse_patch, patch_value

_PACKAGE = "cardlab.games.dreadnought"

CARD_TYPES = ("caster", "unit", "idol", "code", "arms")
"""D2.1."""
CLUSTERS = ("red", "blue", "yellow", "black", "green")
"""D2.2."""
ALL_CLUSTERS = "ALL"
"""D3.4: the `cond` that every pair of casters meets."""
SPEEDS = ("C", "B", "A", "A+", "A++", "A+++")
"""D2.2 speed grades, slowest first: the index is the D6.2 speed index."""
SIZES = ("S", "M", "L")
"""D2.5 unit sizes; the weight is the index + 1."""
TIMINGS = ("SPEED", "CAST", "FAST", "ACTION", "REACTION", "PAYMENT")
"""D5.4 timing tags."""
ABILITY_KINDS = ("activated", "trigger", "static")
"""D22.4."""
ZONES = ("battle", "idol", "field", "speed")
"""D22.4 ability zones."""
EVENTS = ("on_cast", "on_attack", "on_block", "on_break", "on_speed_reveal", "start_of_action_phase", "end_of_turn")
"""D22.4 trigger events."""
REQUIRES = ("own_attack", "enemy_attack", "attack")
"""D22.5."""
ENCHANT_KINDS = ("boost", "weaken")
"""D22.2 `enchant(kind=...)`, D14.1."""
SINGLE_SELECTORS = (
    "self", "own_unit", "enemy_unit", "any_unit", "own_caster", "enemy_caster", "bearer", "host", "attacker", "blocker",
)  # fmt: skip
"""D22.6: one object, chosen by the player using the effect."""
GROUP_SELECTORS = ("all_own_units", "all_enemy_units")
"""D22.6: every matching object, no choice."""
FILTER_CHOICES: dict[str, tuple[str, ...]] = {
    "size": SIZES,
    "zone": ("battle", "idol"),
    "state": ("normal", "checked"),
    "cluster": CLUSTERS,
}
"""D22.6 word filters and their values; `name=` takes any card name and `bp<=`/`bp>=` an integer."""

EFFECT_PARAMS: dict[str, tuple[str, ...]] = {
    "damage": ("target", "amount"),
    "enchant": ("kind", "target", "count"),
    "bp_mod": ("target", "amount"),
    "attack_mod": ("amount",),
    "draw": ("n",),
    "burst": ("n",),
    "engrave": ("n",),
    "normalize": ("target",),
    "check": ("target",),
    "break": ("target",),
    "bounce": ("target",),
    "move": ("target",),
    "hp_break": ("target", "n"),
    "hp_gain": ("target", "n"),
    "shield": ("target", "amount"),
    "speed_shift": ("steps",),
    "cost_reduce": ("n",),
    "attach": ("target", "statics"),
}
"""D22.2: the closed effect vocabulary, name -> parameters in signature order."""
STATIC_EFFECT_PARAMS: dict[str, tuple[str, ...]] = {
    "static_bp": ("target", "amount"),
    "static_shield": ("target", "amount"),
}
"""D22.3: the effects of `static` abilities, grants' statics and `attach`."""

PARAM_DEFAULTS: dict[tuple[str, str], int] = {("enchant", "count"): 1, ("hp_break", "n"): 1, ("hp_gain", "n"): 1}
"""D22.2 optional parameters; the parsed `Effect` always carries them."""
_SIGNED_PARAMS = frozenset({("bp_mod", "amount"), ("static_bp", "amount")})
"""BP changes may go either way (D22.2 `bp_mod` is "± amount"); every other integer is a positive count."""

_UNIT_EFFECTS = frozenset({"damage", "enchant", "bp_mod", "break", "bounce", "move"})
"""D13.2, D13.3, D14.3, D22.2: effects on units only."""
_CASTER_EFFECTS = frozenset({"hp_break", "hp_gain"})
_UNIT_SELECTORS = frozenset({"own_unit", "enemy_unit", "any_unit", "attacker", "all_own_units", "all_enemy_units"})
_CASTER_SELECTORS = frozenset({"own_caster", "enemy_caster", "bearer"})
_UNIT_FILTERS = frozenset({"bp", "size", "zone"})
"""Characteristics only units have (casters have no BP or size and never change zone)."""
_STATIC_TARGETS = frozenset({"self", "host", "bearer", *GROUP_SELECTORS})
"""A continuous effect is never "used", so nobody could choose its target (D22.3)."""
_ATTACK_EVENTS = frozenset({"on_attack", "on_block"})

CASTERS_PER_DECK = 2
DECK_SIZE = 50
MAX_COPIES = 4
HP_VALUE = 50

PACKAGED_DECKS: tuple[str, ...] = ("ember_spark", "tide_grove")
"""D23.3 starter decks, shipped in data/decks/."""

_CARD_FIELDS = ("id", "name", "type", "cluster", "cond", "speed", "cost")
_CARD_OPTIONAL = ("extra", "abilities", "sub", "max_copies")
_TYPE_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "caster": (("id", "name", "type", "cluster", "hp"), ("hp_value", "abilities")),
    "unit": ((*_CARD_FIELDS, "size", "bp"), _CARD_OPTIONAL),
    "idol": ((*_CARD_FIELDS, "size", "bp", "upkeep"), _CARD_OPTIONAL),
    "code": ((*_CARD_FIELDS, "timing", "effects"), (*_CARD_OPTIONAL, "require")),
    "arms": ((*_CARD_FIELDS, "grants"), _CARD_OPTIONAL),
}
"""D2.2-D2.8, D22.1: (required, optional) keys per card type."""
_ABILITY_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "activated": (("kind", "timing", "zone", "cost", "effects"), ("require",)),
    "trigger": (("kind", "event", "zone", "effects"), ()),
    "static": (("kind", "zone", "effects"), ()),
}
"""D22.4."""
_ABILITY_COST = ("log", "check_self", "engrave", "discard")
_SUB_COST = ("log", "engrave", "discard")
_EXTRA_COST = ("engrave", "discard")

_CALL = re.compile(r"\s*([a-z_]+)\s*\((.*)\)\s*", re.DOTALL)
_INT = re.compile(r"-?(?:0|[1-9][0-9]*)")
_SELECTOR = re.compile(r"([a-z_]+)(?:\[(.*)\])?", re.DOTALL)
_FILTER = re.compile(r"([a-z_]+)\s*(<=|>=|=)\s*(.*)", re.DOTALL)
_BRACKETS = {"(": ")", "[": "]"}


class EffectError(ValueError):
    """An effect string outside the D22 vocabulary, or in a place where it cannot work."""


@dataclass(frozen=True, slots=True)
class Filter:
    """One D22.6 filter: `bp` with `<=`/`>=` and an integer, else `=` and a word or card name."""

    key: str
    op: str
    value: int | str

    def __str__(self) -> str:
        return f"{self.key}{self.op}{self.value}"


@dataclass(frozen=True, slots=True)
class Selector:
    """A D22.6 selector: `base` and the filters every chosen or affected object must pass."""

    base: str
    filters: tuple[Filter, ...] = ()

    @property
    def is_group(self) -> bool:
        """Groups affect every match and need no legal target to be played (D5.3a)."""
        return self.base in GROUP_SELECTORS

    def __str__(self) -> str:
        return self.base + (f"[{','.join(map(str, self.filters))}]" if self.filters else "")


ArgValue: TypeAlias = "int | str | Selector | tuple[Effect, ...]"
"""An effect parameter: an integer, a word, a selector or (`attach`) static effects."""


@dataclass(frozen=True, slots=True)
class Effect:
    """One parsed D22.2/D22.3 effect; `args` holds every parameter in signature order, defaults filled in."""

    name: str
    args: dict[str, ArgValue]

    def __hash__(self) -> int:
        return hash((self.name, tuple(self.args.items())))

    def number(self, key: str) -> int:
        """An integer parameter (`amount`, `n`, `count`, `steps`: D22.2, D22.3)."""
        value = self.args[key]
        if not isinstance(value, int):
            raise TypeError(f"{self.name}: {key} is not an integer")
        return value

    @property
    def statics(self) -> tuple[Effect, ...]:
        """The static effects an `attach` gives its host (D14.5); empty for every other effect."""
        value = self.args.get("statics", ())
        if not isinstance(value, tuple):
            raise TypeError(f"{self.name}: statics is not a list of effects")
        return value

    def __str__(self) -> str:
        """The canonical effect string, as the sample set writes it."""
        return f"{self.name}({', '.join(f'{key}={_show_arg(value)}' for key, value in self.args.items())})"


@dataclass(frozen=True, slots=True)
class Cost:
    """A D22.4 cost table (also `sub` costs and a card's `extra`); absent entries are 0 / false."""

    log: int = 0
    check_self: bool = False
    engrave: int = 0
    discard: int = 0


@dataclass(frozen=True, slots=True)
class Ability:
    """One D22.4 ability; keys its kind does not take stay empty (`timing`, `cost`, `require`, `event`)."""

    kind: str
    timing: tuple[str, ...]
    zone: str
    cost: Cost
    require: str
    event: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class Sub:
    """A D18 sub-effect: an alternative use of the card from hand or speed area."""

    timing: tuple[str, ...]
    require: str
    cost: Cost
    effects: tuple[Effect, ...]


@dataclass(frozen=True, slots=True)
class CardDef:
    """A card's printed data (D2, D22.1). Fields another type does not have stay 0 / empty / None."""

    id: str
    type: str
    name: str
    cluster: tuple[str, ...]
    abilities: tuple[Ability, ...] = ()
    hp: int = 0
    hp_value: int = 0
    cond: tuple[str, ...] = ()
    speed: str = ""
    cost: int = 0
    extra: Cost = Cost()
    size: str = ""
    bp: int = 0
    upkeep: int = 0
    timing: tuple[str, ...] = ()
    require: str = ""
    effects: tuple[Effect, ...] = ()
    grants: tuple[Ability, ...] = ()
    sub: Sub | None = None
    max_copies: int = 0

    @property
    def speed_index(self) -> int:
        """D6.2: C = 0 ... A+++ = 5."""
        return SPEEDS.index(self.speed)

    @property
    def weight(self) -> int:
        """D2.5: S, M, L weigh 1, 2, 3 in a battle area."""
        return SIZES.index(self.size) + 1


class CardSet(CardIndex[CardDef]):
    """Every loaded card (casters included) by id, in file order."""

    def casters(self) -> list[CardDef]:
        return [card for card in self.by_id.values() if card.type == "caster"]

    def cards(self) -> list[CardDef]:
        """The non-caster cards: what a deck may contain (D3.2)."""
        return [card for card in self.by_id.values() if card.type != "caster"]


@dataclass(frozen=True)
class Deck:
    """A deck as written (D22.1): two caster ids and card id -> count, not yet checked against D3."""

    id: str
    name: str
    casters: tuple[str, ...]
    cards: dict[str, int]

    def card_list(self) -> list[str]:
        """Card ids repeated by count, in file order: the deck before shuffling."""
        return [card_id for card_id, count in self.cards.items() for _ in range(count)]


# ---- effect strings (D22.2, D22.3, D22.6) ----


def _show_arg(value: ArgValue) -> str:
    if isinstance(value, tuple):
        return f"[{', '.join(map(str, value))}]"
    return str(value)


def _split(text: str) -> list[str]:
    """`text` cut at the commas outside brackets, each part stripped; unbalanced brackets are an error."""
    parts, depth, start = [], [], 0
    for at, char in enumerate(text):
        if char in _BRACKETS:
            depth.append(_BRACKETS[char])
        elif char in _BRACKETS.values():
            if not depth or depth.pop() != char:
                raise EffectError(f"unbalanced {char!r}")
        elif char == "," and not depth:
            parts.append(text[start:at].strip())
            start = at + 1
    if depth:
        raise EffectError(f"missing {depth[-1]!r}")
    parts.append(text[start:].strip())
    if "" in parts:
        raise EffectError("empty item in a comma-separated list")
    return parts


def _int(text: str, what: str, *, signed: bool = False) -> int:
    value = int(text) if _INT.fullmatch(text) else None
    if value is None or (value == 0 if signed else value < 1):
        raise EffectError(f"{what} must be {'a non-zero integer' if signed else 'an integer >= 1'}, got {text!r}")
    return value


def _filter(text: str) -> Filter:
    """One D22.6 filter."""
    valid = "bp<=N, bp>=N, name=<card name>, " + ", ".join(f"{key}={'|'.join(v)}" for key, v in FILTER_CHOICES.items())
    match = _FILTER.fullmatch(text)
    if match is None:
        raise EffectError(f"unknown filter {text!r}; valid filters: {valid}")
    key, op, value = match[1], match[2], match[3].strip()
    if key == "bp" and op != "=":
        if not _INT.fullmatch(value) or int(value) < 0:
            raise EffectError(f"filter {text!r}: bp must be compared with an integer >= 0")
        return Filter(key, op, int(value))
    if op != "=" or (key != "name" and key not in FILTER_CHOICES):
        raise EffectError(f"unknown filter {text!r}; valid filters: {valid}")
    if key != "name" and value not in FILTER_CHOICES[key]:
        raise EffectError(f"filter {text!r}: {key} must be one of {', '.join(FILTER_CHOICES[key])}")
    if not value:
        raise EffectError(f"filter {text!r}: a card name is missing")
    return Filter(key, op, value)


def _selector(text: str) -> Selector:
    """A D22.6 selector with optional `[filter,...]`."""
    match = _SELECTOR.fullmatch(text)
    if match is None or match[1] not in (*SINGLE_SELECTORS, *GROUP_SELECTORS):
        valid = ", ".join((*SINGLE_SELECTORS, *GROUP_SELECTORS))
        raise EffectError(f"unknown selector {text!r}; valid selectors: {valid} (filters in [...])")
    base, inner = match[1], match[2]
    filters = tuple(map(_filter, _split(inner))) if inner is not None else ()
    seen = [(item.key, item.op) for item in filters]
    if len(set(seen)) < len(seen):
        raise EffectError(f"selector {text!r} repeats a filter")
    if base in _CASTER_SELECTORS and any(item.key in _UNIT_FILTERS for item in filters):
        raise EffectError(f"selector {text!r}: bp, size and zone filters apply to units only")
    return Selector(base, filters)


def _arg(effect: str, key: str, text: str) -> ArgValue:
    """One parameter value, read as the kind its name implies."""
    if key == "target":
        return _selector(text)
    if key == "kind":
        if text not in ENCHANT_KINDS:
            raise EffectError(f"{effect}: kind must be one of {', '.join(ENCHANT_KINDS)}, got {text!r}")
        return text
    if key == "statics":
        match = re.fullmatch(r"\[(.*)\]", text, re.DOTALL)
        if match is None or not match[1].strip():
            raise EffectError(f"{effect}: statics must be a non-empty bracketed list of static effects, got {text!r}")
        return tuple(parse_effect(item, static=True) for item in _split(match[1]))
    return _int(text, f"{effect}: {key}", signed=(effect, key) in _SIGNED_PARAMS)


def parse_effect(text: str, *, static: bool = False) -> Effect:
    """Parse `name(key=value, ...)` from the D22.2 vocabulary, or D22.3 if `static`; `EffectError` if invalid."""
    vocabulary, other = (STATIC_EFFECT_PARAMS, EFFECT_PARAMS) if static else (EFFECT_PARAMS, STATIC_EFFECT_PARAMS)
    match = _CALL.fullmatch(text)
    if match is None:
        raise EffectError("expected name(key=value, ...)")
    name, inner = match[1], match[2]
    if name not in vocabulary:
        if name in other:
            where = (
                "not a static effect; static abilities" if static else "a static effect, valid only in static abilities"
            )
            raise EffectError(f"{name!r} is {where} and attach take static_bp, static_shield (D22.3)")
        raise EffectError(f"unknown effect {name!r}; valid effects: {', '.join(vocabulary)}")
    params = vocabulary[name]
    given: dict[str, str] = {}
    for part in _split(inner) if inner.strip() else []:
        key, equals, value = (piece.strip() for piece in part.partition("="))
        if not equals:
            raise EffectError(f"{name}: expected key=value, got {part!r}")
        if key not in params:
            raise EffectError(f"{name} has no parameter {key!r}; it takes {', '.join(params)}")
        if key in given:
            raise EffectError(f"{name}: parameter {key!r} given twice")
        given[key] = value
    args: dict[str, ArgValue] = {}
    for key in params:
        if key in given:
            args[key] = _arg(name, key, given[key])
        elif (name, key) in PARAM_DEFAULTS:
            args[key] = PARAM_DEFAULTS[name, key]
        else:
            raise EffectError(f"{name} needs parameter {key!r}")
    return Effect(name, args)


@dataclass(frozen=True, slots=True)
class _Context:
    """Where a list of effects sits, for the checks that depend on it."""

    static: bool = False
    """A static ability: only static effects (D22.3)."""
    timing: tuple[str, ...] = ()
    """Empty for triggers and statics."""
    attack: bool = False
    """A `require` or an on_attack/on_block trigger: there is a current attack (D22.2, D22.5)."""
    grant: bool = False
    """An arms' grant: `bearer` exists (D22.6)."""
    code: bool = False
    """A code's own effects: `attach` can turn the played code into an enchant (D14.5)."""


def _check_target(effect: Effect, selector: Selector, context: _Context, *, in_attach: bool) -> None:
    base = selector.base
    if base == "host" and not in_attach:
        raise EffectError("host exists only inside attach statics (D22.3)")
    if base == "bearer" and not context.grant:
        raise EffectError("bearer exists only in an arms' grants (D22.6)")
    if base in ("attacker", "blocker") and not context.attack:
        raise EffectError(f"{base} needs an attack: a require or an on_attack/on_block trigger (D22.5, D22.6)")
    if effect.name in _UNIT_EFFECTS and base in _CASTER_SELECTORS:
        raise EffectError(f"{effect.name} targets units only (D13.2, D14.3), not {base}")
    if effect.name in _CASTER_EFFECTS and (
        base in _UNIT_SELECTORS or (effect.name == "hp_gain" and base == "enemy_caster")
    ):
        raise EffectError(f"{effect.name} targets {'own ' if effect.name == 'hp_gain' else ''}casters only, not {base}")
    if effect.name in STATIC_EFFECT_PARAMS and base not in _STATIC_TARGETS:
        raise EffectError(
            f"a static effect cannot choose a target; use self, host, bearer or a group, not {base} (D22.3)"
        )
    if effect.name == "attach" and selector.is_group:
        raise EffectError("attach needs one target (D14.5)")


def _check_context(effect: Effect, context: _Context, *, in_attach: bool = False) -> None:
    """The D22.2 restrictions that depend on where the effect is printed."""
    only = {"speed_shift": ("SPEED",), "cost_reduce": ("PAYMENT",)}.get(effect.name)
    if only is not None and context.timing != only:
        raise EffectError(f"{effect.name} works only with timing = {list(only)} (D22.2)")
    if effect.name == "attack_mod" and not context.attack:
        raise EffectError("attack_mod needs an attack: a require or an on_attack/on_block trigger (D22.2)")
    if effect.name == "attach" and not context.code:
        raise EffectError("attach is valid only in a code's own effects (D14.5)")
    for value in effect.args.values():
        if isinstance(value, Selector):
            _check_target(effect, value, context, in_attach=in_attach)
        elif isinstance(value, tuple):
            for static in value:
                _check_context(static, context, in_attach=True)


# ---- card tables (D2, D22.1, D22.4) ----


def _table(table: DataTable, field: str) -> DataTable:
    """The inline table in `field` (present), carrying `field.` as the prefix of its own errors."""
    value = table.data[field]
    if not isinstance(value, dict):
        raise table.error(field, f"expected a table, got {value!r}")
    return DataTable(value, table.path, table.record, f"{table.prefix}{field}.")


def _words(table: DataTable, field: str, choices: Sequence[str], sizes: range, what: str) -> tuple[str, ...]:
    """The list in `field` (present) of `sizes` distinct words from `choices`."""
    value = table.data[field]
    valid = isinstance(value, list) and len(value) in sizes and all(item in choices for item in value)
    if not valid or len(set(value)) < len(value):
        raise table.error(field, f"expected {what} ({', '.join(choices)}), got {value!r}")
    return tuple(value)


def _cond(table: DataTable) -> tuple[str, ...]:
    """D2.2, D3.4: `[]`, `["ALL"]`, one cluster or two (the same one twice allowed)."""
    value = table.data["cond"]
    valid = isinstance(value, list) and value in ([], [ALL_CLUSTERS])
    valid = valid or (isinstance(value, list) and len(value) in (1, 2) and all(item in CLUSTERS for item in value))
    if not valid:
        raise table.error(
            "cond", f"expected [], [{ALL_CLUSTERS!r}] or one or two of {', '.join(CLUSTERS)}, got {value!r}"
        )
    return tuple(value)


def _timing(table: DataTable) -> tuple[str, ...]:
    return _words(table, "timing", TIMINGS, range(1, len(TIMINGS) + 1), "a non-empty list of different timing tags")


def _require(table: DataTable, timing: tuple[str, ...]) -> str:
    """D22.5: an attack's reaction window, so the item must be usable at REACTION."""
    if "require" not in table.data:
        return ""
    require = require_str(table, "require", REQUIRES)
    if "REACTION" not in timing:
        raise table.error("require", f"{require!r} works only in a reaction window; timing lacks 'REACTION' (D22.5)")
    return require


def _cost(table: DataTable, fields: tuple[str, ...]) -> Cost:
    """A D22.4 cost table limited to `fields`; `{}` is free."""
    check_fields(table, (), fields)
    check_self = table.data.get("check_self", False)
    if not isinstance(check_self, bool):
        raise table.error("check_self", f"expected true or false, got {check_self!r}")
    amounts = {key: require_int(table, key, 0) for key in ("log", "engrave", "discard") if key in table.data}
    return Cost(check_self=check_self, **amounts)


def _effects(table: DataTable, field: str, context: _Context) -> tuple[Effect, ...]:
    """The non-empty list of effect strings in `field` (present), parsed and checked where they sit."""
    value = table.data[field]
    if not isinstance(value, list) or not value:
        raise table.error(field, f"expected a non-empty list of effect strings, got {value!r}")
    effects = []
    for index, text in enumerate(value):
        if not isinstance(text, str):
            raise table.error(f"{field}[{index}]", f"expected an effect string, got {text!r}")
        try:
            effect = parse_effect(text, static=context.static)
            _check_context(effect, context)
        except EffectError as error:
            raise table.error(f"{field}[{index}]", f"{text!r}: {error}") from None
        effects.append(effect)
    return tuple(effects)


def _ability(table: DataTable, card_type: str, *, grant: bool = False) -> Ability:
    """One D22.4 ability of a `card_type` card, or of an arms' `grants` (D2.9)."""
    kind = require_str(table, "kind", ABILITY_KINDS)
    check_fields(table, *_ABILITY_FIELDS[kind])
    zone = require_str(table, "zone", ZONES)
    if (card_type == "caster" or grant) and zone != "field":
        raise table.error("zone", f"caster abilities and arms grants use zone 'field', got {zone!r} (D22.4, D2.9)")
    if zone == "idol" and card_type != "idol":
        raise table.error("zone", "zone 'idol' is only for idol cards (D19.3)")
    timing = _timing(table) if kind == "activated" else ()
    require = _require(table, timing)
    event = require_str(table, "event", EVENTS) if kind == "trigger" else ""
    if event == "on_speed_reveal" and zone != "speed":
        raise table.error("zone", f"on_speed_reveal fires in a speed area; expected zone 'speed', got {zone!r}")
    cost = Cost()
    if kind == "activated":
        cost = _cost(_table(table, "cost"), _ABILITY_COST)
        if not (cost.check_self or cost.log or cost.engrave or cost.discard):
            raise table.error(
                "cost", "an activated ability needs check_self = true or a positive log, engrave or discard (D22.4)"
            )
    context = _Context(kind == "static", timing, bool(require) or event in _ATTACK_EVENTS, grant)
    return Ability(kind, timing, zone, cost, require, event, _effects(table, "effects", context))


def _sub(table: DataTable) -> Sub:
    """D18.1, D22.1: a sub block's cost is an ability cost without check_self."""
    check_fields(table, ("timing", "cost", "effects"), ("require",))
    timing = _timing(table)
    require = _require(table, timing)
    cost = _cost(_table(table, "cost"), _SUB_COST)
    return Sub(timing, require, cost, _effects(table, "effects", _Context(timing=timing, attack=bool(require))))


def _abilities(table: DataTable, field: str, card_type: str, *, grant: bool = False) -> tuple[Ability, ...]:
    return tuple(_ability(item, card_type, grant=grant) for item in require_table_list(table, field))


def _card(table: DataTable) -> CardDef:
    card_type = require_str(table, "type", CARD_TYPES)
    check_fields(table, *_TYPE_FIELDS[card_type])
    card_id, name = require_card_id(table), require_str(table, "name")
    abilities = _abilities(table, "abilities", card_type) if "abilities" in table.data else ()
    if card_type == "caster":
        return CardDef(
            id=card_id,
            type=card_type,
            name=name,
            cluster=_words(table, "cluster", CLUSTERS, range(1, 2), "exactly one cluster (D2.4)"),
            abilities=abilities,
            hp=require_int(table, "hp", 1),
            hp_value=require_int(table, "hp_value", 1) if "hp_value" in table.data else HP_VALUE,
        )
    is_unit = card_type in ("unit", "idol")
    timing = _timing(table) if card_type == "code" else ()
    require = _require(table, timing)
    grants = _abilities(table, "grants", card_type, grant=True) if card_type == "arms" else ()
    if card_type == "arms" and not grants:
        raise table.error("grants", "an arms needs at least one granted ability (D2.8)")
    return CardDef(
        id=card_id,
        type=card_type,
        name=name,
        cluster=_words(table, "cluster", CLUSTERS, range(3), "a list of 0-2 different clusters"),
        abilities=abilities,
        cond=_cond(table),
        speed=require_str(table, "speed", SPEEDS),
        cost=require_int(table, "cost", 0),
        extra=_cost(_table(table, "extra"), _EXTRA_COST) if "extra" in table.data else Cost(),
        size=require_str(table, "size", SIZES) if is_unit else "",
        bp=require_int(table, "bp", 1) if is_unit else 0,
        upkeep=require_int(table, "upkeep", 0) if card_type == "idol" else 0,
        timing=timing,
        require=require,
        effects=_effects(table, "effects", _Context(timing=timing, attack=bool(require), code=True))
        if card_type == "code"
        else (),
        grants=grants,
        sub=_sub(_table(table, "sub")) if "sub" in table.data else None,
        max_copies=require_int(table, "max_copies", 1) if "max_copies" in table.data else MAX_COPIES,
    )


def _data_file(*parts: str) -> Traversable:
    return resources.files(_PACKAGE).joinpath("data", *parts)


def load_card_set(
    paths: Sequence[Path] | None = None,
    *,
    with_sample_set: bool = False,
    patches: Sequence[str] = (),
    where: str = "config.patches",
) -> CardSet:
    """Exactly the cards of `paths`, or the packaged D23 sample set if None (see `load_cards`).

    `patches` (`CARD.FIELD=VALUE`, issue #17) edit the raw card tables before they are checked like a card
    file: `R05.cost=2`, `X06.hp=5`, `G06.extra.engrave=0` (a dotted field reaches into an inline table). An
    unknown card, a field the card's type does not have or a value the field does not take is a
    PositionError on `where` naming the card and the field (`R05.cost: expected an integer >= 0, got -1`).
    """
    sample = _data_file("cards.toml")
    if not patches:
        return CardSet(load_cards(paths, sample, _card, with_sample_set=with_sample_set))
    edits: dict[str, list[tuple[str, str]]] = {}
    for text in patches:
        card_id, field_name, value = parse_patch(text, where)
        edits.setdefault(card_id, []).append((field_name, value))
    found: set[str] = set()

    def parse(table: DataTable) -> CardDef:
        card_id = str(table.data.get("id", "")).upper()
        if card_id not in edits:
            return _card(table)
        found.add(card_id)
        return _patched_card(table, card_id, edits[card_id], where)

    card_set = CardSet(load_cards(paths, sample, parse, with_sample_set=with_sample_set))
    for card_id in edits:
        if card_id not in found:
            field_name = edits[card_id][0][0]
            raise PositionError(where, f"{card_id}.{field_name}: unknown card id {card_id!r}")
    return card_set


_PATCH_FIXED = ("id", "type")
"""Fields a patch may not edit: they say which card it is and which fields it has."""
_PATCH_LISTS = ("cluster", "cond", "timing")
"""Word-list fields: a patch writes them comma-separated (`cond=red,red`, `timing=ACTION,REACTION`; `[]`: none)."""
_PATCH_STEP = re.compile(r"([a-z_]+)(?:\[(0|[1-9][0-9]*)\])?")


class _PatchProblem(ValueError):
    """A patch that names no field of its card (the caller adds the card and the field)."""


def _patch_leaf(key: str, text: str) -> object:
    """A patch's value as the card file would write field `key`."""
    if key in _PATCH_LISTS:
        return [] if text == "[]" else [word.strip() for word in text.split(",") if word.strip()]
    if key == "check_self" and text in ("true", "false"):
        return text == "true"
    return text if key == "name" else patch_value(text)


def _effect_with(text: str, param: str, value: str) -> str:
    """The effect text `name(key=value, ...)` with parameter `param` set to `value` (checked with the card)."""
    match = _CALL.fullmatch(text)
    if match is None:
        return text  # not an effect: the card check says what is wrong with it
    name, inner = match[1], match[2]
    params = EFFECT_PARAMS.get(name) or STATIC_EFFECT_PARAMS.get(name) or ()
    if param not in params:
        raise _PatchProblem(f"{name} takes {', '.join(params) or 'no parameters'}")
    given = dict((key.strip(), item.strip()) for key, _, item in (part.partition("=") for part in _split(inner)))
    given[param] = value
    return f"{name}({', '.join(f'{key}={given[key]}' for key in params if key in given)})"


def _apply_patch(data: dict[str, object], field_name: str, text: str) -> None:
    """Set `field_name` of a card table's data: `cost`, `extra.engrave` (a missing inline table is made),
    `abilities[0].cost.log`, `effects[0]` (a whole effect) or `effects[0].amount` (one effect parameter)."""
    steps = field_name.split(".")
    if steps[0] in _PATCH_FIXED:
        raise _PatchProblem("a patch edits a card's data, not its id or type")
    target: dict[str, object] = data
    for i, step in enumerate(steps):
        match = _PATCH_STEP.fullmatch(step)
        if match is None:
            raise _PatchProblem(f"{step!r} is not a field name (name or name[N])")
        key, index, last = match[1], match[2], i == len(steps) - 1
        if index is None:
            if last:
                target[key] = _patch_leaf(key, text)
                return
            nested = target.setdefault(key, {})
            if not isinstance(nested, dict):
                raise _PatchProblem(f"{key!r} is not a table of the card")
            target = nested
            continue
        items = target.get(key)
        count = len(items) if isinstance(items, list) else 0
        if not isinstance(items, list) or int(index) >= count:
            raise _PatchProblem(f"the card has {count} {key} (counted from 0)")
        item = items[int(index)]
        if last:
            items[int(index)] = text
            return
        if isinstance(item, str) and i == len(steps) - 2:
            items[int(index)] = _effect_with(item, steps[-1], text)
            return
        if not isinstance(item, dict):
            raise _PatchProblem(f"{step} is not a table")
        target = item


def _patched_card(table: DataTable, card_id: str, edits: list[tuple[str, str]], where: str) -> CardDef:
    """The card of `table` with `edits` (field, value text) applied to a copy of its data, then checked."""
    data = copy.deepcopy(dict(table.data))
    for field_name, value in edits:
        try:
            _apply_patch(data, field_name, value)
        except (_PatchProblem, EffectError) as error:
            raise PositionError(where, f"{card_id}.{field_name}: {error}") from None
    try:
        return _card(DataTable(data, table.path, table.record))
    except CardDataError as error:
        _card(table)  # the file's own card is broken: that error, not the patch's, is the one to fix
        field_name = error.field or edits[0][0]
        raise PositionError(where, f"{card_id}.{field_name}: {error.problem}") from None


def load_deck(path: Path) -> Deck:
    """A deck file, checked for shape only; `validate_deck` applies D3. `id` defaults to the file name."""
    return parse_deck(load_deck_table(path))


def parse_deck(table: DataTable) -> Deck:
    """A deck file's `[[deck]]` table, checked for shape only (D22.1); `id` defaults to the file name."""
    path = table.path
    check_fields(table, ("name", "casters", "cards"), ("id",))
    casters = table.data["casters"]
    if not isinstance(casters, list) or not all(isinstance(item, str) and item for item in casters):
        raise table.error("casters", f"expected a list of caster ids, got {casters!r}")
    return Deck(
        id=require_str(table, "id") if "id" in table.data else path.stem,
        name=require_str(table, "name"),
        casters=tuple(casters),
        cards=require_int_map(table, "cards", 1),
    )


def packaged_deck(deck_id: str) -> Deck:
    if deck_id not in PACKAGED_DECKS:
        raise KeyError(f"unknown packaged deck {deck_id!r}; packaged decks: {', '.join(PACKAGED_DECKS)}")
    with resources.as_file(packaged_deck_file(deck_id)) as path:
        return load_deck(path)


def packaged_deck_file(deck_id: str) -> Traversable:
    """The file of a packaged starter deck (D23.3)."""
    return _data_file("decks", f"{deck_id}.toml")


def sample_cards() -> Traversable:
    """The packaged D23 card file."""
    return _data_file("cards.toml")


parse_card = _card
"""One `[[cards]]` table as a card, checked against D2 and D22 (what `load_card_set` does per table)."""


def deck_title(deck: Deck, cards: CardSet) -> str:
    """A deck and its casters in words, as tables name an entrant: `Ember & Spark · Ignis Varga + Oren Quill`."""
    names = [cards.by_id[caster].name if caster in cards.by_id else caster for caster in deck.casters]
    return f"{deck.name} · {' + '.join(names)}"


# ---- deck validation (D3) ----


def condition_met(cond: Sequence[str], clusters: Sequence[str]) -> bool:
    """D3.4: whether a card with `cond` may be in a deck whose casters' clusters are the multiset `clusters`."""
    if not cond or list(cond) == [ALL_CLUSTERS]:
        return True
    if len(cond) == 1:
        return cond[0] in clusters
    return Counter(cond) == Counter(clusters)


def _show_list(items: Sequence[str]) -> str:
    return f"[{', '.join(items)}]"


def validate_deck(deck: Deck, cards: CardSet) -> list[tuple[str, str]]:
    """Every D3 violation of `deck` as (rule id, reason), in rule order; an empty list means the deck is legal."""
    problems = []
    if len(deck.casters) != CASTERS_PER_DECK:
        problems.append(("D3.1", f"the deck has {len(deck.casters)} casters; it must have exactly {CASTERS_PER_DECK}"))
    casters = []
    for caster_id in deck.casters:
        if caster_id not in cards:
            problems.append(("D3.1", f"unknown caster id {caster_id!r}"))
        elif cards[caster_id].type != "caster":
            card = cards[caster_id]
            problems.append(("D3.1", f"{card.type} {caster_id} {card.name!r} is named as a caster but is not one"))
        else:
            casters.append(cards[caster_id])
    for name, count in Counter(caster.name for caster in casters).items():
        if count > 1:
            problems.append(("D3.1", f"{count} casters named {name!r}; the two casters must have different names"))
    size = sum(deck.cards.values())
    if size != DECK_SIZE:
        problems.append(("D3.2", f"the deck has {size} cards; it must have exactly {DECK_SIZE}"))
    in_deck: list[CardDef] = []
    copies_by_name: dict[str, dict[str, int]] = {}
    for card_id, count in deck.cards.items():
        if card_id not in cards:
            problems.append(("D3.2", f"unknown card id {card_id!r} in the deck"))
        elif cards[card_id].type == "caster":
            problems.append(
                ("D3.2", f"caster {card_id} {cards[card_id].name!r} is in the deck; casters stay outside it")
            )
        else:
            in_deck.append(cards[card_id])
            copies_by_name.setdefault(cards[card_id].name, {})[card_id] = count
    for name, copies in copies_by_name.items():
        total, limit = sum(copies.values()), min(cards[card_id].max_copies for card_id in copies)
        if total > limit:
            detail = ", ".join(f"{card_id} x{count}" for card_id, count in copies.items())
            problems.append(("D3.3", f"{total} cards named {name!r} ({detail}); at most {limit} per name"))
    if len(casters) == len(deck.casters) == CASTERS_PER_DECK:
        clusters = [cluster for caster in casters for cluster in caster.cluster]
        for card in in_deck:
            if not condition_met(card.cond, clusters):
                meet = f"which the casters' clusters K = {_show_list(clusters)} do not meet"
                problems.append(("D3.4", f"card {card.id} {card.name!r} has cond {_show_list(card.cond)}, {meet}"))
    return problems
