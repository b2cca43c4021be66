"""The plugin interface: declared options, the registry, and the defaults a game gets for free."""

from __future__ import annotations

import random

import pytest

from cardlab.core.errors import CardlabError, PositionError
from cardlab.core.plugin import (
    Choice,
    ConfigOption,
    GameRegistry,
    PlainRenderer,
    draw_random_seats,
    seat_values,
)
from cardlab.games import REGISTRY, game_class, game_names

SEATED = ConfigOption("decks", "decks", (Choice("D1"), Choice("D2")), per_seat=True, optional=True, example="D1,D2")
PICK = ConfigOption("deck", "deck", (Choice("full"), Choice("short")))


def test_a_per_seat_option_reads_two_values() -> None:
    assert SEATED.parse_text("D1, D2") == ("D1", "D2")
    assert PICK.parse_text("full") == "full"
    for bad in ("D1", "D1,", "D1,D2,D1"):
        with pytest.raises(CardlabError, match=r"--decks takes two values separated by a comma, e\.g\. D1,D2"):
            SEATED.parse_text(bad)


def test_a_browser_may_send_listed_choices_only() -> None:
    assert SEATED.check_web({"P1": "D2", "P2": ""}) == ("D2", "")
    assert PICK.check_web("short") == "short"
    for option, value, field in (
        (SEATED, {"P1": "decks/mine.toml", "P2": "D1"}, "options.decks.P1"),
        (SEATED, ["D1", "D2"], "options.decks"),
        (PICK, "huge", "options.deck"),
        (ConfigOption("cards", "files", repeatable=True, web=False), ["x.toml"], "options.cards"),
    ):
        with pytest.raises(PositionError) as error:
            option.check_web(value)
        assert error.value.field == field


def test_random_seats_are_drawn_from_the_rng() -> None:
    drawn = {draw_random_seats(("random", "B"), ("A", "C", "D"), random.Random(seed)) for seed in range(20)}
    assert {pair[1] for pair in drawn if pair} == {"B"} and len(drawn) == 3
    assert draw_random_seats(("A", "B"), ("C",), random.Random(0)) == ("A", "B")
    assert seat_values(("D1", "")) == ("D1", None) and seat_values(None) == (None, None)


def test_the_registry_imports_a_game_when_asked_and_refuses_unknown_names() -> None:
    registry = GameRegistry({"kuhn": "tests.toygame:Kuhn"})
    assert registry.names == ("kuhn",) and registry.game_class("kuhn").name == "kuhn"
    for name in ("chess", ["kuhn"], None):
        with pytest.raises(ValueError, match="unknown game"):
            registry.game_class(name)  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="unknown game 'chess'"):
        registry.load_position({"game": "chess"})
    assert registry.extra() == {}
    registry.register("other", "tests.toygame:Kuhn")
    assert registry.extra() == {"other": "tests.toygame:Kuhn"}


def test_every_game_declares_what_tools_need() -> None:
    for name in game_names():
        cls = game_class(name)
        assert cls.name == name and cls.title and cls.credit
        assert cls.profile() is not None and cls.lab() is not None and cls.heuristic() is not None
        assert {"render.js", "style.css", "rules.html"} == set(cls.web_assets())
        for option in cls.options:
            assert option.help and (option.choices or not option.web), (name, option.name)
        game = cls.from_options({option.name: None for option in cls.options}, random.Random(0))
        assert game.config_json() == cls().config_json(), name  # no option given: the default game


def test_a_game_without_options_refuses_them() -> None:
    REGISTRY.register("kuhn", "tests.toygame:Kuhn")
    try:
        from cardlab.core.game import Game

        with pytest.raises(CardlabError, match="has no option 'deck'"):
            Game.from_options.__func__(game_class("kuhn"), {"deck": "jqk"}, random.Random(0))  # type: ignore[attr-defined]
    finally:
        REGISTRY.unregister("kuhn")


def test_the_plain_renderer_shows_every_field() -> None:
    renderer = PlainRenderer()
    assert renderer.render_board({"pot": 3, "history": ["BET"]}) == "pot: 3\nhistory: ['BET']"
    assert renderer.event_text({"kind": "x", "type": "bet", "player": "P1"}) == "bet: kind x, player P1"
