"""Dreadnought card data: the packaged D23 set, the D22 vocabulary checks, deck rules (D3) and a loader fuzz."""

from __future__ import annotations

import dataclasses
import tomllib
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.core.carddata import CardDataError
from cardlab.games.dreadnought.cards import (
    EFFECT_PARAMS,
    EVENTS,
    PACKAGED_DECKS,
    STATIC_EFFECT_PARAMS,
    TIMINGS,
    ZONES,
    Ability,
    CardSet,
    Cost,
    Deck,
    Effect,
    EffectError,
    Filter,
    Selector,
    Sub,
    condition_met,
    load_card_set,
    load_deck,
    packaged_deck,
    parse_effect,
    validate_deck,
)

DATA = resources.files("cardlab.games.dreadnought") / "data"
CANONICAL = (DATA / "cards.toml").read_text(encoding="utf-8")
CANONICAL_DECK = (DATA / "decks" / "ember_spark.toml").read_text(encoding="utf-8")
CARDS = load_card_set()

UNIT = """
[[cards]]
id = "T01"
name = "Test Unit"
type = "unit"
cluster = ["red"]
cond = ["red"]
speed = "B"
cost = 1
size = "M"
bp = 100

[[cards.abilities]]
kind = "activated"
timing = ["ACTION"]
zone = "battle"
cost = { check_self = true }
effects = ["draw(n=1)", "damage(target=enemy_unit, amount=30)"]
"""
CODE = """
[[cards]]
id = "T02"
name = "Test Code"
type = "code"
cluster = []
cond = []
speed = "A"
cost = 1
timing = ["ACTION", "REACTION"]
effects = ["damage(target=enemy_unit, amount=60)"]
"""
CASTER = """
[[cards]]
id = "T03"
name = "Test Caster"
type = "caster"
cluster = ["blue"]
hp = 3

[[cards.abilities]]
kind = "activated"
timing = ["REACTION"]
zone = "field"
cost = { log = 1 }
effects = ["shield(target=own_unit, amount=30)"]
"""
ARMS = """
[[cards]]
id = "T04"
name = "Test Arms"
type = "arms"
cluster = ["green"]
cond = ["green"]
speed = "B"
cost = 1

[[cards.grants]]
kind = "activated"
timing = ["REACTION"]
zone = "field"
cost = { check_self = true }
effects = ["enchant(kind=boost, target=own_unit)"]
"""


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


def all_effects(cards: CardSet) -> list[Effect]:
    """Every effect printed anywhere in the set, attach statics included."""
    found = []
    for card in cards.by_id.values():
        lists = [card.effects, *(a.effects for a in card.abilities + card.grants)]
        if card.sub is not None:
            lists.append(card.sub.effects)
        for effects in lists:
            for effect in effects:
                found.append(effect)
                found.extend(value for arg in effect.args.values() if isinstance(arg, tuple) for value in arg)
    return found


# ---- the packaged D23 set ----


def test_packaged_set_has_the_d23_casters_and_56_cards():
    assert [card.id for card in CARDS.casters()] == [f"X0{n}" for n in range(1, 8)]
    ids = [card.id for card in CARDS.cards()]
    assert len(ids) == 56
    assert Counter(card_id[0] for card_id in ids) == {"R": 11, "Y": 9, "B": 10, "G": 10, "K": 8, "N": 8}
    assert Counter(card.type for card in CARDS.cards()) == {"unit": 24, "code": 22, "idol": 5, "arms": 5}


def test_packaged_file_is_exactly_the_spec_data():
    """The card file holds the D23 inline tables unchanged, as [[cards]] tables (D22.7)."""
    spec = Path(__file__).resolve().parents[3].parent / "shared" / "rules" / "dreadnought.md"
    if not spec.exists():
        pytest.skip("the shared rules folder is not present")
    blocks = spec.read_text(encoding="utf-8").split("```toml\n")[2:4]
    expected = tomllib.loads(blocks[0].split("```")[0])["casters"] + tomllib.loads(blocks[1].split("```")[0])["cards"]
    assert tomllib.loads(CANONICAL)["cards"] == expected


def test_d23_2_coverage():
    """D23.2 'Coverage': every D22.2/D22.3 effect, event, timing and zone tag is used by the sample set."""
    assert {effect.name for effect in all_effects(CARDS)} == {*EFFECT_PARAMS, *STATIC_EFFECT_PARAMS}
    abilities = [a for card in CARDS.by_id.values() for a in card.abilities + card.grants]
    assert {a.event for a in abilities if a.kind == "trigger"} == set(EVENTS)
    subs = [card.sub for card in CARDS.cards() if card.sub is not None]
    timings = {t for card in CARDS.cards() for t in card.timing} | {t for a in abilities for t in a.timing}
    assert timings | {t for sub in subs for t in sub.timing} == set(TIMINGS)
    assert {a.zone for a in abilities} == set(ZONES)
    assert {card.id for card in CARDS.cards() if card.upkeep} == {"R09", "Y08", "B08", "K07", "G08"}
    assert {sub.effects[0].name for sub in subs} == {"bp_mod", "cost_reduce"}
    assert all(sub.timing == ("PAYMENT",) for sub in subs if sub.effects[0].name == "cost_reduce")
    assert {card.id for card in CARDS.cards() if card.extra.engrave} == {"G06", "G07", "K06"}
    assert {card.id for card in CARDS.cards() if card.extra.discard} == {"N03"}
    assert {card.id: card.max_copies for card in CARDS.cards() if card.max_copies != 4} == {"G04": 8}
    conds = Counter(
        "blank" if not c.cond else "ALL" if c.cond == ("ALL",) else "single" if len(c.cond) == 1
        else "double" if c.cond[0] == c.cond[1] else "dual"
        for c in CARDS.cards()
    )  # fmt: skip
    assert conds == {"single": 46, "blank": 2, "ALL": 3, "dual": 3, "double": 2}


def test_card_values():
    varga = CARDS["X01"]
    assert (varga.type, varga.cluster, varga.hp, varga.hp_value, varga.max_copies) == ("caster", ("red",), 3, 50, 0)
    assert varga.abilities == (
        Ability(
            "activated", ("CAST",), "field", Cost(log=1, check_self=True), "", "",
            (Effect("enchant", {"kind": "boost", "target": Selector("own_unit"), "count": 1}),),
        ),
    )  # fmt: skip
    assert (CARDS["X06"].hp, CARDS["X06"].abilities) == (4, ())
    cub = CARDS["R01"]
    assert (cub.speed, cub.speed_index, cub.size, cub.weight, cub.bp, cub.cost, cub.max_copies) == (
        "A",
        2,
        "S",
        1,
        70,
        0,
        4,
    )
    name_filter = Selector("own_unit", (Filter("name", "=", "Ashfang Cub"),))
    assert cub.sub == Sub(("FAST", "REACTION"), "", Cost(), (Effect("bp_mod", {"target": name_filter, "amount": 30}),))
    assert CARDS["Y04"].speed_index == 5
    assert CARDS["B03"].weight == 3
    aegis = CARDS["B04"].effects[0]
    host_shield = Effect("static_shield", {"target": Selector("host"), "amount": 40})
    assert aegis == Effect("attach", {"target": Selector("own_unit"), "statics": (host_shield,)})
    assert CARDS["B05"].effects[0].args["target"] == Selector("enemy_unit", (Filter("bp", "<=", 120),))
    assert CARDS["K06"].effects == (Effect("hp_break", {"target": Selector("enemy_caster"), "n": 1}),)
    assert (CARDS["K06"].extra, CARDS["K06"].cond) == (Cost(engrave=1), ("black", "black"))
    assert (CARDS["N07"].require, CARDS["N07"].timing) == ("enemy_attack", ("REACTION",))
    bone = CARDS["K07"]
    assert (bone.upkeep, bone.abilities[0].cost) == (1, Cost(check_self=True, discard=1))
    assert CARDS["G10"].grants[0].cost == Cost(check_self=True, engrave=1)
    assert CARDS["K02"].abilities[0].event == "on_break"
    assert (CARDS["N01"].cluster, CARDS["N05"].cluster) == ((), ("red", "yellow"))


def test_effects_print_back_as_written():
    """`str(effect)` is the canonical text: every effect string of the sample set round-trips."""
    written = []
    for card in tomllib.loads(CANONICAL)["cards"]:
        written += card.get("effects", []) + card.get("sub", {}).get("effects", [])
        written += [text for a in card.get("abilities", []) + card.get("grants", []) for text in a["effects"]]
    printed = [
        str(effect)
        for effect in all_effects(CARDS)
        if effect.name != "static_shield" or effect.args["target"] != Selector("host")
    ]
    assert printed == written
    assert all(parse_effect(text, static=text.startswith("static_")) for text in written)


def test_effects_are_hashable_and_defaults_filled():
    effect = parse_effect(" enchant( target = enemy_unit[bp>=10, state=checked] , kind = weaken ) ")
    assert effect.args == {
        "kind": "weaken",
        "target": Selector("enemy_unit", (Filter("bp", ">=", 10), Filter("state", "=", "checked"))),
        "count": 1,
    }
    assert str(effect) == "enchant(kind=weaken, target=enemy_unit[bp>=10,state=checked], count=1)"
    assert hash(effect) == hash(parse_effect(str(effect)))
    assert parse_effect("hp_gain(target=own_caster)").args["n"] == 1
    assert parse_effect("bp_mod(target=all_enemy_units[size=L], amount=-30)").args["target"].is_group
    assert len({CARDS[card_id] for card_id in ("X01", "B04", "R09")}) == 3


@pytest.mark.parametrize(
    ("text", "static", "problem"),
    [
        ("damage", False, "expected name(key=value, ...)"),
        ("smite(target=enemy_unit)", False, "unknown effect 'smite'; valid effects: damage, enchant,"),
        ("static_bp(target=self, amount=10)", False, "'static_bp' is a static effect, valid only in static abilities"),
        ("draw(n=1)", True, "'draw' is not a static effect; static abilities and attach take static_bp"),
        ("damage(target=enemy_unit)", False, "damage needs parameter 'amount'"),
        ("damage(target=enemy_unit, amount=80, n=1)", False, "damage has no parameter 'n'; it takes target, amount"),
        ("damage(target=enemy_unit, target=own_unit, amount=1)", False, "parameter 'target' given twice"),
        ("damage(enemy_unit, amount=80)", False, "damage: expected key=value, got 'enemy_unit'"),
        ("damage(target=enemy_unit, amount=0)", False, "damage: amount must be an integer >= 1, got '0'"),
        ("damage(target=enemy_unit, amount=08)", False, "amount must be an integer >= 1, got '08'"),
        ("draw(n=two)", False, "draw: n must be an integer >= 1, got 'two'"),
        ("bp_mod(target=own_unit, amount=0)", False, "bp_mod: amount must be a non-zero integer, got '0'"),
        ("enchant(kind=curse, target=enemy_unit)", False, "enchant: kind must be one of boost, weaken, got 'curse'"),
        ("damage(target=foe, amount=80)", False, "unknown selector 'foe'; valid selectors: self, own_unit,"),
        ("damage(target=enemy_unit[hp<=3], amount=80)", False, "unknown filter 'hp<=3'; valid filters: bp<=N, bp>=N"),
        ("damage(target=enemy_unit[size<=3], amount=80)", False, "unknown filter 'size<=3'"),
        ("damage(target=enemy_unit[bp<=x], amount=80)", False, "filter 'bp<=x': bp must be compared with an integer"),
        ("damage(target=enemy_unit[size=XL], amount=80)", False, "filter 'size=XL': size must be one of S, M, L"),
        ("damage(target=enemy_unit[zone=speed], amount=80)", False, "zone must be one of battle, idol"),
        ("damage(target=enemy_unit[cluster=pink], amount=1)", False, "cluster must be one of red, blue, yellow,"),
        ("damage(target=enemy_unit[name=], amount=80)", False, "filter 'name=': a card name is missing"),
        ("damage(target=enemy_unit[], amount=80)", False, "empty item in a comma-separated list"),
        ("damage(target=enemy_unit[bp<=1,bp<=2], amount=1)", False, "repeats a filter"),
        ("damage(target=enemy_unit[bp<=1, amount=80)", False, "missing ']'"),
        ("damage(target=enemy_unit], amount=80)", False, "unbalanced ']'"),
        ("hp_break(target=enemy_caster[bp<=1])", False, "bp, size and zone filters apply to units only"),
        ("attach(target=own_unit, statics=[])", False, "statics must be a non-empty bracketed list"),
        ("attach(target=own_unit, statics=[draw(n=1)])", False, "'draw' is not a static effect"),
        ("draw(n=1,)", False, "empty item"),
    ],
)
def test_parse_effect_rejects(text, static, problem):
    with pytest.raises(EffectError) as info:
        parse_effect(text, static=static)
    assert problem in str(info.value)


# ---- malformed card files ----

ABILITY = "[[cards.abilities]]\n"
GRANT = "[[cards.grants]]\n"


def first(header: str, body: str) -> str:
    """A new first ability (index 0) with `body`, before the template's own."""
    return f"{header}{body}\n\n{header}"


STATIC_DRAW = first(ABILITY, 'kind = "static"\nzone = "battle"\neffects = ["draw(n=1)"]')
STATIC_CHOICE = first(ABILITY, 'kind = "static"\nzone = "battle"\neffects = ["static_bp(target=own_unit, amount=10)"]')
REVEAL_IN_BATTLE = first(
    ABILITY, 'kind = "trigger"\nevent = "on_speed_reveal"\nzone = "battle"\neffects = ["burst(n=1)"]'
)
BAD_EVENT = first(ABILITY, 'kind = "trigger"\nevent = "on_death"\nzone = "battle"\neffects = ["burst(n=1)"]')
CAST_ATTACK_MOD = first(
    ABILITY, 'kind = "trigger"\nevent = "on_cast"\nzone = "battle"\neffects = ["attack_mod(amount=10)"]'
)
STATIC_GRANT = first(GRANT, 'kind = "static"\nzone = "field"\neffects = ["static_shield(target=bearer, amount=10)"]')
ATTACH = "attach(target=own_unit, statics=[static_bp(target=host, amount=10)])"
SUB = 'sub = {{ timing = ["FAST"], cost = {cost}, effects = ["{effect}"] }}'
UNIT_PREFIX = 'zone = "battle"\n'


@pytest.mark.parametrize(
    ("card", "old", "new", "field", "problem"),
    [
        (UNIT, '"draw(n=1)"', '"drew(n=1)"', "abilities[0].effects[0]", "'drew(n=1)': unknown effect 'drew'"),
        (UNIT, "amount=30", "amount=30, range=2", "abilities[0].effects[1]", "damage has no parameter 'range'"),
        (UNIT, "=enemy_unit", "=enemy_unit[colour=red]", "abilities[0].effects[1]", "unknown filter 'colour=red'"),
        (UNIT, '"draw(n=1)"', "3", "abilities[0].effects[0]", "expected an effect string, got 3"),
        (UNIT, '["draw(n=1)", "damage(target=enemy_unit, amount=30)"]', "[]", "abilities[0].effects", "non-empty list"),
        (UNIT, "bp = 100", "bp = 100\nflavor = 'x'", "flavor", "unknown field; valid fields: id, name, type,"),
        (UNIT, "bp = 100", "bp = 100\ntiming = ['ACTION']", "timing", "unknown field"),
        (UNIT, "bp = 100", 'bp = "100"', "bp", "expected an integer >= 1, got '100'"),
        (UNIT, "bp = 100", "bp = 0", "bp", "expected an integer >= 1, got 0"),
        (UNIT, "cost = 1", "cost = true", "cost", "expected an integer >= 0, got True"),
        (UNIT, 'speed = "B"', 'speed = "A++++"', "speed", "expected one of 'C', 'B', 'A', 'A+', 'A++', 'A+++'"),
        (UNIT, 'size = "M"', 'size = "XL"', "size", "expected one of 'S', 'M', 'L', got 'XL'"),
        (UNIT, 'size = "M"\n', "", "size", "missing required field"),
        (UNIT, 'type = "unit"', 'type = "spell"', "type", "expected one of 'caster', 'unit', 'idol', 'code', 'arms'"),
        (UNIT, 'cluster = ["red"]', 'cluster = ["red", "red"]', "cluster", "expected a list of 0-2 different clusters"),
        (UNIT, 'cluster = ["red"]', 'cluster = ["pink"]', "cluster", "0-2 different clusters (red, blue, yellow,"),
        (UNIT, 'cluster = ["red"]', 'cluster = "red"', "cluster", "expected a list of 0-2 different clusters"),
        (UNIT, 'cond = ["red"]', 'cond = ["ALL", "red"]', "cond", "expected [], ['ALL'] or one or two of red,"),
        (UNIT, 'cond = ["red"]', 'cond = ["red", "red", "red"]', "cond", "expected [], ['ALL'] or one or two"),
        (UNIT, "bp = 100", "bp = 100\nmax_copies = 0", "max_copies", "expected an integer >= 1, got 0"),
        (
            UNIT,
            "bp = 100",
            "bp = 100\nextra = { log = 1 }",
            "extra.log",
            "unknown field; valid fields: engrave, discard",
        ),
        (UNIT, "bp = 100", "bp = 100\nextra = { discard = -1 }", "extra.discard", "expected an integer >= 0, got -1"),
        (UNIT, "bp = 100", "bp = 100\nextra = 1", "extra", "expected a table, got 1"),
        (UNIT, "{ check_self = true }", "{}", "abilities[0].cost", "an activated ability needs check_self = true or"),
        (UNIT, "{ check_self = true }", "{ check_self = false, log = 0 }", "abilities[0].cost", "needs check_self"),
        (UNIT, "{ check_self = true }", '{ check_self = "yes" }', "abilities[0].cost.check_self", "expected true or"),
        (UNIT, "{ check_self = true }", "{ log = 1, mana = 1 }", "abilities[0].cost.mana", "unknown field"),
        (UNIT, '"activated"', '"passive"', "abilities[0].kind", "expected one of 'activated', 'trigger', 'static'"),
        (
            UNIT,
            UNIT_PREFIX,
            'zone = "hand"\n',
            "abilities[0].zone",
            "expected one of 'battle', 'idol', 'field', 'speed'",
        ),
        (UNIT, UNIT_PREFIX, 'zone = "idol"\n', "abilities[0].zone", "zone 'idol' is only for idol cards (D19.3)"),
        (UNIT, '["ACTION"]', '["MAIN"]', "abilities[0].timing", "expected a non-empty list of different timing tags"),
        (UNIT, '["ACTION"]', '["ACTION", "ACTION"]', "abilities[0].timing", "a non-empty list of different timing"),
        (UNIT, '["ACTION"]', "[]", "abilities[0].timing", "expected a non-empty list"),
        (UNIT, UNIT_PREFIX, UNIT_PREFIX + 'event = "on_cast"\n', "abilities[0].event", "unknown field; valid fields:"),
        (
            UNIT,
            UNIT_PREFIX,
            UNIT_PREFIX + 'require = "own_attack"\n',
            "abilities[0].require",
            "lacks 'REACTION' (D22.5)",
        ),
        (
            UNIT,
            UNIT_PREFIX,
            UNIT_PREFIX + 'require = "mine"\n',
            "abilities[0].require",
            "expected one of 'own_attack',",
        ),
        (UNIT, ABILITY, STATIC_DRAW, "abilities[0].effects[0]", "'draw(n=1)': 'draw' is not a static effect"),
        (UNIT, ABILITY, STATIC_CHOICE, "abilities[0].effects[0]", "a static effect cannot choose a target; use self,"),
        (UNIT, ABILITY, REVEAL_IN_BATTLE, "abilities[0].zone", "on_speed_reveal fires in a speed area"),
        (UNIT, ABILITY, BAD_EVENT, "abilities[0].event", "expected one of 'on_cast', 'on_attack',"),
        (UNIT, ABILITY, CAST_ATTACK_MOD, "abilities[0].effects[0]", "attack_mod needs an attack: a require or an"),
        (UNIT, "=enemy_unit", "=attacker", "abilities[0].effects[1]", "attacker needs an attack"),
        (UNIT, "=enemy_unit", "=bearer", "abilities[0].effects[1]", "bearer exists only in an arms' grants (D22.6)"),
        (UNIT, "=enemy_unit", "=host", "abilities[0].effects[1]", "host exists only inside attach statics (D22.3)"),
        (UNIT, "=enemy_unit", "=enemy_caster", "abilities[0].effects[1]", "damage targets units only"),
        (UNIT, "draw(n=1)", "speed_shift(steps=1)", "abilities[0].effects[0]", "works only with timing = ['SPEED']"),
        (UNIT, "draw(n=1)", "cost_reduce(n=1)", "abilities[0].effects[0]", "works only with timing = ['PAYMENT']"),
        (UNIT, "draw(n=1)", ATTACH, "abilities[0].effects[0]", "attach is valid only in a code's own effects"),
        (UNIT, "draw(n=1)", "hp_gain(target=enemy_caster)", "abilities[0].effects[0]", "targets own casters only"),
        (
            UNIT,
            "draw(n=1)",
            "hp_break(target=own_unit)",
            "abilities[0].effects[0]",
            "targets casters only, not own_unit",
        ),
        (
            UNIT,
            "bp = 100",
            "bp = 100\n" + SUB.format(cost="{ check_self = true }", effect="draw(n=1)"),
            "sub.cost.check_self",
            "unknown field; valid fields: log, engrave, discard",
        ),
        (UNIT, "bp = 100", 'bp = 100\nsub = { timing = ["FAST"], effects = ["draw(n=1)"] }', "sub.cost", "missing"),
        (
            UNIT,
            "bp = 100",
            "bp = 100\n" + SUB.format(cost="{}", effect="bp_mod(target=own_unit, amount=ten)"),
            "sub.effects[0]",
            "bp_mod: amount must be a non-zero integer",
        ),
        (CODE, 'timing = ["ACTION", "REACTION"]\n', "", "timing", "missing required field"),
        (
            CODE,
            "damage(target=enemy_unit, amount=60)",
            ATTACH.replace("own_unit", "all_own_units"),
            "effects[0]",
            "attach needs one target (D14.5)",
        ),
        (CODE, "damage(target=enemy_unit, amount=60)", "speed_shift(steps=1)", "effects[0]", "timing = ['SPEED']"),
        (CODE, "cost = 1", "cost = 1\nsize = 'S'", "size", "unknown field"),
        (CASTER, "hp = 3", "hp = 0", "hp", "expected an integer >= 1, got 0"),
        (CASTER, "hp = 3", "hp = 3\nhp_value = 0", "hp_value", "expected an integer >= 1, got 0"),
        (
            CASTER,
            "hp = 3",
            "hp = 3\ncond = []",
            "cond",
            "valid fields: id, name, type, cluster, hp, hp_value, abilities",
        ),
        (CASTER, 'cluster = ["blue"]', "cluster = []", "cluster", "expected exactly one cluster (D2.4)"),
        (CASTER, 'zone = "field"', 'zone = "battle"', "abilities[0].zone", "caster abilities and arms grants use zone"),
        (CASTER, "{ log = 1 }", "{ log = 0 }", "abilities[0].cost", "an activated ability needs check_self = true"),
        (ARMS, GRANT, "grants = []\n" + ABILITY, "grants", "an arms needs at least one granted ability (D2.8)"),
        (ARMS, "target=own_unit", "target=bearer", "grants[0].effects[0]", "enchant targets units only"),
        (
            ARMS,
            'zone = "field"',
            'zone = "speed"',
            "grants[0].zone",
            "caster abilities and arms grants use zone 'field'",
        ),
        (ARMS, GRANT, "grants = 1\n" + ABILITY, "grants", "expected a list of tables, got 1"),
    ],
)
def test_malformed_card_files(tmp_path, card, old, new, field, problem):
    """Each problem is a `CardDataError` naming the file, the card and the field."""
    assert old in card
    card_id = card.split('id = "')[1].split('"')[0]
    message = load_error(tmp_path, card.replace(old, new, 1))
    assert f": card {card_id}: field '{field}': " in message
    assert problem in message


@pytest.mark.parametrize(
    ("card", "old", "new"),
    [
        (UNIT, "bp = 100", "bp = 100\n" + SUB.format(cost="{}", effect="bp_mod(target=own_unit, amount=-10)")),
        (CODE, "effects = [", "abilities = []\neffects = ["),
        (CODE, "enemy_unit", "enemy_unit[bp<=100,zone=battle,name=Tide Nymph]"),
        (CODE, "cost = 1", "cost = 1\nrequire = 'attack'"),
        (CODE, "damage(target=enemy_unit, amount=60)", ATTACH),
        (CASTER, "{ log = 1 }", "{ discard = 1 }"),
        (ARMS, "enchant(kind=boost, target=own_unit)", "hp_gain(target=bearer)"),
        (ARMS, GRANT, STATIC_GRANT),
    ],
)
def test_valid_variants_load(tmp_path, card, old, new):
    assert old in card
    assert len(load_card_set([write(tmp_path, card.replace(old, new, 1))]).by_id) == 1


def test_bad_toml_and_duplicate_ids(tmp_path):
    assert ": line 11, column 6: invalid TOML: " in load_error(tmp_path, UNIT.replace("bp = 100", "bp = = 100"))
    base = write(tmp_path, CANONICAL, "base.toml")
    extra = write(tmp_path, UNIT.replace('"T01"', '"R01"'), "extra.toml")
    with pytest.raises(CardDataError, match="card R01: field 'id': duplicate card id 'R01': also in "):
        load_card_set([base, extra])
    with pytest.raises(CardDataError, match="card R01: field 'id': duplicate card id"):
        load_card_set([extra], with_sample_set=True)


def test_loading_given_files_with_or_without_the_sample_set(tmp_path):
    path = write(tmp_path, UNIT + CODE + CASTER + ARMS)
    assert list(load_card_set([path]).by_id) == ["T01", "T02", "T03", "T04"]
    both = load_card_set([path], with_sample_set=True)
    assert len(both.by_id) == 63 + 4
    assert [card.id for card in both.casters()][-1] == "T03"
    assert "T02" in both and "Z99" not in both
    with pytest.raises(KeyError, match="unknown card id 'Z99'"):
        both["Z99"]


# ---- decks (D23.3) and D3 validation ----


def rules(deck: Deck, cards: CardSet = CARDS) -> list[str]:
    return [rule for rule, _ in validate_deck(deck, cards)]


def with_cards(deck: Deck, **changes: int) -> Deck:
    """`deck` with card counts changed; a count of 0 removes the card."""
    counts = {**deck.cards, **changes}
    return dataclasses.replace(deck, cards={card_id: n for card_id, n in counts.items() if n})


def test_starter_decks_are_legal_and_match_d23_3():
    assert PACKAGED_DECKS == ("ember_spark", "tide_grove")
    expected = {
        "ember_spark": ("Ember & Spark", ("X01", "X03"), {"unit": 29, "idol": 3, "code": 15, "arms": 3}),
        "tide_grove": ("Tide & Grove", ("X04", "X06"), {"unit": 25, "idol": 3, "code": 20, "arms": 2}),
    }
    for deck_id, (name, casters, types) in expected.items():
        deck = packaged_deck(deck_id)
        assert (deck.id, deck.name, deck.casters) == (deck_id, name, casters)
        assert len(deck.card_list()) == 50
        assert Counter(CARDS[card_id].type for card_id in deck.card_list()) == types
        assert validate_deck(deck, CARDS) == []
    assert packaged_deck("tide_grove").cards["G04"] == 5
    assert packaged_deck("ember_spark").card_list()[:5] == ["R01"] * 4 + ["R02"]
    with pytest.raises(KeyError, match="unknown packaged deck 'D1'"):
        packaged_deck("D1")


def test_d3_1_caster_count_and_unknown_casters():
    ember = packaged_deck("ember_spark")
    three = dataclasses.replace(ember, casters=("X01", "X03", "X05"))
    assert validate_deck(three, CARDS) == [("D3.1", "the deck has 3 casters; it must have exactly 2")]
    assert rules(dataclasses.replace(ember, casters=("X01",))) == ["D3.1"]
    odd = dataclasses.replace(ember, casters=("X99", "R01"))
    assert validate_deck(odd, CARDS) == [
        ("D3.1", "unknown caster id 'X99'"),
        ("D3.1", "unit R01 'Ashfang Cub' is named as a caster but is not one"),
    ]


def test_d3_1_duplicate_caster_names(tmp_path):
    ember = packaged_deck("ember_spark")
    same = validate_deck(dataclasses.replace(ember, casters=("X01", "X01")), CARDS)
    assert same[0] == ("D3.1", "2 casters named 'Ignis Varga'; the two casters must have different names")
    assert {rule for rule, _ in same[1:]} == {"D3.4"}  # K = [red, red] still leaves the yellow cards out
    epithet = CASTER.replace('"T03"', '"X01B"').replace('"Test Caster"', '"Ignis Varga"').replace('"blue"', '"yellow"')
    cards = load_card_set([write(tmp_path, epithet)], with_sample_set=True)
    assert rules(dataclasses.replace(ember, casters=("X01", "X01B")), cards) == ["D3.1"]


def test_d3_2_size_caster_in_deck_and_unknown_cards():
    ember = packaged_deck("ember_spark")
    short = with_cards(ember, R01=3)
    assert validate_deck(short, CARDS) == [("D3.2", "the deck has 49 cards; it must have exactly 50")]
    assert rules(with_cards(ember, N01=3)) == ["D3.2"]
    assert validate_deck(with_cards(ember, R01=3, X02=1), CARDS) == [
        ("D3.2", "caster X02 'Sable Kurenai' is in the deck; casters stay outside it")
    ]
    assert validate_deck(with_cards(ember, R01=3, Z01=1), CARDS) == [("D3.2", "unknown card id 'Z01' in the deck")]


def test_d3_3_copy_limits(tmp_path):
    ember = packaged_deck("ember_spark")
    fifth = with_cards(ember, R02=5, R03=0)
    assert validate_deck(fifth, CARDS) == [("D3.3", "5 cards named 'Blaze Warden' (R02 x5); at most 4 per name")]
    tide = packaged_deck("tide_grove")
    assert validate_deck(with_cards(tide, G04=8, G01=1), CARDS) == []
    assert validate_deck(with_cards(tide, G04=9, G01=1, B10=0), CARDS) == [
        ("D3.3", "9 cards named 'Seedling Swarm' (G04 x9); at most 8 per name")
    ]
    reprint = UNIT.replace('"T01"', '"R02B"').replace('"Test Unit"', '"Blaze Warden"')
    cards = load_card_set([write(tmp_path, reprint)], with_sample_set=True)
    by_name = with_cards(ember, R02=2, R02B=3, R03=0)
    assert validate_deck(by_name, cards) == [
        ("D3.3", "5 cards named 'Blaze Warden' (R02 x2, R02B x3); at most 4 per name")
    ]


@pytest.mark.parametrize(
    ("clusters", "allowed"),
    [
        (("blue", "blue"), {(), ("ALL",), ("blue",), ("blue", "blue")}),
        (("red", "blue"), {(), ("ALL",), ("red",), ("blue",), ("red", "blue"), ("blue", "red")}),
    ],
)
def test_d3_4_examples(clusters, allowed):
    """D3.4's own examples, against every condition over the two clusters (plus one foreign cluster)."""
    conds = [(), ("ALL",)] + [(x,) for x in ("red", "blue", "green")]
    conds += [(x, y) for x in ("red", "blue", "green") for y in ("red", "blue", "green")]
    assert {cond for cond in conds if condition_met(cond, clusters)} == allowed


def test_d3_4_condition_violations_in_decks():
    ember = packaged_deck("ember_spark")
    # one cluster: with red + blue casters every yellow-only card and the red+yellow N05 are illegal.
    problems = validate_deck(dataclasses.replace(ember, casters=("X01", "X04")), CARDS)
    assert {rule for rule, _ in problems} == {"D3.4"}
    assert len(problems) == 10
    assert problems[0] == (
        "D3.4",
        "card Y01 'Spark Sprite' has cond [yellow], which the casters' clusters K = [red, blue] do not meet",
    )
    assert problems[-1] == (
        "D3.4",
        "card N05 'Stormfire Drake' has cond [red, yellow], which the casters' clusters K = [red, blue] do not meet",
    )
    # two clusters, the same twice: R10 is illegal with red + yellow (D23.2) and legal with red + red.
    twin = with_cards(ember, R10=1, R04=2)
    assert validate_deck(twin, CARDS) == [
        (
            "D3.4",
            "card R10 'Twin-Flame Brute' has cond [red, red], which the casters' clusters K = [red, yellow] "
            "do not meet",
        )
    ]
    red_red = dataclasses.replace(with_cards(ember, R10=1, R04=2), casters=("X01", "X02"))
    assert {card_id for _, message in validate_deck(red_red, CARDS) for card_id in [message.split()[1]]} == {
        "Y01", "Y02", "Y03", "Y04", "Y05", "Y06", "Y07", "Y08", "Y09", "N05",
    }  # fmt: skip
    # two different clusters: N08 needs exactly black + green; K06 exactly black + black.
    tide = packaged_deck("tide_grove")
    assert rules(with_cards(tide, N08=1, B01=3)) == ["D3.4"]
    black_green = dataclasses.replace(tide, casters=("X05", "X06"), cards={"N08": 4, "K06": 4, "G01": 4, "N01": 38})
    assert validate_deck(black_green, CARDS) == [
        ("D3.3", "38 cards named 'Wandering Golem' (N01 x38); at most 4 per name"),
        (
            "D3.4",
            "card K06 'Dread Omen' has cond [black, black], which the casters' clusters K = [black, green] do not meet",
        ),
    ]
    # blank and ALL conditions fit any casters.
    for casters in (("X01", "X02"), ("X04", "X06"), ("X05", "X07")):
        open_deck = dataclasses.replace(tide, casters=casters, cards={"N01": 4, "N02": 4, "N03": 4, "N04": 4, "N07": 4})
        assert rules(open_deck) == ["D3.2"]


def test_every_violation_is_reported_at_once():
    deck = Deck("bad", "Everything wrong", ("X01", "X02", "X03"), {"R01": 6, "X04": 1, "Z01": 2})
    assert rules(deck) == ["D3.1", "D3.2", "D3.2", "D3.2", "D3.3"]
    deck = Deck("bad", "Wrong cluster", ("X01", "X01"), {"Y01": 6})
    assert rules(deck) == ["D3.1", "D3.2", "D3.3", "D3.4"]


# ---- deck files ----


def deck_error(tmp_path: Path, text: str) -> str:
    path = write(tmp_path, text, "deck.toml")
    with pytest.raises(CardDataError) as info:
        load_deck(path)
    return str(info.value)


def test_deck_file_round_trip_and_default_id(tmp_path):
    assert load_deck(write(tmp_path, CANONICAL_DECK, "x.toml")) == packaged_deck("ember_spark")
    no_id = load_deck(write(tmp_path, CANONICAL_DECK.replace('id = "ember_spark"\n', ""), "my_deck.toml"))
    assert no_id.id == "my_deck"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            'casters = ["X01", "X03"]',
            'casters = "X01"',
            "deck ember_spark: field 'casters': expected a list of caster ids",
        ),
        ('casters = ["X01", "X03"]', 'casters = ["X01", 3]', "field 'casters': expected a list of caster ids"),
        (
            'casters = ["X01", "X03"]   # Ignis Varga (red) + Oren Quill (yellow)\n',
            "",
            "field 'casters': missing required field",
        ),
        ("R01 = 4", "R01 = 0", "deck ember_spark: field 'cards.R01': expected an integer >= 1, got 0"),
        ('name = "Ember & Spark"', "name = 1", "field 'name': expected a non-empty string, got 1"),
        (
            'name = "Ember & Spark"',
            'name = "E"\nleader = "X01"',
            "field 'leader': unknown field; valid fields: name, casters, cards, id",
        ),
        ("[[deck]]", "[[deck]]\n[[deck]]", "expected exactly one [[deck]] table, got 2"),
    ],
)
def test_malformed_deck_files(tmp_path, old, new, expected):
    assert old in CANONICAL_DECK
    assert expected in deck_error(tmp_path, CANONICAL_DECK.replace(old, new))


def test_well_formed_illegal_deck_loads(tmp_path):
    deck = load_deck(write(tmp_path, CANONICAL_DECK.replace('["X01", "X03"]', '["X01"]'), "d.toml"))
    assert rules(deck) == ["D3.1"]


# ---- fuzz: a mangled file loads or raises CardDataError, never anything else ----

VALUES = [
    '"four"',
    "-1",
    "0",
    "1",
    "true",
    "1.5",
    "[]",
    "{}",
    '["ALL"]',
    '["red", "red"]',
    '"A+"',
    "{ log = 1 }",
    '["ACTION"]',
]
FRAGMENTS = ["target=", "[bp<=", "]", "(", ")", ",", "=", "statics=[", "static_bp", "host", " ", "amount=", "-", "0"]


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    lines = text.splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["del_char", "set_char", "insert", "del_line", "dup_line", "move_line", "value"]))
        if op in ("del_char", "set_char", "insert"):
            joined = "".join(lines)
            at = draw(st.integers(0, max(len(joined) - 1, 0)))
            if op == "del_char":
                joined = joined[:at] + joined[at + 1 :]
            elif op == "insert":
                joined = joined[:at] + draw(st.sampled_from(FRAGMENTS)) + joined[at:]
            else:
                char = draw(st.characters(codec="utf-8") | st.sampled_from('"=[]{}(),.#\n 0123456789'))
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
    for effect in all_effects(cards):
        assert parse_effect(str(effect), static=effect.name in STATIC_EFFECT_PARAMS) == effect
    for deck_id in PACKAGED_DECKS:
        validate_deck(packaged_deck(deck_id), cards)


@settings(max_examples=200, deadline=None)
@given(text=mutated(CANONICAL_DECK))
def test_fuzzed_deck_file_loads_or_raises_card_data_error(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("fuzz") / "deck.toml"
    path.write_text(text, encoding="utf-8")
    try:
        deck = load_deck(path)
    except CardDataError:
        return
    validate_deck(deck, CARDS)
    assert len(deck.card_list()) == sum(deck.cards.values())
