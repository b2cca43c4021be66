"""Game profiles (cardlab.core.profile): every registered game has one, every entry is filled in, every
rule id it cites exists in the game's specification, and key facts agree with the engine's constants."""

from __future__ import annotations

import dataclasses
import json
import re
from functools import cache
from pathlib import Path

import pytest

import cardlab.core.profile as profile_module
from cardlab.core.profile import NO_RULE, GameProfile, ProfileEntry
from tests.every_game import every_game, every_game_class

RULES_DIR = Path(__file__).resolve().parents[3] / "shared" / "rules"

GAMES = [
    name if every_game_class(name).profile() else pytest.param(name, marks=pytest.mark.skip(reason="no profile"))
    for name in every_game()
]
"""Every game, the toy game included; one that declares no profile (`Game.profile()`) has nothing to check."""

PREFIX = {"edelweiss": "E", "aterial": "A", "dreadnought": "D"}
"""The letter each specification (shared/rules/GAME.md) puts before its rule numbers."""

_ID = r"[A-Z]\d+(?:\.\d+)*[a-z]?"
_DEFINITIONS = (
    re.compile(rf"^#{{2,3}}\s+({_ID})\.?\s"),  # a section or subsection heading: "## E6. End of the game"
    re.compile(rf"^\*\*({_ID})[\s.*]"),  # a bold rule at the start of a line: "**E5.3 Defense phase**"
    re.compile(rf"^\|\s*({_ID})\s*\|"),  # a table row naming a rule in its first cell: "| A17.4 | `armor` |"
)


def profile_of(game: str) -> GameProfile:
    profile = every_game_class(game).profile()
    assert isinstance(profile, GameProfile)
    return profile


@cache
def spec_rule_ids(game: str) -> frozenset[str]:
    """Every rule id the specification of `game` defines: headings, bold rule starts and rule table rows."""
    path = RULES_DIR / f"{game}.md"
    if not path.is_file():
        pytest.skip(f"rules specification {path} not found (the shared/rules checkout sits next to the project)")
    ids = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        for pattern in _DEFINITIONS:
            if (match := pattern.match(line)) and match.group(1).startswith(PREFIX[game]):
                ids.add(match.group(1))  # not card ids ("| S01 |") or ruling numbers ("| R1 |") in tables
    return frozenset(ids)


def cited_ids(profile: GameProfile, prefix: str) -> list[tuple[str, str]]:
    """(field, rule id) for every id an entry cites, in its rule or inside its note."""
    in_note = re.compile(rf"\b{prefix}\d+(?:\.\d+)*[a-z]?\b")
    return [
        (name, rule)
        for name, _label, entry in profile.entries()
        for rule in (*entry.rule_ids(), *in_note.findall(entry.note))
    ]


def missing_ids(game: str, profile: GameProfile) -> list[tuple[str, str]]:
    known = spec_rule_ids(game)
    return [(name, rule) for name, rule in cited_ids(profile, PREFIX[game]) if rule not in known]


def per_variant(value: str) -> dict[str, int]:
    """ "4 cards (full/short), 5 (skills)" -> {"full": 4, "short": 4, "skills": 5}."""
    sizes = {}
    for number, variants in re.findall(r"(\d+)(?: cards)? \(([^)]*)\)", value):
        for variant in variants.split(":")[0].split("/"):
            sizes[variant.strip()] = int(number)
    return sizes


# ---- the profile type ----------------------------------------------------------------------------


def test_fields_match_the_dataclass() -> None:
    names = [field.name for field in dataclasses.fields(GameProfile)]
    assert names == ["title", "summary", *(name for name, _label in GameProfile.FIELDS)]
    assert GameProfile.FIELDS[6] == ("first_turn", "First-turn restriction")
    assert GameProfile.FIELDS[-1] == ("win_conditions", "Win conditions")


def test_the_core_module_names_no_game() -> None:
    text = Path(profile_module.__file__).read_text(encoding="utf-8").lower()
    for game in every_game():
        assert game not in text
        assert every_game_class(game).title.lower() not in text


def test_entry_checks_its_rule_and_note() -> None:
    assert ProfileEntry("6", "X1.2, X3.4").rule_ids() == ("X1.2", "X3.4")
    assert ProfileEntry("none", None, "cardlab does this (docs/rulings.md)").rule_ids() == ()
    with pytest.raises(ValueError, match="note"):
        ProfileEntry("none", None)
    with pytest.raises(ValueError, match="rule ids"):
        ProfileEntry("6", "X1.2 X3.4")
    with pytest.raises(ValueError, match="value"):
        ProfileEntry(" ", "X1.2")
    with pytest.raises(dataclasses.FrozenInstanceError):
        ProfileEntry("6", "X1.2").value = "7"  # type: ignore[misc]


def test_a_misspelled_rule_id_is_caught() -> None:
    profile = profile_of("edelweiss")
    wrong = dataclasses.replace(profile, mulligan=ProfileEntry("none", "E1.55"))
    assert missing_ids("edelweiss", wrong) == [("mulligan", "E1.55")]
    in_note = dataclasses.replace(profile, mulligan=ProfileEntry("none", "E1.5", "see E99.1"))
    assert missing_ids("edelweiss", in_note) == [("mulligan", "E99.1")]


# ---- every game's profile ------------------------------------------------------------------------


def test_every_registered_game_is_covered() -> None:
    """Every game the package ships declares a profile, and its specification's rule prefix is known here."""
    from cardlab.games import game_names

    assert all(every_game_class(game).profile() is not None for game in game_names())
    assert {game for game in every_game() if every_game_class(game).profile() is not None} == set(PREFIX)


@pytest.mark.parametrize("game", GAMES)
def test_profile_is_complete(game: str) -> None:
    profile = profile_of(game)
    assert profile.title == every_game_class(game).title
    assert profile.summary.strip().endswith(".")
    for name, _label, entry in profile.entries():
        assert entry.value.strip(), name
        if entry.rule is None:
            assert "docs/rulings.md" in entry.note, f"{game} {name}: no rule, so the note must point to docs/rulings.md"


@pytest.mark.parametrize("game", GAMES)
def test_every_cited_rule_exists_in_the_spec(game: str) -> None:
    profile = profile_of(game)
    for name, _label, entry in profile.entries():
        assert all(rule.startswith(PREFIX[game]) for rule in entry.rule_ids()), (name, entry.rule)
    assert cited_ids(profile, PREFIX[game])
    assert missing_ids(game, profile) == []


@pytest.mark.parametrize("game", GAMES)
def test_json_round_trip_keeps_field_order(game: str) -> None:
    profile = profile_of(game)
    data = json.loads(json.dumps(profile.to_json()))
    assert list(data) == ["title", "summary", "entries"]
    assert [(name, entry["label"]) for name, entry in data["entries"].items()] == list(GameProfile.FIELDS)
    assert all(list(entry) == ["label", "value", "rule", "note"] for entry in data["entries"].values())
    assert GameProfile.from_json(data) == profile


@pytest.mark.parametrize("game", GAMES)
def test_lines_for_table_printing(game: str) -> None:
    profile = profile_of(game)
    lines = profile.lines()
    assert [label for label, _text, _rule in lines] == [label for _name, label in GameProfile.FIELDS]
    for (_label, text, rule), (_name, _label2, entry) in zip(lines, profile.entries(), strict=True):
        assert text.startswith(entry.value)
        assert entry.note in text
        assert rule == (entry.rule or NO_RULE)


def test_from_json_rejects_reordered_entries() -> None:
    data = profile_of("aterial").to_json()
    data["entries"] = dict(reversed(data["entries"].items()))
    with pytest.raises(ValueError, match="order"):
        GameProfile.from_json(data)


# ---- key facts against the engines -----------------------------------------------------------------


def test_edelweiss_facts() -> None:
    from cardlab.games.edelweiss.cards import DECK_SIZES, HAND_SIZES

    profile = profile_of("edelweiss")
    assert per_variant(profile.opening_hand.value) == HAND_SIZES
    assert profile.opening_hand.rule == "E1.4"
    assert per_variant(profile.deck.value) == DECK_SIZES
    assert profile.deck.rule_ids()[0] == "E1.1"
    for name in ("hand_limit", "mulligan", "starting_life"):
        assert getattr(profile, name).value == "none"
    assert "E1.5" in profile.mulligan.rule_ids() and "E1.5" in profile.hand_limit.rule_ids()
    assert "E6.2" in profile.library_out.rule_ids() and "second player" in profile.library_out.value


def test_aterial_facts() -> None:
    from cardlab.games.aterial.cards import DECK_SIZE, MAX_COPIES, load_card_set
    from cardlab.games.aterial.state import HAND_LIMIT, OPENING_HAND

    profile = profile_of("aterial")
    assert profile.deck.value.startswith(f"{DECK_SIZE} ") and f"at most {MAX_COPIES} per name" in profile.deck.value
    assert profile.opening_hand.value == f"{OPENING_HAND} cards"
    assert profile.hand_limit.value.startswith(f"{HAND_LIMIT},") and "A13.2" in profile.hand_limit.rule_ids()
    lps = [card.lp for card in load_card_set().by_id.values() if card.type == "leader"]
    assert f"{min(lps)}-{max(lps)}" in profile.starting_life.value
    assert profile.first_turn.rule == "A12.1"
    assert profile.library_out.value.endswith("loses") and "A15.2" in profile.library_out.rule_ids()
    assert profile.summoning_sickness.value.startswith("none") and profile.summoning_sickness.rule == "A11.4"


def test_dreadnought_facts() -> None:
    from cardlab.games.dreadnought.cards import DECK_SIZE, HP_VALUE, MAX_COPIES, load_card_set
    from cardlab.games.dreadnought.state import HAND_LIMIT, OPENING_HAND

    profile = profile_of("dreadnought")
    assert profile.deck.value.startswith(f"{DECK_SIZE} cards plus 2 casters")
    assert f"at most {MAX_COPIES} per name" in profile.deck.value
    assert profile.opening_hand.value == f"{OPENING_HAND} cards"
    assert profile.hand_limit.value.startswith(f"{HAND_LIMIT},") and profile.hand_limit.rule == "D11.2"
    hps = [card.hp for card in load_card_set().by_id.values() if card.type == "caster"]
    assert f"{min(hps)}-{max(hps)}" in profile.starting_life.value
    assert f"per {HP_VALUE} damage" in profile.starting_life.note
    assert profile.library_out.value.startswith("no loss") and "D20.1" in profile.library_out.rule_ids()
    assert profile.summoning_sickness.value.startswith("none") and profile.summoning_sickness.rule == "D8.2"
    assert profile.damage_carried.value.startswith("no") and "D13.2" in profile.damage_carried.rule_ids()
