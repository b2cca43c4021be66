"""Conformance scenarios (E14.6): a position, actions to apply, and what to expect after.

The format is game-agnostic: any registered game's position JSON can be the start; the caller
hands in the registry of games (`cardlab.games.REGISTRY`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardlab.core.datafile import DataFileError, read_json
from cardlab.core.errors import CardlabError, IllegalActionError, PositionError
from cardlab.core.game import State
from cardlab.core.plugin import GameRegistry

SCENARIO_KEYS = {"position", "actions", "expect", "description", "rules"}
DEALT_KEYS = {"game", "config", "seed"}
"""A scenario `position` with exactly these keys is a new game of that config dealt from that seed."""


class ScenarioError(CardlabError, ValueError):
    """A scenario file that cannot be run: unreadable, malformed, or an illegal action."""


@dataclass
class ScenarioResult:
    name: str
    passed: bool
    problems: list[str] = field(default_factory=list)
    final: dict[str, Any] | None = None

    def line(self) -> str:
        return f"{self.name}: pass" if self.passed else f"{self.name}: FAIL: " + "; ".join(self.problems)


def read_scenario(path: Path, registry: GameRegistry) -> dict[str, Any]:
    """Parse and shape-check a scenario file; errors name the line or field."""
    try:
        data = read_json(path)
    except DataFileError as exc:
        raise ScenarioError(exc.problem) from None
    if not isinstance(data, dict):
        raise ScenarioError("expected a JSON object with 'position', 'actions' and 'expect'")
    unknown = sorted(set(data) - SCENARIO_KEYS)
    if unknown:
        raise ScenarioError(f"{unknown[0]}: unknown field (expected {sorted(SCENARIO_KEYS)})")
    if "position" not in data:
        raise ScenarioError("position: missing")
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise ScenarioError("actions: expected a list of action strings")
    for index, action in enumerate(actions):
        if not isinstance(action, str):
            raise ScenarioError(f"actions[{index}]: expected a string, got {action!r}")
    expect = data.get("expect", {})
    if not isinstance(expect, dict):
        raise ScenarioError("expect: expected an object")
    position = data["position"]
    game = position.get("game") if isinstance(position, dict) else None
    if isinstance(game, str) and game in registry.names:
        allowed = (*registry.game_class(game).position_keys, "legal")
        for key in expect:
            if key not in allowed:
                raise ScenarioError(f"expect.{key}: unknown field (expected any of {list(allowed)})")
    legal = expect.get("legal", [])
    if not isinstance(legal, list) or not all(isinstance(action, str) for action in legal):
        raise ScenarioError(f"expect.legal: expected a list of action strings, got {legal!r}")
    return data


def play_scenario(data: Mapping[str, Any], registry: GameRegistry) -> State:
    """Load the position (or deal a new game: `{"game", "config", "seed"}`, for set-up rules such as
    E1.4's opening hands) and apply the actions; an illegal one raises naming its index."""
    position = data["position"]
    try:
        if isinstance(position, Mapping) and set(position) == DEALT_KEYS:
            seed = position["seed"]
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise PositionError("seed", f"expected an integer, got {seed!r}")
            if position["game"] not in registry.names:
                raise PositionError(
                    "game", f"unknown game {position['game']!r}; known games: {', '.join(registry.names)}"
                )
            state = registry.game_class(position["game"]).from_config(position["config"]).new_state(seed)
        else:
            state = registry.load_position(position)
    except PositionError as exc:
        field = exc.field if exc.field.startswith("position") else f"position.{exc.field}"
        raise ScenarioError(f"{field}: {exc.problem}") from None
    for index, text in enumerate(data.get("actions", [])):
        try:
            state.apply(text)
        except IllegalActionError as exc:
            legal = ", ".join(str(a) for a in exc.legal) or "none (the game is over)"
            raise ScenarioError(f"actions[{index}]: {text!r} is illegal here; legal actions: [{legal}]") from None
    return state


def compare(expect: Mapping[str, Any], state: State) -> list[str]:
    """Differences between `expect` and the state: any position field, and `legal`.

    Under `players`, only the fields given for a seat are compared, hands as multisets.
    """
    position = state.position()
    problems = []
    for key, expected in expect.items():
        if key == "legal":
            legal = sorted(str(action) for action in state.legal_actions())
            if sorted(expected) != legal:
                problems.append(f"legal: expected {json.dumps(sorted(expected))}, got {json.dumps(legal)}")
        elif not _equal(key, expected, position.get(key)):
            problems.append(f"{key}: expected {json.dumps(expected)}, got {json.dumps(position.get(key))}")
    return problems


def _equal(key: str, expected: Any, actual: Any) -> bool:
    if key != "players" or not isinstance(expected, Mapping) or not isinstance(actual, Mapping):
        return bool(expected == actual)
    if set(expected) != set(actual):
        return False
    for name, seat in expected.items():
        if not isinstance(seat, Mapping) or not set(seat) <= set(actual[name]):
            return False
        for zone, cards in seat.items():
            same = _multiset(cards) == _multiset(actual[name][zone]) if zone == "hand" else cards == actual[name][zone]
            if not same:
                return False
    return True


def _multiset(cards: Any) -> Counter[str] | Any:
    """A hand as a multiset; whatever an expectation holds instead of a list (a number, lists) stays comparable."""
    if not isinstance(cards, list):
        return cards
    return Counter(json.dumps(card, sort_keys=True) for card in cards)


def run_scenario_file(path: Path, registry: GameRegistry) -> ScenarioResult:
    """Run one file; never raises for bad input, the problem goes into the result."""
    try:
        data = read_scenario(path, registry)
        state = play_scenario(data, registry)
    except ScenarioError as exc:
        return ScenarioResult(str(path), False, [str(exc)])
    problems = compare(data.get("expect", {}), state)
    return ScenarioResult(str(path), not problems, problems, state.position())
