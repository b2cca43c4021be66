"""The `cardlab` command line's options: each command's flags, a game's own from what the game declares
(`cardlab simulate GAME --help` lists that game's only). What the commands do is `cardlab.cli`."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from importlib.metadata import version
from typing import TYPE_CHECKING

from rich.console import Console

from cardlab.sim.engines import ENGINES

if TYPE_CHECKING:
    from cardlab.core.game import Game
    from cardlab.core.plugin import ConfigOption

Handler = Callable[[argparse.Namespace, Console], int]
"""A command: its arguments and the console it prints on -> its exit status."""


def _add_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup, option: ConfigOption) -> None:
    """One declared config option as a command-line flag."""
    if option.repeatable:
        parser.add_argument(option.flag, dest=option.name, action="append", help=option.help)
    elif option.choices and not option.per_seat and not option.open_choices:
        parser.add_argument(option.flag, dest=option.name, choices=option.values, help=option.help)
    else:
        parser.add_argument(option.flag, dest=option.name, metavar=option.name.upper(), help=option.help)


def _game_commands(
    parser: argparse.ArgumentParser,
    add: Callable[[argparse.ArgumentParser, type[Game]], None],
    accepts: Callable[[type[Game]], bool] = lambda cls: True,
) -> None:
    """A sub-command per game (`cardlab simulate GAME ...`) with that game's options only (`add`),
    for the games the command `accepts`."""
    from cardlab.games import game_class, game_names

    games = parser.add_subparsers(dest="game", required=True, metavar="GAME")
    for name in game_names():
        cls = game_class(name)
        if accepts(cls):
            add(games.add_parser(name, help=cls.title, description=f"{parser.description} ({cls.title})"), cls)


def _add_config_options(sub: argparse.ArgumentParser, cls: type[Game]) -> None:
    sub.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    if cls.options:
        group = sub.add_argument_group(f"{cls.title} options")
        for option in cls.options:
            _add_option(group, option)
    _add_variant_options(sub, cls)


def _add_variant_options(sub: argparse.ArgumentParser, cls: type[Game]) -> None:
    """`--rule NAME=VALUE` and `--patch CARD.FIELD=VALUE` (repeatable) where the game has rule options or card stats."""
    if cls.rule_options:
        names = ", ".join(option.name for option in cls.rule_options)
        help_text = f"a rule variant (repeatable): {names}; see cardlab rules {cls.name}"
        sub.add_argument("--rule", action="append", metavar="NAME=VALUE", help=help_text)
    if cls.card_patches:
        help_text = "edit a card's stat for this run (repeatable), e.g. S14.cost=3"
        sub.add_argument("--patch", action="append", metavar="CARD.FIELD=VALUE", help=help_text)


def _add_backend_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--backend",
        choices=("process", "ray"),
        default="process",
        help="where reference-engine games run: local worker processes (default) or a Ray cluster "
        "(extra cluster; a local one unless --address)",
    )
    sub.add_argument("--address", help="the Ray cluster to join (e.g. 10.0.0.5:6379; with --backend ray)")


def _add_simulate_options(sub: argparse.ArgumentParser, cls: type[Game]) -> None:
    _add_config_options(sub, cls)
    sub.add_argument("--agents", default="random,random", help="two agent specs, e.g. heuristic,ismcts:iterations=200")
    sub.add_argument("--games", type=int, default=10_000, help="number of games (default 10000)")
    sub.add_argument("--workers", type=int, help="worker processes (default: all cores)")
    sub.add_argument("--engine", choices=ENGINES, default="reference", help=_engine_help(cls))
    sub.add_argument("--json", action="store_true", help="print one JSON object")
    _add_backend_options(sub)


def _engine_help(cls: type[Game]) -> str:
    kernels = cls.kernels()
    if kernels is None:
        return "reference (default; this game has no compiled kernel)"
    return f"reference (default), or a compiled kernel: {', '.join(kernels.engines)}"


def _add_lab_options(sub: argparse.ArgumentParser, cls: type[Game]) -> None:
    """The balance lab's variant option (e.g. a rule standard), for balance, report and compare."""
    lab = cls.lab()
    if lab is not None and lab.variant_option is not None:
        _add_option(sub, lab.variant_option)
    _add_own_entrant_options(sub, cls)
    sub.add_argument("--db", help="SQLite database (default: lab.sqlite beside the output folder)")
    _add_variant_options(sub, cls)


def _add_own_entrant_options(sub: argparse.ArgumentParser, cls: type[Game]) -> None:
    """`--entrants` and `--cards FILE` where a designer may bring their own decks and cards to a table."""
    lab = cls.lab()
    if lab is None or lab.own is None or lab.entrants_option is None:
        return
    sub.add_argument("--entrants", metavar="ID_OR_FILE[:...],...", help=lab.entrants_option.help)
    sub.add_argument(
        "--cards", action="append", metavar="FILE",
        help="card file added to the packaged set (repeatable); every problem of the files is listed, "
        "and nothing is played until all are fixed",
    )  # fmt: skip


def _add_table_options(sub: argparse.ArgumentParser, cls: type[Game], agent: bool = True) -> None:
    _add_lab_options(sub, cls)
    if agent:
        sub.add_argument(
            "--agent",
            help="agent spec playing both seats (default: the game's strong table agent where it runs here, "
            "else heuristic)",
        )
    sub.add_argument("--out", help="output directory (default balance-GAME-VARIANT)")
    sub.add_argument("--pool", action="store_true", help="also pool stored games played by other code versions")


def _add_balance_options(sub: argparse.ArgumentParser, cls: type[Game]) -> None:
    _add_table_options(sub, cls)
    sub.add_argument("--games", type=int, default=1000, help="new games per pairing and seat (default 1000)")
    sub.add_argument("--workers", type=int, help="worker processes (default: all cores)")
    sub.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    sub.add_argument("--mirrors", action="store_true", help="also play the mirror pairings")
    _add_backend_options(sub)
    sub.add_argument(
        "--engine",
        choices=("auto", *ENGINES),
        default="auto",
        help="auto (default: the cpu kernel where it plays the agent, else the reference engine), reference, "
        "or a compiled kernel of the game (cpu: numba, gpu: JAX)",
    )


def _add_ladder_options(sub: argparse.ArgumentParser, cls: type[Game]) -> None:
    _add_config_options(sub, cls)
    sub.add_argument("--agents", required=True, help="two or more agent specs, e.g. random,heuristic,ismcts")
    sub.add_argument("--games", type=int, default=200, help="games per pair, seats swapped per deal (default 200)")
    sub.add_argument("--workers", type=int, help="worker processes (default: all cores)")
    sub.add_argument(
        "--engine",
        choices=("auto", "reference", "cpu"),
        default="auto",
        help="auto (default: the cpu kernel for the pairs it can play, where the game has one), reference, or cpu",
    )
    sub.add_argument("--out", help="output directory (default ladder-GAME)")
    sub.add_argument("--json", action="store_true", help="print ladder.json to stdout instead of the tables")
    _add_backend_options(sub)


def _add_compare_options(sub: argparse.ArgumentParser, cls: type[Game]) -> None:
    _add_lab_options(sub, cls)
    sub.add_argument("--agents", required=True, help="two agent specs A,B; diff = B's rate - A's rate")
    sub.add_argument("--games", type=int, help="first play what is missing for N games per pairing and seat")
    sub.add_argument("--workers", type=int, help="worker processes (default: all cores)")
    sub.add_argument("--seed", type=int, default=0, help="master seed of the games played (default 0)")
    sub.add_argument("--mirrors", action="store_true", help="also top up the mirror pairings")
    _add_backend_options(sub)
    sub.add_argument(
        "--engine",
        choices=("auto", "reference", "cpu"),
        default="auto",
        help="engine for the missing games: auto (default: cpu where the kernel plays both agents), reference, or cpu",
    )
    sub.add_argument("--out", help="output directory (default compare-GAME-VARIANT)")


def _add_variant_table_options(sub: argparse.ArgumentParser, command: str) -> None:
    """What `sweep` and `tune` share: who plays every variant's table, where, and where the files go."""
    sub.add_argument("--agent", help="agent spec playing both seats (default: as for balance)")
    sub.add_argument("--workers", type=int, help="worker processes (default: all cores)")
    sub.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    sub.add_argument("--mirrors", action="store_true", help="also play the mirror pairings")
    sub.add_argument(
        "--engine", choices=("auto", "reference", "cpu"), default="auto",
        help="auto (default: the cpu kernel where it plays the agent under every variant), reference, or cpu",
    )  # fmt: skip
    sub.add_argument("--out", help=f"output directory (default {command}-GAME-VARIANT)")
    _add_backend_options(sub)


def _add_space_options(sub: argparse.ArgumentParser, cls: type[Game], rules: str, patches: str) -> None:
    """What `sweep` and `tune` vary, on the lab's table: rules (`--rule NAME` alone: every value) and card stats."""
    lab = cls.lab()
    if lab is not None and lab.variant_option is not None:
        _add_option(sub, lab.variant_option)
    _add_own_entrant_options(sub, cls)
    sub.add_argument("--db", help="SQLite database (default: lab.sqlite beside the output folder)")
    if cls.rule_options:
        names = ", ".join(option.name for option in cls.rule_options)
        sub.add_argument("--rule", action="append", default=[], metavar="NAME[=V1,V2]", help=f"{rules}: {names}")
    if cls.card_patches:
        sub.add_argument("--patch", action="append", default=[], metavar="CARD.FIELD=V1,V2|LO..HI", help=patches)


def _add_sweep_options(sub: argparse.ArgumentParser, cls: type[Game]) -> None:
    _add_space_options(
        sub, cls, "a rule to sweep over these values (repeatable: every combination; all when none are given)",
        "a card stat to sweep over these values (repeatable), e.g. S14.cost=2,3,4",
    )  # fmt: skip
    sub.add_argument(
        "--games", type=int, default=1000, help="games per pairing and seat of each variant (default 1000)"
    )
    _add_variant_table_options(sub, "sweep")


def _add_tune_options(sub: argparse.ArgumentParser, cls: type[Game]) -> None:
    _add_space_options(
        sub, cls, "a rule the search may change, to these values (all when none are given)",
        "a card stat the search may change, e.g. S14.cost=1..4",
    )  # fmt: skip
    sub.add_argument(
        "--target",
        action="append",
        default=[],
        metavar="KIND=CENTER:TOL",
        help="entrants=50:3 (default), cells=50:10 or first=50:2, in percent; repeatable (all must hold)",
    )
    sub.add_argument("--max-edits", type=int, default=2, help="edits per candidate at most (default 2)")
    sub.add_argument("--budget", help="stop after this many games (20000) or minutes (30m); default: no limit")
    sub.add_argument("--games", type=int, default=300,
                     help="games per pairing and seat that confirm a candidate (default 300)")  # fmt: skip
    _add_variant_table_options(sub, "tune")


def _add_meta_options(sub: argparse.ArgumentParser, cls: type[Game]) -> None:
    """`cardlab meta GAME`: the deck search's pool, agents, sizes and budget (docs/meta.md)."""
    sub.add_argument(
        "--cards", action="append", metavar="FILE", help="card file added to the packaged pool (repeatable)"
    )
    sub.add_argument("--budget", help="the search's games (20000, the default) or minutes (10m)")
    sub.add_argument("--search-agent", default="heuristic", help="agent scoring the many decks (default heuristic)")
    sub.add_argument("--agent", help="agent confirming the finalists (default: the game's table agent, as for balance)")
    sub.add_argument("--games", type=int, default=10, help="games per pairing and seat scoring a deck (default 10)")
    sub.add_argument(
        "--confirm-games", type=int, default=50, help="games per pairing and seat, finalists and effects (default 50)"
    )
    sub.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    sub.add_argument("--workers", type=int, help="worker processes (default: all cores)")
    sub.add_argument(
        "--engine", choices=("auto", "reference", "cpu"), default="auto",
        help="auto (default: the cpu kernel where it plays the agent), reference, or cpu",
    )  # fmt: skip
    sub.add_argument("--out", help="output directory (default meta-GAME)")
    sub.add_argument("--db", help="SQLite database (default: lab.sqlite beside the output folder)")
    _add_backend_options(sub)


def _add_play_options(sub: argparse.ArgumentParser, cls: type[Game]) -> None:
    _add_config_options(sub, cls)
    sub.add_argument("--seat", choices=["P1", "P2"], default="P1", help="your seat (default P1)")
    sub.add_argument("--vs", default="random", help="the opponent's agent spec (default random)")
    sub.add_argument("--load", help="continue a game saved with `save FILE`")


def _add_deck_options(sub: argparse.ArgumentParser, cls: type[Game]) -> None:
    sub.add_argument("file", help="deck file (one [[deck]] table)")
    sub.add_argument("--cards", action="append", help="card file added to the packaged set (repeatable)")


def _has_lab(cls: type[Game]) -> bool:
    return cls.lab() is not None


def build_parser(description: str, handlers: Mapping[str, Handler]) -> argparse.ArgumentParser:
    """Every command's parser; `handlers` by command name ("scenario run", "deck validate" for the nested two)."""
    from cardlab.games import game_names

    parser = argparse.ArgumentParser(prog="cardlab", description=description)
    parser.add_argument("--version", action="version", version=f"cardlab {version('cardlab')}")
    commands = parser.add_subparsers(dest="command", required=True)

    def command(name: str, summary: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=summary, description=summary)
        sub.set_defaults(handler=handlers[name])
        return sub

    scenario = commands.add_parser("scenario", help="conformance scenarios (e.g. E14.6)")
    scenario_commands = scenario.add_subparsers(dest="scenario_command", required=True)
    run = scenario_commands.add_parser("run", help="run scenario files; exit 1 if any fails")
    run.add_argument("files", nargs="+", help="scenario JSON files")
    run.add_argument("--print", action="store_true", help="print each final position JSON")
    run.set_defaults(handler=handlers["scenario run"])

    _game_commands(command("play", "play at the terminal against an AI player"), _add_play_options)
    _game_commands(command("simulate", "two agents head to head, seats swapped per deal"), _add_simulate_options)
    balance = command("balance", "balance table with confidence intervals")
    _game_commands(balance, _add_balance_options, _has_lab)
    report = command("report", "rebuild the balance report from the database")
    _game_commands(report, _add_table_options, _has_lab)
    ladder = command("ladder", "every pair of agents head to head: win matrix and ratings")
    _game_commands(ladder, _add_ladder_options)
    compare = command("compare", "two agents' balance tables side by side")
    _game_commands(compare, _add_compare_options, _has_lab)

    sweep = command("sweep", "the balance table under each rule variant or card edit, side by side")
    _game_commands(sweep, _add_sweep_options, lambda cls: _has_lab(cls) and bool(cls.rule_options or cls.card_patches))

    tune = command("tune", "the smallest rule or card edits that bring the table to a balance target")
    _game_commands(tune, _add_tune_options, lambda cls: _has_lab(cls) and bool(cls.rule_options or cls.card_patches))

    meta = command("meta", "the decks a card pool allows, their metagame, and the cards that break it")
    _game_commands(meta, _add_meta_options, lambda cls: _has_lab(cls) and cls.has_deck_space())

    export = command("export", "stored lab results as one table (Parquet or CSV) for analysis")
    export.add_argument("game", choices=game_names(), metavar="GAME", help="which game's results")
    export.add_argument("--db", required=True, help="the lab database (e.g. lab.sqlite)")
    export.add_argument("--format", choices=("parquet", "csv"), default="parquet", help="file format (default parquet)")
    export.add_argument("--out", required=True, help="the file to write")
    export.add_argument("--agent", action="append", help="only the games of this agent spec (repeatable)")

    import_ = command("import", "add the results of an exported file to a lab database")
    import_.add_argument("game", choices=game_names(), metavar="GAME", help="which game's results")
    import_.add_argument("file", metavar="FILE", help="a .parquet or .csv file written by cardlab export")
    import_.add_argument("--db", required=True, help="the lab database to add them to (created if missing)")

    rules = command("rules", "a game's rule variants: what --rule NAME=VALUE may change")
    rules.add_argument("game", choices=game_names(), metavar="GAME", help="which game")
    rules.add_argument("--json", action="store_true", help="print a list of {name, rule, default, values, description}")

    games = command("games", "the registered games' profiles: deck, life, hand, win conditions")
    games.add_argument("name", nargs="?", choices=game_names(), metavar="GAME", help="one game (default: all)")
    games.add_argument("--json", action="store_true", help="print the profiles as JSON")
    games.add_argument("--cards", action="store_true", help="also every card, in a player's words")

    serve = command("serve", "the web app: play in a browser")
    serve.add_argument(
        "--host", default="127.0.0.1",
        help="address to bind (default 127.0.0.1, this machine only; any other: the Lab asks for a printed token)",
    )  # fmt: skip
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--db", help="SQLite database of web games (default: in the user data directory)")
    serve.add_argument("--lab-dir", help="the Lab's folder: its card and deck files and runs (default: this directory)")
    serve.add_argument("--lab-db", help="the Lab's database (default: lab.sqlite in --lab-dir, as the CLI writes it)")
    limits = serve.add_argument_group("server limits")
    limits.add_argument(
        "--think-time", type=float, default=2.0, help="seconds an AI seat may think per decision (default 2)"
    )
    limits.add_argument("--agent-workers", type=int, default=4, help="threads running AI decisions (default 4)")
    limits.add_argument("--max-live-games", type=int, default=256, help="games kept in memory (default 256)")
    limits.add_argument(
        "--idle-seconds", type=float, default=600.0, help="drop a game from memory after this idle time (default 600)"
    )
    limits.add_argument("--max-sockets", type=int, default=64, help="websockets per game (default 64)")
    limits.add_argument(
        "--keep-alive", type=int, default=75, metavar="SECONDS",
        help="keep an idle HTTP connection open this long (default 75, longer than clients' pools)",
    )  # fmt: skip
    limits.add_argument(
        "--policy", action="append", default=[], metavar="FILE",
        help="a trained policy file its seats may play (policy:path=FILE; repeatable)",
    )  # fmt: skip

    deck = commands.add_parser("deck", help="deck files")
    deck_commands = deck.add_subparsers(dest="deck_command", required=True)
    validate = deck_commands.add_parser("validate", help="check a deck against the game's deck rules")
    validate.set_defaults(handler=handlers["deck validate"])
    _game_commands(validate, _add_deck_options, lambda cls: cls.deck_files)
    return parser


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """A parser's sub-commands by name (none when it has none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def not_an_option(parser: argparse.ArgumentParser, flag: str, command: str, game: str) -> str:
    """'--engine is not an option of `balance GAME`; it is taken by: simulate, ...': the option blamed
    on the command that does not take it, with the commands that do (for this game, else for any)."""
    for_game: list[str] = []
    for_other: dict[str, list[str]] = {}  # another game -> the commands taking the option for it
    for name, sub in _subcommands(parser).items():
        games = _subcommands(sub)
        if flag in sub._option_string_actions or (game in games and flag in games[game]._option_string_actions):
            for_game.append(name)
            continue
        for other, other_parser in games.items():
            if flag in other_parser._option_string_actions:
                for_other.setdefault(other, []).append(name)
    where = f"{flag} is not an option of `{command} {game}`"
    see = f"(see: cardlab {command} {game} --help)"
    if for_game:
        return f"{where}; it is taken by: {', '.join(for_game)} {see}"
    if for_other:
        taken = "; ".join(f"for {other} by {', '.join(names)}" for other, names in for_other.items())
        return f"{where}, nor of any other command for {game}; it is taken {taken} {see}"
    return f"{where}: no cardlab command takes it {see}"
