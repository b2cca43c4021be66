"""What Accel 2's protection does to the table (E8.5, rule `accel2_protection`; issue #33).

The spec calls its reading of Accel 2's protection uncertain and names four readings, each a value of the
rule option. This study plays the Accel 2 table under the default search for every reading, with the
commands a designer types:

- `cardlab sweep edelweiss --standard accel2 --rule accel2_protection=as_written,none,club_still_owed,defender`
  (every reading on the same deals, each compared with the spec's reading cell by cell);
- the convergence check repeated for `accel2_protection=none`: `cardlab balance` at 250 and 4,000 iterations
  and `cardlab compare` 250 against 1,000 and 1,000 against 4,000: does the table stop moving without
  protection, as the Symbolic one does?

Each command's JSON output is kept in `benchmarks/results/protection/` and the section "Accel 2's
protection" of docs/balance.md (between `<!-- accel2-protection -->` markers, which the other studies keep)
is written from those files. Run: `python benchmarks/protection_study.py --db protection.sqlite` (needs the
`fast` extra; over an hour on two cores at the default 500 games per cell and seat, which resolve a
10-point cell difference); `--write-only` rewrites the section from the kept files without playing.
"""

from __future__ import annotations

import argparse
import datetime
import json
import shutil
import subprocess
import sys
import time
from itertools import pairwise
from pathlib import Path

from _report import machine, write_section

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "balance.md"
RESULTS = ROOT / "benchmarks" / "results" / "protection"
READINGS = ("as_written", "none", "club_still_owed", "defender")
MEANING = {
    "as_written": "tapping an upright club replaces the counter's discard (the spec's reading, the default)",
    "none": "no protection: the counter is paid as under Symbolic",
    "club_still_owed": "the tap keeps the spade, but another upright club is still discarded if there is one",
    "defender": "the attacker countered by a Guardian or Poison Bind holder protects, not the holder",
}
ITERATIONS = (250, 1000, 4000)
BASE = ["edelweiss", "--standard", "accel2"]


def search(iterations: int) -> str:
    return f"ismcts:iterations={iterations}:backend=cpu"


def cardlab(argv: list[str]) -> float:
    """Run a cardlab command as a user would; its wall time in seconds."""
    print("$ cardlab " + " ".join(argv), flush=True)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "cardlab", *argv], check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def play(db: str, games: int, work: Path) -> dict[str, object]:
    """Every command of the study, the cheaper first; what each wrote is copied into RESULTS, and run.json
    (command lines and times) is rewritten after each, so a stopped study keeps what it finished."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    runs: dict[str, object] = {}
    run = {"machine": machine(), "date": datetime.date.today().isoformat(), "games": games, "commands": runs}
    common = ["--games", str(games), "--db", db]
    none = ["--rule", "accel2_protection=none"]
    low, mid, high = ITERATIONS
    steps = [
        ("sweep", ["sweep", *BASE, "--rule", "accel2_protection=" + ",".join(READINGS), *common], "sweep.json",
         "sweep.json"),
        (f"balance-{low}", ["balance", *BASE, *none, "--agent", search(low), *common], "summary.json",
         f"none-{low}.json"),
        (f"compare-{low}-{mid}", ["compare", *BASE, *none, "--agents", f"{search(low)},{search(mid)}", "--db", db],
         "comparison.json", f"none-{low}-vs-{mid}.json"),
        (f"balance-{high}", ["balance", *BASE, *none, "--agent", search(high), *common], "summary.json",
         f"none-{high}.json"),
        (f"compare-{mid}-{high}", ["compare", *BASE, *none, "--agents", f"{search(mid)},{search(high)}", "--db", db],
         "comparison.json", f"none-{mid}-vs-{high}.json"),
    ]  # fmt: skip
    for key, argv, written, kept in steps:
        out = work / key
        runs[key] = {"argv": argv, "seconds": round(cardlab([*argv, "--out", str(out)]), 1)}
        shutil.copy(out / written, RESULTS / kept)
        (RESULTS / "run.json").write_text(json.dumps(run, indent=2) + "\n")
    return run


def pct(wins: int, games: int) -> str:
    return f"{100 * wins / games:.1f}" if games else "-"


def interval(ci: list[float]) -> str:
    return f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def rate_text(entry: dict) -> str:
    return f"{pct(entry['wins'], entry['games'])}% {interval(entry['ci95'])}"


def command_text(run: dict, key: str) -> str:
    entry = run["commands"][key]
    return f"`cardlab {' '.join(entry['argv'])}` ({entry['seconds'] / 60:.1f} min)"


def stopped_moving(comparisons: dict[tuple[int, int], dict]) -> str:
    """The answer in words: a table has stopped moving when no cell differs from the stronger one's at a
    resolution of 10 points or better (convergence_study.resolved); "no cell differs" at a wider one says little."""
    low, mid, high = ITERATIONS
    if (mid, high) not in comparisons:
        return f"**Not yet known:** the {high:,}-iteration table was not played (the study stopped before it)."
    last = comparisons[(mid, high)]
    if last["significant_cells"]:
        answer = "**No**"
    elif last.get("resolution_pp", 100.0) <= 10.0:
        answer = "**Yes**"
    else:
        answer = "**Cannot tell at this sample size**"
    earlier = comparisons.get((low, mid))
    return (
        f"{answer}: from {mid:,} to {high:,} iterations {last['verdict']} (largest difference "
        f"{100 * last['max_abs_diff']:.1f} points)"
        + (f"; from {low:,} to {mid:,}: {earlier['verdict']}." if earlier else ".")
    )


def totals_moved(summaries: dict[int, dict], characters: list[str]) -> list[str]:
    """The character totals pool ten cells each, so they show moves the cell tests cannot: the largest one
    from 1,000 to 4,000 iterations, for comparison with the spec's reading (ACCELA 33% to 25%, README)."""
    mid, high = ITERATIONS[1], ITERATIONS[2]
    if high not in summaries:
        return []

    def rate(n: int, character: str) -> float:
        entry = summaries[n]["characters"][character]
        return 100 * entry["wins"] / entry["games"]

    moved = max(characters, key=lambda c: abs(rate(high, c) - rate(mid, c)))
    largest = rate(high, moved) - rate(mid, moved)
    return [
        f"- The character totals, which pool ten cells each, move by at most {largest:+.1f} "
        f"points from {mid:,} to {high:,} iterations ({moved}); ACCELA {rate(mid, 'ACCELA'):.1f}% → "
        f"{rate(high, 'ACCELA'):.1f}%."
    ]


def section(run: dict) -> str:
    """The docs/balance.md section from the kept JSON files."""
    sweep = json.loads((RESULTS / "sweep.json").read_text())
    rows = {row["rules"].get("accel2_protection", "as_written"): row for row in sweep["variants"]}
    characters = list(sweep["entrants"])
    spec, none = rows["as_written"], rows["none"]
    accela = {reading: rows[reading]["characters"]["ACCELA"] for reading in READINGS}
    lines = [
        "## Accel 2's protection",
        "",
        f"Written by `benchmarks/protection_study.py` from the files it keeps in `benchmarks/results/protection/`; "
        f"never edited by hand. Machine: {run['machine']}; measured {run['date']}.",
        "",
        "Under Accel 2, Guardian and Poison Bind give their holder *protection* in the counter phase (E8.5). "
        "The source does not say what happens to the counter's cost, and the spec names four readings, each "
        "a value of the rule option `accel2_protection` (`cardlab rules edelweiss`):",
        "",
        *[f"- `{reading}`: {MEANING[reading]}." for reading in READINGS],
        "",
        f"Every reading's table under the default search, on the same deals (common random numbers), "
        f"{sweep['games_per_cell']:,} games per pairing and seat: {command_text(run, 'sweep')}.",
        "",
        f"- **Protection decides the Accel 2 table.** ACCELA, the only character without protection, wins "
        f"{rate_text(accela['as_written'])} of its games under the spec's reading and {rate_text(accela['none'])} "
        f"without protection ({rate_text(accela['club_still_owed'])} with `club_still_owed`, "
        f"{rate_text(accela['defender'])} with `defender`).",
        f"- Against the spec's reading, cell by cell: `none` {none['vs_baseline']['verdict']} "
        f"({none['vs_baseline']['significant_cells']} cells); `club_still_owed` "
        f"{rows['club_still_owed']['vs_baseline']['verdict']} "
        f"({rows['club_still_owed']['vs_baseline']['significant_cells']} cells); `defender` "
        f"{rows['defender']['vs_baseline']['verdict']} ({rows['defender']['vs_baseline']['significant_cells']} cells).",
        f"- The first player wins {rate_text(spec['first_player'])} under the spec's reading and "
        f"{rate_text(none['first_player'])} without protection.",
        "",
        "| character | " + " | ".join(f"`{reading}`" for reading in READINGS) + " |",
        "|---|" + "---:|" * len(READINGS),
        *[
            f"| {character} | " + " | ".join(rate_text(rows[r]["characters"][character]) for r in READINGS) + " |"
            for character in characters
        ],
        "| first player | " + " | ".join(rate_text(rows[r]["first_player"]) for r in READINGS) + " |",
        "",
    ]
    summaries = {ITERATIONS[1]: none}
    for iterations in (ITERATIONS[0], ITERATIONS[2]):
        path = RESULTS / f"none-{iterations}.json"
        if path.exists():  # a study stopped part way has no 4,000-iteration table yet
            summaries[iterations] = json.loads(path.read_text())
    comparisons = {
        (low, high): json.loads((RESULTS / f"none-{low}-vs-{high}.json").read_text())
        for low, high in pairwise(ITERATIONS)
        if (RESULTS / f"none-{low}-vs-{high}.json").exists()
    }
    played = [n for n in ITERATIONS if n in summaries]
    lines += [
        "### Does the table without protection stop moving?",
        "",
        "The convergence check of the Symbolic and Accel 2 sections, repeated for `accel2_protection=none`: "
        "the table at 250, 1,000 and 4,000 iterations, each compared with the next "
        f"(`cardlab balance ... --rule accel2_protection=none --agent {search(250)}` and `{search(4000)}`, "
        f"`cardlab compare ... --agents {search(250)},{search(1000)}` and `{search(1000)},{search(4000)}`).",
        "",
        f"- {stopped_moving(comparisons)}",
        *totals_moved(summaries, characters),
        "",
        "| character | " + " | ".join(f"{n:,} iterations" for n in played) + " |",
        "|---|" + "---:|" * len(played),
        *[
            f"| {character} | " + " | ".join(rate_text(summaries[n]["characters"][character]) for n in played) + " |"
            for character in characters
        ],
        "| first player | " + " | ".join(rate_text(summaries[n]["first_player"]) for n in played) + " |",
        "",
        "Commands and times: " + "; ".join(command_text(run, key) for key in run["commands"]) + ".",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="games database (kept: a re-run only plays what is missing)")
    parser.add_argument("--games", type=int, default=500, help="games per pairing and seat (default 500: ±10 pp)")
    parser.add_argument("--work", default="protection-study", help="folder for the commands' outputs")
    parser.add_argument("--write-only", action="store_true", help="rewrite the section from the kept files")
    args = parser.parse_args()
    if args.write_only:
        run = json.loads((RESULTS / "run.json").read_text())
    else:
        if not args.db:
            parser.error("--db is needed to play (or --write-only)")
        run = play(args.db, args.games, Path(args.work))
    write_section("accel2-protection", section(run), DOC)
    print(section(run))


if __name__ == "__main__":
    main()
