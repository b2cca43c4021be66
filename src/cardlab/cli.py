"""The `cardlab` command line: scenarios, terminal play and simulation."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console

from cardlab.core.errors import CardlabError
from cardlab.core.rng import derive_seed
from cardlab.core.scenario import run_scenario_file


def _edelweiss_game(args: argparse.Namespace) -> object:
    from cardlab.games.edelweiss import Edelweiss, EdelweissConfig

    characters = None
    if args.characters:
        parts = [part.strip().upper() for part in args.characters.split(",")]
        if len(parts) != 2:
            raise CardlabError("--characters takes two IDs separated by a comma, e.g. VIRIDIAN,EAGLE")
        characters = (parts[0], parts[1])
    deck = args.deck or ("skills" if args.standard or characters else "full")
    standard = args.standard or ("symbolic" if deck == "skills" else None)
    return Edelweiss(EdelweissConfig(deck, standard, characters))


def _add_game_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=["edelweiss"], help="which game")
    parser.add_argument("--deck", choices=["full", "short", "skills"], help="deck variant (E1.1); default full")
    parser.add_argument("--standard", choices=["symbolic", "accel2"], help="skill standard (implies --deck skills)")
    parser.add_argument("--characters", help="P1,P2 character IDs, e.g. VIRIDIAN,EAGLE (implies --deck skills)")
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")


def cmd_scenario_run(args: argparse.Namespace, console: Console) -> int:
    failed = 0
    for path in args.files:
        result = run_scenario_file(Path(path))
        failed += not result.passed
        print(result.line())
        if args.print and result.final is not None:
            print(json.dumps(result.final, indent=2))
    return 1 if failed else 0


def cmd_simulate(args: argparse.Namespace, console: Console) -> int:
    """Random against random with seats alternating; wins per seat and speed."""
    from cardlab.agents import RandomAgent
    from cardlab.sim import play_match

    if args.games < 1:
        raise CardlabError("--games must be at least 1")
    game = _edelweiss_game(args)
    agents = (RandomAgent(), RandomAgent())
    seat_wins = [0, 0]
    decisions = 0
    start = time.perf_counter()
    for index in range(args.games):
        record = play_match(game, agents, derive_seed(args.seed, index))
        seat_wins[record.winner or 0] += 1
        decisions += record.decisions
    elapsed = time.perf_counter() - start
    summary = {
        "game": "edelweiss",
        "config": game.config.to_json(),  # type: ignore[attr-defined]
        "games": args.games,
        "seed": args.seed,
        "wins": {"P1": seat_wins[0], "P2": seat_wins[1]},
        "first_player_win_rate": seat_wins[0] / args.games if args.games else None,
        "decisions": decisions,
        "seconds": round(elapsed, 3),
        "games_per_second": round(args.games / elapsed, 1) if elapsed else None,
    }
    if args.json:
        print(json.dumps(summary))
        return 0
    from rich.table import Table

    table = Table(title=f"edelweiss {game.config.deck} · random vs random · {args.games} games")  # type: ignore[attr-defined]
    table.add_column("seat")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    for seat, wins in zip(("P1 (first)", "P2 (second)"), seat_wins, strict=True):
        table.add_row(seat, str(wins), f"{wins / max(args.games, 1):.1%}")
    console.print(table)
    console.print(f"{summary['games_per_second']} games/s, {decisions / max(elapsed, 1e-9):,.0f} decisions/s")
    return 0


def cmd_play(args: argparse.Namespace, console: Console) -> int:
    from cardlab.play.terminal import play_edelweiss

    return play_edelweiss(_edelweiss_game(args), args, console)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardlab", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    scenario = commands.add_parser("scenario", help="conformance scenarios (E14.6)")
    scenario_commands = scenario.add_subparsers(dest="scenario_command", required=True)
    run = scenario_commands.add_parser("run", help="run scenario files; exit 1 if any fails")
    run.add_argument("files", nargs="+", help="scenario JSON files")
    run.add_argument("--print", action="store_true", help="print each final position JSON")
    run.set_defaults(handler=cmd_scenario_run)

    play = commands.add_parser("play", help="play at the terminal against a random opponent")
    _add_game_options(play)
    play.add_argument("--seat", choices=["P1", "P2"], default="P1", help="your seat (default P1)")
    play.set_defaults(handler=cmd_play)

    simulate = commands.add_parser("simulate", help="random vs random games, seats alternating")
    _add_game_options(simulate)
    simulate.add_argument("--games", type=int, default=10_000, help="number of games (default 10000)")
    simulate.add_argument("--json", action="store_true", help="print one JSON object")
    simulate.set_defaults(handler=cmd_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    console = Console()
    try:
        return int(args.handler(args, console))
    except CardlabError as exc:
        print(f"cardlab: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
