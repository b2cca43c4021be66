"""Game configuration: deck variant (E1.1), standard (E7.4) and characters (E9)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from cardlab.core.errors import PositionError
from cardlab.core.rules import RuledConfig, RuleOption, Rules, check_rules
from cardlab.games.edelweiss.cards import CHARACTER_IDS, DECK_SIZES
from cardlab.games.edelweiss.variants import RULE_OPTIONS

STANDARDS = ("symbolic", "accel2")


@dataclass(frozen=True, slots=True)
class EdelweissConfig(RuledConfig):
    """`characters` is (P1's, P2's) or None; None in a skills game means "pick at random". `rules`: the
    rule options that differ from the spec's rulings (`variants.RULE_OPTIONS`)."""

    deck: str = "full"
    standard: str | None = None
    characters: tuple[str, str] | None = None
    rules: Rules = ()

    RULE_OPTIONS: ClassVar[Sequence[RuleOption]] = RULE_OPTIONS

    def __post_init__(self) -> None:
        self._check_rule_fields()
        if not isinstance(self.deck, str) or self.deck not in DECK_SIZES:
            raise PositionError("config.deck", f"{self.deck!r} is not one of {sorted(DECK_SIZES)}")
        if self.deck == "skills":
            if self.standard not in STANDARDS:
                raise PositionError("config.standard", f"a skills game needs a standard, one of {list(STANDARDS)}")
        elif self.standard is not None or self.characters is not None:
            field = "config.standard" if self.standard is not None else "config.characters"
            raise PositionError(field, "standards and characters exist only with the 'skills' deck (E7.4)")
        if self.characters is not None:
            if len(self.characters) != 2:
                raise PositionError("config.characters", "expected one character for P1 and one for P2")
            for seat, char_id in zip(("P1", "P2"), self.characters, strict=True):
                if not isinstance(char_id, str) or char_id not in CHARACTER_IDS:
                    raise PositionError(
                        f"config.characters.{seat}", f"unknown character {char_id!r}; one of {list(CHARACTER_IDS)}"
                    )

    @property
    def skills(self) -> bool:
        return self.deck == "skills"

    def to_json(self) -> dict[str, Any]:
        characters = None if self.characters is None else {"P1": self.characters[0], "P2": self.characters[1]}
        data: dict[str, Any] = {"deck": self.deck, "standard": self.standard, "characters": characters}
        if self.rules:  # left out at the defaults: a default config's JSON (and fingerprint) is unchanged
            data["rules"] = dict(self.rules)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EdelweissConfig:
        if not isinstance(data, Mapping):
            raise PositionError("config", "expected an object with deck, standard, characters")
        unknown = set(data) - {"deck", "standard", "characters", "rules"}
        if unknown:
            raise PositionError(f"config.{sorted(unknown)[0]}", "unknown field")
        characters = data.get("characters")
        if characters is not None:
            if not isinstance(characters, Mapping) or set(characters) != {"P1", "P2"}:
                raise PositionError("config.characters", 'expected null or {"P1": ID, "P2": ID}')
            characters = (characters["P1"], characters["P2"])
        rules = check_rules(RULE_OPTIONS, data.get("rules"))
        return cls(data.get("deck", "full"), data.get("standard"), characters, rules)
