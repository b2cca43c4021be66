"""The `cardlab` command line: scenarios, terminal play, simulation and the balance lab."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from rich.console import Console

from cardlab.cli_options import Handler, build_parser, not_an_option
from cardlab.core.errors import CardlabError
from cardlab.core.extras import install_hint, needs_extra
from cardlab.sim.prepare import PreparedRun, check_agents, choose_engine, game_from_options, lab_base, prepare_run
from cardlab.sim.progress import games_per_second as _games_per_second
from cardlab.sim.progress import plain_progress

if TYPE_CHECKING:
    from cardlab.core.plugin import Matchups
    from cardlab.sim.tasks import GameTask, TaskResult
    from cardlab.store import GamesDB


class UsageError(CardlabError):
    """An option the chosen game does not have: reported like every other error, exit status 2."""


def _console(stderr: bool = False) -> Console:
    """cardlab's lines are data: a `[fast]`, a path or an agent spec is printed as typed, never read as rich
    markup or an emoji code (`play`'s board, drawn with markup, has a console of its own)."""
    return Console(stderr=stderr, markup=False, emoji=False)


def _say(console: Console, line: str) -> None:
    """A line naming an extra, a file, an agent or a command: one line, however narrow the terminal (it
    wraps it, so a path or a pip command is copied whole), and not coloured as if it were code."""
    console.print(line, soft_wrap=True, highlight=False)


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


@contextmanager
def _progress(console: Console, label: str, total: int) -> Iterator[Callable[[int], None]]:
    """A progress bar with games/s and ETA on a terminal, both from the first batch back; when piped, plain
    lines on stderr (stdout stays the command's output)."""
    if not console.is_terminal:
        with plain_progress(label, total, lambda line: print(line, file=sys.stderr, flush=True)) as advance:
            yield advance
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("{task.description}", markup=False),  # the label names agents and variants as typed
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


class _Reported(KeyboardInterrupt):
    """Ctrl-C whose one line the command has printed."""


def _interrupted(console: Console, what: str) -> NoReturn:
    """End a command stopped by Ctrl-C with one line saying what was kept (exit status 130, no traceback)."""
    _say(console, f"interrupted: {what}")
    raise _Reported from None


def _warm_up(console: Console, run: PreparedRun) -> None:
    """The line after a long run's first: which engine plays and whether its kernel compiles first (the first
    run on a machine compiles it: a few minutes for a search, cached by numba after); then compile it or
    load it from the cache, so that the progress starts when the games do."""
    from cardlab.sim.interrupt import ended_at_once

    if run.engine == "reference":
        return
    kernel, ready = "the search" if run.searches else "the kernel", run.compiled()
    status = console.status(f"compiling {kernel}") if console.is_terminal and not ready else None
    clear = "\r\x1b[2K\x1b[?25h" if status is not None else ""  # on Ctrl-C: the spinner's line cleared, the cursor back
    stopped = f"{clear}interrupted while {'loading' if ready else 'compiling'} {kernel}; nothing was played\n"
    with ended_at_once(stopped, _fileno(console)):
        if ready:
            _say(console, f"on the {run.engine} kernel ({kernel} is compiled and cached on this machine)")
            run.warm()
            return
        if run.engine == "cpu":
            note = f"{'a few minutes' if run.searches else 'seconds'}, once per machine: numba caches it"
        else:
            note = "JAX compiles it in every run"
        doing = "compiling" if ready is False else "loading or compiling"
        _say(console, f"on the {run.engine} kernel: {doing} {kernel} first ({note})")
        start = time.perf_counter()
        with status or nullcontext():
            run.warm()
    console.print(f"{kernel} ready in {time.perf_counter() - start:.0f} s", soft_wrap=True)


def _fileno(console: Console) -> int:
    """The file descriptor a console writes to (stdout's where it writes to something else, as under tests)."""
    try:
        return console.file.fileno()
    except (AttributeError, OSError, ValueError):
        return sys.__stdout__.fileno() if sys.__stdout__ is not None else 1


def _runner(
    args: argparse.Namespace, console: Console, label: str | Callable[[Sequence[GameTask]], str]
) -> Callable[[Sequence[GameTask]], Iterator[TaskResult]]:
    """Play a command's tasks across `--workers` (or on `--backend ray`) with progress under `label`: results
    in task order, as they come (so that each is stored at once); no progress where there is nothing to play."""
    from cardlab.sim.tournament import run_tasks

    def run(tasks: Sequence[GameTask]) -> Iterator[TaskResult]:
        if args.address and args.backend != "ray":
            raise CardlabError("--address is an option of --backend ray")
        if not tasks:
            return
        with _progress(console, label if isinstance(label, str) else label(tasks), len(tasks)) as advance:
            yield from run_tasks(tasks, args.workers, on_result=lambda _: advance(1), backend=args.backend,
                                 address=args.address)  # fmt: skip

    return run


def _agent_pair(text: str) -> tuple[str, str]:
    from cardlab.agents import parse_spec

    specs = [part.strip() for part in text.split(",")]
    if len(specs) != 2 or not all(specs):
        raise CardlabError(f"--agents takes two agent specs separated by a comma, got {text!r}")
    for spec in specs:
        parse_spec(spec)
    return specs[0], specs[1]


def cmd_simulate(args: argparse.Namespace, console: Console) -> int:
    """Two agents head to head; each deal is played twice with the seats swapped (logic: sim/simulate.py)."""
    from cardlab.sim.simulate import print_simulation, simulate

    if args.games < 1:
        raise CardlabError("--games must be at least 1")
    agents = _agent_pair(args.agents)
    game = game_from_options(args.game, vars(args), args.seed)
    notes = _console(stderr=True) if args.json else console  # stdout is the JSON's
    if args.engine != "reference":  # the first line, before the kernel is loaded or compiled
        _say(notes, f"simulate {game.name}: {agents[0]} vs {agents[1]}, {args.games:,} games")
    _warm_up(notes, prepare_run(game.name, agents, args.engine))
    run = _runner(args, console, f"{agents[0]} vs {agents[1]}")
    try:
        summary = simulate(game, agents, args.games, args.seed, args.engine, run, partial(_progress, console))
    except KeyboardInterrupt:
        _interrupted(notes, "simulate keeps no games; nothing was stored")
    if args.json:
        print(json.dumps(summary))
    else:
        print_simulation(summary, console)
    return 0


def _wrote(console: Console, out: Path, written: Sequence[str], more: str = "") -> None:
    """'wrote OUT/a.json, b.html; MORE': the files a command wrote, on one line as typed."""
    _say(console, f"wrote {out}/{', '.join(written)}{more}")


def _missing_plot(console: Console, what: str) -> None:
    """Reports go without their plot when matplotlib is absent; say how to get it."""
    _say(console, f"{what}: it needs the plots extra ({install_hint('plots')})")


def _open_db(path: str | None, out: Path | None = None) -> GamesDB:
    """`--db`, else the lab database beside the output folder."""
    from cardlab.store import GamesDB, default_db_path

    return GamesDB(Path(path) if path else default_db_path(out))


def _table_agent(args: argparse.Namespace, matchups: Matchups, console: Console) -> str:
    """`--agent`, or the game's default table agent (saying so when it is not the strong one)."""
    from cardlab.sim.prepare import table_agent

    agent, note = table_agent(args.agent, matchups)
    if note:
        _say(console, f"note: {note}")
    return agent


def _matchups(args: argparse.Namespace) -> Matchups:
    from cardlab.sim.prepare import lab_matchups

    return lab_matchups(args.game, vars(args))


def _out_dir(args: argparse.Namespace, command: str, matchups: Matchups) -> Path:
    return Path(args.out or f"{command}-{matchups.game}-{matchups.variant}")


def cmd_balance(args: argparse.Namespace, console: Console) -> int:
    """Play N more games per pairing and seat, store them as they finish, and report on everything stored.

    An interrupted run (Ctrl-C) keeps every finished game; the same command run again finishes it.
    """
    from cardlab.sim.balance import BalanceSetup, Played, pairings, play_balance
    from cardlab.sim.prepare import expected_agent

    if args.games < 1:
        raise CardlabError("--games must be at least 1")
    matchups = _matchups(args)
    cells = len(pairings(matchups.entrants, args.mirrors))
    _say(  # the first line, before numba is imported (half a second) or the kernel compiled (minutes)
        console,
        f"balance {matchups.game} {matchups.variant}: {cells} pairings x 2 seats x {args.games:,} new games "
        f"by {expected_agent(args.agent, matchups)}",
    )
    agent = _table_agent(args, matchups, console)
    prepared = prepare_run(matchups.game, (agent,), args.engine)
    _warm_up(console, prepared)
    engine, out = prepared.engine, _out_dir(args, "balance", matchups)
    run = _runner(args, console, f"balance {matchups.game} {matchups.variant} · {agent}")

    def resumed(stored: int) -> None:
        console.print(f"resuming an interrupted run: {stored} of its games or batches are stored")

    with _open_db(args.db, out) as db:
        start, played = time.perf_counter(), Played()
        setup = BalanceSetup(matchups, agent, args.games, args.seed, args.mirrors)
        try:
            play_balance(db, setup, engine, run, partial(_progress, console), played, resumed)
        except KeyboardInterrupt:
            count = f" ({played.games:,} this time)" if engine != "reference" else ""
            _interrupted(console, f"every finished game is stored in {db.path}{count}; run the command again to finish")
        elapsed = time.perf_counter() - start
        rate = _games_per_second(played.games / elapsed)
        _say(console, f"played {played.games} games in {elapsed:.1f} s ({rate}, {engine} engine); database {db.path}")
        _balance_report(console, db, matchups, agent, args.pool, played.games, out)
    return 0


def _balance_report(
    console: Console, db: GamesDB, matchups: Matchups, agent: str, pool: bool, new: int, out: Path
) -> None:
    """The table of the stored games this code played (all of them with `pool`), its files, and where they are."""
    from cardlab.sim.report import print_balance
    from cardlab.sim.table import balance_table

    table = balance_table(db, matchups, agent, pool, new, out)
    if table.note:
        _say(console, f"note: {table.note}")
    print_balance(table.summary, console, new)
    _wrote(console, out, table.written)
    if "heatmap.png" not in table.written:
        _missing_plot(console, "no heatmap")


def cmd_report(args: argparse.Namespace, console: Console) -> int:
    """Rebuild the balance tables and files from the games stored in the database."""
    matchups = _matchups(args)
    agent = _table_agent(args, matchups, console)
    out = _out_dir(args, "balance", matchups)
    with _open_db(args.db, out) as db:
        _balance_report(console, db, matchups, agent, args.pool, 0, out)
    return 0


def cmd_ladder(args: argparse.Namespace, console: Console) -> int:
    """Every pair of agents head to head on common deals; ratings and decision cost (logic: sim/ladder.py)."""
    from cardlab.sim.ladder import parse_agents, play_ladder, print_ladder, write_ladder_files

    agents = parse_agents(args.agents)
    game = game_from_options(args.game, vars(args), args.seed)
    check_agents(agents, game.name)
    run = _runner(args, console, f"ladder {game.name}")
    engine = choose_engine(args.engine, game.name, ())  # per pair, agents the kernel cannot play use the reference
    track = partial(_progress, console)
    try:
        summary = play_ladder(game.name, game.config_json(), agents, args.games, args.seed, engine, run, track)
    except KeyboardInterrupt:
        _interrupted(_console(stderr=True) if args.json else console, "a ladder keeps no games; nothing was written")
    out = Path(args.out or f"ladder-{game.name}")
    written = write_ladder_files(summary, out)
    if args.json:
        print(json.dumps(summary))
        return 0
    print_ladder(summary, console)
    _wrote(console, out, written, f" in {summary['seconds']:.1f} s")
    if "ladder.png" not in written:
        _missing_plot(console, "no plot")
    return 0


def cmd_compare(args: argparse.Namespace, console: Console) -> int:
    """Two agents' balance tables side by side, topped up to --games first (logic: sim/compare.py)."""
    from cardlab.sim.compare import print_comparison, run_comparison, write_comparison_files

    agents = _agent_pair(args.agents)
    matchups = _matchups(args)
    tops_up = args.games is not None
    prepared = prepare_run(matchups.game, agents, args.engine if tops_up else "reference")  # no engine plays
    if tops_up:
        what = f"compare {matchups.game} {matchups.variant}: {agents[0]} vs {agents[1]}"
        _say(console, f"{what}, each table topped up to {args.games:,} games per pairing and seat")
        _warm_up(console, prepared)
    run = _runner(args, console, lambda tasks: f"compare {matchups.game} {matchups.variant} · {tasks[0].agents[0]}")

    def played(agent: str, count: int) -> None:
        _say(console, f"{agent}: played {count} missing games ({prepared.engine} engine)")

    out = _out_dir(args, "compare", matchups)
    with _open_db(args.db, out) as db:
        try:
            summary = run_comparison(
                db, matchups, agents, args.games, args.seed, args.mirrors, prepared.engine, run, played,
                partial(_progress, console),
            )  # fmt: skip
        except KeyboardInterrupt:
            _interrupted(console, f"every finished game is stored in {db.path}; run the command again to finish")
    written = write_comparison_files(summary, out)
    print_comparison(summary, console)
    _wrote(console, out, written, f"; stored as comparison {summary['id']} in {db.path}")
    if "difference.png" not in written:
        _missing_plot(console, "no plot")
    return 0


def _prepare_variant_tables(
    args: argparse.Namespace, console: Console, base: Matchups, header: Callable[[str], str]
) -> PreparedRun:
    """What `sweep` and `tune` do before they play: the table agent, the pre-flight, their first line (`header`
    of the agent), and the kernel compiled."""
    agent = _table_agent(args, base, console)
    prepared = prepare_run(base.game, (agent,), args.engine)
    _say(console, header(agent))
    _warm_up(console, prepared)
    return prepared


def cmd_sweep(args: argparse.Namespace, console: Console) -> int:
    """Each variant's table, --games per pairing and seat in every row (one plan: only its own stored games
    are reused), compared with the game as specified (logic: sim/sweep.py)."""
    from cardlab.games import game_class
    from cardlab.sim.sweep import print_sweep, run_sweep, sweep_variants, write_sweep_files

    base = lab_base(args.game, vars(args))
    rules, patches = getattr(args, "rule", []), getattr(args, "patch", [])
    variants = sweep_variants(game_class(args.game).rule_options, rules, patches, base)
    header = f"sweep {base.game} {base.variant}: {len(variants)} variants by "
    prepared = _prepare_variant_tables(args, console, base, lambda agent: header + agent)
    agent, engine = prepared.agents[0], prepared.engine

    def label(tasks: Sequence[GameTask]) -> str:
        config = tasks[0].config
        changes = [f"{name}={value}" for name, value in (config.get("rules") or {}).items()]
        return f"sweep {base.game} · {'+'.join(changes + list(config.get('patches') or [])) or 'as specified'}"

    def played(variant: str, count: int, reused: int) -> None:
        stored = f", {reused} stored by an earlier run of this plan" if reused else ""
        _say(console, f"{variant}: played {count} new games ({engine} engine){stored}")

    out = _out_dir(args, "sweep", base)
    with _open_db(args.db, out) as db:
        try:
            sweep, summaries = run_sweep(
                db, base, variants, agent, args.games, args.seed, args.mirrors, engine,
                _runner(args, console, label), partial(_progress, console), played,
            )  # fmt: skip
        except KeyboardInterrupt:
            _interrupted(console, f"every finished game is stored in {db.path}; run the command again to finish")
    written = write_sweep_files(sweep, summaries, out)
    print_sweep(sweep, console)
    _wrote(console, out, written, f"; games stored in {db.path}")
    return 0


def cmd_tune(args: argparse.Namespace, console: Console) -> int:
    """The smallest edits in the declared space that bring the table to the target, raced with common
    deals, the survivors confirmed at --games (logic: sim/tune.py)."""
    from cardlab.games import game_class
    from cardlab.sim.tune import (
        Budget,
        parse_targets,
        print_tune,
        run_tune,
        tune_candidates,
        tune_dimensions,
        write_tune_files,
    )

    base = lab_base(args.game, vars(args))
    rules, patches = getattr(args, "rule", []), getattr(args, "patch", [])
    candidates = tune_candidates(tune_dimensions(game_class(args.game).rule_options, rules, patches, base),
                                 args.max_edits)  # fmt: skip
    targets, budget = parse_targets(args.target), Budget.parse(args.budget)
    prepared = _prepare_variant_tables(args, console, base, lambda agent: (
        f"tune {base.game} {base.variant}: {len(candidates)} candidates with at most {args.max_edits} edit(s) by "
        f"{agent}, target {', '.join(t.text for t in targets)}"
    ))  # fmt: skip

    def rung(index: int, games: int, alive: int) -> None:
        console.print(f"rung {index + 1}: {alive} candidates, {games} games per pairing and seat", highlight=False)

    out = _out_dir(args, "tune", base)
    with _open_db(args.db, out) as db:
        try:
            tune = run_tune(
                db, base, candidates, targets, prepared.agents[0], args.games, budget, args.seed, args.mirrors,
                prepared.engine, _runner(args, console, f"tune {base.game}"), track=partial(_progress, console),
                on_rung=rung,
            )  # fmt: skip
        except KeyboardInterrupt:
            _interrupted(console, f"every finished game is stored in {db.path}; run the command again to go on")
        written = write_tune_files(tune, db, base, out)
    print_tune(tune, console)
    _wrote(console, out, written, f"; games stored in {db.path}")
    return 0


def cmd_meta(args: argparse.Namespace, console: Console) -> int:
    """MAP-Elites deck search over the card pool, the double-oracle equilibrium of what it finds, confirmed by the
    table agent, and the cards responsible (logic: sim/meta.py, files: sim/meta_files.py)."""
    from cardlab.sim.meta import run_meta, start_meta
    from cardlab.sim.meta_files import print_meta
    from cardlab.sim.tournament import run_tasks

    base = lab_base(args.game, {"cards": args.cards})
    agent = _table_agent(args, base, console)
    search, confirm = (prepare_run(base.game, (spec,), args.engine) for spec in (args.search_agent, agent))
    _say(console, f"meta {base.game}: decks scored by {args.search_agent} ({search.engine} engine), finalists "
                  f"confirmed by {agent} ({confirm.engine} engine), budget {args.budget or '20000'}")  # fmt: skip
    _warm_up(console, search)
    _warm_up(console, confirm)
    out = Path(args.out or f"meta-{base.game}")
    with _open_db(args.db, out) as db:
        agents = ((args.search_agent, search.engine), (agent, confirm.engine))
        meta = start_meta(
            base.game, vars(args) | {"out": str(out)}, db, agents,
            lambda tasks: run_tasks(tasks, args.workers, backend=args.backend, address=args.address),
            lambda line: _say(console, line),
        )  # fmt: skip
        try:
            result, written = run_meta(meta, _runner(args, console, f"meta {base.game} finalists"),
                                       partial(_progress, console))  # fmt: skip
        except KeyboardInterrupt:
            _interrupted(console, f"every finished game is stored in {db.path}; run the command again to resume")
    print_meta(result, console)
    _wrote(console, out, written, f"; games stored in {db.path}")
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
    """Every problem of a deck file and its card files as `FILE:LINE: RULE: message` lines, from the checker
    `balance --entrants --cards` uses: files that do not read are an error (exit 2, as `balance` reports
    them); a deck that reads but breaks deck rules is the answer (exit 1, each violation on stdout)."""
    from cardlab.core.datacheck import DataProblems, deck_validation
    from cardlab.games import game_class

    cls = game_class(args.game)
    if not cls.deck_files:
        raise CardlabError(f"{cls.name} has no deck files")
    card_files = [Path(path) for path in args.cards or ()]
    deck, problems = deck_validation(cls, Path(args.file), card_files)
    if problems and not deck:
        raise DataProblems(problems, files="the deck and card files", outcome="the deck could not be judged")
    for problem in problems:
        print(problem)
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
    _say(console, f"wrote {written} rows of {args.game} to {args.out} ({args.format}; schema: docs/export.md)")
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
    _say(
        console,
        f"{args.file}: {rows[0]:,} rows added to {db.path} ({played[0]:,} games), "
        f"{rows[1] - rows[0]:,} already there ({played[1] - played[0]:,} games)",
    )
    return 0


def cmd_games(args: argparse.Namespace, console: Console) -> int:
    """Every registered game's profile, as a TCG catalog lays it out, each entry with its rule id."""
    from rich.table import Table
    from rich.text import Text

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
            console.print(Text.assemble((cls.title, "bold"), f" ({name}): {len(catalog)} cards"), highlight=False)
            for _, words in catalog:
                console.print(words.text(), highlight=False)
            continue
        if profile is None:
            console.print(Text.assemble((cls.title, "bold"), f" ({name}): no profile"))
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
    from cardlab.play.terminal import game_to_play, play_game

    return play_game(game_to_play(args), args, Console())  # the terminal draws with markup, escaping what it quotes


def cmd_serve(args: argparse.Namespace, console: Console) -> int:
    """Run the web app (needs the `web` extra)."""
    try:
        import uvicorn

        from cardlab.web.app import create_app
    except ImportError:
        raise CardlabError(needs_extra("the web app", "web")) from None
    from cardlab.store.games_db import legacy_db_path
    from cardlab.web.lab import lab_settings
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
    lab = lab_settings(args.lab_dir, args.lab_db, args.host)
    db = Path(args.db) if args.db else legacy_db_path().with_name("play.sqlite")
    _say(console, f"cardlab web app on http://{args.host}:{args.port}/ (database {db})")
    _say(
        console,
        f"the Lab: /lab on {lab.lab_db}, files in {lab.lab_dir}" + (f"; token {lab.token}" if lab.token else ""),
    )
    # A keep-alive longer than clients' idle pools (httpx 5 s, browsers longer) lets the client
    # close first, so a request on a reused connection never races the server's close.
    uvicorn.run(
        create_app(db, limits=limits, lab=lab),
        host=args.host,
        port=args.port,
        log_level="warning",
        timeout_keep_alive=args.keep_alive,
    )
    return 0


HANDLERS: dict[str, Handler] = {
    "scenario run": cmd_scenario_run, "play": cmd_play, "simulate": cmd_simulate, "balance": cmd_balance,
    "report": cmd_report, "ladder": cmd_ladder, "compare": cmd_compare, "sweep": cmd_sweep, "tune": cmd_tune,
    "export": cmd_export, "import": cmd_import, "rules": cmd_rules, "games": cmd_games, "serve": cmd_serve,
    "deck validate": cmd_deck_validate, "meta": cmd_meta,
}  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    console = _console()
    try:
        parser = build_parser(__doc__ or "", HANDLERS)
        args, extra = parser.parse_known_args(argv)
        if extra:
            game = getattr(args, "game", None)
            unknown = next((word for word in extra if word.startswith("-")), extra[0])
            if game and unknown.startswith("-"):
                raise UsageError(not_an_option(parser, unknown.split("=", 1)[0], args.command, game))
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
