"""`cardlab games`, `cardlab --version`, and per-game command-line options."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib.metadata import version

import pytest

from cardlab.cli import main
from cardlab.core.profile import GameProfile
from cardlab.games import game_class, game_names
from tests.every_game import every_game, toy_games_registered


@pytest.fixture(autouse=True)
def toy_games() -> Iterator[None]:
    with toy_games_registered():  # the toy game is a registered game like any other here
        yield


def test_version(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out.strip() == f"cardlab {version('cardlab')}"


def test_games_prints_every_profile_with_its_rule_ids(capsys) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert set(every_game()) <= set(game_names())
    for name in game_names():
        cls = game_class(name)
        profile = cls.profile()
        assert cls.title in out
        if profile is None:  # a game may declare none (the toy game): listed by its title only
            continue
        for label, _text, rule in profile.lines():
            assert label in out and rule.split(",")[0] in out, (name, label)


@pytest.mark.parametrize("name", every_game())
def test_games_json_is_the_same_profile(capsys, name: str) -> None:
    assert main(["games", name, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["name"] == name and data["title"] == game_class(name).title
    profile = game_class(name).profile()
    if profile is None:  # the game declares none
        assert data["profile"] is None
        return
    assert data["profile"] == profile.to_json()
    assert list(data["profile"]["entries"]) == [field for field, _label in GameProfile.FIELDS]
    assert all(entry["rule"] for entry in data["profile"]["entries"].values())


@pytest.mark.parametrize("name", game_names())
def test_games_lists_every_card_in_player_words(capsys, name: str) -> None:
    """`cardlab games GAME --cards` and the JSON's `cards`: the game's whole catalog, each as `card ID` shows it."""
    game = game_class(name)()
    catalog = game.card_catalog()
    assert catalog and all(game.card_words(card) is not None for card in catalog)
    assert main(["games", name, "--cards"]) == 0
    out = capsys.readouterr().out
    assert f"{len(catalog)} cards" in out
    for card in catalog:
        words = game.card_words(card)
        assert words is not None and words.name in out, card
    assert main(["games", name, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cards"] == {card: game.card_text(card) for card in catalog}


def test_a_designers_card_file_joins_the_catalog(tmp_path) -> None:
    """A card the designer files (A21, `--cards`) is listed like a packaged one."""
    cards = tmp_path / "mine.toml"
    cards.write_text('[[cards]]\ntype = "subordinate"\nid = "S90"\nname = "Test Squire"\ncost = 1\nattack = 1\n'
                     'hp = 2\ndominance = 1\nraces = ["human"]\nabilities = []\n')  # fmt: skip
    game = game_class("aterial").from_config({"decks": {"P1": "D1", "P2": "D2"}, "cards": [str(cards)]})
    assert game.card_catalog()[-1] == "S90" and "Test Squire" in game.card_text("S90")


def test_games_of_an_unknown_game_is_refused(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["games", "chess"])
    assert exit_info.value.code == 2


@pytest.mark.parametrize("name", every_game())
@pytest.mark.parametrize("command", ["simulate", "play", "ladder"])
def test_each_game_shows_its_own_options_only(capsys, command: str, name: str) -> None:
    with pytest.raises(SystemExit):
        main([command, name, "--help"])
    out = capsys.readouterr().out
    for other in game_names():
        for option in game_class(other).options:
            shown = f"{option.flag} " in out or f"{option.flag}\n" in out
            assert shown == any(o.name == option.name for o in game_class(name).options), (other, option.flag)


def test_an_option_of_another_game_is_named_as_such(capsys) -> None:
    assert main(["simulate", "aterial", "--characters", "GARU,EAGLE"]) == 2
    assert "--characters is not an option of `simulate aterial`" in capsys.readouterr().err


def test_a_random_character_is_drawn_from_the_seed(capsys) -> None:
    argv = ["simulate", "edelweiss", "--characters", "random,EAGLE", "--games", "2", "--json"]
    drawn = {json.dumps(_summary(capsys, [*argv, "--seed", str(seed)])["config"]) for seed in range(6)}
    assert all(json.loads(config)["characters"]["P2"] == "EAGLE" for config in drawn)
    assert len(drawn) > 1  # P1's character depends on the seed
    assert _summary(capsys, [*argv, "--seed", "3"])["config"] == _summary(capsys, [*argv, "--seed", "3"])["config"]


def _summary(capsys, argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)
