"""Terminal play: a person's choices from stdin against the random opponent."""

from __future__ import annotations

import io
import json

import pytest

from cardlab.cli import main
from cardlab.games import game_class, game_names


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
    out = _play(
        monkeypatch,
        capsys,
        "1\n" * 200,
        "--seat",
        "P2",
        "--standard",
        "accel2",
        "--characters",
        "VIRIDIAN,EAGLE",
        "--seed",
        "5",
    )
    assert "you are P2" in out
    assert "Game over:" in out


def test_opponent_draws_are_not_shown(monkeypatch, capsys) -> None:
    out = _play(monkeypatch, capsys, "1\n" * 200, "--seed", "8")
    assert "P2 draws a card." in out
    assert all(not line.strip().startswith("· P2 draws ") or "a card" in line for line in out.splitlines())


ANY_CHOICE = "".join(f"{number}\n" for number in range(1, 10))
"""Typed over and over, plays some choice of every decision: a number once played is not given again while
its decision lasts (#51 item 4), so typing 1 forever would stall on a refusal."""


def test_aterial_at_the_terminal_shows_the_grid_and_plays_to_the_end(monkeypatch, capsys) -> None:
    out = _play(monkeypatch, capsys, ANY_CHOICE * 500, "aterial", "--seed", "3", "--vs", "heuristic")
    assert "col 0" in out and "P1 F" in out and "P2 B" in out  # both 2x3 fields
    assert "LP " in out and "your hand (cost · ATK/HP" in out
    assert "Keep these 5 cards" in out  # the mulligan hint
    assert "Game over:" in out


def test_aterial_opponent_hand_stays_hidden(monkeypatch, capsys) -> None:
    out = _play(monkeypatch, capsys, "1\n" * 50 + "q\n", "aterial", "--seed", "4", "--seat", "P2")
    assert "P1 draws a card." in out
    assert not any(line.strip().startswith("· P1 draws S") for line in out.splitlines())


def test_undo_takes_back_the_last_decision_and_the_replies(monkeypatch, capsys) -> None:
    out = _play(monkeypatch, capsys, "1\n1\nundo\nq\n", "--seed", "3", "--vs", "heuristic")
    assert "undone: back to your previous decision" in out
    panels = out.split("╭")[1:]  # one board panel per decision asked
    assert len(panels) == 4  # decisions 1, 2 and 3 asked, then decision 3 undone
    board = lambda panel: panel.split("╰")[0]  # noqa: E731
    assert board(panels[3]) == board(panels[1])  # back at the second decision's position
    assert board(panels[2]) != board(panels[1])


def test_session_undo_restores_the_exact_position() -> None:
    from rich.console import Console

    from cardlab.games.aterial import Aterial
    from cardlab.play.terminal import Session, _undo

    session = Session(Aterial(), seed=2, seat=0, vs="heuristic")
    state = session.game.new_state(2)
    positions = []
    for _ in range(12):
        actor = state.current_player()
        assert actor is not None
        if actor == 0:
            positions.append((len(session.history), state.position()))
        action = str(state.legal_actions()[-1])
        state.apply(action)
        session.history.append((actor, action))
    while session.history and session.history[-1][0] != 0:
        session.history.pop()  # the opponent's replies are taken back with the decision
    expected_length, expected = positions[-1]
    state, _ = _undo(session, state, Console(file=io.StringIO()))
    assert len(session.history) == expected_length
    assert state.position() == expected


def test_undo_with_nothing_to_undo(monkeypatch, capsys) -> None:
    out = _play(monkeypatch, capsys, "undo\nq\n", "--seed", "3")
    assert "nothing to undo" in out


def test_save_and_load_continue_the_same_game(monkeypatch, capsys, tmp_path) -> None:
    saved = tmp_path / "game.json"
    first = _play(monkeypatch, capsys, f"1\n1\nsave {saved}\nq\n", "--seed", "5", "--vs", "heuristic")
    assert "saved to" in first
    data = json.loads(saved.read_text())
    assert data["game"] == "edelweiss" and data["seed"] == 5 and len(data["actions"]) >= 2
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "edelweiss", "--load", str(saved)]) == 0
    resumed = capsys.readouterr().out
    board = [line for line in first.splitlines() if "Turn " in line][-1]
    assert board in resumed  # the same position, shown again


def test_load_rejects_a_tampered_file(monkeypatch, capsys, tmp_path) -> None:
    saved = tmp_path / "bad.json"
    saved.write_text(
        json.dumps(
            {
                "game": "edelweiss",
                "config": {"deck": "full", "standard": None, "characters": None},
                "seed": 1,
                "seat": "P1",
                "vs": "random",
                "actions": ["BLOCK"],
            }
        )
    )
    assert main(["play", "edelweiss", "--load", str(saved)]) == 2
    assert "actions[0]" in capsys.readouterr().err


def test_a_skills_game_shows_the_standard_and_both_characters_with_their_skills(monkeypatch, capsys) -> None:
    """Issue #16 item 2 (E7, E9): the terminal board names the standard and each side's character."""
    out = _play(monkeypatch, capsys, "q\n", "--standard", "accel2", "--characters", "VIRIDIAN,EAGLE")
    assert "Accel 2 standard" in out
    assert "you: P1 VIRIDIAN" in out and "Guardian" in out
    assert "opponent: P2 EAGLE" in out and "Wizard" in out
    plain = _play(monkeypatch, capsys, "q\n", "--deck", "short")
    assert "standard" not in plain and "opponent:" not in plain


@pytest.mark.parametrize(
    ("game", "card", "facts"),
    [
        ("edelweiss", "7H", ["7♥ — heart", "Enters your field upright (E4.2)"]),
        ("aterial", "S02", ["S02 Hearth Acolyte", "cost 0", "dominance 1", "Tap heal: tap it"]),
        ("dreadnought", "X02", ["X02 Sable Kurenai", "caster", "HP 3", "The attack deals 20 more damage"]),
    ],
)
def test_help_and_card_work_in_every_game(monkeypatch, capsys, game: str, card: str, facts: list[str]) -> None:
    """Issue #16 item 1, #35 items 1-2: `help` lists the commands and how to win, `card ID` prints the card in
    player words, an unknown name is refused."""
    monkeypatch.setattr("sys.stdin", io.StringIO(f"help\ncard {card}\ncard NOPE\ncard\nq\n"))
    assert main(["play", game, "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "card NAME          what a card does" in out and "now: " in out and "how to win: " in out
    text = " ".join(out.split())  # the console wraps long lines
    assert all(fact in text for fact in facts), out[-2000:]
    assert "no card or keyword 'NOPE' in this game" in out and "card needs a name" in out


def test_quitting_after_a_move_asks_first_and_a_save_needs_no_question(monkeypatch, capsys, tmp_path) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\nq\nn\nq\ny\n"))
    assert main(["play", "edelweiss", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.count("quit without saving? (y/N)") == 2  # "n" kept the game going; "y" quit
    save = tmp_path / "g.json"
    monkeypatch.setattr("sys.stdin", io.StringIO(f"1\nsave {save}\nq\n"))
    assert main(["play", "edelweiss", "--seed", "3"]) == 0
    assert "quit without saving" not in capsys.readouterr().out


def test_load_refuses_a_save_of_another_game(monkeypatch, capsys, tmp_path) -> None:
    save = tmp_path / "g.json"
    monkeypatch.setattr("sys.stdin", io.StringIO(f"1\nsave {save}\nq\n"))
    assert main(["play", "edelweiss", "--seed", "3"]) == 0
    capsys.readouterr()
    assert main(["play", "aterial", "--load", str(save)]) == 2
    err = capsys.readouterr().err
    assert "is a saved edelweiss game, not aterial" in err and f"cardlab play edelweiss --load {save}" in err


def test_the_aterial_board_shows_each_hand_cards_facts_and_the_dominance_of_empty_squares(monkeypatch, capsys) -> None:
    """Issue #16 item 1 (A4.2-A4.4, A11.2): not card ids alone."""
    out = _play(monkeypatch, capsys, "1\nq\ny\n", "aterial", "--seed", "2")
    assert "S14 Shield Sister · cost 2 · 2/4 · dom 1 · armor 1" in out
    assert "· dom 2" in out  # an empty square and the dominance its neighbours supply


def test_the_aterial_observation_gives_the_supply_of_every_empty_square() -> None:
    """A11.2/A11.3: a subordinate may be deployed exactly where its cost fits the listed supply."""
    import random

    from cardlab.games.aterial import Aterial

    game = Aterial()
    checked = 0
    for seed in range(6):
        state, rng = game.new_state(seed), random.Random(seed)
        while (player := state.current_player()) is not None:
            view = state.observation(player)
            mine = view["players"][view["player"]]
            empty = {square for square, unit in mine["field"].items() if unit is None}
            assert set(mine["supply"]) == empty
            if view["window"] == "deploy_to":
                cost = game.card_set.cards[view["pending"]["card"]].cost if view.get("pending") else None
                targets = {str(action).split()[-1] for action in state.legal_actions()}
                if cost is not None:
                    assert targets == {sq for sq in empty if mine["supply"][sq] >= cost}
                    checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 0


def test_aterial_says_why_a_typed_choice_is_refused(monkeypatch, capsys) -> None:
    """#16: the rule that refuses a move, not only the legal list (A6.4 during the mulligan, A10 after it)."""
    out = _play(monkeypatch, capsys, "DEPLOY S02\nKEEP\nATTACK F1\nq\ny\n", "aterial", "--seed", "3")
    text = " ".join(out.split())  # the console wraps long lines
    assert (
        "illegal action 'DEPLOY S02': you cannot deploy a subordinate during the mulligan (A6.4); "
        "now you can keep your hand or take a mulligan" in text
    )
    assert "illegal action 'ATTACK F1': you cannot attack during the move phase (A10); now you can move a unit" in text


def _typed(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], answers: str, *argv: str) -> str:
    """The whole output of `cardlab play ...` given typed answers, wrapped lines joined."""
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    assert main(["play", *argv]) == 0
    return " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize(
    ("argv", "word", "words"),
    [
        (("edelweiss", "--standard", "accel2"), "help Poison Bind", ["Poison Bind:", "(E8.4, E8.5)"]),
        (("edelweiss",), "help counter", ["counter: After a diamond guard", "(E5.4)"]),
        (("aterial",), "help tap_heal", ["tap heal: In your action phase, tap this ready unit", "(A17.17, A16.4)"]),
        (("aterial",), "card Flank", ["flank: Extra attack while this unit makes a side attack", "(A17.6, A12.5)"]),
        (("dreadnought",), "help GODDRAW", ["god draw: Take one normal burst into your hand", "(D17)"]),
        (("dreadnought",), "card dummy", ["dummy: Any card cast face down", "(D15)"]),
    ],
)
def test_help_word_and_card_keyword_answer_from_the_glossary(monkeypatch, capsys, argv, word, words) -> None:
    """#35 item 2: keywords, skills and key rules are explained, each with its rule ids."""
    out = _typed(monkeypatch, capsys, f"{word}\nq\n", *argv, "--seed", "2")
    assert all(text in out for text in words), out[-1500:]


def test_card_names_a_character_and_a_skill(monkeypatch, capsys) -> None:
    """#35: `card VIRIDIAN` and `card Guardian` no longer answer "no card" (E8.1, E9)."""
    out = _typed(monkeypatch, capsys, "card VIRIDIAN\ncard guardian\nq\n", "edelweiss", "--standard", "symbolic")
    assert "VIRIDIAN Viridian Lagartija Lacerta — character · skills Guardian + Poison Bind" in out
    assert "Guardian: Defending with an empty hand, you may discard any tapped card of your field" in out
    assert "no card" not in out


@pytest.mark.parametrize("game", game_names())
def test_the_game_opens_with_how_to_win(monkeypatch, capsys, game: str) -> None:
    """#35 item 2: a 'how to win' line at the top, before the first board."""
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", game, "--seed", "1"]) == 0
    first = capsys.readouterr().out.split("\n\n")[0]
    assert first.splitlines()[0].startswith(f"{game_class(game).title} · how to win: ")


def test_action_text_is_read_in_any_case_and_with_suit_symbols(monkeypatch, capsys) -> None:
    """#35 item 6: `summon h` and `SUMMON ♥` are SUMMON H; `card 5♠` is `card 5S` (E0.2)."""
    lower = _typed(monkeypatch, capsys, "summon h\nq\ny\n", "edelweiss", "--seed", "3")
    assert "P1 summons 5♥, upright." in lower and "illegal action" not in lower
    symbol = _typed(monkeypatch, capsys, "SUMMON ♥\nq\ny\n", "edelweiss", "--seed", "3")
    assert "P1 summons 5♥, upright." in symbol
    card = _typed(monkeypatch, capsys, "card 5♠\ncard 5s\nq\n", "edelweiss", "--seed", "3")
    assert card.count("5♠ — spade") == 2
    aterial = _typed(monkeypatch, capsys, "keep\nend_move\nq\ny\n", "aterial", "--seed", "3")
    assert "P1 keeps the opening hand." in aterial and "illegal action" not in aterial
    assert "Deploy a subordinate where the dominance supply covers its cost" in aterial  # END_MOVE was played


def test_a_number_off_the_list_says_which_numbers_there_are(monkeypatch, capsys) -> None:
    out = _typed(monkeypatch, capsys, "9\n0\nq\n", "edelweiss", "--seed", "3")
    assert out.count("choose 1–2: there is no choice") == 2 and "unknown action" not in out


def test_help_card_and_refusals_do_not_reprint_the_board(monkeypatch, capsys) -> None:
    """#35 item 6: the answer stays on screen; the board comes back only once something happened."""
    out = _typed(monkeypatch, capsys, "help\ncard 7H\nhelp block\nBLOCK\n9\n1\nq\ny\n", "edelweiss", "--seed", "3")
    assert out.count("Turn 1 · P1's turn") == 1  # drawn once for all five answers
    assert "illegal action 'BLOCK': you cannot block with an upright heart during your main step" in out
    assert "Turn 3 · P1's turn" in out  # after the move (and the opponent's turn) the board is drawn again


def test_options_are_numbered_in_the_order_shown() -> None:
    """#35 item 4: a renderer may group options out of their legal order; number N is the N-th shown."""
    from rich.console import Console

    from cardlab.play.terminal import _print_options

    console = Console(file=io.StringIO(), width=80, color_system=None)
    legal = ["DONE", "CAST R05", "DUMMY R05 BA1", "MOVE BA1.U1"]
    shown = _print_options(console, [("R05 Flame Burst (cost 1)", [1, 2]), ("your BA1 unit 1", [3]), ("", [0])], legal)
    assert shown == {1: 1, 2: 2, 3: 3, 4: 0}
    printed = console.file.getvalue()  # type: ignore[attr-defined]
    assert "R05 Flame Burst (cost 1): 1 CAST  2 DUMMY BA1" in printed  # the id the heading names is left out
    assert "your BA1 unit 1: 3 MOVE BA1.U1" in printed and "  4 DONE" in printed


def test_a_typed_number_plays_the_option_shown_with_it(monkeypatch, capsys) -> None:
    """Dreadnought groups its options by card; the number printed after a card's name sets that card aside
    in the mulligan (D4.6), whatever its place in the legal list."""
    import re

    monkeypatch.setattr("sys.stdin", io.StringIO("1\nq\ny\n"))
    assert main(["play", "dreadnought", "--seed", "5"]) == 0
    first = " ".join(capsys.readouterr().out.split())
    offers = re.findall(r"([A-Z]\d\d) [^:()]+(?:\([^)]*\))?:? (\d+) set aside", first.split("setup: mulligan")[-1])
    assert len(offers) >= 3
    card, number = offers[-1]
    monkeypatch.setattr("sys.stdin", io.StringIO(f"1\n{number}\nq\ny\n"))
    assert main(["play", "dreadnought", "--seed", "5"]) == 0
    after = " ".join(capsys.readouterr().out.split())
    assert re.search(rf"set aside \(mulligan\): {card} ", after), (card, number)


def test_a_number_or_a_text_in_any_case_names_the_option_shown() -> None:
    """#35 items 4 and 6: number N is the N-th option on the screen, whatever its place in the legal list;
    text matches in any case, even where the game's own notation has lower case (A16.4 `tap_heal`)."""
    from rich.console import Console

    from cardlab.play.terminal import _choice

    console = Console(file=io.StringIO(), width=80, color_system=None)
    game = game_class("aterial")()
    legal = ["END_ACTION", "DEPLOY S02", "ACTIVATE B0 tap_heal"]
    shown = {1: 2, 2: 1, 3: 0}
    assert _choice(game, "1", legal, shown, console) == "ACTIVATE B0 tap_heal"
    assert _choice(game, "3", legal, shown, console) == "END_ACTION"
    assert _choice(game, "activate b0 TAP_HEAL", legal, shown, console) == "ACTIVATE B0 tap_heal"
    assert _choice(game, "4", legal, shown, console) is None
    assert "choose 1–3" in console.file.getvalue()  # type: ignore[attr-defined]


def _screens(out: str) -> list[list[str]]:
    """Each Dreadnought decision screen of a transcript: from the board's top line to the prompt."""
    screens = []
    for chunk in out.split("choose (number")[:-1]:
        start = chunk.rfind(" Dreadnought · you are")
        if start >= 0:
            screens.append([*chunk[start:].splitlines(), "choose (number ..."])
    return screens


@pytest.mark.parametrize("seed", [0, 5])
def test_dreadnought_decisions_fit_80x24_name_their_cards_and_number_remove_last(monkeypatch, capsys, seed) -> None:
    """#51 item 4: each decision (board, hint, options, prompt) fits 24 lines of 80 columns, the rest behind
    `more`; targets and abilities are named by card and place, never `TARGET P2:BA1.U1` or `USE BA2.C 0`; a
    REMOVE is numbered after every other option, so a number typed by habit never removes a unit (D8.2)."""
    import random
    import re

    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    rng = random.Random(seed)
    answers = "".join(f"{rng.choice([*range(1, 25), 51, 'more'])}\n" for _ in range(3000))
    monkeypatch.setattr("sys.stdin", io.StringIO(answers + "q\ny\n"))
    assert main(["play", "dreadnought", "--seed", str(seed)]) == 0
    out = capsys.readouterr().out
    screens = _screens(out)
    assert len(screens) > 20
    for screen in screens:
        assert len(screen) <= 24, "\n".join(screen)
        assert all(len(line) <= 80 for line in screen), "\n".join(screen)
    option_lines = "\n".join(line for line in out.splitlines() if line.startswith("  ") and "  · " not in line)
    listed = re.findall(r"(\d+) (\S+)", option_lines)
    assert not re.search(r"TARGET P\d:|USE BA\d\.|\d+ REMOVE |\d+ TARGET ", option_lines)
    assert "target " in option_lines and "more choices: type more" in out
    for screen in screens:
        shown = "\n".join(line for line in screen if line.startswith("  "))
        options = re.findall(r"(?:: |  |^  |^     )(\d+) (remove|[a-z])", shown, re.M)
        removes = [int(n) for n, word in options if word == "remove"]
        others = [int(n) for n, word in options if word != "remove"]
        assert not removes or not others or min(removes) > max(others), "\n".join(screen)
    assert listed


def test_an_option_names_the_current_bp_not_the_printed_one() -> None:
    """#51 item 4: the board says BP 160, so does the option (D13.1), with the printed BP beside it."""
    import random

    from cardlab.games.dreadnought import render

    game = game_class("dreadnought")()
    state, rng = game.new_state(1), random.Random(1)
    while state.current_player() is not None:
        view = state.observation(state.current_player())
        units = [(seat, area, k) for seat in ("P1", "P2") for area in ("BA1", "BA2")
                 for k, unit in enumerate((view["players"][seat].get(area) or {}).get("units") or [])
                 if not unit.get("dummy")]  # fmt: skip
        if units:
            break
        state.apply(rng.choice(state.legal_actions()))
    seat, area, k = units[0]
    unit = view["players"][seat][area]["units"][k]
    printed = game.card_set.by_id[unit["card"]].bp
    unit["bp"] = printed + 60  # as a boost or static would leave it
    label = render.option_labels(view, [f"TARGET {seat}:{area}.U{k + 1}"])[0]
    name = game.card_set.by_id[unit["card"]].name
    assert label.startswith(f"target {unit['card']} {name} (")
    assert f"BP {printed + 60}, printed {printed}" in label


def _numbered(screen: list[str]) -> dict[tuple[str, str], int]:
    """(heading, option words) -> the number a screen gives it: headed options after `heading: ` or on the
    indented lines under it, the rest on lines of their own; a unit's current BP left out."""
    import re

    lines: list[str] = []
    for line in screen:  # an option line the terminal wrapped goes on at the left margin
        if lines and lines[-1].startswith("  ") and not line.startswith((" ", "choose (")):
            lines[-1] = f"{lines[-1].rstrip()} {line.strip()}"
        else:
            lines.append(line)
    found: dict[tuple[str, str], int] = {}
    heading = ""
    for line in lines:
        if not line.startswith("  ") or "… " in line or line.startswith("  · "):
            continue
        text = re.sub(r"(?: ·|,)? BP \d+(?:, printed \d+)?", "", line.strip())
        if not line.startswith("     ") and not re.match(r"\d+ ", text):
            heading, _, text = text.partition(": ") if re.search(r": \d+ ", text) else (text, "", "")
        elif not line.startswith("     "):
            heading = ""
        for number, words in re.findall(r"(?:^|  )(\d+) (.+?)(?=  \d+ |$)", text):
            found[(heading, words.strip())] = int(number)
    return found


@pytest.mark.parametrize("seed", [0, 5])
def test_a_choice_keeps_its_number_while_its_decision_lasts(monkeypatch, capsys, seed) -> None:
    """#51 item 4: option numbers no longer shift after every action. Across the screens of one decision (the
    same turn and window, e.g. the cast actions around each cast's destination and payment, D8.2), an option
    still legal keeps the number it had, and a number once given is never given to another option, so a
    number typed by habit plays the same choice or is refused."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    import random

    rng = random.Random(seed)
    answers = "".join(f"{rng.choice(range(1, 25))}\n" for _ in range(3000))
    monkeypatch.setattr("sys.stdin", io.StringIO(answers + "q\ny\n"))
    assert main(["play", "dreadnought", "--seed", str(seed)]) == 0
    screens = _screens(capsys.readouterr().out)
    decisions: dict[str, dict[tuple[str, str], int]] = {}
    kept = 0
    for screen in screens:
        window = screen[0].split(" · first")[0]  # ` Dreadnought · you are P1 · turn 1 cast: cast actions`
        numbered = _numbered(screen)
        before = decisions.get(window, {})
        if not set(before) & set(numbered):  # nothing of it is left: a new decision, numbered afresh
            before = decisions[window] = {}
        for option, number in numbered.items():
            if option in before:
                assert before[option] == number, (option, before[option], number, "\n".join(screen))
                kept += 1
            else:
                assert number not in before.values(), (option, number, "\n".join(screen))
        before.update(numbered)
    assert kept > 10


@pytest.mark.parametrize("game", ["edelweiss", "aterial", "dreadnought"])
def test_the_game_over_line_says_why_in_words(monkeypatch, capsys, game: str) -> None:
    """#51 item 8: the terminal's (and a replay's) game-over event line says why the game ended in the game's
    WIN_REASONS words ("P2's casters have no HP left"), not a one-word reason such as "(hp)"."""
    import re

    from cardlab.core.plugin import declared_words

    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{n}\n" for n in range(1, 30)) * 300))
    assert main(["play", game, "--seed", "3"]) == 0
    line = next(line for line in capsys.readouterr().out.splitlines() if "· Game over:" in line)
    wins = declared_words(game_class(game), "WIN_REASONS").values()
    assert any(re.search(rf"wins \({text.format(winner='P.', loser='P.')}\)\.$", line) for text in wins), line
