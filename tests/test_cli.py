"""The `cardlab` command line: simulate output, errors without tracebacks."""

from __future__ import annotations

import json

import pytest

from cardlab.cli import main


def _simulate(capsys: pytest.CaptureFixture[str], *extra: str) -> dict:
    assert main(["simulate", "edelweiss", "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_simulate_json_counts_every_game_once(capsys) -> None:
    summary = _simulate(capsys, "--games", "40", "--seed", "3")
    assert summary["games"] == 40
    assert summary["wins"]["P1"] + summary["wins"]["P2"] == 40
    assert summary["first_player_win_rate"] == summary["wins"]["P1"] / 40
    assert summary["games_per_second"] > 0
    assert summary["decisions"] >= 40  # every game asks at least one real question


def test_simulate_is_reproducible_from_its_seed(capsys) -> None:
    first = _simulate(capsys, "--games", "30", "--seed", "11", "--standard", "accel2")
    second = _simulate(capsys, "--games", "30", "--seed", "11", "--standard", "accel2")
    other = _simulate(capsys, "--games", "30", "--seed", "12", "--standard", "accel2")
    keys = ("wins", "decisions", "config")
    assert [first[k] for k in keys] == [second[k] for k in keys]
    assert first["config"] == {"deck": "skills", "standard": "accel2", "characters": None}
    assert (first["wins"], first["decisions"]) != (other["wins"], other["decisions"])


def test_simulate_table_output(capsys) -> None:
    assert main(["simulate", "edelweiss", "--games", "10", "--deck", "short"]) == 0
    out = capsys.readouterr().out
    assert "P1 (first)" in out and "games/s" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "edelweiss", "--games", "0"], "--games must be at least 1"),
        (["simulate", "edelweiss", "--characters", "GARU"], "two IDs"),
        (["simulate", "edelweiss", "--characters", "GARU,NOBODY"], "unknown character 'NOBODY'"),
        (["simulate", "edelweiss", "--deck", "full", "--standard", "accel2"], "only with the 'skills' deck"),
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
