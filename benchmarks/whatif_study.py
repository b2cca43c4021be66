"""What-if: one worked rule-variant sweep per game, run with the commands a designer types (issue #17).

Each example is a `cardlab sweep` command line; its sweep.json becomes a table in the "What-if" section of
docs/balance.md (between `<!-- what-if -->` markers; the convergence study keeps that section). Run:
`python benchmarks/whatif_study.py` (a few minutes on two cores); `--dry-run` prints the section.
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _report import machine, write_section

CARDLAB = str(Path(sys.executable).with_name("cardlab"))
DOC = Path(__file__).resolve().parent.parent / "docs" / "balance.md"

EXAMPLES = (
    (
        "Edelweiss: what if the first player skipped the first draw (E3.2), or a deck-out tie were a draw (E6.2)?",
        ["sweep", "edelweiss", "--rule", "first_draw=yes,no", "--rule", "deck_out_tie=P2,draw",
         "--agent", "ismcts:iterations=250:backend=cpu", "--games", "300"],
    ),
    (
        "Aterial: what if the first player could not deploy on turn 1 (A11.8)?",
        ["sweep", "aterial", "--rule", "first_turn_deploy=both,second_only", "--agent", "heuristic", "--games", "40"],
    ),
    (
        "Dreadnought: what if each player took two bursts a turn instead of one (D7.2)?",
        ["sweep", "dreadnought", "--rule", "draw_bursts=1,2", "--agent", "heuristic", "--games", "60"],
    ),
)  # fmt: skip


def run(argv: list[str], folder: Path) -> tuple[dict, float]:
    start = time.perf_counter()
    subprocess.run([CARDLAB, *argv, "--out", str(folder / "out"), "--db", str(folder / "lab.sqlite")],
                   check=True, capture_output=True, text=True)  # fmt: skip
    return json.loads((folder / "out" / "sweep.json").read_text()), time.perf_counter() - start


def pct(rate: dict) -> str:
    value = rate.get("rate", rate["wins"] / rate["games"] if rate["games"] else 0.0)
    low, high = rate["ci95"]
    return f"{100 * value:.1f} [{100 * low:.1f}, {100 * high:.1f}]"


def block(question: str, argv: list[str], sweep: dict, seconds: float) -> list[str]:
    kind = sweep["kind"]
    lines = [f"### {question}", "", f"`cardlab {' '.join(argv)}` ({seconds:.0f} s, {sweep['engine']} engine)", ""]
    lines += ["| variant | first player % | most unbalanced cell | against the game as specified |",
              "|---|---:|---|---|"]  # fmt: skip
    for row in sweep["variants"]:
        worst = row["most_unbalanced"]
        cell = "-" if worst is None else f"{worst['cell']}: {100 * worst['rate']:.1f}%"
        versus = (
            "-"
            if row["label"] == sweep["baseline"]
            else (f"{row['vs_baseline']['verdict']}; largest move {100 * row['vs_baseline']['max_abs_diff']:.1f} pp")
        )
        lines.append(f"| {row['label']} | {pct(row['first_player'])} | {cell} | {versus} |")

    def rate(row: dict, entrant: str) -> float:
        tally = row[kind][entrant]
        return tally["wins"] / tally["games"] if tally["games"] else 0.0

    baseline = sweep["variants"][0]
    moves = []
    for row in sweep["variants"][1:]:
        shifts = [(e, rate(row, e) - rate(baseline, e)) for e in baseline[kind] if e in row[kind]]
        entrant, move = max(shifts, key=lambda item: abs(item[1]))
        moves.append(f"{row['label']}: {entrant} {100 * move:+.1f} pp")
    lines += ["", f"Largest move of one {kind.removesuffix('s')}'s overall rate: " + "; ".join(moves) + "."]
    if sweep.get("resolution_pp") is not None:  # what "no difference found" can mean at this size (issue #33)
        lines += [
            "",
            f"Resolution ±{sweep['resolution_pp']:.1f} pp: the smallest move of one cell the test could have "
            f"flagged with {sweep['games_per_cell']} games per pairing and seat; about "
            f"{sweep['games_for_10_pp']:,} would resolve 10 points.",
        ]
    lines.append("")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dry-run", action="store_true", help="print the section instead of writing it")
    args = parser.parse_args()
    lines = [
        "## What-if: rule variants and card edits",
        "",
        f"Written by `benchmarks/whatif_study.py` on {machine()}, {datetime.date.today()}. Each table is one "
        "`cardlab sweep`: the balance table under every combination of the swept values, each compared cell by "
        "cell with the game as specified on the same deals (two-proportion z-tests, conservative on common deals, "
        "Holm-Bonferroni; the verdict lists the cells that moved, or says no difference was found and the "
        "resolution: the smallest move the test could have flagged at that size; a draw is a game won by "
        "neither side). "
        "`cardlab rules GAME` lists every lever; "
        "`--patch CARD.FIELD=V1,V2` sweeps a card's stat the same way.",
        "",
    ]
    for question, argv in EXAMPLES:
        with tempfile.TemporaryDirectory() as folder:
            sweep, seconds = run(argv, Path(folder))
        lines += block(question, argv, sweep, seconds)
    body = "\n".join(lines)
    print(body) if args.dry_run else write_section("what-if", body, DOC)


if __name__ == "__main__":
    main()
