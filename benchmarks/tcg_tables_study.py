"""The TCGs' balance tables under search: which matchups does the heuristic's table get wrong? (issue #19)

For each TCG the study runs, through the commands a designer types:

1. `cardlab ladder GAME --agents heuristic,SEARCH --games 200`: the search's strength against the heuristic
   at its cost per decision, so "under search" means under stronger play;
2. `cardlab compare GAME --agents heuristic,SEARCH --games N`: the default matchup table (every entrant
   against every other, both seats) topped up to N games per pairing and seat under both agents on common
   deals, every cell tested (two-proportion z, Holm over the cells).

It writes the "Tables under search" section of docs/balance.md (between `<!-- under-search -->` markers,
one more per game; the convergence study keeps them). Run: `python benchmarks/tcg_tables_study.py` (the full
tables take hours on two cores). Options: `--db lab.sqlite` keeps the games, so a rerun or a larger `--games`
plays only what is missing; `--backend ray [--address A]` plays them on a Ray cluster; `--only GAME` runs one
game; `--games GAME=N` changes its table size; each game's ladder.json, comparison.json and run.json are kept in
benchmarks/results/under-search/GAME/ (`--keep DIR` elsewhere), from which `--write-only` writes the section
without playing; `--dry-run` prints the section instead.

The games themselves are kept there too, in games.parquet (`cardlab export` of the game's heuristic and search
games, rewritten after every sitting, a stopped one included): before a sitting it is imported into the database
(`cardlab import`, skipping the games stored already), so that a table outlives the machine, and the temporary
database, that played it, and a sitting anywhere goes on where the last one stopped.

A table too big for one sitting is played over several: Ctrl-C stops the command with every finished
game stored and writes the section from them, and the same command goes on where it stopped (it keeps the
ladder when the code has not changed since it was played, and run.json lists every run).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _report import machine, write_section
from cardlab.sim.compare import restated
from cardlab.sim.stats import wilson_interval
from cardlab.store.fingerprint import fingerprint

CARDLAB = str(Path(sys.executable).with_name("cardlab"))
DOC = Path(__file__).resolve().parent.parent / "docs" / "balance.md"
KEEP = Path(__file__).resolve().parent / "results" / "under-search"
"""Where each game's ladder.json, comparison.json and run.json are kept (committed: the section's evidence)."""
GAMES_FILE = "games.parquet"
"""Each game's stored games, kept beside its evidence (committed too: a database dies with its machine)."""
LADDER_GAMES = 200

STUDIES = {
    # game: (the search, games per pairing and seat: 384 puts every cell's Wilson interval within ±5 points)
    "aterial": ("pimc:worlds=2:depth=10", 384),
    "dreadnought": ("pimc:worlds=2:depth=20", 384),
}


def cardlab(argv: list[str], workers: int, backend: list[str]) -> tuple[float, bool]:
    """Run one command (`backend`: `--backend ray [--address A]` or nothing), showing its progress: its
    wall time, and whether Ctrl-C stopped it. The command runs in its own session and gets one SIGINT
    from here, then all the time it needs to store its finished games (a second Ctrl-C gives up)."""
    start = time.perf_counter()
    command = [CARDLAB, *argv, "--workers", str(workers), *backend]
    process = subprocess.Popen(command, start_new_session=True, preexec_fn=_heed_sigint)
    try:
        code, stopped = process.wait(), False
    except KeyboardInterrupt:
        process.send_signal(signal.SIGINT)
        code, stopped = process.wait(), True
    if code and not stopped:
        raise SystemExit(f"`cardlab {' '.join(argv)}` failed (exit {code})")
    return time.perf_counter() - start, stopped


def _heed_sigint() -> None:
    """SIGINT back to its default in a command about to start, so that Python turns it into KeyboardInterrupt
    there: a shell script starts its background jobs with SIGINT ignored, and children inherit that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def bookkeeping(argv: list[str]) -> None:
    """Run `cardlab import` or `export`, which print their one line; a failure stops the study."""
    if subprocess.run([CARDLAB, *argv]).returncode:
        raise SystemExit(f"`cardlab {' '.join(argv)}` failed")


def restore_games(game: str, db: Path, folder: Path) -> None:
    """Before a sitting: the kept games into `db` (those stored already are skipped), so that it goes on where
    the last sitting stopped, whichever machine and database that was."""
    kept = folder / GAMES_FILE
    if kept.exists():
        bookkeeping(["import", game, str(kept), "--db", str(db)])


def keep_games(game: str, search: str, db: Path, folder: Path) -> None:
    """After a sitting: both agents' games of `game` in `db` to the kept file (only those: it stays small),
    written beside it and then moved over it, so that a stopped export never spoils the kept one."""
    part = folder / f"{GAMES_FILE}.part"
    agents = ["--agent", "heuristic", "--agent", search]
    bookkeeping(["export", game, "--db", str(db), *agents, "--format", "parquet", "--out", str(part)])
    part.replace(folder / GAMES_FILE)


def half_width(games: int) -> float:
    """The widest 95% Wilson half-width of a cell with `games` games (at a rate of 50%), in points."""
    z = 1.959963984540054
    return 100 * z * math.sqrt(0.25 / games + z * z / (16 * games * games)) / (1 + z * z / games)


def duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.0f} min" if seconds < 5400 else f"{seconds / 3600:.1f} h"


def pct(wins: int, games: int) -> str:
    return f"{wins}/{games} = {100 * wins / games:.1f}%"


def cell_name(cell: dict[str, Any]) -> str:
    a, b = cell["pairing"].split("-")
    return f"{a} vs {b}, {a} {'first' if cell['seat'] == 0 else 'second'}"


def block(game: str, search: str, ladder: dict[str, Any], ladder_argv: list[str], compare: dict[str, Any],
          compare_argv: list[str], seconds: float) -> list[str]:  # fmt: skip
    pair = ladder["pairs"][0]
    me = pair["agents"].index(search)
    wins, games, draws = pair["wins"][me], pair["games"], pair["draws"]
    low, high = wilson_interval(wins, games)
    cells = compare["cells"]
    fewest = min(min(cell["a_games"], cell["b_games"]) for cell in cells)
    lines = [
        f"### {game.capitalize()}",
        "",
        f"`cardlab {' '.join(ladder_argv)}`: `{search}` wins {pct(wins, games)} [{100 * low:.1f}%, {100 * high:.1f}%]"
        f"{f' ({draws} drawn)' if draws else ''} against the heuristic, at "
        f"{ladder['decision_ms'][search]:.3g} ms per decision "
        f"(the heuristic: {ladder['decision_ms']['heuristic']:.2g}).",
        "",
        f"`cardlab {' '.join(compare_argv)}` ({duration(seconds)} of play): "
        f"{len(cells)} cells, at least {fewest} games each under each agent (every cell's 95% interval within "
        f"±{half_width(fewest):.1f} points), {compare['games'][0]} and {compare['games'][1]} games in all. "
        f"**Verdict: {compare['verdict']}** (largest difference {100 * compare['max_abs_diff']:.1f} points; "
        f"{compare['test']}, {compare['correction']}).",
        "",
        *(
            [
                f"{len(compare['unmatched_cells'])} more cells have games under one agent only (a run stopped before "
                "its end) and are left out; rerunning the command plays what they lack.",
                "",
            ]
            if compare["unmatched_cells"]
            else []
        ),
        "The player in P1 wins "
        + " and ".join(
            f"{100 * rate['rate']:.1f}% [{100 * rate['ci95'][0]:.1f}%, {100 * rate['ci95'][1]:.1f}%] under {agent}"
            for agent, rate in zip(("the heuristic", "search"), compare["first_player"], strict=True)
        )
        + ".",
        "",
    ]
    differing = sorted((cell for cell in cells if cell["significant"]), key=lambda cell: -abs(cell["diff"]))
    if differing:
        flipped = [cell for cell in differing if (cell["a_rate"] - 0.5) * (cell["b_rate"] - 0.5) < 0]
        lines += [
            f"The cells the heuristic gets wrong ({len(differing)}; the first-named entrant's win rate; "
            f"{len(flipped)} change which side is favoured, marked ⇄):",
            "",
            "| cell | heuristic | search | diff (points) | 95% interval |",
            "|---|---:|---:|---:|---:|",
        ]
        for cell in differing:
            mark = " ⇄" if cell in flipped else ""
            lines.append(
                f"| {cell_name(cell)}{mark} | {100 * cell['a_rate']:.1f}% | {100 * cell['b_rate']:.1f}% | "
                f"{100 * cell['diff']:+.1f} | [{100 * cell['ci95'][0]:+.1f}, {100 * cell['ci95'][1]:+.1f}] |"
            )
        lines.append("")
    entrants = compare["entrants"]
    order_a = [row["entrant"] for row in sorted(entrants, key=lambda row: (-row["a_rate"], row["entrant"]))]
    lines += [
        "Each entrant over all its pairings and seats (* differs, Holm over the entrants):",
        "",
        "| entrant | heuristic | rank | search | rank | diff (points) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for rank, row in enumerate(entrants, 1):
        lines.append(
            f"| {row['entrant']} | {100 * row['a_rate']:.1f}% | {order_a.index(row['entrant']) + 1} | "
            f"{100 * row['b_rate']:.1f}% | {rank} | {100 * row['diff']:+.1f}{'*' if row['significant'] else ''} |"
        )
    return [*lines, ""]


def commit() -> str:
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()


def provenance(game: str, run: dict[str, Any]) -> str:
    """When, where and on which code: each run's commit, and the stored games' fingerprints (which name the
    rules, cards and agents' code exactly, so the games can be found in a kept database)."""
    prints = ", ".join(f"{agent} `{fingerprint(game, agent, 'reference')}`" for agent in ("heuristic", run["search"]))
    runs = [
        f"{part['date']} at commit `{part['commit']}` {part['where']} ({duration(part['seconds'])}"
        f"{', stopped part way' if part['stopped'] else ''})"
        for part in run["runs"]
    ]
    played = f"Played in {len(runs)} runs: " if len(runs) > 1 else "Run "
    return f"{played}{'; '.join(runs)}; games' fingerprints: {prints}."


def games_so_far(folder: Path) -> int:
    """Games under search in the kept comparison (0 before the first run)."""
    kept = folder / "compare" / "comparison.json"
    return json.loads(kept.read_text())["games"][1] if kept.exists() else 0


def run_game(game: str, size: int, db: Path, folder: Path, workers: int, backend: list[str], ladder: bool) -> bool:
    """Top up one game's comparison (and play its ladder, unless the kept one was played by this code or
    `ladder` is false), kept in `folder` with what `section` needs to report them; whether Ctrl-C stopped it.

    Each call adds a run to `run.json`, so a table played over several sittings reports them all; the games
    come from and go back to `folder`'s games.parquet (`restore_games`, `keep_games`)."""
    search = STUDIES[game][0]
    restore_games(game, db, folder)
    prints = {agent: fingerprint(game, agent, "reference") for agent in ("heuristic", search)}
    kept = folder / "run.json"
    run = json.loads(kept.read_text()) if kept.exists() else {}
    if run.get("search") != search:
        run = {"search": search, "runs": []}
    ladder_argv = ["ladder", game, "--agents", f"heuristic,{search}", "--games", str(LADDER_GAMES)]
    fresh = run.get("ladder_fingerprints") == prints and (folder / "ladder" / "ladder.json").exists()
    if ladder and not fresh:
        if cardlab([*ladder_argv, "--out", str(folder / "ladder")], workers, backend)[1]:
            return True  # a stopped ladder writes nothing: the kept one stands
        run["ladder_fingerprints"] = prints
    compare_argv = ["compare", game, "--agents", f"heuristic,{search}", "--games", str(size)]
    before, code = games_so_far(folder), commit() or "unknown"  # the code that plays, not what is checked out after
    try:
        seconds, stopped = cardlab([*compare_argv, "--db", str(db), "--out", str(folder / "compare")], workers, backend)
        if stopped:  # the table of what is stored now, playing nothing
            cardlab([*compare_argv[:-2], "--db", str(db), "--out", str(folder / "compare")], workers, backend)
    finally:  # whatever was played is kept, even by a sitting that failed
        keep_games(game, search, db, folder)
    workers_text = f"{workers} worker{'s' * (workers != 1)}"
    where = f"on a Ray cluster ({' '.join(backend)})" if backend else f"on {machine()} with {workers_text}"
    played = games_so_far(folder) - before
    today = str(datetime.date.today())
    run["runs"].append({"date": today, "commit": code, "where": where, "seconds": round(seconds), "played": played,
                        "stopped": stopped})  # fmt: skip
    run.update(ladder_argv=ladder_argv, compare_argv=compare_argv, seconds=sum(part["seconds"] for part in run["runs"]))
    run["provenance"] = provenance(game, run)
    kept.write_text(json.dumps(run, indent=2) + "\n")
    return stopped


def section(game: str, folder: Path) -> str:
    """One game's part of the section, from the files `run_game` kept."""
    run = json.loads((folder / "run.json").read_text())
    ladder = json.loads((folder / "ladder" / "ladder.json").read_text())
    compare = restated(json.loads((folder / "compare" / "comparison.json").read_text()))  # a kept one: today's words
    lines = block(game, run["search"], ladder, run["ladder_argv"], compare, run["compare_argv"], run["seconds"])
    history = [run["history"], ""] if run.get("history") else []  # what a reader should know of earlier tables
    return "\n".join([*lines[:2], run["provenance"], "", *history, *lines[2:]])


def main() -> None:
    signal.signal(signal.SIGINT, signal.default_int_handler)  # Ctrl-C / kill -INT stop a sitting, even one in the
    # background of a script, which would start it with SIGINT ignored (and lose the games of its last 30 s)
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", choices=sorted(STUDIES), action="append", help="run only this game (repeatable)")
    parser.add_argument("--games", action="append", default=[], metavar="GAME=N", help="games per pairing and seat")
    parser.add_argument("--db", type=Path, help="games database to keep and top up (default: a temporary one)")
    parser.add_argument("--keep", type=Path, default=KEEP, help="folder of each game's ladder, comparison and run")
    parser.add_argument("--write-only", action="store_true", help="play nothing: write the section from --keep")
    parser.add_argument("--no-ladder", action="store_true", help="keep the kept ladder even if the code changed")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--backend", choices=("process", "ray"), default="process", help="where the games run")
    parser.add_argument("--address", help="the Ray cluster to join (with --backend ray)")
    parser.add_argument("--dry-run", action="store_true", help="print the section instead of writing it")
    args = parser.parse_args()
    backend = (
        [] if args.backend == "process" else ["--backend", "ray", *(["--address", args.address] * bool(args.address))]
    )
    sizes = {game: size for game, (_, size) in STUDIES.items()}
    for item in args.games:
        game, _, size = item.partition("=")
        if game not in STUDIES or not size.isdigit():
            parser.error(f"--games {item!r}: expected GAME=N with GAME one of {', '.join(STUDIES)}")
        sizes[game] = int(size)
    intro = [
        "## Tables under search (TCGs)",
        "",
        "Written by `benchmarks/tcg_tables_study.py`. Each TCG's default table (every packaged deck with every "
        "leader or legal caster pair, both seats) played by the heuristic and by a search that beats it, on the "
        "same deals, and compared cell by cell: a cell the two tables disagree on is a matchup the heuristic's "
        "table gets wrong.",
    ]
    sections, stopped = {}, False
    with tempfile.TemporaryDirectory() as scratch:
        for game in args.only or list(STUDIES):
            if not args.write_only:
                (args.keep / game).mkdir(parents=True, exist_ok=True)
                db = args.db or Path(scratch) / "lab.sqlite"
                stopped = run_game(game, sizes[game], db, args.keep / game, args.workers, backend, not args.no_ladder)
            kept = [args.keep / game / name for name in ("run.json", "ladder/ladder.json", "compare/comparison.json")]
            if not all(path.exists() for path in kept):  # stopped before its first ladder or comparison
                print(f"{game}: nothing to report yet ({', '.join(str(p) for p in kept if not p.exists())} missing)")
                break
            sections[f"under-search-{game}"] = section(game, args.keep / game)
            if stopped:
                print(f"stopped: {game}'s section is written from the games stored so far; the same command goes on")
                break
    for name, body in {"under-search": "\n".join(intro), **sections}.items():  # one section per game: --only keeps
        print(body) if args.dry_run else write_section(name, body, DOC)  # the others


if __name__ == "__main__":
    main()
