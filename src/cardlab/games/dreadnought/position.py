"""Position JSON and per-player observations for Dreadnought (schema: docs/dreadnought-position.md).

Cards are written by card id, field objects by slot. Whatever refers to one card or object
(a half-done play, the attack, queued triggers) names its place: `P1:BA1.U2` for a field object,
`P2:limbo:0` or `P1:discard:3` for a card in a zone. Loading numbers each player's cards casters
first, then by card id, so that the numbering cannot encode where hidden cards lie.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardlab.core.errors import PositionError
from cardlab.core.game import PLAYER_NAMES, Player, parse_player
from cardlab.games.dreadnought.actions import AREAS, DESTINATIONS, SLOTS
from cardlab.games.dreadnought.cards import CardDef, Selector
from cardlab.games.dreadnought.state import (
    ACTION_TURN_CAP,
    BA1,
    BA2,
    BOOST,
    DUMMY_SLOTS,
    EMPTY,
    ENGRAVE,
    IDOL_AREA,
    PHASES,
    POSITION_KEYS,
    TIE_REVEALS,
    WEAKEN,
    DreadnoughtState,
    Play,
)

_KEYS = frozenset(POSITION_KEYS)
_PLAYER_KEYS = {"deck", "hand", "known_hand", "discard", "speed", "gear", "mulligan", "limbo", "placement", "bursts",
                "engraves", "BA1", "BA2", "idol", "speed_shift", "geared"}  # fmt: skip
_OBJECT_KEYS = {"card", "dummy", "known", "checked", "enchants", "attached", "arms", "bp_mod", "shield", "moved"}
_CASTER_KEYS = {"card", "checked", "arms", "shield"}
_NON_CASTERS = ("unit", "idol", "code", "arms")
_PLAY_KINDS = ("code", "arms", "ability", "sub", "trigger", "unit", "idol", "upkeep")
_CARD_ZONES = ("deck", "hand", "discard", "speed", "gear", "mulligan", "limbo")
_ZONE_ATTR = {"mulligan": "mull"}

FRAME_ARGS: dict[str, str] = {
    # automatic steps
    "setup": "", "mull_done": "", "turn": "", "speed_phase": "", "reveals": "", "speed_windows": "", "decide": "",
    "compare": "i", "draw_phase": "", "draw_bursts": "", "draw1": "p", "cast_phase": "", "upkeep": "p",
    "fast_phase": "", "action_phase": "", "end_phase": "", "hand_limit": "p", "cleanup": "", "settle": "",
    "next_trigger": "", "targets": "P", "pay": "P", "pay_log": "P", "paid": "P", "resolve": "P", "finish": "P",
    "effect": "Pi", "material": "poii", "block_step": "", "attack_damage": "",
    # decisions (the first argument is the player to decide)
    "place": "p", "mull": "p", "win": "ps", "dest": "pP", "move_to": "po", "upkeep_idol": "po", "target": "pP",
    "pay_discard": "pP", "pay_src": "pP", "aturn": "pii", "abuild": "pO", "block": "p", "react": "pi",
    "pick": "poi", "scrap": "p", "order": "p", "hpdraw": "p", "hpdeck": "p", "limit": "p",
}  # fmt: skip
"""Argument kinds per frame: p player, i integer, s word, o object, O list of objects, P a play."""
_WINDOWS = ("speed", "cast", "fast")


# ---- references to cards and objects ----------------------------------------------------


def _where(state: DreadnoughtState, inst: int) -> str:
    """The place of a card or object, as positions write it."""
    if inst == EMPTY:
        raise ValueError("no object")
    seat = PLAYER_NAMES[state.owner[inst]]
    if state.area_of[inst] != EMPTY:
        return f"{seat}:{SLOTS[state.slot_of(inst)]}"
    for zone in ("limbo", "speed", "discard", "hand"):
        cards = getattr(state, zone)[state.owner[inst]]
        if inst in cards:
            return f"{seat}:{zone}:{cards.index(inst)}"
    raise ValueError(f"card {state.cards[inst].id} is in no place a position can name")


def _ref(state: DreadnoughtState, inst: int) -> str | None:
    """The place of a card or object; None if it has none a position can name (a dummy gone from
    the field): nothing can refer to such an object any more, so forgetting it changes nothing."""
    if inst == EMPTY:
        return None
    try:
        return _where(state, inst)
    except ValueError:
        return None


def _resolve(state: DreadnoughtState, text: Any, field: str) -> int:
    if text is None:
        return EMPTY
    if not isinstance(text, str) or ":" not in text:
        raise PositionError(field, f"expected a place such as 'P1:BA1.U1' or 'P2:limbo:0', got {text!r}")
    seat, _, rest = text.partition(":")
    try:
        player = parse_player(seat)
    except ValueError as error:
        raise PositionError(field, str(error)) from None
    if rest in SLOTS:
        obj = state.object_at(player, SLOTS.index(rest))
        if obj == EMPTY:
            raise PositionError(field, f"{text}: that slot is empty")
        return obj
    zone, _, index = rest.partition(":")
    if zone not in ("limbo", "speed", "discard", "hand") or not index.isdigit():
        raise PositionError(field, f"{text}: expected a slot ({', '.join(SLOTS)}) or limbo/speed/discard/hand:<index>")
    cards = getattr(state, zone)[player]
    if int(index) >= len(cards):
        raise PositionError(field, f"{text}: the {zone} has {len(cards)} cards")
    return cards[int(index)]


def _play_json(state: DreadnoughtState, play: Play) -> dict[str, Any]:
    return {
        "kind": play.kind,
        "player": PLAYER_NAMES[play.player],
        "card": _ref(state, play.card),
        "source": _ref(state, play.source),
        "ref": play.ref,
        "targets": [_ref(state, t) for t in play.targets],
        "log": play.log,
        "discard": play.discard,
        "action": play.action,
        "dest": None if play.dest == EMPTY else ("BA1", "BA2", "IDOL")[play.dest],
    }


def _frame_json(state: DreadnoughtState, frame: tuple[Any, ...]) -> list[Any]:
    out: list[Any] = [frame[0]]
    for kind, value in zip(FRAME_ARGS[frame[0]], frame[1:], strict=True):
        if kind == "p":
            out.append(PLAYER_NAMES[value])
        elif kind == "o":
            out.append(_ref(state, value))
        elif kind == "O":
            out.append([_ref(state, v) for v in value])
        elif kind == "P":
            out.append(_play_json(state, value))
        else:
            out.append(value)
    return out


# ---- dumping ------------------------------------------------------------------------------


def _ids(state: DreadnoughtState, cards: list[int]) -> list[str]:
    return [state.cards[inst].id for inst in cards]


def _object(state: DreadnoughtState, obj: int, viewer: Player | None, full: bool, lean: bool) -> dict[str, Any] | None:
    if obj == EMPTY:
        return None
    owner = state.owner[obj]
    dummy = state.is_dummy(obj)
    known = False
    if dummy:
        slot = obj - state.n_cards - DUMMY_SLOTS * owner
        real = state.dummy_cards[owner][slot]
        known = state.dummy_known[owner][slot]
        card = state.cards[real].id if full or known or viewer == owner else None
    else:
        card = state.cards[obj].id
    caster = state.is_caster(obj)
    if lean:  # what a rollout policy reads of an object: `dump_observation(lean=True)`
        data: dict[str, Any] = {"card": card, "checked": state.checked[obj]}
        if not caster:
            data["dummy"] = dummy
    else:
        data = _object_detail(state, obj, full, card, dummy)
    if dummy:
        data["known"] = known
    if caster:
        arms = state.arms.get(obj, EMPTY)
        data["arms"] = None if arms == EMPTY else state.cards[arms].id
    elif not full and not lean:  # derived values for people and agents; not part of a position
        data["bp"] = state.bp(obj)
        data["shields"] = state.shields(obj)
    return data


def _object_detail(state: DreadnoughtState, obj: int, full: bool, card: str | None, dummy: bool) -> dict[str, Any]:
    """An object's card, state and (but for a caster) what lies on it."""
    if state.is_caster(obj):
        return {"card": card, "checked": state.checked[obj], "shield": state.shield.get(obj, 0)}
    enchants = []
    for i, material in enumerate(state.ench.get(obj, ())):
        secret = state.ench_secret[obj][i]
        enchant: dict[str, Any] = {
            "kind": "boost" if state.ench_kind[obj][i] == BOOST else "weaken",
            "owner": PLAYER_NAMES[state.ench_owner[obj][i]],
            "card": state.cards[material].id if full or not secret else None,
        }
        if full:
            enchant["secret"] = secret
        enchants.append(enchant)
    return {
        "card": card,
        "dummy": dummy,
        "checked": state.checked[obj],
        "enchants": enchants,
        "attached": _ids(state, state.attached.get(obj, [])),
        "bp_mod": state.bp_mod.get(obj, 0),
        "shield": state.shield.get(obj, 0),
        "moved": obj in state.moved,
    }


def _player(state: DreadnoughtState, p: Player, viewer: Player | None, full: bool, lean: bool) -> dict[str, Any]:
    mine = full or viewer == p
    data: dict[str, Any] = {}
    for zone in _CARD_ZONES:
        cards = getattr(state, _ZONE_ATTR.get(zone, zone))[p]
        public = zone in ("discard", "speed", "limbo") or (zone in ("hand", "gear", "mulligan") and mine)
        data[zone] = _ids(state, cards) if public or full else len(cards)
    if not full and viewer is not None and viewer == p:
        data["deck"] = len(state.deck[p])
    if not full and not mine:  # R-D9: an unrevealed mulligan is not even a count to the others
        data["hand"] += data["mulligan"]
        data["mulligan"] = 0
    data["known_hand"] = _ids(state, state.known_hand[p])
    placement_public = full or mine or state.casters[p][0] != EMPTY
    data["placement"] = _ids(state, state.placed[p]) if placement_public else len(state.placed[p])
    data["bursts"] = [
        {"card": state.cards[c].id, "checked": k} if full else {"checked": k}
        for c, k in zip(state.bursts[p], state.burst_checked[p], strict=True)
    ]
    data["engraves"] = [
        {"card": state.cards[c].id, "checked": k}
        for c, k in zip(state.engraves[p], state.engrave_checked[p], strict=True)
    ]
    for area, name in enumerate(AREAS):
        caster = state.casters[p][area]
        hp = state.hp[p][area]
        data[name] = {
            "caster": _object(state, caster, viewer, full, lean),
            "hp": _ids(state, hp) if full else len(hp),
            "units": [_object(state, u, viewer, full, lean) for u in state.units[p][area]],
        }
    data["idol"] = _object(state, state.idol[p], viewer, full, lean)
    data["speed_shift"] = state.speed_shift[p]
    data["geared"] = state.geared[p]
    if not full:
        data["speed_grade"] = state.current_speed(p)
    return data


def _dump(state: DreadnoughtState, viewer: Player | None, full: bool, lean: bool = False) -> dict[str, Any]:
    """The position (`full`) or an observation; `lean` leaves out what `dump_observation(lean=True)` says."""
    attack = None
    if state.attacking:
        attack = {
            "player": PLAYER_NAMES[state.attack_player],
            "attackers": [_ref(state, a) for a in state.attackers],
            "area": AREAS[state.attack_area],
            "blocker": _ref(state, state.blocker) if state.on_field(state.blocker) else None,
            "mod": state.attack_mod,
        }
    data: dict[str, Any] = {"game": "dreadnought"}
    if not lean:
        data["config"] = state.game.config_json()
    data["turn"] = state.turn
    data["phase"] = state.phase
    data["first"] = None if state.first == EMPTY else PLAYER_NAMES[state.first]
    data["token"] = PLAYER_NAMES[state.token]
    data["players"] = {PLAYER_NAMES[p]: _player(state, p, viewer, full, lean) for p in (0, 1)}
    data["attack"] = attack
    if not lean:
        data["triggers"] = [
            {"player": PLAYER_NAMES[c], "source": _where(state, src), "ability": ref} for c, src, ref in state.triggers
        ]
    data["cost_reduction"] = state.cost_reduction
    if not lean:
        data["stack"] = [_frame_json(state, frame) for frame in state.stack]
    data["winner"] = None if state.winner is None else PLAYER_NAMES[state.winner]
    data["draw"] = state.draw
    data["reason"] = state.reason
    return data


def window_name(state: DreadnoughtState) -> str:
    """The decision now pending, for people and clients: a frame kind, or the phase of a sequential window."""
    if state.phase == "over" or not state.stack:
        return "over"
    frame = state.stack[-1]
    return f"{frame[2]}_window" if frame[0] == "win" else str(frame[0])


def dump_position(state: DreadnoughtState) -> dict[str, Any]:
    """The whole state, hidden cards included (for saves, scenarios and tests)."""
    return _dump(state, None, True)


DECISION_DATA: dict[str, tuple[str, ...]] = {
    "place": (), "mull": (), "win": ("phase",), "dest": ("play",), "move_to": ("object",), "upkeep_idol": ("object",),
    "target": ("play",), "pay_discard": ("play",), "pay_src": ("play",), "aturn": ("passes", "count"),
    "abuild": ("attackers",), "block": (), "react": ("passes",), "pick": ("host", "material"), "scrap": (),
    "order": (), "hpdraw": (), "hpdeck": (), "limit": (),
}  # fmt: skip
"""The names of a decision frame's data after its player, as observations' `decision` shows them."""
_MATERIALS = {BOOST: "boost", WEAKEN: "weaken", ENGRAVE: "engrave"}


def decision_json(state: DreadnoughtState) -> dict[str, Any] | None:
    """The decision now pending, by name (see `DreadnoughtState.observation`); None once the game is over."""
    if state.phase == "over" or not state.stack:
        return None
    frame = _frame_json(state, state.stack[-1])
    data: dict[str, Any] = {"kind": frame[0], "player": frame[1]}
    data.update(zip(DECISION_DATA[frame[0]], frame[2:], strict=True))
    if frame[0] == "pick":
        data["material"] = _MATERIALS[data["material"]]
    return data


def pending_action(state: DreadnoughtState) -> Play | None:
    """The `ACTION` item whose reaction window is open or still to come: it resolves once the window closes
    (D10.4). At most one is pending, since only reactions can be played while it waits."""
    for frame in reversed(state.stack):
        if frame[0] == "resolve" and frame[1].action:
            play: Play = frame[1]
            return play
    return None


def dump_observation(state: DreadnoughtState, viewer: Player | None, *, lean: bool = False) -> dict[str, Any]:
    """What `viewer` may see (None: a spectator): hidden zones become counts (D1.5); the fields it adds to
    the position's are listed in `DreadnoughtState.observation`.

    `lean`: the same observation less what a rollout policy recomputes or never reads, for the heuristic, which
    reads one at every step of every search rollout: `config`, `triggers` and the raw `stack` are left out, and
    a field object keeps only `card`, `checked`, `dummy` (not a caster's), `known` (a dummy's) and `arms` (a
    caster's). A subset of the full observation, so it shows no more."""
    data = _dump(state, viewer, False, lean)
    data["viewer"] = None if viewer is None else PLAYER_NAMES[viewer]
    data["window"] = window_name(state)
    to_move = state.current_player()
    data["to_move"] = None if to_move is None else PLAYER_NAMES[to_move]
    data["decision"] = decision_json(state)
    play = pending_action(state)
    data["pending_action"] = None if play is None else _play_json(state, play)
    return data


# ---- loading ------------------------------------------------------------------------------


def _int(value: Any, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise PositionError(field, f"expected an integer, got {value!r}")
    return value


def _typed(game: Any, card_id: str, types: tuple[str, ...], field: str) -> str:
    """`card_id` (already known to exist) if its card is of one of `types`."""
    kind = game.card_set[card_id].type
    if kind not in types:
        raise PositionError(field, f"{card_id} is a {kind}, expected {' or '.join(types)}")
    return card_id


def _list(data: Mapping[str, Any], key: str, field: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise PositionError(f"{field}.{key}", "expected a list")
    return value


def _card_ids(game: Any, value: Any, field: str) -> list[str]:
    if not isinstance(value, list):
        raise PositionError(field, "expected a list of card ids")
    for i, card_id in enumerate(value):
        if not isinstance(card_id, str) or card_id not in game.card_set:
            raise PositionError(f"{field}[{i}]", f"unknown card id {card_id!r}")
    return value


def _seat_cards(
    game: Any, seat: Mapping[str, Any], field: str, enchants: list[tuple[int, str]]
) -> tuple[list[str], list[str]]:
    """(casters, other cards) of one player, every id checked; enchant materials go to `enchants` (by placer)."""
    casters: list[str] = []
    others: list[str] = []
    for zone in _CARD_ZONES:
        ids = _card_ids(game, seat.get(zone, []), f"{field}.{zone}")
        others += [_typed(game, c, _NON_CASTERS, f"{field}.{zone}[{i}]") for i, c in enumerate(ids)]
    _card_ids(game, seat.get("known_hand", []), f"{field}.known_hand")  # a subset of the hand, checked on fill
    placement = _card_ids(game, seat.get("placement", []), f"{field}.placement")
    casters += [_typed(game, c, ("caster",), f"{field}.placement[{i}]") for i, c in enumerate(placement)]
    for key in ("bursts", "engraves"):
        for i, item in enumerate(_list(seat, key, field)):
            if not isinstance(item, Mapping) or set(item) != {"card", "checked"}:
                raise PositionError(f"{field}.{key}[{i}]", 'expected {"card": id, "checked": bool}')
            others += _card_ids(game, [item["card"]], f"{field}.{key}[{i}].card")
            _typed(game, item["card"], _NON_CASTERS, f"{field}.{key}[{i}].card")
    for area in AREAS:
        block = seat.get(area)
        if block is None:
            continue
        if not isinstance(block, Mapping) or set(block) != {"caster", "hp", "units"}:
            raise PositionError(f"{field}.{area}", 'expected {"caster": ..., "hp": [...], "units": [...]}')
        caster = block["caster"]
        if caster is None:
            if block["hp"] or block["units"]:
                raise PositionError(f"{field}.{area}", "HP cards or units under an empty caster slot")
            continue
        if not isinstance(caster, Mapping) or not set(caster) <= _CASTER_KEYS or "card" not in caster:
            raise PositionError(
                f"{field}.{area}.caster", f"expected an object with card and any of {sorted(_CASTER_KEYS)}"
            )
        casters += _card_ids(game, [caster["card"]], f"{field}.{area}.caster.card")
        _typed(game, caster["card"], ("caster",), f"{field}.{area}.caster.card")
        if caster.get("arms") is not None:
            others += _card_ids(game, [caster["arms"]], f"{field}.{area}.caster.arms")
            _typed(game, caster["arms"], ("arms",), f"{field}.{area}.caster.arms")
        others += [
            _typed(game, c, _NON_CASTERS, f"{field}.{area}.hp")
            for c in _card_ids(game, block["hp"], f"{field}.{area}.hp")
        ]
        for j, unit in enumerate(_list(block, "units", f"{field}.{area}")):
            others += _object_cards(game, unit, f"{field}.{area}.units[{j}]", enchants)
    _check_casters_placed(seat, field, bool(placement))
    if seat.get("idol") is not None:
        others += _object_cards(game, seat["idol"], f"{field}.idol", enchants)
        if not seat["idol"].get("dummy"):  # a dummy here is refused when it is placed
            _typed(game, seat["idol"]["card"], ("idol",), f"{field}.idol.card")  # D19.1
    return casters, others


def _check_casters_placed(seat: Mapping[str, Any], field: str, to_place: bool) -> None:
    """D4.1: both casters are placed at set-up, together; D13.5: a caster stays on the field, even at 0 HP. So
    either both battle areas hold a caster, or neither does and both casters still wait in `placement`."""
    placed = [area for area in AREAS if isinstance(seat.get(area), Mapping) and seat[area]["caster"] is not None]
    if to_place and placed:
        raise PositionError(f"{field}.{placed[0]}.caster", "casters are placed together (D4.1), but the placement "
                            "still holds casters")  # fmt: skip
    if not to_place and len(placed) != len(AREAS):
        missing = next(area for area in AREAS if area not in placed)
        raise PositionError(f"{field}.{missing}", "no caster here: from set-up on each battle area holds its caster, "
                            "even at 0 HP (D4.1, D13.5); before set-up, list both casters under placement")  # fmt: skip


def _object_cards(game: Any, unit: Any, field: str, enchants: list[tuple[int, str]]) -> list[str]:
    if not isinstance(unit, Mapping) or not set(unit) <= _OBJECT_KEYS or "card" not in unit:
        raise PositionError(field, f"expected an object with card and any of {sorted(_OBJECT_KEYS - {'card'})}")
    found = _card_ids(game, [unit["card"]], f"{field}.card")
    _typed(game, unit["card"], _NON_CASTERS if unit.get("dummy") else ("unit", "idol"), f"{field}.card")
    attached = _card_ids(game, unit.get("attached", []), f"{field}.attached")
    found += [_typed(game, c, ("code",), f"{field}.attached[{i}]") for i, c in enumerate(attached)]
    if not isinstance(unit.get("enchants", []), list):
        raise PositionError(f"{field}.enchants", "expected a list")
    for i, enchant in enumerate(unit.get("enchants", [])):
        if not isinstance(enchant, Mapping) or not {"kind", "owner", "card"} <= set(enchant):
            raise PositionError(f"{field}.enchants[{i}]", 'expected {"kind", "owner", "card", "secret"}')
        try:
            placer = parse_player(enchant["owner"])
        except ValueError as error:
            raise PositionError(f"{field}.enchants[{i}].owner", str(error)) from None
        card = _card_ids(game, [enchant["card"]], f"{field}.enchants[{i}].card")[0]
        enchants.append((placer, _typed(game, card, _NON_CASTERS, f"{field}.enchants[{i}].card")))
    return found


def load_position(game: Any, data: Mapping[str, Any]) -> DreadnoughtState:
    """Rebuild a state; every problem is a PositionError naming the field, never another exception.

    The stack must be one that play can build (`BELOW` and the checks beside it): no duplicated or misplaced
    frame, each frame's data agreeing with the position, every card in limbo held by exactly one play.
    """
    try:
        return _load(game, data)
    except PositionError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:  # a shape no check foresaw
        raise PositionError("position", f"malformed position ({type(error).__name__}: {error})") from None


def _load(game: Any, data: Mapping[str, Any]) -> DreadnoughtState:
    if not isinstance(data, Mapping):
        raise PositionError("position", "expected a JSON object")
    if data.get("game", "dreadnought") != "dreadnought":
        raise PositionError("game", f"expected 'dreadnought', got {data.get('game')!r}")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise PositionError(unknown[0], "unknown field")
    players = data.get("players")
    if not isinstance(players, Mapping) or set(players) != set(PLAYER_NAMES):
        raise PositionError("players", 'expected {"P1": {...}, "P2": {...}}')
    for seat in PLAYER_NAMES:
        if not isinstance(players[seat], Mapping):
            raise PositionError(f"players.{seat}", "expected an object")
        extra = sorted(set(players[seat]) - _PLAYER_KEYS)
        if extra:
            raise PositionError(f"players.{seat}.{extra[0]}", "unknown field")
    # Number the cards: per player casters first, then every other card by id (copies interchangeable).
    from cardlab.games.dreadnought.game import DUMMY_CARD

    cards: list[CardDef] = []
    owner: list[int] = []
    pools: list[dict[str, list[int]]] = []
    enchants: list[tuple[int, str]] = []
    seats = [_seat_cards(game, players[seat], f"players.{seat}", enchants) for seat in PLAYER_NAMES]
    for p, (casters, others) in enumerate(seats):
        others = others + [card_id for placer, card_id in enchants if placer == p]
        pool: dict[str, list[int]] = {}
        for card_id in sorted(casters) + sorted(others):
            pool.setdefault(card_id, []).append(len(cards))
            cards.append(game.card_set[card_id])
            owner.append(p)
        pools.append(pool)
    for p in (0, 1):
        cards.extend([DUMMY_CARD] * DUMMY_SLOTS)
        owner.extend([p] * DUMMY_SLOTS)
    state = DreadnoughtState(game, tuple(cards), tuple(owner), record_events=True)

    def take(p: int, card_id: str) -> int:
        return pools[p][card_id].pop(0)

    for p, seat in enumerate(PLAYER_NAMES):
        _fill_player(state, p, players[seat], f"players.{seat}", take)
    _fill_globals(state, data)
    return state


def _fill_player(state: DreadnoughtState, p: int, seat: Mapping[str, Any], field: str, take: Any) -> None:
    for zone in _CARD_ZONES:
        getattr(state, _ZONE_ATTR.get(zone, zone))[p][:] = [take(p, c) for c in seat.get(zone, [])]
    state.placed[p][:] = [take(p, c) for c in seat.get("placement", [])]
    unseen = list(state.hand[p])
    for card_id in seat.get("known_hand", []):  # in the order given, so that a position round-trips
        inst = next((i for i in unseen if state.cards[i].id == card_id), EMPTY)
        if inst == EMPTY:
            raise PositionError(f"{field}.known_hand", f"{card_id} is not in the hand")
        unseen.remove(inst)
        state.known_hand[p].append(inst)
    for key, cards, flags in (("bursts", state.bursts, state.burst_checked), ("engraves", state.engraves,
                                                                                  state.engrave_checked)):  # fmt: skip
        for item in seat.get(key, []):
            cards[p].append(take(p, item["card"]))
            flags[p].append(bool(item["checked"]))
    for area, name in enumerate(AREAS):
        block = seat.get(name)
        if block is None or block["caster"] is None:
            continue
        caster = take(p, block["caster"]["card"])
        state.casters[p][area] = caster
        state.area_of[caster] = area
        state.checked[caster] = bool(block["caster"].get("checked", False))
        if block["caster"].get("arms") is not None:
            state.arms[caster] = take(p, block["caster"]["arms"])
        if block["caster"].get("shield"):
            state.shield[caster] = _int(block["caster"]["shield"], f"{field}.{name}.caster.shield")
        state.hp[p][area][:] = [take(p, c) for c in block["hp"]]
        for j, unit in enumerate(block["units"]):
            _fill_object(state, p, area, unit, f"{field}.{name}.units[{j}]", take)
    if seat.get("idol") is not None:
        _fill_object(state, p, IDOL_AREA, seat["idol"], f"{field}.idol", take)
    state.speed_shift[p] = _int(seat.get("speed_shift", 0), f"{field}.speed_shift")
    state.geared[p] = bool(seat.get("geared", False))


def _fill_object(state: DreadnoughtState, p: int, area: int, unit: Mapping[str, Any], field: str, take: Any) -> None:
    card = take(p, unit["card"])
    if unit.get("dummy", False):
        if area == IDOL_AREA:
            raise PositionError(field, "a dummy is cast into a battle area only (D15.1)")
        if EMPTY not in state.dummy_cards[p]:
            raise PositionError(f"players.{PLAYER_NAMES[p]}", f"more than {DUMMY_SLOTS} dummies")
        slot = state.dummy_cards[p].index(EMPTY)
        state.dummy_cards[p][slot] = card
        state.dummy_known[p][slot] = bool(unit.get("known", False))
        obj = state.n_cards + DUMMY_SLOTS * p + slot
    else:
        obj = card
        if state.cards[obj].type not in ("unit", "idol"):
            raise PositionError(f"{field}.card", f"{unit['card']} is a {state.cards[obj].type}, not a unit or idol")
    if area != IDOL_AREA and not state.fits(p, area, state.weight(obj)):
        raise PositionError(field, "the battle area is over its limit (D8.3: two units weighing at most 3)")
    state._place(obj, p, area)
    state.checked[obj] = bool(unit.get("checked", False))
    for enchant in unit.get("enchants", []):
        kind = {"boost": BOOST, "weaken": WEAKEN}.get(enchant["kind"])
        if kind is None:
            raise PositionError(f"{field}.enchants", f"kind must be boost or weaken, got {enchant['kind']!r}")
        placer = parse_player(enchant["owner"])
        state.ench.setdefault(obj, []).append(take(placer, enchant["card"]))
        state.ench_kind.setdefault(obj, []).append(kind)
        state.ench_owner.setdefault(obj, []).append(placer)
        state.ench_secret.setdefault(obj, []).append(bool(enchant.get("secret", False)))
    if unit.get("attached"):
        state.attached[obj] = [take(p, c) for c in unit["attached"]]
    if unit.get("bp_mod"):
        state.bp_mod[obj] = _int(unit["bp_mod"], f"{field}.bp_mod")
    if unit.get("shield"):
        state.shield[obj] = _int(unit["shield"], f"{field}.shield")
    if unit.get("moved"):
        state.moved.append(obj)


def _play(state: DreadnoughtState, value: Any, field: str) -> Play:
    if not isinstance(value, Mapping):
        raise PositionError(field, "expected a play object")
    if value.get("kind") not in _PLAY_KINDS:
        raise PositionError(f"{field}.kind", f"expected one of {', '.join(_PLAY_KINDS)}")
    ref = value.get("ref", "")
    if not isinstance(ref, str):
        raise PositionError(f"{field}.ref", f"expected an effect reference, got {ref!r}")
    if (ref or value["kind"] in ("code", "ability", "sub", "trigger")) and ref not in state.game.effects:
        raise PositionError(f"{field}.ref", f"unknown effect reference {ref!r}")
    targets = value.get("targets", [])
    if not isinstance(targets, list):
        raise PositionError(f"{field}.targets", "expected a list of places (null: no legal target)")
    action = value.get("action", False)
    if not isinstance(action, bool):
        raise PositionError(f"{field}.action", f"expected true or false, got {action!r}")
    counts = {}
    for key in ("log", "discard"):
        counts[key] = _int(value.get(key, 0), f"{field}.{key}")
        if counts[key] < 0:
            raise PositionError(f"{field}.{key}", "expected an integer >= 0")
    dest = value.get("dest")
    if dest is not None and dest not in DESTINATIONS:
        raise PositionError(f"{field}.dest", f"expected null or one of {', '.join(DESTINATIONS)}")
    try:
        player = parse_player(value["player"])
    except (KeyError, ValueError) as error:
        raise PositionError(f"{field}.player", f"malformed play: {error}") from None
    return Play(
        kind=value["kind"],
        player=player,
        card=_resolve(state, value.get("card"), f"{field}.card"),
        source=_resolve(state, value.get("source"), f"{field}.source"),
        ref=ref,
        targets=tuple(_resolve(state, t, f"{field}.targets") for t in targets),
        log=counts["log"],
        discard=counts["discard"],
        action=action,
        dest=EMPTY if dest is None else DESTINATIONS.index(dest),
    )


def _frame(state: DreadnoughtState, value: Any, field: str) -> tuple[Any, ...]:
    if not isinstance(value, list) or not value or not isinstance(value[0], str) or value[0] not in FRAME_ARGS:
        raise PositionError(field, f"expected [kind, ...] with kind one of {', '.join(FRAME_ARGS)}")
    kinds = FRAME_ARGS[value[0]]
    if len(value) != len(kinds) + 1:
        raise PositionError(field, f"{value[0]} takes {len(kinds)} arguments")
    out: list[Any] = [value[0]]
    for i, (kind, item) in enumerate(zip(kinds, value[1:], strict=True)):
        where = f"{field}[{i + 1}]"
        if kind == "p":
            try:
                out.append(parse_player(item))
            except ValueError as error:
                raise PositionError(where, str(error)) from None
        elif kind == "o":
            out.append(_resolve(state, item, where))
        elif kind == "O":
            if not isinstance(item, list):
                raise PositionError(where, "expected a list of places")
            out.append(tuple(_resolve(state, v, where) for v in item))
        elif kind == "P":
            out.append(_play(state, item, where))
        elif kind == "i":
            out.append(_int(item, where))
        else:
            if item not in _WINDOWS:
                raise PositionError(where, f"expected one of {', '.join(_WINDOWS)}")
            out.append(item)
    return tuple(out)


# ---- checking the stack ------------------------------------------------------------------

BELOW: dict[str, frozenset[str]] = {kind: frozenset(below) for kind, below in {
    "setup": [""], "mull_done": [""], "turn": [""],
    "speed_phase": ["draw_phase"], "reveals": ["draw_phase"], "speed_windows": ["draw_phase"],
    "decide": ["draw_phase"], "compare": ["draw_phase"],
    "draw_phase": ["cast_phase"], "draw_bursts": ["cast_phase"],
    "draw1": ["draw1", "draw_bursts", "effect", "finish", "turn"],
    "cast_phase": ["fast_phase"], "upkeep": ["win"], "fast_phase": ["action_phase"], "action_phase": ["end_phase"],
    "end_phase": ["turn"], "hand_limit": ["cleanup", "hand_limit"], "cleanup": ["turn"],
    "settle": ["aturn", "block_step", "cast_phase", "compare", "end_phase", "hand_limit", "paid", "pay_log", "react",
               "settle", "speed_windows", "upkeep_idol", "win"],
    "next_trigger": ["settle"], "targets": ["aturn", "end_phase", "pay_log", "react", "settle", "win"],
    "pay": ["aturn", "end_phase", "pay_log", "react", "settle", "upkeep_idol", "win"],
    "pay_log": ["aturn", "end_phase", "pay_log", "react", "settle", "upkeep_idol", "win"],
    "paid": ["aturn", "end_phase", "pay_log", "react", "settle", "upkeep_idol", "win"],
    "resolve": ["aturn", "end_phase", "pay_log", "react", "settle", "upkeep_idol", "win"],
    "finish": ["settle"], "effect": ["effect", "finish"], "material": ["effect", "finish"],
    "block_step": ["aturn", "end_phase"], "attack_damage": ["aturn", "end_phase"],
    "place": ["place", "setup"], "mull": ["mull", "mull_done"],
    "win": ["action_phase", "decide", "fast_phase", "upkeep", "win"],
    "dest": ["win"], "move_to": ["win"], "upkeep_idol": ["upkeep_idol", "win"],
    "target": ["aturn", "end_phase", "pay_log", "react", "settle", "win"],
    "pay_discard": ["aturn", "end_phase", "pay_log", "react", "settle", "upkeep_idol", "win"],
    "pay_src": ["aturn", "end_phase", "pay_log", "react", "settle", "upkeep_idol", "win"],
    "aturn": ["end_phase"], "abuild": ["aturn", "end_phase"], "block": ["aturn", "end_phase"],
    "react": ["attack_damage", "resolve"], "pick": ["material"], "scrap": ["material", "settle"], "order": ["settle"],
    "hpdraw": ["draw1", "draw_bursts", "effect", "finish", "turn"], "limit": ["hand_limit"],
    "hpdeck": ["compare", "draw_bursts", "effect", "material", "reveals"],
}.items()}  # fmt: skip
"""Per frame kind, the kinds that may lie directly below it ("": the bottom of the stack; `STACKED_BELOW` adds to it
under the rule reactions=stack).

Worked out from what each frame schedules (`frames`, `decisions`): a frame's first scheduled frame
lies on whatever lay below it, each further one on the one scheduled before it. A stack that breaks
this (a duplicated or misplaced frame) cannot arise in play, and its next step could fail.
"""
STACKED_BELOW: dict[str, frozenset[str]] = {
    "resolve": frozenset({"attack_damage", "resolve"}), "settle": frozenset({"attack_damage", "resolve"}),
}  # fmt: skip
"""Under the rule reactions=stack (R-VD4) a reaction's resolve step waits below the reaction window, on the attack's
damage step or on the items played before it, and the rule check after each such resolution lies there too."""
_TURN_ORDER = ("speed", "draw", "cast", "fast", "action", "end")
_PHASE_OF = {
    **dict.fromkeys(("setup", "mull_done", "place", "mull"), "setup"),
    **dict.fromkeys(("reveals", "speed_windows", "decide", "compare"), "speed"),
    "draw_bursts": "draw",
    **dict.fromkeys(("upkeep", "upkeep_idol", "dest", "move_to"), "cast"),
    **dict.fromkeys(("aturn", "abuild", "block", "block_step", "react", "attack_damage"), "action"),
    **dict.fromkeys(("hand_limit", "limit", "cleanup"), "end"),
}
"""Frame kinds that only ever wait during one phase (D5.1): D4 set-up, D6 speed, D7 draw, D8 cast, D10 action,
D11 end."""
_PLAY_FRAMES = ("targets", "target", "pay", "pay_discard", "pay_log", "pay_src", "paid", "dest", "resolve")
"""Frames holding a play that no later frame holds: its card (if any) waits in limbo for it alone."""
_RESOLVING = ("effect", "finish")
"""Frames of a play being resolved (D22.2): they share its play, and an attached code has left limbo (D14.5)."""
_PLAY_KINDS_OF = {
    "dest": ("unit", "idol"), "targets": ("code", "ability", "sub", "trigger"),
    "target": ("code", "ability", "sub", "trigger", "arms"), "resolve": ("code", "ability", "sub", "trigger"),
    "effect": ("code", "ability", "sub", "trigger"), "finish": ("code", "ability", "sub", "trigger"),
}  # fmt: skip
_CARD_PLAYS = ("code", "arms", "sub", "unit", "idol")
_MATERIAL_KINDS = (BOOST, WEAKEN, ENGRAVE)


def _frame_player(frame: tuple[Any, ...]) -> int | None:
    """The player a frame acts for: a decision's, a play's, or a per-player step's (None: both or neither)."""
    kind = frame[0]
    if kind in FRAME_ARGS and FRAME_ARGS[kind].startswith("p"):
        return int(frame[1])
    if FRAME_ARGS.get(kind, "").startswith("P"):
        return int(frame[1].player)
    return None


def _selector_count(state: DreadnoughtState, play: Play) -> int:
    """How many targets the play chooses (D5.3): one per single-target selector; an arms its caster."""
    if play.kind == "arms":
        return 1
    if play.kind not in ("code", "ability", "sub", "trigger"):
        return 0
    effects = state.game.effects[play.ref]
    return sum(1 for e in effects if isinstance(target := e.args.get("target"), Selector) and not target.is_group)


def _check_play(state: DreadnoughtState, frame: tuple[Any, ...], field: str) -> None:
    kind = frame[0]
    play: Play = frame[2] if FRAME_ARGS[kind].startswith("pP") else frame[1]
    at = f"{field}[{2 if FRAME_ARGS[kind].startswith('pP') else 1}]"
    allowed = _PLAY_KINDS_OF.get(kind, tuple(k for k in _PLAY_KINDS if k != "trigger"))
    if play.kind not in allowed:
        wanted = " or ".join(allowed)
        raise PositionError(f"{at}.kind", f"a {kind} step carries a play of kind {wanted}, not {play.kind}")
    if FRAME_ARGS[kind].startswith("pP") and frame[1] != play.player:
        whose = PLAYER_NAMES[play.player]
        raise PositionError(f"{field}[1]", f"the decision is the player's whose play it is ({whose})")
    if play.kind in ("code", "sub"):
        card_id = state.cards[play.card].id if play.card != EMPTY else None
        wanted = f"{'C' if play.kind == 'code' else 'S'}:{card_id}"
        if card_id is not None and play.ref != wanted:
            raise PositionError(f"{at}.ref", f"the {play.kind} of {card_id} has the effects {wanted}, not {play.ref!r}")
    elif play.kind in ("ability", "trigger"):
        if play.ref not in state.game.ability_of:
            raise PositionError(f"{at}.ref", f"{play.ref!r} names no ability of a card (A:<id>:<i>, G:<id>:<i>)")
    elif play.ref:
        raise PositionError(f"{at}.ref", f"a play of kind {play.kind} has no effects of its own")
    if play.kind in _CARD_PLAYS:
        if play.card == EMPTY and kind not in _RESOLVING:
            raise PositionError(f"{at}.card", f"a play of kind {play.kind} names its card in limbo")
        if play.card != EMPTY and play.card not in state.limbo[play.player]:
            raise PositionError(f"{at}.card", "the played card waits in its player's limbo (D5.3)")
        if play.source != EMPTY:
            raise PositionError(f"{at}.source", f"a play of kind {play.kind} has no source")
    elif play.card != EMPTY:
        raise PositionError(f"{at}.card", f"a play of kind {play.kind} plays no card")
    if (play.dest != EMPTY) != (play.kind in ("unit", "idol") and kind != "dest"):
        raise PositionError(f"{at}.dest", "a cast has its destination once chosen (D8.2), and no other play has one")
    if play.action and play.kind not in ("code", "ability", "sub"):
        raise PositionError(f"{at}.action", "only a code, an ability or a sub-effect is an ACTION item (D10.4)")
    wanted_targets = _selector_count(state, play)
    chosen = len(play.targets)
    if kind == "targets":
        ok = chosen <= wanted_targets
    elif kind == "target":
        ok = chosen < wanted_targets
    else:
        ok = chosen == wanted_targets
    if not ok:
        raise PositionError(f"{at}.targets", f"{chosen} targets chosen for {wanted_targets} single-target selectors "
                            f"at a {kind} step (D5.3)")  # fmt: skip
    if kind == "pay_discard" and play.discard < 1:
        raise PositionError(f"{at}.discard", "a discard payment waits only while a discard is still owed (D12.3)")
    if kind == "pay_src" and play.log < 1:
        raise PositionError(f"{at}.log", "a log payment waits only while log is still owed (D12.1)")


def _check_frame(state: DreadnoughtState, frame: tuple[Any, ...], field: str) -> None:
    """One frame's data against the position (the kinds of its arguments are already checked)."""
    kind = frame[0]
    phase = _PHASE_OF.get(kind, frame[2] if kind == "win" else None)
    if phase is not None and state.phase != phase:
        raise PositionError(field, f"a {kind} step waits only in the {phase} phase, not the {state.phase} phase")
    if kind in ("reveals", "hpdeck") and not state.game.hp_for_every_use:
        raise PositionError(field, f"a {kind} step exists only under the rule library_out=every_use (D20.2)")
    if kind == "hpdeck" and not (state.hp[frame[1]][BA1] and state.hp[frame[1]][BA2]):
        raise PositionError(field, "the HP card is a choice only while both casters have HP (D20.1, D20.2)")
    if FRAME_ARGS[kind] in ("P", "Pi", "pP"):
        _check_play(state, frame, field)
    if kind == "effect":
        count = len(state.game.effects[frame[1].ref])
        if not 0 <= frame[2] < count:
            raise PositionError(f"{field}[2]", f"{frame[1].ref} has effects 0 to {count - 1}")
    elif kind in ("aturn", "react") and frame[2] not in (0, 1):
        raise PositionError(f"{field}[2]", "passes is 1 after a pass, else 0 (D10.3, D10.4)")
    elif kind == "aturn" and not 0 <= frame[3] < ACTION_TURN_CAP:
        raise PositionError(f"{field}[3]", f"the action turns so far, 0 to {ACTION_TURN_CAP - 1} (D10.3)")
    elif kind == "compare" and not 0 <= frame[1] <= state.game.tie_reveals:  # rule tie_reveals
        limit = "0 or more" if state.game.tie_reveals > TIE_REVEALS else f"0 to {state.game.tie_reveals}"
        raise PositionError(f"{field}[1]", f"the re-reveals so far, {limit} (D6.6)")
    elif kind in ("material", "pick"):
        player, host, material = frame[1], frame[2], frame[3]
        if material not in _MATERIAL_KINDS:
            raise PositionError(f"{field}[3]", "the material kind: 1 boost, -1 weaken, 0 engrave")
        if material == ENGRAVE and host != EMPTY:
            raise PositionError(f"{field}[2]", "an engrave has no host (D16.1)")
        if kind == "pick" and material != ENGRAVE and not state.on_field(host):
            raise PositionError(f"{field}[2]", "an enchant is made for a unit on the field (D14.2)")
        if kind == "material" and frame[4] < 0:
            raise PositionError(f"{field}[4]", "expected a count >= 0")
        if kind == "pick" and len({state.cards[c].id for c in state.discard[player]}) < 2:
            raise PositionError(field, "the material is a choice only between different discard cards (D14.2)")
    elif kind in ("move_to", "upkeep_idol"):
        obj, player = frame[2], frame[1]
        own_unit = state.on_field(obj) and state.owner[obj] == player and not state.is_caster(obj)
        if kind == "upkeep_idol":
            own_unit = own_unit and not state.is_dummy(obj) and state.cards[obj].type == "idol"
            own_unit = own_unit and state.area_of[obj] != IDOL_AREA
        if not own_unit:
            wanted = "an idol of the player's in a battle area (D19.4)" if kind == "upkeep_idol" else "an own unit"
            raise PositionError(f"{field}[2]", f"expected {wanted}")
    elif kind == "abuild":
        player, attackers = frame[1], frame[2]
        units = [u for area in (BA1, BA2) for u in state.units[player][area]]
        if not attackers or len(set(attackers)) != len(attackers) or not set(attackers) <= set(units):
            raise PositionError(f"{field}[2]", "expected distinct units of the player's battle areas (D10.5)")
    elif kind in ("block", "block_step", "attack_damage") and not state.attacking:
        raise PositionError(field, f"a {kind} step belongs to an attack in progress (attack)")
    elif kind == "block" and (frame[1] != 1 - state.attack_player or state.blocker != EMPTY):
        raise PositionError(field, "the defender chooses the blocker once (D10.6)")


def _check_pair(state: DreadnoughtState, below: tuple[Any, ...], frame: tuple[Any, ...], field: str) -> None:
    """A frame against the one directly below it: the players and plays their scheduling implies."""
    kind, under = frame[0], below[0]
    player, under_player = _frame_player(frame), _frame_player(below)
    if kind == "effect" and under in ("effect", "finish"):
        play = below[1]
        index = below[2] if under == "effect" else len(state.game.effects[play.ref])
        if frame[1] != play or frame[2] != index - 1:
            raise PositionError(field, "the effects of a play resolve in order, each once, then it finishes (D22.2)")
    elif kind == under and kind in ("win", "mull", "place", "hand_limit"):
        if player == under_player or (kind == "win" and frame[2] != below[2]):
            raise PositionError(field, f"two {kind} steps of one player, or of two phases, at once")
    elif kind == "hpdeck" and under == "effect":
        if player != below[1].player:
            raise PositionError(field, "the HP card stands in for the deck of the player whose effect it is (D20.2)")
    elif under == "resolve":
        if not below[1].action and not state.game.reaction_stack:  # rule reactions=stack: reactions wait too
            raise PositionError(field, "only an ACTION item waits below its reaction window (D10.4)")
    elif under in ("aturn", "react") and player is not None:
        if (player == under_player) != (kind == "block"):
            raise PositionError(field, "after an item or an attack the next action turn or reaction right is the "
                                "other player's, and the defender blocks (D10.2, D10.4, D10.6)")  # fmt: skip
    elif under == "upkeep" and kind == "win":
        if player == under_player:
            raise PositionError(field, "F's cast window comes before S's upkeep (D8.1)")
    elif under in ("win", "pay_log", "upkeep_idol", "material", "hand_limit", "upkeep"):
        if player is not None and under_player is not None and player != under_player:
            raise PositionError(field, f"a step of {PLAYER_NAMES[player]}'s on a {under} step of "
                                f"{PLAYER_NAMES[under_player]}'s")  # fmt: skip
    if kind == "upkeep_idol" and under == "upkeep_idol" and frame[2] == below[2]:
        raise PositionError(field, "each idol's upkeep is due once (D19.4)")


def _check_stack(state: DreadnoughtState) -> None:
    """Refuse a stack that cannot arise in play: frames in an impossible order (`BELOW`), a duplicated step,
    a frame whose data contradicts the position, a card in limbo that no play holds."""
    stack = state.stack
    for i, frame in enumerate(stack):
        field = f"stack[{i}]"
        _check_frame(state, frame, field)
        under = stack[i - 1][0] if i else ""
        below = BELOW[frame[0]]
        if state.game.reaction_stack:
            below = below | STACKED_BELOW.get(frame[0], frozenset())
        if under not in below:
            where = f"on a {under} step" if under else "at the bottom"
            allowed = " or ".join(k or "the bottom" for k in sorted(below))
            raise PositionError(field, f"a {frame[0]} step cannot lie {where} (only on {allowed})")
        if i:
            _check_pair(state, stack[i - 1], frame, field)
    phases = [frame[0].removesuffix("_phase") for frame in stack[1:] if frame[0].endswith("_phase")]
    if phases:
        first = _TURN_ORDER.index(phases[-1])
        wanted = ("end", "setup") if first == 0 else (_TURN_ORDER[first - 1],)
        if state.phase not in wanted:
            raise PositionError("phase", f"the {phases[-1]} phase is next, so the phase is {' or '.join(wanted)}")
    holders: dict[int, list[int]] = {}
    for i, frame in enumerate(stack):
        if frame[0] in _PLAY_FRAMES or frame[0] in _RESOLVING:
            play = frame[2] if FRAME_ARGS[frame[0]].startswith("pP") else frame[1]
            if play.card != EMPTY:
                holders.setdefault(play.card, []).append(i)
    for card, frames in holders.items():
        heads = [i for i in frames if stack[i][0] in _PLAY_FRAMES]
        if len(heads) > 1 or (heads and len(frames) > 1):
            raise PositionError(f"stack[{frames[-1]}]", f"{state.cards[card].id} in limbo is played twice")
    for p, seat in enumerate(PLAYER_NAMES):
        for j, card in enumerate(state.limbo[p]):
            if card not in holders:
                raise PositionError(f"players.{seat}.limbo[{j}]", f"{state.cards[card].id} waits in limbo for no play")
    attacks = [i for i, frame in enumerate(stack) if frame[0] in ("block_step", "block", "attack_damage")]
    if len(attacks) > 1 or (state.attacking and not attacks):
        raise PositionError("attack", "an attack in progress has one pending step: block_step, block or attack_damage")


def _player_field(value: Any, field: str) -> int:
    try:
        return parse_player(value)
    except (ValueError, TypeError) as error:
        raise PositionError(field, str(error)) from None


def _fill_globals(state: DreadnoughtState, data: Mapping[str, Any]) -> None:
    turn = data.get("turn", 1)
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 0:
        raise PositionError("turn", "expected an integer >= 0")
    state.turn = turn
    phase = data.get("phase", "cast")
    if phase not in PHASES:
        raise PositionError("phase", f"expected one of {', '.join(PHASES)}")
    state.phase = phase
    state.first = EMPTY if data.get("first") is None else _player_field(data["first"], "first")
    state.token = _player_field(data.get("token", "P1"), "token")
    attack = data.get("attack")
    if attack is not None:
        if not isinstance(attack, Mapping) or not {"player", "attackers", "area"} <= set(attack):
            raise PositionError("attack", "expected null or an object with player, attackers, area, blocker, mod")
        state.attack_player = _player_field(attack["player"], "attack.player")
        if not isinstance(attack["attackers"], list):
            raise PositionError("attack.attackers", "expected a list of places")
        state.attackers[:] = [_resolve(state, a, "attack.attackers") for a in attack["attackers"] if a is not None]
        if attack["area"] not in AREAS:
            raise PositionError("attack.area", f"expected one of {', '.join(AREAS)}")
        state.attack_area = AREAS.index(attack["area"])
        state.blocker = _resolve(state, attack.get("blocker"), "attack.blocker")
        state.attack_mod = _int(attack.get("mod", 0), "attack.mod")
    triggers = data.get("triggers", [])
    if not isinstance(triggers, list):
        raise PositionError("triggers", "expected a list of trigger objects")
    for i, trigger in enumerate(triggers):
        if not isinstance(trigger, Mapping):
            raise PositionError(f"triggers[{i}]", "expected an object with player, source, ability")
        source = _resolve(state, trigger.get("source"), f"triggers[{i}].source")
        ref = trigger.get("ability")
        if ref not in state.game.effects:
            raise PositionError(f"triggers[{i}].ability", f"unknown ability reference {ref!r}")
        state.triggers.append((_player_field(trigger.get("player"), f"triggers[{i}].player"), source, ref))
    state.cost_reduction = _int(data.get("cost_reduction", 0), "cost_reduction")
    if state.cost_reduction < 0:
        raise PositionError("cost_reduction", "expected an integer >= 0 (D22.2 cost_reduce only lowers a cost)")
    stack = data.get("stack")
    if not isinstance(stack, list):
        raise PositionError("stack", "expected the list of pending steps (bottom first)")
    state.stack[:] = [_frame(state, frame, f"stack[{i}]") for i, frame in enumerate(stack)]
    if phase != "over":
        _check_stack(state)
    winner = data.get("winner")
    state.draw = bool(data.get("draw", False))
    state.reason = data.get("reason", "") or ""
    if phase == "over":
        state.winner = None if winner is None else _player_field(winner, "winner")
        state.stack.clear()
        return
    if not state.stack:
        raise PositionError("stack", "a game in progress needs at least one pending step")
    try:
        state._run()
        state._advance()
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, AssertionError) as error:
        raise PositionError("stack", f"the pending steps cannot run on this position ({error})") from None
    if state.phase != "over" and not state.legal_actions():
        raise PositionError("stack", f"the pending decision {state.stack[-1][0]!r} has no legal option here")
