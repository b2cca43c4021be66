"""Rule variants as data (issue #17): the levers a designer pulls, declared by each game.

Each game names the places where its spec made a ruling on a gap or a designer might ask "what if":
a `RuleOption` with its rule id, its default (the spec's ruling) and its alternatives. A game's
config carries the values that differ from the defaults (`rules`, left out of the config JSON when
empty, so a default game's config, fingerprint and stored tables are unchanged); positions,
scenarios, replays and stored games carry their config, so they carry their rules. A table played
under other rules gets another variant name (`symbolic+first_draw=no`), so it is never pooled with
the default's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from cardlab.core.errors import CardlabError, PositionError

Rules = tuple[tuple[str, str], ...]
"""A config's rule values that differ from the defaults, sorted by name."""

Patches = tuple[str, ...]
"""Card edits of one experiment, each `CARD.FIELD=VALUE` (`S14.cost=3`), sorted; a config carries them
under `patches` (left out when empty). The game applies them to its card data before checking it like a
card file, so a bad edit is refused with the card and field named."""


@dataclass(frozen=True)
class RuleOption:
    """One rule a game lets a designer change: `cardlab rules GAME` lists them, `--rule NAME=VALUE` sets one."""

    name: str
    rule: str
    """The rule id of the spec it changes (`E3.2`)."""
    default: str
    """The spec's ruling."""
    values: tuple[str, ...]
    """Every value, the default first (as `cardlab rules` lists them)."""
    description: str
    """One line: what the alternatives change."""

    def __post_init__(self) -> None:
        if not self.values or self.values[0] != self.default or len(set(self.values)) != len(self.values):
            raise ValueError(f"rule option {self.name}: values must list the default first, each once")

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "rule": self.rule,
            "default": self.default,
            "values": list(self.values),
            "description": self.description,
        }


def check_rules(options: Sequence[RuleOption], given: Any, where: str = "config.rules") -> Rules:
    """Validated rule values (an object of name -> value), defaults left out; a PositionError naming the
    field otherwise (`config.rules.NAME`, or `--rule NAME` for a command-line `where`)."""
    sep = " " if where.startswith("--") else "."
    if given is None:
        return ()
    if isinstance(given, tuple):
        given = dict(given)
    if not isinstance(given, Mapping):
        raise PositionError(where, "expected an object of rule name -> value")
    by_name = {option.name: option for option in options}
    values = []
    for name, value in given.items():
        option = by_name.get(name)
        if option is None:
            known = ", ".join(by_name) or "none"
            raise PositionError(f"{where}{sep}{name}", f"unknown rule option; this game's options: {known}")
        if value not in option.values:
            raise PositionError(f"{where}{sep}{name}", f"{value!r} is not one of {list(option.values)}")
        if value != option.default:
            values.append((name, value))
    return tuple(sorted(values))


def rule_value(options: Sequence[RuleOption], rules: Rules, name: str) -> str:
    """The value of rule `name` under `rules` (its default when not set)."""
    for key, value in rules:
        if key == name:
            return value
    for option in options:
        if option.name == name:
            return option.default
    raise KeyError(name)


def parse_rule_args(texts: Sequence[str] | None) -> dict[str, str]:
    """`--rule NAME=VALUE` arguments as a mapping (a later one wins); a CardlabError for a malformed one."""
    rules: dict[str, str] = {}
    for text in texts or ():
        name, sep, value = text.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise CardlabError(f"--rule takes NAME=VALUE, got {text!r} (see: cardlab rules GAME)")
        rules[name.strip()] = value.strip()
    return rules


def value_list(text: str) -> list[str]:
    """`V1,V2` or, for numbers, `LO..HI` (every integer between, both ends included): the values a sweep or a
    tune tries for one rule or card field."""
    low, dots, high = text.partition("..")
    if dots:
        try:
            lo, hi = int(low), int(high)
        except ValueError:
            raise CardlabError(f"a range is LO..HI in whole numbers, got {text!r}") from None
        if hi < lo or hi - lo > 100:
            raise CardlabError(f"the range {text!r} must run upwards over at most 100 values")
        return [str(value) for value in range(lo, hi + 1)]
    return [value.strip() for value in text.split(",") if value.strip()]


def rule_values(options: Sequence[RuleOption], text: str) -> tuple[RuleOption, list[str]]:
    """`--rule NAME=V1,V2` (or `=LO..HI`) of `sweep` and `tune`: the option and the values to try, each checked;
    a bare `NAME` tries every value the option has."""
    name, sep, values = (part.strip() for part in text.partition("="))
    option = next((option for option in options if option.name == name), None)
    if option is None and name:
        known = ", ".join(option.name for option in options) or "none"
        raise CardlabError(f"--rule {name}: unknown rule option; this game's options: {known}")
    listed = value_list(values) if sep else list(option.values) if option else []
    if option is None or not listed:
        raise CardlabError(f"--rule takes NAME or NAME=VALUE[,VALUE...], got {text!r} (see: cardlab rules GAME)")
    for value in listed:
        check_rules(options, {name: value}, "--rule")
    return option, listed


def parse_patch(text: str, where: str = "--patch") -> tuple[str, str, str]:
    """(card, field, value text) of `CARD.FIELD=VALUE`; a CardlabError naming the expected shape otherwise."""
    target, sep, value = text.partition("=")
    card, dot, field_name = target.strip().partition(".")
    if not sep or not dot or not card or not field_name or not value.strip():
        raise CardlabError(f"{where}: expected CARD.FIELD=VALUE (e.g. S14.cost=3), got {text!r}")
    return card.strip().upper(), field_name.strip(), value.strip()


def check_patches(given: Any, where: str = "config.patches") -> Patches:
    """The patches of a config JSON (a list of `CARD.FIELD=VALUE`), in one spelling and sorted; a
    PositionError naming the entry otherwise. Whether the card and field exist is the game's to check."""
    if given is None:
        return ()
    if not isinstance(given, list | tuple) or not all(isinstance(item, str) for item in given):
        raise PositionError(where, "expected a list of CARD.FIELD=VALUE texts")
    patches = {}
    for index, text in enumerate(given):
        try:
            card, field_name, value = parse_patch(text, f"{where}[{index}]")
        except CardlabError as exc:
            raise PositionError(f"{where}[{index}]", str(exc).split(": ", 1)[1]) from None
        patches[(card, field_name)] = value  # a later edit of the same field wins
    return tuple(sorted(f"{card}.{field_name}={value}" for (card, field_name), value in patches.items()))


def without_printed_edits(config: Any, patched: Mapping[str, Any], printed: Callable[[], Mapping[str, Any]]) -> Any:
    """`config` less the edits of cards whose patched data (card id -> card) equals their printed data
    (`printed()`, read only when there are edits): an edit that sets a printed value is no variant, as a
    rule set to its default is none (docs/rulings.md R-V1)."""
    if not config.patches:
        return config
    cards = printed()
    kept = tuple(text for text in config.patches if patched[parse_patch(text)[0]] != cards[parse_patch(text)[0]])
    return config if kept == config.patches else replace(config, patches=kept)


def patch_value(text: str) -> int | str:
    """A patch's value as a card file would hold it: an integer when it reads as one, else the text."""
    try:
        return int(text)
    except ValueError:
        return text


def rules_label(rules: Rules) -> str:
    """`first_draw=no+opening_hand=5`: how tables and reports name a rule variant ("" for the defaults)."""
    return "+".join(f"{name}={value}" for name, value in rules)


def with_rules(config: Mapping[str, Any], rules: Mapping[str, str]) -> dict[str, Any]:
    """A config JSON with `rules` set on top of its own (the game validates them when it loads it)."""
    merged = {**dict(config.get("rules") or {}), **rules}
    out = dict(config)
    if merged:
        out["rules"] = merged
    else:
        out.pop("rules", None)
    return out


def with_patches(config: Mapping[str, Any], patches: Sequence[str]) -> dict[str, Any]:
    """A config JSON with card edits added to its own (a later edit of the same card field wins)."""
    out = dict(config)
    merged = check_patches([*(config.get("patches") or []), *patches])
    if merged:
        out["patches"] = list(merged)
    else:
        out.pop("patches", None)
    return out


def varied_matchups(matchups: Any, rules: Rules, patches: Patches = ()) -> Any:
    """The same balance matchups under other rules or card edits: every config carries them, and the
    variant name says so (`symbolic+first_draw=no`, `D1+S14.cost=3`), so their tables are stored and
    reported apart from the default's. They play the default's deals (common random numbers), so a
    variant's difference from the default is the rule's, not the deals'."""
    if not rules and not patches:
        return matchups
    base = matchups.config
    values = dict(rules)

    def config(first: str, second: str) -> dict[str, Any]:
        return with_patches(with_rules(base(first, second), values), patches)

    label = "+".join(part for part in (rules_label(rules), "+".join(patches)) if part)
    extra = {**({"rules": values} if values else {}), **({"patches": list(patches)} if patches else {})}
    fields = {**matchups.summary_fields, **extra}
    variant = f"{matchups.variant}+{label}"
    return replace(matchups, variant=variant, config=config, summary_fields=fields, deals=matchups.deal_variant)


class RuledConfig:
    """What every game's frozen config dataclass shares about rule options: `rules` normalised (and
    `patches`, where the game has card edits) when it is built, and `rule(name)` read with its default.

    A mixin, not a dataclass base, so that each config keeps its own positional fields; a config calls
    `_check_rule_fields()` from its `__post_init__` and names its options in `RULE_OPTIONS`.
    """

    __slots__ = ()
    RULE_OPTIONS: ClassVar[Sequence[RuleOption]] = ()
    rules: Rules

    def _check_rule_fields(self) -> None:
        object.__setattr__(self, "rules", check_rules(self.RULE_OPTIONS, self.rules))
        if hasattr(self, "patches"):
            object.__setattr__(self, "patches", check_patches(self.patches))

    def rule(self, name: str) -> str:
        """The value of rule option `name` in this config: its default unless `rules` sets it."""
        return rule_value(self.RULE_OPTIONS, self.rules, name)

    def _rule_fields_json(self) -> dict[str, Any]:
        """`rules` (and `patches`) for the config's JSON, each left out when empty: a default config's
        JSON (and fingerprint) is the same as before the field existed."""
        data: dict[str, Any] = {"rules": dict(self.rules)} if self.rules else {}
        patches: Patches = getattr(self, "patches", ())
        if patches:
            data["patches"] = list(patches)
        return data
