"""The `cardlab` command line: scenarios, terminal play, simulation and the balance lab."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext, suppress
from functools import partial
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from rich.console import Console

from cardlab.core.errors import CardlabError
from cardlab.core.rng import derive_seed, make_rng
from cardlab.sim.engines import ENGINES

if TYPE_CHECKING:
    from rich.status import Status

    from cardlab.core.game import Game
    from cardlab.core.plugin import ConfigOption
    from cardlab.core.rules import Patches, Rules
    from cardlab.sim.balance import Matchups
    from cardlab.sim.tasks import GameTask, TaskResult
    from cardlab.store import GamesDB


class UsageError(CardlabError):
    """An option the chosen game does not have: reported like every other error, exit status 2."""


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


def _variants(args: argparse.Namespace, cls: type[Game]) -> tuple[Rules, Patches]:
    """The --rule and --patch values, checked against the game's rule options (a clear error otherwise)."""
    from cardlab.core.rules import check_patches, check_rules, parse_rule_args

    rules = check_rules(cls.rule_options, parse_rule_args(getattr(args, "rule", None)), "--rule")
    patches = check_patches(getattr(args, "patch", None) or [], "--patch")
    return rules, patches


def _game_from_args(args: argparse.Namespace) -> Game:
    """The game and configuration the game's options describe; options left to chance draw from the seed."""
    from cardlab.games import game_class

    cls = game_class(args.game)
    values = {}
    for option in cls.options:
        given = getattr(args, option.name, None)
        if isinstance(given, str):
            given = option.parse_text(given)
        elif isinstance(given, list):
            given = tuple(given)
        values[option.name] = given
    try:
        game = cls.from_options(values, make_rng(derive_seed(args.seed, "options")))
        rules, patches = _variants(args, cls)
        if rules or patches:
            from cardlab.core.rules import with_patches, with_rules

            game = cls.from_config(with_patches(with_rules(game.config_json(), dict(rules)), patches))
        return game
    except ValueError as exc:
        raise CardlabError(str(exc)) from None


def cmd_scenario_run(args: argparse.Namespace, console: Console) -> int:
    from cardlab.core.scenario import run_scenario_file
    from cardlab.games import REGISTRY

    failed = 0
    for path in args.files:
        result = run_scenario_file(Path(path), REGISTRY)
        failed += not result.passed
        print(result.line())
        if args.print and result.final is not None:
            print(json.dumps(result.final, indent=2))
    print(f"{len(args.files) - failed} passed, {failed} failed")
    return 1 if failed else 0


def _games_per_second(rate: float) -> str:
    """'1,234 games/s', or with two significant digits below 10 (searches: '0.17 games/s', not '0')."""
    return f"{rate:,.0f} games/s" if rate >= 10 else f"{rate:.2g} games/s"


@contextmanager
def _progress(console: Console, label: str, total: int) -> Iterator[Callable[[int], None]]:
    """A progress bar with games/s and ETA on a terminal, both from the first batch back; when piped, a plain
    line on stderr at the first batch, every 10 s and at the end (stdout stays the command's output)."""
    if console.is_terminal:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        columns = (
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
        )
        with Progress(*columns, console=console, transient=True) as progress:
            bar = progress.add_task(label, total=total, rate="")
            progress.advance(bar, 0)  # the start as a sample: the first batch back gives a rate and an ETA

            def advance_bar(games: int) -> None:
                progress.advance(bar, games)
                speed = progress.tasks[0].speed
                progress.update(bar, rate=_games_per_second(speed) if speed else "")

            yield advance_bar
        return
    start = last = time.perf_counter()
    done = 0
    since: tuple[float, int] = (start, 0)  # after the first batch, the rate leaves out the start (workers, Ray)

    def report() -> None:
        now = time.perf_counter()
        elapsed, games = (now - since[0], done - since[1]) if done > since[1] else (now - start, done)
        rate = games / elapsed if elapsed > 0 else 0.0
        eta = f", ETA {(total - done) / rate:,.0f} s" if rate and done < total else ""
        print(f"{label}: {done:,}/{total:,} games, {_games_per_second(rate)}{eta}", file=sys.stderr, flush=True)

    def advance(games: int) -> None:
        nonlocal done, last, since
        first = not done
        done += games
        if first and done < total:
            report()
            since = (time.perf_counter(), done)
            last = since[0]
        elif time.perf_counter() - last >= 10.0:
            last = time.perf_counter()
            report()

    yield advance
    if total:
        report()


class _Reported(KeyboardInterrupt):
    """Ctrl-C whose one line the command has printed."""


def _interrupted(console: Console, what: str) -> NoReturn:
    """End a command stopped by Ctrl-C with one line saying what was kept (exit status 130, no traceback)."""
    console.print(f"interrupted: {what}", soft_wrap=True, highlight=False)  # one line, however narrow the terminal
    raise _Reported from None


def _named_agent(args: argparse.Namespace, matchups: Matchups) -> str:
    """The agent a table will be played by, named before anything slow is imported (numba takes half a
    second): `--agent`, or the lab's strong agent where the fast extra is installed (`_table_agent` decides,
    and says so when it differs)."""
    from importlib.util import find_spec

    if args.agent:
        return str(args.agent)
    return matchups.strong_agent if matchups.strong_agent and find_spec("numba") else "heuristic"


def _prepare_engine(console: Console, engine: str, game: str, agents: Sequence[str]) -> None:
    """The line after a long run's first: which engine plays and whether its kernel compiles first (the first
    run on a machine compiles it: a few minutes for a search, cached by numba after); then compile it or
    load it from the cache, so that the progress starts when the games do."""
    from cardlab.agents import parse_spec
    from cardlab.sim.engines import check_engine, compiled

    if engine == "reference":
        return
    search = any(parse_spec(spec)[1].get("backend") == "cpu" for spec in agents)
    kernel = "the search" if search else "the kernel"
    ready = compiled(engine, game, agents)
    status = console.status(f"compiling {kernel}") if console.is_terminal and not ready else None
    stopped = f"while {'loading' if ready else 'compiling'} {kernel}; nothing was played"
    with _ended_by_interrupt(console, stopped, status):
        if ready:
            console.print(
                f"on the {engine} kernel ({kernel} is compiled and cached on this machine)",
                soft_wrap=True,
                highlight=False,
            )
            check_engine(engine, game, agents)
            return
        if engine == "cpu":
            note = f"{'a few minutes' if search else 'seconds'}, once per machine: numba caches it"
        else:
            note = "JAX compiles it in every run"
        doing = "compiling" if ready is False else "loading or compiling"
        console.print(f"on the {engine} kernel: {doing} {kernel} first ({note})", soft_wrap=True, highlight=False)
        start = time.perf_counter()
        with status or nullcontext():
            check_engine(engine, game, agents)
    console.print(f"{kernel} ready in {time.perf_counter() - start:.0f} s", soft_wrap=True)


@contextmanager
def _ended_by_interrupt(console: Console, what: str, status: Status | None = None) -> Iterator[None]:
    """Ctrl-C during a block that keeps nothing and cannot stop between steps (compiling a kernel): one
    line and exit status 130 at once. A KeyboardInterrupt is not enough there: numba compiles through
    objects whose finalizers run in between, and an exception raised in a finalizer is printed and lost."""
    import os
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous is not signal.default_int_handler:  # ignored, or someone else's: theirs to handle
        yield
        return

    def end(signum: int, frame: object) -> None:
        # Straight to the file descriptor: the signal may have come in the middle of a print, whose buffers
        # (rich's, io's) are not reentrant (rich would print its line again).
        for stream in (sys.stdout, sys.stderr):
            with suppress(Exception):  # interrupted inside a write of its own: what it held is lost
                stream.flush()
        clear = "\r\x1b[2K\x1b[?25h" if status is not None else ""  # the spinner's line cleared, the cursor back
        try:
            fd = console.file.fileno()
        except (AttributeError, OSError, ValueError):
            fd = sys.__stdout__.fileno() if sys.__stdout__ is not None else 1
        os.write(fd, f"{clear}interrupted {what}\n".encode())
        os._exit(130)

    signal.signal(signal.SIGINT, end)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _run_with_progress(
    tasks: Sequence[GameTask],
    workers: int | None,
    console: Console,
    label: str,
    backend: str | None = "process",
    address: str | None = None,
) -> Iterator[TaskResult]:
    """Play tasks across workers (or a Ray cluster) with progress; results in task order, as they come."""
    from cardlab.sim.tournament import run_tasks

    with _progress(console, label, len(tasks)) as advance:
        yield from run_tasks(
            tasks, workers, on_result=lambda _: advance(1), backend=backend or "process", address=address
        )


def _add_backend_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--backend",
        choices=("process", "ray"),
        default="process",
        help="where reference-engine games run: local worker processes (default) or a Ray cluster "
        "(extra cluster; a local one unless --address)",
    )
    sub.add_argument("--address", help="the Ray cluster to join (e.g. 10.0.0.5:6379; with --backend ray)")


def _backend(args: argparse.Namespace) -> dict[str, str | None]:
    if args.address and args.backend != "ray":
        raise CardlabError("--address is an option of --backend ray")
    return {"backend": args.backend, "address": args.address}


def _agent_pair(text: str) -> tuple[str, str]:
    from cardlab.agents import parse_spec

    specs = [part.strip() for part in text.split(",")]
    if len(specs) != 2 or not all(specs):
        raise CardlabError(f"--agents takes two agent specs separated by a comma, got {text!r}")
    for spec in specs:
        parse_spec(spec)
    return specs[0], specs[1]


def _check_agents(specs: Sequence[str], game: str) -> None:
    """Build each agent for `game` now: a spec it cannot play fails here, not in a worker mid-run."""
    from cardlab.agents import make_agent

    for spec in specs:
        make_agent(spec, game)


def cmd_simulate(args: argparse.Namespace, console: Console) -> int:
    """Two agents head to head; each deal is played twice with the seats swapped (logic: sim/simulate.py)."""
    from cardlab.sim.engines import check_engine
    from cardlab.sim.simulate import simulate

    if args.games < 1:
        raise CardlabError("--games must be at least 1")
    agents = _agent_pair(args.agents)
    game = _game_from_args(args)
    notes = Console(stderr=True) if args.json else console  # stdout is the JSON's
    if args.engine != "reference":  # the first line, before the kernel is loaded or compiled
        notes.print(
            f"simulate {game.name}: {agents[0]} vs {agents[1]}, {args.games:,} games", soft_wrap=True, highlight=False
        )
    _check_agents(agents, game.name)
    check_engine(args.engine, game.name, agents, warm=False)
    _prepare_engine(notes, args.engine, game.name, agents)

    def run(tasks: Sequence[GameTask]) -> Iterator[TaskResult]:
        return _run_with_progress(tasks, args.workers, console, f"{agents[0]} vs {agents[1]}", **_backend(args))

    try:
        summary = simulate(game, agents, args.games, args.seed, args.engine, run, partial(_progress, console))
    except KeyboardInterrupt:
        _interrupted(notes, "simulate keeps no games; nothing was stored")
    if args.json:
        print(json.dumps(summary))
        return 0
    from rich.table import Table

    from cardlab.sim.report import config_words, plus_minus

    table = Table(title=f"{game.title}: {config_words(summary['config'])}\n{args.games} games, seats swapped per deal")
    for column in ("agent", "wins", "% ±95%", "ms/decision"):
        table.add_column(column, justify="left" if column == "agent" else "right", overflow="fold")
    for spec, won, ci, ms in zip(agents, summary["wins"], summary["ci95"], summary["decision_ms"], strict=True):
        table.add_row(spec, str(won), plus_minus(won, args.games, ci), f"{ms:.4g}")
    console.print(table)
    # Where the first player is decided anew every turn, seats are only labels.
    fixed = game.fixed_first_player
    p1, p2, seat = ("P1 (first)", "P2 (second)", "first player") if fixed else ("P1", "P2", "seat P1")
    per_second = summary["games_per_second"] * summary["decisions"] / args.games
    console.print(
        f"wins by seat: {p1} {summary['seat_wins']['P1']}, {p2} {summary['seat_wins']['P2']}; "
        f"{seat} wins {summary['first_player_win_rate']:.1%}; "
        f"{summary['games_per_second']} games/s, {per_second:,.0f} decisions/s"
    )
    return 0


def _balance_outputs(summary: dict, games: list, batches: list, new: int, out: Path, console: Console) -> None:
    from cardlab.sim.report import (
        print_balance,
        write_batches_csv,
        write_heatmap,
        write_report_html,
        write_results_csv,
        write_summary_json,
        write_table_csv,
    )

    out.mkdir(parents=True, exist_ok=True)
    write_results_csv(games, out / "results.csv", summary.get("entrant_names"))
    write_table_csv(games, batches, summary, out / "table.csv")  # every cell's counts, whatever the engine
    if batches:
        write_batches_csv(batches, out / "batches.csv")
    write_summary_json(summary, out / "summary.json")
    heatmap: Path | None = out / "heatmap.png"
    try:
        write_heatmap(summary, out / "heatmap.png")
    except ImportError:  # the plots extra is missing: the report goes without its plot
        heatmap = None
    write_report_html(summary, heatmap, out / "report.html", new)
    print_balance(summary, console, new)
    plot = "heatmap.png, " if heatmap else ""
    csv = "table.csv, results.csv, batches.csv" if batches else "table.csv, results.csv"
    _wrote(console, f"wrote {out}/{csv}, summary.json, {plot}report.html")
    if heatmap is None:
        _missing_plot(console, "no heatmap")


def _wrote(console: Console, line: str) -> None:
    """A line naming the files a command wrote or read, printed unbroken and as typed (no markup): a path longer than
    the terminal is wrapped by the terminal alone, so it is copied whole, and a `[` in a folder name stays."""
    console.print(line, soft_wrap=True, markup=False, highlight=False)


def _missing_plot(console: Console, what: str) -> None:
    """Reports go without their plot when matplotlib is absent; say how to get it."""
    console.print(f"{what}: it needs the plots extra (pip install -e '.[plots]')")


def _open_db(path: str | None, out: Path | None = None) -> GamesDB:
    """`--db`, else the lab database beside the output folder."""
    from cardlab.store import GamesDB, default_db_path

    return GamesDB(Path(path) if path else default_db_path(out))


def _table_agent(args: argparse.Namespace, matchups: Matchups, console: Console) -> str:
    """`--agent`, or the game's default table agent (saying so when it is not the strong one)."""
    from cardlab.sim.balance import default_agent

    if args.agent:
        return str(args.agent)
    agent, note = default_agent(matchups)
    if note:
        console.print(f"note: {note}")
    return agent


def _table_engine(engine: str, game: str, agents: tuple[str, ...]) -> str:
    """`--engine auto`: the cpu kernel where it can play all `agents` of `game`, else the reference engine."""
    from cardlab.sim.engines import check_engine

    if engine != "auto":
        return engine
    try:
        check_engine("cpu", game, agents, warm=False)
    except CardlabError:
        return "reference"
    return "cpu"


def cmd_balance(args: argparse.Namespace, console: Console) -> int:
    """Play N more games per pairing and seat, store them as they finish, and report on everything stored.

    An interrupted run (Ctrl-C) keeps every finished game; the same command run again finishes it.
    """
    from cardlab.agents import parse_spec
    from cardlab.sim.balance import BalanceSetup, Played, pairings, play_balance
    from cardlab.sim.engines import check_engine

    if args.games < 1:
        raise CardlabError("--games must be at least 1")
    matchups = _matchups(args)
    cells = len(pairings(matchups.entrants, args.mirrors))
    console.print(  # the first line, before numba is imported (half a second) or the kernel compiled (minutes)
        f"balance {matchups.game} {matchups.variant}: {cells} pairings x 2 seats x {args.games:,} new games "
        f"by {_named_agent(args, matchups)}",
        soft_wrap=True,
        highlight=False,
    )
    agent = _table_agent(args, matchups, console)
    parse_spec(agent)
    _check_agents((agent,), matchups.game)
    engine = _table_engine(args.engine, matchups.game, (agent,))
    check_engine(engine, matchups.game, (agent,), warm=False)
    _prepare_engine(console, engine, matchups.game, (agent,))
    setup = BalanceSetup(matchups, agent, args.games, args.seed, args.mirrors)
    out = _out_dir(args, matchups)
    label = f"balance {matchups.game} {matchups.variant} · {agent}"

    def run(tasks: Sequence[GameTask]) -> Iterator[TaskResult]:
        return _run_with_progress(tasks, args.workers, console, label, **_backend(args))

    def resumed(stored: int) -> None:
        console.print(f"resuming an interrupted run: {stored} of its games or batches are stored")

    with _open_db(args.db, out) as db:
        start = time.perf_counter()
        played = Played()
        try:
            play_balance(db, setup, engine, run, partial(_progress, console), played, resumed)
        except KeyboardInterrupt:
            count = f" ({played.games:,} this time)" if engine != "reference" else ""
            _interrupted(console, f"every finished game is stored in {db.path}{count}; run the command again to finish")
        elapsed = time.perf_counter() - start
        console.print(
            f"played {played.games} games in {elapsed:.1f} s ({_games_per_second(played.games / elapsed)}, "
            f"{engine} engine); database {db.path}"
        )
        _table_outputs(db, matchups, agent, args.pool, played.games, out, console)
    return 0


def _table_outputs(
    db: GamesDB, matchups: Matchups, agent: str, pool: bool, new: int, out: Path, console: Console
) -> None:
    """The table of the stored games this code played (all of them with `pool`), and its files."""
    from cardlab.sim.balance import stored_selection, summarize
    from cardlab.sim.compare import stored_agents_hint, validation_for

    selection = stored_selection(db, matchups, agent, pool)
    if not selection.games:
        other = f" ({selection.note})" if selection.note else ""
        raise CardlabError(
            f"no stored games for {matchups.game} {matchups.variant} with agent {agent!r} in the database{other}"
            f"{stored_agents_hint(db, matchups.game, matchups.variant)}"
        )
    validation = validation_for(db, matchups.game, matchups.variant, agent)
    summary = summarize(selection.counts, matchups, agent, validation=validation)
    summary["fingerprints"], summary["pooled"] = list(selection.fingerprints), selection.note
    used = set(selection.fingerprints)
    games = [game for game in db.games(matchups.game, matchups.variant, agent) if game.fingerprint in used]
    batches = [batch for batch in db.batches(matchups.game, matchups.variant, agent) if batch.fingerprint in used]
    if selection.note:
        console.print(f"note: {selection.note}")
    _balance_outputs(summary, games, batches, new, out, console)


def _matchups(args: argparse.Namespace) -> Matchups:
    """The matchups of the game's balance lab, in the variant its variant option names."""
    from cardlab.core.rules import varied_matchups
    from cardlab.games import game_class

    cls = game_class(args.game)
    lab = cls.lab()
    assert lab is not None  # only games with a lab get the lab's commands
    try:
        base = _lab_base(args, cls)
        rules, patches = _variants(args, cls)
        return varied_matchups(base, rules, _effective_patches(cls, base, rules, patches))
    except ValueError as exc:
        raise CardlabError(str(exc)) from None


def _lab_base(args: argparse.Namespace, cls: type[Game]) -> Matchups:
    """The table before rule variants and card edits: the variant option's (`--standard`), or the designer's
    own entrants and card files (`--entrants`, `--cards`), every problem of those files listed at once."""
    lab = cls.lab()
    assert lab is not None  # only games with a lab get the lab's commands
    base = lab.matchups(getattr(args, lab.variant_option.name) if lab.variant_option else None)
    entrants, cards = getattr(args, "entrants", None), getattr(args, "cards", None)
    if lab.own is not None and (entrants or cards):
        base = lab.own(base, entrants.split(",") if entrants else [], cards or [])
    return base


def _effective_patches(cls: type[Game], base: Matchups, rules: Rules, patches: Patches) -> Patches:
    """The card edits that change a card (the game drops one that sets a printed value), checked by building
    the game: a bad rule value or card edit fails here, named, before anything is played."""
    from cardlab.core.rules import varied_matchups

    matchups = varied_matchups(base, rules, patches)
    game = cls.from_config(matchups.config(matchups.entrants[0], matchups.entrants[-1]))
    return tuple(game.config_json().get("patches") or ())


def _out_dir(args: argparse.Namespace, matchups: Matchups) -> Path:
    return Path(args.out or f"balance-{matchups.game}-{matchups.variant}")


def cmd_report(args: argparse.Namespace, console: Console) -> int:
    """Rebuild the balance tables and files from the games stored in the database."""
    matchups = _matchups(args)
    agent = _table_agent(args, matchups, console)
    out = _out_dir(args, matchups)
    with _open_db(args.db, out) as db:
        _table_outputs(db, matchups, agent, args.pool, 0, out, console)
    return 0


def cmd_ladder(args: argparse.Namespace, console: Console) -> int:
    """Every pair of agents head to head on common deals; ratings and decision cost (logic: sim/ladder.py)."""
    from cardlab.sim.ladder import parse_agents, play_ladder, print_ladder, write_ladder_files

    agents = parse_agents(args.agents)
    game = _game_from_args(args)
    _check_agents(agents, game.name)

    def run(tasks: Sequence[GameTask]) -> list:
        label = f"ladder {game.name}"
        return list(_run_with_progress(tasks, args.workers, console, label, **_backend(args))) if tasks else []

    engine = _table_engine(args.engine, game.name, ())  # per pair, agents the kernel cannot play use the reference
    track = partial(_progress, console)
    try:
        summary = play_ladder(game.name, game.config_json(), agents, args.games, args.seed, engine, run, track)
    except KeyboardInterrupt:
        _interrupted(Console(stderr=True) if args.json else console, "a ladder keeps no games; nothing was written")
    out = Path(args.out or f"ladder-{game.name}")
    written = write_ladder_files(summary, out)
    if args.json:
        print(json.dumps(summary))
        return 0
    print_ladder(summary, console)
    _wrote(console, f"wrote {out}/{', '.join(written)} in {summary['seconds']:.1f} s")
    if "ladder.png" not in written:
        _missing_plot(console, "no plot")
    return 0


def cmd_compare(args: argparse.Namespace, console: Console) -> int:
    """Two agents' balance tables side by side, topped up to --games first (logic: sim/compare.py)."""
    from cardlab.sim.compare import print_comparison, run_comparison, write_comparison_files

    agents = _agent_pair(args.agents)
    matchups = _matchups(args)
    _check_agents(agents, matchups.game)
    engine = _table_engine(args.engine, matchups.game, agents)
    if args.games is not None:
        from cardlab.sim.engines import check_engine

        check_engine(engine, matchups.game, agents, warm=False)
        what = f"compare {matchups.game} {matchups.variant}: {agents[0]} vs {agents[1]}"
        console.print(
            f"{what}, each table topped up to {args.games:,} games per pairing and seat",
            soft_wrap=True,
            highlight=False,
        )
        _prepare_engine(console, engine, matchups.game, agents)

    def run(tasks: Sequence[GameTask]) -> Iterator[TaskResult]:  # results as they come: each is stored at once
        label = f"compare {matchups.game} {matchups.variant} · {tasks[0].agents[0]}" if tasks else ""
        return _run_with_progress(tasks, args.workers, console, label, **_backend(args))

    def played(agent: str, count: int) -> None:
        console.print(f"{agent}: played {count} missing games ({engine} engine)")

    out = Path(args.out or f"compare-{matchups.game}-{matchups.variant}")
    with _open_db(args.db, out) as db:
        try:
            track = partial(_progress, console)
            games, seed, mirrors = args.games, args.seed, args.mirrors
            summary = run_comparison(db, matchups, agents, games, seed, mirrors, engine, run, played, track)
        except KeyboardInterrupt:
            _interrupted(console, f"every finished game is stored in {db.path}; run the command again to finish")
    written = write_comparison_files(summary, out)
    print_comparison(summary, console)
    _wrote(console, f"wrote {out}/{', '.join(written)}; stored as comparison {summary['id']} in {db.path}")
    if "difference.png" not in written:
        _missing_plot(console, "no plot")
    return 0


def cmd_sweep(args: argparse.Namespace, console: Console) -> int:
    """Each variant's table, --games per pairing and seat in every row (one plan: only its own stored games
    are reused), compared with the game as specified (logic: sim/sweep.py)."""
    from cardlab.agents import parse_spec
    from cardlab.games import game_class
    from cardlab.sim.engines import check_engine
    from cardlab.sim.sweep import print_sweep, run_sweep, sweep_variants, write_sweep_files

    cls = game_class(args.game)
    lab = cls.lab()
    assert lab is not None
    try:
        base = _lab_base(args, cls)
        variants = sweep_variants(  # e.g. S14.cost=2 where S14 costs 2: the game as specified, named so
            cls.rule_options, getattr(args, "rule", []), getattr(args, "patch", []),
            lambda rules, patches: _effective_patches(cls, base, rules, patches),
        )  # fmt: skip
    except ValueError as exc:
        raise CardlabError(str(exc)) from None
    agent = _table_agent(args, base, console)
    parse_spec(agent)
    _check_agents((agent,), base.game)
    engine = _table_engine(args.engine, base.game, (agent,))
    check_engine(engine, base.game, (agent,), warm=False)
    console.print(
        f"sweep {base.game} {base.variant}: {len(variants)} variants by {agent}", soft_wrap=True, highlight=False
    )
    _prepare_engine(console, engine, base.game, (agent,))

    def run(tasks: Sequence[GameTask]) -> Iterator[TaskResult]:
        config = tasks[0].config if tasks else {}
        changes = [f"{name}={value}" for name, value in (config.get("rules") or {}).items()]
        label = f"sweep {base.game} · {'+'.join(changes + list(config.get('patches') or [])) or 'as specified'}"
        return _run_with_progress(tasks, args.workers, console, label, **_backend(args))

    def played(label: str, count: int, reused: int) -> None:
        stored = f", {reused} stored by an earlier run of this plan" if reused else ""
        console.print(f"{label}: played {count} new games ({engine} engine){stored}")

    out = Path(args.out or f"sweep-{base.game}-{base.variant}")
    with _open_db(args.db, out) as db:
        try:
            sweep, summaries = run_sweep(
                db, base, variants, agent, args.games, args.seed, args.mirrors, engine, run,
                partial(_progress, console), played,
            )  # fmt: skip
        except KeyboardInterrupt:
            _interrupted(console, f"every finished game is stored in {db.path}; run the command again to finish")
    written = write_sweep_files(sweep, summaries, out)
    print_sweep(sweep, console)
    _wrote(console, f"wrote {out}/{', '.join(written)}; games stored in {db.path}")
    return 0


def cmd_tune(args: argparse.Namespace, console: Console) -> int:
    """The smallest edits in the declared space that bring the table to the target, raced with common
    deals, the survivors confirmed at --games (logic: sim/tune.py)."""
    from cardlab.agents import parse_spec
    from cardlab.games import game_class
    from cardlab.sim.engines import check_engine
    from cardlab.sim.tune import (
        Budget,
        parse_targets,
        print_tune,
        run_tune,
        tune_candidates,
        tune_dimensions,
        write_tune_files,
    )

    cls = game_class(args.game)
    try:
        base = _lab_base(args, cls)
        dimensions = tune_dimensions(
            cls.rule_options, getattr(args, "rule", []), getattr(args, "patch", []),
            lambda edit: bool(_effective_patches(cls, base, (), (edit,))),
        )  # fmt: skip
    except ValueError as exc:
        raise CardlabError(str(exc)) from None
    candidates = tune_candidates(dimensions, args.max_edits)
    targets = parse_targets(args.target)
    budget = Budget.parse(args.budget)
    agent = _table_agent(args, base, console)
    parse_spec(agent)
    _check_agents((agent,), base.game)
    engine = _table_engine(args.engine, base.game, (agent,))
    check_engine(engine, base.game, (agent,), warm=False)
    console.print(
        f"tune {base.game} {base.variant}: {len(candidates)} candidates with at most {args.max_edits} edit(s) by "
        f"{agent}, target {', '.join(t.text for t in targets)}",
        soft_wrap=True,
        highlight=False,
    )
    _prepare_engine(console, engine, base.game, (agent,))

    def run(tasks: Sequence[GameTask]) -> Iterator[TaskResult]:
        return _run_with_progress(tasks, args.workers, console, f"tune {base.game}", **_backend(args))

    def rung(index: int, games: int, alive: int) -> None:
        console.print(f"rung {index + 1}: {alive} candidates, {games} games per pairing and seat", highlight=False)

    out = Path(args.out or f"tune-{base.game}-{base.variant}")
    with _open_db(args.db, out) as db:
        try:
            tune = run_tune(
                db, base, candidates, targets, agent, args.games, budget, args.seed, args.mirrors, engine, run,
                track=partial(_progress, console), on_rung=rung,
            )  # fmt: skip
        except KeyboardInterrupt:
            _interrupted(console, f"every finished game is stored in {db.path}; run the command again to go on")
        written = write_tune_files(tune, db, base, out)
    print_tune(tune, console)
    _wrote(console, f"wrote {out}/{', '.join(written)}; games stored in {db.path}")
    return 0


def cmd_rules(args: argparse.Namespace, console: Console) -> int:
    """The rule options a game declares, each with its rule id, default (the spec's ruling) and values."""
    from rich.table import Table

    from cardlab.games import game_class

    cls = game_class(args.game)
    if args.json:
        print(json.dumps([option.to_json() for option in cls.rule_options]))
        return 0
    if not cls.rule_options:
        console.print(f"{cls.title} declares no rule variants.")
        return 0
    table = Table(title=f"{cls.title}: rule variants (--rule NAME=VALUE)")
    for column in ("name", "rule", "values", "what the alternatives change"):
        table.add_column(column, overflow="fold")
    for option in cls.rule_options:  # the default among the values, marked (the spec's ruling)
        values = ", ".join(f"{value} (default)" if value == option.default else value for value in option.values)
        table.add_row(option.name, option.rule, values, option.description)
    console.print(table)
    return 0


def cmd_deck_validate(args: argparse.Namespace, console: Console) -> int:
    """List every deck-rule violation of a deck file with its rule id; exit 1 if there is one."""
    from cardlab.games import game_class

    card_files = [Path(path) for path in args.cards or ()]
    try:
        deck, problems = game_class(args.game).check_deck_file(Path(args.file), card_files)
    except (OSError, ValueError) as exc:
        raise CardlabError(str(exc)) from None
    for rule, message in problems:
        print(f"{args.file}: {rule}: {message}")
    if not problems:
        print(f"{args.file}: {deck} is legal")
    return 1 if problems else 0


def cmd_export(args: argparse.Namespace, console: Console) -> int:
    """Every stored game (one row) and kernel batch (one row, with counts) of a game, for analysis."""
    from cardlab.store.export import export

    db_path = Path(args.db)
    if not db_path.is_file():
        raise CardlabError(f"--db {args.db}: no such database")
    with _open_db(args.db) as db:
        written = export(db, args.game, args.format, Path(args.out), args.agent)
    _wrote(console, f"wrote {written} rows of {args.game} to {args.out} ({args.format}; schema: docs/export.md)")
    return 0


def cmd_import(args: argparse.Namespace, console: Console) -> int:
    """An export file's games and batches into the database, skipping those stored already: so that a
    table outlives the machine that played it, and can be carried in a small file and topped up."""
    import sqlite3

    from cardlab.store.export import load

    games, batches = load(Path(args.file), args.game)  # all checked before the database is touched
    try:
        with _open_db(args.db) as db:
            added, added_batches = db.add_new(games, batches)
    except sqlite3.DatabaseError as exc:  # not a database, or locked: nothing was added
        raise CardlabError(f"--db {args.db}: {exc}") from None
    rows = [len(added) + len(added_batches), len(games) + len(batches)]  # [added, in the file]
    played = [len(added) + sum(b.count for b in added_batches), len(games) + sum(b.count for b in batches)]
    _wrote(
        console,
        f"{args.file}: {rows[0]:,} rows added to {db.path} ({played[0]:,} games), "
        f"{rows[1] - rows[0]:,} already there ({played[1] - played[0]:,} games)",
    )
    return 0


def cmd_games(args: argparse.Namespace, console: Console) -> int:
    """Every registered game's profile, as a TCG catalog lays it out, each entry with its rule id."""
    from rich.table import Table

    from cardlab.games import game_class, game_names

    names = [args.name] if args.name else list(game_names())
    profiles = {}
    for name in names:
        cls = game_class(name)
        profile = cls.profile()
        game = cls()  # the default configuration: its glossary and how to win, in player words
        catalog = [(card, words) for card in game.card_catalog() if (words := game.card_words(card)) is not None]
        profiles[name] = {"name": name, "title": cls.title, "profile": None if profile is None else profile.to_json(),
                          "how_to_win": game.how_to_win(), "glossary": dict(game.glossary()),
                          "cards": {card: words.text() for card, words in catalog}}  # fmt: skip
        if args.json:
            continue
        if args.cards:
            console.print(f"[bold]{cls.title}[/] ({name}): {len(catalog)} cards", highlight=False)
            for _, words in catalog:
                console.print(words.text(), highlight=False, markup=False)
            continue
        if profile is None:
            console.print(f"[bold]{cls.title}[/] ({name}): no profile")
            continue
        table = Table(title=f"{cls.title} ({name})", caption=profile.summary, show_lines=False)
        table.add_column("", no_wrap=True, style="bold")
        table.add_column("value", overflow="fold")
        table.add_column("rule", no_wrap=True)
        for label, text, rule in profile.lines():
            table.add_row(label, text, rule)
        if game.how_to_win():
            table.add_row("how to win", game.how_to_win(), "")
        if game.glossary():
            table.add_row("keywords", ", ".join(game.glossary()) + " (`help WORD` in play explains one)", "")
        if catalog:
            table.add_row("cards", f"{len(catalog)} (`cardlab games {name} --cards` lists them, `card ID` in play)", "")
        console.print(table)
    if args.json:
        print(json.dumps(profiles[args.name] if args.name else list(profiles.values()), indent=2))
    return 0


def cmd_play(args: argparse.Namespace, console: Console) -> int:
    from cardlab.agents import parse_spec
    from cardlab.play.terminal import play_game

    parse_spec(args.vs)
    game = _game_from_args(args)
    _check_agents((args.vs,), game.name)
    return play_game(game, args, console)


def cmd_serve(args: argparse.Namespace, console: Console) -> int:
    """Run the web app (needs the `web` extra)."""
    try:
        import uvicorn

        from cardlab.web.app import create_app
    except ImportError:
        raise CardlabError("the web app needs the web extra: pip install -e '.[web]'") from None
    from cardlab.store.games_db import legacy_db_path
    from cardlab.web.manager import ServerLimits

    for option in ("think_time", "idle_seconds", "keep_alive"):
        if not getattr(args, option) > 0:
            raise CardlabError(f"--{option.replace('_', '-')} must be a positive number of seconds")
    for option in ("agent_workers", "max_live_games", "max_sockets"):
        if getattr(args, option) < 1:
            raise CardlabError(f"--{option.replace('_', '-')} must be at least 1")
    limits = ServerLimits(
        think_time=args.think_time,
        agent_workers=args.agent_workers,
        max_live_games=args.max_live_games,
        idle_seconds=args.idle_seconds,
        max_sockets=args.max_sockets,
        policies=tuple(args.policy),
    )
    db = Path(args.db) if args.db else legacy_db_path().with_name("play.sqlite")
    console.print(f"cardlab web app on http://{args.host}:{args.port}/ (database {db})")
    # A keep-alive longer than clients' idle pools (httpx 5 s, browsers longer) lets the client
    # close first, so a request on a reused connection never races the server's close.
    uvicorn.run(
        create_app(db, limits=limits),
        host=args.host,
        port=args.port,
        log_level="warning",
        timeout_keep_alive=args.keep_alive,
    )
    return 0


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


def _add_sweep_options(sub: argparse.ArgumentParser, cls: type[Game]) -> None:
    lab = cls.lab()
    if lab is not None and lab.variant_option is not None:
        _add_option(sub, lab.variant_option)
    _add_own_entrant_options(sub, cls)
    sub.add_argument("--db", help="SQLite database (default: lab.sqlite beside the output folder)")
    if cls.rule_options:
        names = ", ".join(option.name for option in cls.rule_options)
        help_text = f"a rule to sweep over these values (repeatable: every combination): {names}"
        sub.add_argument("--rule", action="append", default=[], metavar="NAME=V1,V2", help=help_text)
    if cls.card_patches:
        sub.add_argument("--patch", action="append", default=[], metavar="CARD.FIELD=V1,V2",
                         help="a card stat to sweep over these values (repeatable), e.g. S14.cost=2,3,4")  # fmt: skip
    sub.add_argument(
        "--games", type=int, default=1000, help="games per pairing and seat of each variant (default 1000)"
    )
    _add_variant_table_options(sub, "sweep")


def _add_tune_options(sub: argparse.ArgumentParser, cls: type[Game]) -> None:
    lab = cls.lab()
    if lab is not None and lab.variant_option is not None:
        _add_option(sub, lab.variant_option)
    _add_own_entrant_options(sub, cls)
    if cls.rule_options:
        names = ", ".join(option.name for option in cls.rule_options)
        sub.add_argument(
            "--rule",
            action="append",
            default=[],
            metavar="NAME[=V1,V2]",
            help=f"a rule the search may change, to these values (all when none are given): {names}",
        )
    if cls.card_patches:
        sub.add_argument(
            "--patch",
            action="append",
            default=[],
            metavar="CARD.FIELD=V1,V2|LO..HI",
            help="a card stat the search may change, e.g. S14.cost=1..4",
        )
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
    sub.add_argument("--db", help="SQLite database (default: lab.sqlite beside the output folder)")
    _add_variant_table_options(sub, "tune")


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


def build_parser() -> argparse.ArgumentParser:
    from cardlab.games import game_names

    parser = argparse.ArgumentParser(prog="cardlab", description=__doc__)
    parser.add_argument("--version", action="version", version=f"cardlab {version('cardlab')}")
    commands = parser.add_subparsers(dest="command", required=True)

    def command(name: str, handler: Callable[..., int], summary: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=summary, description=summary)
        sub.set_defaults(handler=handler)
        return sub

    scenario = commands.add_parser("scenario", help="conformance scenarios (e.g. E14.6)")
    scenario_commands = scenario.add_subparsers(dest="scenario_command", required=True)
    run = scenario_commands.add_parser("run", help="run scenario files; exit 1 if any fails")
    run.add_argument("files", nargs="+", help="scenario JSON files")
    run.add_argument("--print", action="store_true", help="print each final position JSON")
    run.set_defaults(handler=cmd_scenario_run)

    _game_commands(command("play", cmd_play, "play at the terminal against an AI player"), _add_play_options)
    _game_commands(
        command("simulate", cmd_simulate, "two agents head to head, seats swapped per deal"), _add_simulate_options
    )
    balance = command("balance", cmd_balance, "balance table with confidence intervals")
    _game_commands(balance, _add_balance_options, _has_lab)
    report = command("report", cmd_report, "rebuild the balance report from the database")
    _game_commands(report, _add_table_options, _has_lab)
    ladder = command("ladder", cmd_ladder, "every pair of agents head to head: win matrix and ratings")
    _game_commands(ladder, _add_ladder_options)
    compare = command("compare", cmd_compare, "two agents' balance tables side by side")
    _game_commands(compare, _add_compare_options, _has_lab)

    sweep = command("sweep", cmd_sweep, "the balance table under each rule variant or card edit, side by side")
    _game_commands(sweep, _add_sweep_options, lambda cls: _has_lab(cls) and bool(cls.rule_options or cls.card_patches))

    tune = command("tune", cmd_tune, "the smallest rule or card edits that bring the table to a balance target")
    _game_commands(tune, _add_tune_options, lambda cls: _has_lab(cls) and bool(cls.rule_options or cls.card_patches))

    export = command("export", cmd_export, "stored lab results as one table (Parquet or CSV) for analysis")
    export.add_argument("game", choices=game_names(), metavar="GAME", help="which game's results")
    export.add_argument("--db", required=True, help="the lab database (e.g. lab.sqlite)")
    export.add_argument("--format", choices=("parquet", "csv"), default="parquet", help="file format (default parquet)")
    export.add_argument("--out", required=True, help="the file to write")
    export.add_argument("--agent", action="append", help="only the games of this agent spec (repeatable)")

    import_ = command("import", cmd_import, "add the results of an exported file to a lab database")
    import_.add_argument("game", choices=game_names(), metavar="GAME", help="which game's results")
    import_.add_argument("file", metavar="FILE", help="a .parquet or .csv file written by cardlab export")
    import_.add_argument("--db", required=True, help="the lab database to add them to (created if missing)")

    rules = command("rules", cmd_rules, "a game's rule variants: what --rule NAME=VALUE may change")
    rules.add_argument("game", choices=game_names(), metavar="GAME", help="which game")
    rules.add_argument("--json", action="store_true", help="print a list of {name, rule, default, values, description}")

    games = command("games", cmd_games, "the registered games' profiles: deck, life, hand, win conditions")
    games.add_argument("name", nargs="?", choices=game_names(), metavar="GAME", help="one game (default: all)")
    games.add_argument("--json", action="store_true", help="print the profiles as JSON")
    games.add_argument("--cards", action="store_true", help="also every card, in a player's words")

    serve = command("serve", cmd_serve, "the web app: play in a browser")
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1, this machine only)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--db", help="SQLite database of web games (default: in the user data directory)")
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
    validate.set_defaults(handler=cmd_deck_validate)
    _game_commands(validate, _add_deck_options, lambda cls: cls.deck_files)
    return parser


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """A parser's sub-commands by name (none when it has none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _not_an_option(flag: str, command: str, game: str) -> str:
    """'--engine is not an option of `balance GAME`; it is taken by: simulate, ...': the option blamed
    on the command that does not take it, with the commands that do (for this game, else for any)."""
    for_game: list[str] = []
    for_other: dict[str, list[str]] = {}  # another game -> the commands taking the option for it
    for name, sub in _subcommands(build_parser()).items():
        games = _subcommands(sub)
        if flag in sub._option_string_actions or (game in games and flag in games[game]._option_string_actions):
            for_game.append(name)
            continue
        for other, parser in games.items():
            if flag in parser._option_string_actions:
                for_other.setdefault(other, []).append(name)
    where = f"{flag} is not an option of `{command} {game}`"
    see = f"(see: cardlab {command} {game} --help)"
    if for_game:
        return f"{where}; it is taken by: {', '.join(for_game)} {see}"
    if for_other:
        taken = "; ".join(f"for {other} by {', '.join(names)}" for other, names in for_other.items())
        return f"{where}, nor of any other command for {game}; it is taken {taken} {see}"
    return f"{where}: no cardlab command takes it {see}"


def main(argv: Sequence[str] | None = None) -> int:
    console = Console()
    try:
        args, extra = build_parser().parse_known_args(argv)
        if extra:
            game = getattr(args, "game", None)
            unknown = next((word for word in extra if word.startswith("-")), extra[0])
            if game and unknown.startswith("-"):
                raise UsageError(_not_an_option(unknown.split("=", 1)[0], args.command, game))
            raise UsageError(f"unrecognized arguments: {' '.join(extra)}")
        return int(args.handler(args, console))
    except CardlabError as exc:
        print(f"cardlab: error: {exc}", file=sys.stderr)
        return 2
    except _Reported:  # the command said what it kept
        return 130
    except KeyboardInterrupt:
        print("cardlab: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`cardlab ... --json | head`): nothing more to say
        sys.stderr.close()
        return 0
