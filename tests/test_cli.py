"""The `cardlab` command line: simulate output, errors without tracebacks."""

from __future__ import annotations

import json

import pytest

from cardlab.cli import main


def _simulate(capsys: pytest.CaptureFixture[str], *extra: str) -> dict:
    assert main(["simulate", "edelweiss", "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_simulate_json_counts_every_game_once(capsys) -> None:
    summary = _simulate(capsys, "--games", "40", "--seed", "3", "--workers", "1")
    assert summary["games"] == 40
    assert summary["agents"] == ["random", "random"]
    assert sum(summary["wins"]) == 40
    assert summary["win_rate"] == [w / 40 for w in summary["wins"]]
    assert all(low <= rate <= high for (low, high), rate in zip(summary["ci95"], summary["win_rate"], strict=True))
    assert summary["seat_wins"]["P1"] + summary["seat_wins"]["P2"] == 40
    assert summary["first_player_win_rate"] == summary["seat_wins"]["P1"] / 40
    assert summary["games_per_second"] > 0
    assert summary["decisions"] >= 40  # every game asks at least one real question


@pytest.mark.parametrize("engine", ["reference", "cpu"])
def test_simulate_head_to_head_swaps_seats(capsys, engine: str) -> None:
    """Each agent sits first in exactly half the deals, so P1's wins track the games, not the heuristic.

    The heuristic beats random nearly always from either seat. With the seats swapped per deal it is P1
    in 30 of the 60 games, so P1 wins 30 games give or take the games the heuristic did not win; were it
    always P1, P1's wins would equal its wins (~60), and were its swapped games still credited to random,
    its own wins would drop to ~30.
    """
    if engine == "cpu":
        pytest.importorskip("numba")
    games = 60
    summary = _simulate(
        capsys, "--games", str(games), "--agents", "heuristic,random", "--standard", "symbolic", "--engine", engine
    )
    assert summary["agents"] == ["heuristic", "random"]
    heuristic_wins, random_wins = summary["wins"]
    assert heuristic_wins > 0.75 * games  # the heuristic wins almost every game, from either seat
    assert heuristic_wins + random_wins + summary["draws"] == games
    # P1 wins = heuristic wins as P1 + random wins as P1; the heuristic was P1 in games/2 deals, so P1's wins
    # stray from games/2 by no more than the games the heuristic did not win.
    p1_wins = summary["seat_wins"]["P1"]
    assert abs(p1_wins - games / 2) <= games - heuristic_wins, summary["seat_wins"]
    assert summary["first_player_win_rate"] == p1_wins / games


def test_simulate_is_reproducible_from_its_seed_whatever_the_workers(capsys) -> None:
    first = _simulate(capsys, "--games", "30", "--seed", "11", "--standard", "accel2", "--workers", "1")
    second = _simulate(capsys, "--games", "30", "--seed", "11", "--standard", "accel2", "--workers", "2")
    other = _simulate(capsys, "--games", "30", "--seed", "12", "--standard", "accel2")
    keys = ("wins", "decisions", "config", "first_player_win_rate")
    assert [first[k] for k in keys] == [second[k] for k in keys]
    assert first["config"] == {"deck": "skills", "standard": "accel2", "characters": None}
    assert (first["wins"], first["decisions"]) != (other["wins"], other["decisions"])


def test_simulate_table_output(capsys) -> None:
    assert main(["simulate", "edelweiss", "--games", "10", "--deck", "short"]) == 0
    out = capsys.readouterr().out
    assert "random" in out and "first player wins" in out and "games/s" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "edelweiss", "--games", "0"], "--games must be at least 1"),
        (["simulate", "edelweiss", "--characters", "GARU"], "--characters takes two values"),
        (["simulate", "aterial", "--standard", "accel2"], "--standard is not an option of `simulate aterial`"),
        (["simulate", "edelweiss", "--decks", "D1,D2"], "--decks is not an option of `simulate edelweiss`"),
        (["simulate", "aterial", "--decks", "D1,D9"], "D9"),
        (["simulate", "edelweiss", "--characters", "GARU,NOBODY"], "unknown character 'NOBODY'"),
        (["simulate", "edelweiss", "--deck", "full", "--standard", "accel2"], "only with the 'skills' deck"),
        (["simulate", "edelweiss", "--agents", "random"], "two agent specs separated by a comma"),
        (["simulate", "edelweiss", "--agents", "random,wizard"], "unknown agent 'wizard'"),
        (["balance", "edelweiss", "--agent", "ismcts:iterations=x"], "is not a valid int"),
        (["balance", "edelweiss", "--games", "0"], "--games must be at least 1"),
    ],
)
def test_bad_options_get_a_clear_error(capsys, argv: list[str], message: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


def test_unknown_game_is_rejected_by_the_parser(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["simulate", "chess"])
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_simulate_aterial_head_to_head(capsys) -> None:
    aterial = json.loads(
        _run(
            capsys,
            [
                "simulate",
                "aterial",
                "--games",
                "20",
                "--agents",
                "heuristic,random",
                "--workers",
                "1",
                "--json",
                "--first",
                "P2",
            ],
        )
    )
    assert aterial["game"] == "aterial" and aterial["config"]["first"] == "P2"
    assert aterial["wins"][0] >= 18


def _run(capsys: pytest.CaptureFixture[str], argv: list[str], code: int = 0) -> str:
    assert main(argv) == code
    return capsys.readouterr().out


def test_deck_validate_accepts_the_starter_decks(capsys) -> None:
    from importlib import resources

    for deck in ("D1", "D2"):
        path = resources.files("cardlab.games.aterial") / "data" / "decks" / f"{deck}.toml"
        assert f"deck {deck}" in _run(capsys, ["deck", "validate", "aterial", str(path)])


def test_deck_validate_lists_every_violation_with_its_rule(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('[[deck]]\nid = "X"\nname = "Bad"\nleader = "S01"\ncards = { S01 = 5, L02 = 1, S99 = 2 }\n')
    out = _run(capsys, ["deck", "validate", "aterial", str(bad)], code=1)
    for rule in ("A5.1", "A5.2", "A5.3", "A5.5", "A5.4"):
        assert f": {rule}: " in out


def test_deck_validate_names_the_line_of_a_malformed_file(tmp_path, capsys) -> None:
    bad = tmp_path / "broken.toml"
    bad.write_text('[[deck]]\nid = "X"\nname = \n')
    assert main(["deck", "validate", "aterial", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:3: A21.1: invalid TOML" in err and "Traceback" not in err


def test_own_card_and_deck_files_are_added_to_the_sample_set(tmp_path, capsys) -> None:
    cards = tmp_path / "mine.toml"
    cards.write_text(
        '[[cards]]\ntype = "subordinate"\nid = "X01"\nname = "Test Golem"\ncost = 1\nattack = 2\n'
        'hp = 2\ndominance = 1\nraces = ["machine"]\nabilities = [{ key = "armor", amount = 1 }]\n'
    )
    deck = tmp_path / "mine_deck.toml"
    deck.write_text(
        '[[deck]]\nid = "M1"\nname = "Mine"\nleader = "L05"\n'
        "cards = { X01 = 4, S01 = 4, S09 = 4, S18 = 4, S23 = 4, S29 = 4, S33 = 4, S41 = 2 }\n"
    )
    assert "is legal" in _run(capsys, ["deck", "validate", "aterial", str(deck), "--cards", str(cards)])
    # Without the card file the deck names an unknown card (A5.5).
    assert "A5.5" in _run(capsys, ["deck", "validate", "aterial", str(deck)], code=1)
    summary = json.loads(
        _run(
            capsys,
            [
                "simulate",
                "aterial",
                "--decks",
                f"{deck},D2",
                "--cards",
                str(cards),
                "--games",
                "4",
                "--workers",
                "1",
                "--json",
            ],
        )
    )
    assert summary["config"]["decks"]["P1"] == str(deck) and sum(summary["wins"]) == 4


def test_deck_validate_dreadnought(tmp_path, capsys) -> None:
    from importlib import resources

    path = resources.files("cardlab.games.dreadnought") / "data" / "decks" / "tide_grove.toml"
    assert "is legal" in _run(capsys, ["deck", "validate", "dreadnought", str(path)])
    bad = tmp_path / "bad.toml"
    bad.write_text('[[deck]]\nname = "Bad"\ncasters = ["X01", "X01", "X02"]\ncards = { R01 = 5 }\n')
    out = _run(capsys, ["deck", "validate", "dreadnought", str(bad)], code=1)
    for rule in ("D3.1", "D3.2", "D3.3"):
        assert f": {rule}: " in out


def test_progress_rates_of_slow_searches_are_not_rounded_to_zero() -> None:
    from cardlab.cli import _games_per_second

    assert _games_per_second(12_345.6) == "12,346 games/s"
    assert _games_per_second(0.1734) == "0.17 games/s" and _games_per_second(3.46) == "3.5 games/s"


def test_serve_keeps_idle_connections_longer_than_client_pools(tmp_path, monkeypatch, capsys) -> None:
    """The server outlasts httpx's 5 s idle pool, so a reused connection never races its close."""
    uvicorn = pytest.importorskip("uvicorn")
    pytest.importorskip("fastapi")
    runs: list[dict] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: runs.append(options))
    db = str(tmp_path / "web.sqlite")
    assert main(["serve", "--db", db]) == 0
    assert main(["serve", "--db", db, "--keep-alive", "30", "--port", "8123"]) == 0
    assert [run["timeout_keep_alive"] for run in runs] == [75, 30]
    assert runs[1]["port"] == 8123
    assert main(["serve", "--db", db, "--keep-alive", "0"]) == 2
    assert "--keep-alive must be a positive number of seconds" in capsys.readouterr().err
    assert len(runs) == 2
