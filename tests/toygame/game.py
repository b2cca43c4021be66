"""Kuhn poker (as in OpenSpiel's kuhn_poker), as a cardlab game: three cards, one each, one bet.

Both players ante; P1 checks or bets one chip; facing a bet a player calls or folds; after two
checks or a call the higher card takes the pot. The config chooses each seat's ante (what the
balance lab pairs up) and the deck (J Q K, or J Q K A).

Two rule options make it a game `cardlab tune` can balance with a known answer: under random play P1
wins 9/16 of the games; without folding exactly 1/2; with two checks going to P1 or P2 outright, 11/16
or 7/16 (and no combination with folding forbidden gives 1/2).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from cardlab.core.actions import ActionSpace, IndexedAction
from cardlab.core.errors import PositionError
from cardlab.core.events import Event, EventLog
from cardlab.core.game import PLAYER_NAMES, Action, Game, HiddenGroup, Outcome, Player, Policy, State
from cardlab.core.plugin import Choice, ConfigOption, Lab, Matchups, OptionValue, seat_values
from cardlab.core.rng import make_rng
from cardlab.core.rules import RuleOption, Rules, check_rules, rule_value

DECKS = {"jqk": "JQK", "jqka": "JQKA"}
ANTES = ("1", "2")
ACTIONS = ActionSpace(("CHECK", "BET", "CALL", "FOLD"))
CHECK, BET, CALL, FOLD = ACTIONS
RULE_OPTIONS = (
    RuleOption("folding", "K1", "allowed", ("allowed", "forbidden"), "forbidden: a bet must be called"),
    RuleOption("check_check", "K2", "showdown", ("showdown", "p1_wins", "p2_wins"), "who takes two checks"),
)


class Kuhn(Game):
    name = "kuhn"
    title = "Kuhn Poker"
    credit = "Kuhn poker (H. W. Kuhn, 1950)."
    position_keys = ("game", "config", "turn", "cards", "history")
    num_actions = len(ACTIONS)
    rule_options = RULE_OPTIONS
    options = (
        ConfigOption("deck", "the deck: jqk or jqka", tuple(Choice(d) for d in DECKS), default="jqk"),
        ConfigOption("antes", "P1,P2 antes", tuple(Choice(a) for a in ANTES), per_seat=True, optional=True),
    )

    def __init__(self, deck: str = "jqk", antes: tuple[int, int] = (1, 1), rules: Rules = ()) -> None:
        if deck not in DECKS:
            raise PositionError("config.deck", f"expected one of {sorted(DECKS)}, got {deck!r}")
        if any(ante not in (1, 2) for ante in antes):
            raise PositionError("config.antes", f"an ante is 1 or 2, got {antes!r}")
        self.deck, self.antes, self.rules = deck, antes, check_rules(RULE_OPTIONS, rules)

    def rule(self, name: str) -> str:
        return rule_value(RULE_OPTIONS, self.rules, name)

    @classmethod
    def from_config(cls, data: Mapping[str, Any]) -> Kuhn:
        if not isinstance(data, Mapping):
            raise PositionError("config", "expected an object with deck, antes")
        unknown = sorted(set(data) - {"deck", "antes", "rules"})
        if unknown:
            raise PositionError(f"config.{unknown[0]}", "unknown field")
        deck, antes = data.get("deck", "jqk"), data.get("antes") or {"P1": 1, "P2": 1}
        if not isinstance(deck, str):
            raise PositionError("config.deck", f"expected one of {sorted(DECKS)}, got {deck!r}")
        if not isinstance(antes, Mapping) or set(antes) != set(PLAYER_NAMES):
            raise PositionError("config.antes", 'expected {"P1": ..., "P2": ...}')
        return cls(deck, (antes["P1"], antes["P2"]), check_rules(RULE_OPTIONS, data.get("rules")))

    @classmethod
    def from_options(cls, options: Mapping[str, OptionValue], rng: random.Random) -> Kuhn:
        antes = tuple(int(ante or 1) for ante in seat_values(options.get("antes")))
        return cls(str(options.get("deck") or "jqk"), (antes[0], antes[1]))

    def config_json(self) -> dict[str, Any]:
        config: dict[str, Any] = {"deck": self.deck, "antes": dict(zip(PLAYER_NAMES, self.antes, strict=True))}
        return config | ({"rules": dict(self.rules)} if self.rules else {})

    def new_state(self, seed: int, *, record_events: bool = True) -> KuhnState:
        cards = list(range(len(DECKS[self.deck])))
        make_rng(seed).shuffle(cards)
        return KuhnState(self, cards, [], record_events)

    def load_position(self, data: Mapping[str, Any]) -> KuhnState:
        if not isinstance(data, Mapping):
            raise PositionError("position", "expected a JSON object")
        for key in ("cards", "history"):
            if key not in data:
                raise PositionError(key, "missing")
        game = Kuhn.from_config(data.get("config", {}))
        cards, history = data["cards"], data["history"]
        size = len(DECKS[game.deck])
        if not isinstance(cards, list) or sorted(c for c in cards if type(c) is int) != list(range(size)):
            raise PositionError("cards", f"expected the deck's {size} cards 0..{size - 1} in some order, got {cards!r}")
        if not isinstance(history, list):
            raise PositionError("history", "expected a list of actions")
        state = KuhnState(game, list(cards), [], True)
        for index, action in enumerate(history):  # replayed: only a history of legal actions is a position
            if str(action) not in [str(legal) for legal in state.legal_actions()]:
                raise PositionError(f"history[{index}]", f"{action!r} is not legal here")
            state.history.append(str(action))
        return state

    def parse_action(self, text: str) -> IndexedAction:
        return ACTIONS.parse(text.upper())

    @classmethod
    def lab(cls) -> Lab:
        def matchups(variant: str | None) -> Matchups:
            if variant not in (None, "jqk"):
                raise ValueError(f"unknown variant {variant!r}")

            def config(first: str, second: str) -> dict[str, Any]:
                return {"deck": "jqk", "antes": {"P1": int(first[1:]), "P2": int(second[1:])}}

            return Matchups("kuhn", "jqk", ("A1", "A2"), "antes", config)

        return Lab(matchups)

    @classmethod
    def heuristic(cls) -> Policy:
        def bet_high(state: State, rng: random.Random) -> Action:
            legal = state.legal_actions()
            me = state.current_player()
            card = state.observation(me)["players"][PLAYER_NAMES[me or 0]]["card"]
            strong = card == DECKS["jqk"][-1] or card == "A"
            return next(a for a in legal if a in ((BET, CALL) if strong else (CHECK, FOLD)))

        return bet_high


class KuhnState(State):
    def __init__(self, game: Kuhn, cards: list[int], history: list[str], record_events: bool) -> None:
        self._game, self.cards, self.history = game, cards, history
        self.events = EventLog() if record_events else None

    @property
    def game(self) -> Kuhn:
        return self._game

    def current_player(self) -> Player | None:
        return None if self.outcome() else len(self.history) % 2

    def legal_actions(self) -> Sequence[IndexedAction]:
        if self.outcome():
            return ()
        if "BET" not in self.history:
            return (CHECK, BET)
        return (CALL,) if self._game.rule("folding") == "forbidden" else (CALL, FOLD)

    def _apply_legal(self, action: Action) -> None:
        player = self.current_player()
        self.history.append(str(action))
        if self.events is not None:
            self.events.append(Event("action", {"player": PLAYER_NAMES[player or 0], "action": str(action)}))

    def clone(self, *, record_events: bool = False) -> KuhnState:
        copy = KuhnState(self._game, list(self.cards), list(self.history), False)
        copy.events = self.events.copy() if record_events and self.events is not None else None
        return copy

    def outcome(self) -> Outcome | None:
        history = self.history
        if history[-1:] == ["FOLD"]:
            return Outcome(len(history) % 2, "fold")  # the folder was the last to act
        if history == ["CHECK", "CHECK"] and self._game.rule("check_check") != "showdown":
            return Outcome(0 if self._game.rule("check_check") == "p1_wins" else 1, "checks")
        if history in (["CHECK", "CHECK"], ["BET", "CALL"], ["CHECK", "BET", "CALL"]):
            return Outcome(0 if self.cards[0] > self.cards[1] else 1, "showdown")
        return None

    def position(self) -> dict[str, Any]:
        return {"game": "kuhn", "config": self._game.config_json(), "turn": len(self.history) + 1,
                "cards": list(self.cards), "history": list(self.history)}  # fmt: skip

    def observation(self, player: Player | None) -> dict[str, Any]:
        outcome = self.outcome()
        shown = outcome is not None and outcome.reason == "showdown"
        letters = DECKS[self._game.deck]
        players = {
            seat: {"card": letters[self.cards[p]] if shown or p == player else None, "ante": self._game.antes[p]}
            for p, seat in enumerate(PLAYER_NAMES)
        }
        return {"window": "respond" if "BET" in self.history else "open", "history": list(self.history),
                "players": players}  # fmt: skip

    def open_observation(self) -> dict[str, Any]:
        observation = self.observation(None)
        for p, seat in enumerate(PLAYER_NAMES):
            observation["players"][seat]["card"] = DECKS[self._game.deck][self.cards[p]]
        return observation

    def card_zones(self) -> Mapping[str, list[int]]:
        return {"cards": self.cards}

    def hidden_cards(self, player: Player) -> list[HiddenGroup]:
        outcome = self.outcome()
        shown = (0, 1) if outcome is not None and outcome.reason == "showdown" else (player,)  # both hands at showdown
        return [[("cards", [index for index in range(len(self.cards)) if index not in shown])]]

    def _resync(self) -> bool:
        return True
