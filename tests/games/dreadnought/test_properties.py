"""Property tests over random Dreadnought games (hypothesis-drawn seeds and choices, plus a seeded sweep).

At every step: every card instance is in exactly one place and no card changes identity or owner;
a game in progress offers at least two distinct legal actions and the mask agrees; the turn never
passes 100 (D21.3). On sampled steps: the position round-trips through JSON; illegal actions (ids,
texts, unknown words) raise IllegalActionError and change nothing; observations and event logs
show no hidden card (D1.2, D1.5), and worlds that differ only in cards hidden from a player look
the same to that player, with the same legal actions and the same canonical world; sampled worlds
keep everything the player knows. Replays are deterministic. Focused tests follow for the turn cap,
simultaneous and closed choices (D4.1, D4.6, D15.1), and positions random games produced that broke these.
"""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from cardlab.core import IllegalActionError, canonical_world, sample_world
from cardlab.core.game import PLAYER_NAMES
from cardlab.games.dreadnought import Dreadnought, DreadnoughtConfig, DreadnoughtState
from cardlab.games.dreadnought.actions import AREAS
from cardlab.games.dreadnought.cards import packaged_deck
from cardlab.games.dreadnought.state import DUMMY_SLOTS, EMPTY, IDOL_AREA, MAX_ENGRAVES, TURN_CAP

CONFIGS = (
    DreadnoughtConfig(),
    DreadnoughtConfig(decks=("tide_grove", "ember_spark")),
    DreadnoughtConfig(decks=("ember_spark", "ember_spark"), casters=(("X02", "X03"), None)),
    DreadnoughtConfig(decks=("tide_grove", "tide_grove"), casters=(None, ("X07", "X04"))),
)
GAMES = {config: Dreadnought(config) for config in CONFIGS}
SEATS = PLAYER_NAMES
GAMES_PER_CONFIG = 250
SPECIAL_TEXTS = ("PLAY NOPE", "", "NOPE", "TARGET P3:BA1.U1", "USE BA1.C 99", "PLAY", "DONE DONE", "place X01")
FAST = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True)


def expected_cards(config: DreadnoughtConfig) -> list[Counter[str]]:
    """Per seat: the two casters (override or the deck's) and the 50 deck cards."""
    result = []
    for deck_id, pair in zip(config.decks, config.casters, strict=True):
        deck = packaged_deck(deck_id)
        result.append(Counter(deck.card_list()) + Counter(pair or deck.casters))
    return result


EXPECTED = {config: expected_cards(config) for config in CONFIGS}


# ---- reading positions -------------------------------------------------------------------


def objects(seat: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """The units and the idol of one seat in a position (casters excluded)."""
    for area in AREAS:
        yield from seat[area]["units"]
    if seat["idol"] is not None:
        yield seat["idol"]


def seat_cards(position: dict[str, Any]) -> list[Counter[str]]:
    """Every card id of each owner, wherever it is (enchant materials count for the player who placed them)."""
    result = []
    for name in SEATS:
        seat = position["players"][name]
        cards = [c for zone in ("deck", "hand", "discard", "speed", "gear", "mulligan", "limbo") for c in seat[zone]]
        cards += seat["placement"] + [item["card"] for key in ("bursts", "engraves") for item in seat[key]]
        for area in AREAS:
            caster = seat[area]["caster"]
            if caster is not None:
                cards += [caster["card"]] + ([caster["arms"]] if caster["arms"] else [])
            cards += seat[area]["hp"]
        for obj in objects(seat):
            cards += [obj["card"], *obj["attached"]]
        result.append(Counter(cards))
    for name in SEATS:
        for obj in objects(position["players"][name]):
            for enchant in obj["enchants"]:
                result[SEATS.index(enchant["owner"])][enchant["card"]] += 1
    return result


def strings_in(data: Any) -> set[str]:
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def closed_ids(seat: dict[str, Any]) -> list[str]:
    """Cards nobody may identify (D1.2): the deck, the bursts, the HP stacks."""
    return seat["deck"] + [b["card"] for b in seat["bursts"]] + seat["BA1"]["hp"] + seat["BA2"]["hp"]


def hidden_ids(position: dict[str, Any], viewer: int | None) -> set[str]:
    """Card ids `viewer` (None: a spectator) must find nowhere in what they are shown: ids that are only in
    places hidden from them (closed zones, secret enchants; the other player's hand, gear, mulligan set-aside
    and dummies cast from hand) and in no place they can see."""
    secret: set[str] = set()
    seen: set[str] = set()
    for owner, name in enumerate(SEATS):
        seat = position["players"][name]
        dummies = [obj["card"] for obj in objects(seat) if obj["dummy"] and not obj["known"]]
        secret |= set(closed_ids(seat))
        (seen if owner == viewer else secret).update(seat["hand"] + seat["gear"] + seat["mulligan"] + dummies)
        seen |= set(seat["discard"] + seat["speed"] + seat["limbo"] + seat["known_hand"])
        seen |= {e["card"] for e in seat["engraves"]}
        for area in AREAS:
            caster = seat[area]["caster"]
            if caster is not None:
                seen |= {caster["card"], caster["arms"]} - {None}
        for obj in objects(seat):
            seen |= set(obj["attached"]) | ({obj["card"]} if not obj["dummy"] or obj["known"] else set())
            for enchant in obj["enchants"]:
                (secret if enchant["secret"] else seen).add(enchant["card"])
    return secret - seen


def never_seen_ids(position: dict[str, Any]) -> set[str]:
    """Card ids every copy of which (either player's) is in a closed zone or a secret enchant: no one has ever
    seen such a card (cards never return to those places once out), so no event may name it."""
    total: Counter[str] = sum(seat_cards(position), Counter())
    closed: Counter[str] = Counter()
    for name in SEATS:
        seat = position["players"][name]
        closed.update(closed_ids(seat))
        for obj in objects(seat):
            closed.update(e["card"] for e in obj["enchants"] if e["secret"])
    return {card for card, count in closed.items() if count == total[card]}


# ---- checks ------------------------------------------------------------------------------


@functools.cache
def owned(owner: tuple[int, ...]) -> tuple[frozenset[int], frozenset[int]]:
    return frozenset(i for i, o in enumerate(owner) if o == 0), frozenset(i for i, o in enumerate(owner) if o == 1)


def check_conservation(state: DreadnoughtState, config: DreadnoughtConfig, *, by_id: bool = True) -> None:
    """(a) Every instance in exactly one place, in its owner's zones; field bookkeeping consistent; with
    `by_id`, each player's card ids (read from the position) are still their decklist and casters."""
    mine = owned(state.owner)
    found: list[int] = []
    for zone, cards in state.card_zones().items():
        kind, seat = zone.split(":")[:2]
        if kind == "dummy":
            cards = [inst for inst in cards if inst != EMPTY]
        found += cards
        if kind == "ench":
            host = int(seat)
            assert state.on_field(host), f"enchants on {host}, which is not on the field"
            assert [state.owner[m] for m in cards] == state.ench_owner[host], "an enchant not owned by its placer"
            assert len({len(getattr(state, n)[host]) for n in ("ench_kind", "ench_owner", "ench_secret")}) == 1
        else:
            assert set(cards) <= mine[SEATS.index(seat)], f"a card in {zone} of the other player"
    field: list[int] = []
    for p in (0, 1):
        for area, caster in enumerate(state.casters[p]):
            if caster != EMPTY:
                assert state.area_of[caster] == area and state.is_caster(caster) and caster in mine[p]
                field.append(caster)
        for area in (0, 1):
            units = state.units[p][area]
            assert len(units) <= 2 and sum(state.weight(u) for u in units) <= 3, "D8.3 fit rule broken"
        for obj in state.units_of(p):
            assert obj in mine[p] and state.area_of[obj] != EMPTY
            field.append(obj)
            if state.is_dummy(obj):
                assert state.dummy_cards[p][obj - state.n_cards - DUMMY_SLOTS * p] != EMPTY, "a dummy without card"
            else:
                assert state.cards[obj].type in ("unit", "idol")
        idol = state.idol[p]
        assert idol == EMPTY or (state.area_of[idol] == IDOL_AREA and state.cards[idol].type == "idol")
        for slot, real in enumerate(state.dummy_cards[p]):
            assert real == EMPTY or state.on_field(state.n_cards + DUMMY_SLOTS * p + slot), "a dummy card, no token"
        assert len(state.bursts[p]) == len(state.burst_checked[p])
        assert len(state.engraves[p]) == len(state.engrave_checked[p])
        assert not Counter(state.known_hand[p]) - Counter(state.hand[p]), "known_hand is not part of the hand"
    found += [inst for inst in field if not state.is_dummy(inst)]
    for caster, arms in state.arms.items():
        assert caster in field and state.is_caster(caster) and state.cards[arms].type == "arms"
        found.append(arms)
    for host, codes in state.attached.items():
        assert host in field and all(state.cards[code].type == "code" for code in codes)
        found += codes
    assert {obj for obj, area in enumerate(state.area_of) if area != EMPTY} == set(field), "area_of is stale"
    if sorted(found) != list(range(state.n_cards)):
        counts = Counter(found)
        doubles = sorted(state.cards[i].id for i, n in counts.items() if n > 1)
        missing = sorted(state.cards[i].id for i in range(state.n_cards) if i not in counts)
        strays = set(counts) - mine[0] - mine[1]
        raise AssertionError(
            f"cards in two places: {doubles}; in no place: {missing}; not cards of this game: {strays}"
        )
    if by_id:
        assert seat_cards(state.position()) == EXPECTED[config], "a card changed identity or owner"


def check_decision(game: Dreadnought, state: DreadnoughtState) -> None:
    """D21: over exactly when no one is to move; otherwise >= 2 distinct legal actions and a matching mask."""
    legal = list(state.legal_actions())
    assert state.turn <= TURN_CAP, "D21.3: the game went past turn 100"
    if state.current_player() is None:
        assert legal == [] and state.outcome() is not None and state.is_terminal()
        return
    assert state.outcome() is None and not state.is_terminal()
    assert len(legal) >= 2, f"a single-option (or no-option) decision was offered: {[str(a) for a in legal]}"
    assert len({int(a) for a in legal}) == len(legal), "a legal action is listed twice"
    assert all(game.parse_action(str(a)) == a for a in legal)
    mask = state.legal_action_mask()
    assert len(mask) == game.num_actions == len(game.actions.space)
    assert mask.count(True) == len(legal) and all(mask[int(a)] for a in legal), "the mask disagrees"
    top = state.stack[-1][0]
    assert all(len(e) <= MAX_ENGRAVES for e in state.engraves) or top == "scrap", "D16.3: more than 3 engraves"


def check_round_trip(game: Dreadnought, state: DreadnoughtState) -> None:
    position = state.position()
    reloaded = game.load_position(json.loads(json.dumps(position)))
    assert reloaded.position() == position
    assert [str(a) for a in reloaded.legal_actions()] == [str(a) for a in state.legal_actions()]
    assert reloaded.current_player() == state.current_player()
    for viewer in (0, 1, None):
        assert reloaded.observation(viewer) == state.observation(viewer)


def check_illegal(game: Dreadnought, state: DreadnoughtState, rng: random.Random) -> None:
    """Anything but a legal action raises IllegalActionError naming it and the legal set; nothing changes."""
    legal = [str(a) for a in state.legal_actions()]
    before = state.position()
    ids = {int(a) for a in state.legal_actions()}
    others = [game.actions.space[i] for i in rng.sample(range(game.num_actions), 12) if i not in ids][:4]
    attempts: list[Any] = [*others, *(str(a) for a in others[:2]), rng.choice(SPECIAL_TEXTS), -1, game.num_actions]
    for action in attempts:
        with pytest.raises(IllegalActionError) as info:
            state.apply(action)
        error = info.value
        assert repr(str(action)) in str(error), "the error does not name the action"
        assert [str(a) for a in error.legal] == legal
        assert all(text in str(error) for text in legal), "the error does not list the legal actions"
        assert state.position() == before
        assert [str(a) for a in state.legal_actions()] == legal


def redeal(position: dict[str, Any], viewer: int | None, rng: random.Random) -> dict[str, Any] | None:
    """A copy of `position` in which the cards hidden from `viewer` (D1.2, D1.5, R-D5, R-D9, R-D11) are re-dealt
    among their places, each owner's pool apart: closed zones and secret enchants; for the other player also
    the hand (less the cards `viewer` saw go there), the gear, the mulligan set-aside, the real cards of
    dummies cast from hand and an unopened caster placement. None if a pending step names a hand card."""
    position = json.loads(json.dumps(position))
    refs = json.dumps([position["stack"], position["triggers"], position["attack"]])
    for owner, name in enumerate(SEATS):
        seat = position["players"][name]
        places: list[tuple[Any, Any]] = [(seat["deck"], i) for i in range(len(seat["deck"]))]
        places += [(burst, "card") for burst in seat["bursts"]]
        places += [(seat[area]["hp"], i) for area in AREAS for i in range(len(seat[area]["hp"]))]
        for other in SEATS:
            for obj in objects(position["players"][other]):
                places += [(e, "card") for e in obj["enchants"] if e["secret"] and e["owner"] == name]
        if owner != viewer:
            if f"{name}:hand:" in refs:
                return None
            known = list(seat["known_hand"])
            for i, card in enumerate(seat["hand"]):
                if card in known:
                    known.remove(card)
                else:
                    places.append((seat["hand"], i))
            places += [(seat[zone], i) for zone in ("gear", "mulligan") for i in range(len(seat[zone]))]
            places += [(obj, "card") for obj in objects(seat) if obj["dummy"] and not obj["known"]]
            if seat["BA1"]["caster"] is None:
                rng.shuffle(seat["placement"])
        cards = [where[key] for where, key in places]
        rng.shuffle(cards)
        for (where, key), card in zip(places, cards, strict=True):
            where[key] = card
    return position


def twin(game: Dreadnought, state: DreadnoughtState, viewer: int | None, rng: random.Random):
    """A loaded state `viewer` cannot tell from `state` (see `redeal`); None when the re-deal leaves the player
    to move without a real choice, so that loading moved on (not a twin then)."""
    position = redeal(state.position(), viewer, rng)
    if position is None:
        return None
    loaded = game.load_position(position)
    return loaded if loaded.position() == position else None


def check_knowledge(game: Dreadnought, state: DreadnoughtState, rng: random.Random) -> None:
    """(c) no hidden card in observations or event logs; twins look the same; (f) sampled worlds; (i) canonical."""
    position = state.position()
    never_seen = never_seen_ids(position)
    reloaded = game.load_position(json.loads(json.dumps(position)))
    for viewer in (0, 1, None):
        observation = state.observation(viewer)
        shown = strings_in(observation)
        assert not hidden_ids(position, viewer) & shown, f"{viewer}'s observation shows a hidden card"
        assert not never_seen & shown
        if state.events is not None:
            assert not never_seen & strings_in(state.events.for_player(viewer)), "the event log names a closed card"
        other = twin(game, state, viewer, rng)
        if other is None:
            continue
        assert other.observation(viewer) == observation, f"{viewer} can tell hidden cards apart"
        if viewer is None:
            continue
        if state.current_player() == viewer:
            assert [str(a) for a in other.legal_actions()] == [str(a) for a in state.legal_actions()]
        assert other.infoset(viewer).observation == observation
        canonical = canonical_world(reloaded, viewer).position()
        assert canonical_world(other, viewer).position() == canonical, "the canonical world shows the arrangement"
    for p in (0, 1):
        observation = state.observation(p)
        infoset = state.infoset(p)
        assert infoset.observation == observation
        mine = [str(a) for a in state.legal_actions()] if state.current_player() == p else []
        assert [str(a) for a in infoset.legal_actions] == mine
        for world in (sample_world(state, p, rng), infoset.sample_world(rng), canonical_world(state, p)):
            assert world.observation(p) == observation, "a sampled world changed what the player knows"
            assert world.current_player() == state.current_player()
            if mine:
                assert [str(a) for a in world.legal_actions()] == mine
            check_conservation(world, state.game.config)
            check_decision(game, world)
            check_round_trip(game, world)
            if world.legal_actions():
                world.clone().apply(world.legal_actions()[0])


# ---- playing -----------------------------------------------------------------------------


def play(
    config: DreadnoughtConfig,
    seed: int,
    choices: Sequence[int] = (),
    *,
    every: Callable[[DreadnoughtState, int], None] | None = None,
    record_events: bool = False,
    max_steps: int | None = None,
) -> tuple[list[str], DreadnoughtState]:
    """Play from `seed`: the i-th choice is choices[i] (modulo the legal count), later ones from a seeded RNG;
    some actions are given as text. `every(state, step)` runs before each step. Returns the actions as text."""
    game = GAMES[config]
    state = game.new_state(seed, record_events=record_events)
    rng = random.Random(seed * 7919 + 1)
    actions: list[str] = []
    step = 0
    while True:
        if every is not None:
            every(state, step)
        if state.current_player() is None or (max_steps is not None and step >= max_steps):
            return actions, state
        legal = state.legal_actions()
        index = choices[step] % len(legal) if step < len(choices) else rng.randrange(len(legal))
        action = legal[index]
        state.apply(str(action) if rng.random() < 0.25 else action)
        actions.append(str(action))
        step += 1


def replay(config: DreadnoughtConfig, seed: int, actions: list[str]) -> DreadnoughtState:
    state = Dreadnought(config).new_state(seed, record_events=False)
    for action in actions:
        state.apply(action)
    return state


def check_outcome(state: DreadnoughtState) -> str:
    """D21.1/D21.3: a finished game ended on HP (the loser's casters both at 0) or at the turn cap as a draw."""
    outcome = state.outcome()
    assert outcome is not None
    position = state.position()
    out = [not any(position["players"][seat][area]["hp"] for area in AREAS) for seat in SEATS]
    if outcome.reason == "hp":
        if outcome.winner is None:
            assert out == [True, True]
        else:
            assert out[1 - outcome.winner] and not out[outcome.winner]
    else:
        assert outcome.reason == "turn_limit" and outcome.winner is None and state.turn == TURN_CAP
        assert out == [False, False]
    return outcome.reason


configs = st.sampled_from(CONFIGS)
seeds = st.integers(0, 2**32 - 1)
choice_lists = st.lists(st.integers(0, 255), max_size=40)


# ---- tests -------------------------------------------------------------------------------


@settings(FAST, max_examples=50)
@given(config=configs, seed=seeds, choices=choice_lists, deep=st.integers(20, 50), offset=st.integers(0, 19))
def test_random_games_keep_every_invariant(config, seed, choices, deep, offset):
    """Every step: conservation and decision shape with the mask; every 7th step: round trip and illegal actions;
    every `deep`-th step and at the end: hidden information, twins, sampled and canonical worlds."""
    game = GAMES[config]
    rng = random.Random(seed)
    note(f"config={config!r} seed={seed} choices={choices}")

    def every(state: DreadnoughtState, step: int) -> None:
        check_conservation(state, config, by_id=step % 4 == 0)
        check_decision(game, state)
        if step % 7 == 0 or state.is_terminal():
            check_round_trip(game, state)
            check_illegal(game, state, rng)
        if step % deep == offset or state.is_terminal():
            check_knowledge(game, state, rng)

    actions, final = play(config, seed, choices, every=every, record_events=True)
    note(f"actions={actions}")
    check_outcome(final)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(c.decks) + ("-casters" if any(c.casters) else ""))
def test_seeded_sweep_conserves_cards_and_terminates(config):
    """Many seeded games: a real choice (or the end) at every step; conservation and the mask on every third
    step (each game its own third); at the end, conservation by card id, round trip and a D21 ending."""
    game = GAMES[config]
    reasons: Counter[str] = Counter()
    winners: Counter[int | None] = Counter()
    for seed in range(GAMES_PER_CONFIG):

        def every(state: DreadnoughtState, step: int, seed: int = seed) -> None:
            assert state.turn <= TURN_CAP and (state.is_terminal() or len(state.legal_actions()) >= 2)
            if (step + seed) % 3 == 0:
                check_conservation(state, config, by_id=False)
                check_decision(game, state)

        _, final = play(config, seed, every=every)
        check_conservation(final, config)
        check_round_trip(game, final)
        reasons[check_outcome(final)] += 1
        winners[final.outcome().winner] += 1
    assert reasons["hp"] == GAMES_PER_CONFIG
    assert winners[0] > 0 and winners[1] > 0


@settings(FAST, max_examples=40)
@given(config=configs, seed=seeds, choices=choice_lists, stop=st.integers(0, 250), turn=st.sampled_from([99, 100]))
def test_turn_cap_ends_the_game_as_a_draw(config, seed, choices, stop, turn):
    """D21.3: a position moved to turn 99 or 100 ends by turn 100 at the latest, as a draw unless HP decided it."""
    game = GAMES[config]
    _, state = play(config, seed, choices, max_steps=stop)
    position = state.position()
    if position["phase"] in ("setup", "over"):
        return
    position["turn"] = turn
    state = game.load_position(position)
    rng = random.Random(seed)
    while state.current_player() is not None:
        check_decision(game, state)
        state.apply(rng.choice(state.legal_actions()))
    check_conservation(state, config)
    assert state.turn <= TURN_CAP
    if check_outcome(state) == "turn_limit":
        assert state.outcome().returns() == (0.0, 0.0) and state.position()["draw"] is True


@settings(FAST, max_examples=40)
@given(config=configs, seed=seeds, choices=choice_lists)
def test_same_seed_same_actions_same_game(config, seed, choices):
    """Determinism: same seed and choices give the same game; replaying the texts on a fresh Game too."""
    actions, final = play(config, seed, choices)
    again, final_again = play(config, seed, choices)
    assert again == actions and final_again.position() == final.position()
    assert replay(config, seed, actions).position() == final.position()


@settings(FAST, max_examples=30)
@given(config=configs, seed=seeds, choices=choice_lists, stop=st.integers(0, 300))
def test_illegal_actions_are_rejected_and_change_nothing(config, seed, choices, stop):
    """Every action id outside the legal set, its text, and unknown texts raise and leave the state as it was."""
    game = GAMES[config]
    _, state = play(config, seed, choices, max_steps=stop)
    legal = {int(a) for a in state.legal_actions()}
    before = state.position()
    for action in game.actions.space:
        if int(action) in legal:
            continue
        with pytest.raises(IllegalActionError):
            state.apply(action if int(action) % 2 else str(action))
    for text in SPECIAL_TEXTS:
        with pytest.raises(IllegalActionError) as info:
            state.apply(text)
        assert repr(text) in str(info.value)
    assert state.position() == before
    check_round_trip(game, state)


def test_finished_game_rejects_everything():
    config = CONFIGS[0]
    _, final = play(config, 5)
    before = final.position()
    for action in (GAMES[config].actions.space[0], "DONE", "PLAY NOPE"):
        with pytest.raises(IllegalActionError, match="none \\(the game is over\\)"):
            final.apply(action)
    assert final.position() == before


def test_sampled_worlds_redeal_what_the_player_cannot_know():
    """sample_world varies the opponent's hand and the player's own deck order; never the player's hand."""
    found: list[DreadnoughtState] = []

    def every(state: DreadnoughtState, step: int) -> None:
        hands = [{state.cards[i].id for i in hand} for hand in state.hand]
        if not found and state.turn >= 2 and min(map(len, hands)) >= 3 and min(map(len, state.deck)) >= 8:
            found.append(state.clone())

    play(CONFIGS[0], 3, every=every)
    state = found[0]
    position = state.position()
    for p, name in enumerate(SEATS):
        other = SEATS[1 - p]
        worlds = [sample_world(state, p, random.Random(i)).position()["players"] for i in range(12)]
        assert all(w[name]["hand"] == position["players"][name]["hand"] for w in worlds)
        assert len({tuple(w[name]["deck"]) for w in worlds}) > 1, "own deck order never varies"
        assert len({tuple(w[other]["hand"]) for w in worlds}) > 1, "the opponent's hand never varies"


def test_canonical_world_ignores_where_unknown_cards_sit_around_a_known_one():
    """(i) P2's hand holds a known N02 (R-D6) and two unknown cards, one of them another N02; which slot holds
    which is hidden from P1, so P1's canonical world must not depend on it (nor may P1's observation)."""
    from .dreadnought_positions import make_position

    worlds, views = [], []
    for hand in (["N02", "B01", "N02"], ["B01", "N02", "N02"]):
        state = GAMES[CONFIGS[0]].load_position(make_position(p2={"hand": hand, "known_hand": ["N02"]}))
        views.append(state.observation(0))
        worlds.append(canonical_world(state, 0).position())
        assert state.infoset(0).canonical_world.position() == worlds[-1]
    assert views[0] == views[1]
    assert worlds[0] == worlds[1], "the canonical world shows where the unknown cards sit in the hand"


def test_clone_is_independent():
    config = CONFIGS[1]
    _, state = play(config, 11, max_steps=40)
    before = state.position()
    copy = state.clone()
    rng = random.Random(1)
    while copy.current_player() is not None:
        copy.apply(rng.choice(copy.legal_actions()))
    assert state.position() == before


# ---- simultaneous and closed choices (D4.1, D4.6, D15.1) ------------------------------------


def test_d4_1_placement_is_secret_until_both_casters_open():
    """D4.1: P2 places casters without learning P1's placement: P2 sees the same either way."""
    game = GAMES[CONFIGS[0]]
    views = []
    for choice in ("PLACE X01", "PLACE X03"):
        state = game.new_state(4)
        assert state.current_player() == 0 and choice in [str(a) for a in state.legal_actions()]
        state.apply(choice)
        assert state.current_player() == 1
        views.append((state.observation(1), [str(a) for a in state.legal_actions()], state.events.for_player(1)))
    assert views[0] == views[1]


def test_d4_6_mulligan_choices_are_secret_and_simultaneous():
    """D4.6: both players choose their mulligan secretly and simultaneously, so P2's view while choosing does
    not depend on how many cards P1 set aside."""
    game = GAMES[CONFIGS[0]]
    views = []
    for mulls in (0, 2):
        state = game.new_state(8)
        while state.stack[-1][0] == "place":
            state.apply(state.legal_actions()[0])
        assert state.stack[-1][:2] == ("mull", 0)
        for _ in range(mulls):
            state.apply(state.legal_actions()[0])  # MULL <first card id>
        state.apply("KEEP")
        assert state.stack[-1][:2] == ("mull", 1)
        views.append(state.observation(1))
    assert views[0] == views[1], "P2 sees how many cards P1 set aside before choosing"


def test_d15_1_a_dummy_from_hand_stays_closed_and_one_from_the_speed_area_stays_known():
    """D1.5, D15.1, R-D11: the opponent never sees (observation or event log) the card of a dummy cast from hand;
    a dummy cast from the open speed area stays known to both."""
    game = GAMES[CONFIGS[0]]
    checked: set[bool] = set()
    for seed in range(60):
        state = game.new_state(seed)
        rng = random.Random(seed)
        while state.current_player() is not None and len(checked) < 2:
            player = state.current_player()
            dummies = [a for a in state.legal_actions() if str(a).startswith("DUMMY ")]
            action = rng.choice(dummies) if dummies and rng.random() < 0.5 else rng.choice(state.legal_actions())
            logged = len(state.events)
            state.apply(action)
            if action not in dummies:
                continue
            _, card, area = str(action).split()
            from_speed = card.endswith("@S")
            card = card.removesuffix("@S")
            position = state.position()
            new = position["players"][SEATS[player]][area]["units"][-1]
            assert new["dummy"] and new["card"] == card and new["known"] == from_speed
            seen = state.observation(1 - player)["players"][SEATS[player]][area]["units"][-1]
            assert seen["dummy"] and seen["card"] == (card if from_speed else None)
            if not from_speed and card in hidden_ids(position, 1 - player):  # no other copy in sight
                assert card not in strings_in(state.observation(1 - player))
                assert card not in strings_in(state.events.for_player(1 - player, logged))
                assert card in strings_in(state.events.for_player(player, logged))
            checked.add(from_speed)
    assert checked == {False, True}


# ---- positions met in random games that broke (d) -----------------------------------------------


def test_d_round_trip_keeps_an_attack_whose_attackers_all_left():
    """D10.7: an attack whose attacking units were all broken by a reaction is still under way (its window is
    open, `own_attack` reactions stay playable, no damage will be dealt); the position must keep it."""
    from .dreadnought_positions import make_position

    game = GAMES[CONFIGS[0]]
    p1 = {"ba1": ["Y01"], "bursts": 2, "hand": ["R07"]}
    p2 = {"hand": ["G07"], "engraves": 1, "bursts": 2, "ba1": ["G02"]}
    state = game.load_position(make_position(phase="action", first="P1", p1=p1, p2=p2))
    for action in ("ATTACKER BA1.U1", "ATTACK BA1", "BLOCK BA1.U1", "PLAY G07", "PAY BURST"):
        state.apply(action)  # G07 (70 damage) breaks the only attacker, Y01 (BP 70)
    assert state.stack[-1] == ("react", 0, 0) and "PLAY R07" in [str(a) for a in state.legal_actions()]
    attack = state.position()["attack"]
    assert attack["player"] == "P1" and attack["attackers"] == []  # the attack goes on without attackers
    check_round_trip(game, state)


def test_d_position_names_a_play_whose_dummy_target_left_the_field():
    """An ACTION code aimed at a dummy waits for its reaction window; a reaction breaks the dummy first. The
    state must still dump its position and observations (the target is gone: D5.3, the effect does nothing)."""
    from .dreadnought_positions import dummy, make_position

    game = GAMES[CONFIGS[0]]
    p1 = {"hand": ["G07", "G07"], "engraves": 2, "bursts": 4}
    state = game.load_position(make_position(phase="action", first="P1", p1=p1, p2={"ba1": [dummy("N01")]}))
    for action in ("PLAY G07", "PAY BURST", "PASS", "PLAY G07", "PAY BURST"):
        state.apply(action)  # P2 passes the reaction right; P1's reaction G07 breaks the dummy at once
    assert state.current_player() == 0 and [str(a) for a in state.legal_actions()] == ["GODDRAW", "PASS"]
    for viewer in (0, 1, None):
        state.observation(viewer)
    check_round_trip(game, state)
