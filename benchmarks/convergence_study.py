"""Does the Edelweiss balance table stop moving when the search gets stronger? Writes docs/balance.md.

For both standards it plays (or tops up, in one games database) the balance table under the
heuristic and under the compiled search at 250, 1,000 and 4,000 iterations, compares the tables
in turn with `cardlab compare`, and reports where they stop differing, what the strongest table
says (first-player rate, character ranking) and how far the heuristic's table is from it. Every
figure comes from the commands a designer runs (`cardlab balance`, `cardlab compare`,
`cardlab ladder`), all with the kernel (`--engine cpu`).

Run: `python benchmarks/convergence_study.py --db study.sqlite` (needs the `fast` extra; an hour or
more on two cores at the default sizes; a re-run with the same database only plays what is missing).
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import subprocess
import sys
import tempfile
from itertools import pairwise
from pathlib import Path

from _report import machine
from cardlab.sim.stats import detectable_difference

DOC = Path(__file__).resolve().parent.parent / "docs" / "balance.md"
STANDARDS = {"symbolic": "Symbolic", "accel2": "Accel 2"}
HEURISTIC = "heuristic"
FAST = "heuristic:epsilon=0.1"
"""A fast candidate: the heuristic with one random move in ten (a deterministic policy replays one line per deal)."""


def search(iterations: int) -> str:
    return f"ismcts:iterations={iterations}:backend=cpu"


def cardlab(*argv: str) -> str:
    """Run a cardlab command as a user would; its printed output."""
    done = subprocess.run([sys.executable, "-m", "cardlab", *argv], check=True, capture_output=True, text=True)
    return done.stdout


def table(db: str, standard: str, agent: str, games: int, out: Path) -> dict:
    """The agent's stored table, first topped up to `games` per cell and seat; its summary.json."""
    report = ["report", "edelweiss", "--standard", standard, "--agent", agent, "--db", db, "--out", str(out)]
    try:
        cardlab(*report)
        have = json.loads((out / "summary.json").read_text())["games_per_cell"]
    except subprocess.CalledProcessError:  # nothing stored yet
        have = 0
    if have < games:
        cardlab("balance", "edelweiss", "--standard", standard, "--agent", agent, "--games", str(games - have),
                "--engine", "cpu", "--db", db, "--out", str(out))  # fmt: skip
    return json.loads((out / "summary.json").read_text())


def compare(db: str, standard: str, a: str, b: str, out: Path) -> dict:
    cardlab("compare", "edelweiss", "--standard", standard, "--agents", f"{a},{b}", "--db", db, "--out", str(out))
    return json.loads((out / "comparison.json").read_text())


def rate(summary: dict, character: str) -> float:
    entry = summary["characters"][character]
    return float(entry["wins"] / entry["games"])


def pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def interval(ci: list[float]) -> str:
    return f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def first_player_row(label: str, summary: dict) -> str:
    first = summary["first_player"]
    return f"| {label} | {summary['games_per_cell']:,} | {pct(first['rate'])} {interval(first['ci95'])} |"


def character_rows(summaries: dict[str, dict], order: list[str]) -> list[str]:
    agents = list(summaries)
    rows = ["| character | " + " | ".join(agents) + " |", "|---|" + "---:|" * len(agents)]
    for character in order:
        cells = []
        for agent in agents:
            entry = summaries[agent]["characters"][character]
            cells.append(f"{pct(entry['wins'] / entry['games'])} {interval(entry['ci95'])}")
        rows.append(f"| {character} | " + " | ".join(cells) + " |")
    return rows


def comparison_row(a: str, b: str, result: dict) -> str:
    worst = result.get("max_abs_diff_cell") or {}
    where = f" ({worst.get('pairing')}, seat {worst.get('seat')})" if worst else ""
    return (
        f"| {a} | {b} | {result['significant_cells']} of {len(result['cells'])} | "
        f"{100 * result['max_abs_diff']:.1f} pp{where} | {result['verdict']} |"
    )


def conclusions(
    levels: list[tuple[str, int]], pairs: list[tuple[str, str]], results: list[dict], summaries: dict, ranked: list[str]
) -> list[str]:
    """What the figures below say, in words: where the table stops moving, and how far the heuristic is."""
    verdicts = {pair: result for pair, result in zip(pairs, results, strict=True)}
    strongest = levels[-1][0]
    steps = list(pairwise(agent for agent, _ in levels[1:]))
    settled = next((a for a, b in steps if resolved(verdicts[(a, b)])), None)
    first = summaries[strongest]["first_player"]
    heuristic, fast = verdicts[(HEURISTIC, strongest)], verdicts[(FAST, strongest)]
    drift = []
    for a, b in steps:
        moved = max(summaries[a]["characters"], key=lambda c: abs(rate(summaries[b], c) - rate(summaries[a], c)))
        change = 100 * (rate(summaries[b], moved) - rate(summaries[a], moved))
        drift.append(f"{a} to {b}: {moved} {change:+.1f}")
    words = [
        "- **Where it stops moving:** "
        + (
            f"no cell of the {settled} table differs from the next stronger one (resolution "
            f"±{verdicts[(settled, next(b for a, b in steps if a == settled))]['resolution_pp']:.1f} points)"
            if settled
            else "no step up to 4,000 iterations shows the tables agreeing within 10 points (cells differ, or "
            "too few games to tell)"
        )
        + "; "
        + "; ".join(f"{a} vs {b}: {verdicts[(a, b)]['verdict']}" for a, b in steps)
        + ". The character totals pool ten times the games of a cell, so they show smaller moves; "
        + "the largest move of a character's total from one level to the next (points): "
        + "; ".join(drift)
        + ".",
        f"- **What the strongest table says ({strongest}):** the first player wins {pct(first['rate'])} "
        f"{interval(first['ci95'])}; characters from strongest to weakest: "
        + ", ".join(f"{c} {pct(rate(summaries[strongest], c))}" for c in ranked)
        + ".",
        f"- **The heuristic's table** against it: {heuristic['verdict']}, the largest by "
        f"{100 * heuristic['max_abs_diff']:.1f} points; its first player wins "
        f"{pct(summaries[HEURISTIC]['first_player']['rate'])}. With one random move in ten ({FAST}, as fast): "
        f"{fast['verdict']}, the largest by {100 * fast['max_abs_diff']:.1f} points; its first player wins "
        f"{pct(summaries[FAST]['first_player']['rate'])}.",
        "",
    ]
    return words


def detectable(games_a: int, games_b: int, cells: int = 30) -> float:
    """The smallest cell difference (points) that the Holm-corrected test can flag at even odds: the
    first, strictest Holm step at alpha 0.05 over `cells` cells (the `resolution_pp` of `cardlab compare`)."""
    return 100 * detectable_difference(games_a, games_b, cells, 0.05)


def resolved(result: dict) -> bool:
    """Whether a comparison says the two tables agree: no cell differs, at a resolution of 10 points or
    better (a comparison without `resolution_pp`, stored before issue #33, is taken as unresolved)."""
    resolution = result.get("resolution_pp")
    return result["significant_cells"] == 0 and resolution is not None and resolution <= 10.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", required=True, help="games database (kept: a re-run only plays what is missing)")
    parser.add_argument("--games", type=int, default=1000, help="games per cell and seat (heuristic, 250, 1000)")
    parser.add_argument("--strong-games", type=int, default=300, help="games per cell and seat at 4,000 iterations")
    parser.add_argument("--ladder-games", type=int, default=400, help="games per pair in the ladder")
    args = parser.parse_args()

    levels = [(HEURISTIC, args.games), (search(250), args.games), (search(1000), args.games)]
    levels.append((search(4000), args.strong_games))
    lines = [
        "# Balance under strong play: the convergence study",
        "",
        "Written by `benchmarks/convergence_study.py`; never edited by hand. "
        f"Machine: {machine()}. Measured {datetime.date.today().isoformat()} with "
        f"`python benchmarks/convergence_study.py --games {args.games} --strong-games {args.strong_games} "
        f"--ladder-games {args.ladder_games}`.",
        "",
        "A balance table is a property of the game only if it stops moving when the players get stronger. "
        "Each standard's table (15 pairings x 2 seats, mirror agents) is played by the `heuristic` and by the "
        "compiled search `ismcts:iterations=N:backend=cpu` at N = 250, 1,000 and 4,000, then each table is "
        "compared with the next (`cardlab compare`: per cell the difference of the two rates with a Newcombe "
        '95% interval, a two-proportion z-test, Holm-Bonferroni over the 30 cells). "No cell differs" has a '
        f"resolution: with {args.games:,} games per cell and seat on both sides a cell must differ by about "
        f"{detectable(args.games, args.games):.0f} points to be flagged, against the {args.strong_games:,} games at "
        f"4,000 iterations by about {detectable(args.games, args.strong_games):.0f}; the first player's rate and the "
        "character totals pool many cells, so smaller moves show there.",
        "",
    ]
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for standard, label in STANDARDS.items():
            summaries = {agent: table(args.db, standard, agent, games, work / standard / f"table{i}")
                         for i, (agent, games) in enumerate([*levels, (FAST, args.games)])}  # fmt: skip
            pairs = list(pairwise(agent for agent, _ in levels))
            strongest = levels[-1][0]
            pairs.append((HEURISTIC, strongest))
            pairs.append((search(250), strongest))
            pairs.append((FAST, strongest))
            results = [compare(args.db, standard, a, b, work / standard / f"cmp{i}") for i, (a, b) in enumerate(pairs)]
            ranked = sorted(summaries[strongest]["characters"], key=lambda c: -rate(summaries[strongest], c))
            lines += [
                f"## {label}",
                "",
                *conclusions(levels, pairs, results, summaries, ranked),
                "",
                "First player's win rate over the whole table (95% Wilson interval):",
                "",
                "| agent | games per cell and seat | first player wins |",
                "|---|---:|---:|",
                *[first_player_row(agent, summary) for agent, summary in summaries.items()],
                "",
                "Each character's win rate over all its games (both seats, every opponent), ranked by the "
                f"strongest table ({strongest}):",
                "",
                *character_rows(summaries, ranked),
                "",
                "Tables compared in turn (diff = second rate - first rate):",
                "",
                "| table A | table B | cells that differ | largest difference | verdict |",
                "|---|---|---:|---:|---|",
                *[comparison_row(a, b, result) for (a, b), result in zip(pairs, results, strict=True)],
                "",
            ]
        agents = ",".join(["random", FAST, *(agent for agent, _ in levels)])
        ladder_argv = ["ladder", "edelweiss", "--standard", "symbolic", "--engine", "cpu", "--agents", agents]
        ladder = json.loads(
            cardlab(*ladder_argv, "--games", str(args.ladder_games), "--out", str(work / "l"), "--json")
        )
    lines += [
        "## Strength and cost (Symbolic ladder)",
        "",
        f"`cardlab ladder edelweiss --standard symbolic --engine cpu --games {args.ladder_games}`: every pair on "
        "common deals, seats swapped; Bradley-Terry ratings on the Elo scale (mean 0) with bootstrap intervals.",
        "",
        "| agent | rating | 95% interval | ms per decision |",
        "|---|---:|---:|---:|",
    ]
    for agent, rating in sorted(ladder["ratings"].items(), key=lambda item: -item[1]["elo"]):
        low, high = rating["ci95"]
        lines.append(
            f"| {agent} | {rating['elo']:+.0f} | [{low:+.0f}, {high:+.0f}] | {ladder['decision_ms'][agent]:.3g} |"
        )
    # The marked sections other studies write (whatif_study.py, tcg_tables_study.py) are kept as they are.
    kept = re.finditer(r"<!-- ([\w-]+) -->.*?<!-- /\1 -->", DOC.read_text(), re.S) if DOC.exists() else ()
    DOC.write_text("\n".join(lines).rstrip() + "\n" + "".join(f"\n{match.group(0)}\n" for match in kept))
    print(DOC.read_text())


if __name__ == "__main__":
    main()
