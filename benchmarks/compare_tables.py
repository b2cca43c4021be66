"""Two balance tables of one game compared cell by cell, from the files `cardlab balance` wrote.

`cardlab compare` plays both agents on its own plan (topping each table up to N games per cell of the current
code); this reads two finished tables instead (`table.csv` and `summary.json` of each `--out` folder), e.g. a
table at 300 games per cell against one at 50, and applies the same statistics (`sim.compare.compare_tables`:
per cell a pooled two-proportion z-test with Holm-Bonferroni over the cells, Newcombe intervals; per entrant the
same over its games). Run: `python benchmarks/compare_tables.py DIR_A DIR_B [--json OUT]`.
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path
from typing import Any

from cardlab.sim.balance import matchups_for
from cardlab.sim.compare import compare_tables
from cardlab.store.games_db import CellCount


def cell_counts(folder: Path) -> list[CellCount]:
    with (folder / "table.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    counted = ("games", "p1_wins", "p2_wins", "draws")
    return [
        CellCount(row["pairing"], int(row["seat"]), row["p1"], row["p2"], *(int(row[name]) for name in counted))
        for row in rows
    ]


def compare_folders(a: Path, b: Path) -> dict[str, Any]:
    summary_a, summary_b = (json.loads((folder / "summary.json").read_text()) for folder in (a, b))
    if (summary_a["game"], summary_a["variant"]) != (summary_b["game"], summary_b["variant"]):
        raise SystemExit(f"{a} and {b} are tables of different games or variants")
    matchups = matchups_for(summary_a["game"], summary_a["variant"])
    agents = (summary_a["agent"], summary_b["agent"])
    return compare_tables(cell_counts(a), cell_counts(b), matchups, agents)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path)
    parser.add_argument("b", type=Path)
    parser.add_argument("--json", type=Path, help="write the comparison here")
    args = parser.parse_args()
    result = compare_folders(args.a, args.b)
    print(f"{result['agents'][0]} -> {result['agents'][1]}: {result['verdict']}")
    differing = sorted((cell for cell in result["cells"] if cell["significant"]), key=lambda cell: -abs(cell["diff"]))
    for cell in differing:
        low, high = cell["ci95"]
        print(
            f"  {cell['pairing']} seat {cell['seat']}: {cell['a_rate']:.1%} -> {cell['b_rate']:.1%} "
            f"({100 * cell['diff']:+.1f} points, [{100 * low:+.1f}, {100 * high:+.1f}])"
        )
    print("entrant: a -> b (diff, 95% interval)")
    for entrant in result["entrants"]:
        low, high = entrant["ci95"]
        mark = " *" if entrant["significant"] else ""
        print(
            f"  {entrant['entrant']}: {entrant['a_rate']:.1%} -> {entrant['b_rate']:.1%} "
            f"({100 * entrant['diff']:+.1f}, [{100 * low:+.1f}, {100 * high:+.1f}]){mark}"
        )
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
