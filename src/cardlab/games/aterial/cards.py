"""Soukoku no Aterial card and deck data (A4, A5, A17, A21), loaded from TOML and checked on load.

Loading rejects anything the rules engine could not play (unknown fields or ability keys, bad parameters,
subordinate-only abilities on leaders), so the engine can trust every `CardDef`. Deck rules (A5) are a
separate check, `validate_deck`, because a deck file can be well formed and still illegal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

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
    require_str_list,
    require_table_list,
)
from cardlab.core.errors import PositionError
from cardlab.core.rules import parse_patch, patch_value

_PACKAGE = "cardlab.games.aterial"

ABILITY_KINDS: dict[str, str] = {
    "cannot_attack": "static",
    "evasive": "static",
    "ranged": "static",
    "armor": "static",
    "pierce": "static",
    "flank": "static",
    "siege": "static",
    "kinship": "static",
    "aura": "static",
    "wide_reach": "static",
    "rear_support": "static",
    "nimble": "static",
    "deploy_draw": "triggered",
    "deploy_strike": "triggered",
    "deploy_heal": "triggered",
    "farewell_heal": "triggered",
    "tap_heal": "activated",
    "tap_snipe": "activated",
    "devour": "activated",
    "hand_rally": "hand",
    "hand_cycle": "hand",
}
"""A17: the closed ability vocabulary, key -> kind (A16.1)."""

ABILITY_PARAMS: dict[str, tuple[str, ...]] = {
    key: ("amount",)
    for key in (
        "armor",
        "flank",
        "siege",
        "rear_support",
        "deploy_draw",
        "deploy_strike",
        "deploy_heal",
        "farewell_heal",
        "tap_heal",
        "tap_snipe",
        "devour",
        "hand_rally",
    )
} | {"kinship": ("race", "amount"), "aura": ("race", "attack", "hp")}
"""A17: the parameters each key takes; keys not listed take none."""

SUBORDINATE_ONLY_KEYS = frozenset(
    {"armor", "deploy_draw", "deploy_strike", "deploy_heal", "farewell_heal", "hand_rally", "hand_cycle"}
)
"""A17.22: keys a leader may not carry."""

ANY_RACE = "any"
"""A17.9: the `aura` race that matches every subordinate."""

CARD_TYPES = ("leader", "subordinate")
DECK_SIZE = 30
MAX_COPIES = 4

PACKAGED_DECKS: tuple[str, ...] = ("D1", "D2")
"""A21.5 starter decks, shipped in data/decks/."""

_PARAM_MINIMUM = {"amount": 1, "attack": 0, "hp": 0}
_COMMON_FIELDS = ("id", "type", "name", "cost", "attack", "dominance", "races", "abilities")
_TYPE_FIELDS = {"leader": (*_COMMON_FIELDS, "lp"), "subordinate": (*_COMMON_FIELDS, "hp")}


@dataclass(frozen=True, slots=True)
class Ability:
    """One A17 ability; parameters the key does not take stay 0 / empty."""

    key: str
    amount: int = 0
    race: str = ""
    attack: int = 0
    hp: int = 0


@dataclass(frozen=True, slots=True)
class CardDef:
    """A card's printed characteristics (A4.2-A4.4): `hp` is 0 on leaders, `lp` is 0 on subordinates."""

    id: str
    type: str
    name: str
    cost: int
    attack: int
    dominance: int
    races: frozenset[str]
    abilities: tuple[Ability, ...]
    hp: int = 0
    lp: int = 0

    def has(self, key: str) -> bool:
        return any(ability.key == key for ability in self.abilities)

    def amount(self, key: str) -> int:
        """Total `amount` of the abilities with `key` (several copies add up, A16.2); 0 if none."""
        return sum(ability.amount for ability in self.abilities if ability.key == key)

    def abilities_of(self, key: str) -> tuple[Ability, ...]:
        return tuple(ability for ability in self.abilities if ability.key == key)


class CardSet(CardIndex[CardDef]):
    """Every loaded card by id, in file order."""

    @property
    def cards(self) -> dict[str, CardDef]:
        return self.by_id

    def leaders(self) -> list[CardDef]:
        return [card for card in self.cards.values() if card.type == "leader"]

    def subordinates(self) -> list[CardDef]:
        return [card for card in self.cards.values() if card.type == "subordinate"]


@dataclass(frozen=True)
class Deck:
    """A deck as written (A21.1): its leader and card id -> count, not yet checked against A5."""

    id: str
    name: str
    leader: str
    cards: dict[str, int]

    def card_list(self) -> list[str]:
        """Card ids repeated by count, in file order: the deck before shuffling."""
        return [card_id for card_id, count in self.cards.items() for _ in range(count)]


def _ability(table: DataTable, card_type: str) -> Ability:
    key = require_str(table, "key")
    if key not in ABILITY_KINDS:
        raise table.error("key", f"unknown ability key {key!r}; valid keys: {', '.join(ABILITY_KINDS)}")
    if card_type == "leader" and key in SUBORDINATE_ONLY_KEYS:
        raise table.error("key", f"{key!r} is valid only on subordinates (A17.22)")
    params = ABILITY_PARAMS.get(key, ())
    check_fields(table, ("key", *params))
    ability = Ability(
        key,
        amount=require_int(table, "amount", 1) if "amount" in params else 0,
        race=require_str(table, "race") if "race" in params else "",
        attack=require_int(table, "attack", 0) if "attack" in params else 0,
        hp=require_int(table, "hp", 0) if "hp" in params else 0,
    )
    if ability.race == ANY_RACE and key != "aura":
        raise table.error("race", f"{ANY_RACE!r} is valid only for aura (A17.22)")
    if key == "aura" and ability.attack == ability.hp == 0:
        raise table.error("attack", "aura needs attack or hp >= 1 (A17.22)")
    return ability


def _card(table: DataTable) -> CardDef:
    card_type = require_str(table, "type", CARD_TYPES)
    check_fields(table, _TYPE_FIELDS[card_type])
    return CardDef(
        id=require_card_id(table),
        type=card_type,
        name=require_str(table, "name"),
        cost=require_int(table, "cost", 0),
        attack=require_int(table, "attack", 0),
        dominance=require_int(table, "dominance", 0),
        races=frozenset(require_str_list(table, "races")),
        abilities=tuple(_ability(item, card_type) for item in require_table_list(table, "abilities")),
        hp=require_int(table, "hp", 1) if card_type == "subordinate" else 0,
        lp=require_int(table, "lp", 1) if card_type == "leader" else 0,
    )


def _data_file(*parts: str) -> Traversable:
    return resources.files(_PACKAGE).joinpath("data", *parts)


def load_card_set(
    paths: Sequence[Path] | None = None, *, with_sample_set: bool = False, patches: Sequence[str] = ()
) -> CardSet:
    """Exactly the cards of `paths`, or the packaged A21 sample set if None (see `load_cards`).

    `patches` (`CARD.FIELD=VALUE`, issue #17) edit a card's data as read from its file before it is
    checked, so a patched card passes every check a card file does; an unknown card, a field that
    cannot be patched or a value the card rules refuse is a PositionError on `config.patches` naming
    the card and the field (`S14.cost: expected an integer >= 0, got 'x'`).
    """
    if not patches:
        return CardSet(load_cards(paths, _data_file("cards.toml"), _card, with_sample_set=with_sample_set))
    edits: dict[str, list[tuple[str, str]]] = {}
    for text in patches:
        card_id, field, value = parse_patch(text, "config.patches")
        edits.setdefault(card_id, []).append((field, value))
    patched: set[str] = set()

    def parse(table: DataTable) -> CardDef:
        card_id = table.data.get("id")
        key = card_id.upper() if isinstance(card_id, str) else None
        if key not in edits:
            return _card(table)
        patched.add(key)
        data = dict(table.data)
        for field, value in edits[key]:
            _apply_patch(data, str(card_id), field, value)
        try:
            return _card(DataTable(data, table.path, table.record))
        except CardDataError as error:
            where = f"{card_id}.{error.field}" if error.field else str(card_id)
            raise PositionError("config.patches", f"{where}: {error.problem}") from None

    cards = CardSet(load_cards(paths, _data_file("cards.toml"), parse, with_sample_set=with_sample_set))
    for card_id, fields in edits.items():
        if card_id not in patched:
            raise PositionError("config.patches", f"{card_id}.{fields[0][0]}: unknown card {card_id!r}")
    return cards


_PATCH_FIXED = ("id", "type", "abilities")
"""Fields a patch may not edit: a card's identity and type, and its ability list as a whole."""
_ABILITY_FIELD = re.compile(r"abilities\[(\d+)\]\.(\w+)")


def _apply_patch(data: dict[str, Any], card_id: str, field: str, text: str) -> None:
    """One patch on a card table's raw data: a printed field (races as `a,b`), or an ability parameter
    `abilities[N].PARAM`; the card rules then check the edited data as if it were the file's."""
    card_type = data.get("type")
    printed = _TYPE_FIELDS.get(card_type, _COMMON_FIELDS) if isinstance(card_type, str) else _COMMON_FIELDS
    fields = [f for f in printed if f not in _PATCH_FIXED]
    ability = _ABILITY_FIELD.fullmatch(field)
    if ability is not None:
        index, param = int(ability.group(1)), ability.group(2)
        abilities = data.get("abilities")
        if not isinstance(abilities, list) or index >= len(abilities) or not isinstance(abilities[index], dict):
            count = len(abilities) if isinstance(abilities, list) else 0
            has = f"{count} ability" if count == 1 else f"{count} abilities"
            raise PositionError("config.patches", f"{card_id}.{field}: {card_id} has {has}")
        key = abilities[index].get("key")
        params = ABILITY_PARAMS.get(key, ()) if isinstance(key, str) else ()
        if param not in params:
            takes = ", ".join(params) or "no parameters"
            raise PositionError("config.patches", f"{card_id}.{field}: ability {key!r} takes {takes}")
        value = text if param == "race" else patch_value(text)
        data["abilities"] = [*abilities[:index], {**abilities[index], param: value}, *abilities[index + 1 :]]
        return
    if field not in fields:
        problem = "cannot be patched" if field in _PATCH_FIXED else "unknown field"
        valid = ", ".join([*fields, "abilities[N].amount|race|attack|hp"])
        raise PositionError("config.patches", f"{card_id}.{field}: {problem}; patchable fields: {valid}")
    if field == "races":
        data[field] = [race.strip() for race in text.split(",")]
    else:
        data[field] = text if field == "name" else patch_value(text)


def load_deck(path: Path) -> Deck:
    """A deck file, checked for shape only; `validate_deck` applies the A5 rules."""
    return parse_deck(load_deck_table(path))


def parse_deck(table: DataTable) -> Deck:
    """A deck file's `[[deck]]` table, checked for shape only (A21.1)."""
    check_fields(table, ("id", "name", "leader", "cards"))
    return Deck(
        id=require_str(table, "id"),
        name=require_str(table, "name"),
        leader=require_str(table, "leader"),
        cards=require_int_map(table, "cards", 1),
    )


def packaged_deck(deck_id: str) -> Deck:
    if deck_id not in PACKAGED_DECKS:
        raise KeyError(f"unknown packaged deck {deck_id!r}; packaged decks: {', '.join(PACKAGED_DECKS)}")
    with resources.as_file(packaged_deck_file(deck_id)) as path:
        return load_deck(path)


def packaged_deck_file(deck_id: str) -> Traversable:
    """The file of a packaged deck (A21.5)."""
    return _data_file("decks", f"{deck_id}.toml")


def sample_cards() -> Traversable:
    """The packaged A21 card file."""
    return _data_file("cards.toml")


parse_card = _card
"""One `[[cards]]` table as a card, checked against A4, A17 and A21.1 (what `load_card_set` does per table)."""


def deck_title(deck: Deck, cards: CardSet) -> str:
    """A deck and its leader in words, as tables name an entrant: `Vanguard of Dawn · Marshal Odette Renn`."""
    leader = cards.by_id.get(deck.leader)
    return f"{deck.name} · {leader.name if leader is not None else deck.leader}"


def validate_deck(deck: Deck, cards: CardSet) -> list[tuple[str, str]]:
    """Every A5 violation of `deck` as (rule id, reason); an empty list means the deck is legal."""
    problems = []
    size = sum(deck.cards.values())
    if size != DECK_SIZE:
        problems.append(("A5.1", f"the deck has {size} cards; it must have exactly {DECK_SIZE}"))
    copies_by_name: dict[str, dict[str, int]] = {}
    for card_id, count in deck.cards.items():
        if card_id not in cards:
            problems.append(("A5.5", f"unknown card id {card_id!r} in the deck"))
            continue
        card = cards[card_id]
        if card.type == "leader":
            problems.append(("A5.2", f"leader card {card_id} {card.name!r} is in the deck; leaders stay outside it"))
        copies_by_name.setdefault(card.name, {})[card_id] = count
    for name, copies in copies_by_name.items():
        total = sum(copies.values())
        if total > MAX_COPIES:
            detail = ", ".join(f"{card_id} x{count}" for card_id, count in copies.items())
            problems.append(("A5.3", f"{total} cards named {name!r} ({detail}); at most {MAX_COPIES} per name"))
    if not deck.leader:
        problems.append(("A5.4", "the deck has no leader"))
    elif deck.leader not in cards:
        problems.append(("A5.5", f"unknown leader id {deck.leader!r}"))
    elif cards[deck.leader].type != "leader":
        problems.append(("A5.4", f"leader {deck.leader} {cards[deck.leader].name!r} is not a leader card"))
    return problems
