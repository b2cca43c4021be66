"""Terminal play: a person's choices from stdin against the random opponent."""

from __future__ import annotations

import io

import pytest

from cardlab.cli import main


def _play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], answers: str, *argv: str) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    game = "edelweiss" if not argv or argv[0] != "aterial" else "aterial"
    assert main(["play", game, *(argv[1:] if game == "aterial" else argv)]) == 0
    return capsys.readouterr().out


def test_always_choosing_the_first_action_plays_a_whole_game(monkeypatch, capsys) -> None:
    out = _play(monkeypatch, capsys, "1\n" * 200, "--seed", "3")
    assert "Game over:" in out
    assert ("You win" in out) != ("You lose" in out)
    assert "SUMMON" in out and "deck:" in out and "hand:" in out


def test_board_shows_own_hand_fields_counts_and_hint(monkeypatch, capsys) -> None:
    out = _play(monkeypatch, capsys, "q\n", "--seed", "3")
    assert "you are P1" in out
    assert "Opponent" in out and "field:" in out and "deck: " in out and "discard: " in out
    assert "Summon one non-diamond card" in out  # the window's rule hint
    assert "1 SUMMON" in out


def test_illegal_input_is_explained_and_asked_again(monkeypatch, capsys) -> None:
    out = _play(monkeypatch, capsys, "BLOCK\nq\n", "--seed", "3")
    assert "illegal action 'BLOCK'" in out
    assert out.count("choose (number or action") == 2


def test_seat_p2_and_skills_options(monkeypatch, capsys) -> None:
    out = _play(monkeypatch, capsys, "1\n" * 200, "--seat", "P2", "--standard", "accel2",
                "--characters", "VIRIDIAN,EAGLE", "--seed", "5")  # fmt: skip
    assert "you are P2" in out
    assert "Game over:" in out


def test_opponent_draws_are_not_shown(monkeypatch, capsys) -> None:
    out = _play(monkeypatch, capsys, "1\n" * 200, "--seed", "8")
    assert "P2 draws a card." in out
    assert all(not line.strip().startswith("· P2 draws ") or "a card" in line for line in out.splitlines())


def test_aterial_at_the_terminal_shows_the_grid_and_plays_to_the_end(monkeypatch, capsys) -> None:
    out = _play(monkeypatch, capsys, "1\n" * 2000, "aterial", "--seed", "3", "--vs", "heuristic")
    assert "col 0" in out and "P1 F" in out and "P2 B" in out  # both 2x3 fields
    assert "LP " in out and "your hand:" in out
    assert "Keep these 5 cards" in out  # the mulligan hint
    assert "Game over:" in out


def test_aterial_opponent_hand_stays_hidden(monkeypatch, capsys) -> None:
    out = _play(monkeypatch, capsys, "1\n" * 50 + "q\n", "aterial", "--seed", "4", "--seat", "P2")
    assert "P1 draws a card." in out
    assert not any(line.strip().startswith("· P1 draws S") for line in out.splitlines())
