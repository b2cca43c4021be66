"""Aterial card data: the packaged A21 set, load-time checks (A4, A17), deck rules (A5) and a loader fuzz."""

from __future__ import annotations

import dataclasses
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.core.carddata import CardDataError
from cardlab.games.aterial.cards import (
    ABILITY_KINDS,
    PACKAGED_DECKS,
    Ability,
    CardSet,
    Deck,
    load_card_set,
    load_deck,
    packaged_deck,
    validate_deck,
)

DATA = resources.files("cardlab.games.aterial") / "data"
CANONICAL = (DATA / "cards.toml").read_text(encoding="utf-8")
CANONICAL_D1 = (DATA / "decks" / "D1.toml").read_text(encoding="utf-8")
CARDS = load_card_set()

SUBORDINATE = """
[[cards]]
type = "subordinate"
id = "X01"
name = "Test Unit"
cost = 1
attack = 1
hp = 2
dominance = 1
races = ["human"]
abilities = []
"""
LEADER = """
[[cards]]
type = "leader"
id = "XL1"
name = "Test Leader"
lp = 20
attack = 1
cost = 2
dominance = 2
races = ["human"]
abilities = []
"""

# A21.4: the cards that carry each ability key.
KEY_CARDS = {
    "cannot_attack": "S07",
    "evasive": "S15 S39 S40",
    "ranged": "S16 S29",
    "armor": "S07 S09 S14 S25 S38 S41",
    "pierce": "S19 S28 S39",
    "flank": "S06 S26",
    "siege": "L03 S27 S33 S40",
    "kinship": "S04 S08 S17 S37",
    "aura": "L01 L04 S31 S34 S35",
    "wide_reach": "L02 S18",
    "rear_support": "L05 S05 S20",
    "nimble": "S17",
    "deploy_draw": "S11 S30",
    "deploy_strike": "S12 S36",
    "deploy_heal": "S10",
    "farewell_heal": "S32",
    "tap_heal": "S02 S32",
    "tap_snipe": "S23",
    "devour": "S22",
    "hand_rally": "S21",
    "hand_cycle": "S03",
}


def write(tmp_path: Path, text: str, name: str = "cards.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def load_error(tmp_path: Path, text: str) -> str:
    path = write(tmp_path, text)
    with pytest.raises(CardDataError) as info:
        load_card_set([path])
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    return message


# ---- the packaged A21 set ----


def test_packaged_set_has_5_leaders_and_41_subordinates():
    assert [card.id for card in CARDS.leaders()] == [f"L0{n}" for n in range(1, 6)]
    assert [card.id for card in CARDS.subordinates()] == [f"S{n:02}" for n in range(1, 42)]
    assert list(CARDS.cards) == [card.id for card in CARDS.leaders() + CARDS.subordinates()]


def test_packaged_set_matches_a21_4_coverage():
    subordinates = CARDS.subordinates()
    assert Counter(card.cost for card in subordinates) == {0: 5, 1: 8, 2: 11, 3: 8, 4: 5, 5: 3, 6: 1}
    assert Counter(card.dominance for card in subordinates) == {0: 7, 1: 27, 2: 7}
    races = Counter(race for card in subordinates for race in card.races)
    assert races == {"human": 12, "angel": 9, "demon": 10, "beast": 8, "machine": 9}
    assert sum(len(card.races) > 1 for card in subordinates) == 7


def test_every_a17_key_is_used_by_the_cards_of_a21_4():
    carriers = {key: " ".join(card.id for card in CARDS.cards.values() if card.has(key)) for key in ABILITY_KINDS}
    assert carriers == KEY_CARDS


def test_a17_kinds():
    assert Counter(ABILITY_KINDS.values()) == {"static": 12, "triggered": 4, "activated": 3, "hand": 2}
    assert {key for key, kind in ABILITY_KINDS.items() if kind == "hand"} == {"hand_rally", "hand_cycle"}


def test_card_values_and_ability_parameters():
    wolf = CARDS["S17"]
    assert (wolf.type, wolf.name, wolf.cost, wolf.attack, wolf.hp, wolf.dominance, wolf.lp) == (
        "subordinate", "Pack Wolf", 2, 2, 3, 1, 0,
    )  # fmt: skip
    assert wolf.races == frozenset({"beast"})
    assert wolf.abilities == (Ability("kinship", amount=1, race="beast"), Ability("nimble"))
    assert wolf.abilities_of("kinship") == (Ability("kinship", amount=1, race="beast"),)
    assert wolf.amount("kinship") == 1
    assert wolf.amount("armor") == 0
    assert not wolf.has("armor")
    odette = CARDS["L01"]
    assert (odette.lp, odette.hp, odette.attack, odette.cost) == (22, 0, 2, 2)
    assert odette.abilities == (Ability("aura", race="human", attack=0, hp=1),)
    assert CARDS["S41"].amount("armor") == 2
    assert CARDS["S32"].abilities == (Ability("tap_heal", amount=1), Ability("farewell_heal", amount=2))


def test_amount_adds_up_repeated_keys(tmp_path):
    armor = '{ key = "armor", amount = 1 }, { key = "armor", amount = 2 }'
    text = SUBORDINATE.replace("abilities = []", f"abilities = [{armor}]")
    assert load_card_set([write(tmp_path, text)])["X01"].amount("armor") == 3


def test_card_set_lookup():
    assert "S01" in CARDS
    assert "S99" not in CARDS
    assert 3 not in CARDS
    with pytest.raises(KeyError, match="unknown card id 'S99'"):
        CARDS["S99"]


def test_loading_exactly_the_given_files(tmp_path):
    cards = load_card_set([write(tmp_path, SUBORDINATE + LEADER)])
    assert list(cards.cards) == ["X01", "XL1"]
    both = load_card_set([write(tmp_path, CANONICAL, "base.toml"), write(tmp_path, SUBORDINATE, "extra.toml")])
    assert len(both.cards) == 47


def test_starter_decks_are_legal():
    assert PACKAGED_DECKS == ("D1", "D2")
    for deck_id, leader, name in (("D1", "L01", "Vanguard of Dawn"), ("D2", "L04", "Ashfang Pack")):
        deck = packaged_deck(deck_id)
        assert (deck.id, deck.leader, deck.name) == (deck_id, leader, name)
        assert len(deck.card_list()) == 30
        assert validate_deck(deck, CARDS) == []
    d1 = packaged_deck("D1")
    assert list(d1.cards)[:3] == ["S02", "S05", "S06"]
    assert d1.card_list()[:5] == ["S02", "S02", "S05", "S05", "S06"]
    assert d1.cards["S14"] == 3


def test_unknown_packaged_deck():
    with pytest.raises(KeyError, match="unknown packaged deck 'D3'"):
        packaged_deck("D3")


# ---- A5 deck validation ----


def rules(deck: Deck) -> list[str]:
    return [rule for rule, _ in validate_deck(deck, CARDS)]


def test_a5_1_deck_size():
    deck = packaged_deck("D1")
    short = dataclasses.replace(deck, cards={**deck.cards, "S14": 2})
    assert validate_deck(short, CARDS) == [("A5.1", "the deck has 29 cards; it must have exactly 30")]
    assert rules(dataclasses.replace(deck, cards={**deck.cards, "S01": 1})) == ["A5.1"]


def test_a5_2_leader_in_deck():
    deck = packaged_deck("D1")
    cards = {**deck.cards, "S14": 2, "L02": 1}
    problems = validate_deck(dataclasses.replace(deck, cards=cards), CARDS)
    assert problems == [("A5.2", "leader card L02 'Warden-Seraph Calyx' is in the deck; leaders stay outside it")]


def test_a5_3_copies_counted_by_name_across_ids(tmp_path):
    reprint = SUBORDINATE.replace('"X01"', '"S14B"').replace('"Test Unit"', '"Shield Sister"')
    cards = load_card_set([write(tmp_path, CANONICAL, "base.toml"), write(tmp_path, reprint, "reprint.toml")])
    deck = packaged_deck("D1")
    legal = dataclasses.replace(deck, cards={**deck.cards, "S14": 2, "S14B": 1})
    assert validate_deck(legal, cards) == []
    rest = {card_id: count for card_id, count in deck.cards.items() if card_id not in ("S21", "S32")}
    too_many = dataclasses.replace(deck, cards={**rest, "S14": 3, "S14B": 2})
    assert validate_deck(too_many, cards) == [
        ("A5.3", "5 cards named 'Shield Sister' (S14 x3, S14B x2); at most 4 per name")
    ]
    one_id = dataclasses.replace(deck, cards={**rest, "S14": 5})
    assert rules(one_id) == ["A5.3"]


def test_a5_5_unknown_card_id():
    deck = packaged_deck("D1")
    cards = {**deck.cards, "S14": 2, "S99": 1}
    assert validate_deck(dataclasses.replace(deck, cards=cards), CARDS) == [
        ("A5.5", "unknown card id 'S99' in the deck")
    ]


@pytest.mark.parametrize(
    ("leader", "expected"),
    [
        ("", ("A5.4", "the deck has no leader")),
        ("L99", ("A5.5", "unknown leader id 'L99'")),
        ("S01", ("A5.4", "leader S01 'Tin Scout' is not a leader card")),
    ],
)
def test_a5_4_leader(leader, expected):
    assert validate_deck(dataclasses.replace(packaged_deck("D2"), leader=leader), CARDS) == [expected]


def test_every_violation_is_reported_at_once():
    deck = Deck("BAD", "Everything wrong", "S02", {"S17": 6, "L01": 1, "S99": 2})
    assert sorted(rules(deck)) == ["A5.1", "A5.2", "A5.3", "A5.4", "A5.5"]


def test_any_leader_with_any_legal_deck():
    for leader in CARDS.leaders():
        assert validate_deck(dataclasses.replace(packaged_deck("D1"), leader=leader.id), CARDS) == []


# ---- malformed card files ----


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("hp = 2", 'hp = "four"', "card X01: field 'hp': expected an integer >= 1, got 'four'"),
        ("hp = 2", "hp = 0", "card X01: field 'hp': expected an integer >= 1, got 0"),
        ("cost = 1", "cost = -1", "card X01: field 'cost': expected an integer >= 0, got -1"),
        ("attack = 1", "attack = 1.5", "card X01: field 'attack': expected an integer >= 0, got 1.5"),
        ("dominance = 1", "dominance = true", "card X01: field 'dominance': expected an integer >= 0, got True"),
        ('races = ["human"]', "races = []", "card X01: field 'races': expected a non-empty list of non-empty strings"),
        ('races = ["human"]', 'races = "human"', "card X01: field 'races': expected a non-empty list"),
        ('name = "Test Unit"', "name = 3", "card X01: field 'name': expected a non-empty string, got 3"),
        ('type = "subordinate"', 'type = "spell"', "card X01: field 'type': expected one of 'leader', 'subordinate'"),
        ("hp = 2", "hp = 2\nflavor = 'x'", "card X01: field 'flavor': unknown field; valid fields: id, type,"),
        ("hp = 2", "lp = 2", "card X01: field 'hp': missing required field"),
        ('type = "subordinate"\n', "", "card X01: field 'type': missing required field"),
        ("abilities = []\n", "", "card X01: field 'abilities': missing required field"),
        ("abilities = []", "abilities = {}", "card X01: field 'abilities': expected a list of tables"),
        ("abilities = []", 'abilities = ["armor"]', "card X01: field 'abilities[0]': expected a table"),
    ],
)
def test_malformed_card_fields(tmp_path, old, new, expected):
    assert old in SUBORDINATE
    assert expected in load_error(tmp_path, SUBORDINATE.replace(old, new))


def ability_error(tmp_path: Path, ability: str, card: str = SUBORDINATE) -> str:
    return load_error(tmp_path, card.replace("abilities = []", f'abilities = [{{ key = "evasive" }}, {ability}]'))


@pytest.mark.parametrize(
    ("ability", "field", "problem"),
    [
        ('{ key = "haste" }', "key", "unknown ability key 'haste'; valid keys: cannot_attack,"),
        ("{ amount = 1 }", "key", "missing required field"),
        ('{ key = "armor" }', "amount", "missing required field"),
        ('{ key = "armor", amount = 1, race = "human" }', "race", "unknown field; valid fields: key, amount"),
        ('{ key = "evasive", amount = 1 }', "amount", "unknown field; valid fields: key"),
        ('{ key = "armor", amount = 0 }', "amount", "expected an integer >= 1, got 0"),
        ('{ key = "armor", amount = "1" }', "amount", "expected an integer >= 1, got '1'"),
        ('{ key = "kinship", amount = 1 }', "race", "missing required field"),
        ('{ key = "kinship", race = 5, amount = 1 }', "race", "expected a non-empty string, got 5"),
        ('{ key = "kinship", race = "any", amount = 1 }', "race", "'any' is valid only for aura"),
        ('{ key = "aura", race = "beast", attack = 1 }', "hp", "missing required field"),
        ('{ key = "aura", race = "beast", attack = -1, hp = 1 }', "attack", "expected an integer >= 0, got -1"),
        ('{ key = "aura", race = "beast", attack = 0, hp = 0 }', "attack", "aura needs attack or hp >= 1"),
    ],
)
def test_malformed_abilities(tmp_path, ability, field, problem):
    assert f"card X01: field 'abilities[1].{field}': {problem}" in ability_error(tmp_path, ability)


def test_unknown_key_lists_every_valid_key(tmp_path):
    message = ability_error(tmp_path, '{ key = "haste" }')
    assert message.endswith("valid keys: " + ", ".join(ABILITY_KINDS))


def test_aura_accepts_any_race_and_zero_attack_or_hp(tmp_path):
    text = SUBORDINATE.replace("abilities = []", 'abilities = [{ key = "aura", race = "any", attack = 0, hp = 2 }]')
    assert load_card_set([write(tmp_path, text)])["X01"].abilities == (Ability("aura", race="any", hp=2),)


@pytest.mark.parametrize("key", ["armor", "deploy_draw", "deploy_strike", "deploy_heal", "farewell_heal", "hand_rally"])
def test_subordinate_only_keys_rejected_on_leaders(tmp_path, key):
    message = ability_error(tmp_path, f'{{ key = "{key}", amount = 1 }}', LEADER)
    assert f"card XL1: field 'abilities[1].key': '{key}' is valid only on subordinates (A17.22)" in message


def test_hand_cycle_rejected_on_leaders_but_other_keys_work(tmp_path):
    assert "'hand_cycle' is valid only on subordinates" in ability_error(tmp_path, '{ key = "hand_cycle" }', LEADER)
    text = LEADER.replace("abilities = []", 'abilities = [{ key = "nimble" }, { key = "tap_snipe", amount = 1 }]')
    assert load_card_set([write(tmp_path, text)])["XL1"].has("tap_snipe")


def test_leader_fields(tmp_path):
    no_lp = LEADER.replace("lp = 20", "lp = 0")
    assert "card XL1: field 'lp': expected an integer >= 1, got 0" in load_error(tmp_path, no_lp)
    with_hp = LEADER.replace("lp = 20", "lp = 20\nhp = 3")
    assert "card XL1: field 'hp': unknown field" in load_error(tmp_path, with_hp)


def test_bad_toml_syntax(tmp_path):
    message = load_error(tmp_path, SUBORDINATE.replace("cost = 1", "cost = = 1"))
    assert ": line 6, column 8: invalid TOML: " in message


def test_duplicate_ids_across_two_files(tmp_path):
    base = write(tmp_path, CANONICAL, "base.toml")
    extra = write(tmp_path, SUBORDINATE.replace('"X01"', '"S17"'), "extra.toml")
    with pytest.raises(CardDataError) as info:
        load_card_set([base, extra])
    assert str(info.value).startswith(f"{extra}: card S17: field 'id': duplicate card id 'S17': also in {base}")


def test_deck_in_card_file_is_rejected(tmp_path):
    assert "unexpected top-level key 'deck'" in load_error(tmp_path, CANONICAL + "\n" + CANONICAL_D1)


# ---- deck files ----


def deck_error(tmp_path: Path, text: str) -> str:
    path = write(tmp_path, text, "deck.toml")
    with pytest.raises(CardDataError) as info:
        load_deck(path)
    return str(info.value)


def test_deck_file_round_trip(tmp_path):
    deck = load_deck(write(tmp_path, CANONICAL_D1, "D1.toml"))
    assert deck == packaged_deck("D1")


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('leader = "L01"', "leader = 1", "deck D1: field 'leader': expected a non-empty string, got 1"),
        ('leader = "L01"\n', "", "deck D1: field 'leader': missing required field"),
        ("S21 = 1", "S21 = 0", "deck D1: field 'cards.S21': expected an integer >= 1, got 0"),
        ("S21 = 1", 'S21 = "one"', "deck D1: field 'cards.S21': expected an integer >= 1"),
        ('name = "Vanguard of Dawn"', 'name = ""', "deck D1: field 'name': expected a non-empty string"),
        ('leader = "L01"', 'leader = "L01"\ncasters = []', "deck D1: field 'casters': unknown field"),
        ("[[deck]]", "[[deck]]\n[[deck]]", "expected exactly one [[deck]] table, got 2"),
    ],
)
def test_malformed_deck_files(tmp_path, old, new, expected):
    assert old in CANONICAL_D1
    assert expected in deck_error(tmp_path, CANONICAL_D1.replace(old, new))


def test_illegal_but_well_formed_deck_loads(tmp_path):
    deck = load_deck(write(tmp_path, CANONICAL_D1.replace('leader = "L01"', 'leader = "S01"'), "D1.toml"))
    assert [rule for rule, _ in validate_deck(deck, CARDS)] == ["A5.4"]


# ---- fuzz: a mangled file loads or raises CardDataError, never anything else ----

VALUES = ['"four"', "-1", "0", "1", "99", "true", "1.5", "[]", "{}", '"any"', '"armor"', '["human"]', '{ key = "x" }']


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    lines = text.splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["del_char", "dup_char", "set_char", "del_line", "dup_line", "move_line", "value"]))
        if op.endswith("char"):
            joined = "".join(lines)
            at = draw(st.integers(0, max(len(joined) - 1, 0)))
            if op == "del_char":
                joined = joined[:at] + joined[at + 1 :]
            elif op == "dup_char":
                joined = joined[: at + 1] + joined[at:]
            else:
                char = draw(st.characters(codec="utf-8") | st.sampled_from('"=[]{},.#\n 0123456789'))
                joined = joined[:at] + char + joined[at + 1 :]
            lines = joined.splitlines(keepends=True)
        elif lines:
            at = draw(st.integers(0, len(lines) - 1))
            if op == "del_line":
                del lines[at]
            elif op == "dup_line":
                lines.insert(at, lines[at])
            elif op == "move_line":
                lines.insert(draw(st.integers(0, len(lines) - 1)), lines.pop(at))
            elif " = " in lines[at]:
                field = lines[at].split(" = ", 1)[0]
                lines[at] = f"{field} = {draw(st.sampled_from(VALUES))}\n"
    return "".join(lines)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=mutated(CANONICAL))
def test_fuzzed_card_file_loads_or_raises_card_data_error(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("fuzz") / "cards.toml"
    path.write_text(text, encoding="utf-8")
    try:
        cards = load_card_set([path])
    except CardDataError as error:
        assert str(error).startswith(str(path))
        return
    assert isinstance(cards, CardSet)
    for deck_id in PACKAGED_DECKS:
        validate_deck(packaged_deck(deck_id), cards)


@settings(max_examples=200, deadline=None)
@given(text=mutated(CANONICAL_D1))
def test_fuzzed_deck_file_loads_or_raises_card_data_error(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("fuzz") / "D1.toml"
    path.write_text(text, encoding="utf-8")
    try:
        deck = load_deck(path)
    except CardDataError:
        return
    validate_deck(deck, CARDS)
    assert len(deck.card_list()) == sum(deck.cards.values())
